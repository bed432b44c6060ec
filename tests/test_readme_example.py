"""The README's worked example, run as the README runs it: every figure it states about the
100 Silver Bars study is what the lab and its report give (seeded, so the same on every
machine and for any number of jobs).  When the game or the bots change, this fails and the
README's example is run again and rewritten."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from parlour.lab import plan, report, runner, studies
from parlour.store import Store

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_plan(folder: Path) -> Path:
    """The README's ``thieves.toml``, as written there."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r'```toml\n(name = "thieves"\n.*?)```', text, re.S)
    assert found, "the README's worked example plan (thieves.toml) is gone"
    tomllib.loads(found.group(1))
    path = folder / "thieves.toml"
    path.write_text(found.group(1), encoding="utf-8")
    return path


def pct(value: float) -> int:
    return round(value * 100)


@pytest.mark.slow
def test_the_worked_example_says_what_the_lab_finds(tmp_path: Path) -> None:
    store = Store(tmp_path / "lab.sqlite")
    specs = plan.load_plan(readme_plan(tmp_path))
    assert runner.run(specs, store, jobs=2) == 900
    numbers = report.build(store, target_minutes=(20, 40))
    sections = {e["name"]: e for e in numbers["experiments"]}
    standard, fewer, strikes = (sections[f"thieves/{v}"] for v in ("standard", "fewer thieves", "no strikes"))
    # No seat advantage: 52% (45%-58%), 54% and 46%, each interval holding 50%.
    first = [s["wins"]["by_position"][0] for s in (standard, fewer, strikes)]
    assert [pct(f["rate"]) for f in first] == [52, 54, 46]
    assert [pct(c) for c in first[0]["ci"]] == [45, 58]
    assert all(f["ci"][0] < 0.5 < f["ci"][1] for f in first)
    (comparison,) = numbers["comparisons"]
    rows = {row["key"]: row for row in comparison["verdicts"]["rows"]}
    # Seat balance, the primary question: too few deals to say; about +-13 points seen, 850-1,010 more deals for 5.
    seats = rows["first_player"]
    assert seats["primary"] and [cell["verdict"] for cell in seats["cells"][1:]] == ["too_few", "too_few"]
    assert all(12.5 <= cell["power"]["detectable"] * 100 < 14.5 for cell in seats["cells"][1:])
    assert all(850 <= cell["stop"]["more"] <= 1010 for cell in seats["cells"][1:])
    # More real choices (31% -> 38%, 31% -> 36%); fewer thieves 0.7 minutes shorter.
    choices = rows["choices"]
    assert [pct(v["value"]) for v in choices["values"]] == [31, 38, 36]
    assert [cell["verdict"] for cell in choices["cells"][1:]] == ["up", "up"]
    minutes = rows["minutes"]
    assert minutes["cells"][1]["verdict"] == "down" and round(-minutes["cells"][1]["difference"], 1) == 0.7
    assert all(cell["verdict"] == "too_few" for cell in rows["luck"]["cells"][1:])
    # A median of 19 minutes at 5 s a move, 40% within 20-40; the deal decides 36% (21%-49%).
    assert round(standard["duration"]["minutes"]["median"]) == 19
    assert pct(standard["duration"]["target"]["within"]["rate"]) == 40
    icc = standard["deal_vs_players"]["by_position"][0]
    assert [pct(icc["icc"]), *map(pct, icc["ci"])] == [36, 21, 49]
    assert standard["bots"] == "medium#1, medium#2, each with 5% random slips"

    # Restricted play: the README's `parlour lab matters` command (seed 0, the command's default).
    matters = studies.matters("silver-bars", "medium", deals=100, seed=0, noise=0.05,
                              kinds=["play thief", "play strike", "lock", "play miner"])
    other = Store(tmp_path / "matters.sqlite")
    runner.run(matters, other, jobs=2)
    found: dict[str, Any] = {row["kind"]: row for row in report.build(other)["comparisons"][0]["findings"]["matters"]}
    assert (pct(found["play thief"]["rate"]), pct(found["lock"]["rate"]), pct(found["play miner"]["rate"])) == (3, 0, 0)
    assert all(found[k]["significant"] for k in ("play thief", "lock", "play miner"))
    strike = found["play strike"]
    assert strike["verdict"] == "too_few" and round(strike["power"]["detectable"] * 100) == 11
    assert 450 <= strike["power"]["needed"] <= 490
