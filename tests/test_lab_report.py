"""The designers' report, end to end: real experiments played into a real
SQLite file, and every number checked against the match records themselves
(replayed through the engine), computed here without the report's code."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import statistics
import subprocess
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from conftest import parlour_command
from parlour import games, record
from parlour.lab import plan, report, runner
from parlour.store import Store

TWENTY = plan.make_spec(game="twenty", players=["random", "random"], deals=15, seed=1)
PROGRESSION = plan.make_spec(game="progression", players=["random", "random", "random"], deals=4, seed=3)
HANDS = "hand sizes"
"""A study of three variants, as a plan makes them (the baseline is the one with eight cards)."""
MINUS_DEFAULT = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                               rounds_only=True, name=f"{HANDS}/standard", study=HANDS, baseline=f"{HANDS}/eight")
MINUS_EIGHT = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                             rounds_only=True, options={"hand_size": 8}, name=f"{HANDS}/eight", study=HANDS,
                             baseline=f"{HANDS}/eight")
MINUS_ONE = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                           rounds_only=True, options={"hand_size": 1}, name=f"{HANDS}/one", study=HANDS,
                           baseline=f"{HANDS}/eight")
MINUS_STALL = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=20, seed=5,
                             rounds_only=True, options={"stall_limit": 10})
SILVER = plan.make_spec(game="silver-bars", players=["random", "random"], deals=10, seed=4, rounds_only=True)
STALLS = [plan.make_spec(game="minus-twenty", players=["heuristic", "random"], matches=10, seed=7, rounds_only=True,
                         options={"stall_limit": limit}, name=f"stalls/{limit}", study="stalls",
                         baseline="stalls/20") for limit in (20, 10)]
"""Another study of the same game, with other bots and seed: never compared with the first."""
SPECS = [TWENTY, PROGRESSION, MINUS_DEFAULT, MINUS_EIGHT, MINUS_ONE, MINUS_STALL, SILVER, *STALLS]
T95 = {n: float(stats.t.ppf(0.975, n - 1)) for n in range(2, 200)}
"""Student's t quantile for a 95% interval over n values."""
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A lab database on disk holding every experiment above."""
    lab = Store(tmp_path_factory.mktemp("lab") / "lab.sqlite")
    runner.run(SPECS, lab, jobs=1)
    return lab


@pytest.fixture(scope="module")
def numbers(store: Store) -> dict[str, Any]:
    """The report's numbers for every experiment."""
    return report.build(store)


@dataclass
class Played:
    """One match as its record tells it."""

    deal: int | None
    seating: list[int]
    first: int
    totals: list[int]
    shares: list[float]
    """Each seat's part of the win (1/k for each of k tied winners)."""
    round_moves: list[int]
    round_kinds: list[list[str]]


def replayed(store: Store, name: str) -> list[Played]:
    """Every match of an experiment, from its record replayed through the engine."""
    experiment = store.experiment(name)
    assert experiment is not None
    played = []
    for match in store.matches(experiment.id):
        state = record.replay(record.from_data(json.loads(match.record)))
        rounds = [*state.history, state]
        totals = list(state.totals)
        best = max(totals)
        winners = [seat for seat, total in enumerate(totals) if total == best]
        played.append(Played(
            deal=match.deal,
            seating=list(match.seating),
            first=state.first,
            totals=totals,
            shares=[1 / len(winners) if seat in winners else 0.0 for seat in range(len(totals))],
            round_moves=[len(r.moves) for r in rounds],
            round_kinds=[[e.kind for e in r.events] for r in rounds],
        ))
    return played


def section(numbers: dict[str, Any], name: str) -> dict[str, Any]:
    """The report's numbers for one experiment."""
    return next(e for e in numbers["experiments"] if e["name"] == name)


def position_seat(match: Played, position: int) -> int:
    return (match.first + position) % len(match.totals)


def margin(match: Played, seat: int) -> float:
    others = [t for s, t in enumerate(match.totals) if s != seat]
    return match.totals[seat] - sum(others) / len(others)


def icc_by_hand(groups: list[list[float]]) -> tuple[float, tuple[float, float]]:
    """One-way ANOVA intraclass correlation and its 95% interval (Shrout & Fleiss), written out."""
    count, k = len(groups), len(groups[0])
    grand = sum(sum(g) for g in groups) / (count * k)
    means = [sum(g) / k for g in groups]
    msb = k * sum((m - grand) ** 2 for m in means) / (count - 1)
    msw = sum((v - m) ** 2 for g, m in zip(groups, means) for v in g) / (count * (k - 1))
    f = msb / msw
    f_low = f / stats.f.ppf(0.975, count - 1, count * (k - 1))
    f_high = f * stats.f.ppf(0.975, count * (k - 1), count - 1)

    def clip(x: float) -> float:
        return min(1.0, max(0.0, x))

    return clip((msb - msw) / (msb + (k - 1) * msw)), (clip((f_low - 1) / (f_low + k - 1)),
                                                       clip((f_high - 1) / (f_high + k - 1)))


