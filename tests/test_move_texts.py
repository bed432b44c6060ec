"""An observation's move history is rendered incrementally (issue 19): it must always say
exactly the round's moves, however they were made, undone and replaced."""

from __future__ import annotations

import random

import pytest

from parlour import games
from parlour.game import Move


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("seed", range(6))
def test_observed_moves_follow_apply_undo_and_new_rounds(game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    state = games.get(game_id).new_match(seed=seed)
    for _ in range(1500):
        if state.current_player() is None:
            if state.is_match_over():
                break
            state.next_round()
        elif state.moves and rng.random() < 0.3:
            for _ in range(rng.randint(1, min(4, len(state.moves)))):
                state.undo()
        else:
            state.apply(rng.choice(state.legal_moves()))
        if rng.random() < 0.5:
            seat = rng.randrange(state.num_players)
            seen = state.observation(seat)["moves"]
            assert seen == [str(m) for m in state.moves]
            seen.append("tampered")  # the caller's list is its own
            assert state.move_texts() == [str(m) for m in state.moves]


def test_a_copy_renders_its_own_moves() -> None:
    state = games.get("minus-twenty").new_match(seed=3)
    rng = random.Random(3)
    for _ in range(10):
        state.apply(rng.choice(state.legal_moves()))
    before = state.move_texts()
    copy = state.copy()
    copy.undo()
    copy.apply(copy.legal_moves()[-1])
    assert state.move_texts() == before
    assert copy.move_texts() == [str(m) for m in copy.moves]


def test_moves_replaced_at_the_same_length_are_not_shown_stale() -> None:
    state = games.get("minus-twenty").new_match(seed=5)
    first, second = state.legal_moves()[:2]
    state.apply(first)
    assert state.move_texts() == [str(first)]
    state.undo()
    state.apply(second)
    assert state.move_texts() == [str(second)]


def test_move_text_is_its_notation_and_round_trips() -> None:
    for text in ("draw", "play 7H", "take S", "discard TC", "draw 2"):
        assert str(Move.parse(text)) == text
        assert str(Move.parse(text)) == text  # the remembered text too


def test_a_number_equal_to_a_card_code_never_borrows_the_card_s_text() -> None:
    """``play 5`` equals ``play 2D`` as a value (a card is an int, 2D's code is 5), but each
    reads as itself whichever was rendered first: a hostile client typing ``play 5`` must
    not change how anyone's ``play 2D`` reads."""
    card = Move.parse("play 2D")
    number = Move("play", (int(card.args[0]),))
    assert number == card
    assert str(number) == f"play {int(card.args[0])}"
    assert str(card) == "play 2D"
    assert str(Move("play", (int(card.args[0]),))) == f"play {int(card.args[0])}"


def test_a_move_built_with_unhashable_arguments_is_still_refused_in_words() -> None:
    state = games.get("minus-twenty").new_match(seed=1)
    with pytest.raises(ValueError, match="must first play or discard a card, then draw"):
        state.apply(Move("draw", []))  # type: ignore[arg-type]
    assert str(Move("draw", [])) == "draw"  # type: ignore[arg-type]
