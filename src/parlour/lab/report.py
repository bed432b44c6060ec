"""The designers' report: what the lab's stored matches say about a game.

First a summary in plain sentences.  Then, for every experiment: score
distributions by seat and by position, win rates with 95% intervals (the
first-player advantage, also in Elo points), round and match length, how often
each scoring event happens and how rounds end, and — for duplicate deals — how
much of a result the deal decides, with a warning instead when the bots played
a deal's seatings identically.  Every interval and test counts independent
units: deals when deals are duplicated, matches otherwise.  The variants of
each study (one plan) are then compared with its baseline, deal by deal when
they share their seeds, with Holm's correction over all the tests of a table
and a stop rule for the first player's win rate.  Experiments of different
studies are never compared.

:func:`build` gives the numbers as JSON-ready data; :func:`write` adds the
plots (PNG) and renders an HTML page, a Markdown page or a JSON file.  The
numbers come from the store's match, round and event rows alone: no record
is replayed, so a report over tens of thousands of matches stays quick.
"""

from __future__ import annotations

import html
import json
import math
import re
import textwrap
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from sqlalchemy import select

from parlour import games
from parlour.game import RoundEnding
from parlour.lab import measures
from parlour.lab.arena import player_labels
from parlour.lab.stats import holm, icc_interval, paired_difference, t_interval, units_needed, wilson_interval
from parlour.store import EventRow, Experiment, Match, RoundRow, Store

FORMAT = "parlour-report/1"
"""The ``format`` field of the JSON report."""
FORMATS = ("html", "json", "markdown")
"""The formats :func:`write` can render."""
ALPHA = 0.05
"""A p-value below this is marked significant."""
_MAIN_FILE = {"html": "report.html", "json": "report.json", "markdown": "report.md"}

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]


# -- loading -------------------------------------------------------------------

@dataclass
class _Played:
    """One experiment's stored results as arrays: a row per match, a row per round."""

    experiment: Experiment
    labels: list[str]
    """Player names as the arena gives them (``random#1`` when a spec repeats)."""
    deal: IntArray
    """(M,) the duplicate deal of each match, −1 in ``matches`` mode."""
    first: IntArray
    """(M,) the seat that started round 1."""
    seat_of: IntArray
    """(M, players) the seat of each player (the inverse of ``Match.seating``)."""
    totals: FloatArray
    """(M, seats) match totals by seat."""
    share: FloatArray
    """(M, seats) each seat's share of the win (1/k for each of k tied winners)."""
    rounds: IntArray
    moves: IntArray
    round_match: IntArray
    """(R,) the match row of each round."""
    round_moves: IntArray
    kinds: list[str]
    """Every event kind seen, most frequent first."""
    counts: IntArray
    """(R, kinds) how often each kind happened in each round."""
    endings: IntArray
    """(R,) how each round ended, as an index into the game's ``endings``."""
    index: IntArray
    """(M,) each match's place in its experiment (match ``i`` of two variants of one study
    has the same seed and seating)."""
    signature: list[tuple[Any, ...]]
    """(M,) what a match did, seat by seat: totals, moves per round, every event with its move
    and seat.  Two seatings of a duplicate deal with the same signature replayed identically."""

    @property
    def unit(self) -> IntArray:
        """(M,) each match's independent unit: its deal when deals are duplicated (the seatings
        of a deal share its cards), else the match itself."""
        return self.deal if self.duplicate else self.index

    @property
    def unit_word(self) -> str:
        return "deals" if self.duplicate else "matches"

    @property
    def seats(self) -> int:
        """Players at the table."""
        return len(self.labels)

    @property
    def duplicate(self) -> bool:
        """Whether the experiment played duplicate deals."""
        return self.experiment.mode == "deals"

    def by_position(self, values: FloatArray) -> FloatArray:
        """(M, seats) columns re-ordered by position: column 0 is the seat that started round 1."""
        rows = np.arange(len(values))[:, None]
        seats = (self.first[:, None] + np.arange(self.seats)[None, :]) % self.seats
        result: FloatArray = values[rows, seats]
        return result

    def by_player(self, values: FloatArray) -> FloatArray:
        """(M, players) columns re-ordered by player (the experiment's list order)."""
        result: FloatArray = values[np.arange(len(values))[:, None], self.seat_of]
        return result

    def margins(self) -> FloatArray:
        """(M, seats) each seat's total minus the mean of the other seats' totals
        (:func:`parlour.lab.arena.diff_for` for every match at once)."""
        n = self.seats
        result: FloatArray = (n * self.totals - self.totals.sum(axis=1, keepdims=True)) / (n - 1)
        return result

    def complete_deals(self) -> IntArray:
        """(G, seatings) match rows of every deal played in all its seatings, by deal.

        A run stopped part-way may leave a deal short of seatings; it is left
        out so that every group compares the same cards played every way.
        """
        groups: dict[int, list[int]] = {}
        for row, deal in enumerate(self.deal.tolist()):
            groups.setdefault(deal, []).append(row)
        full = [rows for _, rows in sorted(groups.items()) if len(rows) == self.seats]
        return np.array(full, dtype=np.int64).reshape(len(full), self.seats)


def _load(store: Store, experiment: Experiment) -> _Played:
    """Read one experiment's matches, rounds and events into arrays."""
    # Only the columns the report needs, read as plain rows: Store.matches
    # would also load every record's JSON text (most of the database), and
    # Store.events builds an ORM object per event — over ten seconds and most
    # of a gigabyte for 10,000 matches of 100 Silver Bars, against one second here.
    mine = Match.experiment_id == experiment.id
    with store.session() as session:
        rows = session.execute(
            select(Match.id, Match.index, Match.deal, Match.seating, Match.first, Match.totals, Match.winners,
                   Match.rounds, Match.moves).where(mine).order_by(Match.index)).all()
        round_rows = session.execute(
            select(RoundRow.match_id, RoundRow.number, RoundRow.moves).join(Match, RoundRow.match_id == Match.id)
            .where(mine).order_by(Match.index, RoundRow.number)).all()
        event_rows = session.execute(
            select(EventRow.match_id, EventRow.round_number, EventRow.kind, EventRow.move_number, EventRow.seat)
            .join(Match, EventRow.match_id == Match.id).where(mine).order_by(EventRow.id)).all()
    seats = len(experiment.players)
    count = len(rows)
    place = {row.id: m for m, row in enumerate(rows)}
    seating = np.array([row.seating for row in rows], dtype=np.int64).reshape(count, seats)
    share = np.zeros((count, seats))
    for m, row in enumerate(rows):
        for seat in row.winners:
            share[m, seat] = 1 / len(row.winners)
    where = {(match_id, number): r for r, (match_id, number, _) in enumerate(round_rows)}
    event_round = np.array([where[row.match_id, row.round_number] for row in event_rows], dtype=np.int64)
    kinds_seen, event_kind = np.unique(np.array([row.kind for row in event_rows], dtype=object),
                                       return_inverse=True)
    happened: list[list[tuple[Any, ...]]] = [[] for _ in rows]
    for event in event_rows:
        happened[place[event.match_id]].append((event.round_number, event.move_number, event.seat, event.kind))
    played_moves: list[list[int]] = [[] for _ in rows]
    for played in round_rows:
        played_moves[place[played.match_id]].append(played.moves)
    tally = np.bincount(event_kind.ravel(), minlength=len(kinds_seen))
    order = sorted(range(len(kinds_seen)), key=lambda i: (-tally[i], kinds_seen[i]))  # most frequent first
    kinds = [str(kinds_seen[i]) for i in order]
    column = np.empty(len(order), dtype=np.int64)
    column[order] = np.arange(len(order))
    counts = np.zeros((len(round_rows), len(kinds)), dtype=np.int64)
    np.add.at(counts, (event_round, column[event_kind.ravel()]), 1)
    return _Played(
        experiment=experiment,
        labels=player_labels(experiment.players),
        deal=np.array([-1 if row.deal is None else row.deal for row in rows], dtype=np.int64),
        first=np.array([row.first for row in rows], dtype=np.int64),
        seat_of=np.argsort(seating, axis=1).astype(np.int64),
        totals=np.array([row.totals for row in rows], dtype=np.float64).reshape(count, seats),
        share=share,
        rounds=np.array([row.rounds for row in rows], dtype=np.int64),
        moves=np.array([row.moves for row in rows], dtype=np.int64),
        round_match=np.array([place[row.match_id] for row in round_rows], dtype=np.int64),
        round_moves=np.array([row.moves for row in round_rows], dtype=np.int64),
        kinds=kinds,
        counts=counts,
        endings=_endings(games.get(experiment.game).endings, kinds, counts),
        index=np.array([row.index for row in rows], dtype=np.int64),
        signature=[(tuple(row.totals), tuple(played_moves[m]), tuple(happened[m])) for m, row in enumerate(rows)],
    )


def _endings(endings: Sequence[RoundEnding], kinds: Sequence[str], counts: IntArray) -> IntArray:
    """How each round ended, as an index into the game's ``endings``, judged from its events
    as the game says (the first ending whose event kind a round shows; else the usual end)."""
    usual = [i for i, ending in enumerate(endings) if ending.kind is None]
    found = np.full(len(counts), usual[0] if usual else -1, dtype=np.int64)
    # Later assignments win, so go from the weakest sign to the strongest.
    for number in reversed(range(len(endings))):
        kind = endings[number].kind
        if kind is not None and kind in kinds:
            found[counts[:, kinds.index(kind)] > 0] = number
    return found


def _played(store: Store, names: Sequence[str] | None) -> list[_Played]:
    """The named experiments (all if none), in the order named, loaded."""
    experiments = store.experiments(names)
    if names:
        order = {name: i for i, name in enumerate(dict.fromkeys(names))}
        experiments.sort(key=lambda e: order[e.name])
    return [_load(store, experiment) for experiment in experiments]


# -- small statistics ----------------------------------------------------------

def _float(value: float | np.floating[Any] | None) -> float | None:
    """A plain float for JSON, or None for a missing or non-finite number."""
    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


def _summary(values: npt.ArrayLike) -> dict[str, Any]:
    """n, mean, sd (sample), min, quartiles and max of ``values``."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return {"n": 0, "mean": None, "sd": None, "min": None, "q1": None, "median": None, "q3": None, "max": None}
    q1, median, q3 = np.percentile(data, [25, 50, 75])
    return {
        "n": int(data.size),
        "mean": float(data.mean()),
        "sd": float(data.std(ddof=1)) if data.size > 1 else None,
        "min": float(data.min()),
        "q1": float(q1),
        "median": float(median),
        "q3": float(q3),
        "max": float(data.max()),
    }


def _rate(successes: float, trials: int) -> dict[str, Any]:
    """A win rate over independent matches with its 95% Wilson interval."""
    low, high = wilson_interval(successes, trials)
    return {"matches": trials, "wins": float(successes), "rate": successes / trials if trials else None,
            "ci": [low, high], "interval": f"Wilson over {trials} matches"}


def _by_unit(values: FloatArray, units: IntArray) -> tuple[IntArray, FloatArray]:
    """The units (sorted) and the mean of ``values`` within each."""
    keys, inverse = np.unique(units, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=values, minlength=len(keys))
    sizes = np.bincount(inverse.ravel(), minlength=len(keys))
    means: FloatArray = sums / np.maximum(sizes, 1)
    return keys.astype(np.int64), means


def _mean_of_units(values: Sequence[float] | FloatArray, units: IntArray) -> dict[str, Any]:
    """The mean of ``values`` over the units they belong to (each unit's own mean first, so
    that each weighs the same), with its 95% t interval, and how many units there are."""
    if not len(values):
        return {"mean": None, "ci": None, "units": 0}
    _, per_unit = _by_unit(np.asarray(values, dtype=np.float64), units)
    mean, low, high = t_interval(per_unit.tolist())
    return {"mean": mean, "ci": None if low is None else [low, high], "units": len(per_unit)}


def _mean_ci(p: _Played, values: FloatArray, per_round: bool = False) -> dict[str, Any]:
    """The mean of per-match (or per-round) ``values`` with its 95% t interval over the
    experiment's independent units (deals or matches; rounds are averaged within theirs)."""
    units = p.unit[p.round_match] if per_round else p.unit
    return {**_mean_of_units(values, units), "unit": p.unit_word}


