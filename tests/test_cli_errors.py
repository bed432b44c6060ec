"""Bad command lines, as a new user types them (issue 17): each gives one clear line on
stderr and a non-zero exit, with no traceback and no progress bar before it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import run_parlour
from parlour.cli import app

PLAYERS = ("--players", "random,random")
QUICK = ("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--db", "lab.sqlite")

# (command line, what the one line says, exit code); {dir}, {file}, {plan}, {empty} are made by the fixture.
BAD: list[tuple[tuple[str, ...], str, int]] = [
    # play
    (("play", "twenty", *PLAYERS, "-o", "open_hands=true", "-o", "open_hands=false"),
     "option 'open_hands' is given twice (-o open_hands=true and -o open_hands=false)", 2),
    (("play", "minus-twenty", *PLAYERS, "-o", "hand_size=8", "-o", "hand_size=9"),
     "option 'hand_size' is given twice", 2),
    (("play", "twenty", "--hotseat", *PLAYERS),
     "give --hotseat or --players, not both (--hotseat is --players human,human)", 2),
    (("play", "twenty", "--players", "random"), "Twenty needs 2 players, got 1", 2),
    (("play", "progression", *PLAYERS), "Progression needs 3 players, got 2", 2),
    (("play", "twenty", "--players", ""), "--players names nobody", 2),
    (("play", "twenty", *PLAYERS, "--names", "Ann"), "Twenty needs 2 names, got 1", 2),
    (("play", "twenty", *PLAYERS, "--names", "Ann,Ann"), "every seat needs a name of its own", 2),
    (("play", "twenty", *PLAYERS, "--save", "{dir}"), "is a folder; name a file", 2),
    (("play", "twenty", *PLAYERS, "-o", "open_hands=maybe"), "must be true or false, not 'maybe'", 2),
    (("play", "minus-twenty", *PLAYERS, "-o", "hand_size=30"), "must be at most 20, not 30", 2),
    (("play", "twenty", *PLAYERS, "-o", "open_hands"), "--option takes NAME=VALUE", 2),
    (("play", "twenty", *PLAYERS, "-o", "=true"), "--option takes NAME=VALUE", 2),
    (("play", "twenty", *PLAYERS, "-o", "colour=red"), "twenty has no option 'colour'", 2),
    (("play", "chess"), "unknown game 'chess'", 2),
    (("play", "twenty", "--seed", "x"), "Invalid value for '--seed'", 2),
    (("play", "twenty", "--bogus"), "No such option: --bogus", 2),
    (("play",), "Missing argument 'GAME'", 2),
    (("nosuch",), "No such command 'nosuch'", 2),
    (("rules", "twenty", "extra"), "unexpected extra argument", 2),
    # arena
    (("arena", "twenty", "--players", "hard"), "Twenty needs 2 players, got 1: hard", 2),
    (("arena", "twenty", "--players", "random,nobody", "--deals", "1"), "unknown bot 'nobody'", 2),
    (("arena", "twenty", "--players", "random,ismcts:iterations=0", "--deals", "1"), "iterations must be at least 1",
     2),
    (("arena", "twenty", *PLAYERS, "--deals", "0"), "Invalid value for '--deals'", 2),
    (("arena", "twenty", *PLAYERS, "--deals", "1", "--save", "{file}"), "it is a file, not a folder", 2),
    (("arena", "twenty", *PLAYERS, "--deals", "1", "-o", "x=1"), "twenty has no option 'x'", 2),
    (("arena", "twenty"), "Missing option '--players'", 2),
    # lab run
    ((*QUICK, "--backend", "spark"), "unknown backend 'spark' (processes or ray)", 2),
    (("lab", "run", "{dir}"), "is a folder; lab run takes a game id", 2),
    (("lab", "run", "chess", *PLAYERS, "--matches", "1"), "'chess' is neither a game id", 2),
    (("lab", "run", "{plan}", "--players", "hard,hard"), "--players: only for a quick run with a game id", 2),
    (("lab", "run", "{plan}", "--address", "10.0.0.1:6379"), "--address is the Ray cluster's", 2),
    (("lab", "run", "twenty", *PLAYERS), "a quick run needs --matches N", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--deals", "1"), "give --matches or --deals, not both", 2),
    (("lab", "run", "twenty", "--matches", "1"), "a quick run needs --players", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "0"), "Invalid value for '--matches'", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--db", "{dir}"), "is a folder; name the database file", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--db", "none/lab.sqlite"), "there is no folder none", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--db", "{file}"), "file is not a database", 2),
    (("lab", "run", "twenty", *PLAYERS, "--matches", "1", "--db", "foo://x"), "cannot open the database foo://x", 2),
    (("lab", "run", "missing.toml"), "cannot read missing.toml", 2),
    # lab report, lab ladder
    (("lab", "report", "--format", "pdf"), "--format must be html, json or markdown", 2),
    (("lab", "report", "--db", "none.sqlite"), "no lab database at none.sqlite", 2),
    (("lab", "report", "--db", "{empty}"), "there are no experiments in", 2),
    (("lab", "ladder", "twenty", "--levels", "hard"), "needs at least 2 levels", 2),
    (("lab", "ladder", "twenty", "--levels", "random,random"), "--levels names random twice", 2),
    (("lab", "ladder", "chess"), "unknown game 'chess'", 2),
    # hint, serve
    (("hint", "none.json"), "cannot read none.json", 1),
    (("hint", "{file}"), "invalid record: not valid JSON", 1),
    (("serve", "--port", "0"), "Invalid value for '--port'", 2),
]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A fresh working folder (the default lab.sqlite would land here) with things to misuse."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("not a record, a plan or a database\n")
    (tmp_path / "plan.toml").write_text('game = "twenty"\nplayers = ["random", "random"]\nmatches = 1\n')
    (tmp_path / "empty.sqlite").write_bytes(b"")
    return {"dir": "folder", "file": "notes.txt", "plan": "plan.toml", "empty": "empty.sqlite"}


@pytest.mark.parametrize(("argv", "says", "code"), BAD, ids=[" ".join(argv) for argv, _, _ in BAD])
def test_one_clear_line(argv: tuple[str, ...], says: str, code: int, workdir: dict[str, str], tmp_path: Path) -> None:
    args = [arg.format(**workdir) for arg in argv]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # one line: no progress bar, no usage box, no traceback
    assert lines[0].startswith("error: ") and says in lines[0], lines[0]
    assert result.stdout == ""
    if "lab" in argv and "run" in argv:
        assert not (tmp_path / "lab.sqlite").exists()  # nothing stored: the run never started


def test_through_the_real_command(tmp_path: Path) -> None:
    """The same, as a person at a terminal runs it (the console script, a real stderr)."""
    for argv, says in [
        (("arena", "twenty", "--players", "hard"), "Twenty needs 2 players, got 1"),
        (("lab", "run", str(tmp_path), "--db", str(tmp_path / "lab.sqlite")), "is a folder; lab run takes"),
        (("serve", "--db", str(tmp_path)), "is a folder; name the database file"),
        (("rules",), "Missing argument 'GAME'"),
    ]:
        out = run_parlour(*argv, columns=80)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: ") and says in out.stderr, out.stderr


def test_no_arguments_still_prints_the_help() -> None:
    out = run_parlour()
    assert out.returncode == 2 and "Usage: parlour" in out.stdout and "Traceback" not in out.stderr
    out = run_parlour("lab", "--help")
    assert out.returncode == 0 and "ladder" in out.stdout
