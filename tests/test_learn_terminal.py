"""``parlour learn GAME`` through the real entry point, walked to its end with piped input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import parlour
from parlour import games, learn

GAME_IDS = [game_id for game_id in games.ids() if games.entry(game_id).tutorial is not None]


def learn_in_terminal(game_id: str, lines: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``parlour learn`` on the parlour being tested (this tree's, not an installed one)."""
    source = str(Path(parlour.__file__).resolve().parents[1])
    env = {"COLUMNS": "100", "PATH": "/usr/bin:/bin", "TERM": "dumb", "PYTHONPATH": source,
           "HOME": os.environ.get("HOME", "/tmp")}
    return subprocess.run([sys.executable, "-m", "parlour", "learn", game_id], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, env=env)


def answers(tutorial: learn.Tutorial) -> list[str]:
    """What a learner who does as told types: Enter at each say step, the asked move at each ask."""
    return ["" if step.kind == learn.SAY else step.moves[0] for step in tutorial.steps if step.kind != learn.SCRIPT]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_lesson_is_completed_with_piped_input(game_id: str) -> None:
    tutorial = learn.tutorial(game_id)
    typed = answers(tutorial)
    first_ask = next(s for s in tutorial.steps if s.kind == learn.ASK)
    at = typed.index(first_ask.moves[0])
    typed[at:at] = ["moves", "nonsense"]  # a question and a wrong answer first
    out = learn_in_terminal(game_id, typed)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    text = out.stdout
    assert tutorial.title in text
    assert "Moves the rules allow now:" in text
    assert "This lesson asks you to" in text
    lesson = learn.Lesson(tutorial)
    while not lesson.done:
        step = lesson.step
        assert step is not None
        lesson.answer(learn.NEXT if step.kind == learn.SAY else step.moves[0])
    for line in lesson.scoring():
        assert line.strip() in text
    assert "You have finished the lesson." in text
    assert f"parlour play {game_id}" in text


def test_leaving_a_lesson_half_way() -> None:
    out = learn_in_terminal("twenty", ["", ""])
    assert out.returncode == 0
    assert "You left the lesson." in out.stdout
    assert "finished" not in out.stdout


def test_an_unknown_game_is_one_line() -> None:
    out = learn_in_terminal("chess", [])
    assert out.returncode == 2
    assert out.stderr.startswith("error: unknown game 'chess'") and len(out.stderr.splitlines()) == 1