def _unit_rate(p: _Played, shares: FloatArray) -> dict[str, Any]:
    """A win rate from each match's share of the win: over matches, a Wilson interval; over
    duplicate deals, the deal's mean share is one observation, with a t interval over deals."""
    if not p.duplicate:
        return _rate(float(shares.sum()), len(shares))
    _, per_deal = _by_unit(shares, p.deal)
    mean, low, high = t_interval(per_deal.tolist())
    ci = [0.0, 1.0] if low is None or high is None else [max(0.0, low), min(1.0, high)]
    return {"matches": len(shares), "wins": float(shares.sum()), "rate": mean, "ci": ci,
            "interval": f"t over {len(per_deal)} deals"}


def elo(rate: float | None) -> float | None:
    """The Elo difference that gives a win rate of ``rate`` against an equal opponent."""
    if rate is None or not 0 < rate < 1:
        return None
    return 400 * math.log10(rate / (1 - rate))


def welch_p(a: npt.ArrayLike, b: npt.ArrayLike) -> float | None:
    """Two-sided p-value of Welch's t-test (unequal variances) for a difference of means.

    None when a side has fewer than two values or neither side varies (the
    test is undefined there, and a designer should see "no test", not a number).
    """
    from scipy import stats

    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.size < 2 or y.size < 2 or (x.var() == 0 and y.var() == 0):
        return None
    with warnings.catch_warnings():
        # Near-constant data makes scipy warn about precision; the p-value is still usable.
        warnings.simplefilter("ignore")
        p = _float(stats.ttest_ind(x, y, equal_var=False).pvalue)
    return None if p is None else min(max(p, 0.0), 1.0)


def two_proportions_p(wins_a: float, trials_a: int, wins_b: float, trials_b: int) -> float | None:
    """Two-sided p-value of the pooled two-proportion z-test.

    Wins may be fractional (shared wins), which the z-test takes as they are
    where Fisher's exact test would need them rounded.  None without data or
    when the pooled rate is 0 or 1 (nothing varies).
    """
    if trials_a == 0 or trials_b == 0:
        return None
    pooled = (wins_a + wins_b) / (trials_a + trials_b)
    variance = pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b)
    if variance <= 0:
        return None
    z = (wins_a / trials_a - wins_b / trials_b) / math.sqrt(variance)
    return math.erfc(abs(z) / math.sqrt(2))


def icc(groups: FloatArray) -> dict[str, Any] | None:
    """One-way ANOVA intraclass correlation of a (groups × k) table, clipped to [0, 1].

    ICC = (MSB − MSW) / (MSB + (k − 1)·MSW): the share of the variance that
    lies between groups.  None with fewer than two groups of two, or no variance.
    """
    count, k = groups.shape
    if count < 2 or k < 2:
        return None
    means = groups.mean(axis=1)
    msb = float(k * ((means - groups.mean()) ** 2).sum() / (count - 1))
    msw = float(((groups - means[:, None]) ** 2).sum() / (count * (k - 1)))
    denominator = msb + (k - 1) * msw
    if denominator <= 0:
        return None
    value = min(max((msb - msw) / denominator, 0.0), 1.0)
    return {"icc": value, "players_share": 1 - value, "msb": msb, "msw": msw}


# -- the numbers ---------------------------------------------------------------

_NO_ICC = ("icc", "players_share", "msb", "msw", "ci")
IDENTICAL_LIMIT = 0.05
"""The share of duplicate deals replayed identically in every seating above which no ICC is
given: such seatings are copies, and the ICC would read them as the deal deciding everything."""


def _position_name(position: int) -> str:
    return ("first player", "second player", "third player", "fourth player")[position] if position < 4 \
        else f"player {position + 1} in turn"


def _with_ci(p: _Played, values: FloatArray, per_round: bool = False) -> dict[str, Any]:
    """A summary of ``values`` and its mean's 95% interval over the independent units."""
    summary = _summary(values)
    summary["mean_ci"] = _mean_ci(p, values, per_round)["ci"]
    return summary


def _scores(p: _Played) -> dict[str, Any]:
    positions = p.by_position(p.totals)
    return {
        "by_seat": [{"seat": s, **_with_ci(p, p.totals[:, s])} for s in range(p.seats)],
        "by_position": [{"position": q, **_with_ci(p, positions[:, q])} for q in range(p.seats)],
    }


def _wins(p: _Played) -> dict[str, Any]:
    count = len(p.share)
    positions = p.by_position(p.share)
    players = p.by_player(p.share)
    player_margins = p.by_player(p.margins())
    by_position = []
    for q in range(p.seats):
        item = {"position": q, **_unit_rate(p, positions[:, q])}
        if p.seats == 2:  # a seat's edge on the scale of players' strength
            item["elo"] = elo(item["rate"])
            item["elo_ci"] = [elo(item["ci"][0]), elo(item["ci"][1])]
        by_position.append(item)
    return {
        "fair_share": 1 / p.seats,
        "by_seat": [{"seat": s, **_unit_rate(p, p.share[:, s])} for s in range(p.seats)],
        "by_position": by_position,
        "by_player": [
            {"player": label, "spec": spec, **_unit_rate(p, players[:, j]),
             "mean_margin": _float(player_margins[:, j].mean()) if count else None}
            for j, (label, spec) in enumerate(zip(p.labels, p.experiment.players))
        ],
    }


def _lengths(p: _Played) -> dict[str, Any]:
    return {
        "moves_per_round": _with_ci(p, p.round_moves.astype(np.float64), per_round=True),
        "rounds_per_match": _with_ci(p, p.rounds.astype(np.float64)),
        "moves_per_match": _with_ci(p, p.moves.astype(np.float64)),
    }


def _events(p: _Played) -> dict[str, Any]:
    rounds = len(p.counts)
    kinds = {}
    for i, kind in enumerate(p.kinds):
        column = p.counts[:, i]
        kinds[kind] = {
            "count": int(column.sum()),
            "per_round": float(column.mean()) if rounds else None,
            "per_round_ci": _mean_ci(p, column.astype(np.float64), per_round=True)["ci"],
            "share_of_rounds": float((column > 0).mean()) if rounds else None,
            # The same number of times in every round: part of the rules' clockwork, not of play.
            "constant": bool(rounds) and bool((column == column[0]).all()),
        }
    # Every way the game's rounds can end, even one that never happened here.
    endings = {}
    for number, ending in enumerate(games.get(p.experiment.game).endings):
        seen = int((p.endings == number).sum())
        endings[ending.name] = {"rounds": seen, "share": seen / rounds if rounds else None}
    return {"rounds": rounds, "kinds": kinds, "endings": endings}


def identical_deals(p: _Played) -> int:
    """How many complete duplicate deals were played move for move the same in every seating
    (the same cards, the same moves by seat, the same events): their seatings are copies."""
    return sum(1 for rows in p.complete_deals() if len({p.signature[row] for row in rows}) == 1)


def _deal_vs_players(p: _Played) -> dict[str, Any] | None:
    if not p.duplicate:
        return None
    groups = p.complete_deals()
    margins = p.margins()
    positions = p.by_position(margins)
    players = p.by_player(margins)
    by_player = []
    for j, label in enumerate(p.labels):
        # Each deal's seatings are averaged first: the seatings of one deal share its cards.
        per_deal = players[groups, j].mean(axis=1) if len(groups) else np.zeros(0)
        mean, low, high = t_interval(per_deal.tolist())
        by_player.append({"player": label, "spec": p.experiment.players[j], "deals": len(per_deal),
                          "mean_margin": mean, "ci": None if low is None else [low, high]})
    copies = identical_deals(p)
    share = copies / len(groups) if len(groups) else 0.0
    withheld = share > IDENTICAL_LIMIT
    by_position = []
    for q in range(p.seats):
        found = None if withheld else icc(positions[groups, q])
        if found is not None:
            found["ci"] = list(icc_interval(found["msb"], found["msw"], len(groups), p.seats))
        by_position.append({"position": q, **(found or dict.fromkeys(_NO_ICC))})
    warning = None
    if copies:
        noise = p.experiment.noise
        advice = (f"more playtest noise than {noise:g} (noise in the plan, --noise)" if noise else
                  "playtest noise (noise = 0.05 in the plan, --noise 0.05)")
        warning = (f"{copies} of {len(groups)} deals ({share:.0%}) were played move for move the same in every "
                   "seating: the bots made the same choices whoever sat where, so those seatings are copies, "
                   "not separate tries. " + (
                       "The share decided by the deal is not given: it would read the copies as the deal "
                       f"deciding everything. Give the bots {advice} so that every seating is a try of its own."
                       if withheld else
                       f"The share decided by the deal counts them as agreement and may read a little high "
                       f"(above {IDENTICAL_LIMIT:.0%} of the deals it is not given); {advice} would avoid it."))
    return {
        "deals": len(groups),
        "per_deal": p.seats,
        "identical_deals": copies,
        "identical_share": share,
        "warning": warning,
        "by_position": by_position,
        "by_player": by_player,
    }


def _bots(p: _Played) -> str:
    """Who played, in words: the players and their slips."""
    slips = p.experiment.noise
    return ", ".join(p.labels) + (f", each with {slips:.0%} random slips" if slips else "")


# -- play, duration and anomalies ---------------------------------------------

@dataclass(frozen=True)
class Settings:
    """What the designer may set for a report."""

    baseline: str | None = None
    """The variant each study's others are compared with (default: the plan's)."""
    smallest: float = 0.05
    """The smallest change of the first player's win rate worth telling apart (the stop rule's)."""
    seconds_per_move: float = 5.0
    """How long a person takes for a move, to give durations in minutes."""
    target_minutes: tuple[float, float] | None = None
    """The range a match should last, in minutes (None: no target)."""
    sample: int = measures.SAMPLE
    """Matches of each experiment replayed for the measures of play."""
    judge: str = "advice"
    """What reads each position for the measures of play (:data:`parlour.lab.measures.JUDGES`)."""
    judge_iterations: int = 200
    """The search's iterations a decision, when the judge is the search."""


def _sample_units(p: _Played, indices: Sequence[int]) -> IntArray:
    """The independent unit of each sampled match (by its index): its deal, or itself."""
    array = np.array(indices, dtype=np.int64)
    result: IntArray = array // p.seats if p.duplicate else array
    return result


def _share_ci(numerators: Sequence[float], denominators: Sequence[float], units: IntArray) -> dict[str, Any]:
    """A share summed over units (numerator / denominator within each unit), with a 95% t interval
    over the units' shares."""
    keys = np.unique(units)
    tops = np.zeros(len(keys))
    bottoms = np.zeros(len(keys))
    where = np.searchsorted(keys, units)
    np.add.at(tops, where, np.asarray(numerators, dtype=np.float64))
    np.add.at(bottoms, where, np.asarray(denominators, dtype=np.float64))
    shares = [t / b for t, b in zip(tops, bottoms) if b > 0]
    total = float(np.sum(bottoms))
    _, low, high = t_interval(shares)
    return {"share": float(np.sum(tops)) / total if total else None,
            "ci": None if low is None or high is None else [max(0.0, low), min(1.0, high)]}


def _play(store: Store, p: _Played, settings: Settings) -> dict[str, Any] | None:
    """What replaying a sample of the experiment's records shows (:mod:`parlour.lab.measures`)."""
    texts = measures.load_texts(store, p.experiment.id, settings.sample)
    if not texts:
        return None
    found = measures.measure(games.get(p.experiment.game), texts, settings.judge, settings.judge_iterations)
    per_match = found.per_match
    units = _sample_units(p, [index for index, *_ in per_match])
    decisions = [d for _, d, _, _ in per_match]
    kinds = {
        kind: {"played": count, "share_of_moves": count / max(found.decisions, 1),
               "offered": found.offered[kind],
               "chosen_when_offered": (found.chosen_when_offered[kind] / found.offered[kind]
                                       if found.offered[kind] else None)}
        for kind, count in found.played.most_common()
    }
    round_units = _sample_units(p, [index for index, _, _ in found.per_round])
    changes = _mean_of_units([c for _, c, _ in found.per_round], round_units)
    decided = [(u, d) for u, (_, _, d) in zip(round_units.tolist(), found.per_round) if d is not None]
    decided_at = _mean_of_units([d for _, d in decided], np.array([u for u, _ in decided], dtype=np.int64))
    comebacks = []
    for stage, (behind, won) in enumerate(found.behind):
        low, high = wilson_interval(won, int(behind)) if behind else (None, None)
        comebacks.append({"stage": stage, "from": stage / measures.STAGES, "behind": int(behind),
                          "wins": won, "rate": won / behind if behind else None,
                          "ci": None if low is None else [low, high]})
    return {
        "sample": found.matches,
        "of": len(p.totals),
        "unreadable": found.unreadable,
        "judge": settings.judge,
        "judge_iterations": settings.judge_iterations if settings.judge == "search" else None,
        "rounds": found.rounds,
        "decisions": found.decisions,
        "real_gap": measures.REAL_GAP,
        "choices": _share_ci([c for _, _, c, _ in per_match], decisions, units),
        "real_choices": _share_ci([r for _, _, _, r in per_match], decisions, units),
        "kinds": kinds,
        "lead_changes": changes,
        "decided_at": {**decided_at, "median": float(np.median([d for _, d in decided])) if decided else None},
        "comebacks": comebacks,
    }


