"""``parlour play --save``: a bad path fails before the deal; the record is on disk after every move."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, TypeVar

import pytest

from conftest import parlour_command, run_parlour
from parlour import record
from parlour.game import State

HUMAN_VS_RANDOM = ("play", "twenty", "--players", "human,random", "--seed", "5")
DEADLINE = 60.0
T = TypeVar("T")
Starter = Callable[[Path], "subprocess.Popen[str]"]


def assert_fails_before_the_deal(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert all(word in lines[0] for word in words), lines[0]
    assert out.stdout == ""  # nothing dealt, nothing shown


def test_save_into_a_missing_folder_fails_before_the_deal(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "deeper" / "x.json"
    out = run_parlour("play", "twenty", "--players", "random,random", "--seed", "1", "--save", str(path))
    assert_fails_before_the_deal(out, "no folder", str(path.parent))
    assert not path.parent.exists()


def test_save_naming_a_folder_fails_before_the_deal(tmp_path: Path) -> None:
    out = run_parlour("play", "twenty", "--players", "random,random", "--seed", "1", "--save", str(tmp_path))
    assert_fails_before_the_deal(out, "is a folder")
    assert list(tmp_path.iterdir()) == []


def test_save_whose_folder_is_a_file_fails_before_the_deal(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a folder")
    out = run_parlour("play", "twenty", "--players", "random,random", "--save", str(tmp_path / "plain" / "x.json"))
    assert_fails_before_the_deal(out, "is not a folder")


def test_save_into_an_unwritable_folder_fails_before_the_deal(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # root may write anywhere a mode allows it: /sys takes no new files, even from root
        folder = Path("/sys")
        out = run_parlour("play", "twenty", "--players", "random,random", "--save", str(folder / "x.json"))
        assert_fails_before_the_deal(out, "cannot write")
        assert not (folder / "x.json").exists()
        return
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        out = run_parlour("play", "twenty", "--players", "random,random", "--save", str(folder / "x.json"))
    finally:
        folder.chmod(0o755)
    assert_fails_before_the_deal(out, "cannot write")
    assert list(folder.iterdir()) == []


def test_bots_only_match_saves_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text("an old file, replaced")
    out = run_parlour("play", "twenty", "--players", "random,random", "--seed", "1", "--save", str(path))
    assert out.returncode == 0, out.stderr
    assert f"Record saved to {path}" in out.stdout
    assert record.replay(record.load(path)).is_match_over()
    replayed = run_parlour("replay", str(path), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert '"complete": true' in replayed.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary file left behind


# -- a live game, driven through a pipe -------------------------------------


def wait_for(check: Callable[[], T | None], what: str, proc: subprocess.Popen[str]) -> T:
    """Poll ``check`` until it gives something, the process dies, or the deadline passes."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = check()
        if value is not None:
            return value
        assert proc.poll() is None, f"parlour ended (code {proc.returncode}) while waiting for {what}"
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def on_disk(path: Path) -> State | None:
    """The match in the record at ``path``, or None if there is none (yet)."""
    try:
        return record.replay(record.load(path))
    except record.RecordError:
        return None


def moves_of(state: State) -> list[list[str]]:
    return [[str(m) for m in r.moves] for r in state.history] + [[str(m) for m in state.moves]]


def human_to_move(path: Path, after: int) -> State | None:
    """The record, once it holds more than ``after`` moves and it is the human's (seat 0's) turn."""
    state = on_disk(path)
    if state is None or sum(map(len, moves_of(state))) <= after or state.current_player() != 0:
        return None
    return state


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Starter]:
    procs: list[subprocess.Popen[str]] = []

    def start(path: Path) -> subprocess.Popen[str]:
        out: IO[str] = (tmp_path / "stdout.txt").open("w")
        proc = subprocess.Popen(
            [*parlour_command(), *HUMAN_VS_RANDOM, "--save", str(path)], stdin=subprocess.PIPE, stdout=out,
            stderr=subprocess.STDOUT, text=True,
            env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "TERM": "dumb"},
            # Ctrl-C must reach it as a person's would, even if this test runs with SIGINT ignored.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        out.close()
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=DEADLINE)
        assert proc.stdin is not None
        proc.stdin.close()


Made = list[tuple[int, int, str]]


