"""parlour's own games are found, not listed: each has a light entry module in
``parlour.games.entries``, discovered on start-up and listed in its ``order``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import parlour
from parlour import games
from parlour.games.registry import SparringPlan

TESTS = Path(__file__).resolve().parent


def test_the_games_are_listed_in_their_order() -> None:
    assert games.GAME_IDS == ("minus-twenty", "progression", "twenty", "silver-bars")
    assert [e.order for e in games.FAMILY] == sorted(e.order for e in games.FAMILY)
    for entry in games.FAMILY:
        assert entry.space == f"parlour.envs.spaces.{entry.id.replace('-', '_')}:{entry.camel_name}Space"
        assert isinstance(entry.sparring, SparringPlan)


def test_listing_the_games_imports_no_game() -> None:
    """An entry module names where its game lives and imports none of it."""
    code = ("import sys; from parlour import games; games.ids(); "
            "print(sorted(m for m in sys.modules if m.startswith(('parlour.games.', 'parlour.bots', 'parlour.envs'))"
            " and not m.startswith(('parlour.games.entries', 'parlour.games.registry'))))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert shown.stdout.strip() == "[]"


def test_a_game_is_added_to_the_tree_by_adding_files(tmp_path: Path) -> None:
    """A copy of parlour with one more entry module (its game, Ladder, lives in tests/): the copy
    lists it after the four, in its order, and shows its rules, with no file of the copy changed."""
    copy = tmp_path / "parlour"
    shutil.copytree(Path(parlour.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "games" / "entries" / "ladder.py").write_text(
        '"""Ladder\'s registry entry."""\n\n'
        "from parlour.games.registry import GameEntry\n\n"
        'ENTRY = GameEntry(id="ladder", order=50, game="ladder:GAME", advice="ladder:ADVICE", terminal="ladder")\n'
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(TESTS)]), "PARLOUR_PLUGINS": ""}
    code = "import json; from parlour import games; print(json.dumps([games.ids(), games.__file__]))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert shown.returncode == 0, shown.stderr
    ids, where = json.loads(shown.stdout)
    assert Path(where).is_relative_to(copy)
    assert ids == [*games.GAME_IDS, "ladder"]
    rules = subprocess.run([sys.executable, "-m", "parlour", "rules", "ladder"], capture_output=True, text=True,
                           env=env, timeout=60)
    assert rules.returncode == 0, rules.stderr
    assert "climb" in rules.stdout
