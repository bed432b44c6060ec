"""``parlour hint FILE [--seat N]`` through the real entry point: a seat's best moves at its
next decision, or one line saying why there is none yet (issue 17)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_parlour
from parlour import bots, games, record
from parlour.game import Move, State

run = run_parlour
NAMES = ["Ann", "Bea", "Cy"]


def played(game_id: str, seed: int, until: Callable[[State], bool]) -> State:
    """A match of random moves from ``seed``, stopped as soon as ``until`` holds."""
    game = games.get(game_id)
    state = game.new_match(seed=seed, names=NAMES[: game.players])
    rng = random.Random(seed)
    while not until(state):
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                break
            state.next_round()
            continue
        state.apply(rng.choice(state.legal_moves()))
    return state


def saved(state: State, path: Path, meta: dict[str, Any] | None = None) -> str:
    record.save(state, path, meta=meta)
    return str(path)


HINT_LINE = re.compile(r"  (\S.*?) +(about (\d+\.\d points (better|worse) for you than|even with) your opponents?"
                       r"( on average)?(, give or take \d+\.\d| \(too few tries to say how sure\))|your only move)")
"""A line of a hint: the move, then its estimate in words."""


def hinted(stdout: str) -> list[Move]:
    """The moves a hint lists (each a line: the move, then its estimate in words)."""
    return [Move.parse(found.group(1)) for found in map(HINT_LINE.fullmatch, stdout.splitlines()) if found]


def one_error_line(out: Any) -> str:
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    return str(lines[0])


def test_a_finished_match_says_who_won(tmp_path: Path) -> None:
    state = played("twenty", 3, lambda s: False)
    assert state.is_match_over()
    path = saved(state, tmp_path / "over.json")
    winner = NAMES[state.winners()[0]]
    for seat in ([], ["--seat", "0"], ["--seat", "1"]):
        out = run("hint", path, *seat)
        assert out.returncode == 1 and out.stdout == ""
        line = one_error_line(out)
        assert line.startswith("error: the match is over") and f"{winner} wins the match" in line


def test_the_two_decisions_of_a_minus_twenty_turn(tmp_path: Path) -> None:
    # Four moves in: the seat to move is to play or discard, then (same turn) to draw.
    state = played("minus-twenty", 4, lambda s: len(s.moves) == 4)
    mover, other = state.current_player(), 1 - (state.current_player() or 0)
    assert mover is not None
    out = run("hint", saved(state, tmp_path / "play.json"), "--seat", str(mover))
    assert out.returncode == 0, out.stderr
    assert f"Hint for {NAMES[mover]} (seat {mover}), round 1 (play or discard)" in out.stdout
    assert f"then {NAMES[mover]} moves again (draw or take): a second decision" in out.stdout
    assert bots.HINT_LEGEND in out.stdout
    moves = hinted(out.stdout)
    assert 1 <= len(moves) <= 3 and all(m in state.legal_moves() for m in moves)
    out = run("hint", saved(state, tmp_path / "play.json"), "--seat", str(other))
    assert out.returncode == 1
    assert one_error_line(out) == (f"error: {NAMES[mover]} (seat {mover}) is to move (play or discard); "
                                   f"{NAMES[other]}'s next decision depends on that move")

    state.apply(state.legal_moves()[0])  # the play made: the same seat now draws
    assert state.current_player() == mover
    path = saved(state, tmp_path / "draw.json")
    out = run("hint", path)  # no --seat: the seat to move
    assert out.returncode == 0, out.stderr
    assert f"Hint for {NAMES[mover]} (seat {mover}), round 1 (draw or take)" in out.stdout
    assert all(m.verb in ("draw", "take") for m in hinted(out.stdout)) and "moves again" not in out.stdout
    out = run("hint", path, "--seat", str(other))
    assert out.returncode == 1 and "is to move (draw or take)" in one_error_line(out)


def test_a_finished_round_is_dealt_on_from_the_records_seed(tmp_path: Path) -> None:
    state = played("twenty", 3, lambda s: s.is_round_over())
    assert not state.is_match_over()
    # What the match itself deals next: the same seed, played on.
    going_on = played("twenty", 3, lambda s: s.round_index == 1)
    starter = going_on.current_player()
    assert starter is not None
    path = saved(state, tmp_path / "round-over.json", meta={"seed": 3})
    out = run("hint", path, "--seat", str(starter))
    assert out.returncode == 0, out.stderr
    assert f"Hint for {NAMES[starter]} (seat {starter}), round 2 (play)" in out.stdout
    assert "round 2 as the record's seed deals it" in out.stdout
    moves = hinted(out.stdout)
    assert moves and all(m in going_on.legal_moves() for m in moves)
    out = run("hint", path, "--seat", str(1 - starter))
    assert out.returncode == 1
    assert one_error_line(out) == (f"error: round 1 is over and {NAMES[starter]} (seat {starter}) moves first "
                                   f"in round 2 (play); {NAMES[1 - starter]}'s next decision depends on that move")


def test_a_finished_round_without_its_seed_cannot_be_dealt_on(tmp_path: Path) -> None:
    state = played("twenty", 3, lambda s: s.is_round_over())
    for meta in (None, {"seed": 4}):  # no seed, or one that did not deal this match
        out = run("hint", saved(state, tmp_path / "round-over.json", meta=meta))
        assert out.returncode == 1
        assert "round 1 is over and the record does not deal round 2" in one_error_line(out)


def test_bad_seat_and_missing_file(tmp_path: Path) -> None:
    state = played("progression", 5, lambda s: len(s.moves) == 2)
    out = run("hint", saved(state, tmp_path / "p.json"), "--seat", "3")
    assert out.returncode == 2
    assert one_error_line(out) == "error: --seat 3: there is no such seat; the seats are 0 (Ann), 1 (Bea), 2 (Cy)"
    out = run("hint", str(tmp_path / "none.json"))
    assert out.returncode == 1 and one_error_line(out).startswith("error: cannot read")
    out = run("hint", str(tmp_path))
    assert out.returncode == 1 and one_error_line(out).startswith("error: cannot read")
