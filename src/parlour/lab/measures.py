"""Measures of play itself, for the designers' report: read by replaying a sample of an
experiment's stored records through the engine, move by move.

At every decision: how many moves the mover could choose from, the kind of each (the game's
own words, :meth:`parlour.game.Game.move_kind`) and the kind chosen, how far apart the
best and second-best moves are, and how far apart the best and the worst.  At every
position: who leads — so that lead changes, the
point where a round is effectively decided, and how often a seat that is behind comes back
can be counted.

Who leads and how far apart the moves are is read by a :class:`Judge`: by default the game's
heuristic evaluation (each seat's expected round score, :attr:`parlour.bots.heuristic.Advice.evaluate`;
the score so far in a game that scores as it goes), one move ahead on the position as it
lies — quick, but it sees the cards as they really are; or an IS-MCTS search from the mover's
own view — slower, and it knows only what the mover knew.  The report says which.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from parlour import record
from parlour.game import Game, Move, State

SAMPLE = 100
"""Matches of an experiment replayed for these measures (evenly spread over its matches)."""
REAL_GAP = 1.0
"""A choice is a real one *in points* when the best move is ahead of the second-best by at
least this many points of expected round score (a fixed gap: rules that inflate scores inflate
it too, so the report's headline uses :data:`REAL_SHARE` instead)."""
REAL_SHARE = 0.2
"""A choice is a real one when the best move is ahead of the second-best by at least this share
of the experiment's typical spread of move values (the median, over its decisions with a choice,
of best minus worst): a measure free of the game's scale of points."""
STAGES = 10
"""A round's progress is cut into this many stages for the comeback curve."""


def evaluator(game_id: str) -> Callable[[State], list[float]]:
    """Each seat's expected round score in a position: the game's advice's evaluation, or the
    scores so far for a game whose advice gives none (one that scores as it goes)."""
    from parlour.bots.heuristic import advice

    try:
        judge = advice(game_id).evaluate
    except (KeyError, TypeError, ValueError, ImportError):
        judge = None
    if judge is None:
        return lambda state: [float(s) for s in state.scores]
    return judge


def _edge(values: Sequence[float], seat: int) -> float:
    """``seat``'s value minus the mean of the others'."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - sum(others) / len(others)


@dataclass
class PlayMeasures:
    """What the sampled matches of one experiment show, counted."""

    matches: int = 0
    rounds: int = 0
    decisions: int = 0
    """Moves made by a player (every move of these games is a player's)."""
    choices: int = 0
    """Decisions with more than one legal move."""
    real_choices: int = 0
    """Decisions whose best move is at least :data:`REAL_GAP` ahead of the second-best."""
    per_match: list[tuple[int, int, int, int]] = field(default_factory=list)
    """(match index, decisions, choices, real choices in points) of each sampled match."""
    gaps: list[tuple[int, float, float]] = field(default_factory=list)
    """(match index, best minus second-best, best minus worst) of every decision with a choice
    whose moves were valued: :func:`real_choices` counts them against the typical spread."""
    comebacks: list[tuple[int, int, float]] = field(default_factory=list)
    """(match index, seats behind the leader half-way through the round, their share of the
    round's wins) of each round with a leader at its half-way point."""
    played: Counter[str] = field(default_factory=Counter)
    """Moves made, by kind."""
    offered: Counter[str] = field(default_factory=Counter)
    """Decisions at which a kind was among several legal moves."""
    chosen_when_offered: Counter[str] = field(default_factory=Counter)
    """Of those, the decisions at which a move of that kind was made."""
    per_round: list[tuple[int, int, float | None]] = field(default_factory=list)
    """(match index, lead changes, decided at) of each round: how often the leader (by the
    evaluation) changed, and — for a round with a single winner — the share of its moves
    after which the winner led to the end (0: from the first position; 1: only at the last
    move; None for a shared win)."""
    behind: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0] for _ in range(STAGES)])
    """By stage of a round: [seats behind the leader then, their share of the round's wins]."""
    unreadable: list[int] = field(default_factory=list)
    """Sampled matches whose records this version cannot replay (made by another version of
    the game, or damaged): left out of every figure, and named."""

    def add(self, other: PlayMeasures) -> None:
        """Count ``other``'s matches in too (a match is counted only once it replayed whole)."""
        self.matches += other.matches
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.choices += other.choices
        self.real_choices += other.real_choices
        self.per_match += other.per_match
        self.gaps += other.gaps
        self.comebacks += other.comebacks
        self.played.update(other.played)
        self.offered.update(other.offered)
        self.chosen_when_offered.update(other.chosen_when_offered)
        self.per_round += other.per_round
        for mine, theirs in zip(self.behind, other.behind):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.unreadable += other.unreadable


