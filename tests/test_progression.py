"""Progression: every rule, option and numeric check of RULINGS.md, the golden
records (face-only stacks, a take-back, the 12/13 boundary, a ×5 multiplier,
the seat rotation over six rounds, the stall rule, an invalid record), three-seat
observations and determinize, and the shared conformance check with 3 seats."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import conformance, games, narrate, record
from parlour.cards import Card, cards, standard_deck
from parlour.game import IllegalMoveError, Move, MoveSyntaxError, OptionError, State
from parlour.games.progression import (
    ROUND_CAP,
    VALUE,
    ProgressionState,
    is_face,
    stack_kind,
    stack_reckoning,
    stack_score,
)

PROGRESSION = games.get("progression")
NAMES = ["Ada", "Ben", "Cleo"]


def make_deal(hand0: str, hand1: str, hand2: str, stock: str = "") -> dict[str, list[Any]]:
    """A full, valid deal with the given cards in front; the rest of the pack follows in order."""
    hands = [cards(hand0), cards(hand1), cards(hand2)]
    used = [c for h in hands for c in h] + cards(stock)
    rest = [c for c in standard_deck() if c not in used]
    return {"hands": hands, "stock": cards(stock) + rest}


DEAL = make_deal("KD 5C 9C 2H 8S", "4D JC TS 6H 7S", "AS 2S 3C QD 8H", stock="4C 7D 9S 5S")


def new(deal: dict[str, list[Any]] = DEAL, first: int = 0, **options: object) -> ProgressionState:
    state = PROGRESSION.new_match(deal=deal, first=first, options=options, names=NAMES)
    assert isinstance(state, ProgressionState)
    return state


def play(state: State, *moves: str) -> None:
    for text in moves:
        state.apply(state.parse_move(text))


def legal(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def stack(text: str) -> list[Card]:
    return cards(text)


# -- cards and values ---------------------------------------------------------------

def test_deck_and_values() -> None:
    deck = PROGRESSION.deck({})
    assert len(deck) == 52 and len(set(deck)) == 52 and not any(c.is_joker for c in deck)
    faces = [c for c in deck if is_face(c)]
    assert sorted(str(c) for c in faces) == sorted(f"{r}{s}" for r in "AJQK" for s in "CDHS")
    assert all(VALUE[c] == 0 for c in faces)
    assert [VALUE[Card.parse(f"{r}H")] for r in "23456789T"] == [2, 3, 4, 5, 6, 7, 8, 9, 10]


# -- scoring: the numeric checks of RULINGS.md, and the cases around them -------------

@pytest.mark.parametrize(
    ("cards_text", "expected"),
    [
        ("KH JH 2H 6H 7H 8H", 33),  # total 23 with two faces: (23 - 12) × 3 = 33
        ("AS QS", -30),  # two face cards alone: -10 × (2 + 1) = -30
        ("KC 5C 7C", 0),  # total 12: not over 12, so 0 (the face multiplies nothing)
        ("AD JD QD KD 9D TD", 35),  # total 19 with all four faces: (19 - 12) × 5 = 35
    ],
)
def test_rulings_checks(cards_text: str, expected: int) -> None:
    assert stack_score(stack(cards_text)) == expected


@pytest.mark.parametrize(
    ("cards_text", "expected"),
    [
        ("", 0),  # an empty stack scores nothing
        ("KH", -20),  # -10 × 2
        ("AH JH QH", -40),  # -10 × 4
        ("AH JH QH KH", -50),  # the largest penalty: -10 × 5
        ("2H", 0),  # total 2: within 1–12
        ("3H 9H", 0),  # total 12: the boundary still scores 0
        ("4H 9H", 1),  # total 13: (13 - 12) × 1
        ("JH 4H 9H", 2),  # total 13 with a face: (13 - 12) × 2
        ("2H 3H 4H 5H 6H 7H 8H 9H TH", 42),  # total 54: (54 - 12) × 1
        ("AH JH QH KH 2H 3H 4H 5H 6H 7H 8H 9H TH", 210),  # the whole suit: (54 - 12) × 5
    ],
)
def test_stack_scores_around_the_boundaries(cards_text: str, expected: int) -> None:
    assert stack_score(stack(cards_text)) == expected


def test_stack_reckoning_and_kind_explain_the_score() -> None:
    assert stack_reckoning(stack("KH JH 2H 6H 7H 8H")) == "(23 − 12) × 3 = 33"
    assert stack_reckoning(stack("AS QS")) == "2 face cards alone: −10 × 3 = −30"
    assert stack_reckoning(stack("KC 5C 7C")) == "total 12, not over 12: 0"
    assert [stack_kind(stack(t)) for t in ("QS", "3H 9H", "4H 9H")] == [
        "Face Cards Only", "Twelve or Under", "Over Twelve",
    ]


# -- the deal ---------------------------------------------------------------------------

def test_random_deal_gives_five_each_and_37_to_draw() -> None:
    state = PROGRESSION.new_match(seed=11)
    assert isinstance(state, ProgressionState)
    assert [len(h) for h in state.hands] == [5, 5, 5] and len(state.stock) == 37
    assert state.observation(0)["stock_count"] == 37
    every = [c for h in state.hands for c in h] + state.stock
    assert sorted(every) == standard_deck()


def test_seed_gives_the_same_deal_everywhere() -> None:
    """Pinned: a seed must give this match on every machine and Python version."""
    state = PROGRESSION.new_match(seed=2026)
    deal = record.to_data(state)["rounds"][0]["deal"]
    assert state.first == 0
    assert deal["hands"] == [["6S", "AS", "8H", "3D", "KD"], ["9H", "8D", "QD", "5D", "9D"],
                             ["5S", "2C", "4D", "7D", "AD"]]
    assert deal["stock"][:3] == ["7C", "AH", "5C"] and len(deal["stock"]) == 37


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "not the 52-card pack: 4D appear(s) more than once"),
        (lambda d: d["stock"].__setitem__(0, Card.parse("JK")), "not the 52-card pack: JK is not used in Progression"),
        (lambda d: d["stock"].pop(), "not the 52-card pack: KS missing"),
        (lambda d: d["hands"][2].append(d["stock"].pop(0)), "three hands of 5 cards, not hands of 5, 5, 6"),
        (lambda d: d["hands"].pop(), "three hands of 5 cards, not hands of 5, 5"),
    ],
)
def test_bad_deals_are_refused_with_a_reason(change: Any, reason: str) -> None:
    deal = make_deal("5C 9C 2H 8S KD", "4D JC TS 6H 7S", "AS 2S 3C QD 8H")
    assert deal["stock"][-1] == Card.parse("KS")
    change(deal)
    with pytest.raises(ValueError) as info:
        PROGRESSION.new_match(deal=deal)
    assert reason in str(info.value)


# -- a turn: play, then draw, clockwise -------------------------------------------------------

def test_a_turn_is_a_play_then_a_draw_by_the_same_player_clockwise() -> None:
    state = new(first=1)
    assert state.current_player() == 1
    play(state, "public 4D")
    assert state.current_player() == 1 and legal(state) == {"draw", "take D"}
    play(state, "draw")
    assert state.current_player() == 2 and state.hands[1][-1] == Card.parse("4C")
    play(state, "play AS", "draw")
    assert state.current_player() == 0
    play(state, "play 5C", "draw")
    assert state.current_player() == 1  # back round the table: 1, 2, 0, 1
    assert [str(m) for m in state.moves] == ["public 4D", "draw", "play AS", "draw", "play 5C", "draw"]


def test_play_options_private_and_public() -> None:
    state = new()
    # Every card can go public; each can start an empty private stack.
    assert legal(state) == {f"{verb} {c}" for verb in ("play", "public") for c in ("KD", "5C", "9C", "2H", "8S")}
    with pytest.raises(IllegalMoveError, match="must play a card first"):
        state.parse_move("draw")
    with pytest.raises(IllegalMoveError, match=r"^Ada must play a card first"):
        state.parse_move("take H")
    with pytest.raises(IllegalMoveError, match=r"^4♦ is not in Ada's hand$") as info:
        state.parse_move("play 4D")
    assert narrate.illegal_text(info.value, 0) == "4♦ is not in your hand (you hold 5♣, 9♣, K♦, 2♥ and 8♠)"
    with pytest.raises(MoveSyntaxError, match="Expected public <card>"):
        state.parse_move("public H")
    with pytest.raises(IllegalMoveError):
        state.apply(Move("public", (int(state.hands[0][0]),)))  # the card's code as a number is no card
    with pytest.raises(MoveSyntaxError, match=r"Expected take <suit>"):
        state.parse_move("take 7H")
    play(state, "play 9C")
    with pytest.raises(IllegalMoveError, match="has played this turn and must now draw"):
        state.parse_move("public 5C")


def test_private_stacks_never_go_down_in_value() -> None:
    # Ada's draws (every third card of the draw pile) bring her AC, 9C and 8C.
    deal = make_deal("KC QC 3C 7C 5C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", stock="AC 2S 3S 9C 4S 5S 8C")
    state = new(deal)
    play(state, "play KC", "draw", "public 2D", "draw", "public 2H", "draw")
    assert {"play QC", "play AC", "play 3C"} <= legal(state)  # faces may follow faces
    play(state, "play QC", "draw", "public 3D", "draw", "public 3H", "draw")
    play(state, "play 3C", "draw", "public 4D", "draw", "public 4H", "draw")
    assert state.hands[0] == cards("7C 5C AC 9C 8C")
    moves = legal(state)
    assert {"play 7C", "play 5C", "play 9C", "play 8C"} <= moves
    assert "play AC" not in moves and "public AC" in moves  # no face after a number
    play(state, "play 7C", "draw", "public 5D", "draw", "public 5H", "draw")
    moves = legal(state)
    assert "play 5C" not in moves and "public 5C" in moves and "play 8C" in moves
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move("play AC")
    assert str(info.value) == (
        "A♣ (value 0) may go on Ada's private clubs stack only if not lower "
        "than any card there (7♣ is worth 7)"
    )
    with pytest.raises(IllegalMoveError, match=r"5♣ \(value 5\) may go .* \(7♣ is worth 7\)"):
        state.apply(state.legal_moves()[0]._replace(verb="play", args=(Card.parse("5C"),)))
    play(state, "play 9C", "draw")
    assert state.private[0][0] == cards("KC QC 3C 7C 9C")
    assert state.floors[0] == [9, 0, 0, 0]
    assert state.observation(2)["private_stacks"][0]["C"] == ["KC", "QC", "3C", "7C", "9C"]


def test_public_stacks_take_anything_in_any_order() -> None:
    deal = make_deal("9C 2C KC 5D 6D", "3C 7D 8D 9D TD", "QC 2H 3H 4H 5H", stock="AC 4C 6C 7C 8C JC")
    state = new(deal)
    play(state, "public 9C", "draw", "public 3C", "draw", "public QC", "draw", "public 2C", "draw")
    assert state.public[0] == cards("9C 3C QC 2C")
    assert state.observation(1)["public_stacks"]["C"] == ["9C", "3C", "QC", "2C"]


def test_draws_take_the_top_of_the_draw_pile_or_of_a_public_stack() -> None:
    state = new()
    play(state, "public KD", "draw")
    assert state.hands[0][-1] == Card.parse("4C") and state.stock_pos == 1
    play(state, "public 4D")
    assert legal(state) == {"draw", "take D"}
    play(state, "take D")  # the top card of the public diamonds: Ben's own 4D
    assert state.hands[1][-1] == Card.parse("4D") and state.public[1] == cards("KD")
    play(state, "public 2S")
    assert legal(state) == {"draw", "take D", "take S"}
    with pytest.raises(IllegalMoveError, match="The public hearts stack is empty"):
        state.parse_move("take H")
    with pytest.raises(IllegalMoveError, match="The public hearts stack is empty"):
        state.apply(Move("take", ("H",)))
    play(state, "take D")  # Cleo takes Ada's KD
    assert state.hands[2][-1] == Card.parse("KD") and state.public[1] == []
    assert state.stock_pos == 1


# -- take-back: the option takeback ----------------------------------------------------------

def test_takeback_allowed_by_default() -> None:
    state = new()
    play(state, "public 8S")
    assert "take S" in legal(state)
    play(state, "take S")
    assert state.hands[0][-1] == Card.parse("8S") and state.public[3] == []
    assert state.observation(1)["known"][0] == ["8S"]  # everyone saw it go back


def test_takeback_false_forbids_taking_back_this_turns_card_only() -> None:
    state = new(takeback=False)
    play(state, "public KD", "draw")
    play(state, "public TS")
    assert legal(state) == {"draw", "take D"}  # not S: Ben's own card of this turn
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move("take S")
    assert str(info.value) == (
        "Ben may not take back 10♠, played to the public spades stack this turn (takeback is off)"
    )
    with pytest.raises(IllegalMoveError, match="may not take back 10♠"):
        state.apply(Move("take", ("S",)))  # apply checks too, not only parse_move
    play(state, "draw")
    play(state, "public 2S")
    assert "take S" not in legal(state)  # Cleo may not take back her own 2S either
    play(state, "take D")
    play(state, "public 5C")
    assert legal(state) == {"draw", "take S"}  # Ada may take Cleo's 2S, not her own 5C
    play(state, "take S")
    assert state.hands[0][-1] == Card.parse("2S")
    obs = state.observation(1)
    assert obs["known"] == [["2S"], [], ["KD"]]


# -- the end of a round -------------------------------------------------------------------------

def test_round_ends_at_once_on_the_last_draw_and_scores_every_stack() -> None:
    state = new()
    plays = 0
    while state.stock_pos < 36:
        seat = state.current_player()
        assert seat is not None
        card = state.hands[seat][0]
        play(state, f"public {card}", "draw")
        plays += 1
    assert not state.is_round_over() and state.observation(0)["stock_count"] == 1
    seat = state.current_player()
    assert seat == 36 % 3
    play(state, f"public {state.hands[seat][0]}")
    play(state, "take D" if state.public[1] else "take C")  # a take does not end it
    assert not state.is_round_over()
    seat = state.current_player()
    assert seat is not None
    play(state, f"public {state.hands[seat][0]}", "draw")
    assert state.is_round_over() and state.current_player() is None and state.legal_moves() == []
    assert state.stock_pos == 37 and state.scores == [0, 0, 0]
    with pytest.raises(IllegalMoveError, match="The round is over"):
        state.parse_move("draw")


def test_round_scores_add_each_private_stack_with_events() -> None:
    deal = make_deal("KH JH 2H 6H 7H", "AS QS 3D 3C 4C", "KC 5C 7C 9D 8D",
                     stock="8H 2S 4D 5D 6D 7D")
    state = new(deal)
    play(state, "play KH", "draw", "play AS", "draw", "play KC", "draw")
    play(state, "play JH", "draw", "play QS", "draw", "play 5C", "draw")
    play(state, "play 2H", "draw", "public 3D", "draw", "play 7C", "draw")
    play(state, "play 6H", "draw", "public 2S", "draw", "play 8D", "draw")
    play(state, "play 7H", "draw", "public 3C", "draw", "play 9D", "draw")
    play(state, "play 8H", "draw")
    while not state.is_round_over():
        seat = state.current_player()
        assert seat is not None
        play(state, f"public {state.hands[seat][0]}", "draw")
    # Ada: K J 2 6 7 8 hearts: (23 - 12) × 3 = 33.
    # Ben: A Q spades alone: -10 × 3 = -30.
    # Cleo: K 5 7 clubs, total 12: 0; 8 9 diamonds, total 17: (17 - 12) × 1 = 5.
    assert state.scores == [33, -30, 5]
    texts = [e.describe(state.names) for e in state.events]
    assert texts == [
        "Ada scores 33 for their hearts stack (K♥ J♥ 2♥ 6♥ 7♥ 8♥: (23 − 12) × 3 = 33)",
        "Ben scores −30 for their spades stack (A♠ Q♠: 2 face cards alone: −10 × 3 = −30)",
        "Cleo scores 0 for their clubs stack (K♣ 5♣ 7♣: total 12, not over 12: 0)",
        "Cleo scores 5 for their diamonds stack (8♦ 9♦: (17 − 12) × 1 = 5)",
    ]
    assert state.totals == [33, -30, 5]


def test_undo_after_the_last_draw_restores_the_round() -> None:
    rng = random.Random(3)
    state = PROGRESSION.new_match(seed=3, options={"rounds": 1})
    while not state.is_round_over():
        state.apply(rng.choice(state.legal_moves()))
    done = state.snapshot()
    scores = list(state.scores)
    last = state.undo()
    assert not state.is_round_over() and state.scores == [0, 0, 0] and state.events == []
    state.apply(last)
    assert state.snapshot() == done and state.scores == scores


# -- the stall rule -----------------------------------------------------------------------------

def test_stall_rule_counts_takes_and_a_draw_resets_it(data_dir: Path) -> None:
    golden = record.replay(record.load(data_dir / "progression-stall.json"))
    assert isinstance(golden, ProgressionState) and golden.deal is not None
    state = new(golden.deal, stall_limit=4)
    play(state, "public KD", "draw", "public 4D", "take D", "play AS", "take D")
    assert state.stall == 2
    play(state, "play 5C", "draw")
    assert state.stall == 0
    play(state, "public TS", "draw", "public 3C", "draw", "play 9C", "take S", "play JC", "take C")
    play(state, "public 8H", "take H")
    assert state.stall == 3 and not state.is_round_over()
    play(state, "public 2H", "take H")
    assert state.is_round_over() and state.stock_pos == 4
    assert state.events[0].kind == "Stall Rule"
    # The same round, written down by hand: progression-stall.json.
    assert golden.snapshot() == state.snapshot()


def test_stall_limit_zero_never_ends_a_round() -> None:
    state = new(stall_limit=0)
    for _ in range(300):  # Ada, Ben and Cleo keep taking back their own cards
        seat = state.current_player()
        assert seat is not None
        card = state.hands[seat][0]
        play(state, f"public {card}", f"take {card.suit}")
    assert not state.is_round_over() and state.stall == 300 and state.stock_pos == 0


def test_default_stall_limit_is_sixty() -> None:
    state = new()
    for turn in range(60):
        assert not state.is_round_over(), turn
        seat = state.current_player()
        assert seat is not None
        card = state.hands[seat][0]
        play(state, f"public {card}", f"take {card.suit}")
    assert state.is_round_over() and state.stall == 60


# -- the match: rotation, rounds, target_score, shared wins ------------------------------------

@pytest.mark.parametrize("first", [0, 1, 2])
def test_start_moves_one_seat_left_each_round(first: int) -> None:
    state = PROGRESSION.new_match(seed=first, first=first)
    rng = random.Random(first)
    starters = []
    while True:
        starters.append(state.current_player())
        while not state.is_round_over():
            state.apply(rng.choice(state.legal_moves()))
        if state.is_match_over():
            break
        state.next_round()
    assert starters == [(first + r) % 3 for r in range(6)]
    assert state.round_index == 5


def test_rounds_option_sets_the_match_length() -> None:
    state = PROGRESSION.new_match(seed=1, options={"rounds": 2})
    rng = random.Random(1)
    while not state.is_match_over():
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    assert len(state.history) == 1 and state.is_round_over()


def scripted_round(state: ProgressionState, private: dict[int, list[str]]) -> None:
    """Play a round in which each seat lays its listed cards privately as soon as it
    holds them, puts everything else on the public stacks, and always draws."""
    todo = {seat: cards(texts) for seat, texts in private.items()}
    while not state.is_round_over():
        seat = state.current_player()
        assert seat is not None
        hand = state.hands[seat]
        mine = [c for c in todo.get(seat, []) if c in hand]
        if mine:
            todo[seat].remove(mine[0])
            play(state, f"play {mine[0]}", "draw")
        else:
            other = next(c for c in hand if all(c not in t for t in todo.values()))
            play(state, f"public {other}", "draw")


def test_target_score_ends_the_match_early() -> None:
    # Round 1: Ada's hearts 8 9 T total 27: (27 - 12) × 1 = 15, not yet 20.
    # Round 2: Ben's clubs 9 T total 19: (19 - 12) × 1 = 7.
    # Round 3: Ada's clubs 9 T: 7 more; her total 22 ≥ 20 ends the match (of 6 rounds) there.
    state = new(make_deal("8H 9H TH 2C 3C", "4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D"), target_score=20)
    scripted_round(state, {0: ["8H", "9H", "TH"]})
    assert state.scores == [15, 0, 0] and not state.is_match_over()
    state.next_round(make_deal("4C 5C 6C 7C 8C", "9C TC 2D 3D 4D", "2H 3H 4H 5H 6H"))
    assert state.current_player() == 1
    scripted_round(state, {1: ["9C", "TC"]})
    assert state.scores == [0, 7, 0] and state.totals == [15, 7, 0] and not state.is_match_over()
    state.next_round(make_deal("9C TC 2D 3D 4D", "4C 5C 6C 7C 8C", "2H 3H 4H 5H 6H"))
    scripted_round(state, {0: ["9C", "TC"]})
    assert state.totals == [22, 7, 0] and state.is_match_over() and state.winners() == [0]
    with pytest.raises(ValueError, match="match is over"):
        state.next_round()


def test_target_score_ignores_rounds_and_stops_at_the_cap() -> None:
    # Nobody ever scores: a match to 20 points ends after ROUND_CAP (100) rounds,
    # not after `rounds`, and the three equal totals share the win.
    deal = make_deal("2C 3C 4C 5C 6C", "7C 8C 9C TC JC", "2D 3D 4D 5D 6D")
    state = new(deal, target_score=20, rounds=2)
    for _ in range(99):
        scripted_round(state, {})
        assert not state.is_match_over()
        state.next_round(deal)
    scripted_round(state, {})
    assert ROUND_CAP == 100 and len(state.history) == 99
    assert state.is_match_over() and state.totals == [0, 0, 0] and state.winners() == [0, 1, 2]


def test_options_are_checked() -> None:
    assert PROGRESSION.check_options({}) == {
        "rounds": 6, "target_score": None, "takeback": True, "stall_limit": 60,
        "suits": 4, "numbers": 9, "faces": 4, "hand_size": 5,
    }
    for bad, reason in [
        ({"rounds": 0}, "at least 1"),
        ({"target_score": 0}, "at least 1"),
        ({"stall_limit": -1}, "at least 0"),
        ({"takeback": "no"}, "true or false"),
        ({"best_of": 3}, "no option 'best_of'"),
    ]:
        with pytest.raises(OptionError, match=reason):
            PROGRESSION.check_options(bad)
    assert PROGRESSION.option("target_score").parse_text("none") is None


# -- golden records ------------------------------------------------------------------------

SIX_ROUNDS = [
    # Round 1, Cleo (seat 2 = first) starts — face cards alone:
    #   Ada KH: -10 × 2 = -20; Ben AC QC: -10 × 3 = -30; Cleo AS JS QS KS: -10 × 5 = -50.
    [-20, -30, -50],
    # Round 2, Ada starts — the 12/13 boundary:
    #   Ada 3D 9D = 12 → 0, 4C 9C = 13 → (13 - 12) × 1 = 1: 1.
    #   Ben JH 4H 8H = 12 → 0, QS 6S 7S = 13 → (13 - 12) × 2 = 2: 2.
    #   Cleo 5H 7H = 12 → 0, 6D 7D = 13 → 1: 1.
    [1, 2, 1],
    # Round 3, Ben starts — ×5 and the RULINGS checks:
    #   Ada KD JD 2D 6D 7D 8D = 23 → (23 - 12) × 3 = 33.
    #   Ben AS JS QS KS 9S TS = 19 → (19 - 12) × 5 = 35.
    #   Cleo KC 5C 7C = 12 → 0; AH QH → -10 × 3 = -30: -30.
    [33, 35, -30],
    # Round 4, Cleo starts — she plays 9H public and takes it back, then lays 9H TH:
    #   Ada 2S 3S 4S 5S = 14 → 2; Ben nothing: 0; Cleo 9H TH = 19 → 7.
    [2, 0, 7],
    # Round 5, Ada starts:
    #   Ada KS 5S 7S = 12 → 0, 2H 3H 4H 5H 6H = 20 → 8: 8; Ben AD → -20; Cleo 9C TC = 19 → 7.
    [8, -20, 7],
    # Round 6, Ben starts:
    #   Ben 4D 5D 6D 7D 8D 9D TD = 49 → (49 - 12) × 1 = 37; Cleo QH 3H = 3 → 0; Ada nothing.
    [0, 37, 0],
]
"""Totals: Ada -20+1+33+2+8+0 = 24; Ben -30+2+35+0-20+37 = 24; Cleo -50+1-30+7+7+0 = -65."""


def test_six_round_match_scores_and_shared_win(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "progression-six-rounds.json"))
    assert state.round_scores() == SIX_ROUNDS
    assert state.totals == [24, 24, -65]
    assert state.is_match_over() and state.winners() == [0, 1]  # a shared win
    assert record.result(state)["winners"] == [0, 1]


def test_six_round_match_rotates_the_first_seat(data_dir: Path) -> None:
    rec = record.load(data_dir / "progression-six-rounds.json")
    assert rec.first == 2
    state = PROGRESSION.new_match(deal=rec.rounds[0].deal, first=rec.first, names=rec.players)
    starters = []
    for number, rnd in enumerate(rec.rounds):
        if number:
            state.next_round(rnd.deal)
        starters.append(state.current_player())
        first_card = state.parse_move(rnd.moves[0]).args[0]
        assert first_card in rnd.deal["hands"][starters[-1]]  # the starter's own card
        for text in rnd.moves:
            state.apply(state.parse_move(text))
    assert starters == [2, 0, 1, 2, 0, 1]


def test_six_round_match_with_another_first_seat_fails_at_once(data_dir: Path) -> None:
    data = json.loads((data_dir / "progression-six-rounds.json").read_text())
    data["first"] = 0
    with pytest.raises(record.RecordError) as info:
        record.replay(record.from_data(data))
    assert (info.value.round, info.value.move) == (1, 1)
    assert "A♠ is not in Ada's hand" in info.value.reason


def test_golden_faces_boundary_and_multiplier_stacks(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "progression-six-rounds.json"))
    rounds = state.history
    events = [[e.describe(state.names) for e in r.events] for r in rounds]
    assert "Cleo scores −50 for their spades stack (A♠ J♠ Q♠ K♠: 4 face cards alone: −10 × 5 = −50)" in events[0]
    assert "Ada scores 0 for their diamonds stack (3♦ 9♦: total 12, not over 12: 0)" in events[1]
    assert "Ada scores 1 for their clubs stack (4♣ 9♣: (13 − 12) × 1 = 1)" in events[1]
    assert "Ben scores 2 for their spades stack (Q♠ 6♠ 7♠: (13 − 12) × 2 = 2)" in events[1]
    assert "Ben scores 35 for their spades stack (A♠ J♠ Q♠ K♠ 9♠ 10♠: (19 − 12) × 5 = 35)" in events[2]


def test_golden_take_back_and_the_takeback_option(data_dir: Path) -> None:
    data = json.loads((data_dir / "progression-six-rounds.json").read_text())
    moves = data["rounds"][3]["moves"]
    assert moves[:2] == ["public 9H", "take H"] and moves[6:8] == ["play 9H", "draw"]  # Cleo's next turn
    data["options"] = {"takeback": False}
    with pytest.raises(record.RecordError) as info:
        record.replay(record.from_data(data))
    assert (info.value.round, info.value.move) == (4, 2)
    assert "Cleo may not take back 9♥" in info.value.reason


def test_invalid_record_face_after_number_fails_at_its_move(data_dir: Path) -> None:
    with pytest.raises(record.RecordError) as info:
        record.replay(record.load(data_dir / "progression-invalid-face-after-number.json"))
    err = info.value
    assert (err.round, err.move) == (2, 31)
    assert err.reason == (
        "A♦ (value 0) may go on Ada's private diamonds stack only if not lower "
        "than any card there (9♦ is worth 9)"
    )


def test_stall_record(data_dir: Path) -> None:
    # Ada 5C 9C = 14 → (14 - 12) × 1 = 2; Ben JC alone → -20; Cleo AS alone → -20.
    state = record.replay(record.load(data_dir / "progression-stall.json"))
    assert state.scores == [2, -20, -20] and state.is_match_over()
    assert len(state.moves) == 20 and state.stock_pos == 4
    assert state.events[0].describe(state.names) == (
        "The round ends by the stall rule: 4 turns in a row drew from the public stacks"
    )
    obs = state.observation(0)
    # Ada took Ben's TS and took back her 2H; Ben his 4D and Cleo's 3C; Cleo Ada's KD and her 8H.
    assert obs["known"] == [["2H", "TS"], ["3C", "4D"], ["KD", "8H"]]
    data = json.loads((data_dir / "progression-stall.json").read_text())
    data["options"]["stall_limit"] = 5
    with pytest.raises(record.RecordError, match="round 1, move 20: scores are given but the round is not finished"):
        record.replay(record.from_data(data))


# -- observations: three seats, known cards ---------------------------------------------------

def test_observations_for_each_of_three_seats() -> None:
    state = record.replay(record.load(Path(__file__).parent / "data" / "progression-stall.json"))
    for seat in range(3):
        obs = state.observation(seat)
        assert obs["seat"] == seat
        assert obs["hand"] == sorted(obs["hand"], key=lambda t: (t[1], "A23456789TJQK".index(t[0])))
        assert sorted(obs["hand"]) == sorted(str(c) for c in state.hands[seat])
        assert obs["hand_sizes"] == [5, 5, 5] and obs["stock_count"] == 33
        assert obs["private_stacks"][0] == {"C": ["5C", "9C"], "D": [], "H": [], "S": []}
        assert obs["public_stacks"] == {"C": [], "D": [], "H": [], "S": []}
        text = json.dumps(obs)
        for other in range(3):
            hidden = [c for c in state.hands[other] if str(c) not in obs["known"][other]]
            assert hidden and all((f'"{c}"' in text) == (other == seat) for c in hidden)
    with pytest.raises(ValueError, match="no seat 3"):
        state.observation(3)


def test_known_cards_follow_takes_and_plays() -> None:
    state = new()
    play(state, "public KD", "draw", "public 4D", "draw")
    play(state, "play AS", "take D")  # Cleo takes Ben's 4D
    assert [state.observation(s)["known"] for s in range(3)] == [[[], [], ["4D"]]] * 3
    play(state, "public 9C", "draw", "public TS", "draw")
    play(state, "public 4D", "draw")  # Cleo plays it away: no longer known
    assert state.observation(0)["known"] == [[], [], []]
    play(state, "play 5C", "take D")  # Ada takes it now
    assert state.observation(2)["known"] == [["4D"], [], []]


# -- determinize ------------------------------------------------------------------------------

def test_determinize_keeps_what_was_seen_and_varies_the_rest() -> None:
    state = record.replay(record.load(Path(__file__).parent / "data" / "progression-stall.json"))
    state = new(state.deal, stall_limit=0)
    play(state, "public KD", "draw", "public 4D", "take D", "play AS", "take D", "play 5C", "draw")
    play(state, "public TS", "draw", "public 3C", "draw", "play 9C", "take S", "play JC", "take C")
    for seat in range(3):
        obs = json.loads(json.dumps(state.observation(seat)))
        samples = [PROGRESSION.determinize(obs, random.Random(i)) for i in range(30)]
        for sample in samples:
            assert isinstance(sample, ProgressionState)
            assert sorted(sample.hands[seat]) == sorted(state.hands[seat])
            assert sample.moves == state.moves and sample.private == state.private and sample.public == state.public
            assert sample.stock_pos == state.stock_pos and sample.stall == state.stall
            for other in range(3):
                for known in obs["known"][other]:
                    assert Card.parse(known) in sample.hands[other]
                assert sample.observation(seat) == state.observation(seat)
            assert all(Card.parse(c) not in h for c in obs["hand"] for o, h in enumerate(sample.hands) if o != seat)
        for other in range(3):
            if other != seat:
                assert len({tuple(sorted(s.hands[other])) for s in samples}) > 1
        assert len({tuple(s.stock[s.stock_pos:]) for s in samples}) > 1


def test_sampler_deals_the_unseen_cards_as_determinize_does() -> None:
    state = record.replay(record.load(Path(__file__).parent / "data" / "progression-stall.json"))
    state = new(state.deal, stall_limit=0)
    play(state, "public KD", "draw", "public 4D", "take D", "play AS", "take D", "play 5C", "draw")
    play(state, "public TS", "draw", "public 3C", "draw", "play 9C", "take S", "play JC", "take C")
    rng = random.Random(4)
    for seat in range(3):
        obs = json.loads(json.dumps(state.observation(seat)))
        sample = PROGRESSION.sampler(obs)
        slow = [PROGRESSION.determinize(obs, random.Random(i)) for i in range(300)]
        quick = [sample(rng) for _ in range(300)]
        for one in quick:
            assert isinstance(one, ProgressionState)
            assert one.observation(seat) == state.observation(seat)
            assert sorted(one.hands[seat]) == sorted(state.hands[seat])
            for other in range(3):
                for known in obs["known"][other]:
                    assert Card.parse(known) in one.hands[other]
        for other in range(3):
            if other == seat:
                continue
            assert len({tuple(sorted(s.hands[other])) for s in quick}) > 1
            for card in {c for s in slow for c in s.hands[other]}:
                a = sum(card in s.hands[other] for s in slow) / 300
                b = sum(card in s.hands[other] for s in quick) / 300
                assert abs(a - b) < 0.12, (seat, other, card, a, b)
        first, second = sample(rng), sample(rng)
        while first.current_player() is not None:
            first.apply(rng.choice(first.legal_moves()))
        assert second.observation(seat) == state.observation(seat)


def test_determinize_plays_on_to_the_end() -> None:
    rng = random.Random(12)
    state = PROGRESSION.new_match(seed=12, options={"rounds": 2})
    while state.round_index == 0 or len(state.moves) < 61:
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player()
    assert seat is not None
    sample = PROGRESSION.determinize(json.loads(json.dumps(state.observation(seat))), random.Random(1))
    assert sample.round_index == 1 and sample.totals == state.totals
    while not sample.is_round_over():
        sample.apply(rng.choice(sample.legal_moves()))
    assert sample.is_match_over()


# -- the contract -------------------------------------------------------------------------------

def hide_progression(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the other hands' cards not taken from public
    stacks, and the order of the draw pile."""
    assert isinstance(state, ProgressionState)
    other = state.copy()
    assert isinstance(other, ProgressionState)
    places = [
        (s, i) for s in range(3) if s != seat
        for i, c in enumerate(other.hands[s]) if c not in state.known_cards(s)
    ]
    pool = [other.hands[s][i] for s, i in places] + other.stock[other.stock_pos:]
    rng.shuffle(pool)
    for (s, i), card in zip(places, pool):
        other.hands[s][i] = card
    other.stock = other.stock[: other.stock_pos] + pool[len(places):]
    return other


