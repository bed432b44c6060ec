"""A fifth game, registered in one place (tests/ladder.py), plays through every layer of
parlour with no other file changed: the conformance check, the CLI (as a plug-in named in
PARLOUR_PLUGINS), the lab, PettingZoo's own api_test, and the browser's table (its layout here;
tests/web/test_browser.py plays it in the page)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from parlour import conformance, games
from parlour.game import State

TESTS = Path(__file__).resolve().parent


def plugin_env() -> dict[str, str]:
    """The environment of a parlour run with Ladder as a plug-in."""
    env = dict(os.environ)
    env["PARLOUR_PLUGINS"] = "ladder"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH", "")]))
    return env


def parlour(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parlour", *args], capture_output=True, text=True,
                          env=plugin_env(), cwd=cwd, timeout=300)


def hide_ladder(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the other hand and the stock."""
    other = state.copy()
    opponent = 1 - seat
    hidden = list(other.hands[opponent])  # type: ignore[attr-defined]
    pool = hidden + other.stock[other.stock_pos:]  # type: ignore[attr-defined]
    rng.shuffle(pool)
    other.hands[opponent] = pool[:len(hidden)]  # type: ignore[attr-defined]
    other.stock = other.stock[:other.stock_pos] + pool[len(hidden):]  # type: ignore[attr-defined]
    return other


def test_ladder_passes_the_conformance_check(ladder: object) -> None:
    report = conformance.run(games.get("ladder"), hide_ladder, matches=300, deep_every=4)
    assert report.matches == 300 and report.deep_checks > 300


def test_the_browser_gets_a_ladder_table_for_every_seat(ladder: object) -> None:
    from parlour.web import layouts, views

    rng = random.Random(4)
    state = games.get("ladder").new_match(seed=4)
    while state.current_player() is not None:
        for seat in (0, 1, None):
            view = state.observation(seat) if seat is not None else views.public_view(state)
            offered = layouts.offers(state) if seat == state.current_player() else []
            layout = layouts.table_layout(view, offered)
            assert json.loads(json.dumps(layout)) == layout
            assert [c["cards"] for s in layout["seats"] for c in s["parts"]["columns"]] == view["ladders"]
            assert [o["move"] for o in layout["moves"]] == ([str(m) for m in state.legal_moves()] if offered else [])
        state.apply(rng.choice(state.legal_moves()))


def test_the_registry_forgets_a_game_it_is_asked_to() -> None:
    assert "ladder" not in games.ids()


def test_parlour_plays_ladder_as_a_plugin(tmp_path: Path) -> None:
    listed = parlour("games")
    assert listed.returncode == 0, listed.stderr
    assert "ladder" in listed.stdout
    saved = tmp_path / "ladder.json"
    played = parlour("play", "ladder", "--players", "random,medium", "--seed", "3", "--save", str(saved))
    assert played.returncode == 0, played.stderr
    assert "wins" in played.stdout or "draw" in played.stdout.lower()
    record = json.loads(saved.read_text())
    assert record["game"] == "ladder"
    replayed = parlour("replay", str(saved))
    assert replayed.returncode == 0, replayed.stderr
    assert "climb" in replayed.stdout


def test_parlour_shows_ladders_own_rules() -> None:
    """``PARLOUR_PLUGINS=ladder parlour rules ladder``: the plug-in serves its own rules text."""
    shown = parlour("rules", "ladder")
    assert shown.returncode == 0, shown.stderr
    assert "Ladder" in shown.stdout and "climb" in shown.stdout


def test_the_lab_runs_and_reports_ladder(tmp_path: Path) -> None:
    db = tmp_path / "lab.sqlite"
    ran = parlour("lab", "run", "ladder", "--players", "hard,random", "--deals", "10", "--jobs", "1",
                  "--seed", "1", "--db", str(db))
    assert ran.returncode == 0, ran.stderr
    report = parlour("lab", "report", "--db", str(db), "--format", "markdown", "--out", str(tmp_path / "report"))
    assert report.returncode == 0, report.stderr
    text = "\n".join(p.read_text() for p in (tmp_path / "report").glob("*.md"))
    assert "Ladder" in text or "ladder" in text
    assert "Cards played out" in text


def test_pettingzoo_api_test_passes_for_ladder(ladder: object) -> None:
    from pettingzoo.test import api_test

    from parlour.envs.pettingzoo import env as make_env

    api_test(make_env("ladder"), num_cycles=200)


@pytest.mark.parametrize("first", ["parlour.web.scheduler", "parlour.lab.runner", "parlour.web.replays",
                                   "parlour.bots.ismcts", "parlour.envs.openspiel"])
def test_a_plugin_loads_whichever_module_a_process_imports_first(first: str) -> None:
    """A worker process starts by importing the module of its work; the plug-in, which imports parts of
    parlour itself, is imported when a game is first asked for, not in the middle of an import (making a
    bot imported the registry, which imported the plug-in, which imported the bot's half-imported module:
    a plug-in's bot never moved at a served table)."""
    code = (f"import random, {first}\nfrom parlour import bots\nbot = bots.make('medium')\n"  # as a bot worker
            "from parlour import games\nstate = games.get('ladder').new_match(seed=1)\n"
            "print(bot.choose(state.observation(state.current_player()), state.legal_moves(), random.Random(1)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=plugin_env(), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] in ("play", "discard")
