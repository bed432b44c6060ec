"""Minus Twenty: every rule and option of RULINGS.md, the numeric checks, the
golden records (scores worked by hand), invalid records, observations,
determinize and the shared conformance check."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import conformance, games, narrate, record
from parlour.cards import Card, cards
from parlour.game import IllegalMoveError, Move, MoveSyntaxError, OptionError, State
from parlour.games.minus_twenty import (
    MinusTwentyState,
    meld_arithmetic,
    meld_score,
    minus_twenty_deck,
    starters_from,
)

MINUS_TWENTY = games.get("minus-twenty")


def make_deal(hand0: str, hand1: str, stock: str = "") -> dict[str, list[Any]]:
    """A full, valid deal with the given cards in front; the rest of the deck follows in order."""
    used = cards(hand0) + cards(hand1) + cards(stock)
    rest = [c for c in minus_twenty_deck() if c not in used]
    return {"hands": [cards(hand0), cards(hand1)], "stock": cards(stock) + rest}


def new(deal: dict[str, list[Any]], first: int = 0, **options: Any) -> MinusTwentyState:
    state = MINUS_TWENTY.new_match(deal=deal, first=first, options=options, names=["Ann", "Bo"])
    assert isinstance(state, MinusTwentyState)
    return state


def play(state: State, *moves: str) -> None:
    for text in moves:
        state.apply(state.parse_move(text))


def finish(state: MinusTwentyState, melds: dict[int, list[str]] | None = None) -> None:
    """Play the round out: each seat lays its listed cards on its melds, one a turn,
    then discards the last card in its hand; every draw is from the draw pile."""
    queue = {seat: cards(" ".join(m)) for seat, m in (melds or {}).items()}
    while (seat := state.current_player()) is not None:
        mine = queue.get(seat)
        if mine:
            play(state, f"play {mine.pop(0)}", "draw")
        else:
            play(state, f"discard {state.hands[seat][-1]}", "draw")
    assert not any(queue.values())


def load(data_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((data_dir / f"minus-twenty-{name}.json").read_text())
    return data


def replay_error(data: dict[str, Any]) -> record.RecordError:
    with pytest.raises(record.RecordError) as info:
        record.replay(record.loads(json.dumps(data)))
    return info.value


# -- the deck and scoring ------------------------------------------------------------

def test_deck_is_48_cards_without_aces_or_jokers() -> None:
    deck = minus_twenty_deck()
    assert len(deck) == len(set(deck)) == 48
    assert all(2 <= c.rank <= 13 and not c.is_joker for c in deck)
    assert sum(c.rank > 10 for c in deck) == 12  # J, Q, K of four suits
    assert MINUS_TWENTY.deck({}) == deck


def test_meld_score_checks_from_the_rulings() -> None:
    assert meld_score(cards("KH 2H 3H 4H")) == -22  # (9 - 20) x 2
    assert meld_score(cards("JH QH 2H 3H 4H 5H 6H 7H")) == 41  # (27 - 20) x 3 + 20
    assert meld_score(cards("JH")) == -40  # (0 - 20) x 2
    assert meld_score(cards("4H 9H")) == -7  # 13 - 20
    assert meld_score([]) == 0  # a suit with no meld


def test_meld_score_bonus_is_not_multiplied_and_counts_investment_cards() -> None:
    assert meld_score(cards("2S 3S 4S 5S 6S 7S 8S 9S")) == 44  # (44 - 20) + 20
    assert meld_score(cards("2S 3S 4S 5S 6S 7S 8S")) == 15  # seven cards: 35 - 20, no bonus
    assert meld_score(cards("JS QS KS 2S 3S 4S 5S 6S")) == 20  # (20 - 20) x 4 + 20
    assert meld_score(cards("JS QS KS 2S 3S 4S 5S 7S")) == 24  # (21 - 20) x 4 + 20
    assert meld_score(cards("JS QS KS 6S 7S 8S 9S TS")) == 100  # (40 - 20) x 4 + 20
    assert meld_score(cards("JS QS KS 2S 3S 4S 5S")) == -24  # (14 - 20) x 4, seven cards: no bonus


def test_meld_arithmetic_explains_the_score() -> None:
    assert meld_arithmetic(cards("JH QH 2H 3H 4H 5H 6H 7H")) == "(27 − 20) × 3 + 20"
    assert meld_arithmetic(cards("4H 9H")) == "13 − 20"
    assert meld_arithmetic(cards("KH 2H 3H 4H")) == "(9 − 20) × 2"


def test_meld_score_refuses_cards_outside_the_deck() -> None:
    with pytest.raises(ValueError, match="AH is not used in Minus Twenty"):
        meld_score(cards("AH 2H"))


# -- options -----------------------------------------------------------------------

def test_options_and_their_defaults() -> None:
    assert MINUS_TWENTY.check_options({}) == {
        "hand_size": 7, "stall_limit": 60, "rounds": 3, "target_score": None, "best_of": None,
        "suits": 4, "numbers": 9, "investments": 3, "minus": 20,
    }
    assert MINUS_TWENTY.check_options({"target_score": 100})["target_score"] == 100
    assert MINUS_TWENTY.check_options({"best_of": 5, "rounds": 1})["best_of"] == 5


def test_target_score_and_best_of_exclude_each_other() -> None:
    with pytest.raises(OptionError, match="cannot both be set"):
        MINUS_TWENTY.check_options({"target_score": 100, "best_of": 3})
    with pytest.raises(OptionError):
        MINUS_TWENTY.new_match(seed=1, options={"target_score": 100, "best_of": 3})


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"hand_size": 0}, "at least 1"),
        ({"hand_size": 21}, "at most 20"),
        ({"stall_limit": -1}, "at least 0"),
        ({"rounds": 0}, "at least 1"),
        ({"target_score": 0}, "at least 1"),
        ({"best_of": True}, "whole number"),
        ({"rounds": None}, "needs a value"),
        ({"takeback": False}, "no option 'takeback'"),
    ],
)
def test_bad_options(options: dict[str, Any], expected: str) -> None:
    with pytest.raises(OptionError, match=expected):
        MINUS_TWENTY.check_options(options)


# -- the deal ----------------------------------------------------------------------

def test_random_deal_gives_seven_each_and_34_to_draw() -> None:
    state = MINUS_TWENTY.new_match(seed=4)
    assert isinstance(state, MinusTwentyState)
    assert [len(h) for h in state.hands] == [7, 7] and len(state.stock) == 34
    assert all(p == [] for p in state.discard_piles)
    assert state.observation(0)["stock_count"] == 34


def test_hand_size_eight_is_the_lost_cities_deal() -> None:
    state = MINUS_TWENTY.new_match(seed=4, options={"hand_size": 8})
    assert isinstance(state, MinusTwentyState)
    assert [len(h) for h in state.hands] == [8, 8] and len(state.stock) == 32


def test_seed_gives_the_same_deal_everywhere() -> None:
    """Pinned: a seed must give this match on every machine and Python version."""
    state = MINUS_TWENTY.new_match(seed=2026)
    deal = record.to_data(state)["rounds"][0]["deal"]
    assert state.first == 0
    assert deal["hands"] == [["7S", "3S", "8D", "KS", "9D", "8S", "2H"], ["3C", "5D", "TH", "JD", "2D", "7H", "6H"]]
    assert deal["stock"][:3] == ["6C", "6S", "6D"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["stock"].__setitem__(0, Card.parse("AH")), "AH is not used in Minus Twenty"),
        (lambda d: d["stock"].__setitem__(0, Card.parse("JK")), "JK is not used in Minus Twenty"),
        (lambda d: d["stock"].__setitem__(0, d["stock"][1]), "appear(s) more than once"),
        (lambda d: d["stock"].pop(), "missing"),
        (lambda d: d["hands"][0].append(d["stock"].pop()), "each hand must hold 7 cards"),
        (lambda d: d["hands"].append([]), "two hands"),
        (lambda d: d.update(hands=Card.parse("7H")), "two hands"),
        (lambda d: d.update(stock=Card.parse("7H")), "stock must be a list"),
        (lambda d: d["stock"].append([Card.parse("7H")]), "must hold cards"),
    ],
)
def test_check_deal_names_the_problem(change: Any, expected: str) -> None:
    deal = make_deal("2H 5H 8H KH 3C 9C 4D", "QS 3S 6S 9S 7C 2D JD")
    change(deal)
    with pytest.raises(ValueError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        new(deal)


# -- a turn: play, then draw ----------------------------------------------------------

def test_a_turn_is_a_play_then_a_draw() -> None:
    state = new(make_deal("2H 5H 8H KH 3C 9C 4D", "QS 3S 6S 9S 7C 2D JD", "TH 6D"))
    assert state.current_player() == 0
    legal = [str(m) for m in state.legal_moves()]
    assert len(legal) == 14 and "play KH" in legal and "discard KH" in legal
    with pytest.raises(IllegalMoveError, match="must first play or discard a card, then draw"):
        play(state, "draw")
    play(state, "play KH")
    assert state.current_player() == 0 and state.observation(0)["step"] == "draw"
    assert [str(m) for m in state.legal_moves()] == ["draw"]  # every discard pile is empty
    with pytest.raises(IllegalMoveError, match=r"Ann has played a card this turn and must now draw: draw$"):
        play(state, "discard 2H")
    with pytest.raises(IllegalMoveError, match="The clubs discard pile is empty"):
        play(state, "take C")
    play(state, "draw")
    assert state.hands[0][-1] == Card.parse("TH") and state.current_player() == 1
    assert state.observation(1)["step"] == "play"


def test_moves_have_a_fixed_form() -> None:
    state = new(make_deal("2H 5H 8H KH 3C 9C 4D", "QS 3S 6S 9S 7C 2D JD"))
    for bad, expected in [("take 7H", "Expected take <suit>"), ("draw H", "Expected draw"),
                          ("play H", "Expected play <card>"), ("meld 7H", "Unknown move 'meld'")]:
        with pytest.raises(MoveSyntaxError, match=expected):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError, match=r"A♥ is not used in Minus Twenty"):
        state.parse_move("play AH")
    with pytest.raises(IllegalMoveError, match=r"^Q♠ is not in Ann's hand$") as info:
        state.parse_move("discard QS")
    assert narrate.illegal_text(info.value, 0) == "Q♠ is not in your hand (you hold 3♣, 9♣, 4♦, 2♥, 5♥, 8♥ and K♥)"


def test_investment_cards_only_before_numbers_and_numbers_strictly_rising() -> None:
    state = new(make_deal("JH QH 3H 7H KH 5H 9H", "2S 3S 4S 5S 6S 7S 8S"))
    play(state, "play JH", "draw", "discard 2S", "draw", "play QH", "draw", "discard 3S", "draw")
    play(state, "play 3H", "draw", "discard 4S", "draw")
    with pytest.raises(IllegalMoveError, match=r"investment card .* only before its first number card"):
        play(state, "play KH")
    play(state, "play 7H", "draw", "discard 5S", "draw")  # a gap is allowed: 3 then 7
    with pytest.raises(IllegalMoveError, match=r"higher than 7 \(the top number of Ann's hearts meld\)"):
        play(state, "play 5H")
    assert "play 5H" not in [str(m) for m in state.legal_moves()]
    assert "play 9H" in [str(m) for m in state.legal_moves()]
    play(state, "discard KH", "draw")  # an investment card may always be discarded
    assert [str(c) for c in state.melds[0][2]] == ["JH", "QH", "3H", "7H"]


def test_each_player_has_their_own_melds() -> None:
    state = new(make_deal("5H 2C 3C 4C 6C 7C 8C", "2H 3S 4S 5S 6S 7S 8S"))
    play(state, "play 5H", "draw")
    assert "play 2H" in [str(m) for m in state.legal_moves()]  # Bo's hearts meld is his own
    play(state, "play 2H", "draw")
    assert state.melds[0][2] == cards("5H") and state.melds[1][2] == cards("2H")


def test_the_card_discarded_this_turn_cannot_be_taken_back() -> None:
    state = new(make_deal("7H 2C 3C 4C 6C 7C 8C", "2H 3S 4S 5S 6S 7S 8S"))
    play(state, "discard 7H")
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    assert state.observation(1)["discarded"] == "7H"
    with pytest.raises(IllegalMoveError, match="7♥ was discarded this turn and may not be taken back"):
        play(state, "take H")
    play(state, "draw")
    assert state.observation(1)["discarded"] is None
    play(state, "discard 2H")  # Bo covers 7H with 2H
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    play(state, "draw", "discard 2C")
    assert "take H" in [str(m) for m in state.legal_moves()]  # Ann may take Bo's 2H, not her own 2C
    play(state, "take H")
    assert state.hands[0][-1] == Card.parse("2H") and state.discard_piles[2] == cards("7H")


def test_a_card_discarded_on_an_earlier_turn_may_be_taken_back() -> None:
    state = new(make_deal("7H 2C 3C 4C 6C 7C 8C", "2S 3S 4S 5S 6S 7S 8S"))
    play(state, "discard 7H", "draw", "play 2S", "draw", "play 2C")
    assert [str(m) for m in state.legal_moves()] == ["draw", "take H"]
    play(state, "take H")
    assert state.known_cards(0) == cards("7H") and state.stall == 1


def test_a_taken_card_stays_known_until_it_leaves_the_hand_and_undo_restores_that() -> None:
    state = new(make_deal("7H 2C 3C 4C 6C 7C 8C", "2S 3S 4S 5S 6S 7S 8S"))
    play(state, "discard 7H", "draw", "play 2S", "draw", "play 2C", "take H")
    assert state.known_cards(0) == cards("7H") and state.hidden_cards(1) == state.hands[0][:-1]
    play(state, "discard 3S", "draw", "discard 7H", "draw", "play 4S", "take H")  # the 7H goes round again
    assert state.known_cards(0) == [] and state.known_cards(1) == cards("7H")
    before = state.snapshot()
    for _ in range(4):
        state.undo()
    assert state.known_cards(0) == cards("7H") and state.known_cards(1) == []
    play(state, "discard 7H", "draw", "play 4S", "take H")
    assert state.snapshot() == before
    for _ in range(12):
        state.undo()
    assert state.known_cards(0) == state.known_cards(1) == [] and not any(state.was_on_pile)


def test_only_the_top_of_a_discard_pile_is_taken() -> None:
    state = new(make_deal("5C 9C 3H 4H 6H 7H 8H", "2S 3S 4S 5S 6S 7S 8S"))
    play(state, "discard 5C", "draw", "play 2S", "draw", "discard 9C", "draw", "play 3S", "take C")
    assert state.hands[1][-1] == Card.parse("9C") and state.discard_piles[0] == cards("5C")
    assert state.observation(0)["discard_piles"]["C"] == ["5C"]


def test_apply_checks_every_rule_itself_and_leaves_the_position_alone() -> None:
    """Search bots call apply directly, without parse_move: it must refuse illegal moves too."""
    state = new(make_deal("JH 3H 7H 2C 3C 4C 6C", "2S 3S 4S 5S 6S 7S 8S"))
    play(state, "play 7H", "draw", "discard 2S", "draw")
    refused = [
        Move("draw"), Move("take", ("S",)), Move("play", (Card.parse("JH"),)), Move("play", (Card.parse("3H"),)),
        Move("play", (Card.parse("8S"),)), Move("discard", (Card.parse("AH"),)), Move("play", ("H",)),
        Move("play", (Card.parse("2C"), Card.parse("3C"))), Move("meld", (Card.parse("2C"),)),
    ]
    refused_after_play = [
        Move("take", ("C",)), Move("take", ("H",)), Move("discard", (Card.parse("3C"),)), Move("draw", ("S",)),
        Move("take", (Card.parse("2S"),)),
    ]
    for moves, then in ((refused, "discard 2C"), (refused_after_play, "take S")):
        before = state.snapshot()
        for move in moves:
            with pytest.raises(IllegalMoveError):
                state.apply(move)
            assert state.snapshot() == before, move
        play(state, then)
    assert state.hands[0][-1] == Card.parse("2S")


# -- the end of the round -------------------------------------------------------------

def test_the_round_ends_on_the_last_draw_and_scores_every_meld() -> None:
    state = new(make_deal("JH QH 2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S 7S KC", "7H 8S 2C 9S 2D TC"))
    finish(state, {0: ["JH", "QH", "2H", "3H", "4H", "5H", "6H", "7H"],
                   1: ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "KC", "TC"]})
    assert len(state.moves) == 68 and state.stock_pos == len(state.stock) == 34
    assert state.is_round_over() and state.current_player() is None and state.legal_moves() == []
    # Ann: hearts (27 - 20) x 3 + 20 = 41.  Bo: spades 44 - 20 + 20 = 44, clubs K T (10 - 20) x 2 = -20.
    assert state.scores == [41, 24]
    assert state.log() == [
        "Ann scores 41 for their hearts meld: (27 − 20) × 3 + 20",
        "Bo scores −20 for their clubs meld: (10 − 20) × 2",
        "Bo scores 44 for their spades meld: 44 − 20 + 20",
    ]
    with pytest.raises(IllegalMoveError, match="The round is over"):
        play(state, "draw")


def test_undoing_the_last_draw_reopens_the_round() -> None:
    state = new(make_deal("JH QH 2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S 7S KC"))
    finish(state, {0: ["JH", "2H"]})
    assert state.scores == [-36, 0] and len(state.events) == 1  # hearts J 2: (2 - 20) x 2
    move = state.undo()
    assert str(move) == "draw" and not state.is_round_over()
    assert state.scores == [0, 0] and state.events == [] and state.stock_pos == 33
    assert state.current_player() == 1 and state.legal_moves()[0] == move
    play(state, "draw")
    assert state.scores == [-36, 0]


def stall_loop(state: MinusTwentyState, turns: int) -> None:
    """Turns in which each player discards the card they took last and takes the one
    the other player just discarded (the cards 3C, 2D and JS go round)."""
    for _ in range(turns):
        seat = state.current_player()
        assert seat is not None
        last = next(m for m in reversed(state.moves) if m.verb == "discard")
        play(state, f"discard {state.hands[seat][-1]}", f"take {last.args[0].suit}")  # type: ignore[union-attr]


def start_stall(**options: Any) -> MinusTwentyState:
    state = new(make_deal("2D 2C 3D 4D 5D 6D 7D", "JS 3C 4C 5C 6C 7C 8C", "9D 9C"), **options)
    play(state, "play 3D", "draw", "discard 3C", "draw")
    play(state, "discard 2D", "take C", "discard JS", "take D")  # two turns that take
    return state


def test_stall_rule_counts_turns_that_take_and_a_draw_resets_it() -> None:
    state = start_stall(stall_limit=4)
    assert state.stall == 2 and state.observation(0)["stall_count"] == 2
    play(state, f"discard {state.hands[0][-1]}", "draw")  # a draw from the draw pile: back to 0
    assert state.stall == 0
    play(state, "discard 2D", "take S")
    stall_loop(state, 2)
    assert state.stall == 3 and not state.is_round_over()
    stall_loop(state, 1)
    assert state.is_round_over() and state.stall == 4
    # Ann: diamonds 3 = 3 - 20 = -17; Bo has no meld.
    assert state.scores == [-17, 0]
    assert state.events[0].kind == "Stall rule" and state.events[0].seat is None
    assert "4 turns in a row took from a discard pile" in state.log()[0]
    assert len(state.stock) - state.stock_pos == 34 - 3  # three draws from the draw pile
    state.undo()
    assert not state.is_round_over() and state.stall == 3 and state.events == []


def test_stall_limit_zero_turns_the_rule_off() -> None:
    state = start_stall(stall_limit=0)
    stall_loop(state, 300)
    assert not state.is_round_over() and state.stall == 302


def test_the_stall_count_starts_at_zero_each_round() -> None:
    state = start_stall(stall_limit=5, rounds=2)
    stall_loop(state, 3)
    assert state.is_round_over()
    state.next_round(make_deal("2D 2C 3D 4D 5D 6D 7D", "JS 3C 4C 5C 6C 7C 8C"))
    assert state.stall == 0 and state.observation(0)["stall_count"] == 0


# -- the match ----------------------------------------------------------------------

ANN_20 = ("6S 7S 8S 9S TS 2C 3C", "2D 3D 4D 5D 6D 7D 8D", {0: ["6S", "7S", "8S", "9S", "TS"]})
"""A round Ann wins 20-0: spades 6 7 8 9 T, 40 - 20 = 20."""
ANN_10 = ("6S 7S 8S 9S TS 2C 3C", "2D 3D 4D 5D 6D 7D 8D", {0: ["6S", "7S", "8S", "9S"]})
"""Ann 10-0: spades 6 7 8 9, 30 - 20 = 10."""
BO_20 = ("2D 3D 4D 5D 6D 7D 8D", "6S 7S 8S 9S TS 2C 3C", {1: ["6S", "7S", "8S", "9S", "TS"]})
"""Bo 20-0."""
BOTH_20 = ("6S 7S 8S 9S TS 2C 3C", "6D 7D 8D 9D TD 2H 3H",
           {0: ["6S", "7S", "8S", "9S", "TS"], 1: ["6D", "7D", "8D", "9D", "TD"]})
"""20-20."""
NOBODY = ("2D 3D 4D 5D 6D 7D 8D", "6S 7S 8S 9S TS 2C 3C", {})
"""0-0: no melds."""


def play_rounds(plan: list[tuple[str, str, dict[int, list[str]]]], **options: Any) -> MinusTwentyState:
    """Play the planned rounds (checking the match goes on between them)."""
    state: MinusTwentyState | None = None
    for hand0, hand1, melds in plan:
        if state is None:
            state = new(make_deal(hand0, hand1), **options)
        else:
            assert not state.is_match_over()
            state.next_round(make_deal(hand0, hand1))
        finish(state, melds)
    assert state is not None
    return state


def test_three_rounds_by_default_and_the_rounds_option() -> None:
    state = play_rounds([ANN_20, BO_20])
    assert not state.is_match_over()
    state.next_round(make_deal(*ANN_10[:2]))
    finish(state, ANN_10[2])
    assert state.is_match_over() and state.totals == [30, 20] and state.winners() == [0]
    with pytest.raises(ValueError, match="match is over"):
        state.next_round()
    one = play_rounds([BO_20], rounds=1)
    assert one.is_match_over() and one.winners() == [1]


def test_equal_totals_draw() -> None:
    state = play_rounds([ANN_20, BO_20], rounds=2)
    assert state.totals == [20, 20] and state.winners() == [0, 1]


def test_target_score_plays_until_a_player_reaches_it_and_ignores_rounds() -> None:
    state = play_rounds([ANN_20], target_score=30, rounds=1)
    assert not state.is_match_over() and state.totals == [20, 0]  # rounds=1 is ignored
    state = play_rounds([ANN_20, BO_20, NOBODY, ANN_10], target_score=30)
    assert state.is_match_over() and state.winners() == [0] and state.round_index == 3
    both = play_rounds([BOTH_20], target_score=20)
    assert both.is_match_over() and both.winners() == [0, 1]  # both reach it, equal totals: a draw


def test_best_of_counts_rounds_won_and_a_tied_round_counts_for_nobody() -> None:
    state = play_rounds([BO_20, ANN_10, NOBODY], best_of=3)
    assert state.rounds_won() == [1, 1] and not state.is_match_over()
    state.next_round(make_deal(*ANN_10[:2]))
    finish(state, ANN_10[2])
    assert state.rounds_won() == [2, 1] and state.is_match_over()
    assert state.totals == [20, 20] and state.winners() == [0]  # rounds won, not points, decide
    assert state.observation(1)["rounds_won"] == [2, 1]
    five = play_rounds([ANN_20, ANN_20], best_of=5)
    assert not five.is_match_over()  # two wins are not more than half of five
    four = play_rounds([ANN_20, BO_20, ANN_20], best_of=4)
    assert four.rounds_won() == [2, 1] and not four.is_match_over()  # two wins are only half of four
    four.next_round(make_deal(*ANN_20[:2]))
    finish(four, ANN_20[2])
    assert four.is_match_over() and four.winners() == [0]


def test_an_open_ended_match_stops_after_100_rounds() -> None:
    rng = random.Random(3)
    state = MINUS_TWENTY.new_match(seed=3, options={"target_score": 1000})
    for _ in range(150):  # bounded, so that a missing cap fails instead of hanging
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_moves()))
        if not state.advance():
            break
    assert state.is_match_over() and state.round_index == 99 and max(state.totals) < 1000


def test_starters_higher_total_starts_and_a_tie_passes_the_start() -> None:
    assert starters_from(1, []) == [1]
    assert starters_from(1, [[-7, -7], [20, 0]]) == [1, 0, 0]
    assert starters_from(0, [[0, 0], [0, 0], [0, 0]]) == [0, 1, 0, 1]
    assert starters_from(0, [[-30, -10], [25, 0]]) == [0, 1, 0]  # totals -30 -10: Bo; then -5 -10: Ann


def test_later_round_starter_in_play() -> None:
    state = play_rounds([NOBODY, BO_20], first=0)
    assert state.starter == 1  # tied 0-0 after round 1: Bo, who did not start round 1
    state.next_round(make_deal(*NOBODY[:2]))
    assert state.starter == 1 and state.current_player() == 1  # Bo leads 20-0
    assert state.observation(0)["starters"] == [0, 1, 1]


# -- golden records (scores worked by hand, also written in each record's meta) ---------

def test_golden_taking_from_discard_piles(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "minus-twenty-take.json"))
    assert isinstance(state, MinusTwentyState)
    # Ann: hearts K 2 5 8 T, (25 - 20) x 2 = 10.
    # Bo: spades Q 3 6 9, (18 - 20) x 2 = -4; clubs 9 (Ann's discard, taken), 9 - 20 = -11: -15.
    assert state.scores == [10, -15] and state.totals == [10, -15] and state.winners() == [0]
    assert state.melds[1][0] == cards("9C")
    takes = [(i, str(m)) for i, m in enumerate(state.moves, 1) if m.verb == "take"]
    assert takes == [(8, "take C"), (14, "take C"), (20, "take D"), (26, "take C")]
    # Bo played his 9C and discarded his 4D again
    assert [state.known_cards(0), state.known_cards(1)] == [cards("3C 7C"), []]


def test_golden_eight_card_bonus(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "minus-twenty-bonus.json"))
    # Ann: hearts J Q 2 3 4 5 6 7, (27 - 20) x 3 + 20 = 41.
    # Bo: spades 2-9, (44 - 20) + 20 = 44; clubs K T, (10 - 20) x 2 = -20: 24.
    assert state.scores == [41, 24] and state.winners() == [0]
    assert [e.points for e in state.events] == [41, -20, 44]
    assert [e.kind for e in state.events] == ["Eight-Card Meld", "Negative Meld", "Eight-Card Meld"]


def test_golden_stall_rule_ending(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "minus-twenty-stall.json"))
    assert isinstance(state, MinusTwentyState)
    # 10 takes, a draw (count back to 0), 60 takes: the round ends after Ann's 39th turn.
    assert len(state.moves) == 154 and state.stall == 60
    assert len(state.stock) - state.stock_pos == 27 and state.events[0].kind == "Stall rule"
    # Ann: spades 5, -15; diamonds K 8, (8 - 20) x 2 = -24: -39.  Bo: hearts Q 6, (6 - 20) x 2 = -28.
    assert state.scores == [-39, -28] and state.winners() == [1]


def test_golden_tied_totals_starter(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "minus-twenty-starter.json"))
    # Round 1 (Bo starts): Ann hearts 4 9 = -7, Bo clubs 5 8 = -7: tied, so Ann starts round 2.
    # Round 2: Ann spades 6-T = 20, Bo 0: Ann leads 13 to -7 and starts round 3 too.
    # Round 3: Bo diamonds J 5 9 T = (24 - 20) x 2 = 8: totals 13 to 1.
    assert state.round_scores() == [[-7, -7], [20, 0], [0, 8]]
    assert state.totals == [13, 1] and state.is_match_over() and state.winners() == [0]
    assert state.observation(0)["starters"] == [1, 0, 0]
    rounds = [(r.deal, r.moves) for r in state.history] + [(state.deal, state.moves)]
    for (deal, moves), starter in zip(rounds, [1, 0, 0]):  # each round opens with a card of its starter
        assert deal is not None
        assert moves[0].args[0] in deal["hands"][starter] and moves[0].args[0] not in deal["hands"][1 - starter]


def test_invalid_record_taking_back_this_turns_discard(data_dir: Path) -> None:
    data = load(data_dir, "take")
    moves = data["rounds"][0]["moves"]
    assert moves[10:12] == ["discard 7C", "draw"]
    moves[11] = "take C"
    err = replay_error(data)
    assert (err.round, err.move) == (1, 12)
    assert err.reason == "7♣ was discarded this turn and may not be taken back"


def test_invalid_record_jack_onto_a_meld_with_numbers(data_dir: Path) -> None:
    data = load(data_dir, "take")
    moves = data["rounds"][0]["moves"]
    assert moves[64] == "discard JH"  # Ann's hearts meld holds K 2 5 8 T
    moves[64] = "play JH"
    err = replay_error(data)
    assert (err.round, err.move) == (1, 65) and "only before its first number card" in err.reason
    data = load(data_dir, "starter")
    assert data["rounds"][0]["moves"][48] == "discard JC"  # Bo's clubs meld holds 5 8
    data["rounds"][0]["moves"][48] = "play JC"
    err = replay_error(data)
    assert (err.round, err.move) == (1, 49) and "Bo's clubs meld already holds numbers up to 8" in err.reason


def test_invalid_record_deal_with_an_ace(data_dir: Path) -> None:
    data = load(data_dir, "starter")
    stock = data["rounds"][1]["deal"]["stock"]
    assert stock[-1] == "KS"
    stock[-1] = "AS"
    err = replay_error(data)
    assert (err.round, err.move) == (2, 0) and err.reason == "deal: AS is not used in Minus Twenty"


def test_invalid_record_scores(data_dir: Path) -> None:
    data = load(data_dir, "bonus")
    data["rounds"][0]["scores"] = [41, 4]
    err = replay_error(data)
    assert (err.round, err.move) == (1, 68) and "[41, 4]" in err.reason and "[41, 24]" in err.reason


def test_invalid_record_moves_after_the_stall_ending(data_dir: Path) -> None:
    data = load(data_dir, "stall")
    data["rounds"][0]["moves"].append("discard 5C")
    err = replay_error(data)
    assert (err.round, err.move) == (1, 155) and "after the round has ended" in err.reason


def test_options_are_recorded_only_when_not_default() -> None:
    state = MINUS_TWENTY.new_match(seed=5, options={"stall_limit": 10, "best_of": 3})
    assert record.to_data(state)["options"] == {"stall_limit": 10, "best_of": 3}


# -- what each seat sees ------------------------------------------------------------

def test_observation_shows_the_table_and_hides_the_rest(data_dir: Path) -> None:
    rec = record.load(data_dir / "minus-twenty-take.json")
    state = new(rec.rounds[0].deal, rounds=1)
    play(state, *rec.rounds[0].moves[:20])  # Bo has just taken Ann's 4D; Bo saw Ann take his 7C
    obs = state.observation(0)
    json.dumps(obs)
    assert obs["hand"] == [str(c) for c in sorted(state.hands[0], key=lambda c: (c.suit, c.rank))]
    assert obs["hand_sizes"] == [7, 7] and obs["stock_count"] == 34 - 7
    assert obs["known"] == [["7C"], ["4D"]]
    assert obs["melds"][0]["H"] == ["KH", "2H", "5H"] and obs["melds"][1]["S"] == ["QS", "3S", "6S"]
    assert obs["melds"][1]["C"] == ["9C"] and obs["melds"][0]["C"] == []
    assert obs["discard_piles"] == {"C": [], "D": [], "H": [], "S": []}
    assert obs["step"] == "play" and obs["to_move"] == 0 and obs["discarded"] is None
    assert obs["stall_count"] == 1 and obs["starters"] == [0] and obs["rounds_won"] == [0, 0]
    text = json.dumps(obs)
    hidden = [str(c) for c in state.hands[1] if c not in state.known_cards(1)]
    hidden += [str(c) for c in state.stock[state.stock_pos:]]
    assert not any(f'"{c}"' in text for c in hidden)


def test_discard_piles_are_shown_in_full_in_order() -> None:
    state = new(make_deal("5C 9C 3H 4H 6H 7H 8H", "2C 3S 4S 5S 6S 7S 8S"))
    play(state, "discard 5C", "draw", "discard 2C", "draw", "discard 9C")
    obs = state.observation(1)
    assert obs["discard_piles"]["C"] == ["5C", "2C", "9C"]
    assert obs["step"] == "draw" and obs["discarded"] == "9C"


# -- determinize -------------------------------------------------------------------

def test_determinize_keeps_what_the_seat_knows_and_varies_the_rest(data_dir: Path) -> None:
    rec = record.load(data_dir / "minus-twenty-take.json")
    state = new(rec.rounds[0].deal, rounds=1)
    play(state, *rec.rounds[0].moves[:22])  # Bo is to play; he holds the 4D Ann saw him take
    seat = 0
    obs = json.loads(json.dumps(state.observation(seat)))
    samples = [MINUS_TWENTY.determinize(obs, random.Random(i)) for i in range(30)]
    seen = set(cards(" ".join(c for pile in obs["discard_piles"].values() for c in pile)))
    for melds in obs["melds"]:
        seen.update(cards(" ".join(c for m in melds.values() for c in m)))
    for sample in samples:
        assert isinstance(sample, MinusTwentyState)
        assert json.dumps(sample.observation(seat), sort_keys=True) == json.dumps(obs, sort_keys=True)
        assert sorted(sample.hands[seat]) == sorted(state.hands[seat])
        assert Card.parse("4D") in sample.hands[1]  # Bo was seen taking it
        assert not set(sample.hands[1]) & (set(state.hands[seat]) | seen)
        assert sample.melds == state.melds and sample.discard_piles == state.discard_piles
        assert sample.moves == state.moves and sample.stall == state.stall
    assert len({tuple(sorted(s.hands[1])) for s in samples}) > 20
    assert len({tuple(s.stock[s.stock_pos:]) for s in samples}) == 30


def test_sampler_deals_the_unseen_cards_as_determinize_does(data_dir: Path) -> None:
    rec = record.load(data_dir / "minus-twenty-take.json")
    state = new(rec.rounds[0].deal, rounds=1)
    play(state, *rec.rounds[0].moves[:22])
    seat = 0
    obs = json.loads(json.dumps(state.observation(seat)))
    text = json.dumps(obs, sort_keys=True)
    sample = MINUS_TWENTY.sampler(obs)
    rng = random.Random(3)
    slow = [MINUS_TWENTY.determinize(obs, random.Random(i)) for i in range(400)]
    quick = [sample(rng) for _ in range(400)]
    unseen = set(quick[0].hands[1]) | set(quick[0].stock[quick[0].stock_pos:])
    for one in quick:
        assert isinstance(one, MinusTwentyState)
        assert json.dumps(one.observation(seat), sort_keys=True) == text
        assert Card.parse("4D") in one.hands[1]  # seen taken: always there
        assert set(one.hands[1]) | set(one.stock[one.stock_pos:]) == unseen
        assert one.stock[:one.stock_pos] == quick[0].stock[:quick[0].stock_pos]  # the past stays put
    assert quick[0].hands[1] != quick[1].hands[1]
    # Each unseen card is in the opponent's hand about as often either way (6 of 24 places: 25%).
    for card in unseen - {Card.parse("4D")}:
        a = sum(card in s.hands[1] for s in slow) / 400
        b = sum(card in s.hands[1] for s in quick) / 400
        assert abs(a - b) < 0.12, (card, a, b)
    # Samples are independent: playing on in one leaves the next untouched.
    first, second = sample(rng), sample(rng)
    while first.current_player() is not None:
        first.apply(first.legal_moves()[0])
    assert json.dumps(second.observation(seat), sort_keys=True) == text


def test_determinized_state_is_a_full_round_that_can_be_undone_and_recorded(data_dir: Path) -> None:
    rec = record.load(data_dir / "minus-twenty-stall.json")
    state = new(rec.rounds[0].deal, rounds=1)
    play(state, *rec.rounds[0].moves[:100])
    sample = MINUS_TWENTY.determinize(json.loads(json.dumps(state.observation(1))), random.Random(5))
    assert isinstance(sample, MinusTwentyState)
    again = record.replay(record.from_data(json.loads(json.dumps(record.to_data(sample)))))
    assert again.snapshot() == sample.snapshot()
    while sample.moves:
        sample.undo()
    assert [len(h) for h in sample.hands] == [7, 7] and sample.stock_pos == 0


def test_determinize_after_a_finished_round_uses_the_later_starter(data_dir: Path) -> None:
    rec = record.load(data_dir / "minus-twenty-starter.json")
    state = new(rec.rounds[0].deal, first=1)
    play(state, *rec.rounds[0].moves)
    state.next_round(rec.rounds[1].deal)
    play(state, *rec.rounds[1].moves[:9])
    obs = json.loads(json.dumps(state.observation(1)))
    sample = MINUS_TWENTY.determinize(obs, random.Random(1))
    assert isinstance(sample, MinusTwentyState)
    assert sample.starter == 0 and sample.current_player() == state.current_player() == 0
    assert json.dumps(sample.observation(1), sort_keys=True) == json.dumps(obs, sort_keys=True)


# -- the contract --------------------------------------------------------------------

def hide_minus_twenty(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the other hand's cards not seen taken, and the draw pile."""
    assert isinstance(state, MinusTwentyState)
    other = state.copy()
    assert isinstance(other, MinusTwentyState)
    hand = other.hands[1 - seat]
    unseen = [i for i, c in enumerate(hand) if c not in other.known_cards(1 - seat)]
    pool = [hand[i] for i in unseen] + other.stock[other.stock_pos:]
    rng.shuffle(pool)
    for i, card in zip(unseen, pool):
        hand[i] = card
    other.stock = other.stock[: other.stock_pos] + pool[len(unseen):]
    return other