def _duration(p: _Played, settings: Settings) -> dict[str, Any]:
    """How long a match lasts for people at ``seconds_per_move``, against the designer's target."""
    minutes = p.moves.astype(np.float64) * settings.seconds_per_move / 60
    result: dict[str, Any] = {"seconds_per_move": settings.seconds_per_move, "minutes": _with_ci(p, minutes),
                              "target": None}
    if settings.target_minutes is not None and len(minutes):
        low, high = settings.target_minutes
        result["target"] = {
            "minutes": [low, high],
            "shorter": _unit_rate(p, (minutes < low).astype(np.float64)),
            "within": _unit_rate(p, ((minutes >= low) & (minutes <= high)).astype(np.float64)),
            "longer": _unit_rate(p, (minutes > high).astype(np.float64)),
        }
    return result


def _anomalies(p: _Played) -> list[dict[str, Any]]:
    """What a designer should look at, each with an example match: rounds ended by a stall rule,
    matches stopped at the safety limit on rounds, and the longest round."""
    game = games.get(p.experiment.game)
    found = []
    for number, ending in enumerate(game.endings):
        if not ending.stall:
            continue
        stalled = (p.endings == number).astype(np.float64)
        rows = np.flatnonzero(stalled)
        found.append({"key": f"stall-{number}", "what": f"rounds ended by the {ending.name.lower()}",
                      "count": len(rows), "share": _mean_ci(p, stalled, per_round=True),
                      "example": int(p.index[p.round_match[rows[0]]]) if len(rows) else None})
    try:
        options = game.check_options(p.experiment.options)
        capped = np.array([game.capped(options, int(r), t) for r, t in zip(p.rounds, p.totals.astype(int).tolist())],
                          dtype=np.float64)
    except (ValueError, KeyError):  # stored by a version of the game with other options
        capped = np.zeros(len(p.rounds))
    rows = np.flatnonzero(capped)
    found.append({"key": "capped", "what": "matches stopped at the limit on rounds", "count": len(rows),
                  "share": _mean_ci(p, capped), "example": int(p.index[rows[0]]) if len(rows) else None})
    if len(p.round_moves):
        longest = int(np.argmax(p.round_moves))
        found.append({"key": "longest", "what": f"the longest round: {int(p.round_moves[longest])} moves "
                                                f"(median {float(np.median(p.round_moves)):g})",
                      "count": 1, "share": None, "example": int(p.index[p.round_match[longest]])})
    return found


def _experiment(p: _Played, store: Store, settings: Settings) -> dict[str, Any]:
    e = p.experiment
    game = games.get(e.game)
    try:
        options = game.non_default_options(game.check_options(e.options))
    except (ValueError, KeyError):  # stored by a version of the game with other options
        options = dict(e.options)
    return {
        "name": e.name,
        "study": e.study,
        "game": e.game,
        "game_name": game.name,
        "game_version": e.game_version,
        "options": options,
        "players": list(e.players),
        "labels": p.labels,
        "noise": e.noise,
        "bots": _bots(p),
        "mode": e.mode,
        "count": e.count,
        "seed": e.seed,
        "rounds_only": e.rounds_only,
        "matches": len(p.totals),
        "rounds": len(p.round_moves),
        "units": len(np.unique(p.unit)),
        "unit": p.unit_word,
        "scores": _scores(p),
        "wins": _wins(p),
        "length": _lengths(p),
        "events": _events(p),
        "deal_vs_players": _deal_vs_players(p),
        "duration": _duration(p, settings),
        "anomalies": _anomalies(p),
        "play": _play(store, p, settings),
    }


# -- variants side by side -----------------------------------------------------

@dataclass
class _Metric:
    """One row of a comparison: a value per match (or per round) of each experiment."""

    key: str
    label: str
    data: Callable[[_Played], FloatArray]
    """The raw values, one per match (or per round)."""
    per_round: bool = False
    rate: bool = False
    """A win rate (a share of matches won): shown as a percentage."""

    def value(self, p: _Played) -> float | None:
        """The experiment's value of this metric: the mean over its independent units."""
        mean: float | None = _mean_ci(p, self.data(p), self.per_round)["mean"]
        return mean

    def units(self, p: _Played) -> tuple[IntArray, FloatArray]:
        """Independent observations and their units: per deal (the mean of its seatings) for
        duplicate deals, per match otherwise (a per-round value averaged within its match)."""
        return _by_unit(self.data(p), p.unit[p.round_match] if self.per_round else p.unit)


def _position_totals(q: int) -> Callable[[_Played], FloatArray]:
    def totals(p: _Played) -> FloatArray:
        return p.by_position(p.totals)[:, q]
    return totals


def _occurrences(kind: str) -> Callable[[_Played], FloatArray]:
    def occurrences(p: _Played) -> FloatArray:
        if kind not in p.kinds:
            return np.zeros(len(p.counts))
        return p.counts[:, p.kinds.index(kind)].astype(np.float64)
    return occurrences


def _first_share(p: _Played) -> FloatArray:
    return p.by_position(p.share)[:, 0]


_ROUNDS = _Metric("rounds_per_match", "Rounds per match", lambda p: p.rounds.astype(np.float64))
_ROUND_MOVES = _Metric("moves_per_round", "Moves per round", lambda p: p.round_moves.astype(np.float64),
                       per_round=True)
_MATCH_MOVES = _Metric("moves_per_match", "Moves per match", lambda p: p.moves.astype(np.float64))
_FIRST_WINS = _Metric("win_rate_position_0", "Win rate, first player", _first_share, rate=True)


def _metrics(group: Sequence[_Played]) -> list[_Metric]:
    """Every row of the comparison of ``group``: events that happen the same number of times
    in every round of every variant are left out (nothing to compare)."""
    metrics = [_FIRST_WINS]
    metrics += [_Metric(f"total_position_{q}", f"Mean total, {_position_name(q)}", _position_totals(q))
                for q in range(group[0].seats)]
    metrics += [_ROUNDS, _ROUND_MOVES, _MATCH_MOVES]
    kinds = sorted({kind for p in group for kind in p.kinds})
    for kind in kinds:
        metric = _Metric(f"event:{kind}", f"{kind} per round", _occurrences(kind), per_round=True)
        seen = np.concatenate([metric.data(p) for p in group])
        if seen.size and not (seen == seen[0]).all():
            metrics.append(metric)
    return metrics


def _paired(baseline: _Played, other: _Played) -> bool:
    """Whether two variants' matches pair up: the same seed, mode and seats, so match (or deal)
    ``i`` of each has the same seed and seating."""
    a, b = baseline.experiment, other.experiment
    return a.seed == b.seed and a.mode == b.mode and len(a.players) == len(b.players)


def _test(metric: _Metric, baseline: _Played, other: _Played) -> dict[str, Any]:
    """``other`` against ``baseline`` on ``metric``: the difference of the means with its 95%
    interval and the p-value of the test named in ``test``."""
    keys_a, a = metric.units(baseline)
    keys_b, b = metric.units(other)
    word = baseline.unit_word
    if _paired(baseline, other):
        common, at_a, at_b = np.intersect1d(keys_a, keys_b, return_indices=True)
        found = paired_difference(a[at_a].tolist(), b[at_b].tolist())
        ci = None if found["low"] is None else [found["low"], found["high"]]
        return {"test": f"paired t over {len(common)} {word}", "p": found["p"], "difference": found["difference"],
                "ci": ci, "units": len(common), "sd": found["sd"]}
    difference = float(b.mean() - a.mean()) if a.size and b.size else None
    if metric.rate and not baseline.duplicate and not other.duplicate:
        p = two_proportions_p(float(a.sum()), len(a), float(b.sum()), len(b))
        return {"test": f"two-proportion z over {len(a)} and {len(b)} {word}", "p": p, "difference": difference,
                "ci": None, "units": min(len(a), len(b)), "sd": None}
    return {"test": f"Welch t over {len(a)} and {len(b)} {word}", "p": welch_p(a, b), "difference": difference,
            "ci": None, "units": min(len(a), len(b)), "sd": None}


def stop_rule(test: dict[str, Any], smallest: float) -> dict[str, Any]:
    """Whether the deals played are enough to tell the variant from the baseline: ``apart``
    when the difference is significant (after Holm's correction); ``enough`` when its 95%
    interval lies within ±``smallest`` (no difference worth having); else ``more``, with about
    how many more paired units would tell apart a true difference of ``smallest``."""
    adjusted, ci, sd, units = test.get("p_adjusted"), test["ci"], test["sd"], test["units"]
    if adjusted is not None and adjusted < ALPHA:
        return {"verdict": "apart", "more": 0}
    if ci is not None and -smallest < ci[0] and ci[1] < smallest:
        return {"verdict": "enough", "more": 0}
    if sd is None or sd == 0:
        return {"verdict": "more", "more": None}
    return {"verdict": "more", "more": max(0, units_needed(sd, smallest) - units)}


def _comparison(group: Sequence[_Played], smallest: float) -> dict[str, Any]:
    baseline = group[0]
    rows = []
    for metric in _metrics(group):
        tests = [_test(metric, baseline, other) for other in group[1:]]
        rows.append({
            "key": metric.key,
            "metric": metric.label,
            "values": [_float(metric.value(p)) for p in group],
            "cis": [_mean_ci(p, metric.data(p), metric.per_round)["ci"] for p in group],
            "tests": [None, *(t["test"] for t in tests)],
            "p_values": [None, *(t["p"] for t in tests)],
            "differences": [None, *({"difference": t["difference"], "ci": t["ci"]} for t in tests)],
            "_tests": tests,
        })
    # Holm's correction over every test of the table: one family, however many rows.
    adjusted = holm([p for row in rows for p in row["p_values"][1:]])
    at = 0
    for row in rows:
        row["p_adjusted"] = [None, *adjusted[at:at + len(group) - 1]]
        at += len(group) - 1
        row["significant"] = [None if p is None else p < ALPHA for p in row["p_adjusted"]]
        for test, p in zip(row["_tests"], row["p_adjusted"][1:]):
            test["p_adjusted"] = p
        if row["key"] == _FIRST_WINS.key:
            row["stop"] = [None, *(stop_rule(test, smallest) for test in row["_tests"])]
        del row["_tests"]
    bots = [(p.experiment.players, p.experiment.noise) for p in group]
    same_bots = all(b == bots[0] for b in bots)
    return {
        "game": baseline.experiment.game,
        "study": baseline.experiment.study,
        "baseline": baseline.experiment.name,
        "experiments": [p.experiment.name for p in group],
        "bots": [_bots(p) for p in group],
        "same_bots": same_bots,
        "paired": [None, *(_paired(baseline, p) for p in group[1:])],
        "smallest_difference": smallest,
        "unit": baseline.unit_word,
        "tests_made": sum(1 for p in adjusted if p is not None),
        "metrics": rows,
    }


# -- what a study's shape answers: sweeps, deal luck, skill depth, restricted play ----

_RESTRICTED = re.compile(r"^(?P<bot>.+)/(?P<how>without|always):(?P<kind>.+)$")
"""A player barred from a kind of move, or bound to it (:class:`parlour.bots.Restricted`)."""
_SEARCH_BUDGET = re.compile(r"^ismcts:(?:.*,)?iterations=(?P<iterations>\d+)(?:,.*)?$")


def _seat_shares(p: _Played, player: int) -> FloatArray:
    """One player's share of the win per independent unit (deal or match)."""
    return _by_unit(p.by_player(p.share)[:, player], p.unit)[1]


def _against_fair(p: _Played, player: int) -> dict[str, Any]:
    """A player's win rate against the fair share: the difference with its 95% interval (over
    deals or matches) and a one-sample t-test's p."""
    from scipy import stats

    shares = _seat_shares(p, player)
    fair = 1 / p.seats
    mean, low, high = t_interval((shares - fair).tolist())
    p_value = None
    if len(shares) > 1 and shares.std() > 0:
        p_value = float(stats.ttest_1samp(shares, fair).pvalue)
    elif len(shares) > 1 and mean:
        p_value = 0.0
    return {"rate": None if mean is None else mean + fair, "gap": mean, "ci": None if low is None else [low, high],
            "rate_ci": None if low is None or high is None else [max(0.0, low + fair), min(1.0, high + fair)],
            "p": p_value, "units": len(shares)}


