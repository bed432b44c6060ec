"""The verdict table: what a study's variants do to the game, one row per designer measure, one
column per variant, each a paired difference from the baseline with its interval and a verdict in
plain words — first in the report, before any detail.

The measures (:data:`MEASURES`): seat balance (the first player's win rate), deal luck (the share
of the first player's margin the deal decides), real choices, when a round is decided, comebacks,
length in minutes and draws.  Each is compared over the study's independent units (deals, or
matches), deal by deal when the variants share their seeds.

One measure is the study's *primary question* (``primary =`` in the plan, ``--primary``; the seat
balance unless said otherwise): it is tested on its own (Holm's correction only over its tests of
the variants), so that the question the study was made for is not drowned by the others.  The
other measures are the secondary family, corrected together (Holm).  A difference the rules fix
(the same in every deal) is no finding and is left out of the family, as is a measure that never
varies.

Every "no" carries its power: the smallest effect the study could have seen (80% power at the
family's level), and how many units it would take to see the measure's smallest effect worth
having.  The stop rule of the primary question judges with the same test it sizes for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.lab import spec
from parlour.lab.report.designer import measure_map
from parlour.lab.report.load import FloatArray, IntArray, Played
from parlour.lab.report.numbers import ALPHA, by_unit, finite, welch_p
from parlour.lab.report.text import variant_name
from parlour.lab.spec import StudyShape
from parlour.lab.stats import POWER, detectable, holm, paired_difference, t_interval, units_needed

UnitValues = tuple[IntArray, FloatArray]
"""Independent units (sorted) and one value per unit."""


@dataclass(frozen=True)
class Measure:
    """A designer's measure: what it is called, how it reads and where its values come from."""

    key: str
    label: str
    rate: bool
    """A share (shown as a percentage, differences in points)."""
    smallest: float
    """The smallest change worth having, by default (``--smallest-difference`` sets the primary's)."""
    higher: str
    """A clear rise, in words."""
    lower: str
    """A clear fall, in words."""
    units: Callable[[Played, dict[str, Any], float], UnitValues | None] | None
    """Each independent unit's value (None where the experiment cannot say); None for deal luck,
    which is not a mean over units (:func:`_luck_test`)."""
    explain: str


def _first_player(p: Played, section: dict[str, Any], seconds: float) -> UnitValues | None:
    if not len(p.share):
        return None
    return by_unit(p.by_position(p.share)[:, 0], p.unit)


def _minutes(p: Played, section: dict[str, Any], seconds: float) -> UnitValues | None:
    if not len(p.moves):
        return None
    return by_unit(p.moves.astype(np.float64) * seconds / 60, p.unit)


def _draws(p: Played, section: dict[str, Any], seconds: float) -> UnitValues | None:
    if not len(p.share):
        return None
    return by_unit((p.share.max(axis=1) < 1).astype(np.float64), p.unit)


def _from_play(key: str, field: str) -> Callable[[Played, dict[str, Any], float], UnitValues | None]:
    """Per-unit values that replaying the sample gave (the section's ``play``)."""
    def values(p: Played, section: dict[str, Any], seconds: float) -> UnitValues | None:
        play = section.get("play")
        pairs = None if play is None else play[key].get(field)
        if not pairs:
            return None
        return (np.array([u for u, _ in pairs], dtype=np.int64), np.array([v for _, v in pairs], dtype=np.float64))
    return values


MEASURES: tuple[Measure, ...] = (
    Measure("first_player", "Seat balance: the first player's win rate", True, 0.05,
            "the first player wins more", "the first player wins less", _first_player,
            "The share of the win the first player takes (a fair share is 1/players)."),
    Measure("luck", "Deal luck: share of the first player's margin the deal decides", True, 0.05,
            "the deal decides more", "the deal decides less", None,
            "The intraclass correlation of the first player's margin over the seatings of each duplicate deal; "
            "compared by the jackknife over the deals both variants played."),
    Measure("choices", "Real choices: share of decisions", True, 0.05, "more real choices", "fewer real choices",
            _from_play("real_choices", "per_unit"),
            "A decision is a real choice when its best move is ahead of the second-best by a fifth of the "
            "experiment's typical spread of move values (free of the game's scale of points)."),
    Measure("decided", "Decided at: share of a round played before its winner leads for good", True, 0.05,
            "decided later", "decided earlier", _from_play("decided_at", "per_unit"),
            "How far into a round its eventual winner took the lead for good (later means longer suspense)."),
    Measure("comebacks", "Comebacks: a seat behind half-way wins the round", True, 0.05,
            "more comebacks", "fewer comebacks", _from_play("halfway_comebacks", "per_unit"),
            "Of the seats behind the leader half-way through a round, the share of the round's wins they took."),
    Measure("minutes", "Length: minutes a match", False, 2.0, "longer", "shorter", _minutes,
            "Moves a match at the report's seconds a move."),
    Measure("draws", "Draws: matches whose win is shared", True, 0.02, "more draws", "fewer draws", _draws,
            "Matches whose best total is shared by two seats or more."),
)
"""The verdict table's rows, in order."""

