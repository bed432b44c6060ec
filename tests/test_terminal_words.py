"""``parlour play`` and ``parlour replay`` in plain words, through the real entry point:
the person at the keyboard is "you", everyone else is named, plurals agree; the card you
drew and a new hand dealt are said; examples name cards you hold; a face card is not
thrown away by a card typed alone without a question; the replay says who made each move.

Each match is played in the test first (same seed, same bots, a fixed choice for the
person), so the keyboard input is known in advance and every expected sentence is exact.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from conftest import run_parlour
from parlour import bots, games
from parlour.cards import Card
from parlour.game import Move, State
from parlour.match import bot_rng, discard_question, face_card_thrown_away
from parlour.narrate import card_text

NAMES = ["You", "Computer (random)"]
Choice = Callable[[State], Move]
WRONG = re.compile(r"\bYou('s| (?!us\b)\w+s\b)|\b1 (cards|miners|silver bars|locked vaults|turns)\b")
""""You's hand", "You scores", "1 cards": what the person must never read."""


def first_legal(state: State) -> Move:
    return sorted(state.legal_moves(), key=str)[0]


def script(game_id: str, seed: int, moves: int | None = None, choose: Choice = first_legal) -> tuple[list[str], State]:
    """The keyboard input of a person (seat 0) against ``random`` who makes ``moves`` moves
    (all of the match if None), and the match as it then stands (at the person's next turn)."""
    game = games.get(game_id)
    state = game.new_match(seed=seed, names=NAMES)
    bot, rng = bots.make("random"), bot_rng(seed, 1)
    typed: list[str] = []
    while not state.is_match_over():
        seat = state.current_player()
        if seat == 0 and moves is not None and len(typed) == moves:
            break  # the person's next turn, where the input will stop
        if seat is None:
            state.next_round()
        elif seat == 1:
            state.apply(bot.choose(state.observation(1), state.legal_moves(), rng))
        else:
            move = choose(state)
            typed.append(str(move))
            state.apply(move)
    return typed, state


def play(game_id: str, seed: int, typed: list[str], *then: str) -> str:
    out = run_parlour("play", game_id, "--players", "human,random", "--seed", str(seed),
                      stdin="\n".join([*typed, *then, "quit"]) + "\n", columns=120)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr, out.stdout[-2000:] + out.stderr
    return out.stdout


def test_a_whole_match_of_twenty_speaks_to_you_and_names_the_others() -> None:
    typed, state = script("twenty", 3)
    said = play("twenty", 3, typed)
    assert not WRONG.search(said), WRONG.search(said)
    assert "You play " in said and "Computer (random) plays " in said
    assert "You are dealt a new hand of five" in said  # the new hand is announced, not only shown
    assert "Computer (random) is dealt a new hand of five" in said
    for past in state.history:
        for event in past.events:
            assert event.describe(NAMES, 0) in said
            if event.seat == 0:
                assert event.describe(NAMES, 0).startswith("You ")
    assert re.search(r"You score \d+ for ", said) and re.search(r"Computer \(random\) scores \d+ for ", said)


def test_minus_twenty_tells_you_the_card_you_drew_and_examples_name_your_cards() -> None:
    typed, state = script("minus-twenty", 5, moves=6)
    said = play("minus-twenty", 5, typed)
    assert not WRONG.search(said), WRONG.search(said)
    replay = games.get("minus-twenty").new_match(seed=5, names=NAMES)
    drawn: list[list[Card]] = [[], []]
    for move in (m for r in [*state.history, state] for m in r.moves):
        if move.verb == "draw":
            drawn[replay.current_player() or 0].append(replay.stock[replay.stock_pos])  # type: ignore[attr-defined]
        replay.apply(move)
    assert drawn[0] and drawn[1]
    for card in drawn[0]:
        assert f"You draw {card_text(card)} from the draw pile" in said
    # The other's card is not said.
    assert said.count("Computer (random) draws a card from the draw pile") == len(drawn[1])
    examples = re.findall(r"^Your hand: ([^\n]*)\nPlay a card onto your meld \(play (\w+)\)", said, re.M)
    assert len(examples) == 4  # three turns played, and the prompt of the fourth
    for hand, example in examples:
        assert example in hand.split(), (example, hand)


def test_silver_bars_tells_you_the_card_drawn_after_your_play() -> None:
    typed, state = script("silver-bars", 2, moves=3)
    said = play("silver-bars", 2, typed)
    assert not WRONG.search(said), WRONG.search(said)
    told = re.findall(r"\bYou [a-z]+ [^\n]* and draw ((?:10|[2-9AJQK])[♣♦♥♠]|Joker)  \(", said)
    replay = games.get("silver-bars").new_match(seed=2, names=NAMES)
    drawn = []
    for move in state.moves:
        if replay.current_player() == 0:
            drawn.append(card_text(replay.stock[replay.stock_pos]))  # type: ignore[attr-defined]
        replay.apply(move)
    assert told == drawn and len(drawn) == 3


def _face_then_number(state: State) -> tuple[Card, Card] | None:
    """A face card in seat 0's hand and a number card of its suit (to play first)."""
    hand = state.zones()["hand 0"]
    for face in hand:
        if face.rank in (11, 12, 13):
            numbers = [c for c in hand if c.suit == face.suit and 2 <= c.rank <= 10]
            if numbers and Move("play", (min(numbers, key=lambda c: c.rank),)) in state.legal_moves():
                return face, min(numbers, key=lambda c: c.rank)
    return None


def test_a_face_card_typed_alone_that_can_only_be_discarded_asks_first() -> None:
    game = games.get("minus-twenty")
    seed = next(s for s in range(100) if (st := game.new_match(seed=s, names=NAMES)).current_player() == 0
                and _face_then_number(st))
    face, number = _face_then_number(game.new_match(seed=seed, names=NAMES))  # type: ignore[misc]
    chosen = iter([Move("play", (number,)), Move("draw", ())])
    typed, state = script("minus-twenty", seed, moves=2, choose=lambda s: next(chosen))
    assert state.current_player() == 0 and Move("play", (face,)) not in state.legal_moves()
    bare = str(face).lower()
    said = play("minus-twenty", seed, typed, bare, "n", bare, "y")
    question = f"{card_text(face)} can only be discarded now: discard it? [y/N]"
    assert said.count(question) == 2
    kept, discarded = said.split(question)[1:]
    assert kept.lstrip().startswith("Kept.")
    assert discarded.lstrip().startswith(f"You discard {card_text(face)} onto the ")
    # The whole notation is taken at its word, and a number card is not asked about.
    assert "discard it?" not in play("minus-twenty", seed, [*typed, f"discard {face}"])


def test_the_in_game_hint_explains_its_numbers() -> None:
    said = play("twenty", 3, [], "hint")
    assert "thinking (hard bot)" in said
    assert bots.HINT_LEGEND in " ".join(said.split())


def test_replay_says_who_made_each_move_and_what_happened(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "match.json"
    assert run_parlour("play", "twenty", "--players", "random,random", "--seed", "8", "--names", "Ann,Bo",
                       "--save", str(path)).returncode == 0
    out = run_parlour("replay", str(path), columns=200)
    assert out.returncode == 0, out.stderr
    numbered = re.findall(r"^\s*(\d+)\. (Ann|Bo) plays (?:10|[2-9AJQK])[♣♦♥♠]: the tally .*\(play \w+\)$",
                          out.stdout, re.M)
    assert numbered and numbered[0][0] == "1"
    assert re.search(r"^\s+(Ann|Bo) scores \d+ for ", out.stdout, re.M)
    assert re.search(r"^\s+(Ann|Bo) is dealt a new hand of five$", out.stdout, re.M)
    assert not WRONG.search(out.stdout)


def test_replay_of_a_record_played_at_the_keyboard_speaks_to_you(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "match.json"
    typed, _ = script("twenty", 3)
    out = run_parlour("play", "twenty", "--players", "human,random", "--seed", "3", "--save", str(path),
                      stdin="\n".join(typed) + "\n")
    assert out.returncode == 0, out.stderr
    replayed = run_parlour("replay", str(path), columns=200).stdout
    assert re.search(r"^\s*\d+\. You play ", replayed, re.M) and re.search(r"^\s+You score \d+", replayed, re.M)
    assert not WRONG.search(replayed), WRONG.search(replayed)


def test_the_one_rule_of_asking_before_a_face_card_is_thrown_away() -> None:
    """The terminal's question and the web's ``resolved.confirm`` come from one rule (match.face_card_thrown_away)."""
    discard_king = Move.parse("discard KD")
    assert face_card_thrown_away("kd", discard_king) == Card.parse("KD")
    assert face_card_thrown_away("play kd", discard_king) == Card.parse("KD")  # typed as a play, read as a discard
    assert face_card_thrown_away("discard kd", discard_king) is None  # said in full: no question
    assert face_card_thrown_away("7d", Move.parse("discard 7D")) is None  # not a face card
    assert face_card_thrown_away("kd", Move.parse("play KD")) is None  # not thrown away
    assert discard_question(Card.parse("KD")) == "K♦ can only be discarded now: discard it?"
