"""Post-game review: where a seat lost points in a finished match, and how accurately it played.

A record is replayed through the engine; at each decision of the reviewed seat that was not forced
(more than one legal move), the hint level's search (:data:`parlour.bots.HINT_LEVEL`) judges every
legal move **from what that seat knew then**: it is handed the seat's observation at that moment,
never the state, so the hidden cards (the others' hands, the order of the draw pile) play no part.
Its random numbers are seeded from that observation too, so a review is reproducible, and two
records that differ only in cards the seat could not see give the same review.

A move is a **mistake** only when its loss — the search's value of its preferred move minus that of
the move played, in expected round points over the opponents — is clear of the search's own
uncertainty: larger than the 95% margin of both estimates.  Close calls are never called mistakes.

**Accuracy** is the share of the seat's judged decisions that were not mistakes, in percent
(forced moves are not counted; a match without a judged decision is 100% accurate).  The mean loss
per decision is given beside it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour import bots, narrate, record
from parlour.game import Move, Observation, State

Progress = Callable[[int, int], None]
"""Told ``(judged, total)`` after each judged decision of a review."""


@dataclass(frozen=True)
class Judgement:
    """The search's verdict on one decision of the reviewed seat."""

    round: int
    """The round, counted from 1 (as in a record's error messages)."""
    move: int
    """The move's place in its round, counted from 1 (every seat's moves counted)."""
    played: str
    """The move played, in notation."""
    played_text: str
    """The move played, as it was offered to the seat (``Discard 7♣``)."""
    preferred: str
    """The search's preferred move, in notation."""
    preferred_text: str
    """The preferred move, as it was offered (``Play 6♥ on your ♥ meld``)."""
    loss: float
    """Expected points over the opponents lost by the move played against the preferred one (0 or more,
    to two decimals)."""
    margin: float
    """The larger 95% margin of the two estimates compared (``inf``: the move played was hardly searched)."""
    mistake: bool
    """Whether the loss is clear of the search's uncertainty (larger than both estimates' margins)."""
    choices: int
    """How many legal moves the seat had."""

    def to_data(self) -> dict[str, Any]:
        """JSON-ready (an unknown margin is ``None``)."""
        data = asdict(self)
        data["margin"] = None if math.isinf(self.margin) else self.margin
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Judgement:
        """The judgement :meth:`to_data` wrote."""
        margin = data["margin"]
        return cls(**{**data, "margin": math.inf if margin is None else float(margin)})