@pytest.mark.parametrize(
    ("options", "matches", "deep_every"),
    [
        ({}, 20, 200),  # whole six-round matches
        ({"rounds": 1}, 150, 60),
        ({"rounds": 2, "takeback": False}, 100, 80),
        ({"rounds": 3, "stall_limit": 3}, 400, 25),  # short rounds, often ended by the stall rule
        ({"rounds": 1, "stall_limit": 0}, 40, 80),
        ({"target_score": 20}, 80, 60),  # usually over after a round or two
    ],
)
def test_conformance(options: dict[str, object], matches: int, deep_every: int) -> None:
    report = conformance.run(
        PROGRESSION, hide_progression, matches=matches, options=options, deep_every=deep_every, seed=len(options)
    )
    assert report.matches == matches and report.deep_checks > matches


def test_conformance_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ProgressionState.observation

    def leaky(self: ProgressionState, seat: int) -> dict[str, Any]:
        obs = original(self, seat)
        obs["known"][(seat + 1) % 3] = [str(c) for c in self.hands[(seat + 1) % 3]]  # all of the next hand
        return obs

    monkeypatch.setattr(ProgressionState, "observation", leaky)
    with pytest.raises(conformance.ConformanceError, match="hidden cards change"):
        conformance.run(PROGRESSION, hide_progression, matches=5, options={"rounds": 1})


