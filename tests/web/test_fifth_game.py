"""A fifth game inside the tree adds files and edits none.

A copy of the package becomes a git repository; Ladder (the plug-in example, tests/ladder.py) is cut
into the parts a game of parlour's own has — its rules in ``games/``, its entry in ``games/entries/``,
its advice in ``bots/heuristic/``, its terminal view, its web layout and its RL space, each in its
layer's folder — and written into the copy.  git then shows new files only, and the copy plays the new
game through every interface: the conformance check, the CLI (play, replay, rules), the lab, PettingZoo's
api_test, Gymnasium, OpenSpiel, and a table of ``parlour serve`` played over a WebSocket.
"""

from __future__ import annotations

import ast
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import parlour

from .conftest import Client, Person, ServerProcess, play_to_end

TESTS = Path(__file__).resolve().parents[1]
LADDER = TESTS / "ladder.py"

PARTS = {
    "bots/heuristic/ladder.py": ("Ladder's advice: what the heuristic bot plays and the search rolls out.",
                                 {"choose", "rollout", "starts", "ADVICE"}),
    "terminal/ladder.py": ("Ladder in the terminal.", {"render"}),
    "web/layouts/ladder.py": ("Ladder's table in the browser.", {"layout"}),
    "envs/spaces/ladder.py": ("Ladder's observation and action spaces for the RL adapters.", {"LadderSpace"}),
}
"""Where each part of Ladder goes in the tree, with its module docstring and its top-level names."""
PLUG_IN_ONLY = {"ENTRY", "register"}
"""What only a plug-in needs: the in-tree game has its entry module instead."""

ENTRY = '''"""Ladder's registry entry: where each of its parts lives."""

from parlour.games.registry import GameEntry

ENTRY = GameEntry(
    id="ladder", order=50,
    game="parlour.games.ladder:GAME", advice="parlour.bots.heuristic.ladder:ADVICE",
    terminal="parlour.terminal.ladder", web="parlour.web.layouts.ladder",
    space="parlour.envs.spaces.ladder:LadderSpace",
)
'''