BY_KEY: Mapping[str, Measure] = {m.key: m for m in MEASURES}
assert tuple(BY_KEY) == spec.MEASURES, "a study's questions are the verdict table's measures"

DEFAULT_PRIMARY = "first_player"
check_primary = spec.check_measure


def paired(baseline: Played, other: Played) -> bool:
    """Whether two variants' units pair up: the same seed, mode and seats, so match (or deal)
    ``i`` of each has the same seed and seating."""
    a, b = baseline.experiment, other.experiment
    return a.seed == b.seed and a.mode == b.mode and len(a.players) == len(b.players)


@dataclass(frozen=True)
class Test:
    """A variant against the baseline on one measure."""

    difference: float | None
    ci: list[float] | None
    p: float | None
    standard_error: float | None
    units: int
    sd: float | None
    """The sd of the paired differences (None unpaired)."""
    how: str
    fixed: bool = False
    """The same difference in every unit: the rules fix it, chance has no part in it."""

    def as_json(self) -> dict[str, Any]:
        return {"difference": finite(self.difference), "ci": self.ci, "p": self.p,
                "standard_error": finite(self.standard_error), "units": self.units, "sd": finite(self.sd),
                "test": self.how, "fixed": self.fixed}


def unit_test(a: UnitValues, b: UnitValues, pair: bool, word: str) -> Test:
    """``b − a`` over paired units (those both have), else Welch's test of two independent means."""
    keys_a, values_a = a
    keys_b, values_b = b
    if pair:
        common, at_a, at_b = np.intersect1d(keys_a, keys_b, return_indices=True)
        found = paired_difference(values_a[at_a].tolist(), values_b[at_b].tolist())
        n = len(common)
        sd = None if found["sd"] is None else float(found["sd"])
        mean = None if found["difference"] is None else float(found["difference"])
        fixed = n > 1 and sd == 0 and mean is not None and mean != 0
        low, high = found["low"], found["high"]
        ci = None if low is None or high is None else [float(low), float(high)]
        if fixed and mean is not None:
            ci = [mean, mean]
        se = None if sd is None or n < 2 else sd / math.sqrt(n)
        p = found["p"]
        return Test(finite(mean), ci, None if fixed or p is None else float(p), se, n, sd,
                    f"paired t over {n} {word}", fixed)
    na, nb = len(values_a), len(values_b)
    if not na or not nb:
        return Test(None, None, None, None, 0, None, "no data")
    difference = float(values_b.mean() - values_a.mean())
    se = None
    ci = None
    if na > 1 and nb > 1:
        se = math.sqrt(float(values_a.var(ddof=1)) / na + float(values_b.var(ddof=1)) / nb)
        if se > 0:
            from scipy import stats

            df = se ** 4 / ((float(values_a.var(ddof=1)) / na) ** 2 / (na - 1)
                            + (float(values_b.var(ddof=1)) / nb) ** 2 / (nb - 1))
            half = float(stats.t.ppf(0.975, df)) * se
            ci = [difference - half, difference + half]
    fixed = se == 0 and difference != 0
    return Test(difference, ci, None if fixed else welch_p(values_a, values_b), se, min(na, nb), None,
                f"Welch t over {na} and {nb} {word}", fixed)


def deal_margins(p: Played) -> tuple[IntArray, FloatArray]:
    """The complete duplicate deals (their numbers) and, for each, the first position's score
    margin in each seating: the table the deal-luck ICC is read from."""
    groups = p.complete_deals()
    if not len(groups):
        return np.zeros(0, dtype=np.int64), np.zeros((0, p.seats))
    table: FloatArray = p.by_position(p.margins())[groups, 0]
    return p.deal[groups[:, 0]].astype(np.int64), table


