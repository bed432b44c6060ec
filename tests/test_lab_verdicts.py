"""The verdict table, recounted by hand from the stored matches: each measure's paired difference
and interval, the primary question tested on its own and the secondary measures corrected
together (Holm), rows the rules fix left out of the family, the power of every "no", the stop
rule, deal luck's jackknife, a plan's primary question and ``--check-robust``'s repeat."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from parlour.lab import plan, report, runner, studies
from parlour.store import Store

SLIPS = 0.05


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[plan.ExperimentSpec]]:
    """Twenty in two rounds (the game as it stands) against one round, 30 duplicate deals of easy bots,
    and the same study repeated at twice the slips."""
    store = Store(tmp_path_factory.mktemp("verdicts") / "lab.sqlite")
    specs = studies.sweep("twenty", "rounds", "1,2", ["easy", "easy"], deals=30, seed=3, noise=SLIPS)
    specs += studies.robust(specs, "slips")
    runner.run(specs, store, jobs=1)
    return store, specs


def per_deal(store: Store, name: str) -> dict[int, list[Any]]:
    """Each deal's stored matches of an experiment."""
    (experiment,) = store.experiments([name])
    deals: dict[int, list[Any]] = {}
    for match in store.matches(experiment.id):
        deals.setdefault(match.deal, []).append(match)
    return deals


def first_share(match: Any) -> float:
    return 1 / len(match.winners) if match.first in match.winners else 0.0


def first_margin(match: Any) -> float:
    totals = match.totals
    return totals[match.first] - statistics.fmean(t for s, t in enumerate(totals) if s != match.first)


def holm(ps: list[float]) -> list[float]:
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def icc_clipped(table: list[list[float]]) -> float:
    k = len(table[0])
    means = [statistics.fmean(row) for row in table]
    grand = statistics.fmean(means)
    msb = k * sum((m - grand) ** 2 for m in means) / (len(table) - 1)
    msw = sum((x - m) ** 2 for row, m in zip(table, means) for x in row) / (len(table) * (k - 1))
    return min(max((msb - msw) / (msb + (k - 1) * msw), 0.0), 1.0)  # clipped, as the report gives it


def rows_of(numbers: dict[str, Any], study: str) -> dict[str, dict[str, Any]]:
    comparison = next(c for c in numbers["comparisons"] if c["study"] == study)
    return {row["key"]: row for row in comparison["verdicts"]["rows"]}


def test_the_verdict_table_recounted_by_hand(lab: tuple[Store, list[plan.ExperimentSpec]]) -> None:
    store, specs = lab
    numbers = report.build(store, [s.name for s in specs[:2]], sample=8)
    base, one = per_deal(store, "sweep rounds/rounds=2"), per_deal(store, "sweep rounds/rounds=1")
    assert sorted(base) == sorted(one) == list(range(30))
    rows = rows_of(numbers, "sweep rounds")
    assert next(iter(rows)) == "first_player" and rows["first_player"]["primary"]

    # Seat balance: each deal's mean first-player share, paired deal by deal.
    shares = [[statistics.fmean(first_share(m) for m in deals[d]) for d in range(30)] for deals in (base, one)]
    diffs = [b - a for a, b in zip(*shares)]
    mean, sd = statistics.fmean(diffs), statistics.stdev(diffs)
    half = stats.t.ppf(0.975, 29) * sd / math.sqrt(30)
    cell = rows["first_player"]["cells"][1]
    assert cell["difference"] == pytest.approx(mean) and cell["ci"] == pytest.approx([mean - half, mean + half])
    p = stats.ttest_rel(shares[1], shares[0]).pvalue
    assert cell["p"] == pytest.approx(p)
    assert cell["p_adjusted"] == pytest.approx(p)  # the primary question alone: no correction with one variant
    # Its power: the smallest change seen with 80% power at 5%, and the deals that see 5 points.
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert cell["power"]["detectable"] == pytest.approx(z * sd / math.sqrt(30))
    assert cell["power"]["needed"] == math.ceil((z * sd / 0.05) ** 2)
    if p >= 0.05:
        assert cell["verdict"] == ("none" if z * sd / math.sqrt(30) <= 0.05 else "too_few")
        assert cell["stop"] == {"verdict": "more", "more": cell["power"]["needed"] - 30} \
            or cell["stop"]["verdict"] == "enough"

    # Length: one round takes half the moves in every deal -- fixed by the rules, not a test.
    minutes = rows["minutes"]["cells"][1]
    moves = [[statistics.fmean(m.moves for m in deals[d]) * 5 / 60 for d in range(30)] for deals in (base, one)]
    assert minutes["difference"] == pytest.approx(statistics.fmean(b - a for a, b in zip(*moves)))
    assert minutes["fixed"] and minutes["verdict"] == "fixed" and minutes["p"] is None
    assert minutes["p_adjusted"] is None

    # The secondary family: every other measure with a p, corrected together (Holm), the fixed one left out.
    secondary = [(key, row["cells"][1]) for key, row in rows.items()
                 if not row["primary"] and row["cells"][1] is not None and row["cells"][1]["p"] is not None]
    assert {key for key, _ in secondary} >= {"luck", "draws"} and "minutes" not in {key for key, _ in secondary}
    for (key, found), adjusted in zip(secondary, holm([c["p"] for _, c in secondary])):
        assert found["p_adjusted"] == pytest.approx(adjusted), key
    comparison = numbers["comparisons"][0]
    assert comparison["verdicts"]["family_sizes"] == {"primary": 1, "secondary": len(secondary)}

    # Deal luck: the ICC of the first player's margin, jackknifed over the shared deals.
    tables = [[[first_margin(m) for m in deals[d]] for d in range(30)] for deals in (base, one)]
    whole = icc_clipped(tables[1]) - icc_clipped(tables[0])
    pseudo = [30 * whole - 29 * (icc_clipped(tables[1][:d] + tables[1][d + 1:])
                                 - icc_clipped(tables[0][:d] + tables[0][d + 1:])) for d in range(30)]
    luck = rows["luck"]["cells"][1]
    half = stats.t.ppf(0.975, 29) * statistics.stdev(pseudo) / math.sqrt(30)
    assert luck["difference"] == pytest.approx(statistics.fmean(pseudo))
    assert luck["ci"] == pytest.approx([statistics.fmean(pseudo) - half, statistics.fmean(pseudo) + half])
    assert luck["p"] == pytest.approx(stats.ttest_1samp(pseudo, 0).pvalue)