def sample_indices(count: int, sample: int = SAMPLE) -> list[int]:
    """Up to ``sample`` of ``count`` match positions, evenly spread, in order."""
    if count <= sample:
        return list(range(count))
    if sample < 2:
        return [0] if sample == 1 else []
    return sorted({round(i * (count - 1) / (sample - 1)) for i in range(sample)})


def real_choices(gaps: Sequence[tuple[int, float, float]]) -> tuple[float | None, Counter[int]]:
    """The bar of a real choice (:data:`REAL_SHARE` of the median spread of move values over
    ``gaps``' decisions) and how many decisions of each match clear it."""
    spreads = sorted(spread for _, _, spread in gaps)
    if not spreads:
        return None, Counter()
    middle = len(spreads) // 2
    median = spreads[middle] if len(spreads) % 2 else (spreads[middle - 1] + spreads[middle]) / 2
    bar = REAL_SHARE * median
    if bar <= 0:  # every move worth the same at most decisions: a choice is real when any gap shows
        return 0.0, Counter(index for index, gap, _ in gaps if gap > 1e-9)
    return bar, Counter(index for index, gap, _ in gaps if gap >= bar - 1e-9)


@dataclass(frozen=True)
class Reading:
    """What a :class:`Judge` reads at a decision."""

    leader: int | None
    """The leading seat, or None for a tie or an unknown leader."""
    gap: float | None = None
    """The best move's lead over the second-best, in points; None with a single move."""
    spread: float | None = None
    """The best move's lead over the worst (of those the judge valued), in points."""


class Judge:
    """Who leads a position, and how far apart the mover's moves are."""

    def position(self, state: State, seat: int, legal: Sequence[Move], rng: random.Random) -> Reading:
        """What the judge reads before the mover at ``seat`` chooses among ``legal``."""
        raise NotImplementedError


class AdviceJudge(Judge):
    """The game's heuristic evaluation (:func:`evaluator`) of the position, and of each move
    one move ahead, on the cards as they lie: quick, but it sees the hidden cards."""

    def __init__(self, game_id: str) -> None:
        self.evaluate = evaluator(game_id)

    def position(self, state: State, seat: int, legal: Sequence[Move], rng: random.Random) -> Reading:
        here = self.evaluate(state)
        best = max(here)
        leader = here.index(best) if here.count(best) == 1 else None
        if len(legal) < 2:
            return Reading(leader)
        values = []
        for option in legal:
            state.apply(option)
            values.append(_edge(self.evaluate(state), seat))
            state.undo()
        values.sort(reverse=True)
        return Reading(leader, values[0] - values[1], values[0] - values[-1])


class SearchJudge(Judge):
    """An IS-MCTS search from the mover's own view (heuristic rollouts, ``iterations`` a
    decision): the mover's expected round score against the others' (the leader is the mover
    when that is positive; with two players, the other seat when it is negative), and the gap
    between the search's best move and the best of the others it looked at seriously (5% of
    its simulations or more).  Slower, and honest: it knows only what the mover knew."""

    def __init__(self, iterations: int) -> None:
        from parlour.bots.ismcts import ISMCTSBot

        self.bot = ISMCTSBot(iterations=iterations, rollout="heuristic")

    def position(self, state: State, seat: int, legal: Sequence[Move], rng: random.Random) -> Reading:
        estimates = self.bot.analyse(state.observation(seat), legal, rng)
        edge = estimates[0].value
        players = state.num_players
        leader = seat if edge > 0 else (1 - seat if players == 2 and edge < 0 else None)
        if len(legal) < 2:
            return Reading(leader)
        total = sum(e.visits for e in estimates) or 1
        others = [e.value for e in estimates[1:] if e.visits >= 0.05 * total]
        if not others:
            return Reading(leader)
        return Reading(leader, edge - max(others), edge - min(others))


JUDGES = ("advice", "search")
"""What reads a position for the measures of play: the game's evaluation, or a search."""


