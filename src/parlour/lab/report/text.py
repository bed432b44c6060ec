"""Numbers as the report writes them: percentages, points of a win rate, p-values and intervals.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.lab.report.numbers import ALPHA


def variant_name(name: str, study: str) -> str:
    """A variant's name within its study (``hand size/eight`` → ``eight``)."""
    return name.removeprefix(f"{study}/")


def whole_pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def value_text(key: str, value: float | None) -> str:
    if value is None:
        return "—"
    return whole_pct(value) if key.startswith("win_rate") else f"{value:.3g}"


def change_text(key: str, difference: float | None) -> str:
    if difference is None:
        return "—"
    return f"{difference * 100:+.1f} points" if key.startswith("win_rate") else f"{difference:+.3g}"


def num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value)}"
    return f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    """A share as a percentage; rare ones keep two significant digits (a bonus in 0.03% of rounds is not 0%)."""
    if value is None:
        return "—"
    if 0 < value < 0.001:
        return f"{value * 100:.2g}%"
    return f"{value:.1%}"


def frequency(value: float | None) -> str:
    """Occurrences per round, three significant digits (rare events stay visible)."""
    return "—" if value is None else f"{value:.3g}"


def p_text(p: float | None, adjusted: float | None = None) -> str:
    """A p-value and its Holm-adjusted value; ★ when the adjusted one is below ALPHA."""
    if p is None:
        return "no test"

    def one(value: float) -> str:
        return "< 0.001" if value < 0.001 else f"{value:.3f}"

    text = f"p {one(p)}" if p < 0.001 else f"p = {one(p)}"
    if adjusted is None:
        return text
    return f"{text}, adj. {one(adjusted)}" + (" ★" if adjusted < ALPHA else "")


def ci_text(ci: list[float] | None, show: Callable[[float | None], str] = lambda v: num(v)) -> str:
    return "—" if ci is None else f"{show(ci[0])} – {show(ci[1])}"


def measure_text(rate: bool, value: float | None) -> str:
    """A verdict measure's value: a share as a whole percentage, else minutes."""
    if value is None:
        return "—"
    return whole_pct(value) if rate else f"{value:.1f} min"


def measure_change(rate: bool, difference: float | None) -> str:
    """A change of a verdict measure: points of a share, else minutes."""
    if difference is None:
        return "—"
    return f"{difference * 100:+.1f} pt" if rate else f"{difference:+.1f} min"


def measure_size(rate: bool, size: float | None) -> str:
    """The size of an effect (no sign): ±5 points, ±2.0 minutes."""
    if size is None:
        return "—"
    return f"±{size * 100:.1f} pt" if rate else f"±{size:.1f} min"


def measure_interval(rate: bool, ci: list[float] | None, between: str = "–") -> str:
    """A verdict measure's interval in brackets (empty without one)."""
    return "" if ci is None else f" [{measure_text(rate, ci[0])}{between}{measure_text(rate, ci[1])}]"


def change_interval(rate: bool, ci: list[float] | None) -> str:
    """A change's interval in brackets (empty without one)."""
    return "" if ci is None else f" [{measure_change(rate, ci[0])}, {measure_change(rate, ci[1])}]"
