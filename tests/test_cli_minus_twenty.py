"""Minus Twenty through the real ``parlour`` entry point: rules, play at the
terminal (against the computer and hot-seat), records and replay."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_parlour
from parlour import bots, games, record
from parlour.match import bot_rng, play_bots

run = run_parlour


def test_games_lists_minus_twenty() -> None:
    out = run("games")
    assert out.returncode == 0 and "minus-twenty" in out.stdout and "Minus Twenty" in out.stdout
    assert "stall_limit=60" in out.stdout


def test_rules() -> None:
    out = run("rules", "minus-twenty")
    assert out.returncode == 0
    for words in ("Stall rule", "stall_limit", "target_score", "best_of", "hand_size", "(27 − 20) × 3 + 20 = 41",
                  "did not start the last round", "100 rounds"):
        assert words in out.stdout, words


def test_bad_option_combination_is_one_line() -> None:
    out = run("play", "minus-twenty", "--players", "random,random", "-o", "target_score=50", "-o", "best_of=3")
    assert out.returncode == 2 and "cannot both be set" in out.stderr and "Traceback" not in out.stderr
    out = run("play", "minus-twenty", "--players", "random,random", "-o", "hand_size=30")
    assert out.returncode == 2 and "at most 20" in out.stderr


def test_bots_only_match_with_options_writes_a_record(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = run("play", "minus-twenty", "--players", "random,random", "--seed", "7", "-o", "best_of=3",
              "-o", "stall_limit=10", "--save", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    assert data["game"] == "minus-twenty" and data["options"] == {"best_of": 3, "stall_limit": 10}
    state = record.replay(record.load(path))
    assert state.is_match_over()
    again = play_bots(games.get("minus-twenty"), [bots.make("random"), bots.make("random")], seed=7,
                      options={"best_of": 3, "stall_limit": 10}, names=state.names)
    assert again.round_scores() == state.round_scores()


def human_moves(seed: int, human: int) -> tuple[list[str], str]:
    """What a person at ``human`` would type: discard the first card of the sorted hand,
    then draw from the draw pile.  Also the first card of that person's hand."""
    game = games.get("minus-twenty")
    state = game.new_match(seed=seed, names=["You", "Computer (random)"])
    bot = bots.make("random")
    rng = bot_rng(seed, 1 - human)
    first_card = str(state.hands[human][0])  # type: ignore[attr-defined]
    typed = []
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                return typed, first_card
            state.next_round()
            continue
        if seat == human:
            move = min(state.legal_moves(), key=lambda m: (m.verb != "discard", str(m)))
            typed.append(str(move).lower())
        else:
            move = bot.choose(state.observation(seat), state.legal_moves(), rng)
        state.apply(move)


def test_interactive_game_against_the_computer(tmp_path: Path) -> None:
    typed, card = human_moves(seed=21, human=0)
    junk = ["", "hello", "draw", card.lower(), "take 7h", "moves", "help"]
    path = tmp_path / "game.json"
    out = run("play", "minus-twenty", "--players", "human,random", "--seed", "21", "--save", str(path),
              stdin="\n".join(junk + typed) + "\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "Unknown move 'hello'; Minus Twenty moves are: play <card>, discard <card>, draw, take <suit>" in out.stdout
    assert "must first play or discard a card, then draw" in out.stdout
    assert f"could mean 'play {card}' or 'discard {card}'" in out.stdout
    assert "Expected take <suit>" in out.stdout
    assert "Legal moves: play" in out.stdout
    for words in ("your melds", "discard pile (top last)", "if the round ended now", "Draw pile: ",
                  "Your hand:", "stall count", "Round 1 of 3"):
        assert words in out.stdout, words
    assert "scores" in out.stdout and "meld:" in out.stdout  # the round's meld scores are announced
    state = record.replay(record.load(path))
    assert state.is_match_over() and len(state.history) == 2


def test_quitting_midway_saves_the_unfinished_match(tmp_path: Path) -> None:
    typed, _ = human_moves(seed=21, human=0)
    path = tmp_path / "part.json"
    out = run("play", "minus-twenty", "--players", "human,random", "--seed", "21", "--save", str(path),
              stdin="\n".join(typed[:5]) + "\nquit\n")
    assert out.returncode == 0 and "You left the table." in out.stdout
    state = record.replay(record.load(path))
    assert not state.is_round_over() and len(state.moves) >= 5


def test_hotseat_hides_between_turns() -> None:
    out = run("play", "minus-twenty", "--hotseat", "--seed", "3", stdin="\n")
    assert out.returncode == 0 and "Pass the keyboard to Player" in out.stdout


def test_replay_json_of_the_golden_records(data_dir: Path) -> None:
    expected = {
        "take": ([[10, -15]], [10, -15], [0]),
        "bonus": ([[41, 24]], [41, 24], [0]),
        "stall": ([[-39, -28]], [-39, -28], [1]),
        "starter": ([[-7, -7], [20, 0], [0, 8]], [13, 1], [0]),
    }
    for name, (rounds, totals, winners) in expected.items():
        out = run("replay", str(data_dir / f"minus-twenty-{name}.json"), "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {
            "ok": True, "rounds": rounds, "totals": totals, "complete": True, "winners": winners,
        }


def test_replay_prints_the_meld_scores(data_dir: Path) -> None:
    out = run("replay", str(data_dir / "minus-twenty-bonus.json"))
    assert out.returncode == 0
    assert "Ann scores 41 for their hearts meld: (27 − 20) × 3 + 20" in out.stdout
    assert "Ann wins the match (" in out.stdout


def test_replay_invalid_record_names_round_and_move(data_dir: Path, tmp_path: Path) -> None:
    bad = json.loads((data_dir / "minus-twenty-take.json").read_text())
    bad["rounds"][0]["moves"][11] = "take C"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run("replay", str(path), "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout) == {
        "ok": False, "round": 1, "move": 12,
        "error": "7♣ was discarded this turn and may not be taken back",
    }
    out = run("replay", str(path))
    assert out.returncode == 1 and "round 1, move 12" in out.stderr and "Traceback" not in out.stderr