def test_another_primary_question_is_tested_on_its_own(lab: tuple[Store, list[plan.ExperimentSpec]]) -> None:
    store, specs = lab
    names = [s.name for s in specs[:2]]
    default = rows_of(report.build(store, names, sample=0), "sweep rounds")
    draws = rows_of(report.build(store, names, sample=0, primary="draws"), "sweep rounds")
    assert next(iter(draws)) == "draws" and draws["draws"]["primary"] and not draws["first_player"]["primary"]
    # Now alone in its family: its adjusted p is its own p, and the seat balance joins the secondary family.
    cell = draws["draws"]["cells"][1]
    assert cell["p_adjusted"] == cell["p"] and "stop" in cell and "stop" not in draws["first_player"]["cells"][1]
    family = [key for key, row in draws.items() if not row["primary"] and row["cells"][1]["p"] is not None]
    adjusted = holm([draws[key]["cells"][1]["p"] for key in family])
    assert draws["first_player"]["cells"][1]["p_adjusted"] == pytest.approx(adjusted[family.index("first_player")])
    assert default["first_player"]["cells"][1]["p_adjusted"] == default["first_player"]["cells"][1]["p"]
    with pytest.raises(ValueError, match="the primary question is one of the measures"):
        report.build(store, names, sample=0, primary="fun")