def interval_by_hand(spec: plan.ExperimentSpec, matches: list[Played], values: list[float],
                     rate: bool = False) -> list[float]:
    """The 95% interval of the mean of per-match ``values`` over the independent units: matches
    (Wilson's interval for a win rate, else Student's t), or deals (Student's t over each deal's
    mean, clipped to [0, 1] for a rate)."""
    if spec.mode == "deals":
        by_deal: dict[int | None, list[float]] = {}
        for m, v in zip(matches, values):
            by_deal.setdefault(m.deal, []).append(v)
        values = [statistics.fmean(group) for group in by_deal.values()]
    n = len(values)
    mean = statistics.fmean(values)
    if rate and spec.mode == "matches":
        z = 1.959963984540054
        centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return [max(0.0, centre - half), min(1.0, centre + half)]
    half = T95[n] * statistics.stdev(values) / math.sqrt(n)
    return [max(0.0, mean - half), min(1.0, mean + half)] if rate else [mean - half, mean + half]


@pytest.mark.parametrize("spec", [TWENTY, PROGRESSION, MINUS_EIGHT, MINUS_STALL, SILVER], ids=lambda s: s.name)
def test_numbers_match_the_records(store: Store, numbers: dict[str, Any], spec: plan.ExperimentSpec) -> None:
    matches = replayed(store, spec.name)
    got = section(numbers, spec.name)
    seats = len(spec.players)
    assert got["matches"] == len(matches) == spec.total
    assert got["rounds"] == sum(len(m.round_moves) for m in matches)

    for seat in range(seats):
        totals = [m.totals[seat] for m in matches]
        summary = got["scores"]["by_seat"][seat]
        assert summary["mean"] == pytest.approx(statistics.fmean(totals))
        assert summary["mean_ci"] == pytest.approx(interval_by_hand(spec, matches, totals))
        assert summary["sd"] == pytest.approx(statistics.stdev(totals))
        q1, median, q3 = statistics.quantiles(totals, n=4, method="inclusive")
        assert (summary["min"], summary["q1"], summary["median"], summary["q3"], summary["max"]) == pytest.approx(
            (min(totals), q1, median, q3, max(totals)))
        wins = sum(m.shares[seat] for m in matches)
        assert got["wins"]["by_seat"][seat]["rate"] == pytest.approx(wins / len(matches))
    for position in range(seats):
        totals = [m.totals[position_seat(m, position)] for m in matches]
        assert got["scores"]["by_position"][position]["mean"] == pytest.approx(statistics.fmean(totals))
        wins = sum(m.shares[position_seat(m, position)] for m in matches)
        rate = got["wins"]["by_position"][position]
        assert rate["wins"] == pytest.approx(wins)
        assert rate["rate"] == pytest.approx(wins / len(matches))
        shares = [m.shares[position_seat(m, position)] for m in matches]
        assert rate["ci"] == pytest.approx(interval_by_hand(spec, matches, shares, rate=True))
        if seats == 2:
            r = wins / len(matches)
            assert rate["elo"] == pytest.approx(400 * math.log10(r / (1 - r)))
    for player in range(seats):
        wins = sum(m.shares[m.seating.index(player)] for m in matches)
        assert got["wins"]["by_player"][player]["rate"] == pytest.approx(wins / len(matches))
    assert sum(r["rate"] for r in got["wins"]["by_position"]) == pytest.approx(1.0)

    round_moves = [n for m in matches for n in m.round_moves]
    length = got["length"]
    assert length["moves_per_round"]["mean"] == pytest.approx(statistics.fmean(round_moves))
    assert length["moves_per_round"]["max"] == max(round_moves)
    assert length["rounds_per_match"]["mean"] == pytest.approx(statistics.fmean(len(m.round_moves) for m in matches))
    assert length["moves_per_match"]["mean"] == pytest.approx(statistics.fmean(sum(m.round_moves) for m in matches))
    per_match_round_moves = [statistics.fmean(m.round_moves) for m in matches]  # a match's rounds are one unit
    assert length["moves_per_round"]["mean_ci"] == pytest.approx(interval_by_hand(spec, matches, per_match_round_moves))

    rounds = [kinds for m in matches for kinds in m.round_kinds]
    seen = Counter(kind for kinds in rounds for kind in kinds)
    assert set(got["events"]["kinds"]) == set(seen)
    for kind, count in seen.items():
        item = got["events"]["kinds"][kind]
        assert item["count"] == count
        assert item["per_round"] == pytest.approx(count / len(rounds))
        assert item["share_of_rounds"] == pytest.approx(sum(kind in kinds for kinds in rounds) / len(rounds))

    def ending(kinds: list[str]) -> str:  # as the rulebooks say rounds end
        if "Stall rule" in kinds or "Stall Rule" in kinds:
            return "Stall rule"
        if "Lock-out" in kinds:
            return "Lock-out"
        if "Draw Pile Empty" in kinds or spec.game != "twenty":
            return "Draw pile empty"
        return "Cards played out"
    endings = Counter(ending(kinds) for kinds in rounds)
    for name, count in endings.items():
        assert got["events"]["endings"][name]["rounds"] == count
    assert sum(item["rounds"] for item in got["events"]["endings"].values()) == len(rounds)
    # Every way the game's rounds can end is shown, even one that never happened; no other.
    assert list(got["events"]["endings"]) == [e.name for e in games.get(spec.game).endings]
    if spec is MINUS_STALL:
        assert 0 < endings["Stall rule"] < len(rounds)  # random players often take from the discards
    if spec.game == "silver-bars":
        assert set(got["events"]["endings"]) == {"Lock-out", "Draw pile empty"}

    deal = got["deal_vs_players"]
    if spec.mode != "deals":
        assert deal is None
        return
    by_deal: dict[int, list[Played]] = {}
    for m in matches:
        assert m.deal is not None
        by_deal.setdefault(m.deal, []).append(m)
    assert deal["deals"] == spec.count
    assert all(len(group) == seats for group in by_deal.values())
    assert deal["identical_deals"] == 0 and deal["warning"] is None  # random bots never replay a deal
    for position in range(seats):
        groups = [[margin(m, position_seat(m, position)) for m in group] for group in by_deal.values()]
        expected, (low, high) = icc_by_hand(groups)
        assert deal["by_position"][position]["icc"] == pytest.approx(expected)
        assert deal["by_position"][position]["players_share"] == pytest.approx(1 - expected)
        assert deal["by_position"][position]["ci"] == pytest.approx([low, high])
    for player in range(seats):
        per_deal = [statistics.fmean(margin(m, m.seating.index(player)) for m in group) for group in by_deal.values()]
        item = deal["by_player"][player]
        mean = statistics.fmean(per_deal)
        half = T95[len(per_deal)] * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
        assert item["mean_margin"] == pytest.approx(mean)
        assert item["ci"] == pytest.approx([mean - half, mean + half])


