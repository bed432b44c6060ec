"""A study's variants against its baseline in detail: which experiments form each study
(:func:`study_groups`), and every measure compared, deal by deal when they share their seeds, as
an exploratory table below the verdicts (:mod:`~parlour.lab.report.verdicts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.lab.report.experiment import who_played
from parlour.lab.report.load import FloatArray, IntArray, Played, position_name
from parlour.lab.report.numbers import ALPHA, by_unit, finite, mean_ci, two_proportions_p
from parlour.lab.report.verdicts import paired, unit_test
from parlour.lab.stats import holm


@dataclass
class Metric:
    """One row of a comparison: a value per match (or per round) of each experiment."""

    key: str
    label: str
    data: Callable[[Played], FloatArray]
    """The raw values, one per match (or per round)."""
    per_round: bool = False
    rate: bool = False
    """A win rate (a share of matches won): shown as a percentage."""

    def value(self, p: Played) -> float | None:
        """The experiment's value of this metric: the mean over its independent units."""
        mean: float | None = mean_ci(p, self.data(p), self.per_round)["mean"]
        return mean

    def units(self, p: Played) -> tuple[IntArray, FloatArray]:
        """Independent observations and their units: per deal (the mean of its seatings) for
        duplicate deals, per match otherwise (a per-round value averaged within its match)."""
        return by_unit(self.data(p), p.unit[p.round_match] if self.per_round else p.unit)


def _position_totals(q: int) -> Callable[[Played], FloatArray]:
    def totals(p: Played) -> FloatArray:
        return p.by_position(p.totals)[:, q]
    return totals


def _occurrences(kind: str) -> Callable[[Played], FloatArray]:
    def occurrences(p: Played) -> FloatArray:
        if kind not in p.kinds:
            return np.zeros(len(p.counts))
        return p.counts[:, p.kinds.index(kind)].astype(np.float64)
    return occurrences


def _first_share(p: Played) -> FloatArray:
    return p.by_position(p.share)[:, 0]


ROUNDS = Metric("rounds_per_match", "Rounds per match", lambda p: p.rounds.astype(np.float64))


ROUND_MOVES = Metric("moves_per_round", "Moves per round", lambda p: p.round_moves.astype(np.float64),
                       per_round=True)


MATCH_MOVES = Metric("moves_per_match", "Moves per match", lambda p: p.moves.astype(np.float64))


FIRST_WINS = Metric("win_rate_position_0", "Win rate, first player", _first_share, rate=True)


def _metrics(group: Sequence[Played]) -> list[Metric]:
    """Every row of the comparison of ``group``: events that happen the same number of times
    in every round of every variant are left out (nothing to compare)."""
    metrics = [FIRST_WINS]
    metrics += [Metric(f"total_position_{q}", f"Mean total, {position_name(q)}", _position_totals(q))
                for q in range(group[0].seats)]
    metrics += [ROUNDS, ROUND_MOVES, MATCH_MOVES]
    kinds = sorted({kind for p in group for kind in p.kinds})
    for kind in kinds:
        metric = Metric(f"event:{kind}", f"{kind} per round", _occurrences(kind), per_round=True)
        seen = np.concatenate([metric.data(p) for p in group])
        if seen.size and not (seen == seen[0]).all():
            metrics.append(metric)
    return metrics


VERDICT_ROWS = {FIRST_WINS.key: "first_player", MATCH_MOVES.key: "minutes"}
"""Rows of the detailed table that are measures of the verdict table (moves a match is minutes a
match at a fixed pace): their tests are the verdict table's, corrected in its families."""


