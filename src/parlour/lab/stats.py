"""Small, exact statistics for tournament results (no numpy needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws may count as half successes)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # The interval always holds the rate itself (at 0 or 1 rounding would leave it a hair outside).
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def mean_and_margin(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (sample standard deviation)."""
    n = len(values)
    if n == 0:
        return (0.0, math.inf)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, z * math.sqrt(var / n))


# -- intervals and tests over independent units (the report's; these need numpy and scipy) --

def t_interval(values: Sequence[float], z: float | None = None) -> tuple[float | None, float | None, float | None]:
    """(mean, low, high): the mean of independent ``values`` with its 95% Student-t interval
    (None where there are too few values: no mean without one, no interval without two)."""
    from scipy import stats

    n = len(values)
    if n == 0:
        return (None, None, None)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = (z if z is not None else float(stats.t.ppf(0.975, n - 1))) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def icc_interval(msb: float, msw: float, groups: int, k: int) -> tuple[float | None, float | None]:
    """The 95% interval of the one-way intraclass correlation ICC(1) from its mean squares
    (Shrout & Fleiss 1979, from the F distribution with ``groups − 1`` and ``groups·(k − 1)``
    degrees of freedom), clipped to [0, 1]; None when it is undefined (no spread within groups)."""
    from scipy import stats

    if groups < 2 or k < 2 or msw <= 0:
        return (None, None)
    f = msb / msw
    low_df, high_df = groups - 1, groups * (k - 1)
    f_low = f / float(stats.f.ppf(0.975, low_df, high_df))
    f_high = f * float(stats.f.ppf(0.975, high_df, low_df))

    def icc_of(value: float) -> float:
        return min(max((value - 1) / (value + k - 1), 0.0), 1.0)

    return (icc_of(f_low), icc_of(f_high))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (None stays None and is not
    counted): an adjusted p below 0.05 keeps the chance of any false finding in the whole
    family under 5%, however many rows are tested."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted


def paired_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, float | int | None]:
    """``b − a`` over paired units (the same deal or match seed in two variants): the mean
    difference, its 95% t interval, the paired t-test's two-sided p, and the differences' sd."""
    from scipy import stats

    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean, low, high = t_interval(diffs)
    n = len(diffs)
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 and mean is not None else None
    p: float | None = None
    if n > 1 and sd is not None and sd > 0:
        p = float(stats.ttest_rel(b, a).pvalue)
    elif n > 1 and sd == 0 and mean is not None:
        p = None if mean == 0 else 0.0  # every pair differs by the same amount: no chance in it
    return {"units": n, "difference": mean, "low": low, "high": high, "p": p, "sd": sd}


POWER = 0.8
"""The power the report's sizes are given at: the chance of seeing an effect that is there."""


def _z(alpha: float) -> float:
    """The two-sided normal quantile of level ``alpha`` (1.96 at 0.05)."""
    from scipy import stats

    return Z95 if alpha == 0.05 else float(stats.norm.ppf(1 - alpha / 2))


def units_needed(sd: float, difference: float, alpha: float = 0.05, power: float = POWER) -> int:
    """Paired units needed to tell apart a true difference of ``difference`` with a two-sided
    test at level ``alpha`` and the given power, the sd of the paired differences being ``sd``:
    ((z₁₋α/₂ + z_power)·sd / difference)²."""
    from scipy import stats

    return math.ceil(((_z(alpha) + float(stats.norm.ppf(power))) * sd / difference) ** 2)


def detectable(standard_error: float, alpha: float = 0.05, power: float = POWER) -> float:
    """The smallest true effect a two-sided test at level ``alpha`` sees with the given power,
    from its estimate's standard error: (z₁₋α/₂ + z_power)·se.  What a "no" could have seen."""
    from scipy import stats

    return (_z(alpha) + float(stats.norm.ppf(power))) * standard_error