def jackknife_icc(table: FloatArray) -> tuple[float, FloatArray] | None:
    """The one-way ICC of a (deals × seatings) table and its leave-one-deal-out values (closed
    form: each deal's sums taken out of the totals), each clipped to [0, 1] as the report gives
    it, or None with fewer than three deals."""
    count, k = table.shape
    if count < 3 or k < 2:
        return None
    means = table.mean(axis=1)
    within = ((table - means[:, None]) ** 2).sum(axis=1)

    def icc_of(ssw: FloatArray | float, squares: FloatArray | float, total: FloatArray | float,
               groups: int) -> FloatArray:
        grand = np.asarray(total) / groups
        msb = k * (np.asarray(squares) - groups * grand ** 2) / (groups - 1)
        msw = np.asarray(ssw) / (groups * (k - 1))
        denominator = msb + (k - 1) * msw
        with np.errstate(invalid="ignore", divide="ignore"):
            result: FloatArray = np.where(denominator > 0, (msb - msw) / np.where(denominator > 0, denominator, 1),
                                          np.nan)
        return result

    whole = float(np.clip(icc_of(within.sum(), (means ** 2).sum(), means.sum(), count), 0.0, 1.0))
    left_out: FloatArray = np.clip(icc_of(within.sum() - within, (means ** 2).sum() - means ** 2, means.sum() - means,
                                          count - 1), 0.0, 1.0)
    return whole, left_out


def _luck_test(a: Played, b: Played, pair: bool) -> Test | None:
    """The deal luck of ``b`` less ``a``'s, by the jackknife over the deals both played (paired),
    else over each one's own deals; None without duplicate deals."""
    if not (a.duplicate and b.duplicate):
        return None
    deals_a, table_a = deal_margins(a)
    deals_b, table_b = deal_margins(b)
    if pair:
        common, at_a, at_b = np.intersect1d(deals_a, deals_b, return_indices=True)
        found_a, found_b = jackknife_icc(table_a[at_a]), jackknife_icc(table_b[at_b])
        if found_a is None or found_b is None:
            return Test(None, None, None, None, len(common), None, "too few deals")
        n = len(common)
        whole = found_b[0] - found_a[0]
        pseudo = n * whole - (n - 1) * (found_b[1] - found_a[1])
        pseudo = pseudo[np.isfinite(pseudo)]
        mean, low, high = t_interval(pseudo.tolist())
        sd = float(np.std(pseudo, ddof=1)) if len(pseudo) > 1 else None
        p = None
        if sd is not None and sd > 0:
            from scipy import stats

            p = float(stats.ttest_1samp(pseudo, 0.0).pvalue)
        se = None if sd is None else sd / math.sqrt(len(pseudo))
        return Test(finite(mean), None if low is None else [float(low), float(high)],  # type: ignore[arg-type]
                    p, se, n, sd, f"jackknife over {n} deals")
    found_a, found_b = jackknife_icc(table_a), jackknife_icc(table_b)
    if found_a is None or found_b is None:
        return Test(None, None, None, None, 0, None, "too few deals")
    ses = []
    for _, left_out in (found_a, found_b):
        n = len(left_out)
        ses.append(math.sqrt((n - 1) / n * float(np.nansum((left_out - np.nanmean(left_out)) ** 2))))
    se = math.sqrt(ses[0] ** 2 + ses[1] ** 2)
    difference = found_b[0] - found_a[0]
    from scipy import stats

    p = float(2 * stats.norm.sf(abs(difference) / se)) if se > 0 else None
    return Test(difference, [difference - 1.959964 * se, difference + 1.959964 * se], p, se,
                min(len(deals_a), len(deals_b)), None, f"jackknife over {len(deals_a)} and {len(deals_b)} deals")


def measure_value(measure: Measure, section: dict[str, Any]) -> dict[str, Any] | None:
    """One experiment's value of a measure with its 95% interval, as its section of the report gives
    it (:mod:`~parlour.lab.report.designer`); None where it cannot say."""
    found = measure_map(section).get(measure.key)
    if found is None or found.value is None:
        return None
    value = {"value": found.value, "ci": None if found.low is None or found.high is None else [found.low, found.high]}
    if measure.key == "luck":
        value["raw"] = section["deal_vs_players"]["by_position"][0].get("icc_raw")
    return value


