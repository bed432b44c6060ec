"""Compensation: what would even out the first player's edge, with a 95% interval.

:func:`points` finds the points that, given to the first player at the end of each stored match
(taken away when negative), bring its win rate nearest to a fair share; the winners are worked out
again from the compensated totals (the best total wins, ties share the win), so no match is played
again.  Its interval inverts the win rate's test: it holds every number of points at which the
compensated rate's 95% interval (:func:`~parlour.lab.report.numbers.unit_rate`'s, over deals or
matches) still holds the fair share.  :func:`option_value` reads a sweep of one numeric option the
same way: the value at which the first player's rate crosses the fair share.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from parlour.lab.report.load import FloatArray, Played
from parlour.lab.report.numbers import by_unit, unit_rate
from parlour.lab.stats import Z95

STEP = 0.5
"""The grid of points searched: half points, so that with whole-point scores both the ties (on whole
points) and the clear wins between them (on half points) are tried."""


@dataclass(frozen=True)
class _Trial:
    """The first player's win rate with ``points`` given to it, and that rate's 95% interval (None
    when the rate lies too far from the fair share for any interval of it to hold the share)."""

    points: float
    rate: float
    ci: tuple[float, float] | None

    def holds(self, fair: float) -> bool:
        return self.ci is not None and self.ci[0] <= fair <= self.ci[1]


def first_shares(p: Played, given: float) -> FloatArray:
    """(M,) the first player's share of each match's win with ``given`` points added to its total:
    1 when its compensated total is alone the best, 1/k when k totals tie for the best, else 0."""
    positions = p.by_position(p.totals)
    mine = positions[:, 0] + given
    best_other = positions[:, 1:].max(axis=1)
    tied = (positions[:, 1:] == mine[:, None]).sum(axis=1)
    result: FloatArray = np.where(mine > best_other, 1.0, np.where(mine == best_other, 1.0 / (tied + 1), 0.0))
    return result


def _leads(p: Played) -> FloatArray:
    """(M,) how far the best of the other totals was ahead of the first player's (negative: behind):
    points above a match's lead win it, points equal to it tie."""
    positions = p.by_position(p.totals)
    lead: FloatArray = positions[:, 1:].max(axis=1) - positions[:, 0]
    return lead


def _grid(lead: FloatArray) -> FloatArray:
    """The points tried: half points from just below the smallest lead to just above the largest
    (from a rate of 0 to a rate of 1), 0 always among them."""
    low = min(math.floor(float(lead.min()) / STEP) - 1, 0)
    high = max(math.ceil(float(lead.max()) / STEP) + 1, 0)
    grid: FloatArray = np.arange(low, high + 1, dtype=np.float64) * STEP
    return grid


def _trial(p: Played, given: float) -> _Trial:
    found = unit_rate(p, first_shares(p, given))
    return _Trial(float(given), float(found["rate"]), (float(found["ci"][0]), float(found["ci"][1])))


def _reach(p: Played) -> float:
    """The farthest from its rate the 95% interval of :func:`unit_rate` can reach, whatever the
    results (each unit's share of the win lies between 0 and 1): over deals, a t interval's
    half-width with the largest spread shares can have; over matches, the Wilson interval's shift
    and half-width at their largest."""
    from scipy import stats

    n = len(np.unique(p.unit))
    if p.duplicate:
        return math.inf if n < 2 else float(stats.t.ppf(0.975, n - 1)) / (2 * math.sqrt(n - 1))
    return Z95**2 / (2 * n) + Z95 / (2 * math.sqrt(n)) * math.sqrt(1 + Z95**2 / n)


def _trials(p: Played, fair: float) -> list[_Trial]:
    """Every point of the grid tried.  Points between the same two leads give every match the same
    result, so each such stretch is worked out once; its interval only when the rate is near enough
    to the fair share for the interval to hold it (the rest cannot, whatever their spread)."""
    leads = np.sort(_leads(p))
    reach = _reach(p)
    done: dict[tuple[int, int], _Trial] = {}
    trials = []
    for given in _grid(leads).tolist():
        stretch = (int(np.searchsorted(leads, given, "left")), int(np.searchsorted(leads, given, "right")))
        if stretch not in done:
            rate = float(by_unit(first_shares(p, given), p.unit)[1].mean())
            done[stretch] = _trial(p, given) if abs(rate - fair) <= reach + 1e-9 else _Trial(given, rate, None)
        trials.append(_Trial(given, done[stretch].rate, done[stretch].ci))
    return trials