def _sweep(group: Sequence[_Played], sections: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """Variants that differ from one another in one game option alone, played by the same bots:
    the main measures against the option's value."""
    first = group[0].experiment
    changed = {key for p in group for key, value in p.experiment.options.items() if first.options.get(key) != value}
    if len(changed) != 1 or any((p.experiment.players, p.experiment.noise, p.experiment.mode)
                                != (first.players, first.noise, first.mode) for p in group):
        return None
    (option,) = changed
    ordered = sorted(group, key=lambda p: _sort_key(p.experiment.options[option]))
    measures_ = [_FIRST_WINS, _MATCH_MOVES, _ROUND_MOVES]
    series = [{"key": m.key, "metric": m.label,
               "points": [{"value": p.experiment.options[option], **_mean_ci(p, m.data(p), m.per_round)}
                          for p in ordered]} for m in measures_]
    if all(p.duplicate for p in ordered):
        points = []
        for p in ordered:
            deal = sections[p.experiment.name]["deal_vs_players"]
            item = deal["by_position"][0] if deal else {}
            points.append({"value": p.experiment.options[option], "mean": item.get("icc"), "ci": item.get("ci")})
        series.append({"key": "icc_position_0", "metric": "Share decided by the deal (ICC), first player",
                       "points": points})
    return {"option": option, "values": [p.experiment.options[option] for p in ordered], "series": series}


def _sort_key(value: Any) -> tuple[int, Any]:
    """Option values in order: none first, then numbers (and yes/no) by size, then words."""
    if value is None:
        return (0, 0)
    if isinstance(value, bool | int | float):
        return (1, float(value))
    return (2, str(value))


def _luck(group: Sequence[_Played], sections: dict[str, dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Variants of the same rules on duplicate deals, each played by copies of one bot: how much
    the deal decides, across bot strengths."""
    first = group[0].experiment
    if not all(p.duplicate and p.experiment.options == first.options and len(set(p.experiment.players)) == 1
               for p in group) or len({p.experiment.players[0] for p in group}) < 2:
        return None
    rows = []
    for p in group:
        deal = sections[p.experiment.name]["deal_vs_players"]
        assert deal is not None
        item = deal["by_position"][0]
        rows.append({"experiment": p.experiment.name, "bots": _bots(p), "icc": item["icc"], "ci": item.get("ci"),
                     "identical_share": deal["identical_share"], "deals": deal["deals"]})
    return rows


def _depth(group: Sequence[_Played]) -> list[dict[str, Any]] | None:
    """Variants where a search with twice the budget plays one with the budget (SkillTrace): the
    stronger's win rate as the budget doubles, and where doubling stops paying."""
    rows = []
    for p in group:
        budgets = [_SEARCH_BUDGET.match(spec) for spec in p.experiment.players[:2]]
        if not all(budgets) or int(budgets[0]["iterations"]) != 2 * int(budgets[1]["iterations"]):  # type: ignore[index]
            return None
        rows.append({"experiment": p.experiment.name, "budget": int(budgets[1]["iterations"]),  # type: ignore[index]
                     **_against_fair(p, 0)})
    rows.sort(key=lambda row: row["budget"])
    for row in rows:
        row["pays"] = row["ci"] is not None and row["ci"][0] > 0
        row["elo"] = elo(row["rate"])
    return rows


def _matters(group: Sequence[_Played], played: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """Variants where one player is barred from a kind of move (or bound to it): the restricted
    player's win rate against the unrestricted ones, corrected for the number of kinds tried."""
    rows = []
    for p in group[1:]:
        found = _RESTRICTED.match(p.experiment.players[0])
        if found is None:
            continue
        kind = found["kind"]
        share = None if played is None else played["kinds"].get(kind, {}).get("share_of_moves", 0.0)
        rows.append({"experiment": p.experiment.name, "kind": kind, "how": found["how"], "played_share": share,
                     **_against_fair(p, 0)})
    if not rows:
        return None
    for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
        row["p_adjusted"] = adjusted
        row["significant"] = adjusted is not None and adjusted < ALPHA
    return rows


def _ladders(played: Sequence[_Played]) -> list[dict[str, Any]]:
    """Skill against chance from the ladder (``parlour lab ladder``): for every pairing of bot
    levels of a two-player game, the first-named level's win rate over the other with its 95%
    interval, and the same as an Elo gap — the spread of the levels on a scale every game
    shares (a game where the best level is hundreds of Elo points above the weakest rewards
    skill more than one where the levels sit close together)."""
    from parlour.lab.ladder import prefix

    found: dict[str, list[dict[str, Any]]] = {}
    for p in played:
        game = p.experiment.game
        if p.seats != 2 or not p.experiment.name.startswith(prefix(game)) or not len(p.share):
            continue
        rate = _unit_rate(p, p.by_player(p.share)[:, 0])
        found.setdefault(game, []).append({
            "experiment": p.experiment.name, "stronger": p.experiment.players[0], "weaker": p.experiment.players[1],
            "matches": len(p.share), "rate": rate["rate"], "ci": rate["ci"], "elo": elo(rate["rate"]),
            "elo_ci": [elo(rate["ci"][0]), elo(rate["ci"][1])]})
    for rows in found.values():  # each pairing read as the stronger against the weaker
        for row in rows:
            if row["rate"] is not None and row["rate"] < 0.5:
                row["stronger"], row["weaker"] = row["weaker"], row["stronger"]
                row["rate"], row["ci"] = 1 - row["rate"], [1 - row["ci"][1], 1 - row["ci"][0]]
                row["elo"], row["elo_ci"] = elo(row["rate"]), [elo(row["ci"][0]), elo(row["ci"][1])]
    return [{"game": game, "game_name": games.get(game).name, "pairings": rows} for game, rows in found.items()]


def _findings(group: Sequence[_Played], sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the study's shape answers, from its experiments and their sections of the report."""
    return {"sweep": _sweep(group, sections), "luck": _luck(group, sections), "depth": _depth(group),
            "matters": _matters(group, sections[group[0].experiment.name]["play"])}


def _studies(played: Sequence[_Played], baseline: str | None = None) -> list[list[_Played]]:
    """The experiments of each study with two or more in the report, the baseline first: the
    one named ``baseline`` (a full name, or a variant's name within its study), else the one
    the study's plan chose, else the study's first.  Experiments of different studies, and
    experiments of no study (quick runs), are never compared."""
    by_study: dict[str, list[_Played]] = {}
    for p in played:
        if p.experiment.study is not None:
            by_study.setdefault(p.experiment.study, []).append(p)
    groups = []
    chosen_anywhere = baseline is None
    for study, group in by_study.items():
        if len(group) < 2:
            continue
        names = [p.experiment.name for p in group]
        pick = None
        if baseline is not None:
            for candidate in (baseline, f"{study}/{baseline}"):
                if candidate in names:
                    pick = names.index(candidate)
                    chosen_anywhere = True
        if pick is None:
            stored = group[0].experiment.baseline
            pick = names.index(stored) if stored in names else 0
        groups.append([group[pick], *(p for i, p in enumerate(group) if i != pick)])
    if not chosen_anywhere:
        raise ValueError(f"no study in the report has a variant named {baseline!r}")
    return groups


def _numbers(store: Store, played: Sequence[_Played], settings: Settings) -> dict[str, Any]:
    numbers: dict[str, Any] = {
        "format": FORMAT,
        "database": store.url,
        "alpha": ALPHA,
        "settings": {"seconds_per_move": settings.seconds_per_move, "sample": settings.sample,
                     "target_minutes": None if settings.target_minutes is None else list(settings.target_minutes)},
        "experiments": [_experiment(p, store, settings) for p in played],
        "comparisons": [_comparison(group, settings.smallest) for group in _studies(played, settings.baseline)],
        "uncompared": [p.experiment.name for p in played if p.experiment.study is None],
        "ladders": _ladders(played),
    }
    sections = {section["name"]: section for section in numbers["experiments"]}
    by_name = {p.experiment.name: p for p in played}
    for comparison in numbers["comparisons"]:
        group = [by_name[name] for name in comparison["experiments"]]
        comparison["findings"] = _findings(group, sections)
    numbers["summary"] = summary(numbers)
    return numbers


def build(store: Store, names: Sequence[str] | None = None, **settings: Any) -> dict[str, Any]:
    """The report's numbers for the named experiments (all if ``names`` is empty), JSON-ready.

    Experiments come in the order named (else the order stored).  The variants of each study
    are compared with its baseline (``baseline``: a variant's name; default: the plan's).
    ``settings`` are :class:`Settings`' fields.  Unknown names raise :class:`ValueError`.
    """
    return _numbers(store, _played(store, names), Settings(**settings))


# -- the summary ---------------------------------------------------------------

def _points(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def _show(key: str, value: float | None) -> str:
    if value is None:
        return "—"
    return _points(value) if key.startswith("win_rate") else f"{value:.3g}"


def _change(key: str, difference: float | None) -> str:
    if difference is None:
        return "—"
    return f"{difference * 100:+.1f} points" if key.startswith("win_rate") else f"{difference:+.3g}"


def _questions(section: dict[str, Any]) -> str:
    """One sentence on how long a match takes, how much the deal decides, how many decisions
    are real choices, and what went wrong, for one experiment."""
    duration = section["duration"]
    parts = [f"a match takes a median of {duration['minutes']['median']:.0f} minutes at "
             f"{duration['seconds_per_move']:g} s a move"]
    target = duration["target"]
    if target is not None:
        low, high = target["minutes"]
        parts[-1] += f" ({_points(target['within']['rate'])} of matches within {low:g}–{high:g} minutes)"
    deal = section["deal_vs_players"]
    first = None if deal is None else deal["by_position"][0]
    if first is not None and first["icc"] is not None:
        ci = first.get("ci")
        interval = "" if not ci or ci[0] is None else f" ({_points(ci[0])}–{_points(ci[1])})"
        parts.append(f"the deal decides {_points(first['icc'])}{interval} of the first player's margin")
    play = section["play"]
    if play is not None and play["real_choices"]["share"] is not None:
        parts.append(f"{_points(play['real_choices']['share'])} of decisions are real choices (the best move "
                     f"{play['real_gap']:g}+ points ahead)")
        decided = play["decided_at"]["median"]
        if decided is not None:
            parts.append(f"a round's winner leads for good from {_points(decided)} of the way in (median)")
    troubles = [f"{item['count']} {item['what']}" for item in section["anomalies"]
                if item["key"] != "longest" and item["count"]]
    parts.append("anomalies: " + "; ".join(troubles) if troubles else "no stalls or capped matches")
    return f"{section['name']}: " + "; ".join(parts) + "."


def _about_bots(comparison: dict[str, Any]) -> bool:
    """Whether a study varies the bots on purpose (deal luck, skill depth, restricted play)."""
    findings = comparison.get("findings", {})
    return any(findings.get(key) is not None for key in ("luck", "depth", "matters"))


def _findings_summary(findings: dict[str, Any]) -> list[str]:
    """Sentences for what a study's shape answers (see :func:`_findings`)."""
    lines = []
    sweep = findings["sweep"]
    if sweep is not None:
        first = sweep["series"][0]["points"]
        known = [point for point in first if point["mean"] is not None]
        if known:
            lines.append(f"Sweeping {sweep['option']} from {known[0]['value']} to {known[-1]['value']}, the first "
                         f"player's win rate goes from {_points(known[0]['mean'])} to {_points(known[-1]['mean'])} "
                         "(each value against the baseline is tested in the comparison).")
    luck = findings["luck"]
    if luck is not None:
        parts = [f"{row['bots']}: {_points(row['icc'])}" + (
            "" if row["ci"] is None else f" ({_points(row['ci'][0])}–{_points(row['ci'][1])})") for row in luck]
        lines.append("The share of the first player's margin that the deal decides, by bots: " + "; ".join(parts) + ".")
    depth = findings["depth"]
    if depth is not None:
        stops = next((row["budget"] for row in depth if not row["pays"]), None)
        lines.append("Twice the search wins " + "; ".join(
            f"{_points(row['rate'])} at {row['budget']} iterations" for row in depth) + ": " + (
            f"doubling stops paying clearly from {stops} iterations." if stops is not None else
            "every doubling tried still pays."))
    matters = findings["matters"]
    if matters is not None:
        costly = [row for row in matters if row["significant"]]
        free = [row["kind"] for row in matters if not row["significant"]]
        for row in costly:
            how = "barred from" if row["how"] == "without" else "bound to"
            lines.append(f"A bot {how} '{row['kind']}' wins {_points(row['rate'])} against unrestricted copies "
                         f"({_change('win_rate', row['gap'])} against a fair share; Holm-adjusted p = "
                         f"{row['p_adjusted']:.3g}).")
        if free:
            lines.append("No measurable effect of restricting: " + ", ".join(f"'{kind}'" for kind in free) + ".")
    return lines


def summary(numbers: dict[str, Any]) -> list[str]:
    """A few plain sentences, first in the report: what is significant and what is not."""
    lines, even = [], []
    for section in numbers["experiments"]:
        if not section["matches"]:
            continue
        first = section["wins"]["by_position"][0]
        fair = section["wins"]["fair_share"]
        low, high = first["ci"]
        figures = f"{_points(first['rate'])}, 95% interval {_points(low)}–{_points(high)}"
        if low > fair or high < fair:
            side = "an advantage to" if low > fair else "a disadvantage to"
            lines.append(f"{section['name']} ({section['bots']}; {section['units']} {section['unit']}): {side} the "
                         f"first player, who wins {figures} against a fair {_points(fair)}.")
        else:
            even.append(f"{section['name']} ({figures})")
        deal = section["deal_vs_players"]
        if deal is not None and deal["warning"] and deal["identical_share"] > IDENTICAL_LIMIT:
            lines.append(f"{section['name']}: {deal['warning']}")
        lines.append(_questions(section))
    if even:
        lines.append("No clear advantage to either seat (the first player's 95% interval holds the fair share) in: "
                     + "; ".join(even) + ".")
    for comparison in numbers["comparisons"]:
        names = comparison["experiments"]
        base = names[0]
        found, quiet = [], []
        for row in comparison["metrics"]:
            for i in range(1, len(names)):
                if row["significant"][i]:
                    change = row["differences"][i]
                    ci = change["ci"]
                    interval = "" if ci is None else (
                        f", 95% interval {_change(row['key'], ci[0])} to {_change(row['key'], ci[1])}")
                    key = row["key"]
                    found.append(f"{names[i]} changes {row['metric'].lower()} from {_show(key, row['values'][0])} "
                                 f"to {_show(key, row['values'][i])} ({_change(key, change['difference'])}"
                                 f"{interval}; {row['tests'][i]}, p = {row['p_adjusted'][i]:.3g} after Holm's "
                                 "correction).")
            if not any(row["significant"][1:]):
                quiet.append(row["metric"].lower())
        study = comparison["study"]
        lines.append(f"Study {study!r}: {len(names) - 1} variant(s) against the baseline {base}, "
                     f"{comparison['tests_made']} tests in all, corrected together (Holm).")
        if not comparison["same_bots"] and not _about_bots(comparison):
            lines.append(f"Study {study!r}: the variants were not all played by the same bots "
                         f"({'; '.join(dict.fromkeys(comparison['bots']))}): a difference may come from the bots, "
                         "not the rules.")
        lines += found or [f"Study {study!r}: no variant differs significantly from {base} in any measure."]
        if found and quiet:
            lines.append(f"No significant change in: {'; '.join(quiet)}.")
        first = next(row for row in comparison["metrics"] if row["key"] == _FIRST_WINS.key)
        smallest = comparison["smallest_difference"]
        for i in range(1, len(names)):
            stop = first["stop"][i]
            if stop["verdict"] == "enough":
                lines.append(f"{names[i]}: the first player's win rate is within ±{smallest:.0%} of the baseline's; "
                             "more deals would not change the conclusion.")
            elif stop["verdict"] == "more":
                more = "more" if stop["more"] is None else f"about {stop['more']} more"
                lines.append(f"{names[i]}: not yet told apart from the baseline on the first player's win rate; "
                             f"{more} {comparison['unit']} of each would tell apart a difference of "
                             f"{smallest * 100:.0f} points.")
        lines += _findings_summary(comparison["findings"])
    for ladder in numbers["ladders"]:
        lines.append(f"Skill against chance in {ladder['game_name']} (the ladder's pairings): " + "; ".join(
            f"{row['stronger']} beats {row['weaker']} {_points(row['rate'])} of matches"
            + ("" if row["elo"] is None else f" ({row['elo']:+.0f} Elo)") for row in ladder["pairings"]) + ".")
    if numbers["uncompared"] and len(numbers["experiments"]) > 1:
        lines.append("Experiments run one by one (not from one plan) are not compared with each other: run the "
                     "variants from one plan, a study, to compare them on the same deals.")
    return lines


# -- plots ---------------------------------------------------------------------

_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def _figure(width: float, height: float) -> Figure:
    """A figure drawn by the Agg canvas: no pyplot, so no global backend is switched."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: Path) -> str:
    figure.savefig(path, dpi=110)
    return path.name


def _bins(values: FloatArray) -> list[float] | int:
    """Bin edges: whole numbers fall in the middle of equal bins (at most 40), so no bin
    gets one more possible value than its neighbours; other data gets numpy's choice."""
    if values.size == 0:
        return 10
    low, high = float(values.min()), float(values.max())
    if np.all(values == np.round(values)):
        width = max(1, math.ceil((high - low + 1) / 40))
        return [float(edge) for edge in np.arange(low - 0.5, high + width, width)]
    edges = np.histogram_bin_edges(values, bins="auto")
    return [float(edge) for edge in edges] if len(edges) <= 41 else 40


def _wrap(text: str, width: int = 28) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _plot_scores(p: _Played, path: Path) -> str:
    figure = _figure(3.2 * p.seats + 0.6, 5.4)
    axes = figure.subplots(2, p.seats, sharex=True, squeeze=False)
    positions = p.by_position(p.totals)
    bins = _bins(p.totals.ravel())
    for column in range(p.seats):
        for row, (data, title) in enumerate(((p.totals[:, column], f"Seat {column}"),
                                             (positions[:, column], _position_name(column).capitalize()))):
            ax: Axes = axes[row][column]
            ax.hist(data, bins=bins, color=_COLOURS[column], alpha=0.8)
            if data.size:
                ax.axvline(float(data.mean()), color="black", linestyle="--", linewidth=1, label="mean")
                ax.legend(loc="best", fontsize=8)
            ax.set_title(f"{title} (mean {data.mean():.1f})" if data.size else title, fontsize=10)
            ax.set_xlabel("match total")
            ax.set_ylabel("matches")
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Score distribution — {_wrap(p.experiment.name, 70)}", fontsize=11)
    return _save(figure, path)


def _rate_bars(ax: Axes, items: Sequence[dict[str, Any]], labels: Sequence[str], fair: float, title: str) -> None:
    rates = [item["rate"] or 0.0 for item in items]
    low = [r - item["ci"][0] for r, item in zip(rates, items)]
    high = [item["ci"][1] - r for r, item in zip(rates, items)]
    ax.bar(range(len(items)), rates, yerr=[low, high], capsize=6, color=_COLOURS[: len(items)], alpha=0.85,
           label="win rate (95% interval)")
    ax.axhline(fair, color="black", linestyle="--", linewidth=1, label=f"fair share {fair:.2f}")
    ax.set_xticks(range(len(items)), [_wrap(label, 14) for label in labels], fontsize=9)
    ax.set_ylim(0, 1.25)  # room for the legend above a rate near 1
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("win rate")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper right", fontsize=8)


def _plot_wins(p: _Played, numbers: dict[str, Any], path: Path) -> str:
    wins = numbers["wins"]
    figure = _figure(11, 3.8)
    axes = figure.subplots(1, 3)
    fair = wins["fair_share"]
    _rate_bars(axes[0], wins["by_seat"], [f"seat {s}" for s in range(p.seats)], fair, "By seat")
    _rate_bars(axes[1], wins["by_position"], [_position_name(q) for q in range(p.seats)], fair,
               "By position (first-player advantage)")
    _rate_bars(axes[2], wins["by_player"], p.labels, fair, "By player")
    figure.suptitle(f"Win rates — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_lengths(p: _Played, path: Path) -> str:
    figure = _figure(11, 3.6)
    axes = figure.subplots(1, 3)
    for ax, data, title, unit in (
        (axes[0], p.round_moves.astype(np.float64), "Moves per round", "rounds"),
        (axes[1], p.rounds.astype(np.float64), "Rounds per match", "matches"),
        (axes[2], p.moves.astype(np.float64), "Moves per match", "matches"),
    ):
        ax.hist(data, bins=_bins(data), color="#4c72b0", alpha=0.85)
        if data.size:
            ax.axvline(float(data.mean()), color="black", linestyle="--", linewidth=1,
                       label=f"mean {data.mean():.1f}")
            ax.legend(loc="best", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(title.lower())
        ax.set_ylabel(unit)
        # Every length is a whole number of moves or rounds, and so is every count.
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Round and match length — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_events(p: _Played, numbers: dict[str, Any], path: Path) -> str:
    kinds = numbers["events"]["kinds"]
    endings = numbers["events"]["endings"]
    figure = _figure(11, max(3.2, 0.42 * max(len(kinds), len(endings)) + 1.4))
    left, right = figure.subplots(1, 2, width_ratios=[3, 2])
    names = list(reversed(kinds))  # most frequent at the top
    per_round = [kinds[k]["per_round"] or 0.0 for k in names]
    left.barh(names, per_round, color="#55a868")
    for y, kind in enumerate(names):
        left.text(per_round[y], y, f" {_frequency(per_round[y])} ({_pct(kinds[kind]['share_of_rounds'])} of rounds)",
                  va="center", fontsize=8)
    left.set_xlim(0, max([*per_round, 0.01]) * 1.45)
    left.set_xlabel("occurrences per round (mean)")
    left.set_title("Scoring events", fontsize=10)
    left.tick_params(axis="y", labelsize=9)
    ending_names = list(reversed(endings))
    shares = [endings[e]["share"] or 0.0 for e in ending_names]
    right.barh(ending_names, shares, color="#c44e52")
    for y, share in enumerate(shares):
        right.text(share, y, f" {share:.0%}", va="center", fontsize=8)
    right.set_xlim(0, 1.15)
    right.set_xlabel("share of rounds")
    right.set_title("How rounds end", fontsize=10)
    figure.suptitle(f"Events — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_deal(p: _Played, numbers: dict[str, Any], path: Path) -> str:
    deal = numbers["deal_vs_players"]
    figure = _figure(11, 3.6)
    left, right = figure.subplots(1, 2)
    names = [_position_name(item["position"]) for item in deal["by_position"]]
    shares = [item["icc"] or 0.0 for item in deal["by_position"]]
    left.barh(names, shares, color="#8172b2", label="the deal")
    left.barh(names, [1 - s for s in shares], left=shares, color="#ccb974", label="the players and their play")
    for y, share in enumerate(shares):
        left.text(0.01, y, f"deal {share:.0%} | players {1 - share:.0%}", va="center", fontsize=9)
    left.set_xlim(0, 1)
    left.set_xlabel("share of the variance of the score margin")
    left.set_title(f"What decides the margin ({deal['deals']} deals)", fontsize=10)
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, fontsize=8)
    players = deal["by_player"]
    means = [item["mean_margin"] or 0.0 for item in players]
    errors = [(item["ci"][1] - item["ci"][0]) / 2 if item["ci"] else 0.0 for item in players]
    right.bar(range(len(players)), means, yerr=errors, capsize=6, color=_COLOURS[: len(players)], alpha=0.85)
    right.axhline(0, color="black", linewidth=1)
    right.set_xticks(range(len(players)), [_wrap(item["player"], 14) for item in players], fontsize=9)
    right.set_ylabel("points above the others' mean")
    right.set_title("Mean score margin by player (95% interval over deals)", fontsize=10)
    figure.suptitle(f"Deal versus players — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_play(p: _Played, play: dict[str, Any], path: Path) -> str:
    figure = _figure(11, max(3.6, 0.32 * len(play["kinds"]) + 1.4))
    left, right = figure.subplots(1, 2)
    stages = [item for item in play["comebacks"] if item["rate"] is not None]
    xs = [item["from"] * 100 for item in stages]
    rates = [item["rate"] for item in stages]
    left.errorbar(xs, rates, yerr=_error_bars(rates, [item["ci"] for item in stages]), marker="o", capsize=4,
                  color="#4c72b0", label="win rate of a seat behind (95% interval)")
    left.axhline(1 / p.seats, color="black", linestyle="--", linewidth=1, label=f"fair share {1 / p.seats:.2f}")
    left.set_ylim(0, 1)
    left.set_xlim(-5, 100)
    left.set_xlabel("share of the round played (%)")
    left.set_ylabel("win rate when behind")
    left.set_title("Comebacks: how often a seat behind then wins the round", fontsize=10)
    left.legend(loc="upper right", fontsize=8)
    names = list(reversed(play["kinds"]))
    shares = [play["kinds"][k]["share_of_moves"] for k in names]
    right.barh(names, shares, color="#55a868")
    for y, share in enumerate(shares):
        right.text(share, y, f" {share:.1%}", va="center", fontsize=8)
    right.set_xlim(0, max([*shares, 0.01]) * 1.3)
    right.set_xlabel("share of moves")
    right.set_title("What is played", fontsize=10)
    right.tick_params(axis="y", labelsize=9)
    figure.suptitle(f"Play — {_wrap(p.experiment.name, 80)} ({play['sample']} matches replayed)", fontsize=11)
    return _save(figure, path)


def _plot_comparison(group: Sequence[_Played], numbers: dict[str, Any], path: Path) -> str:
    labels = [f"V{i + 1}" for i in range(len(group))]
    rows = {row["key"]: row for row in numbers["metrics"]}
    events = [row for row in numbers["metrics"] if row["key"].startswith("event:")]
    figure = _figure(12, 4.2 + 0.3 * len(group) * len(events))
    grid = figure.add_gridspec(2, 3, height_ratios=[3.2, max(1.0, 0.3 * len(group) * len(events))])
    axes = [figure.add_subplot(grid[0, column]) for column in range(3)]
    for ax, metric in zip(axes, (_ROUND_MOVES, _ROUNDS)):
        key, title = metric.key, metric.label
        values = [v or 0.0 for v in rows[key]["values"]]
        ax.bar(labels, values, yerr=_error_bars(values, rows[key]["cis"]), capsize=6,
               color=_COLOURS[: len(group)], alpha=0.85)
        _mark_significant(ax, rows[key], values)
        ax.set_title(f"{title} (95% interval)", fontsize=10)
        ax.set_ylabel(title.lower())
    win = rows["win_rate_position_0"]
    rates = [v or 0.0 for v in win["values"]]
    axes[2].bar(labels, rates, yerr=_error_bars(rates, win["cis"]), capsize=6, color=_COLOURS[: len(group)],
                alpha=0.85)
    axes[2].axhline(1 / group[0].seats, color="black", linestyle="--", linewidth=1, label="fair share")
    _mark_significant(axes[2], win, rates)
    axes[2].set_ylim(0, 1.25)  # room for the legend above a rate near 1
    axes[2].set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    axes[2].set_ylabel("win rate")
    axes[2].set_title("First player's win rate (95% interval)", fontsize=10)
    axes[2].legend(loc="upper right", fontsize=8)
    ax = figure.add_subplot(grid[1, :])
    height = 0.8 / len(group)
    for i in range(len(group)):
        # V1 on top of each group (the axis is inverted below)
        ys = [y + (2 * i - (len(group) - 1)) * height / 2 for y in range(len(events))]
        ax.barh(ys, [row["values"][i] or 0.0 for row in events], height=height, color=_COLOURS[i % len(_COLOURS)],
                label=f"{labels[i]}: {_wrap(group[i].experiment.name, 40)}")
    ax.set_yticks(range(len(events)),
                  [row["key"][len("event:"):] + (" *" if any(row["significant"][1:]) else "") for row in events],
                  fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("occurrences per round (mean); * marks a difference from V1 significant after Holm's correction")
    ax.set_title("Scoring events per round", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    figure.suptitle(f"Variants of {games.get(group[0].experiment.game).name} side by side (V1 is the baseline)",
                    fontsize=11)
    return _save(figure, path)


def _error_bars(values: Sequence[float], cis: Sequence[list[float] | None]) -> list[list[float]]:
    """Matplotlib's error bars (below, above) from 95% intervals (none where there is none)."""
    return [[v - ci[0] if ci else 0.0 for v, ci in zip(values, cis)],
            [ci[1] - v if ci else 0.0 for v, ci in zip(values, cis)]]


def _plot_sweep(sweep: dict[str, Any], path: Path) -> str:
    series = sweep["series"]
    figure = _figure(3.6 * len(series) + 0.4, 3.6)
    axes = figure.subplots(1, len(series), squeeze=False)[0]
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in sweep["values"])
    for ax, line in zip(axes, series):
        points = [point for point in line["points"] if point["mean"] is not None]
        # Numbers on their own scale; none, yes/no or words as evenly spaced labels.
        xs = [float(point["value"]) if numeric else float(sweep["values"].index(point["value"])) for point in points]
        ys = [point["mean"] for point in points]
        ax.errorbar(xs, ys, yerr=_error_bars(ys, [point["ci"] for point in points]), marker="o", capsize=4,
                    color="#4c72b0")
        if not numeric:
            ax.set_xticks(range(len(sweep["values"])), [str(v).lower() for v in sweep["values"]])
        if line["key"].startswith(("win_rate", "icc")):
            ax.set_ylim(0, 1)
        ax.set_xlabel(sweep["option"])
        ax.set_title(_wrap(line["metric"] + " (95% interval)", 40), fontsize=10)
        if numeric:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Sweep of {sweep['option']}", fontsize=11)
    return _save(figure, path)


def _plot_depth(depth: list[dict[str, Any]], path: Path) -> str:
    figure = _figure(6.5, 3.8)
    ax = figure.subplots()
    xs = [row["budget"] for row in depth]
    rates = [row["rate"] or 0.0 for row in depth]
    ax.errorbar(xs, rates, yerr=_error_bars(rates, [row["rate_ci"] for row in depth]), marker="o", capsize=4,
                color="#c44e52", label="twice the budget wins (95% interval)")
    ax.axhline(0.5, color="black", linestyle="--", linewidth=1, label="no gain")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1)
    ax.set_xlabel("budget of the weaker search (iterations)")
    ax.set_ylabel("win rate of twice the budget")
    ax.set_title("Skill depth: does twice the search pay?", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return _save(figure, path)


def _mark_significant(ax: Axes, row: dict[str, Any], values: Sequence[float]) -> None:
    """A star over each bar that differs from the baseline significantly (Holm-adjusted p < ALPHA)."""
    for x, (value, significant) in enumerate(zip(values, row["significant"])):
        if significant:
            ax.annotate("*", (x, value), textcoords="offset points", xytext=(8, 2), fontsize=14, ha="center")


def _plots(played: Sequence[_Played], numbers: dict[str, Any], out: Path) -> None:
    """Draw every plot into ``out`` and note the file names in ``numbers``."""
    for p, section in zip(played, numbers["experiments"]):
        stem = f"exp{p.experiment.id}"
        section["plots"] = {
            "scores": _plot_scores(p, out / f"{stem}-scores.png"),
            "wins": _plot_wins(p, section, out / f"{stem}-wins.png"),
            "length": _plot_lengths(p, out / f"{stem}-length.png"),
            "events": _plot_events(p, section, out / f"{stem}-events.png"),
        }
        if section["deal_vs_players"] is not None:
            section["plots"]["deal_vs_players"] = _plot_deal(p, section, out / f"{stem}-deal.png")
        if section["play"] is not None:
            section["plots"]["play"] = _plot_play(p, section["play"], out / f"{stem}-play.png")
    by_name = {p.experiment.name: p for p in played}
    for comparison in numbers["comparisons"]:
        group = [by_name[name] for name in comparison["experiments"]]
        stem = f"compare-{comparison['game']}-{group[0].experiment.id}"
        comparison["plots"] = {"comparison": _plot_comparison(group, comparison, out / f"{stem}.png")}
        findings = comparison["findings"]
        if findings["sweep"] is not None:
            comparison["plots"]["sweep"] = _plot_sweep(findings["sweep"], out / f"{stem}-sweep.png")
        if findings["depth"] is not None:
            comparison["plots"]["depth"] = _plot_depth(findings["depth"], out / f"{stem}-depth.png")


# -- pages ---------------------------------------------------------------------

@dataclass
class _Heading:
    level: int
    text: str


@dataclass
class _Text:
    text: str
    warning: bool = False


@dataclass
class _List:
    items: list[str]


@dataclass
class _Image:
    file: str
    alt: str


@dataclass
class _Link:
    text: str
    href: str


Cell: TypeAlias = "str | _Link"


@dataclass
class _Table:
    headers: list[str]
    rows: Sequence[Sequence[Cell]]


_Block: TypeAlias = "_Heading | _Text | _List | _Image | _Table"

_EXPLAIN = {
    "scores": (
        "Each match's final total for every seat. A seat is a place at the table; a position counts from the "
        "seat that played first in round 1 (the first player). Wide spreads mean swingy matches; a gap between "
        "positions means moving first (or last) is worth points."
    ),
    "wins": (
        "The share of matches won. A tie for the best total shares the win: each of k tied seats gets 1/k. "
        "The 95% interval holds the true rate 19 times out of 20. It is counted over independent results: "
        "over matches (Wilson's interval) when every match has its own deal, over deals (Student's t over "
        "each deal's mean) when every deal is played in every seating, since those seatings share their "
        "cards and are not independent. In a fair game every position wins 1/n of the time; a first-player "
        "interval that stays clear of that line is a first-player advantage worth fixing (or compensating). "
        "With two players the edge is also given in Elo points: the rating gap that would give the same "
        "win rate between players."
    ),
    "players": (
        "Win rate and mean score margin (own total minus the others' mean) of each player. When the bots are "
        "identical, any gap here is noise — a check on the numbers above."
    ),
    "length": (
        "How long play lasts: moves per round (every move the game's notation writes counts), rounds per match "
        "(always 1 for single-round experiments) and moves per match, with the 95% interval of each mean. "
        "Long tails point at rounds that drag."
    ),
    "events": (
        "How often each thing the rules name happens: the mean number of occurrences per round with its 95% "
        "interval, and the share of rounds where it happens at least once. A bonus that almost never fires is "
        "a rule that hardly matters. Things that happen the same number of times in every round are part of "
        "the rules' clockwork, not of play: they are listed once, below the table."
    ),
    "endings": (
        "How rounds end, judged from their events. Many stall endings mean players stop drawing new cards."
    ),
    "deal": (
        "In duplicate play every deal is played again in every seating, so the same cards are played by "
        "different players. For each position the score margin (own total minus the others' mean) varies "
        "between deals — the cards — and within a deal — who sat there and how they played. The intraclass "
        "correlation ICC = (MSB − MSW) / (MSB + (k − 1)·MSW) is the share that the deal decides; 1 − ICC is "
        "the share left to the players and their play. Near 1, the cards decide the result whoever holds "
        "them; near 0, the play does. With identical bots, 'the players' means the chance in their play, so "
        "run this with the bot strengths whose luck you want to know. The ICC's 95% interval is Shrout and "
        "Fleiss's, from the F distribution. If the bots play a deal the same way in every seating, its "
        "seatings are copies and say nothing about luck: the report then warns and gives no ICC. Below: each "
        "player's mean margin over the deals, with its 95% interval."
    ),
    "duration": (
        "How long a match takes people, at {seconds} seconds a move (set it with --seconds-per-move), with the "
        "95% interval of the mean; against the designer's target range when one is given (--target-minutes)."
    ),
    "play": (
        "Read by replaying {sample} of the {of} matches (spread evenly over them) move by move. A decision "
        "is a real one when the best move is at least {gap} point(s) of expected round score ahead of the "
        "second-best. Each kind of move is "
        "named as the game names it; 'chosen when offered' is how often a move of that kind was made when it "
        "was among several legal moves. The leader is the seat the evaluation expects to score most in the "
        "round: lead changes count how often that changes, 'decided at' is how far into a round the eventual "
        "winner took the lead for good, and the last table gives, at each stage of a round, how often a seat "
        "that was behind then went on to win the round (intervals over seat-rounds, Wilson's). A round "
        "decided early with few comebacks is one whose end is played out, not contested."
    ),
    "judge_advice": (
        "Positions and moves are judged by the game's heuristic evaluation, each move one move ahead on the "
        "cards as they lie: quick, but it sees the hidden cards, so it is the advice's judgement and not only "
        "what the mover knew (--judge search reads each position by a search from the mover's own view)."
    ),
    "judge_search": (
        "Positions and moves are judged by an IS-MCTS search from the mover's own view ({iterations} "
        "iterations a decision, heuristic rollouts): the leader is the mover when it expects to outscore the "
        "others (with two players, the other seat when it expects less), and the gap is between the search's "
        "best move and the best other it looked at seriously."
    ),
    "anomalies": (
        "Things a designer should look at, each with an example match written beside this report: open it "
        "with 'parlour replay FILE', or in the browser on the replay page of 'parlour serve' (Replay, then "
        "the file). Rounds ended by a stall rule are play that went round in circles; a match stopped at the "
        "limit on rounds never reached the rules' own end."
    ),
    "sweep": (
        "One variant for each value of the option, played on the same deals by the same bots: the main "
        "measures against the value, each with its 95% interval (the differences from the baseline and "
        "their tests are in the table above)."
    ),
    "luck": (
        "The same rules played on duplicate deals by copies of one bot, for several bots: the share of the "
        "first player's score margin that the deal decides (ICC, with its 95% interval). Luck is not a "
        "property of the rules alone: strong players leave the cards less to decide (Goodman, Perez-Liebana "
        "and Lucas, 'Seeding for success')."
    ),
    "depth": (
        "A search with twice the budget against the same search with the budget, as the budget doubles "
        "(Ludii's SkillTrace): while twice the search still wins clearly more than half, more thinking pays "
        "and the game has depth left; where the 95% interval reaches a fair share, doubling stops paying."
    ),
    "matters": (
        "Restricted play (Jaffe and others, AIIDE 2012): a bot barred from a kind of move (or bound to play it "
        "whenever it can) against unrestricted copies of itself, on duplicate deals. A kind whose barring "
        "costs nothing measurable is one the game could do without; one whose barring costs much carries "
        "the game. The gap is the restricted bot's win rate less a fair share, with its 95% interval over "
        "deals; p-values are corrected together (Holm) for the number of kinds tried."
    ),
    "ladder": (
        "From the matches of 'parlour lab ladder': each pairing of bot levels, the stronger's win rate with its "
        "95% interval, and the same as an Elo gap — the rating difference that gives that win rate. The spread "
        "of the levels is a scale every game shares (Duersch, Lambrecht and Oechssler measure skill by the "
        "spread of players' ratings): the further the best level stands above the weakest, the more the game "
        "rewards skill; levels that stand close together mean the cards decide much. The report does not "
        "anchor this to chess (their 'x%-chess' needs a chess rating pool, which parlour does not have)."
    ),
    "compare": (
        "The variants of one study (one plan), each against the baseline V1: the difference of the means "
        "with its 95% interval, and the p-value of the test named in the last column — how likely a "
        "difference this large would be by chance alone if the variant changed nothing. Variants run with "
        "the same seed are played on the same deals (or match seeds), so they are compared deal by deal "
        "(match by match): a paired t-test on the differences, which cancels the luck of the cards the two "
        "share. Otherwise Welch's t-test, or for win rates over matches a two-proportion z-test. The "
        "independent units are deals when deals are duplicated, matches otherwise. Because many rows are "
        "tested at once, every p-value is corrected with Holm's method over the whole table: ★ marks an "
        "adjusted p below 0.05, so the chance of even one false ★ in the table stays under 5%. A dash means "
        "no test was possible (no data, or nothing varies). The stop rule under the table says whether more "
        "deals are needed to tell the first player's win rate apart."
    ),
}

_SUMMARY_HEADERS = ["n", "mean", "mean's 95% interval", "sd", "min", "q1", "median", "q3", "max"]


def _num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value)}"
    return f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    """A share as a percentage; rare ones keep two significant digits (a bonus in 0.03% of rounds is not 0%)."""
    if value is None:
        return "—"
    if 0 < value < 0.001:
        return f"{value * 100:.2g}%"
    return f"{value:.1%}"


def _frequency(value: float | None) -> str:
    """Occurrences per round, three significant digits (rare events stay visible)."""
    return "—" if value is None else f"{value:.3g}"


def _p_text(p: float | None, adjusted: float | None = None) -> str:
    """A p-value and its Holm-adjusted value; ★ when the adjusted one is below ALPHA."""
    if p is None:
        return "no test"

    def one(value: float) -> str:
        return "< 0.001" if value < 0.001 else f"{value:.3f}"

    text = f"p {one(p)}" if p < 0.001 else f"p = {one(p)}"
    if adjusted is None:
        return text
    return f"{text}, adj. {one(adjusted)}" + (" ★" if adjusted < ALPHA else "")


def _summary_row(label: str, summary: dict[str, Any]) -> list[str]:
    return [label, *(_num(summary[key]) for key in ("n", "mean")), _ci_text(summary.get("mean_ci")),
            *(_num(summary[key]) for key in ("sd", "min", "q1", "median", "q3", "max"))]


def _rate_row(label: str, item: dict[str, Any]) -> list[str]:
    low, high = item["ci"]
    return [label, str(item["matches"]), _num(item["wins"], 1), _pct(item["rate"]), f"{low:.1%} – {high:.1%}",
            item["interval"]]


def _elo_text(item: dict[str, Any]) -> str:
    value, (low, high) = item.get("elo"), item.get("elo_ci", [None, None])
    if value is None:
        return "—"
    ends = "" if low is None or high is None else f" ({low:+.0f} to {high:+.0f})"
    return f"{value:+.0f}{ends}"


def _ci_text(ci: list[float] | None, show: Callable[[float | None], str] = lambda v: _num(v)) -> str:
    return "—" if ci is None else f"{show(ci[0])} – {show(ci[1])}"


def _experiment_blocks(number: int, section: dict[str, Any]) -> list[_Block]:
    plots = section.get("plots", {})
    options = ", ".join(f"{k} = {v}" for k, v in section["options"].items()) or "defaults"
    unit = "duplicate deals (each in every seating)" if section["mode"] == "deals" else "matches"
    blocks: list[_Block] = [
        _Heading(2, f"{number}. {section['name']}"),
        _Table(["", ""], [
            ["Game", f"{section['game_name']} (version {section['game_version']})"],
            ["Study", section["study"] or "— (a quick run)"],
            ["Options", options],
            ["Bots", section["bots"]],
            ["Planned", f"{section['count']} {unit}, seed {section['seed']}"
                        + (", first rounds only" if section["rounds_only"] else "")],
            ["Stored", f"{section['matches']} matches, {section['rounds']} rounds: {section['units']} independent "
                       f"{section['unit']}"],
        ]),
    ]
    deal = section["deal_vs_players"]
    if deal is not None and deal["warning"]:
        blocks.append(_Text("⚠ " + deal["warning"], warning=True))
    blocks += [_Heading(3, "Score distribution"), _Text(_EXPLAIN["scores"])]
    if "scores" in plots:
        blocks.append(_Image(plots["scores"], "Histograms of match totals by seat and by position"))
    scores = section["scores"]
    blocks.append(_Table(["", *_SUMMARY_HEADERS],
                         [_summary_row(f"seat {item['seat']}", item) for item in scores["by_seat"]]
                         + [_summary_row(_position_name(item["position"]), item) for item in scores["by_position"]]))
    wins = section["wins"]
    blocks += [_Heading(3, "Win rate by seat and position"), _Text(_EXPLAIN["wins"])]
    if "wins" in plots:
        blocks.append(_Image(plots["wins"], "Win rates with 95% intervals by seat, position and player"))
    headers = ["", "matches", "wins", "win rate", "95% interval", "interval"]
    two = len(wins["by_position"]) == 2
    blocks.append(_Table(headers + (["Elo points (95%)"] if two else []),
                         [_rate_row(f"seat {item['seat']}", item) + (["—"] if two else []) for item in wins["by_seat"]]
                         + [_rate_row(_position_name(item["position"]), item) + ([_elo_text(item)] if two else [])
                            for item in wins["by_position"]]))
    blocks += [_Text(_EXPLAIN["players"]),
               _Table(["player", "matches", "wins", "win rate", "95% interval", "interval", "mean margin"],
                      [[*_rate_row(f"{item['player']}", item), _num(item["mean_margin"])]
                       for item in wins["by_player"]])]
    length = section["length"]
    blocks += [_Heading(3, "Round and match length"), _Text(_EXPLAIN["length"])]
    if "length" in plots:
        blocks.append(_Image(plots["length"], "Histograms of moves per round, rounds per match, moves per match"))
    blocks.append(_Table(["", *_SUMMARY_HEADERS], [
        _summary_row("moves per round", length["moves_per_round"]),
        _summary_row("rounds per match", length["rounds_per_match"]),
        _summary_row("moves per match", length["moves_per_match"]),
    ]))
    blocks += _duration_blocks(section["duration"])
    events = section["events"]
    blocks += [_Heading(3, "Scoring events and round endings"), _Text(_EXPLAIN["events"])]
    if "events" in plots:
        blocks.append(_Image(plots["events"], "Occurrences per round of each event, and how rounds end"))
    varying = {kind: item for kind, item in events["kinds"].items() if not item["constant"]}
    blocks.append(_Table(["event", "count", "per round", "95% interval", "rounds with one or more"],
                         [[kind, str(item["count"]), _frequency(item["per_round"]),
                           _ci_text(item["per_round_ci"], _frequency), _pct(item["share_of_rounds"])]
                          for kind, item in varying.items()]))
    constant = [f"{kind} ({_frequency(item['per_round'])} a round)" for kind, item in events["kinds"].items()
                if item["constant"]]
    if constant:
        blocks.append(_Text("The same in every round: " + "; ".join(constant) + "."))
    happened = {name: item for name, item in events["endings"].items() if item["rounds"]}
    never = [name for name, item in events["endings"].items() if not item["rounds"]]
    blocks += [_Text(_EXPLAIN["endings"]),
               _Table(["round ended by", "rounds", "share"],
                      [[ending, str(item["rounds"]), _pct(item["share"])] for ending, item in happened.items()])]
    if never and happened:
        blocks.append(_Text("No round ended by: " + ", ".join(never) + "."))
    if deal is not None:
        blocks += [_Heading(3, "Deal versus players"), _Text(_EXPLAIN["deal"])]
        if "deal_vs_players" in plots:
            blocks.append(_Image(plots["deal_vs_players"], "Share of the score margin decided by the deal"))
        blocks.append(_Table(
            ["position", "deals", "decided by the deal (ICC)", "95% interval", "by the players and their play",
             "MSB", "MSW"],
            [[_position_name(item["position"]), str(deal["deals"]),
              "not given (see the warning)" if deal["warning"] and item["icc"] is None else _pct(item["icc"]),
              _ci_text(item.get("ci"), _pct), _pct(item["players_share"]),
              _num(item.get("msb")), _num(item.get("msw"))] for item in deal["by_position"]]))
        blocks.append(_Table(
            ["player", "deals", "mean margin", "95% interval"],
            [[item["player"], str(item["deals"]), _num(item["mean_margin"]), _ci_text(item["ci"])]
             for item in deal["by_player"]]))
    if section["play"] is not None:
        blocks += _play_blocks(section["play"], plots)
    blocks += _anomaly_blocks(section["anomalies"])
    return blocks


def _duration_blocks(duration: dict[str, Any]) -> list[_Block]:
    minutes = duration["minutes"]
    blocks: list[_Block] = [
        _Text(_EXPLAIN["duration"].format(seconds=f"{duration['seconds_per_move']:g}")),
        _Table(["", *_SUMMARY_HEADERS], [_summary_row("minutes per match", minutes)]),
    ]
    target = duration["target"]
    if target is not None:
        low, high = target["minutes"]
        blocks.append(_Table(
            [f"target {low:g}–{high:g} minutes", "matches", "share", "95% interval", "interval"],
            [[label, str(item["matches"]), _pct(item["rate"]), _ci_text(item["ci"], _pct), item["interval"]]
             for label, item in (("shorter", target["shorter"]), ("within", target["within"]),
                                 ("longer", target["longer"]))]))
    return blocks


def _play_blocks(play: dict[str, Any], plots: dict[str, str]) -> list[_Block]:
    blocks: list[_Block] = [
        _Heading(3, "Choices, what is played, and when a round is decided"),
        _Text(_EXPLAIN["play"].format(sample=play["sample"], of=play["of"], gap=f"{play['real_gap']:g}")
              + " " + (_EXPLAIN["judge_advice"] if play["judge"] == "advice" else
                       _EXPLAIN["judge_search"].format(iterations=play["judge_iterations"]))),
    ]
    if play["unreadable"]:
        blocks.append(_Text(f"⚠ {len(play['unreadable'])} sampled record(s) could not be replayed by this version of "
                            f"the game and are left out (matches {', '.join(map(str, play['unreadable'][:10]))}).",
                            warning=True))
    if "play" in plots:
        blocks.append(_Image(plots["play"], "Comebacks by stage of a round, and the share of moves by kind"))
    choices, real = play["choices"], play["real_choices"]
    blocks.append(_Table(["decisions", "share", "95% interval"], [
        [f"with more than one legal move (of {play['decisions']})", _pct(choices["share"]),
         _ci_text(choices["ci"], _pct)],
        [f"with the best move at least {play['real_gap']:g} point(s) ahead of the next", _pct(real["share"]),
         _ci_text(real["ci"], _pct)],
    ]))
    blocks.append(_Table(["kind of move", "moves", "share of moves", "offered among others", "chosen when offered"],
                         [[kind, str(item["played"]), _pct(item["share_of_moves"]), str(item["offered"]),
                           _pct(item["chosen_when_offered"])] for kind, item in play["kinds"].items()]))
    changes, decided = play["lead_changes"], play["decided_at"]
    blocks.append(_Table(["per round", "mean", "95% interval", "median"], [
        ["lead changes", _num(changes["mean"]), _ci_text(changes["ci"]), "—"],
        ["decided at (share of the round's moves after which the winner led to the end)",
         _pct(decided["mean"]), _ci_text(decided["ci"], _pct), _pct(decided["median"])],
    ]))
    blocks.append(_Table(["stage of the round", "seats behind", "their wins", "win rate when behind", "95% interval"],
                         [[f"{item['from']:.0%} played", str(item["behind"]), _num(item["wins"], 1),
                           _pct(item["rate"]), _ci_text(item["ci"], _pct)] for item in play["comebacks"]]))
    return blocks


def _anomaly_blocks(anomalies: list[dict[str, Any]]) -> list[_Block]:
    rows: list[list[Cell]] = []
    for item in anomalies:
        share = item["share"]
        example: Cell = "—"
        if item.get("file"):
            example = _Link(f"match {item['example']}: {item['replay']}", item["file"])
        elif item["example"] is not None:
            example = f"match {item['example']}"
        rows.append([item["what"], str(item["count"]),
                     "—" if share is None else f"{_pct(share['mean'])} ({_ci_text(share['ci'], _pct)})", example])
    return [_Heading(3, "Anomalies"), _Text(_EXPLAIN["anomalies"]),
            _Table(["what", "count", "share (95% interval)", "example to replay"], rows)]


def _comparison_blocks(comparison: dict[str, Any]) -> list[_Block]:
    names = comparison["experiments"]
    blocks: list[_Block] = [
        _Heading(2, f"Study {comparison['study']}: variants of {games.get(comparison['game']).name} side by side"),
        _Text(_EXPLAIN["compare"]),
        _Table(["", "experiment", "bots", "compared"],
               [[f"V{i + 1}", name, bots, "baseline" if i == 0 else
                 (f"{comparison['unit']} by {comparison['unit']} (same seeds)" if comparison["paired"][i]
                  else "unpaired (other seeds)")]
                for i, (name, bots) in enumerate(zip(names, comparison["bots"]))]),
    ]
    if not comparison["same_bots"] and not _about_bots(comparison):
        blocks.append(_Text("⚠ The variants were not all played by the same bots: a difference may come from the "
                            "bots, not the rules.", warning=True))
    if "plots" in comparison:
        blocks.append(_Image(comparison["plots"]["comparison"], "Variants compared"))
    rows = []
    for row in comparison["metrics"]:
        key = row["key"]
        show: Callable[[float | None], str] = (
            _pct if key.startswith("win_rate") else _frequency if key.startswith("event:") else _num)
        change: Callable[[float | None], str] = (
            (lambda v: "—" if v is None else f"{v * 100:+.1f} pt") if key.startswith("win_rate")
            else (lambda v: "—" if v is None else f"{v:+.3g}"))
        cells = [show(v) for v in row["values"]]
        others = []
        for i in range(1, len(names)):
            difference = row["differences"][i]
            ci = difference["ci"]
            interval = "" if ci is None else f" [{change(ci[0])}, {change(ci[1])}]"
            others.append(f"{cells[i]}: {change(difference['difference'])}{interval} "
                          f"({_p_text(row['p_values'][i], row['p_adjusted'][i])})")
        rows.append([row["metric"], cells[0], *others, "; ".join(dict.fromkeys(t for t in row["tests"] if t)) or "—"])
    blocks.append(_Table(["metric", "V1", *(f"V{i + 1}: change [95% interval] (p, Holm-adjusted p)"
                                            for i in range(1, len(names))), "test"], rows))
    first = next(row for row in comparison["metrics"] if row["key"] == "win_rate_position_0")
    stops = []
    for i in range(1, len(names)):
        stop = first["stop"][i]
        verdict = {"apart": "told apart: the difference is significant",
                   "enough": f"enough: any difference is within ±{comparison['smallest_difference'] * 100:.0f} points",
                   "more": "more needed" + ("" if stop["more"] is None else
                                            f": about {stop['more']} more {comparison['unit']}")}[stop["verdict"]]
        stops.append([f"V{i + 1}", verdict])
    blocks.append(_Table(["stop rule (first player's win rate)", "verdict"], stops))
    return blocks + _findings_blocks(comparison)


def _findings_blocks(comparison: dict[str, Any]) -> list[_Block]:
    findings = comparison["findings"]
    plots = comparison.get("plots", {})
    blocks: list[_Block] = []
    sweep = findings["sweep"]
    if sweep is not None:
        blocks += [_Heading(3, f"Sweep of {sweep['option']}"), _Text(_EXPLAIN["sweep"])]
        if "sweep" in plots:
            blocks.append(_Image(plots["sweep"], f"The main measures against {sweep['option']}"))
        blocks.append(_Table(
            [sweep["option"], *(series["metric"] for series in sweep["series"])],
            [[str(value), *(_sweep_cell(series["key"], series["points"][i]) for series in sweep["series"])]
             for i, value in enumerate(sweep["values"])]))
    luck = findings["luck"]
    if luck is not None:
        blocks += [_Heading(3, "Deal luck across bot strengths"), _Text(_EXPLAIN["luck"]),
                   _Table(["bots", "deals", "decided by the deal (ICC), first player", "95% interval",
                           "deals played identically"],
                          [[row["bots"], str(row["deals"]), _pct(row["icc"]), _ci_text(row["ci"], _pct),
                            _pct(row["identical_share"])] for row in luck])]
    depth = findings["depth"]
    if depth is not None:
        blocks += [_Heading(3, "Skill depth: twice the search against the search"), _Text(_EXPLAIN["depth"])]
        if "depth" in plots:
            blocks.append(_Image(plots["depth"], "Win rate of twice the search as the budget doubles"))
        blocks.append(_Table(["budget (iterations)", "twice the budget wins", "95% interval", "Elo points", "p",
                              "pays"],
                             [[f"{2 * row['budget']} against {row['budget']}", _pct(row["rate"]),
                               _ci_text(row["rate_ci"], _pct),
                               "—" if row["elo"] is None else f"{row['elo']:+.0f}", _p_text(row["p"]),
                               "yes" if row["pays"] else "no"] for row in depth]))
    matters = findings["matters"]
    if matters is not None:
        blocks += [_Heading(3, "What matters: restricted play"), _Text(_EXPLAIN["matters"]),
                   _Table(["kind of move", "restriction", "share of moves (unrestricted)", "restricted bot wins",
                           "gap to a fair share [95% interval]", "p (Holm-adjusted)"],
                          [[row["kind"], "never plays it" if row["how"] == "without" else "always plays it",
                            _pct(row["played_share"]), _pct(row["rate"]),
                            f"{_change('win_rate', row['gap'])} "
                            f"[{_ci_text(row['ci'], lambda v: _change('win_rate', v))}]",
                            _p_text(row["p"], row["p_adjusted"])] for row in matters])]
    return blocks


def _sweep_cell(key: str, point: dict[str, Any]) -> str:
    """A measure at one value of a sweep, with its interval."""
    def show(value: float | None) -> str:
        return _pct(value) if key.startswith(("win_rate", "icc")) else _num(value)

    return f"{show(point['mean'])} ({_ci_text(point['ci'], show)})"


def _blocks(numbers: dict[str, Any]) -> list[_Block]:
    blocks: list[_Block] = [
        _Heading(1, "Parlour lab report"),
        _Text(f"{len(numbers['experiments'])} experiment(s) from {numbers['database']}. Every number comes from "
              "the stored matches; the plots show the same numbers."),
    ]
    if numbers["summary"]:
        blocks += [_Heading(2, "Summary"), _List(numbers["summary"])]
    for number, section in enumerate(numbers["experiments"], 1):
        blocks += _experiment_blocks(number, section)
    for comparison in numbers["comparisons"]:
        blocks += _comparison_blocks(comparison)
    for ladder in numbers["ladders"]:
        blocks += [_Heading(2, f"Skill against chance: the ladder of {ladder['game_name']}"), _Text(_EXPLAIN["ladder"]),
                   _Table(["stronger", "weaker", "matches", "stronger wins", "95% interval", "Elo gap (95%)"],
                          [[row["stronger"], row["weaker"], str(row["matches"]), _pct(row["rate"]),
                            _ci_text(row["ci"], _pct), _elo_text(row)] for row in ladder["pairings"]])]
    return blocks


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #bbb; }
p { max-width: 52rem; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.8rem 0 1.2rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5rem 0; }
p.warning { background: #fff4e0; border-left: 4px solid #e08a00; padding: 0.5rem 0.8rem; }
ul.summary { max-width: 56rem; line-height: 1.5; background: #f4f8ff; border: 1px solid #c8d8f0; padding: 0.8rem 2rem; }
"""


def _html(blocks: Sequence[_Block]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>Parlour lab report</title>", f"<style>{_STYLE}</style>", "</head>", "<body>"]
    for block in blocks:
        if isinstance(block, _Heading):
            parts.append(f"<h{block.level}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, _Text):
            parts.append(f'<p class="warning">{html.escape(block.text)}</p>' if block.warning
                         else f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, _List):
            parts.append('<ul class="summary">' + "".join(f"<li>{html.escape(item)}</li>" for item in block.items)
                         + "</ul>")
        elif isinstance(block, _Image):
            parts.append(f'<img src="{html.escape(block.file)}" alt="{html.escape(block.alt)}">')
        else:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in block.headers)
            body = "".join("<tr>" + "".join(f"<td>{_html_cell(c)}</td>" for c in row) + "</tr>" for row in block.rows)
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _html_cell(cell: Cell) -> str:
    if isinstance(cell, _Link):
        return f'<a href="{html.escape(cell.href)}">{html.escape(cell.text)}</a>'
    return html.escape(cell)


def _markdown(blocks: Sequence[_Block]) -> str:
    def cell(content: Cell) -> str:
        text = f"[{content.text}]({content.href})" if isinstance(content, _Link) else content
        return text.replace("|", "\\|")

    parts = []
    for block in blocks:
        if isinstance(block, _Heading):
            parts.append("#" * block.level + " " + block.text)
        elif isinstance(block, _Text):
            parts.append(f"> **{block.text}**" if block.warning else block.text)
        elif isinstance(block, _List):
            parts.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, _Image):
            parts.append(f"![{block.alt}]({block.file})")
        else:
            lines = ["| " + " | ".join(cell(h) or " " for h in block.headers) + " |",
                     "|" + "|".join("---" for _ in block.headers) + "|"]
            lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in block.rows]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _examples(store: Store, played: Sequence[_Played], numbers: dict[str, Any], out: Path) -> None:
    """Write the record of each anomaly's example match beside the report (``examples/``), for
    ``parlour replay`` and the web's replay page, and note its file in ``numbers``."""
    for p, section in zip(played, numbers["experiments"]):
        for item in section["anomalies"]:
            if item["example"] is None:
                continue
            with store.session() as session:
                text = session.scalar(select(Match.record).where(Match.experiment_id == p.experiment.id,
                                                                 Match.index == item["example"]))
            if text is None:
                continue
            name = f"examples/exp{p.experiment.id}-{item['key']}-match{item['example']}.json"
            (out / "examples").mkdir(exist_ok=True)
            (out / name).write_text(text, encoding="utf-8")
            item["file"] = name
            item["replay"] = f"parlour replay {out / name}"


def write(store: Store, names: Sequence[str] | None, out: Path, fmt: str = "html", **settings: Any) -> Path:
    """Write the report into the folder ``out`` (created if needed) and return its main file.

    ``fmt`` is ``html`` (``report.html``, a page with explanations, plots and
    tables), ``markdown`` (``report.md``) or ``json`` (``report.json``, the
    numbers of :func:`build` with the plot file names).  The PNG plots are
    written in every format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    played = _played(store, names)
    numbers = _numbers(store, played, Settings(**settings))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _plots(played, numbers, out)
    _examples(store, played, numbers, out)
    target = out / _MAIN_FILE[fmt]
    if fmt == "json":
        text = json.dumps(numbers, indent=1) + "\n"
    elif fmt == "markdown":
        text = _markdown(_blocks(numbers))
    else:
        text = _html(_blocks(numbers))
    target.write_text(text, encoding="utf-8")
    return target
