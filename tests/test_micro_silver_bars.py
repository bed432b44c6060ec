"""100 Silver Bars' micro variant and its rule options (a smaller deck, smaller hands, one
round), and the game's bounds: how long a round can last and how far a player can lead."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from parlour import bots, conformance
from parlour.cards import Card
from parlour.game import Move, OptionError, State
from parlour.games.silver_bars import BAR, KIND, MINER, silver_bars_deck
from parlour.games.silver_bars.game import GAME
from test_silver_bars import hide_silver_bars as hide

MICRO = dict(GAME.micro_options)
SMALL = {"mining_packs": 1, "suits": 2, "bar_ranks": 4, "miner_ranks": 2, "hand_size": 3, "target_score": 15}
"""A small deck that still has every special card: 16 bars and miners, 23 specials."""




# -- the options -----------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "message"), [
    ({"suits": 0}, "'suits' must be at least 1"),
    ({"suits": 5}, "'suits' must be at most 4"),
    ({"bar_ranks": 0}, "'bar_ranks' must be at least 1"),
    ({"bar_ranks": 6}, "'bar_ranks' must be at most 5"),
    ({"miner_ranks": -1}, "'miner_ranks' must be at least 0"),
    ({"miner_ranks": 5}, "'miner_ranks' must be at most 4"),
    ({"hand_size": 0}, "'hand_size' must be at least 1"),
    ({"hand_size": 8}, "'hand_size' must be at most 7"),
    ({"hand_size": "2"}, "'hand_size' must be a whole number"),
    ({**MICRO, "hand_size": 3}, "a deck of 5 cards cannot deal two hands of 3 and leave a draw pile"),
    ({"mining_packs": 1, "suits": 1, "bar_ranks": 1, "miner_ranks": 0, "rubble": 0, "shovels": 0, "strikes": 0,
      "lo_thieves": 0, "hi_thieves": 0}, "a deck of 1 card cannot deal two hands of 7"),
])
def test_bad_options_are_refused_with_the_reason(given: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        GAME.check_options(given)


def test_the_defaults_are_the_source_deal() -> None:
    options = GAME.check_options()
    deck = silver_bars_deck(options)
    kinds = Counter(KIND[c] for c in deck)
    assert len(deck) == 95 and kinds[BAR] == 40 and kinds[MINER] == 32
    assert GAME.hand_size(options) == 7 and GAME.non_default_options(options) == {}
    state = GAME.new_match(seed=5)
    assert [len(h) for h in state.hands] == [7, 7] and len(state.stock) == 81


def test_the_deck_options_keep_the_lowest_ranks_of_the_first_suits() -> None:
    deck = silver_bars_deck({"mining_packs": 1, "suits": 2, "bar_ranks": 3, "miner_ranks": 1,
                             "rubble": 0, "shovels": 0, "strikes": 0, "lo_thieves": 0, "hi_thieves": 0})
    assert " ".join(map(str, deck)) == "AC AD 2C 2D 3C 3D 7C 7D"
    assert " ".join(map(str, silver_bars_deck(MICRO))) == "AC 2C 3C 7C JC"
    # Every card the options can deal is in the card universe the RL spaces are built on.
    assert set(silver_bars_deck(MICRO)) <= set(GAME.card_universe())


def test_the_micro_variant_deals_one_card_each_and_three_to_draw() -> None:
    state = GAME.new_match(seed=3, options=MICRO)
    assert [len(h) for h in state.hands] == [1, 1] and len(state.stock) == 3
    assert GAME.deal_layout(state.options) == [("hands", 0), ("hands", 1)]
    with pytest.raises(ValueError, match="each hand must hold 1 cards"):
        GAME.check_deal({"hands": [[Card.parse("AC"), Card.parse("2C")], []],
                         "stock": [Card.parse(t) for t in ("3C", "7C", "JC")]}, state)


def test_the_options_are_listed_to_players() -> None:
    names = {option.name for option in GAME.options}
    assert {"suits", "bar_ranks", "miner_ranks", "hand_size"} <= names
    assert set(MICRO) <= names


# -- playing the micro variant ------------------------------------------------------------------

@pytest.mark.parametrize(("options", "matches", "deep_every"), [(MICRO, 400, 2), (SMALL, 25, 8)])
def test_conformance(options: dict[str, Any], matches: int, deep_every: int) -> None:
    report = conformance.run(GAME, hide, matches=matches, options=options, deep_every=deep_every)
    assert report.matches == matches and report.deep_checks > matches


def _play(options: dict[str, Any], players: tuple[str, str], seed: int) -> State:
    """One seeded round between two bots."""
    seats = [bots.make(p) for p in players]
    rng = random.Random(seed)
    state = GAME.new_match(seed=seed, options={**options, "max_rounds": 1})
    while not state.is_round_over():
        seat = state.current_player()
        assert seat is not None
        state.apply(seats[seat].choose(state.observation(seat), state.legal_moves(), rng))
    return state


@pytest.mark.parametrize("players", [("random", "medium"), ("medium", "random"), ("hard", "medium")])
def test_bots_play_the_micro_variant_through(players: tuple[str, str]) -> None:
    for seed in range(3 if "hard" in players else 40):
        state = _play(MICRO, players, seed)
        assert state.is_match_over() and len(state.moves) <= GAME.bounds(state.options).moves
        for move in state.moves:  # the notation round-trips
            assert Move.parse(str(move)) == move


# -- the bounds ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "expected"), [
    ({}, (50, 91, 81)),  # 81 cards to draw + 8 locks + 2 strikes; 80, a Perfect Round
    (MICRO, (1, 5, 4)),  # 3 to draw + 2 locks; one bar, the 3, locked before the last draw
    # 45 to draw + 8 locks + 2 strikes; 60: 16 bars (four 6s, 4s, 3s, 2s) and 11 miners are 27 plays
    # of one seat's, which the draw pile allows against the opponent's 13 plays at least
    ({"mining_packs": 1}, (50, 55, 61)),
])
def test_the_bounds(options: dict[str, Any], expected: tuple[int, int, int]) -> None:
    assert tuple(GAME.bounds(GAME.check_options(options))) == expected


def _cooperative(options: dict[str, Any], seed: int) -> State:
    """A round in which seat 0 plays medium's advice and seat 1 only discards (or locks when
    that is all it can do): how far seat 0 gets with nobody in its way."""
    state = GAME.new_match(seed=seed, options={**options, "max_rounds": 1})
    rng = random.Random(seed)
    medium = bots.make("medium")
    while not state.is_round_over():
        legal = state.legal_moves()
        if state.to_move == 0:
            move = medium.choose(state.observation(0), legal, rng)
        else:
            move = next((m for m in legal if m.verb == "discard"), legal[0])
        state.apply(move)
    return state


@pytest.mark.parametrize(("options", "rounds", "share"), [({}, 200, 0.7), (MICRO, 200, 0.75), (SMALL, 200, 0.5)])
def test_play_stays_inside_the_bounds_and_reaches_near_them(
    options: dict[str, Any], rounds: int, share: float
) -> None:
    """Random play and medium against random never exceed the bounds; medium with an opponent
    that only discards leads by at least ``share`` of ``points`` in the best of its rounds
    (the micro variant's 3 of 4 is the most there is: ``points`` is one more than a lead can be)."""
    bounds = GAME.bounds(GAME.check_options(options))
    most_moves = widest = 0
    for seed in range(rounds):
        for players in (("random", "random"), ("medium", "random")):
            state = _play(options, players, seed)
            most_moves = max(most_moves, len(state.moves))
            widest = max(widest, abs(state.scores[0] - state.scores[1]))
    assert most_moves <= bounds.moves and widest < bounds.points
    best = max(_cooperative(options, seed).scores[0] for seed in range(rounds))
    assert share * bounds.points <= best < bounds.points
    if options == MICRO:
        assert most_moves == bounds.moves  # the micro variant's longest round is played


def test_the_terminal_and_web_tables_show_a_micro_round() -> None:
    from rich.console import Console

    from parlour.terminal.silver_bars import render
    from parlour.web.layouts.silver_bars import layout

    state = GAME.new_match(seed=4, options=MICRO)
    while not state.is_round_over():
        seat = state.to_move
        console = Console(width=100, record=True, color_system=None)
        console.print(render(state.observation(seat)))
        assert f"Draw pile {len(state.stock) - state.stock_pos}" in console.export_text()
        assert layout(state.observation(seat), [str(m) for m in state.legal_moves()])
        state.apply(state.legal_moves()[0])