def test_a_shared_win_counts_a_share(store: Store, numbers: dict[str, Any]) -> None:
    """Progression's random players tie now and then; the rates by position still add up to one."""
    matches = replayed(store, PROGRESSION.name)
    got = section(numbers, PROGRESSION.name)
    assert sum(r["wins"] for r in got["wins"]["by_seat"]) == pytest.approx(len(matches))
    assert sum(r["wins"] for r in got["wins"]["by_player"]) == pytest.approx(len(matches))


def test_variants_of_a_study_are_compared_match_by_match_with_its_baseline(store: Store) -> None:
    numbers = report.build(store)
    comparisons = {c["study"]: c for c in numbers["comparisons"]}
    assert set(comparisons) == {HANDS, "stalls"}  # one table a study; quick runs are never compared
    assert comparisons["stalls"]["experiments"] == ["stalls/20", "stalls/10"]
    assert MINUS_STALL.name in numbers["uncompared"]
    comparison = comparisons[HANDS]
    # The plan's baseline comes first; the others in the order stored.
    assert comparison["experiments"] == [MINUS_EIGHT.name, MINUS_DEFAULT.name, MINUS_ONE.name]
    assert comparison["paired"] == [None, True, True] and comparison["same_bots"]
    rows = {row["key"]: row for row in comparison["metrics"]}
    assert rows["rounds_per_match"]["p_values"] == [None, None, None]  # single rounds: nothing varies

    eight, default, one = (replayed(store, spec.name) for spec in (MINUS_EIGHT, MINUS_DEFAULT, MINUS_ONE))
    # Match i of every variant has the same seed and seating: the test is a paired t-test over matches.
    moves = rows["moves_per_round"]
    per_match = [[statistics.fmean(m.round_moves) for m in variant] for variant in (eight, default, one)]
    assert moves["values"] == pytest.approx([statistics.fmean(v) for v in per_match])
    for i in (1, 2):
        paired = stats.ttest_rel(per_match[i], per_match[0])
        assert moves["tests"][i] == "paired t over 30 matches"
        assert moves["p_values"][i] == pytest.approx(paired.pvalue, rel=1e-6, abs=0)
        differences = [b - a for a, b in zip(per_match[0], per_match[i])]
        half = T95[30] * statistics.stdev(differences) / math.sqrt(30)
        mean = statistics.fmean(differences)
        assert moves["differences"][i]["difference"] == pytest.approx(mean)
        assert moves["differences"][i]["ci"] == pytest.approx([mean - half, mean + half])

    # The detailed table is exploratory: Holm over its own rows, by hand, leaving out the rows that are verdicts
    # (their p is the verdict table's), the rows the rules fix and events one side never has.
    family = [(p, row["key"], i) for row in comparison["metrics"] for i, p in enumerate(row["p_values"])
              if p is not None and row["family"][i] == "exploratory"]
    assert {row["family"][1] for row in comparison["metrics"]} <= {"exploratory", "verdict", "fixed", "never", "none"}
    assert rows["win_rate_position_0"]["family"][1:] == ["verdict", "verdict"]
    family.sort()
    running = 0.0
    for rank, (p, key, i) in enumerate(family):
        running = max(running, min(1.0, (len(family) - rank) * p))
        assert rows[key]["p_adjusted"][i] == pytest.approx(running)
        assert rows[key]["significant"][i] is (running < 0.05)
    assert comparison["tests_made"] == len(family)
    assert moves["significant"][2] is True  # one card in hand against eight: far fewer moves
    verdict = {row["key"]: row for row in comparison["verdicts"]["rows"]}["first_player"]
    assert rows["win_rate_position_0"]["p_adjusted"][1:] == [cell["p_adjusted"] for cell in verdict["cells"][1:]]
    kinds = {kind for m in eight + one for r in m.round_kinds for kind in r}
    assert {key[len("event:"):] for key in rows if key.startswith("event:")} <= kinds


