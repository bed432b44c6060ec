"""The benchmarks run: each prints its figures (what they measure is not asserted: machines are noisy)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "benchmarks" / "engine.py"


def test_engine_prints_moves_per_second() -> None:
    out = subprocess.run([sys.executable, str(ENGINE), "--runs", "1", "--seconds", "0.2", "twenty"],
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"^twenty\s+[\d.]+\s+\d+$", out, re.M), out


def test_engine_compares_with_another_version_side_by_side() -> None:
    command = [sys.executable, str(ENGINE), "--against", str(ROOT / "src"), "--pairs", "1", "--matches", "2",
               "twenty", "minus-twenty"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = re.findall(r"^(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)x$", out, re.M)
    assert [r[0] for r in rows] == ["twenty", "minus-twenty"], out
    assert all(float(r[3]) > 0 for r in rows)


def test_engine_refuses_a_directory_without_parlour(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(ENGINE), "--against", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 2 and "is not a src directory holding parlour" in run.stderr


def test_search_compares_with_another_version_side_by_side() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "search.py"), "--against", str(ROOT / "src"),
               "--pairs", "1", "--iterations", "60", "--positions", "1", "twenty"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = re.findall(r"^(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)x$", out, re.M)
    assert [(r[0], r[1]) for r in rows] == [("twenty", "random"), ("twenty", "heuristic")], out
    assert all(float(r[4]) > 0 for r in rows)


def test_engine_measures_every_game_against_the_yardstick() -> None:
    yardstick = ROOT.parent / "shared" / "yardsticks" / "lc_fast.py"
    command = [sys.executable, str(ENGINE), "--yardstick", "--rounds", "1", "--turn", "0.05", "twenty", "silver-bars"]
    run = subprocess.run(command, capture_output=True, text=True)
    if not yardstick.exists():  # CI keeps ../shared beside the project; say so plainly elsewhere
        assert run.returncode != 0 and "no yardstick" in run.stderr
        return
    assert run.returncode == 0, run.stderr
    rows = re.findall(r"^(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)x$", run.stdout, re.M)
    assert [r[0] for r in rows] == ["twenty", "silver-bars"], run.stdout
    assert all(int(r[1]) > 0 and int(r[2]) > 0 for r in rows)
    assert re.search(r"^slowest: [\d.]+x the yardstick", run.stdout, re.M)


def test_lab_prints_the_engine_beside_one_and_two_jobs() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "lab.py"), "--game", "twenty", "--matches", "40",
               "--runs", "1", "--report-matches", "8"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert re.search(r"bare engine:\s+[\d.]+ matches/s", out), out
    assert re.search(r"lab, 1 job:\s+[\d.]+ matches/s\s+\(\d+% of the engine", out), out
    assert re.search(r"lab, 2 jobs:\s+[\d.]+ matches/s\s+\([\d.]+ × one job", out), out
    assert re.search(r"the full report for 8 matches: [\d.]+ s \(HTML and plots; 8 of them replayed", out), out


@pytest.mark.slow
def test_solve_prints_exploitability_and_writes_figures_a_table_reads(tmp_path: Path) -> None:
    figures = tmp_path / "solve.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "solve.py"), "minus-twenty", "--seconds", "0.4",
               "--bots", "random", "--json", str(figures)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "7,786 histories, 2,295 information states" in out and "CFR+" in out, out
    (result,) = json.loads(figures.read_text())
    assert [c["solver"] for c in result["curves"]] == ["CFR+", "MCCFR (external)", "MCCFR (outcome)"]
    for curve in result["curves"]:
        assert [p[0] for p in curve["points"]] == sorted(p[0] for p in curve["points"])
        assert all(0 <= p[2] <= result["max_utility"] for p in curve["points"])
    (bot,) = result["bots"]
    assert bot["bot"] == "random" and bot["exact"] and bot["exploitability"] > result["curves"][0]["points"][-1][2]
    table = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "solve.py"), "table", str(figures)],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert table[0].startswith("| game | policy |") and len(table) == 2 + 3 + 1
    assert table[-1].startswith("| Minus Twenty | random | | | ")


def test_batch_prints_decisions_per_second_beside_the_yardstick() -> None:
    pytest.importorskip("numba")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "batch.py"), "--seconds", "0.05", "twenty"],
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"^lc_numba \(yardstick\)\s+[\d.]+ M decisions/s", out, re.M), out
    assert re.search(r"^twenty\s+[\d.]+ M decisions/s\s+[\d.]+x the yardstick\s+first call\s+[\d.]+ s$", out, re.M), out
    assert re.search(r"^  step 1024\s+[\d.]+ M decisions/s$", out, re.M), out
    assert re.search(r"^  vector env 1024\s+[\d.]+ M learner steps/s$", out, re.M), out


def test_search_prints_hard_beside_the_batched_search() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "search.py"), "--batched", "--positions", "1",
               "--batched-spec", "ismcts:iterations=64,rollout=heuristic,leaf=4", "minus-twenty"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    number = r"\s+[\d.]+"
    assert re.search(rf"^minus-twenty\s+unbatched\s+python{number * 4}\s*$", out, re.M), out
    for name in ("hard", "batched"):  # hard is batched in Minus Twenty (GameEntry.leaf)
        assert re.search(rf"^minus-twenty\s+{name}\s+(compiled|python){number * 4}\s+[\d.]+x$", out, re.M), out


def test_search_prints_where_a_batched_decision_spends_its_time() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "search.py"), "--profile", "--positions", "1",
               "minus-twenty", "twenty"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    shares = re.search(r"^minus-twenty\s+(\d+)%\s+(\d+)%\s+(\d+)%\s+(-?\d+)%$", out, re.M)
    assert shares, out
    assert 97 <= sum(map(int, shares.groups())) <= 103 and all(int(x) > 0 for x in shares.groups()[:3]), out
    assert re.search(r"^twenty\s+hard is not batched here$", out, re.M), out
