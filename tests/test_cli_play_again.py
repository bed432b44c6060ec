"""``parlour play`` with piped input: "Play again?" at the end of a match (yes: the same players and
options, seats rotated; no, bots only, or the input ended: it ends), and ``--resume RECORD``: a match quit
and gone on with ends with the same record as the match played straight through; a record of another
game, of a finished match, or a broken file is refused in plain words."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from conftest import SOURCE, parlour_command, run_parlour
from parlour import bots, games, record
from parlour.match import bot_rng

SHORT = ("-o", "suits=2", "-o", "ranks=7", "-o", "hand_size=2", "-o", "hands=2", "-o", "rounds=2")
"""A match of Twenty of two short rounds."""
SHORT_OPTIONS = {"suits": 2, "ranks": 7, "hand_size": 2, "hands": 2, "rounds": 2}


def typed_moves(seed: int, seats: list[str], names: list[str], options: dict[str, Any] | None = None,
                game_id: str = "twenty") -> list[str]:
    """What the one person at ``seats`` types (each turn the first legal move, in notation) to play the
    match of ``seed`` through, the bots choosing as ``parlour play`` makes them choose."""
    game = games.get(game_id)
    state = game.new_match(seed=seed, options=options, names=names)
    players = {seat: bots.make(kind) for seat, kind in enumerate(seats) if kind != "human"}
    rngs = [bot_rng(seed, seat) for seat in range(len(seats))]
    typed = []
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                return typed
            state.next_round()
            continue
        if seat in players:
            move = players[seat].choose(state.observation(seat), state.legal_moves(), rngs[seat])
        else:
            move = sorted(state.legal_moves(), key=str)[0]
            typed.append(str(move))
        state.apply(move)


def test_play_again_yes_starts_the_next_match_with_seats_rotated(tmp_path: Path) -> None:
    first = typed_moves(7, ["human", "random"], ["You", "Computer (random)"], SHORT_OPTIONS)
    second = typed_moves(8, ["random", "human"], ["Computer (random)", "You"], SHORT_OPTIONS)
    path = tmp_path / "match.json"
    out = run_parlour("play", "twenty", "--players", "human,random", "--seed", "7", *SHORT, "--save", str(path),
                      stdin="\n".join([*first, "y", *second]) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Play again? [y/N]") == 2  # the second time the input has ended: no
    assert "Seats move one place on." in out.stdout and "Twenty — seed 8" in out.stdout
    one, two = record.load(path), record.load(tmp_path / "match-2.json")
    assert record.replay(one).is_match_over() and record.replay(two).is_match_over()
    assert one.players == ["You", "Computer (random)"] and two.players == ["Computer (random)", "You"]
    assert two.meta == {"seed": 8, "seats": ["random", "human"]} and two.options == one.options
    assert {name: one.options[name] for name in SHORT_OPTIONS} == SHORT_OPTIONS
    assert not (tmp_path / "match-3.json").exists()


def test_play_again_no_ends_and_bots_alone_are_not_asked(tmp_path: Path) -> None:
    typed = typed_moves(7, ["human", "random"], ["You", "Computer (random)"], SHORT_OPTIONS)
    out = run_parlour("play", "twenty", "--players", "human,random", "--seed", "7", *SHORT,
                      "--save", str(tmp_path / "m.json"), stdin="\n".join([*typed, "n", "y"]) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Play again? [y/N]") == 1 and "seed 8" not in out.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]
    bots_only = run_parlour("play", "twenty", "--players", "random,random", "--seed", "7", *SHORT, stdin="y\n")
    assert bots_only.returncode == 0 and "Play again" not in bots_only.stdout


def test_quit_then_resume_ends_with_the_record_of_the_match_played_straight_through(tmp_path: Path) -> None:
    seats = ["human", "easy"]
    typed = typed_moves(11, seats, ["You", "Computer (easy)"], SHORT_OPTIONS)
    assert len(typed) >= 4
    straight = tmp_path / "straight.json"
    out = run_parlour("play", "twenty", "--players", "human,easy", "--seed", "11", *SHORT, "--save", str(straight),
                      stdin="\n".join(typed) + "\n")
    assert out.returncode == 0, out.stderr
    state_home = tmp_path / "state"
    env = {"COLUMNS": "100", "PATH": "/usr/bin:/bin", "TERM": "dumb", "PYTHONPATH": str(SOURCE),
           "XDG_STATE_HOME": str(state_home), "HOME": str(tmp_path)}

    def play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*parlour_command(), *args], input=stdin, capture_output=True, text=True,
                              timeout=120, env=env)

    # Quit after three moves (no --save): the match is kept, and the person told how to go on.
    quit_ = play("play", "twenty", "--players", "human,easy", "--seed", "11", *SHORT,
                 stdin="\n".join([*typed[:3], "quit"]) + "\n")
    assert quit_.returncode == 0, quit_.stderr
    kept = state_home / "parlour" / "unfinished" / "twenty-11.json"
    assert f"To go on with this match later: parlour play twenty --resume {kept}" in quit_.stdout
    assert not record.replay(record.load(kept)).is_match_over()
    # Go on, quit again after one more move, then go on to the end.
    again = play("play", "twenty", "--resume", str(kept), stdin=f"{typed[3]}\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "Going on with the match: round" in again.stdout and "--resume" in again.stdout
    last = play("play", "twenty", "--resume", str(kept), stdin="\n".join([*typed[4:], "n"]) + "\n")
    assert last.returncode == 0, last.stderr
    assert "Play again? [y/N]" in last.stdout
    assert json.loads(kept.read_text()) == json.loads(straight.read_text())
    # A --save given with --resume takes the rest of the match there.
    part = tmp_path / "part.json"
    play("play", "twenty", "--players", "human,easy", "--seed", "11", *SHORT, "--save", str(part),
         stdin="\n".join([*typed[:2], "quit"]) + "\n")
    whole = tmp_path / "whole.json"
    done = play("play", "twenty", "--resume", str(part), "--save", str(whole),
                stdin="\n".join(typed[2:]) + "\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(whole.read_text()) == json.loads(straight.read_text())


def test_resume_refuses_what_it_cannot_go_on_with(tmp_path: Path, data_dir: Path) -> None:
    typed = typed_moves(7, ["human", "random"], ["You", "Computer (random)"], SHORT_OPTIONS)
    part = tmp_path / "part.json"
    run_parlour("play", "twenty", "--players", "human,random", "--seed", "7", *SHORT, "--save", str(part),
                stdin=f"{typed[0]}\nquit\n")
    other = run_parlour("play", "minus-twenty", "--resume", str(part))
    assert other.returncode == 2
    assert f"{part} is a record of Twenty, not of Minus Twenty: go on with it with parlour play twenty --resume" \
        in other.stderr
    over = run_parlour("play", "twenty", "--resume", str(data_dir / "twenty-illustrative.json"))
    assert over.returncode == 2 and "is over already" in over.stderr
    broken = tmp_path / "broken.json"
    broken.write_text(part.read_text()[:-40])
    cut = run_parlour("play", "twenty", "--resume", str(broken))
    assert cut.returncode == 2 and f"cannot go on with {broken}: not valid JSON" in cut.stderr
    data = json.loads(part.read_text())
    data["rounds"][0]["moves"] = ["play 2S"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    wrong = run_parlour("play", "twenty", "--resume", str(bad))
    assert wrong.returncode == 2 and "the record is broken: round 1, move 1" in wrong.stderr
    del data["meta"]
    data["rounds"][0]["moves"] = []
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data))
    unknown = run_parlour("play", "twenty", "--resume", str(bare))
    assert unknown.returncode == 2 and "does not say who played it" in unknown.stderr
    mixed = run_parlour("play", "twenty", "--resume", str(part), "--players", "human,hard", "--seed", "3")
    assert mixed.returncode == 2 and "leave out --players, --seed" in mixed.stderr
    for out in (other, over, cut, wrong, unknown, mixed):
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert os.path.exists(part)