def test_the_designer_chooses_the_baseline(store: Store) -> None:
    numbers = report.build(store, baseline="one")  # a variant's name within its study
    comparison = next(c for c in numbers["comparisons"] if c["study"] == HANDS)
    assert comparison["experiments"][0] == MINUS_ONE.name
    assert next(c for c in numbers["comparisons"] if c["study"] == "stalls")["experiments"][0] == "stalls/20"
    with pytest.raises(ValueError, match="no study in the report has a variant named 'nonesuch'"):
        report.build(store, baseline="nonesuch")


def test_unpaired_variants_are_tested_by_proportions() -> None:
    """Variants that do not share their seeds are compared as independent samples: the first
    player's win rate by a pooled two-proportion z-test on fractional wins (written out)."""
    assert report.two_proportions_p(12, 30, 20, 30) == pytest.approx(
        2 * stats.norm.sf(abs((12 / 30 - 20 / 30) / math.sqrt(32 / 60 * 28 / 60 * (2 / 30)))), rel=1e-9)


def test_degenerate_tests_give_none() -> None:
    assert report.welch_p([1, 1, 1], [2, 2, 2]) is None
    assert report.welch_p([1], [1, 2, 3]) is None
    assert report.welch_p([], []) is None
    assert report.two_proportions_p(0, 10, 0, 10) is None
    assert report.two_proportions_p(3, 0, 1, 5) is None
    p = report.welch_p([1, 2, 3, 4], [1, 2, 3, 5])
    assert p is not None and 0 < p <= 1


