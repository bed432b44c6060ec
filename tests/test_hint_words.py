"""A hint in words a player understands, the same at the terminal and in the browser:
"about 1.2 points better for you than your opponent, give or take 1.2", and "your only move"
when there is nothing to choose (the browser's wording is the server's: tests/web)."""

from __future__ import annotations

import random

import pytest

from conftest import run_parlour
from parlour import bots, games
from parlour.bots.base import MoveEstimate
from parlour.game import Move
from parlour.narrate import estimate_text


@pytest.mark.parametrize(("value", "margin", "players", "said"), [
    (1.23, 1.2, 2, "about 1.2 points better for you than your opponent, give or take 1.2"),
    (-4.96, 2.04, 2, "about 5.0 points worse for you than your opponent, give or take 2.0"),
    (0.04, 0.5, 2, "about even with your opponent, give or take 0.5"),
    (-0.04, 0.5, 3, "about even with your opponents on average, give or take 0.5"),
    (3.0, None, 3, "about 3.0 points better for you than your opponents on average (too few tries to say how sure)"),
    (3.0, float("inf"), 2, "about 3.0 points better for you than your opponent (too few tries to say how sure)"),
])
def test_an_estimate_in_words(value: float, margin: float | None, players: int, said: str) -> None:
    assert estimate_text(value, margin, players=players) == said


def test_a_forced_move_is_your_only_move() -> None:
    assert estimate_text(-22.0, 0.0, players=2, only=True) == "your only move"
    estimate = MoveEstimate(Move.parse("play 2C"), -22.0, 0.0, 400, 1.0)
    assert bots.format_estimate(estimate, only=True) == "play 2C        your only move"


def test_the_terminal_words_a_hint_like_the_browser() -> None:
    state = games.get("minus-twenty").new_match(seed=2)
    seat = state.current_player()
    assert seat is not None
    estimate = bots.hint(state.observation(seat), state.legal_moves(), random.Random(0))[0]
    line = bots.format_estimate(estimate, players=2)
    assert line.startswith(f"{estimate.move!s} ") and "for you than your opponent" in line
    assert "of the search" not in line and "±" not in line


def test_the_last_card_of_a_hand_of_one_is_your_only_move_at_the_terminal() -> None:
    small = ["-o", "hand_size=1", "-o", "ranks=6"]  # a hand of one: nothing to choose
    out = run_parlour("play", "twenty", "--players", "human,random", "--seed", "3", *small,
                      stdin="hint\nquit\n", columns=120)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr, out.stderr
    lines = [line.strip() for line in out.stdout.splitlines() if line.strip().endswith("your only move")]
    assert len(lines) == 1 and lines[0].startswith("play "), out.stdout[-1500:]
    assert "of the search" not in out.stdout
    assert bots.HINT_LEGEND in " ".join(out.stdout.split())