@dataclass(frozen=True)
class Review:
    """A seat's decisions in one match, judged by the search, with the match's accuracy figure."""

    game: str
    seat: int
    player: str
    """The seat's name in the record."""
    analyst: str
    """The bot spec whose search judged the moves."""
    judgements: list[Judgement] = field(default_factory=list)
    forced: int = 0
    """Decisions with a single legal move, not judged."""

    @property
    def mistakes(self) -> list[Judgement]:
        """The judged decisions that were mistakes, in the order played."""
        return [j for j in self.judgements if j.mistake]

    @property
    def accuracy(self) -> float:
        """The share of judged decisions that were not mistakes, in percent (100 with none judged)."""
        if not self.judgements:
            return 100.0
        return 100.0 * (1 - len(self.mistakes) / len(self.judgements))

    @property
    def mean_loss(self) -> float:
        """The mean points lost per judged decision."""
        return sum(j.loss for j in self.judgements) / len(self.judgements) if self.judgements else 0.0

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, with the accuracy figures (as stored by the web server)."""
        return {"game": self.game, "seat": self.seat, "player": self.player, "analyst": self.analyst,
                "forced": self.forced, "accuracy": round(self.accuracy, 1), "mean_loss": round(self.mean_loss, 2),
                "judgements": [j.to_data() for j in self.judgements]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Review:
        """The review :meth:`to_data` wrote."""
        return cls(data["game"], data["seat"], data["player"], data["analyst"],
                   [Judgement.from_data(j) for j in data["judgements"]], data["forced"])


@dataclass
class Decision:
    """A decision of the reviewed seat, as it stood: what the search is handed, and what was played."""

    round: int
    move: int
    observation: Observation
    legal: list[Move]
    played: Move
    position: State
    """The state then, only to word the moves as they were offered to the seat."""


def mistake_text(judgement: Judgement) -> str:
    """``Round 2, move 5: you played “Discard 7♣”; the computer preferred “Play 6♥ on your ♥ meld” (−4.2 points)``."""
    return (f"Round {judgement.round}, move {judgement.move}: you played “{judgement.played_text}”; "
            f"the computer preferred “{judgement.preferred_text}” (−{judgement.loss:.1f} points)")


def accuracy_text(review: Review) -> str:
    """``Accuracy 86% (12 of 14 decisions without a mistake; 1.3 points lost a decision on average)``."""
    judged = len(review.judgements)
    good = judged - len(review.mistakes)
    shown = math.floor(review.accuracy + 0.5)  # half up, as the browser rounds it
    return (f"Accuracy {shown}% ({good} of {narrate.plural(judged, 'decision')} without a mistake; "
            f"{review.mean_loss:.1f} points lost a decision on average)")


def seed_of(observation: Observation, salt: int = 0) -> int:
    """The search's seed for one decision: from the seat's observation (what it knew) only."""
    text = json.dumps(observation, sort_keys=True, default=str, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(f"{salt}:{text}".encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Plan:
    """What a review of one seat has to judge: its decisions that were not forced, and how many were."""

    game: str
    seat: int
    player: str
    decisions: list[Decision]
    forced: int


def plan(match: record.Record, seat: int) -> Plan:
    """``seat``'s decisions in ``match`` (replayed: raises :class:`~parlour.record.RecordError` for a record
    that does not replay, :class:`ValueError` for a seat it does not have)."""
    check_seat(match, seat)
    found: list[Decision] = []
    forced = 0

    def look(state: State, move: Move) -> None:
        nonlocal forced
        if state.current_player() != seat:
            return
        legal = state.legal_moves()
        if len(legal) < 2:
            forced += 1
            return
        found.append(Decision(state.round_index + 1, len(state.moves) + 1, state.observation(seat),
                              list(legal), move, state.copy()))

    record.replay(match, before_move=look)
    return Plan(match.game.id, seat, match.players[seat], found, forced)


def check_seat(match: record.Record, seat: int) -> None:
    """Refuse (:class:`ValueError`) a seat the match does not have."""
    if not 0 <= seat < len(match.players):
        seats = ", ".join(f"{s} ({name})" for s, name in enumerate(match.players))
        raise ValueError(f"there is no seat {seat}; the seats are {seats}")


def analyst_for(spec: str) -> bots.Analyst:
    """The bot of ``spec``, which must be a search that estimates every move (an :class:`~parlour.bots.Analyst`)."""
    bot = bots.make(spec)
    if not isinstance(bot, bots.Analyst):
        raise ValueError(f"{spec!r} is not a search: it cannot judge moves")
    return bot


def review(match: record.Record, seat: int, analyst: str = bots.HINT_LEVEL, progress: Progress | None = None,
           salt: int = 0) -> Review:
    """Judge ``seat``'s decisions in ``match`` with the search of ``analyst`` (a bot spec whose bot is an
    :class:`~parlour.bots.Analyst`: the hint level by default; tests pass a small budget, like
    ``ismcts:iterations=200,rollout=heuristic``).  ``progress(judged, total)`` is told after each
    decision; ``salt`` changes every seed (the same salt, the same review).

    Raises :class:`~parlour.record.RecordError` for a record that does not replay and
    :class:`ValueError` for a seat the match does not have or an analyst that cannot estimate moves.
    """
    bot = analyst_for(analyst)
    todo = plan(match, seat)
    judgements: list[Judgement] = []
    for number, decision in enumerate(todo.decisions, 1):
        judgements.append(judgement(decision, verdict(bot, decision.observation, decision.legal, decision.played,
                                                      salt)))
        if progress is not None:
            progress(number, len(todo.decisions))
    return finish(todo, analyst, judgements)


def finish(todo: Plan, analyst: str, judgements: list[Judgement]) -> Review:
    """The review of a plan whose decisions are all judged."""
    return Review(todo.game, todo.seat, todo.player, analyst, judgements, todo.forced)


@dataclass(frozen=True)
class Verdict:
    """What the search made of one decision (worked out where the search runs: a worker process, say)."""

    preferred: Move
    loss: float
    """Points lost by the move played against the preferred one (0 or more, to two decimals)."""
    margin: float
    """The larger 95% margin of the two estimates (``inf``: unknown, to two decimals otherwise)."""


def verdict(bot: bots.Analyst, observation: Observation, legal: list[Move], played: Move, salt: int = 0) -> Verdict:
    """The search's verdict on the move ``played`` among ``legal``, from the seat's ``observation`` only
    (with a seed of that observation: see :func:`seed_of`)."""
    estimates = bot.analyse(observation, legal, random.Random(seed_of(observation, salt)))
    best = estimates[0]
    chosen = next(e for e in estimates if e.move == played)
    loss = round(max(0.0, best.value - chosen.value), 2) if chosen is not best else 0.0
    margin = max(best.margin, chosen.margin)
    return Verdict(best.move, loss, margin if math.isinf(margin) else round(margin, 2))


def judgement(decision: Decision, found: Verdict) -> Judgement:
    """A decision and the search's verdict on it, worded as the moves were offered to the seat."""
    position = decision.position
    return Judgement(
        round=decision.round, move=decision.move,
        played=str(decision.played), played_text=narrate.offer_text(position, decision.played),
        preferred=str(found.preferred), preferred_text=narrate.offer_text(position, found.preferred),
        loss=found.loss, margin=found.margin, mistake=found.loss > 0 and found.loss > found.margin,
        choices=len(decision.legal))