def test_conformance_catches_a_determinize_that_forgets_known_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    original = PROGRESSION.determinize

    def forgetful(observation: dict[str, Any], rng: random.Random) -> State:
        sample = original(observation, rng)
        assert isinstance(sample, ProgressionState)
        me = observation["seat"]
        for seat in range(3):
            if seat != me and sample.known_cards(seat):
                # swap a known card with an unseen card from the draw pile
                card = sample.known_cards(seat)[0]
                index = sample.hands[seat].index(card)
                sample.hands[seat][index], sample.stock[-1] = sample.stock[-1], card
                break
        return sample

    monkeypatch.setattr(PROGRESSION, "determinize", forgetful)
    with pytest.raises(conformance.ConformanceError, match="determinize for seat"):
        conformance.run(PROGRESSION, hide_progression, matches=20, options={"rounds": 1}, deep_every=5)


def test_copy_is_independent_and_zones_hold_every_card() -> None:
    rng = random.Random(4)
    state = PROGRESSION.new_match(seed=4)
    for _ in range(40):
        state.apply(rng.choice(state.legal_moves()))
    zones = state.zones()
    assert set(zones) >= {"hand 0", "hand 1", "hand 2", "private 2 S", "public H", "stock"}
    assert sorted(c for z in zones.values() for c in z) == standard_deck()
    before = state.snapshot()
    other = state.copy()
    while not other.is_round_over():
        other.apply(rng.choice(other.legal_moves()))
    assert state.snapshot() == before