def play(proc: subprocess.Popen[str], path: Path, count: int) -> Made:
    """Make ``count`` human moves, each legal (read from the record on disk).

    Returns each as (round, index in the round, move), where the record must hold it.
    """
    assert proc.stdin is not None
    made: Made = []
    seen = -1
    for _ in range(count):
        state = wait_for(partial(human_to_move, path, seen), "the human's turn on disk", proc)
        seen = sum(map(len, moves_of(state)))
        move = str(sorted(state.legal_moves(), key=str)[0])
        proc.stdin.write(move + "\n")
        proc.stdin.flush()
        made.append((state.round_index, len(state.moves), move))
    return made


def holds(path: Path, made: Made) -> State | None:
    """The record at ``path`` once it holds every move in ``made``."""
    state = on_disk(path)
    if state is None:
        return None
    kept = moves_of(state)
    ok = all(r < len(kept) and i < len(kept[r]) and kept[r][i] == m for r, i, m in made)
    return state if ok else None


def test_sigkill_mid_round_leaves_every_move_on_disk(tmp_path: Path, live: Starter) -> None:
    path = tmp_path / "live.json"
    proc = live(path)
    made = play(proc, path, 4)
    before_kill = moves_of(wait_for(lambda: holds(path, made), "the moves on disk", proc))
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=DEADLINE) == -signal.SIGKILL

    out = run_parlour("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "The match is unfinished." in out.stdout and "Traceback" not in out.stderr
    after = record.replay(record.load(path))
    assert after.round_index == 0 and not after.is_round_over()  # killed mid-round
    kept = moves_of(after)
    assert kept[0][: len(before_kill[0])] == before_kill[0]  # nothing seen on disk was lost
    assert holds(path, made) is not None  # every move the person made
    assert all(move in out.stdout for _, _, move in made)


def test_ctrl_c_at_the_prompt_keeps_the_record(tmp_path: Path, live: Starter) -> None:
    path = tmp_path / "live.json"
    proc = live(path)
    made = play(proc, path, 2)
    state = wait_for(lambda: human_to_move(path, made[-1][1]), "the human's third turn", proc)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=DEADLINE) == 0
    text = (tmp_path / "stdout.txt").read_text()
    assert "Traceback" not in text and f"Record saved to {path}" in text
    assert moves_of(record.replay(record.load(path))) == moves_of(state)
    assert holds(path, made) is not None


def test_saving_fails_mid_game_then_recovers(tmp_path: Path, live: Starter) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "live.json"
    proc = live(path)
    first = play(proc, path, 1)
    state = wait_for(lambda: human_to_move(path, first[0][1]), "the human's second turn", proc)
    path.unlink()
    folder.rmdir()  # the folder goes away mid-game
    assert proc.stdin is not None
    move = str(sorted(state.legal_moves(), key=str)[0])
    proc.stdin.write(move + "\n")
    proc.stdin.flush()
    output = tmp_path / "stdout.txt"
    wait_for(lambda: "could not save the record" in output.read_text() or None, "the warning", proc)
    folder.mkdir()  # it comes back: the next move saves again
    # Nothing on disk to read the position from: ask the table for the legal moves.
    shown = len(output.read_text())
    proc.stdin.write("moves\n")
    proc.stdin.flush()
    listed = wait_for(lambda: re.search(r"Legal moves: (.*)\n", output.read_text()[shown:]), "the moves", proc)
    after = listed.group(1).split(", ")[0]
    proc.stdin.write(after + "\n")
    proc.stdin.flush()
    wait_for(lambda: "record saved again" in output.read_text() or None, "the record saved again", proc)
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(timeout=DEADLINE) == 0
    text = output.read_text()
    assert "Traceback" not in text and text.count("could not save the record") == 1
    assert "record saved again" in text and f"Record saved to {path}" in text
    kept = moves_of(record.replay(record.load(path)))
    assert holds(path, [*first, (state.round_index, len(state.moves), move)]) is not None
    assert after in kept[state.round_index][len(state.moves) + 1:]


def test_saving_failing_to_the_end_is_an_error(tmp_path: Path, live: Starter) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "live.json"
    proc = live(path)
    wait_for(lambda: human_to_move(path, -1), "the human's first turn", proc)
    path.unlink()
    folder.rmdir()
    assert proc.stdin is not None
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(timeout=DEADLINE) == 1
    text = (tmp_path / "stdout.txt").read_text()
    assert "Traceback" not in text
    assert "error: the record could not be saved to" in text and "Record saved" not in text