def points(p: Played) -> dict[str, Any] | None:
    """The points given to the first player (negative: taken away) that bring its win rate nearest to
    a fair share (1/seats), searched on half points; among equally near, the fewest points.

    JSON-ready: ``points``; ``rate`` and ``rate_ci`` at those points; ``ci``, the 95% interval of the
    points ([low, high]: every number of points, on the grid, at which the compensated rate's 95%
    interval holds the fair share; an end is None when it reaches the end of the grid, the whole
    interval None when no number of points does); ``rate_before`` and ``rate_before_ci`` (the
    stored winners); ``fair_share``; ``units`` and ``unit`` (``deals`` or ``matches``).  None when
    there are no matches, or when a stored match's winners are not its best totals (a game won on
    rounds won), where points added to a total would not decide the match.
    """
    if not len(p.totals):
        return None
    stored = p.by_position(p.share)[:, 0]
    if not np.allclose(first_shares(p, 0.0), stored):
        return None
    fair = 1 / p.seats
    trials = _trials(p, fair)
    best = min(trials, key=lambda t: (abs(t.rate - fair), abs(t.points), t.points))
    if best.ci is None:
        best = _trial(p, best.points)
    held = [t.points for t in trials if t.holds(fair)]
    ci: list[float | None] | None = None
    if held:
        ci = [None if held[0] == trials[0].points else held[0], None if held[-1] == trials[-1].points else held[-1]]
    before = unit_rate(p, stored)
    assert best.ci is not None
    return {
        "points": best.points,
        "rate": best.rate,
        "rate_ci": list(best.ci),
        "ci": ci,
        "rate_before": before["rate"],
        "rate_before_ci": before["ci"],
        "fair_share": fair,
        "units": len(np.unique(p.unit)),
        "unit": p.unit_word,
    }


class SweepPoint(NamedTuple):
    """One variant of a sweep: the option's value, the first player's win rate and its 95% interval."""

    value: float
    rate: float | None
    ci: Sequence[float] | None


def option_value(sweep: Sequence[tuple[float, float | None, Sequence[float] | None]],
                 fair: float = 0.5) -> dict[str, Any] | None:
    """Where a sweep of one numeric option (:class:`SweepPoint`\\ s in the option's order) brings the
    first player's win rate to ``fair`` (its fair share, 1/seats).

    JSON-ready: ``value``, the option's value where the rate first crosses ``fair`` (linear between
    the two values that straddle it, or a value whose rate is ``fair`` itself); ``between``, those
    two values; ``holds``, every value whose 95% interval holds ``fair``; ``fair_share``.  None when
    the rate never reaches ``fair``, or when the values are not numbers (true/false, none).
    """
    rows = [SweepPoint(*item) for item in sweep]
    if any(isinstance(row.value, bool) or not isinstance(row.value, int | float) for row in rows):
        return None
    rated = [(row.value, row.rate) for row in rows if row.rate is not None]
    crossing = _crossing(rated, fair)
    if crossing is None:
        return None
    value, between = crossing
    return {"value": value, "between": between,
            "holds": [row.value for row in rows if row.ci is not None and row.ci[0] <= fair <= row.ci[1]],
            "fair_share": fair}


def _crossing(rated: Sequence[tuple[float, float]], fair: float) -> tuple[float, list[float]] | None:
    """The first value at which the (value, rate) pairs reach ``fair``, and the two values around it."""
    if rated and rated[0][1] == fair:
        return float(rated[0][0]), [rated[0][0], rated[0][0]]
    for (value_a, rate_a), (value_b, rate_b) in itertools.pairwise(rated):
        if (rate_a - fair) * (rate_b - fair) <= 0:
            return value_a + (fair - rate_a) * (value_b - value_a) / (rate_b - rate_a), [value_a, value_b]
    return None