def _verdict(measure: Measure, test: Test, adjusted: float | None, alpha: float, smallest: float,
             word: str, fair: float, base: float | None, value: float | None) -> dict[str, Any]:
    """The verdict on one test, with its power: a clear change (``up``/``down``), a change the rules
    fix (``fixed``), no clear change the study could have seen (``none``), or too few units to say
    (``too_few``)."""
    power: dict[str, Any] = {"detectable": None, "needed": None, "smallest": smallest}
    if test.standard_error is not None and test.standard_error > 0:
        power["detectable"] = detectable(test.standard_error, alpha)
        if test.sd is not None and test.sd > 0:
            power["needed"] = units_needed(test.sd, smallest, alpha)
        else:  # unpaired: scale the standard error to the units needed
            power["needed"] = math.ceil(test.units * (power["detectable"] / smallest) ** 2)
    if test.fixed:
        key = "fixed"
    elif test.p is None and test.difference == 0 and test.sd == 0:
        key = "same"
    elif test.difference is None or adjusted is None:
        key = "no_test"
    elif adjusted < ALPHA:
        key = "up" if test.difference > 0 else "down"
    elif power["detectable"] is not None and power["detectable"] <= smallest:
        key = "none"
    else:
        key = "too_few"
    text = {
        "up": measure.higher, "down": measure.lower, "fixed": "fixed by the rules",
        "same": f"the same in every one of the {word}", "none": "no clear change",
        "too_few": f"too few {word} to say", "no_test": "no test possible",
    }[key]
    if key in ("up", "down") and measure.key == "first_player" and base is not None and value is not None:
        nearer = abs(value - fair) < abs(base - fair)
        text = "fairer" if nearer else "less fair"
        text += f" ({measure.higher if key == 'up' else measure.lower})"
    return {"verdict": key, "text": text, "power": power}


def stop_rule(test: Test, adjusted: float | None, smallest: float, alpha: float,
              needed: int | None) -> dict[str, Any]:
    """Whether the units played are enough to answer the primary question, judged by the same
    test it is sized for: ``apart`` when the difference is clear (Holm-adjusted p below 0.05);
    ``enough`` when its 95% interval lies within ±``smallest`` (no difference worth having); else
    ``more``: the units short of ``needed`` (those that see ±``smallest`` with 80% power at the
    family's level ``alpha``, as the verdict's power says); and when the study already has those,
    the units that would, if the difference and spread stay as they are, make the difference clear
    at ``alpha`` or fit its interval within ±``smallest`` (whichever comes first; at least one)."""
    if adjusted is not None and adjusted < ALPHA:
        return {"verdict": "apart", "more": 0}
    ci = test.ci
    if ci is not None and -smallest < ci[0] and ci[1] < smallest:
        return {"verdict": "enough", "more": 0}
    if needed is not None and needed > test.units:
        return {"verdict": "more", "more": needed - test.units}
    if test.standard_error is None or test.standard_error <= 0 or test.difference is None:
        return {"verdict": "more", "more": None}
    from scipy import stats

    scale = test.standard_error * math.sqrt(test.units)  # the spread of one unit's difference
    candidates = []
    gap = smallest - abs(test.difference)
    if gap > 0:
        candidates.append((float(stats.norm.ppf(0.975)) * scale / gap) ** 2)
    if test.difference != 0:
        candidates.append((float(stats.norm.ppf(1 - alpha / 2)) * scale / abs(test.difference)) ** 2)
    if not candidates:
        return {"verdict": "more", "more": None}
    return {"verdict": "more", "more": max(1, math.ceil(min(candidates)) - test.units)}


