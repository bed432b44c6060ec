"""Progression through the real ``parlour`` entry point: rules, bots-only
matches, a person against two bots, two people sharing the keyboard with a
bot, options, and replays."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import run_parlour
from parlour import bots, games, record
from parlour.cards import sort_hand
from parlour.match import bot_rng, play_bots, resolve_shorthand

PROGRESSION = games.get("progression")


run = run_parlour


def test_games_lists_progression_for_three() -> None:
    out = run("games")
    assert out.returncode == 0
    line = next(row for row in out.stdout.splitlines() if "progression" in row)
    assert "Progression" in line and "3" in line


def test_rules() -> None:
    out = run("rules", "progression")
    assert out.returncode == 0
    for words in ("face cards", "private stack", "public stack", "takeback", "stall_limit", "target_score",
                  "(23 − 12) × 3", "share the win"):
        assert words in out.stdout, words


def test_wrong_number_of_players_is_one_line() -> None:
    out = run("play", "progression", "--players", "random,random")
    assert out.returncode == 2 and "Progression needs 3 players" in out.stderr and "Traceback" not in out.stderr
    out = run("play", "progression", "--players", "random,random,random", "-o", "target_score=0")
    assert out.returncode == 2 and "option 'target_score'" in out.stderr and "Traceback" not in out.stderr


def test_bots_only_match_writes_a_record(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = run("play", "progression", "--players", "random,random,random", "--seed", "7", "--save", str(path))
    assert out.returncode == 0, out.stderr
    state = record.replay(record.load(path))
    assert state.is_match_over() and len(state.history) == 5
    again = play_bots(PROGRESSION, [bots.make("random")] * 3, seed=7, names=state.names)
    assert again.round_scores() == state.round_scores()
    assert "wins the match" in out.stdout or "win the match" in out.stdout or "drawn" in out.stdout


def test_options_reach_the_game_and_the_record(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = run("play", "progression", "--players", "random,random,random", "--seed", "3", "--save", str(path),
              "-o", "rounds=2", "-o", "takeback=false", "-o", "stall_limit=5")
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    assert data["options"] == {"rounds": 2, "takeback": False, "stall_limit": 5}
    state = record.replay(record.from_data(data))
    assert state.is_match_over() and len(state.history) == 1


def simulate(
    seed: int, seats: list[str], names: list[str], options: dict[str, Any], limit: int | None = None
) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Play as the terminal table would, with people who choose as :class:`Person` does.

    Returns what the people type (the answers to "pass the keyboard" included),
    each picture's (name, hand) in order, and to whom the keyboard is passed.
    With ``limit``, the people stop (end of input) after that many moves.
    """
    state = PROGRESSION.new_match(seed=seed, options=options, names=names)
    random_bot = bots.make("random")
    rngs = [bot_rng(seed, seat) for seat in range(3)]
    humans = [i for i, s in enumerate(seats) if s == "human"]
    person = Person()
    typed: list[str] = []
    shown: list[tuple[str, str]] = []
    passes: list[str] = []
    last_human = None
    turns = 0
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                break
            state.next_round()
            continue
        if seats[seat] == "human":
            if len(humans) > 1 and last_human != seat:
                passes.append(names[seat])
            if limit is not None and turns == limit:
                break
            if len(humans) > 1 and last_human != seat:
                typed.append("")  # "Pass the keyboard to ... and press Enter"
            last_human = seat
            shown.append((names[seat], " ".join(str(c) for c in sort_hand(state.hands[seat]))))
            text = person.choose(state)
            typed.append(text)
            state.apply(resolve_shorthand(state, text))
            turns += 1
        else:
            state.apply(random_bot.choose(state.observation(seat), state.legal_moves(), rngs[seat]))
    return typed, shown, passes


class Person:
    """A simple person: the first legal move in alphabetical order, except that the
    first time they could take from a public stack, they do, typing only the suit."""

    def __init__(self) -> None:
        self.took = False

    def choose(self, state: Any) -> str:
        moves = sorted(str(m) for m in state.legal_moves())
        takes = [m for m in moves if m.startswith("take")]
        if takes and not self.took:
            self.took = True
            return takes[0][-1].lower()
        return moves[0]


