"""The designers' report, end to end: real experiments played into a real
SQLite file, and every number checked against the match records themselves
(replayed through the engine), computed here without the report's code."""

from __future__ import annotations

import json
import math
import re
import statistics
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from parlour import games, record
from parlour.lab import plan, report, runner
from parlour.store import Store

TWENTY = plan.make_spec(game="twenty", players=["random", "random"], deals=15, seed=1)
PROGRESSION = plan.make_spec(game="progression", players=["random", "random", "random"], deals=4, seed=3)
MINUS_DEFAULT = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                               rounds_only=True)
MINUS_EIGHT = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                             rounds_only=True, options={"hand_size": 8})
MINUS_ONE = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=30, seed=2,
                           rounds_only=True, options={"hand_size": 1})
MINUS_STALL = plan.make_spec(game="minus-twenty", players=["random", "random"], matches=20, seed=5,
                             rounds_only=True, options={"stall_limit": 10})
SILVER = plan.make_spec(game="silver-bars", players=["random", "random"], deals=10, seed=4, rounds_only=True)
SPECS = [TWENTY, PROGRESSION, MINUS_DEFAULT, MINUS_EIGHT, MINUS_ONE, MINUS_STALL, SILVER]
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


def icc_by_hand(groups: list[list[float]]) -> float:
    """One-way ANOVA intraclass correlation, written out."""
    count, k = len(groups), len(groups[0])
    grand = sum(sum(g) for g in groups) / (count * k)
    means = [sum(g) / k for g in groups]
    msb = k * sum((m - grand) ** 2 for m in means) / (count - 1)
    msw = sum((v - m) ** 2 for g, m in zip(groups, means) for v in g) / (count * (k - 1))
    return min(1.0, max(0.0, (msb - msw) / (msb + (k - 1) * msw)))


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
        low, high = rate["ci"]
        assert 0 <= low <= rate["rate"] <= high <= 1
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
    for position in range(seats):
        groups = [[margin(m, position_seat(m, position)) for m in group] for group in by_deal.values()]
        expected = icc_by_hand(groups)
        assert deal["by_position"][position]["icc"] == pytest.approx(expected)
        assert deal["by_position"][position]["players_share"] == pytest.approx(1 - expected)
    for player in range(seats):
        per_deal = [statistics.fmean(margin(m, m.seating.index(player)) for m in group) for group in by_deal.values()]
        item = deal["by_player"][player]
        mean = statistics.fmean(per_deal)
        half = 1.959963984540054 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
        assert item["mean_margin"] == pytest.approx(mean)
        assert item["ci"] == pytest.approx([mean - half, mean + half])


def test_a_shared_win_counts_a_share(store: Store, numbers: dict[str, Any]) -> None:
    """Progression's random players tie now and then; the rates by position still add up to one."""
    matches = replayed(store, PROGRESSION.name)
    got = section(numbers, PROGRESSION.name)
    assert sum(r["wins"] for r in got["wins"]["by_seat"]) == pytest.approx(len(matches))
    assert sum(r["wins"] for r in got["wins"]["by_player"]) == pytest.approx(len(matches))


def test_variants_side_by_side(store: Store) -> None:
    numbers = report.build(store, [MINUS_EIGHT.name, MINUS_ONE.name, MINUS_DEFAULT.name])
    assert [e["name"] for e in numbers["experiments"]] == [MINUS_EIGHT.name, MINUS_ONE.name, MINUS_DEFAULT.name]
    (comparison,) = numbers["comparisons"]
    assert comparison["baseline"] == MINUS_EIGHT.name
    rows = {row["key"]: row for row in comparison["metrics"]}
    for row in rows.values():
        assert row["p_values"][0] is None
        for p in row["p_values"][1:]:
            assert p is None or 0 <= p <= 1
        assert row["significant"][1:] == [None if p is None else p < 0.05 for p in row["p_values"][1:]]
    assert rows["rounds_per_match"]["p_values"] == [None, None, None]  # single rounds: nothing varies

    eight, one = replayed(store, MINUS_EIGHT.name), replayed(store, MINUS_ONE.name)
    moves_eight = [n for m in eight for n in m.round_moves]
    moves_one = [n for m in one for n in m.round_moves]
    moves = rows["moves_per_round"]
    assert moves["values"][:2] == pytest.approx([statistics.fmean(moves_eight), statistics.fmean(moves_one)])
    welch = stats.ttest_ind(moves_eight, moves_one, equal_var=False).pvalue
    assert moves["p_values"][1] == pytest.approx(welch, rel=1e-6, abs=0)  # p is tiny: no absolute slack
    assert moves["p_values"][1] < 0.05 and moves["significant"][1] is True

    # The first player's win rate: a pooled two-proportion z-test on fractional wins.
    wins_a = sum(m.shares[m.first] for m in eight)
    wins_b = sum(m.shares[m.first] for m in one)
    pooled = (wins_a + wins_b) / (len(eight) + len(one))
    z = (wins_a / len(eight) - wins_b / len(one)) / math.sqrt(pooled * (1 - pooled) * (2 / len(eight)))
    assert rows["win_rate_position_0"]["p_values"][1] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-6, abs=0)

    kinds = {kind for m in eight + one for r in m.round_kinds for kind in r}
    assert {key[len("event:"):] for key in rows if key.startswith("event:")} >= kinds
    assert "icc_position_0" not in rows  # no duplicate deals among these


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
    for heading in ("Score distribution", "Win rate by seat and position", "Round and match length",
                    "Scoring events and round endings", "Deal versus players", "Variants side by side"):
        assert heading in page
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 4 * len(SPECS) + 3 + 1  # four each, a deal plot for each of the 3 duplicate ones,
    # and one comparison (of Minus Twenty's variants)
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
    assert written == json.loads(json.dumps(report.build(store, names)))
    for name in plots.values():
        assert (main.parent / name).read_bytes().startswith(PNG)

    main = report.write(store, names, tmp_path / "md", fmt="markdown")
    assert main.name == "report.md"
    text = main.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(links) == 5
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
    runner.prepare(lab, TWENTY)
    runner.prepare(lab, plan.make_spec(game="twenty", players=["random", "random"], matches=3, seed=9))
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
