"""``parlour lab export``, end to end: a real study and a quick run played into a real SQLite file,
exported through the real command, and the CSV files read back and checked against the stored
matches and against the report's own numbers."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from parlour.cli import app
from parlour.lab import report, runner, studies
from parlour.lab.arena import player_labels
from parlour.lab.report.compensation import points
from parlour.lab.report.experiment import identical_deals
from parlour.lab.report.load import load_played
from parlour.lab.spec import make_spec
from parlour.store import Store

SWEEP = studies.sweep("twenty", "hands", [4, 5], ["random", "easy"], deals=3, seed=2, noise=0.1,
                      options={"rounds": 1})
"""Two variants of one study on the same duplicate deals (the baseline plays the default, five hands)."""
QUICK = make_spec(game="progression", players=["random"] * 3, matches=3, seed=3, options={"rounds": 1},
                  name="three at the table")
"""Independent matches of three players: no deals, a third seat."""
SAMPLE = 4


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "lab.sqlite"
    runner.run([*SWEEP, QUICK], Store(path), jobs=1)
    return path


def export(*args: str) -> Any:
    return CliRunner().invoke(app, ["lab", "export", *args])


def read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def number(text: str) -> float | None:
    return None if text == "" else float(text)


@pytest.fixture(scope="module")
def exported(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("csv") / "files"
    result = export("--db", str(db), "--out", str(out), "--sample", str(SAMPLE))
    assert result.exit_code == 0, result.stderr
    assert [line.split(" (")[0] for line in result.stdout.splitlines()] == [
        f"wrote {out / name}" for name in ("matches.csv", "deals.csv", "measures.csv", "comparisons.csv")]
    return out


def test_a_row_per_match_as_stored(db: Path, exported: Path) -> None:
    store = Store(db)
    rows = read(exported / "matches.csv")
    assert len(rows) == 3 * 2 * 2 + 3
    by_key = {(row["experiment"], int(row["match"])): row for row in rows}
    for e in store.experiments():
        labels = player_labels(e.players)
        for match in store.matches(e.id):
            row = by_key[e.name, match.index]
            assert row["study"] == (e.study or "") and row["game"] == e.game and float(row["noise"]) == e.noise
            assert row["players"] == ";".join(e.players)
            assert row["deal"] == ("" if match.deal is None else str(match.deal))
            assert int(row["first_seat"]) == match.first and row["winners"] == ";".join(map(str, match.winners))
            for seat in range(3):
                if seat < len(match.totals):
                    assert row[f"seat_{seat}_player"] == labels[match.seating[seat]]
                    assert int(row[f"seat_{seat}_total"]) == match.totals[seat]
                    share = 1 / len(match.winners) if seat in match.winners else 0
                    assert float(row[f"seat_{seat}_share"]) == pytest.approx(share)
                else:  # two players in a file that also holds three
                    assert row[f"seat_{seat}_player"] == row[f"seat_{seat}_total"] == ""
            assert (int(row["rounds"]), int(row["moves"])) == (match.rounds, match.moves)
            assert float(row["minutes"]) == pytest.approx(match.moves * 5 / 60)
    # Every option a variant of the game sets away from its default is named, the baseline's too.
    assert {row["options"] for row in rows} == {"hands=4;rounds=1", "hands=5;rounds=1", "rounds=1"}


def test_a_row_per_duplicate_deal(db: Path, exported: Path) -> None:
    store = Store(db)
    rows = read(exported / "deals.csv")
    assert len(rows) == 2 * 3  # the quick run plays no duplicate deals
    for spec in SWEEP:
        e = store.experiment(spec.name)
        assert e is not None
        mine = [row for row in rows if row["experiment"] == spec.name]
        assert [int(row["deal"]) for row in mine] == [0, 1, 2]
        for row in mine:
            seatings = [m for m in store.matches(e.id) if m.deal == int(row["deal"])]
            assert int(row["seatings"]) == len(seatings) == 2
            margins = [m.totals[m.first] - m.totals[1 - m.first] for m in seatings]
            shares = [(1 / len(m.winners) if m.first in m.winners else 0) for m in seatings]
            assert float(row["first_mean_margin"]) == pytest.approx(sum(margins) / 2)
            assert float(row["first_mean_share"]) == pytest.approx(sum(shares) / 2)
        identical = sum(row["identical"] == "yes" for row in mine)
        assert identical == identical_deals(load_played(store, [spec.name])[0])
        assert {row["identical"] for row in mine} <= {"yes", "no"}


def test_a_row_per_measure_and_per_compared_measure_as_the_report_says(db: Path, exported: Path) -> None:
    store = Store(db)
    numbers = report.build(store, None, sample=SAMPLE)
    measures = read(exported / "measures.csv")
    keys = ["first_player", "luck", "choices", "decided", "comebacks", "minutes", "moves", "rounds", "draws",
            "compensation"]
    assert len(measures) == 3 * len(keys)
    found = {(row["experiment"], row["measure"]): row for row in measures}
    for section in numbers["experiments"]:
        assert [row["measure"] for row in measures if row["experiment"] == section["name"]] == keys
        first = found[section["name"], "first_player"]
        wins = section["wins"]["by_position"][0]
        assert number(first["value"]) == pytest.approx(wins["rate"])
        assert [number(first["low"]), number(first["high"])] == pytest.approx(wins["ci"])
        assert (int(first["units"]), first["unit"]) == (section["units"], section["unit"])
        choices = found[section["name"], "choices"]
        assert number(choices["value"]) == pytest.approx(section["play"]["real_choices"]["share"])
        minutes = found[section["name"], "minutes"]
        assert number(minutes["value"]) == pytest.approx(section["duration"]["minutes"]["mean"])
        compensation = points(load_played(store, [section["name"]])[0])
        assert compensation is not None
        assert number(found[section["name"], "compensation"]["value"]) == compensation["points"]
    luck = found[SWEEP[0].name, "luck"]
    icc = numbers["experiments"][0]["deal_vs_players"]["by_position"][0]["icc"]
    assert number(luck["value"]) == (None if icc is None else pytest.approx(icc))
    assert found[QUICK.name, "luck"]["value"] == ""  # no duplicate deals, no deal luck

    comparisons = read(exported / "comparisons.csv")
    (study,) = numbers["comparisons"]
    assert len(comparisons) == len(study["metrics"])  # one variant against the baseline
    for row, metric in zip(comparisons, study["metrics"]):
        assert (row["study"], row["baseline"], row["experiment"]) == ("sweep hands", SWEEP[1].name, SWEEP[0].name)
        assert row["measure"] == metric["key"] and row["test"] == metric["tests"][1]
        assert number(row["difference"]) == pytest.approx(metric["differences"][1]["difference"])
        assert number(row["p_holm"]) == pytest.approx(metric["p_adjusted"][1])


def test_named_experiments_without_replays(db: Path, tmp_path: Path) -> None:
    result = export(QUICK.name, "--db", str(db), "--out", str(tmp_path), "--sample", "0")
    assert result.exit_code == 0, result.stderr
    assert len(read(tmp_path / "matches.csv")) == 3
    assert (tmp_path / "deals.csv").read_text(encoding="utf-8").splitlines() == [
        "experiment,study,deal,seatings,first_mean_margin,first_mean_share,identical"]  # the header alone
    measures = {row["measure"]: row for row in read(tmp_path / "measures.csv")}
    assert measures["choices"]["value"] == measures["decided"]["value"] == ""  # nothing replayed
    assert read(tmp_path / "comparisons.csv") == []


@pytest.mark.parametrize(("args", "says"), [
    (["--db", "{missing}"], "no lab database at"),
    (["--db", "{empty}"], "there are no experiments in"),
    (["no such experiment", "--db", "{db}"], "no experiment named 'no such experiment'"),
    (["--db", "{db}", "--out", "{file}"], "is a file; the export is a folder of CSV files"),
])
def test_errors_are_one_line(db: Path, tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "notes.txt").write_text("a file\n", encoding="utf-8")
    Store(tmp_path / "empty.sqlite")
    places = {"db": db, "missing": tmp_path / "none.sqlite", "empty": tmp_path / "empty.sqlite",
              "file": tmp_path / "notes.txt"}
    result = export(*(arg.format(**places) for arg in args), "--sample", "0")
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.stderr
    assert result.stdout == ""