def test_a_person_against_two_bots(tmp_path: Path) -> None:
    names = ["You", "Computer 1 (random)", "Computer 2 (random)"]
    seats = ["human", "random", "random"]
    typed, shown, _ = simulate(21, seats, names, {"rounds": 1})
    assert any(len(t) == 1 for t in typed)  # the shorthand take was typed
    first_hand = shown[0][1].split()
    junk = ["", "hello", "take H", "play ZZ", "moves", "help", first_hand[0].lower()]
    path = tmp_path / "game.json"
    out = run("play", "progression", "--players", "human,random,random", "--seed", "21", "-o", "rounds=1",
              "--save", str(path), stdin="\n".join(junk + typed) + "\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Traceback" not in text + out.stderr
    assert "Unknown move 'hello'; Progression moves are: play <card>, public <card>, draw, take <suit>" in text
    assert "You must play a card first ('play <card>' or 'public <card>'), then draw" in text
    assert "neither a card" in text
    assert "Legal moves: play" in text
    assert f"could mean 'play {first_hand[0]}' or 'public {first_hand[0]}'" in text
    for words in ("Public stacks", "Private stacks", "draw pile 37", "Your hand:", "stacks now",
                  "You: play a card", "You: now draw"):
        assert words in text, words
    assert re.findall(r"Your hand: (.*)", text) == [hand for _, hand in shown]
    state = record.replay(record.load(path))
    assert state.is_match_over()
    assert "wins the match" in text or "win the match" in text or "drawn" in text


def test_hot_seat_two_people_and_a_bot_hides_hands_between_turns() -> None:
    names = ["Player 1", "Player 2", "Player 3 (random)"]
    seats = ["human", "human", "random"]
    typed, shown, expected_passes = simulate(5, seats, names, {}, limit=24)
    out = run("play", "progression", "--players", "human,human,random", "--seed", "5",
              stdin="\n".join(typed) + "\n")
    assert out.returncode == 0, out.stderr
    assert "You left the table." in out.stdout
    # Each person is asked for the keyboard whenever the person to move changes,
    # and then sees only their own hand.
    passes = re.findall(r"Pass the keyboard to (Player \d)", out.stdout)
    assert passes == expected_passes and {"Player 1", "Player 2"} <= set(passes)
    segments = out.stdout.split("Pass the keyboard to ")[1:]
    hands = iter(shown)
    for segment in segments:
        owner = segment[: len("Player 1")]
        for hand in re.findall(r"Your hand: (.*)", segment):
            name, expected = next(hands)
            assert (name, hand) == (owner, expected)
    assert next(hands, None) is None


def test_hotseat_flag_gives_three_people() -> None:
    out = run("play", "progression", "--hotseat", "--seed", "3", stdin="\n")
    assert out.returncode == 0 and re.search(r"Pass the keyboard to Player [123]", out.stdout)


def test_replay_json_and_text(data_dir: Path) -> None:
    out = run("replay", str(data_dir / "progression-six-rounds.json"), "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {
        "ok": True, "rounds": [[-20, -30, -50], [1, 2, 1], [33, 35, -30], [2, 0, 7], [8, -20, 7], [0, 37, 0]],
        "totals": [24, 24, -65], "complete": True, "winners": [0, 1],
    }
    out = run("replay", str(data_dir / "progression-six-rounds.json"))
    assert out.returncode == 0 and "Ada and Ben win the match (" in out.stdout
    assert "Ben scores 35 for their spades stack" in " ".join(out.stdout.split())


def test_replay_of_the_invalid_record(data_dir: Path) -> None:
    path = str(data_dir / "progression-invalid-face-after-number.json")
    out = run("replay", path, "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["ok"] is False and (result["round"], result["move"]) == (2, 31)
    assert "A♦ (value 0) may go on Ada's private diamonds stack only if not lower" in result["error"]
    out = run("replay", path)
    assert out.returncode == 1 and "round 2, move 31" in out.stderr and "Traceback" not in out.stderr
