"""The designers' report: what the lab's stored matches say about a game.

For every experiment: score distributions by seat and by position, win
rates with 95% intervals (the first-player advantage), round and match
length, how often each scoring event happens and how rounds end, and —
for duplicate deals — how much of a result the deal decides.  Experiments
of the same game are then set side by side with a significance test on
each metric.

:func:`build` gives the numbers as JSON-ready data; :func:`write` adds the
plots (PNG) and renders an HTML page, a Markdown page or a JSON file.  The
numbers come from the store's match, round and event rows alone: no record
is replayed, so a report over tens of thousands of matches stays quick.
"""

from __future__ import annotations

import html
import json
import math
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
from parlour.lab.arena import _names  # the arena's player labels, so both name players alike
from parlour.lab.stats import mean_and_margin, wilson_interval
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
            select(Match.id, Match.deal, Match.seating, Match.first, Match.totals, Match.winners, Match.rounds,
                   Match.moves).where(mine).order_by(Match.index)).all()
        round_rows = session.execute(
            select(RoundRow.match_id, RoundRow.number, RoundRow.moves).join(Match, RoundRow.match_id == Match.id)
            .where(mine).order_by(Match.index, RoundRow.number)).all()
        event_rows = session.execute(
            select(EventRow.match_id, EventRow.round_number, EventRow.kind).join(Match, EventRow.match_id == Match.id)
            .where(mine)).all()
    seats = len(experiment.players)
    count = len(rows)
    place = {row.id: m for m, row in enumerate(rows)}
    seating = np.array([row.seating for row in rows], dtype=np.int64).reshape(count, seats)
    share = np.zeros((count, seats))
    for m, row in enumerate(rows):
        for seat in row.winners:
            share[m, seat] = 1 / len(row.winners)
    where = {(match_id, number): r for r, (match_id, number, _) in enumerate(round_rows)}
    event_round = np.array([where[match_id, number] for match_id, number, _ in event_rows], dtype=np.int64)
    kinds_seen, event_kind = np.unique(np.array([kind for _, _, kind in event_rows], dtype=object),
                                       return_inverse=True)
    tally = np.bincount(event_kind.ravel(), minlength=len(kinds_seen))
    order = sorted(range(len(kinds_seen)), key=lambda i: (-tally[i], kinds_seen[i]))  # most frequent first
    kinds = [str(kinds_seen[i]) for i in order]
    column = np.empty(len(order), dtype=np.int64)
    column[order] = np.arange(len(order))
    counts = np.zeros((len(round_rows), len(kinds)), dtype=np.int64)
    np.add.at(counts, (event_round, column[event_kind.ravel()]), 1)
    return _Played(
        experiment=experiment,
        labels=_names(experiment.players),
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
    """A win rate with its 95% Wilson interval."""
    low, high = wilson_interval(successes, trials)
    return {"matches": trials, "wins": float(successes), "rate": successes / trials if trials else None,
            "ci": [low, high]}


def _unit_means(values: FloatArray, units: IntArray) -> FloatArray:
    """The mean of ``values`` within each unit (units numbered from 0 or −1 upwards)."""
    _, inverse = np.unique(units, return_inverse=True)
    sums = np.bincount(inverse, weights=values)
    sizes = np.bincount(inverse)
    result: FloatArray = sums / sizes
    return result


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

_NO_ICC = ("icc", "players_share", "msb", "msw")

def _position_name(position: int) -> str:
    return ("first player", "second player", "third player", "fourth player")[position] if position < 4 \
        else f"player {position + 1} in turn"


def _scores(p: _Played) -> dict[str, Any]:
    positions = p.by_position(p.totals)
    return {
        "by_seat": [{"seat": s, **_summary(p.totals[:, s])} for s in range(p.seats)],
        "by_position": [{"position": q, **_summary(positions[:, q])} for q in range(p.seats)],
    }


def _wins(p: _Played) -> dict[str, Any]:
    count = len(p.share)
    positions = p.by_position(p.share).sum(axis=0)
    players = p.by_player(p.share).sum(axis=0)
    player_margins = p.by_player(p.margins())
    return {
        "fair_share": 1 / p.seats,
        "by_seat": [{"seat": s, **_rate(float(p.share[:, s].sum()), count)} for s in range(p.seats)],
        "by_position": [{"position": q, **_rate(float(positions[q]), count)} for q in range(p.seats)],
        "by_player": [
            {"player": label, "spec": spec, **_rate(float(players[j]), count),
             "mean_margin": _float(player_margins[:, j].mean()) if count else None}
            for j, (label, spec) in enumerate(zip(p.labels, p.experiment.players))
        ],
    }


def _lengths(p: _Played) -> dict[str, Any]:
    return {
        "moves_per_round": _summary(p.round_moves),
        "rounds_per_match": _summary(p.rounds),
        "moves_per_match": _summary(p.moves),
    }


def _events(p: _Played) -> dict[str, Any]:
    rounds = len(p.counts)
    kinds = {
        kind: {
            "count": int(p.counts[:, i].sum()),
            "per_round": float(p.counts[:, i].mean()) if rounds else None,
            "share_of_rounds": float((p.counts[:, i] > 0).mean()) if rounds else None,
        }
        for i, kind in enumerate(p.kinds)
    }
    # Every way the game's rounds can end, even one that never happened here.
    endings = {}
    for number, ending in enumerate(games.get(p.experiment.game).endings):
        seen = int((p.endings == number).sum())
        endings[ending.name] = {"rounds": seen, "share": seen / rounds if rounds else None}
    return {"rounds": rounds, "kinds": kinds, "endings": endings}


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
        mean, margin = mean_and_margin(per_deal.tolist())
        fine = len(per_deal) > 1
        by_player.append({"player": label, "spec": p.experiment.players[j], "deals": len(per_deal),
                          "mean_margin": mean if len(per_deal) else None,
                          "ci": [mean - margin, mean + margin] if fine else None})
    return {
        "deals": len(groups),
        "per_deal": p.seats,
        "by_position": [{"position": q, **(icc(positions[groups, q]) or dict.fromkeys(_NO_ICC))}
                        for q in range(p.seats)],
        "by_player": by_player,
    }


def _experiment(p: _Played) -> dict[str, Any]:
    e = p.experiment
    game = games.get(e.game)
    try:
        options = game.non_default_options(game.check_options(e.options))
    except (ValueError, KeyError):  # stored by a version of the game with other options
        options = dict(e.options)
    return {
        "name": e.name,
        "game": e.game,
        "game_name": game.name,
        "game_version": e.game_version,
        "options": options,
        "players": list(e.players),
        "labels": p.labels,
        "mode": e.mode,
        "count": e.count,
        "seed": e.seed,
        "rounds_only": e.rounds_only,
        "matches": len(p.totals),
        "rounds": len(p.round_moves),
        "scores": _scores(p),
        "wins": _wins(p),
        "length": _lengths(p),
        "events": _events(p),
        "deal_vs_players": _deal_vs_players(p),
    }


# -- variants side by side -----------------------------------------------------

@dataclass
class _Metric:
    """One row of a comparison: a mean per experiment, and the observations its test compares."""

    key: str
    label: str
    data: Callable[[_Played], FloatArray] | None
    """The raw values, one per match (or per round); None for a number with no test."""
    per_round: bool = False
    number: Callable[[_Played], float | None] | None = None
    """The value shown, when it is not the mean of ``data``."""

    def value(self, p: _Played) -> float | None:
        """The experiment's value of this metric."""
        if self.number is not None:
            return self.number(p)
        assert self.data is not None
        data = self.data(p)
        return float(data.mean()) if data.size else None

    def observations(self, p: _Played) -> FloatArray:
        """Independent observations: per match (or round) — or per deal for duplicate deals,
        whose seatings share their cards and so are not independent."""
        assert self.data is not None
        data = self.data(p)
        if not p.duplicate:
            return data
        return _unit_means(data, p.deal[p.round_match] if self.per_round else p.deal)


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


def _deal_share(p: _Played) -> float | None:
    numbers = _deal_vs_players(p)
    return None if numbers is None else numbers["by_position"][0]["icc"]


_ROUNDS = _Metric("rounds_per_match", "Rounds per match", lambda p: p.rounds.astype(np.float64))
_ROUND_MOVES = _Metric("moves_per_round", "Moves per round", lambda p: p.round_moves.astype(np.float64),
                       per_round=True)
_MATCH_MOVES = _Metric("moves_per_match", "Moves per match", lambda p: p.moves.astype(np.float64))
_FIRST_WINS = _Metric("win_rate_position_0", "Win rate, first player", _first_share)


def _metrics(group: Sequence[_Played]) -> list[_Metric]:
    """Every row of the comparison of ``group``."""
    metrics = [_Metric(f"total_position_{q}", f"Mean total, {_position_name(q)}", _position_totals(q))
               for q in range(group[0].seats)]
    metrics += [_FIRST_WINS, _ROUNDS, _ROUND_MOVES, _MATCH_MOVES]
    kinds = sorted({kind for p in group for kind in p.kinds})
    metrics += [_Metric(f"event:{kind}", f"{kind} per round", _occurrences(kind), per_round=True) for kind in kinds]
    if any(p.duplicate for p in group):
        metrics.append(_Metric("icc_position_0", "Share decided by the deal (ICC), first player", None,
                               number=_deal_share))
    return metrics


def _p_value(metric: _Metric, baseline: _Played, other: _Played) -> tuple[str | None, float | None]:
    """The test used and its p-value for ``other`` against ``baseline``."""
    if metric.data is None:
        return None, None
    if metric is _FIRST_WINS and not baseline.duplicate and not other.duplicate:
        a = _first_share(baseline)
        b = _first_share(other)
        return "two-proportion z", two_proportions_p(float(a.sum()), len(a), float(b.sum()), len(b))
    return "Welch t", welch_p(metric.observations(baseline), metric.observations(other))


def _comparison(group: Sequence[_Played]) -> dict[str, Any]:
    baseline = group[0]
    rows = []
    for metric in _metrics(group):
        values = [_float(metric.value(p)) for p in group]
        tests = [(None, None), *(_p_value(metric, baseline, other) for other in group[1:])]
        p_values = [p for _, p in tests]
        rows.append({
            "key": metric.key,
            "metric": metric.label,
            "values": values,
            "tests": [test for test, _ in tests],
            "p_values": p_values,
            "significant": [None if p is None else p < ALPHA for p in p_values],
        })
    return {
        "game": baseline.experiment.game,
        "baseline": baseline.experiment.name,
        "experiments": [p.experiment.name for p in group],
        "metrics": rows,
    }


def _groups(played: Sequence[_Played]) -> list[list[_Played]]:
    """Experiments of the same game, in report order, where a game has several."""
    by_game: dict[str, list[_Played]] = {}
    for p in played:
        by_game.setdefault(p.experiment.game, []).append(p)
    return [group for group in by_game.values() if len(group) > 1]


def _numbers(store: Store, played: Sequence[_Played]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "database": store.url,
        "alpha": ALPHA,
        "experiments": [_experiment(p) for p in played],
        "comparisons": [_comparison(group) for group in _groups(played)],
    }


def build(store: Store, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The report's numbers for the named experiments (all if ``names`` is empty), JSON-ready.

    Experiments come in the order named (else the order stored); among those
    of one game the first is the baseline of the side-by-side comparison.
    Unknown names raise :class:`ValueError`.
    """
    return _numbers(store, _played(store, names))


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
        margins = [mean_and_margin(metric.observations(p).tolist())[1] for p in group]
        ax.bar(labels, values, yerr=[m if math.isfinite(m) else 0.0 for m in margins], capsize=6,
               color=_COLOURS[: len(group)], alpha=0.85)
        _mark_significant(ax, rows[key], values)
        ax.set_title(f"{title} (95% interval)", fontsize=10)
        ax.set_ylabel(title.lower())
    win = rows["win_rate_position_0"]
    rates = [v or 0.0 for v in win["values"]]
    cis = [wilson_interval(float(p.by_position(p.share)[:, 0].sum()), len(p.share)) for p in group]
    axes[2].bar(labels, rates, yerr=[[r - lo for r, (lo, _) in zip(rates, cis)],
                                     [hi - r for r, (_, hi) in zip(rates, cis)]],
                capsize=6, color=_COLOURS[: len(group)], alpha=0.85)
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
    ax.set_xlabel("occurrences per round (mean); * marks p < 0.05 against V1")
    ax.set_title("Scoring events per round", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    figure.suptitle(f"Variants of {games.get(group[0].experiment.game).name} side by side (V1 is the baseline)",
                    fontsize=11)
    return _save(figure, path)


def _mark_significant(ax: Axes, row: dict[str, Any], values: Sequence[float]) -> None:
    """A star over each bar that differs from the baseline at p < ALPHA."""
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
    for group, comparison in zip(_groups(played), numbers["comparisons"]):
        name = f"compare-{comparison['game']}-{group[0].experiment.id}.png"
        comparison["plots"] = {"comparison": _plot_comparison(group, comparison, out / name)}


# -- pages ---------------------------------------------------------------------

@dataclass
class _Heading:
    level: int
    text: str


@dataclass
class _Text:
    text: str


@dataclass
class _Image:
    file: str
    alt: str


@dataclass
class _Table:
    headers: list[str]
    rows: list[list[str]]


_Block: TypeAlias = "_Heading | _Text | _Image | _Table"

_EXPLAIN = {
    "scores": (
        "Each match's final total for every seat. A seat is a place at the table; a position counts from the "
        "seat that played first in round 1 (the first player). Wide spreads mean swingy matches; a gap between "
        "positions means moving first (or last) is worth points."
    ),
    "wins": (
        "The share of matches won. A tie for the best total shares the win: each of k tied seats gets 1/k. "
        "The interval is the 95% Wilson interval: with this many matches, the true rate lies inside it 19 "
        "times out of 20. In a fair game every position wins 1/n of the time; a first-player interval that "
        "stays clear of that line is a first-player advantage worth fixing (or compensating)."
    ),
    "players": (
        "Win rate and mean score margin (own total minus the others' mean) of each player. When the bots are "
        "identical, any gap here is noise — a check on the numbers above."
    ),
    "length": (
        "How long play lasts: moves per round (every play, draw or take counts), rounds per match (always 1 for "
        "single-round experiments) and moves per match. Long tails point at rounds that drag."
    ),
    "events": (
        "How often each thing the rules name happens: the mean number of occurrences per round, and the share "
        "of rounds where it happens at least once. A bonus that almost never fires is a rule that hardly "
        "matters; one that fires every round is part of the baseline score."
    ),
    "endings": (
        "How rounds end, judged from their events, in every way the game's rules end a round (a way that never "
        "happened shows 0). Many stall endings mean players stop drawing new cards."
    ),
    "deal": (
        "In duplicate play every deal is played again in every seating, so the same cards are played by "
        "different players. For each position the score margin (own total minus the others' mean) varies "
        "between deals — the cards — and within a deal — who sat there and how they played. The intraclass "
        "correlation ICC = (MSB − MSW) / (MSB + (k − 1)·MSW) is the share that the deal decides; 1 − ICC is "
        "the share left to the players and their play. Near 1, the cards decide the result whoever holds "
        "them; near 0, the play does. With identical (random) bots, 'the players' means the chance in their "
        "play. Below: each player's mean margin over the deals, with its 95% interval."
    ),
    "compare": (
        "Experiments of the same game side by side; the first column (V1) is the baseline. Each other "
        "column's p-value says how likely a difference this large would be by chance alone if the variant "
        "changed nothing: Welch's t-test (no equal spread assumed) for means and per-round event counts, a "
        "pooled two-proportion z-test for win rates (shared wins count as fractions). For duplicate deals the "
        "observations are per-deal averages, since the seatings of one deal are not independent. ★ marks "
        "p < 0.05. With many rows, about one in twenty is marked by chance alone; a dash means no test was "
        "possible (no data, or nothing varies)."
    ),
}

_SUMMARY_HEADERS = ["n", "mean", "sd", "min", "q1", "median", "q3", "max"]


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


def _p_text(p: float | None) -> str:
    if p is None:
        return "—"
    text = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
    return text + (" ★" if p < ALPHA else "")


def _summary_row(label: str, summary: dict[str, Any]) -> list[str]:
    return [label, *(_num(summary[key]) for key in ("n", "mean", "sd", "min", "q1", "median", "q3", "max"))]


def _rate_row(label: str, item: dict[str, Any]) -> list[str]:
    low, high = item["ci"]
    return [label, str(item["matches"]), _num(item["wins"], 1), _pct(item["rate"]), f"{low:.1%} – {high:.1%}"]


def _experiment_blocks(number: int, section: dict[str, Any]) -> list[_Block]:
    plots = section.get("plots", {})
    options = ", ".join(f"{k} = {v}" for k, v in section["options"].items()) or "defaults"
    unit = "duplicate deals (each in every seating)" if section["mode"] == "deals" else "matches"
    blocks: list[_Block] = [
        _Heading(2, f"{number}. {section['name']}"),
        _Table(["", ""], [
            ["Game", f"{section['game_name']} (version {section['game_version']})"],
            ["Options", options],
            ["Players", ", ".join(section["labels"])],
            ["Planned", f"{section['count']} {unit}, seed {section['seed']}"
                        + (", first rounds only" if section["rounds_only"] else "")],
            ["Stored", f"{section['matches']} matches, {section['rounds']} rounds"],
        ]),
        _Heading(3, "Score distribution"),
        _Text(_EXPLAIN["scores"]),
    ]
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
    blocks.append(_Table(["", "matches", "wins", "win rate", "95% interval"],
                         [_rate_row(f"seat {item['seat']}", item) for item in wins["by_seat"]]
                         + [_rate_row(_position_name(item["position"]), item) for item in wins["by_position"]]))
    blocks += [_Text(_EXPLAIN["players"]),
               _Table(["player", "matches", "wins", "win rate", "95% interval", "mean margin"],
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
    events = section["events"]
    blocks += [_Heading(3, "Scoring events and round endings"), _Text(_EXPLAIN["events"])]
    if "events" in plots:
        blocks.append(_Image(plots["events"], "Occurrences per round of each event, and how rounds end"))
    blocks.append(_Table(["event", "count", "per round", "rounds with one or more"],
                         [[kind, str(item["count"]), _frequency(item["per_round"]), _pct(item["share_of_rounds"])]
                          for kind, item in events["kinds"].items()]))
    blocks += [_Text(_EXPLAIN["endings"]),
               _Table(["round ended by", "rounds", "share"],
                      [[ending, str(item["rounds"]), _pct(item["share"])]
                       for ending, item in events["endings"].items()])]
    deal = section["deal_vs_players"]
    if deal is not None:
        blocks += [_Heading(3, "Deal versus players"), _Text(_EXPLAIN["deal"])]
        if "deal_vs_players" in plots:
            blocks.append(_Image(plots["deal_vs_players"], "Share of the score margin decided by the deal"))
        blocks.append(_Table(
            ["position", "deals", "decided by the deal (ICC)", "by the players and their play", "MSB", "MSW"],
            [[_position_name(item["position"]), str(deal["deals"]), _pct(item["icc"]), _pct(item["players_share"]),
              _num(item.get("msb")), _num(item.get("msw"))] for item in deal["by_position"]]))
        blocks.append(_Table(
            ["player", "deals", "mean margin", "95% interval"],
            [[item["player"], str(item["deals"]), _num(item["mean_margin"]),
              "—" if item["ci"] is None else f"{item['ci'][0]:.2f} – {item['ci'][1]:.2f}"]
             for item in deal["by_player"]]))
    return blocks


def _comparison_blocks(comparison: dict[str, Any]) -> list[_Block]:
    names = comparison["experiments"]
    blocks: list[_Block] = [
        _Heading(2, f"Variants side by side: {games.get(comparison['game']).name}"),
        _Text(_EXPLAIN["compare"]),
        _Table(["", "experiment"], [[f"V{i + 1}", name] for i, name in enumerate(names)]),
    ]
    if "plots" in comparison:
        blocks.append(_Image(comparison["plots"]["comparison"], "Variants compared"))
    rows = []
    for row in comparison["metrics"]:
        key = row["key"]
        show = _pct if key.startswith(("win_rate", "icc")) else _frequency if key.startswith("event:") else _num
        cells = [show(v) for v in row["values"]]
        rows.append([row["metric"], cells[0],
                     *(f"{cell} ({_p_text(p)})" for cell, p in zip(cells[1:], row["p_values"][1:])),
                     ", ".join(dict.fromkeys(t for t in row["tests"] if t)) or "—"])
    blocks.append(_Table(["metric", *(f"V{i + 1}" for i in range(len(names))), "test"], rows))
    return blocks


def _blocks(numbers: dict[str, Any]) -> list[_Block]:
    blocks: list[_Block] = [
        _Heading(1, "Parlour lab report"),
        _Text(f"{len(numbers['experiments'])} experiment(s) from {numbers['database']}. Every number comes from "
              "the stored matches; the plots show the same numbers."),
    ]
    for number, section in enumerate(numbers["experiments"], 1):
        blocks += _experiment_blocks(number, section)
    for comparison in numbers["comparisons"]:
        blocks += _comparison_blocks(comparison)
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
"""


def _html(blocks: Sequence[_Block]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>Parlour lab report</title>", f"<style>{_STYLE}</style>", "</head>", "<body>"]
    for block in blocks:
        if isinstance(block, _Heading):
            parts.append(f"<h{block.level}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, _Text):
            parts.append(f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, _Image):
            parts.append(f'<img src="{html.escape(block.file)}" alt="{html.escape(block.alt)}">')
        else:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in block.headers)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in block.rows)
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _markdown(blocks: Sequence[_Block]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    parts = []
    for block in blocks:
        if isinstance(block, _Heading):
            parts.append("#" * block.level + " " + block.text)
        elif isinstance(block, _Text):
            parts.append(block.text)
        elif isinstance(block, _Image):
            parts.append(f"![{block.alt}]({block.file})")
        else:
            lines = ["| " + " | ".join(cell(h) or " " for h in block.headers) + " |",
                     "|" + "|".join("---" for _ in block.headers) + "|"]
            lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in block.rows]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def write(store: Store, names: Sequence[str] | None, out: Path, fmt: str = "html") -> Path:
    """Write the report into the folder ``out`` (created if needed) and return its main file.

    ``fmt`` is ``html`` (``report.html``, a page with explanations, plots and
    tables), ``markdown`` (``report.md``) or ``json`` (``report.json``, the
    numbers of :func:`build` with the plot file names).  The PNG plots are
    written in every format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    played = _played(store, names)
    numbers = _numbers(store, played)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _plots(played, numbers, out)
    target = out / _MAIN_FILE[fmt]
    if fmt == "json":
        text = json.dumps(numbers, indent=1) + "\n"
    elif fmt == "markdown":
        text = _markdown(_blocks(numbers))
    else:
        text = _html(_blocks(numbers))
    target.write_text(text, encoding="utf-8")
    return target
