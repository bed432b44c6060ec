"""``parlour review RECORD [--seat N]`` through the real entry point, and ``parlour hint`` on a finished
match pointing to it (issue 33)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_parlour
from parlour import bots, games, record
from parlour.match import play_bots
from test_review import TWENTY_HANDS, TWENTY_MOVES, twenty_record

run = run_parlour


def test_a_review_lists_each_mistake_and_the_accuracy(tmp_path: Path) -> None:
    path = tmp_path / "gift.json"
    path.write_text(json.dumps(twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES)))
    out = run("review", str(path), "--seat", "1", "--iterations", "300")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Review of Bo (seat 1) in Twenty, by a search of 300 iterations a decision")
    gift = next(line for line in lines if "move 4" in line)
    assert gift.strip().startswith("Round 1, move 4: you played “Play 2♦")
    assert "the computer preferred “Play K♦" in gift and "(−" in gift and gift.endswith("points)")
    assert any(line.startswith("Accuracy ") and "%" in line for line in lines)
    assert run("review", str(path), "--seat", "1", "--iterations", "300").stdout == out.stdout  # reproducible


def test_the_seat_named_you_is_reviewed_by_default(tmp_path: Path) -> None:
    state = play_bots(games.get("twenty"), [bots.make("hard"), bots.make("random")], seed=5, names=["You", "Bo"])
    path = tmp_path / "match.json"
    record.save(state, path)
    mine = run("review", str(path), "--iterations", "200")
    assert mine.returncode == 0 and mine.stdout.startswith("Review of You (seat 0)")
    theirs = run("review", str(path), "--seat", "1", "--iterations", "200")
    accuracy = [float(o.stdout.split("Accuracy ")[1].split("%")[0]) for o in (mine, theirs)]
    assert accuracy[1] < accuracy[0]  # random play reviews worse than hard's


def test_mistakes_are_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "gift.json"
    path.write_text(json.dumps(twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES)))
    no_seat = run("review", str(path))
    assert no_seat.returncode == 2
    assert no_seat.stderr.strip() == "error: which seat? Give --seat N: the seats are 0 (Ann), 1 (Bo)"
    bad_seat = run("review", str(path), "--seat", "5")
    assert bad_seat.returncode == 2 and bad_seat.stderr.strip().startswith("error: --seat 5: there is no seat 5")
    missing = run("review", str(tmp_path / "none.json"), "--seat", "0")
    assert missing.returncode == 1 and missing.stderr.strip().startswith("error: cannot read")
    (tmp_path / "bad.json").write_text("{}")
    invalid = run("review", str(tmp_path / "bad.json"), "--seat", "0")
    assert invalid.returncode == 1 and invalid.stderr.strip().startswith("error: invalid record:")


def test_hint_on_a_finished_match_points_to_review(tmp_path: Path) -> None:
    state = play_bots(games.get("twenty"), [bots.make("random"), bots.make("random")], seed=3)
    path = tmp_path / "over.json"
    record.save(state, path)
    out = run("hint", str(path))
    assert out.returncode == 1
    assert out.stderr.strip().startswith("error: the match is over")
    assert out.stderr.strip().endswith(f"See where points were lost with: parlour review {path}")