def _test(metric: Metric, baseline: Played, other: Played) -> dict[str, Any]:
    """``other`` against ``baseline`` on ``metric``: the verdict table's test (paired over units, else
    Welch; :func:`~parlour.lab.report.verdicts.unit_test`), or for win rates over independent matches
    the two-proportion z-test."""
    a, b = metric.units(baseline), metric.units(other)
    pair = paired(baseline, other)
    if metric.rate and not pair and not baseline.duplicate and not other.duplicate:
        wins_a, wins_b = a[1], b[1]
        difference = float(wins_b.mean() - wins_a.mean()) if wins_a.size and wins_b.size else None
        return {"test": f"two-proportion z over {len(wins_a)} and {len(wins_b)} {baseline.unit_word}",
                "p": two_proportions_p(float(wins_a.sum()), len(wins_a), float(wins_b.sum()), len(wins_b)),
                "difference": difference, "ci": None, "fixed": False}
    found = unit_test(a, b, pair, baseline.unit_word)
    return {"test": found.how, "p": found.p, "difference": found.difference, "ci": found.ci, "fixed": found.fixed}


def _never(metric: Metric, p: Played) -> bool:
    """Whether an event row's event never happens in ``p``: a difference from an event one variant's
    rules do not have is a rule, not a finding."""
    return metric.key.startswith("event:") and not np.any(metric.data(p))


def comparison_numbers(group: Sequence[Played], verdicts: dict[str, Any]) -> dict[str, Any]:
    """Every measure of ``group``'s variants against its baseline.  The rows that are verdict
    measures take the verdict table's correction; the others are *exploratory*, corrected
    together (Holm) apart from rows the rules fix and events one side never has, which are shown
    but left out of the family."""
    baseline = group[0]
    cells = {row["key"]: row["cells"] for row in verdicts["rows"]}
    rows: list[dict[str, Any]] = []
    for metric in _metrics(group):
        tests = [_test(metric, baseline, other) for other in group[1:]]
        family = []
        for test, other in zip(tests, group[1:]):
            if metric.key in VERDICT_ROWS and VERDICT_ROWS[metric.key] in cells:
                family.append("verdict")
            elif test["fixed"]:
                family.append("fixed")
            elif _never(metric, baseline) or _never(metric, other):
                family.append("never")
            else:
                family.append("exploratory" if test["p"] is not None else "none")
        rows.append({
            "key": metric.key,
            "metric": metric.label,
            "values": [finite(metric.value(p)) for p in group],
            "cis": [mean_ci(p, metric.data(p), metric.per_round)["ci"] for p in group],
            "tests": [None, *(t["test"] for t in tests)],
            "p_values": [None, *(t["p"] for t in tests)],
            "differences": [None, *({"difference": t["difference"], "ci": t["ci"]} for t in tests)],
            "family": [None, *family],
        })
    explored = [(r, i) for r, row in enumerate(rows) for i, family in enumerate(row["family"])
                if family == "exploratory"]
    adjusted = dict(zip(explored, holm([rows[r]["p_values"][i] for r, i in explored])))
    for r, row in enumerate(rows):
        row["p_adjusted"] = [None]
        for i in range(1, len(group)):
            if row["family"][i] == "verdict":
                row["p_adjusted"].append(cells[VERDICT_ROWS[row["key"]]][i]["p_adjusted"]
                                         if cells[VERDICT_ROWS[row["key"]]][i] else None)
            else:
                row["p_adjusted"].append(adjusted.get((r, i)))
        row["significant"] = [None if p is None else p < ALPHA for p in row["p_adjusted"]]
    bots = [(p.experiment.players, p.experiment.noise) for p in group]
    same_bots = all(b == bots[0] for b in bots)
    return {
        "game": baseline.experiment.game,
        "study": baseline.experiment.study,
        "baseline": baseline.experiment.name,
        "experiments": [p.experiment.name for p in group],
        "bots": [who_played(p) for p in group],
        "same_bots": same_bots,
        "paired": [None, *(paired(baseline, p) for p in group[1:])],
        "unit": baseline.unit_word,
        "tests_made": len(explored),
        "verdicts": verdicts,
        "metrics": rows,
    }


def study_groups(played: Sequence[Played], baseline: str | None = None) -> list[list[Played]]:
    """The experiments of each study with two or more in the report, the baseline first: the
    one named ``baseline`` (a full name, or a variant's name within its study), else the one
    the study's plan chose, else the study's first.  Experiments of different studies, and
    experiments of no study (quick runs), are never compared."""
    by_study: dict[str, list[Played]] = {}
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
