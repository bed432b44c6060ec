"""The CLI through its real entry point, as a person (or a pipe) would use it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import run_parlour
from parlour import bots, games, narrate, record
from parlour.match import bot_rng

VS_RANDOM = ("play", "twenty", "--players", "human,random", "--seed", "21")


run = run_parlour


def test_games_lists_twenty() -> None:
    out = run("games")
    assert out.returncode == 0 and "twenty" in out.stdout and "Twenty" in out.stdout


def test_games_fits_80_columns_and_says_what_each_option_means() -> None:
    out = run("games", columns=80)
    assert out.returncode == 0, out.stderr
    assert "…" not in out.stdout and max(len(line) for line in out.stdout.splitlines()) <= 80
    words = out.stdout.split()
    for game in games.all_games():
        for option in game.options:
            assert any(word.startswith(f"{option.name}=") for word in words)
            assert all(word in words for word in option.help.split())  # wrapped, but every word there
    assert "(0:" in words and "limit)" in words  # silver-bars max_rounds=0: no limit
    assert "best_of=none" in words and "true/false" in words  # values as typed after -o NAME=


def test_python_dash_m() -> None:
    out = subprocess.run([sys.executable, "-m", "parlour", "games"], capture_output=True, text=True)
    assert out.returncode == 0 and "twenty" in out.stdout


def test_rules() -> None:
    out = run("rules", "twenty")
    assert out.returncode == 0 and "End of Round Bonus" in out.stdout and "open_hands" in out.stdout


def test_unknown_game_is_one_line() -> None:
    out = run("rules", "chess")
    assert out.returncode == 2 and "unknown game 'chess'" in out.stderr and "Traceback" not in out.stderr


def test_bad_option_is_one_line() -> None:
    out = run("play", "twenty", "--players", "random,random", "--option", "open_hands=maybe")
    assert out.returncode == 2 and "true or false" in out.stderr and "Traceback" not in out.stderr
    out = run("play", "twenty", "--players", "random,nobody")
    assert out.returncode == 2 and "unknown bot 'nobody'" in out.stderr


def test_bots_only_match_writes_a_record(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = run("play", "twenty", "--players", "random,random", "--seed", "7", "--save", str(path))
    assert out.returncode == 0, out.stderr
    state = record.replay(record.load(path))
    assert state.is_match_over()
    expected = games.get("twenty")
    from parlour.match import play_bots

    again = play_bots(expected, [bots.make("random"), bots.make("random")], seed=7, names=state.names)
    assert again.round_scores() == state.round_scores()
    assert "wins the match" in out.stdout or "drawn" in out.stdout


def human_moves(seed: int, human: int) -> list[str]:
    """What a person at ``human`` would type to play the first card of a sorted hand, as shorthand."""
    game = games.get("twenty")
    state = game.new_match(seed=seed, names=["You", "Computer (random)"])
    bot = bots.make("random")
    rng = bot_rng(seed, 1 - human)
    typed = []
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                return typed
            state.next_round()
            continue
        if seat == human:
            move = sorted(state.legal_moves(), key=str)[0]
            typed.append(str(move.args[0]).lower())
        else:
            move = bot.choose(state.observation(seat), state.legal_moves(), rng)
        state.apply(move)


def test_interactive_game_against_the_computer(tmp_path: Path) -> None:
    typed = human_moves(seed=21, human=0)
    assert len(typed) == 50
    junk = ["", "hello", "play ZZ", "play 2", "moves", "help"]
    path = tmp_path / "game.json"
    out = run(*VS_RANDOM, "--save", str(path), stdin="\n".join(junk + typed) + "\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "Unknown move 'hello'; Twenty moves are: play <card>" in out.stdout
    assert "neither a card" in out.stdout  # play ZZ
    assert "Expected play <card>" in out.stdout  # play 2
    assert "Legal moves: play" in out.stdout
    assert "Your hand:" in out.stdout and "Tally" in out.stdout and "End of Round Bonus" in out.stdout
    state = record.replay(record.load(path))
    assert state.is_match_over()
    assert [str(m.args[0]).lower() for m in state.history[0].moves[state.first::2]][:3] != []


def test_card_not_in_hand_gets_a_reason_and_a_new_prompt(tmp_path: Path) -> None:
    game = games.get("twenty")
    state = game.new_match(seed=21)
    absent = next(c for c in game.deck({}) if c not in state.hands[0] and c not in state.hands[1])
    typed = human_moves(seed=21, human=0)
    out = run(*VS_RANDOM, stdin="\n".join([str(absent), *typed]) + "\n")
    assert out.returncode == 0
    assert f"{narrate.card_text(absent)} is not in your hand (you hold " in out.stdout
    assert "You's" not in out.stdout


def test_quitting_midway_saves_the_unfinished_match(tmp_path: Path) -> None:
    typed = human_moves(seed=21, human=0)[:3]
    path = tmp_path / "part.json"
    out = run(*VS_RANDOM, "--save", str(path), stdin="\n".join(typed) + "\n")
    assert out.returncode == 0 and "Traceback" not in out.stderr
    state = record.replay(record.load(path))
    assert not state.is_round_over() and len(state.moves) >= 5


def test_hotseat_hides_between_turns() -> None:
    out = run("play", "twenty", "--hotseat", "--seed", "3", stdin="\n")
    assert out.returncode == 0 and "Pass the keyboard to Player 1" in out.stdout


def test_replay_json_ok_and_invalid(data_dir: Path, tmp_path: Path) -> None:
    out = run("replay", str(data_dir / "twenty-illustrative.json"), "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {
        "ok": True, "rounds": [[60, 59], [22, 51]], "totals": [82, 110], "complete": True, "winners": [1],
    }
    bad = json.loads((data_dir / "twenty-illustrative.json").read_text())
    bad["rounds"][1]["moves"][9] = "play 2S"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run("replay", str(path), "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["ok"] is False and (result["round"], result["move"]) == (2, 10)
    out = run("replay", str(path))
    assert out.returncode == 1 and "round 2, move 10" in out.stderr and "Traceback" not in out.stderr


def test_replay_prints_the_match(data_dir: Path) -> None:
    out = run("replay", str(data_dir / "twenty-illustrative.json"))
    assert out.returncode == 0
    assert "Bertha scores 10 for Exact Twenty" in out.stdout and "Bertha wins the match (" in out.stdout


def test_replay_missing_file(tmp_path: Path) -> None:
    out = run("replay", str(tmp_path / "none.json"))
    assert out.returncode == 1 and "cannot read" in out.stderr


def test_hint_during_play_and_from_a_record(tmp_path: Path) -> None:
    path = tmp_path / "part.json"
    out = run(*VS_RANDOM, "--save", str(path),
              stdin="hint\nquit\n")
    assert out.returncode == 0 and "for you than your opponent, give or take" in out.stdout
    out = run("hint", str(path))
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if "for you than your opponent" in line]
    assert 1 <= len(lines) <= 3 and all(line.strip().startswith("play ") for line in lines)
    assert bots.HINT_LEGEND in out.stdout
    out = run("hint", str(path), "--seat", "1")
    assert out.returncode == 1 and out.stderr.strip() == (
        "error: You (seat 0) are to move (play); Computer (random)'s next decision depends on that move")


def test_arena_prints_a_table_and_json(tmp_path: Path) -> None:
    out = run("arena", "twenty", "--players", "heuristic,random", "--deals", "3")
    assert out.returncode == 0, out.stderr
    assert "heuristic" in out.stdout and "95% CI" in out.stdout and "by seat" in out.stdout
    out = run("arena", "twenty", "--players", "heuristic,random", "--deals", "2", "--json", "--save", str(tmp_path))
    data = json.loads(out.stdout)
    assert [p["player"] for p in data["stats"]] == ["heuristic", "random"]
    assert len(data["results"]) == 4 and len(list(tmp_path.glob("*.json"))) == 4
    out = run("arena", "twenty", "--players", "random")
    assert out.returncode == 2 and "needs 2 players" in out.stderr