def test_html_report_with_plots(store: Store, tmp_path: Path) -> None:
    main = report.write(store, None, tmp_path / "out")
    assert main == tmp_path / "out" / "report.html"
    page = main.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for spec in SPECS:
        assert spec.name in page
    for heading in ("Summary", "Score distribution", "Win rate by seat and position", "Round and match length",
                    "Scoring events and round endings", "Deal versus players",
                    f"Study {HANDS} in detail: variants of Minus Twenty side by side", "Study stalls in detail",
                    "Verdicts", "Contents", f"Study {HANDS} (Minus Twenty)"):
        assert heading in page
    # The verdicts come first, then the contents, the summary and the details.
    assert page.index("Verdicts") < page.index("Contents") < page.index("Summary") < page.index("Score distribution")
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 5 * len(SPECS) + 3 + 2 * 3  # five each, a deal plot for each of the 3 duplicate
    # ones, and a verdict plot, a comparison and a sweep a study (each varies one option)
    for name in images:
        data = (main.parent / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 1000
    assert sorted(p.name for p in main.parent.glob("*.png")) == sorted(images)


def test_json_and_markdown(store: Store, tmp_path: Path) -> None:
    names = [SILVER.name]
    main = report.write(store, names, tmp_path / "json", fmt="json")
    assert main.name == "report.json"
    written = json.loads(main.read_text(encoding="utf-8"))
    plots = written["experiments"][0].pop("plots")
    examples = []
    for item in written["experiments"][0]["anomalies"]:  # each example's record is written beside the report
        if item["example"] is not None:
            examples.append(main.parent / item.pop("file"))
            assert item.pop("replay") == f"parlour replay {examples[-1]}"
    assert written == json.loads(json.dumps(report.build(store, names)))
    assert examples and all(record.load(path).players for path in examples)
    for name in plots.values():
        assert (main.parent / name).read_bytes().startswith(PNG)

    main = report.write(store, names, tmp_path / "md", fmt="markdown")
    assert main.name == "report.md"
    text = main.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(links) == 6
    for name in links:
        assert (main.parent / name).stat().st_size > 1000
    assert "| Lock-out |" in text or "| Draw pile empty |" in text


def test_unknown_names_and_formats(store: Store, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no experiment named 'nonesuch'"):
        report.build(store, ["nonesuch"])
    with pytest.raises(ValueError, match="no experiment named"):
        report.write(store, [TWENTY.name, "nonesuch"], tmp_path)
    with pytest.raises(ValueError, match="unknown report format"):
        report.write(store, None, tmp_path, fmt="pdf")


def test_an_experiment_without_matches(tmp_path: Path) -> None:
    """A plan stored but not yet played reports empty numbers — no warning, no crash."""
    lab = Store(tmp_path / "empty.sqlite")
    runner.prepare(lab, dataclasses.replace(TWENTY, study="empty"))
    runner.prepare(lab, plan.make_spec(game="twenty", players=["random", "random"], matches=3, seed=9, study="empty"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        main = report.write(lab, None, tmp_path / "out")
        numbers = report.build(lab)
    assert main.exists()
    empty = numbers["experiments"][0]
    assert empty["matches"] == 0 and empty["scores"]["by_seat"][0]["mean"] is None
    assert empty["wins"]["by_position"][0]["rate"] is None
    assert empty["deal_vs_players"]["by_position"][0]["icc"] is None
    assert all(p is None for row in numbers["comparisons"][0]["metrics"] for p in row["p_values"])


def test_a_deterministic_bot_on_duplicate_deals_is_warned_of_and_gets_no_icc(tmp_path: Path) -> None:
    """Two copies of the heuristic bot (it has no randomness in 100 Silver Bars) play each deal
    the same way in both seatings: those are copies, not tries, so the report warns and gives no
    share decided by the deal.  With playtest noise the seatings differ and the ICC is back."""
    lab = Store(tmp_path / "lab.sqlite")
    still = plan.make_spec(game="silver-bars", players=["heuristic", "heuristic"], deals=6, seed=1, rounds_only=True)
    noisy = plan.make_spec(game="silver-bars", players=["heuristic", "heuristic"], deals=6, seed=1, rounds_only=True,
                           noise=0.2)
    runner.run([still, noisy], lab, jobs=1)
    numbers = report.build(lab)
    deal = section(numbers, still.name)["deal_vs_players"]
    by_deal: dict[int | None, list[Played]] = {}
    for m in replayed(lab, still.name):
        by_deal.setdefault(m.deal, []).append(m)
    assert all(a.totals == b.totals and a.round_moves == b.round_moves for a, b in by_deal.values())
    assert deal["identical_deals"] == 6 and deal["identical_share"] == 1.0
    assert "6 of 6 deals (100%) were played move for move the same" in deal["warning"]
    assert all(item["icc"] is None for item in deal["by_position"])
    assert any(deal["warning"] in line for line in numbers["summary"])
    page = report.write(lab, [still.name], tmp_path / "out").read_text(encoding="utf-8")
    assert 'class="warning"' in page and "not given (see the warning)" in page

    shaken = section(numbers, noisy.name)
    assert shaken["noise"] == 0.2 and "20% random slips" in shaken["bots"]
    assert shaken["deal_vs_players"]["identical_deals"] == 0 and shaken["deal_vs_players"]["warning"] is None
    assert shaken["deal_vs_players"]["by_position"][0]["icc"] is not None


def test_the_summary_says_what_is_significant_and_what_is_not(numbers: dict[str, Any]) -> None:
    lines = numbers["summary"]
    for spec in (TWENTY, SILVER):  # quick runs of random bots: no clear seat advantage in so few deals
        rate = section(numbers, spec.name)["wins"]["by_position"][0]
        assert f"{spec.name} ({rate['rate'] * 100:.0f}%, 95% interval" in next(
            line for line in lines if line.startswith("No clear advantage to either seat"))
    hands = next(c for c in numbers["comparisons"] if c["study"] == HANDS)
    moves = next(row for row in hands["metrics"] if row["key"] == "moves_per_round")
    assert moves["significant"][2] and moves["family"][2] == "exploratory"
    assert any(line.startswith(f"Study {HANDS!r}, exploratory") and "moves per round (one)" in line for line in lines)
    assert any(line.startswith(f"Study {HANDS!r} asks about seat balance") for line in lines)
    assert not any(line.startswith(MINUS_EIGHT.name) for line in lines)  # a study's variants are in its verdicts
    assert any("are not compared with each other" in line for line in lines)  # MINUS_STALL and the others


def test_constant_events_and_endings_that_never_happen_are_not_rows(store: Store, tmp_path: Path) -> None:
    """A thing that happens the same number of times in every round carries nothing: it is named
    once under the table; an ending that never happened is named once, not given a 0% row."""
    numbers = report.build(store, [SILVER.name])
    kinds = section(numbers, SILVER.name)["events"]["kinds"]
    text = report.write(store, [SILVER.name], tmp_path / "md", fmt="markdown").read_text(encoding="utf-8")
    for kind, item in kinds.items():
        per_round = [sum(1 for k in round_kinds if k == kind)
                     for m in replayed(store, SILVER.name) for round_kinds in m.round_kinds]
        assert item["constant"] is (len(set(per_round)) == 1)
        assert (f"| {kind} |" in text) is not item["constant"]
    endings = section(numbers, SILVER.name)["events"]["endings"]
    for name, item in endings.items():
        assert (f"| {name} |" in text) is (item["rounds"] > 0)


def play_by_hand(store: Store, spec: plan.ExperimentSpec) -> list[dict[str, Any]]:
    """The measures of play, recounted from every record of an experiment (each replayed move by
    move), with the independent unit of each match (its deal, or itself)."""
    experiment = store.experiment(spec.name)
    assert experiment is not None
    return [match_by_hand(spec, match.index, match.record) for match in store.matches(experiment.id)]


def match_by_hand(spec: plan.ExperimentSpec, index: int, text: str) -> dict[str, Any]:
    from parlour.bots.heuristic import advice

    game = games.get(spec.game)
    judge = advice(spec.game).evaluate or (lambda state: [float(s) for s in state.scores])
    unit = index // len(spec.players) if spec.mode == "deals" else index
    counts: dict[str, Any] = {"unit": unit, "decisions": 0, "choices": 0, "real": 0, "kinds": Counter(),
                              "rounds": []}
    leaders: list[int | None] = []

    def before(state: Any, move: Any) -> None:
        values = judge(state)
        leaders.append(values.index(max(values)) if values.count(max(values)) == 1 else None)
        counts["decisions"] += 1
        counts["kinds"][game.move_kind(move)] += 1
        legal = state.legal_moves()
        if len(legal) > 1:
            counts["choices"] += 1
            seat = state.current_player()
            edges = []
            for option in legal:
                state.apply(option)
                after = judge(state)
                edges.append(after[seat] - (sum(after) - after[seat]) / (len(after) - 1))
                state.undo()
            ordered = sorted(edges, reverse=True)
            best, second = ordered[:2]
            counts["real"] += best - second > 1.0 - 1e-6  # exactly one point is a real gap
            counts.setdefault("gaps", []).append((best - second, best - ordered[-1]))

    def after_round(state: Any) -> None:
        winners = [s for s, v in enumerate(state.scores) if v == max(state.scores)]
        sequence = [*leaders, winners[0] if len(winners) == 1 else None]
        known = [x for x in sequence if x is not None]
        changes = sum(1 for a, b in itertools.pairwise(known) if a != b)
        decided = None
        if len(winners) == 1:
            others = [i for i, x in enumerate(sequence) if x != winners[0]]
            decided = (others[-1] + 1) / len(leaders) if others else 0.0
        counts["rounds"].append((changes, decided))
        leaders.clear()

    record.replay(record.from_data(json.loads(text)), before_move=before, after_round=after_round)
    return counts


def unit_t_interval(pairs: list[tuple[int, float]]) -> list[float]:
    """Student's t interval of the mean of per-unit means."""
    by_unit: dict[int, list[float]] = {}
    for unit, value in pairs:
        by_unit.setdefault(unit, []).append(value)
    means = [statistics.fmean(v) for v in by_unit.values()]
    mean = statistics.fmean(means)
    half = T95[len(means)] * statistics.stdev(means) / math.sqrt(len(means))
    return [mean - half, mean + half]


@pytest.mark.parametrize("spec", [TWENTY, MINUS_EIGHT, SILVER], ids=lambda s: s.name)
def test_measures_of_play_match_the_records(store: Store, numbers: dict[str, Any], spec: plan.ExperimentSpec) -> None:
    """Every match is replayed here (the sample of 100 holds them all): choices, what is played,
    lead changes and when rounds are decided, each with its interval over deals or matches."""
    play = section(numbers, spec.name)["play"]
    found = play_by_hand(store, spec)
    assert play["sample"] == play["of"] == len(found) == spec.total
    decisions = sum(m["decisions"] for m in found)
    assert play["decisions"] == decisions
    assert play["choices"]["share"] == pytest.approx(sum(m["choices"] for m in found) / decisions)
    assert play["real_choices_points"]["share"] == pytest.approx(sum(m["real"] for m in found) / decisions)
    # The scale-free measure: a gap of a fifth of the median spread (best minus worst) of the experiment's decisions.
    gaps = [gap for m in found for gap in m.get("gaps", [])]
    bar = 0.2 * statistics.median(spread for _, spread in gaps)
    assert play["real_bar"] == pytest.approx(bar)
    real = sum(1 for gap, _ in gaps if gap >= bar - 1e-9) if bar > 0 else sum(1 for gap, _ in gaps if gap > 1e-9)
    assert play["real_choices"]["share"] == pytest.approx(real / decisions)
    by_unit: dict[int, list[int]] = {}
    for m in found:
        tally = by_unit.setdefault(m["unit"], [0, 0])
        tally[0] += m["choices"]
        tally[1] += m["decisions"]
    shares = [c / d for c, d in by_unit.values()]
    half = T95[len(shares)] * statistics.stdev(shares) / math.sqrt(len(shares))
    mean = statistics.fmean(shares)
    assert play["choices"]["ci"] == pytest.approx([max(0.0, mean - half), min(1.0, mean + half)])
    kinds = sum((m["kinds"] for m in found), Counter())
    assert {k: v["played"] for k, v in play["kinds"].items()} == dict(kinds)
    assert list(play["kinds"]) == [k for k, _ in kinds.most_common()]
    rounds = [(m["unit"], changes, decided) for m in found for changes, decided in m["rounds"]]
    assert play["lead_changes"]["ci"] == pytest.approx(unit_t_interval([(u, c) for u, c, _ in rounds]))
    decided = [(u, d) for u, _, d in rounds if d is not None]
    assert play["decided_at"]["ci"] == pytest.approx(unit_t_interval(decided))
    assert play["decided_at"]["median"] == pytest.approx(statistics.median(d for _, d in decided))
    assert sum(item["behind"] for item in play["comebacks"]) > 0


def test_the_sample_is_spread_over_the_matches() -> None:
    from parlour.lab import measures

    assert measures.sample_indices(5, 10) == [0, 1, 2, 3, 4]
    assert measures.sample_indices(5, 1) == [0] and measures.sample_indices(5, 0) == []
    picked = measures.sample_indices(1000, 100)
    assert len(picked) == 100 and picked[0] == 0 and picked[-1] == 999
    assert max(b - a for a, b in itertools.pairwise(picked)) <= 11


def test_duration_in_minutes_against_a_target(store: Store) -> None:
    numbers = report.build(store, [MINUS_EIGHT.name, TWENTY.name], seconds_per_move=4, target_minutes=(10, 12))
    for spec in (MINUS_EIGHT, TWENTY):
        duration = section(numbers, spec.name)["duration"]
        minutes = [sum(m.round_moves) * 4 / 60 for m in replayed(store, spec.name)]
        assert duration["minutes"]["mean"] == pytest.approx(statistics.fmean(minutes))
        assert duration["minutes"]["median"] == pytest.approx(statistics.median(minutes))
        target = duration["target"]
        for key, inside in (("shorter", lambda x: x < 10), ("within", lambda x: 10 <= x <= 12),
                            ("longer", lambda x: x > 12)):
            flags = [float(inside(x)) for x in minutes]
            assert target[key]["rate"] == pytest.approx(statistics.fmean(flags))
            assert target[key]["ci"] == pytest.approx(interval_by_hand(spec, replayed(store, spec.name), flags,
                                                                       rate=True))


def test_anomalies_name_an_example_to_replay(store: Store, tmp_path: Path) -> None:
    numbers = report.build(store, [MINUS_STALL.name])
    (stalls, capped, longest) = section(numbers, MINUS_STALL.name)["anomalies"]
    matches = replayed(store, MINUS_STALL.name)
    stalled = [i for i, m in enumerate(matches) for kinds in m.round_kinds if "Stall rule" in kinds]
    assert stalls["count"] == len(stalled) > 0 and stalls["example"] == stalled[0]
    assert capped["count"] == 0 and capped["example"] is None  # single rounds: no limit on rounds to reach
    most = max(n for m in matches for n in m.round_moves)
    assert longest["what"].startswith(f"the longest round: {most} moves")
    assert max(matches[longest["example"]].round_moves) == most
    page = report.write(store, [MINUS_STALL.name], tmp_path / "out").read_text(encoding="utf-8")
    stored = store.experiment(MINUS_STALL.name)
    assert stored is not None
    example = tmp_path / "out" / "examples" / f"exp{stored.id}-stall-0-match{stalled[0]}.json"
    assert f'href="examples/{example.name}"' in page
    out = subprocess.run([*parlour_command(), "replay", str(example)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "the round ends by the stall rule" in out.stdout.lower()


def test_a_study_that_varies_one_option_is_a_sweep(numbers: dict[str, Any]) -> None:
    hands = next(c for c in numbers["comparisons"] if c["study"] == HANDS)
    sweep = hands["findings"]["sweep"]
    assert sweep["option"] == "hand_size" and sweep["values"] == [1, 7, 8]
    by_value = {1: MINUS_ONE, 7: MINUS_DEFAULT, 8: MINUS_EIGHT}
    wins = next(series for series in sweep["series"] if series["key"] == "win_rate_position_0")
    for point in wins["points"]:
        rate = section(numbers, by_value[point["value"]].name)["wins"]["by_position"][0]
        assert point["mean"] == pytest.approx(rate["rate"])
    assert hands["findings"]["luck"] is None and hands["findings"]["depth"] is None
    assert hands["findings"]["matters"] is None
    assert any(line.startswith("Sweeping hand_size from 1 to 8") for line in numbers["summary"])


@pytest.fixture(scope="module")
def shaped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, dict[str, Any]]:
    """Studies whose shape asks a question: restricted play, skill depth, deal luck."""
    from parlour.lab import ladder, studies

    lab = Store(tmp_path_factory.mktemp("shaped") / "lab.sqlite")
    specs = [*studies.matters("silver-bars", "medium", deals=20, seed=3, kinds=["play thief"], rounds_only=True),
             *studies.depth("twenty", [4, 8], deals=6, seed=2, rounds_only=True),
             *studies.luck("twenty", ["random", "easy"], deals=8, seed=5, rounds_only=True),
             *ladder.ladder_specs("twenty", ["random", "medium", "easy"], matches=12, seed=4)]
    runner.run(specs, lab, jobs=1)
    return lab, report.build(lab)


def per_deal_shares(store: Store, name: str, player: int) -> list[float]:
    """A player's share of the win in each deal, from the records."""
    experiment = store.experiment(name)
    assert experiment is not None
    by_deal: dict[int | None, list[float]] = {}
    for m in replayed(store, name):
        by_deal.setdefault(m.deal, []).append(m.shares[m.seating.index(player)])
    return [statistics.fmean(shares) for shares in by_deal.values()]


def test_restricted_play_is_the_barred_bots_gap_to_a_fair_share(shaped: tuple[Store, dict[str, Any]]) -> None:
    store, numbers = shaped
    study = next(c for c in numbers["comparisons"] if c["study"] == "what matters")
    (row,) = study["findings"]["matters"]
    assert (row["kind"], row["how"]) == ("play thief", "without")
    shares = per_deal_shares(store, row["experiment"], 0)
    assert row["rate"] == pytest.approx(statistics.fmean(shares))
    half = T95[len(shares)] * statistics.stdev(shares) / math.sqrt(len(shares))
    assert row["ci"] == pytest.approx([statistics.fmean(shares) - 0.5 - half, statistics.fmean(shares) - 0.5 + half])
    assert row["p"] == pytest.approx(stats.ttest_1samp(shares, 0.5).pvalue)
    assert row["p_adjusted"] == row["p"]  # one kind tried: Holm leaves it as it is
    baseline = section(numbers, study["experiments"][0])["play"]["kinds"]["play thief"]
    assert row["played_share"] == baseline["share_of_moves"]
    assert row["significant"] and row["rate"] < 0.5  # a bot that may not steal loses
    assert not any("not all played by the same bots" in line for line in numbers["summary"])


def test_skill_depth_and_deal_luck(shaped: tuple[Store, dict[str, Any]]) -> None:
    store, numbers = shaped
    depth = next(c for c in numbers["comparisons"] if c["study"] == "skill depth")["findings"]["depth"]
    assert [row["budget"] for row in depth] == [4, 8]
    for row in depth:
        shares = per_deal_shares(store, row["experiment"], 0)
        assert row["rate"] == pytest.approx(statistics.fmean(shares))
        assert row["pays"] is (row["ci"] is not None and row["ci"][0] > 0)
        # Six deals cannot say where doubling stops: a "no" is "too few deals" unless it could have seen 5 points.
        seen = (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * statistics.stdev(shares) / math.sqrt(len(shares))
        assert row["power"]["detectable"] == pytest.approx(seen)
        assert row["verdict"] == ("pays" if row["pays"] else "stops" if seen <= 0.05 else "too_few")
    assert not any("doubling stops paying" in line for line in numbers["summary"])
    luck = next(c for c in numbers["comparisons"] if c["study"] == "deal luck")["findings"]["luck"]
    assert [row["bots"] for row in luck] == ["random#1, random#2", "easy#1, easy#2"]
    for row in luck:
        own = section(numbers, row["experiment"])["deal_vs_players"]["by_position"][0]
        assert (row["icc"], row["ci"]) == (own["icc"], own["ci"])
    assert any(line.startswith("The share of the first player's margin that the deal decides, by bots:")
               for line in numbers["summary"])
    assert any(line.startswith("Twice the search wins") for line in numbers["summary"])


def test_shaped_studies_on_the_page(shaped: tuple[Store, dict[str, Any]], tmp_path: Path) -> None:
    store, _ = shaped
    page = report.write(store, None, tmp_path / "out").read_text(encoding="utf-8")
    for heading in ("What matters: restricted play", "Skill depth: twice the search against the search",
                    "Deal luck across bot strengths"):
        assert heading in page
    assert (tmp_path / "out" / next(p.name for p in (tmp_path / "out").glob("*-depth.png"))).stat().st_size > 1000


def test_the_ladder_spreads_the_levels_on_the_elo_scale(shaped: tuple[Store, dict[str, Any]]) -> None:
    store, numbers = shaped
    (ladder,) = numbers["ladders"]
    assert ladder["game"] == "twenty" and len(ladder["pairings"]) == 3
    for row in ladder["pairings"]:
        matches = replayed(store, row["experiment"])
        spec = store.experiment(row["experiment"])
        assert spec is not None
        stronger = list(spec.players).index(row["stronger"])
        wins = sum(m.shares[m.seating.index(stronger)] for m in matches)
        rate = wins / len(matches)
        assert row["rate"] == pytest.approx(rate) and rate >= 0.5
        assert row["ci"] == pytest.approx(interval_by_hand(plan.make_spec(game="twenty", players=["random", "random"],
                                                                           matches=12), matches,
                                                           [m.shares[m.seating.index(stronger)] for m in matches],
                                                           rate=True))
        if 0 < rate < 1:
            assert row["elo"] == pytest.approx(400 * math.log10(rate / (1 - rate)))
    assert any(line.startswith("Skill against chance in Twenty") for line in numbers["summary"])


def test_a_record_that_cannot_be_replayed_is_named_and_left_out(tmp_path: Path) -> None:
    """Assume every file is broken: a damaged record does not stop the report, it is named."""
    import sqlite3

    db = tmp_path / "lab.sqlite"
    spec = plan.make_spec(game="twenty", players=["random", "random"], matches=4, seed=1, rounds_only=True)
    runner.run([spec], Store(db), jobs=1)
    with sqlite3.connect(db) as raw:
        raw.execute("update matches set record = '{\"format\": \"parlour-record/1\"}' where \"index\" = 1")
        raw.execute("update matches set record = 'not json' where \"index\" = 2")
    play = report.build(Store(db))["experiments"][0]["play"]
    assert play["unreadable"] == [1, 2] and play["sample"] == 2
    page = report.write(Store(db), None, tmp_path / "out").read_text(encoding="utf-8")
    assert "2 sampled record(s) could not be replayed by this version of the game" in page


def test_the_search_can_judge_play_from_the_movers_view(store: Store) -> None:
    """With --judge search each position is read by IS-MCTS from the mover's observation: the same
    moves are counted; only who leads and how far apart the moves are come from the search."""
    advice = section(report.build(store, [TWENTY.name], sample=4), TWENTY.name)["play"]
    search = section(report.build(store, [TWENTY.name], sample=4, judge="search", judge_iterations=30),
                     TWENTY.name)["play"]
    assert (search["judge"], search["judge_iterations"]) == ("search", 30)
    assert (advice["judge"], advice["judge_iterations"]) == ("advice", None)
    for key in ("sample", "decisions", "kinds", "choices"):
        assert search[key] == advice[key]
    assert 0 <= search["real_choices"]["share"] <= search["choices"]["share"]
    assert len(search["comebacks"]) == len(advice["comebacks"])
    with pytest.raises(ValueError, match="the judge of play is advice or search, not 'oracle'"):
        report.build(store, [TWENTY.name], sample=1, judge="oracle")
