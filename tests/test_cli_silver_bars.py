"""100 Silver Bars through the real ``parlour`` entry point: rules, bots-only
matches, a person playing in the terminal, and replays of golden records."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from conftest import run_parlour
from parlour import bots, games, narrate, record
from parlour.cards import Card
from parlour.game import Move, State
from parlour.games.silver_bars import BAR, KIND
from parlour.match import bot_rng, play_bots

GAME = games.get("silver-bars")
PREFERENCE = {"lock": 3, "play": 2, "resolve": 1, "discard": 0}
VS_RANDOM = ("play", "silver-bars", "--players", "human,random", "--seed", "21")


run = functools.partial(run_parlour, columns=200, timeout=180)


def test_games_and_rules() -> None:
    out = run("games")
    assert out.returncode == 0 and "silver-bars" in out.stdout
    out = run("rules", "silver-bars")
    assert out.returncode == 0
    for words in ("Perfect Round", "lo thief", "worker's strike", "max_rounds", "mining_packs", "resolve"):
        assert words in out.stdout


def test_bad_option_is_one_line() -> None:
    out = run("play", "silver-bars", "--players", "random,random", "--option", "rubble=lots")
    assert out.returncode == 2 and "option 'rubble' must be a whole number" in out.stderr
    assert "Traceback" not in out.stderr
    out = run("play", "silver-bars", "--players", "random,random", "--option", "shovels=2", "--option", "hoard=1")
    assert out.returncode == 2 and "silver-bars has no option 'hoard'" in out.stderr


def test_bots_only_match_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    out = run("play", "silver-bars", "--players", "random,random", "--seed", "7", "--save", str(path))
    assert out.returncode == 0, out.stderr
    assert "wins the match" in out.stdout
    state = record.replay(record.load(path))
    assert state.is_match_over() and max(state.totals) >= 100
    again = play_bots(GAME, [bots.make("random"), bots.make("random")], seed=7, names=state.names)
    assert again.round_scores() == state.round_scores()


def choose(state: State) -> Move:
    """A simple person: lock when possible, else play, else resolve or discard."""
    return max(state.legal_moves(), key=lambda m: (PREFERENCE[m.verb], str(m)))


def human_session(seed: int, human: int = 0) -> tuple[list[str], list[str]]:
    """What a person at seat ``human`` types to play a whole match against the
    random bot, and the hand they hold at their first turn."""
    state = GAME.new_match(seed=seed, names=["You", "Computer (random)"])
    bot = bots.make("random")
    rng = bot_rng(seed, 1 - human)
    typed: list[str] = []
    first_hand: list[str] = []
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                return typed, first_hand
            state.next_round()
            continue
        if seat == human:
            if not first_hand:
                first_hand = state.observation(seat)["hand"]
            move = choose(state)
            # Every other play is typed as shorthand, without the verb: "4h 2".
            if move.verb == "play" and len(move.args) > 1 and len(typed) % 2:
                typed.append(" ".join(str(a) for a in move.args).lower())
            else:
                typed.append(str(move))
        else:
            move = bot.choose(state.observation(seat), state.legal_moves(), rng)
        state.apply(move)


def test_interactive_match_against_the_computer(tmp_path: Path) -> None:
    typed, first_hand = human_session(seed=21)
    bar = next(c for c in first_hand if KIND[Move.parse("x " + c).args[0]] == BAR)  # type: ignore[index]
    junk = ["hello", "play 8C", "play JC 2", "play QS 2", "lock 7", bar.lower(), "moves", "help"]
    path = tmp_path / "game.json"
    out = run(*VS_RANDOM, "--save", str(path), stdin="\n".join(junk + typed) + "\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Traceback" not in text + out.stderr
    assert "Unknown move 'hello'; 100 Silver Bars moves are: play <card>, play <card> <vault>" in text
    assert "A miner goes on one of your vaults: play 8♣ <vault>" in text
    assert "A lo thief takes from their vault into yours: play J♣ <their vault> <your vault>" in text
    assert "The worker's strike takes no vault: play Q♠" in text
    assert "Vaults are numbered 1 to 5 from your left, not 7" in text
    assert f"'{bar.lower()}' could mean 'play {bar} " in text and f"'discard {bar}': type the whole move" in text
    assert "Legal moves: " in text and "lock <vault>" in text
    # The picture: both players' vaults, numbered, the piles, the hand and where its cards go.
    for words in ("vault 1", "vault 5", "locks left 5", "Draw pile", "Your hand:", "Where your cards can go:",
                  "any bar", "Computer (random) — locks left"):
        assert words in text
    assert f"{bar} → vault 1, 2, 3, 4, 5" in text
    state = record.replay(record.load(path))
    assert state.is_match_over()
    assert "You win the match" in text or "Computer (random) wins the match" in text


def test_card_not_in_hand_gets_a_reason_and_a_new_prompt() -> None:
    typed, first_hand = human_session(seed=21)
    absent = next(str(c) for c in GAME.deck({}) if str(c) not in first_hand and KIND[c] == BAR)
    out = run(*VS_RANDOM, stdin="\n".join([f"discard {absent}", *typed[:3]]) + "\n")
    assert out.returncode == 0
    assert f"{narrate.card_text(Card.parse(absent))} is not in your hand (you hold " in out.stdout
    assert "You's" not in out.stdout


def test_quitting_midway_saves_the_unfinished_match(tmp_path: Path) -> None:
    typed, _ = human_session(seed=21)
    path = tmp_path / "part.json"
    out = run(*VS_RANDOM, "--save", str(path), stdin="\n".join(typed[:4]) + "\n")
    assert out.returncode == 0 and "Traceback" not in out.stderr
    state = record.replay(record.load(path))
    assert not state.is_round_over() and len(state.moves) >= 7


def test_hotseat_hides_between_turns() -> None:
    out = run("play", "silver-bars", "--hotseat", "--seed", "3", stdin="\n")
    assert out.returncode == 0 and "Pass the keyboard to Player" in out.stdout


def test_replay_json_of_the_tied_match_and_of_an_invalid_record(data_dir: Path) -> None:
    out = run("replay", str(data_dir / "silver-bars-tie-at-100.json"), "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {
        "ok": True, "rounds": [[60, 40], [40, 60], [16, 0]], "totals": [116, 100], "complete": True, "winners": [0],
    }
    out = run("replay", str(data_dir / "silver-bars-invalid-thief-not-lowest.json"), "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["ok"] is False and (result["round"], result["move"]) == (1, 7)
    out = run("replay", str(data_dir / "silver-bars-invalid-deal-with-a-five.json"))
    assert out.returncode == 1 and "round 2, move 0: deal: 5H is a lock" in out.stderr
    assert "Traceback" not in out.stderr


def test_replay_prints_the_perfect_round(data_dir: Path) -> None:
    out = run("replay", str(data_dir / "silver-bars-perfect-round.json"))
    assert out.returncode == 0
    assert "Ann ships 80 silver bars: a Perfect Round!" in out.stdout
    assert "The match is unfinished." in out.stdout