@pytest.mark.parametrize(
    ("options", "matches"),
    [
        ({}, 200),
        ({"stall_limit": 3}, 400),
        ({"stall_limit": 0, "rounds": 1}, 100),
        ({"hand_size": 8, "rounds": 1}, 150),
        ({"hand_size": 1, "rounds": 2}, 60),
        ({"best_of": 3, "stall_limit": 5}, 150),
    ],
)
def test_conformance(options: dict[str, Any], matches: int) -> None:
    report = conformance.run(MINUS_TWENTY, hide_minus_twenty, matches=matches, options=options)
    assert report.matches == matches and report.deep_checks > matches


def test_conformance_target_score() -> None:
    # Random play rarely scores above zero: these matches run to the 100-round cap.
    report = conformance.run(MINUS_TWENTY, hide_minus_twenty, matches=2, deep_every=500,
                             options={"target_score": 1, "stall_limit": 3})
    assert report.matches == 2 and report.deep_checks > 2


def test_conformance_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    original = MinusTwentyState.observation

    def leaky(self: MinusTwentyState, seat: int) -> dict[str, Any]:
        obs = original(self, seat)
        obs["known"][1 - seat] = sorted(str(c) for c in self.hands[1 - seat])  # all of it, not only the known
        return obs

    monkeypatch.setattr(MinusTwentyState, "observation", leaky)
    with pytest.raises(conformance.ConformanceError, match="hidden cards change"):
        conformance.run(MINUS_TWENTY, hide_minus_twenty, matches=20)