def defined(node: ast.stmt) -> set[str]:
    """The top-level names a statement defines."""
    if isinstance(node, ast.FunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {t.id for t in targets if isinstance(t, ast.Name)}
    return set()


def used(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def ladder_modules() -> dict[str, str]:
    """tests/ladder.py cut into modules of the tree, each importing only what it uses."""
    source = LADDER.read_text()
    lines = source.splitlines(keepends=True)
    body = ast.parse(source).body
    imports = [n for n in body
               if isinstance(n, ast.Import | ast.ImportFrom) and getattr(n, "module", None) != "__future__"]
    statements: dict[str, list[ast.stmt]] = {"games/ladder.py": []}
    last = "games/ladder.py"
    for index, node in enumerate(body):
        if node in imports or isinstance(node, ast.Import | ast.ImportFrom) or index == 0:
            continue  # the imports, and the module docstring (kept for the rules below)
        names = defined(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            where = last  # an attribute docstring stays with what it describes
        elif isinstance(node, ast.Expr) or names & PLUG_IN_ONLY:
            last = "plug-in"
            continue
        else:
            where = next((path for path, (_, parts) in PARTS.items() if names & parts), "games/ladder.py")
        last = where
        if where != "plug-in":
            statements.setdefault(where, []).append(node)
    rules_names = set().union(*(defined(n) for n in statements["games/ladder.py"]))

    def text(path: str, doc: str, nodes: list[ast.stmt]) -> str:
        need = used(nodes)
        out = [doc, "\nfrom __future__ import annotations\n\n"]
        for statement in imports:
            keep = [a for a in statement.names if (a.asname or a.name).split(".")[0] in need]
            if keep:
                names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in keep)
                out.append(f"from {statement.module} import {names}\n" if isinstance(statement, ast.ImportFrom)
                           else f"import {names}\n")
        from_rules = sorted(need & rules_names)
        if path != "games/ladder.py" and from_rules:
            out.append(f"from parlour.games.ladder import {', '.join(from_rules)}\n")
        for node in nodes:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            assert node.end_lineno is not None
            out.append("\n\n" + "".join(lines[first - 1:node.end_lineno]))
        return "".join(out)

    docstring = ast.get_docstring(ast.parse(source)) or ""
    modules = {"games/ladder.py": text("games/ladder.py", f'"""{docstring}\n"""\n', statements["games/ladder.py"])}
    for path, (doc, _) in PARTS.items():
        modules[path] = text(path, f'"""{doc}"""\n', statements[path])
    modules["games/entries/ladder.py"] = ENTRY
    return modules


def git(tree: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True, check=True, timeout=60,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})
    return done.stdout


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``src/`` of a copy of parlour, under git, with Ladder added inside it."""
    src = tmp_path_factory.mktemp("fifth") / "src"
    shutil.copytree(Path(parlour.__file__).parent, src / "parlour",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "parlour as it is")
    for path, text in ladder_modules().items():
        target = src / "parlour" / path
        assert not target.exists(), f"{path} would change a file of parlour"
        target.write_text(text)
    return src


def run(tree: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A Python of the copy (no plug-ins), ``python ARGS``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(TESTS)]), "PARLOUR_PLUGINS": ""}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


def test_adding_the_game_changes_no_file(tree: Path) -> None:
    assert git(tree, "diff", "--stat") == ""
    status = git(tree, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert sorted(line.split()[1] for line in status) == sorted(f"parlour/{p}" for p in ladder_modules())
    assert all(line.startswith("??") for line in status), status


LIBRARY = """
import json, random
from parlour import conformance, games
from test_ladder import hide_ladder

found = {"ids": games.ids(), "where": games.get("ladder").__class__.__module__}
report = conformance.run(games.get("ladder"), hide_ladder, matches=60, deep_every=4)
found["conformance"] = [report.matches, report.deep_checks]

from pettingzoo.test import api_test
from parlour.envs.pettingzoo import env as make_env
api_test(make_env("ladder"), num_cycles=100)
found["pettingzoo"] = True

import gymnasium
import parlour.envs.gymnasium
env = gymnasium.make("parlour/Ladder-v0", opponent="random")
observation, info = env.reset(seed=5)
steps, done = 0, False
while not done:
    legal = [a for a, ok in enumerate(env.unwrapped.action_masks()) if ok]
    observation, reward, terminated, truncated, info = env.step(random.Random(steps).choice(legal))
    done, steps = terminated or truncated, steps + 1
found["gymnasium"] = steps

import pyspiel
from parlour.envs import openspiel
game = pyspiel.load_game(openspiel.short_name("ladder"))
from envs.spiel import play_random
found["openspiel"] = play_random(game.new_initial_state(), random.Random(2)).returns()
pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
print(json.dumps(found))
"""


def test_the_game_plays_through_the_library_the_rl_adapters_and_openspiel(tree: Path) -> None:
    done = run(tree, "-c", LIBRARY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["ids"] == ["minus-twenty", "progression", "twenty", "silver-bars", "ladder"]
    assert found["where"] == "parlour.games.ladder"
    assert found["conformance"][0] == 60 and found["conformance"][1] > 60
    assert found["pettingzoo"] and found["gymnasium"] > 0
    assert sum(found["openspiel"]) == pytest.approx(0.0)


def test_the_game_plays_through_the_cli_and_the_lab(tree: Path, tmp_path: Path) -> None:
    listed = run(tree, "-m", "parlour", "games")
    assert listed.returncode == 0 and "ladder" in listed.stdout, listed.stderr
    rules = run(tree, "-m", "parlour", "rules", "ladder")
    assert rules.returncode == 0 and "climb" in rules.stdout, rules.stderr
    saved = tmp_path / "ladder.json"
    played = run(tree, "-m", "parlour", "play", "ladder", "--players", "random,hard", "--seed", "3",
                 "--save", str(saved))
    assert played.returncode == 0, played.stderr
    assert json.loads(saved.read_text())["game"] == "ladder"
    replayed = run(tree, "-m", "parlour", "replay", str(saved))
    assert replayed.returncode == 0 and "climb" in replayed.stdout, replayed.stderr
    db = tmp_path / "lab.sqlite"
    ran = run(tree, "-m", "parlour", "lab", "run", "ladder", "--players", "medium,random", "--deals", "6",
              "--jobs", "1", "--seed", "1", "--db", str(db))
    assert ran.returncode == 0, ran.stderr
    out = tmp_path / "report"
    report = run(tree, "-m", "parlour", "lab", "report", "--db", str(db), "--format", "markdown", "--out", str(out))
    assert report.returncode == 0, report.stderr
    assert "Cards played out" in "\n".join(p.read_text() for p in out.glob("*.md"))


class CopyServer(ServerProcess):
    """``parlour serve`` of the copy."""

    tree: Path

    def environment(self) -> dict[str, str]:
        return dict(super().environment(), PYTHONPATH=str(self.tree), PARLOUR_PLUGINS="")


def test_a_person_plays_the_game_at_a_table_of_the_server(tree: Path, tmp_path: Path) -> None:
    server = CopyServer(f"sqlite:///{tmp_path / 'parlour.db'}", log_path=tmp_path / "serve.log")
    server.tree = tree
    server.cwd = tmp_path
    server.start()
    try:
        person = Person(server, "Ada")
        assert "ladder" in [g["id"] for g in person.get("/api/games").json()]
        made = person.post("/api/tables", json={"game": "ladder", "seats": [{"kind": "me"}, {"kind": "bot",
                                                                                           "level": "medium"}]})
        assert made.status_code == 200, made.text
        with Client(server, made.json()["table_id"], person) as client:
            assert client.state is not None and client.state["layout"]["name"] == "Ladder"
            final = play_to_end([client], random.Random(1))
        assert final["status"] == "finished"
        person.close()
    finally:
        server.stop()