def verdict_table(group: Sequence[Played], sections: Mapping[str, dict[str, Any]], *, primary: str,
                  smallest: float | None, seconds: float) -> dict[str, Any]:
    """The verdict table of a study (its baseline first): a row per measure the experiments can
    give, the primary first; the primary family and the secondary family each corrected (Holm)."""
    baseline = group[0]
    word = baseline.unit_word
    fair = 1 / baseline.seats
    order = [BY_KEY[primary], *(m for m in MEASURES if m.key != primary)]
    rows: list[dict[str, Any]] = []
    for measure in order:
        values = [measure_value(measure, sections[p.experiment.name]) for p in group]
        if values[0] is None and all(v is None for v in values):
            continue
        tests: list[Test | None] = []
        for other, value in zip(group[1:], values[1:]):
            if values[0] is None or value is None:
                tests.append(None)
                continue
            pair = paired(baseline, other)
            if measure.key == "luck":
                tests.append(_luck_test(baseline, other, pair))
                continue
            assert measure.units is not None
            a = measure.units(baseline, sections[baseline.experiment.name], seconds)
            b = measure.units(other, sections[other.experiment.name], seconds)
            tests.append(None if a is None or b is None else unit_test(a, b, pair, word))
        rows.append({"key": measure.key, "measure": measure.label, "rate": measure.rate, "explain": measure.explain,
                     "primary": measure.key == primary,
                     "smallest": smallest if measure.key == primary and smallest is not None else measure.smallest,
                     "values": values, "tests": tests})
    families: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    for r, row in enumerate(rows):
        for i, test in enumerate(row["tests"]):
            if test is not None and test.p is not None and not test.fixed:
                families[row["primary"]].append((r, i))
    adjusted: dict[tuple[int, int], float | None] = {}
    alphas = {}
    for family, members in families.items():
        found = holm([rows[r]["tests"][i].p for r, i in members])
        adjusted.update(zip(members, found))
        alphas[family] = ALPHA / max(1, len(members))
    for r, row in enumerate(rows):
        measure = BY_KEY[row["key"]]
        base = row["values"][0]["value"] if row["values"][0] else None
        cells: list[dict[str, Any] | None] = [None]
        for i, test in enumerate(row["tests"]):
            if test is None:
                cells.append(None)
                continue
            value = row["values"][i + 1]["value"] if row["values"][i + 1] else None
            p_adjusted = adjusted.get((r, i))
            cell = {**test.as_json(), "p_adjusted": p_adjusted,
                    **_verdict(measure, test, p_adjusted, alphas[row["primary"]], row["smallest"], word, fair, base,
                               value)}
            if row["primary"]:
                cell["stop"] = stop_rule(test, p_adjusted, row["smallest"], alphas[True], cell["power"]["needed"])
            cells.append(cell)
        row["cells"] = cells
        del row["tests"]
    return {"primary": primary, "alpha": ALPHA, "power": POWER, "unit": word, "fair_share": fair,
            "seconds_per_move": seconds, "experiments": [p.experiment.name for p in group],
            "family_sizes": {"primary": len(families[True]), "secondary": len(families[False])}, "rows": rows}


def headline(section: dict[str, Any]) -> list[dict[str, Any]]:
    """One experiment's value of every measure it can give, with its 95% interval: the first
    table of a report whose experiments form no study."""
    found = []
    for measure in MEASURES:
        value = measure_value(measure, section)
        if value is not None:
            found.append({"key": measure.key, "measure": measure.label, "rate": measure.rate, **value})
    return found


_QUIET = {"none", "too_few", "same", "no_test"}
"""Verdicts that find no clear change."""



def robustness(comparisons: Sequence[dict[str, Any]], played: Sequence[Played]) -> None:
    """For every study repeated under other playing conditions (``--check-robust``) in the same
    report, note beside each of its verdicts whether the repeat finds the same: a verdict that
    changes with the slips or the bots' strength is about the bots as much as the rules."""
    shapes = {p.experiment.study: StudyShape.from_json(p.experiment.shape) for p in played
              if p.experiment.study is not None and p.experiment.shape is not None}
    by_study = {comparison["study"]: comparison for comparison in comparisons}
    for comparison in comparisons:
        shape = shapes.get(comparison["study"])
        if shape is None or shape.robust_of not in by_study:
            continue
        original = by_study[shape.robust_of]
        mine = {row["key"]: row for row in comparison["verdicts"]["rows"]}
        names = [variant_name(name, comparison["study"]) for name in comparison["experiments"]]
        checks = []
        for row in original["verdicts"]["rows"]:
            repeat = mine.get(row["key"])
            cells: list[dict[str, Any] | None] = [None]
            for name, cell in zip(original["experiments"][1:], row["cells"][1:]):
                short = variant_name(name, original["study"])
                other = None if repeat is None or short not in names else repeat["cells"][names.index(short)]
                if cell is None or other is None:
                    cells.append(None)
                    continue
                holds = cell["verdict"] == other["verdict"] or {cell["verdict"], other["verdict"]} <= _QUIET
                cells.append({"holds": holds, "verdict": other["verdict"], "text": other["text"],
                              "difference": other["difference"], "ci": other["ci"]})
            checks.append({"key": row["key"], "cells": cells})
        original["verdicts"]["robust"] = {"study": comparison["study"], "how": shape.robust, "rows": checks}

