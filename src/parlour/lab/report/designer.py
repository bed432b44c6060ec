"""The designer's measures of one experiment, read from its section of the report: the one place
that knows where each lives (seat balance in the win rates, deal luck in the deal against the
players, real choices, when a round is decided and comebacks in the replayed play, length in the
duration and the length, draws, and the compensation of the first player's edge).  The verdict
table, the tune and the export all read them here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MeasureValue:
    """One designer measure of one experiment: its value, 95% interval and what it is counted over."""

    key: str
    value: float | None
    low: float | None
    high: float | None
    units: int | None
    unit: str | None


def ends(ci: Sequence[float | None] | None) -> tuple[float | None, float | None]:
    """An interval's two ends (two Nones without one)."""
    return (None, None) if ci is None else (ci[0], ci[1])


def _measure(key: str, found: Mapping[str, Any] | None, value: str, ci: str, units: int | None,
             unit: str | None) -> MeasureValue:
    """A measure read from a part of an experiment's section (None when the part is missing)."""
    if found is None:
        return MeasureValue(key, None, None, None, None, None)
    return MeasureValue(key, found.get(value), *ends(found.get(ci)), units, unit)


def designer_measures(section: Mapping[str, Any]) -> list[MeasureValue]:
    """The designer's measures of one experiment's report section (``report.build``'s
    ``experiments``), by the keys the lab shares: ``first_player``, ``luck``, ``choices``,
    ``decided``, ``comebacks``, ``minutes``, ``moves``, ``rounds``, ``draws``; and ``compensation``
    (:func:`parlour.lab.report.compensation.points`).  A measure the section
    has no data for (luck without duplicate deals, choices without replays) has no value."""
    units, unit = section["units"], section["unit"]
    wins, length = section["wins"], section["length"]
    luck = section["deal_vs_players"]
    play = section["play"]
    measures = [
        _measure("first_player", wins["by_position"][0], "rate", "ci", units, unit),
        _measure("luck", None if luck is None else luck["by_position"][0], "icc", "ci",
                 None if luck is None else luck["deals"], "deals"),
        _measure("choices", None if play is None else play["real_choices"], "share", "ci",
                 None if play is None else play["sample"], "sampled matches"),
        _measure("decided", None if play is None else play["decided_at"], "mean", "ci",
                 None if play is None else play["decided_at"]["units"], unit),
        _measure("comebacks", None if play is None else play["halfway_comebacks"], "share", "ci",
                 None if play is None else len(play["halfway_comebacks"]["per_unit"]), unit),
        _measure("minutes", section["duration"]["minutes"], "mean", "mean_ci", units, unit),
        _measure("moves", length["moves_per_match"], "mean", "mean_ci", units, unit),
        _measure("rounds", length["rounds_per_match"], "mean", "mean_ci", units, unit),
        _measure("draws", wins["draws"], "rate", "ci", units, unit),
    ]
    found = section["compensation"]
    measures.append(_measure("compensation", found, "points", "ci", None if found is None else found["units"],
                             None if found is None else found["unit"]))
    return measures


def measure_map(section: Mapping[str, Any]) -> dict[str, MeasureValue]:
    """:func:`designer_measures` by key."""
    return {measure.key: measure for measure in designer_measures(section)}
