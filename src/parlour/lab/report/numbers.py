"""The small statistics the report is made of: distributions, means over independent units (deals
or matches) with their 95% intervals, win rates, Elo, and the tests (Welch, two proportions, ICC).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.lab.report.load import FloatArray, IntArray, Played
from parlour.lab.stats import t_interval, wilson_interval

ALPHA = 0.05
"""A p-value below this is marked significant."""


def finite(value: float | np.floating[Any] | None) -> float | None:
    """A plain float for JSON, or None for a missing or non-finite number."""
    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


def distribution(values: npt.ArrayLike) -> dict[str, Any]:
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


def by_unit(values: FloatArray, units: IntArray) -> tuple[IntArray, FloatArray]:
    """The units (sorted) and the mean of ``values`` within each."""
    keys, inverse = np.unique(units, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=values, minlength=len(keys))
    sizes = np.bincount(inverse.ravel(), minlength=len(keys))
    means: FloatArray = sums / np.maximum(sizes, 1)
    return keys.astype(np.int64), means


def mean_of_units(values: Sequence[float] | FloatArray, units: IntArray) -> dict[str, Any]:
    """The mean of ``values`` over the units they belong to (each unit's own mean first, so
    that each weighs the same), with its 95% t interval, and how many units there are."""
    if not len(values):
        return {"mean": None, "ci": None, "units": 0}
    _, per_unit = by_unit(np.asarray(values, dtype=np.float64), units)
    mean, low, high = t_interval(per_unit.tolist())
    return {"mean": mean, "ci": None if low is None else [low, high], "units": len(per_unit)}


def mean_ci(p: Played, values: FloatArray, per_round: bool = False) -> dict[str, Any]:
    """The mean of per-match (or per-round) ``values`` with its 95% t interval over the
    experiment's independent units (deals or matches; rounds are averaged within theirs)."""
    units = p.unit[p.round_match] if per_round else p.unit
    return {**mean_of_units(values, units), "unit": p.unit_word}


def unit_rate(p: Played, shares: FloatArray) -> dict[str, Any]:
    """A win rate from each match's share of the win: over matches, a Wilson interval; over
    duplicate deals, the deal's mean share is one observation, with a t interval over deals."""
    if not p.duplicate:
        return _rate(float(shares.sum()), len(shares))
    _, per_deal = by_unit(shares, p.deal)
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
        p = finite(stats.ttest_ind(x, y, equal_var=False).pvalue)
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
    lies between groups (``icc_raw`` unclipped: below zero when the deals differ less than
    chance alone would make them).  None with fewer than two groups of two, or no variance.
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
    raw = (msb - msw) / denominator
    value = min(max(raw, 0.0), 1.0)
    return {"icc": value, "players_share": 1 - value, "msb": msb, "msw": msw, "icc_raw": raw}