def test_a_plans_primary_question_is_stored_with_the_study(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_text('name = "short"\ngame = "twenty"\nplayers = ["random", "random"]\ndeals = 4\nprimary = "minutes"\n'
                    '[sweep]\noption = "rounds"\nvalues = "1,2"\n', encoding="utf-8")
    specs = plan.load_plan(path)
    assert {s.shape.primary for s in specs if s.shape} == {"minutes"}
    store = Store(tmp_path / "lab.sqlite")
    runner.run(specs, store, jobs=1)
    rows = rows_of(report.build(store, sample=0), "short")
    assert next(iter(rows)) == "minutes" and rows["minutes"]["primary"]
    path.write_text(path.read_text(encoding="utf-8").replace('"minutes"', '"fun"'), encoding="utf-8")
    with pytest.raises(ValueError, match="the primary question is one of the measures"):
        plan.load_plan(path)


def test_a_study_repeated_at_twice_the_slips_checks_every_verdict(lab: tuple[Store, list[plan.ExperimentSpec]],
                                                                   tmp_path: Path) -> None:
    store, specs = lab
    repeat = specs[2:]
    assert [s.noise for s in repeat] == [2 * SLIPS] * 2 and all(s.study == "sweep rounds (10% slips)" for s in repeat)
    assert all(s.shape is not None and s.shape.robust_of == "sweep rounds" for s in repeat)
    numbers = report.build(store, sample=0)
    original, again = rows_of(numbers, "sweep rounds"), rows_of(numbers, "sweep rounds (10% slips)")
    robust = next(c for c in numbers["comparisons"] if c["study"] == "sweep rounds")["verdicts"]["robust"]
    assert robust["how"] == "10% slips"
    for check in robust["rows"]:
        cell = check["cells"][1]
        if cell is None:
            continue
        mine, theirs = original[check["key"]]["cells"][1]["verdict"], again[check["key"]]["cells"][1]["verdict"]
        assert cell["verdict"] == theirs
        quiet = {"none", "too_few", "same", "no_test"}
        assert cell["holds"] is (mine == theirs or {mine, theirs} <= quiet)
    assert any(line.startswith("Study 'sweep rounds' at 10% slips") for line in numbers["summary"])
    with pytest.raises(ValueError, match="hard is the strongest"):
        studies.robust(studies.sweep("twenty", "rounds", "1,2", ["hard", "hard"], deals=2), "stronger")
    stronger = studies.robust(studies.sweep("twenty", "rounds", "1,2", ["easy", "medium"], deals=2), "stronger")
    assert [s.players for s in stronger] == [("medium", "hard")] * 2


def test_the_page_opens_with_the_verdicts_and_a_table_of_contents(lab: tuple[Store, list[plan.ExperimentSpec]],
                                                                 tmp_path: Path) -> None:
    store, specs = lab
    page = report.write(store, [s.name for s in specs[:2]], tmp_path / "out", sample=0).read_text(encoding="utf-8")
    assert page.index('id="verdicts"') < page.index('id="contents"') < page.index('id="summary"')
    for anchor in set(__import__("re").findall(r'<a href="#([^"]+)"', page)):
        assert f'id="{anchor}"' in page  # every entry of the contents leads somewhere
    assert "Seat balance: the first player&#x27;s win rate ★ primary" in page
    assert "fixed by the rules" in page


def test_seats_that_should_be_alike_are_commented(lab: tuple[Store, list[plan.ExperimentSpec]]) -> None:
    """The same bot in every seat makes the seats interchangeable: a seat that wins clearly more after
    Holm's correction over the seats is named as a fault to look for; chance among seats is called so."""
    from parlour.lab.report.experiment import Settings, experiment_numbers
    from parlour.lab.report.load import load_played

    store, specs = lab
    (p,) = load_played(store, [specs[0].name])
    note = experiment_numbers(p, store, Settings(sample=0))["wins"]["seats_note"]
    assert note is None or "within chance" in note
    p.share[:] = 0.0
    p.share[: 4 * len(p.share) // 5, 0] = 1.0  # plant: seat 0 wins four matches in five, seat 1 the rest
    p.share[4 * len(p.share) // 5:, 1] = 1.0
    planted = experiment_numbers(p, store, Settings(sample=0))["wins"]["seats_note"]
    assert planted is not None and "seat 0" in planted and "look for a fault" in planted


def test_skill_is_set_side_by_side_across_games(tmp_path: Path) -> None:
    """Ladders of two games in one report: one table of each game's widest pairing on the Elo scale."""
    from parlour.lab import ladder

    store = Store(tmp_path / "lab.sqlite")
    specs = [*ladder.ladder_specs("twenty", ["random", "easy"], matches=6, seed=1),
             *ladder.ladder_specs("minus-twenty", ["random", "easy"], matches=6, seed=1)]
    runner.run(specs, store, jobs=1)
    numbers = report.build(store, sample=0)
    assert sorted(item["game"] for item in numbers["ladders"]) == ["minus-twenty", "twenty"]
    page = report.write(store, None, tmp_path / "out", sample=0).read_text(encoding="utf-8")
    across = page[page.index("Skill across games"):]
    for item in numbers["ladders"]:
        (row,) = item["pairings"]
        assert f"{row['stronger']} over {row['weaker']}" in across and item["game_name"] in across


def test_the_commands_take_check_robust_and_primary(tmp_path: Path) -> None:
    """``--check-robust`` plays the study again beside it; ``--primary`` picks the question; a wrong
    value of either is one line."""
    import json

    from typer.testing import CliRunner

    from parlour.cli import app

    runner_ = CliRunner()
    db = str(tmp_path / "lab.sqlite")
    sweep = ["lab", "sweep", "twenty", "-o", "rounds=1,2", "--players", "random,random", "--deals", "2",
             "--jobs", "1", "--db", db]
    bad = runner_.invoke(app, [*sweep, "--check-robust", "louder"])
    assert bad.exit_code == 2 and "--check-robust is slips or stronger, not 'louder'" in bad.output
    assert not Path(db).exists()  # refused before the database is opened
    done = runner_.invoke(app, [*sweep, "--check-robust", "slips"])
    assert done.exit_code == 0, done.output
    assert sorted(e.study for e in Store(db).experiments()) == ["sweep rounds"] * 2 + ["sweep rounds (5% slips)"] * 2
    out = tmp_path / "r"
    made = runner_.invoke(app, ["lab", "report", "--db", db, "--primary", "draws", "--sample", "0", "--format", "json",
                                "--out", str(out)])
    assert made.exit_code == 0, made.output
    numbers = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert {c["verdicts"]["primary"] for c in numbers["comparisons"]} == {"draws"}
    assert numbers["comparisons"][0]["verdicts"]["robust"]["how"] == "5% slips"
    wrong = runner_.invoke(app, ["lab", "report", "--db", db, "--primary", "fun", "--out", str(out)])
    assert wrong.exit_code == 2 and "the primary question is one of the measures" in wrong.output