def measure(game: Game, texts: Sequence[tuple[int, str]], judge: str = "advice",
            iterations: int = 200) -> PlayMeasures:
    """Replay ``(match index, record JSON)`` pairs and count :class:`PlayMeasures`, each
    position read by the ``judge`` (:data:`JUDGES`; a search of ``iterations`` a decision)."""
    if judge not in JUDGES:
        raise ValueError(f"the judge of play is {' or '.join(JUDGES)}, not {judge!r}")
    reader: Judge = AdviceJudge(game.id) if judge == "advice" else SearchJudge(iterations)
    found = PlayMeasures()
    for index, text in texts:
        counted = PlayMeasures()
        try:
            _measure_match(game, reader, index, json.loads(text), counted)
        except (ValueError, KeyError, TypeError):  # a record this version cannot replay (json's errors are ValueErrors)
            found.unreadable.append(index)
            continue
        found.add(counted)
    return found


def _measure_match(game: Game, judge: Judge, index: int, data: Any, found: PlayMeasures) -> None:
    leaders: list[int | None] = []
    gaps: list[tuple[int, float, float]] = []
    counts = [0, 0, 0]
    rng = random.Random(f"parlour-measures:{index}")

    def before(state: State, move: Move) -> None:
        seat = state.current_player()
        assert seat is not None
        legal = state.legal_moves()
        reading = judge.position(state, seat, legal, rng)
        leaders.append(reading.leader)
        kind = game.move_kind(move)
        found.played[kind] += 1
        counts[0] += 1
        if len(legal) < 2:
            return
        counts[1] += 1
        kinds = {game.move_kind(m) for m in legal}
        for k in kinds:
            found.offered[k] += 1
        found.chosen_when_offered[kind] += 1
        if reading.gap is None or reading.spread is None:
            return
        if reading.gap >= REAL_GAP - 1e-9:  # a gap of exactly one point counts, rounding aside
            counts[2] += 1
        gaps.append((index, reading.gap, reading.spread))

    def after_round(state: State) -> None:
        scores = state.scores
        top = max(scores)
        winners = [s for s, v in enumerate(scores) if v == top]
        leaders.append(winners[0] if len(winners) == 1 else None)
        found.rounds += 1
        known = [leader for leader in leaders if leader is not None]
        changes = sum(1 for a, b in pairwise(known) if a != b)
        moves = len(leaders) - 1
        decided = None
        if len(winners) == 1 and moves > 0:
            last_other = max((i for i, leader in enumerate(leaders) if leader != winners[0]), default=-1)
            decided = (last_other + 1) / moves if last_other >= 0 else 0.0
        found.per_round.append((index, changes, decided))
        if moves > 0:
            halfway = leaders[stage_positions(moves)[STAGES // 2]]
            if halfway is not None:
                behind = [seat for seat in range(len(scores)) if seat != halfway]
                won = sum(1 / len(winners) for seat in behind if seat in winners)
                found.comebacks.append((index, len(behind), won))
            for stage, position in enumerate(stage_positions(moves)):
                leader = leaders[position]
                if leader is None:
                    continue
                for seat in range(len(scores)):
                    if seat != leader:
                        found.behind[stage][0] += 1
                        found.behind[stage][1] += (1 / len(winners)) if seat in winners else 0.0
        leaders.clear()

    record.replay(record.from_data(data), before_move=before, after_round=after_round)
    found.matches += 1
    found.decisions += counts[0]
    found.choices += counts[1]
    found.real_choices += counts[2]
    found.per_match.append((index, counts[0], counts[1], counts[2]))
    found.gaps += gaps


def stage_positions(moves: int) -> list[int]:
    """The position (0 = before the first move) at the start of each of the :data:`STAGES`
    stages of a round of ``moves`` moves."""
    return [min(moves - 1, stage * moves // STAGES) for stage in range(STAGES)]


def load_texts(store: Any, experiment_id: int, sample: int = SAMPLE) -> list[tuple[int, str]]:
    """The records (JSON) of up to ``sample`` of an experiment's stored matches, evenly spread
    over them: only those records are read (they are most of the database)."""
    from sqlalchemy import select

    from parlour.store import Match

    mine = Match.experiment_id == experiment_id
    with store.session() as session:
        stored = list(session.scalars(select(Match.index).where(mine).order_by(Match.index)))
        chosen = [stored[i] for i in sample_indices(len(stored), sample)]
        rows = session.execute(select(Match.index, Match.record).where(mine, Match.index.in_(chosen))
                               .order_by(Match.index)).all()
    return [(row.index, row.record) for row in rows]
