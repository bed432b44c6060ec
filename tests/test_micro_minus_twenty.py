"""Minus Twenty's smaller decks and its micro variant: the options ``suits``, ``numbers``,
``investments`` and ``minus`` (defaults keep the rules' game), the micro variant played
through by the bots and the conformance check, and the tight bounds (never exceeded, and
reached or nearly so)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from parlour import bots, conformance, games, record
from parlour.cards import cards
from parlour.game import Bounds, IllegalMoveError, OptionError, State
from parlour.games.minus_twenty import (
    LEVEL,
    VALUE,
    MinusTwentyState,
    deck_for,
    meld_arithmetic,
    meld_score,
    minus_twenty_deck,
)
from parlour.match import play_bots
from test_minus_twenty import hide_minus_twenty as hide

MINUS_TWENTY = games.get("minus-twenty")
MICRO = dict(MINUS_TWENTY.micro_options)
DEFAULTS = MINUS_TWENTY.check_options({})




# -- the options -------------------------------------------------------------------

def test_defaults_keep_the_rules_game() -> None:
    assert {k: DEFAULTS[k] for k in ("suits", "numbers", "investments", "minus")} == {
        "suits": 4, "numbers": 9, "investments": 3, "minus": 20}
    assert MINUS_TWENTY.deck(DEFAULTS) == minus_twenty_deck()
    assert MINUS_TWENTY.non_default_options(DEFAULTS) == {}
    assert [o.name for o in MINUS_TWENTY.options][:1] == ["hand_size"]  # the old options keep their places


def test_the_options_make_a_smaller_deck() -> None:
    assert " ".join(map(str, MINUS_TWENTY.deck(MICRO))) == "7C 8C 9C TC JC"
    assert " ".join(map(str, deck_for(2, 3, 1))) == "8C 8D 9C 9D TC TD JC JD"
    assert len(deck_for(3, 9, 0)) == 27
    state = MINUS_TWENTY.new_match(seed=3, options=MICRO)
    assert isinstance(state, MinusTwentyState)
    assert [len(h) for h in state.hands] == [1, 1] and len(state.stock) == 3


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"suits": 0}, "at least 1"),
        ({"suits": 5}, "at most 4"),
        ({"numbers": 0}, "at least 1"),
        ({"numbers": 10}, "at most 9"),
        ({"investments": -1}, "at least 0"),
        ({"investments": 4}, "at most 3"),
        ({"minus": -1}, "at least 0"),
        ({"minus": 55}, "at most 54"),
        ({"minus": "12"}, "whole number"),
        ({"numbers": 2}, "add up to 19, so no meld could make up minus 20"),
        ({"numbers": 4, "minus": 34}, "add up to 34"),
        ({**MICRO, "hand_size": 3}, "deals 6 cards, and the deck of 5 .* hand_size must be at most 2"),
        ({"suits": 1, "hand_size": 6}, "deck of 12 .* at most 5"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, Any], expected: str) -> None:
    with pytest.raises(OptionError, match=expected):
        MINUS_TWENTY.check_options(options)


def test_minus_sets_what_a_meld_must_make_up() -> None:
    assert meld_score(cards("JC 7C 8C"), 12) == (15 - 12) * 2
    assert meld_arithmetic(cards("JC 7C 8C"), 12) == "(15 − 12) × 2"
    assert meld_score(cards("JC 7C 8C")) == (15 - 20) * 2
    deal = {"hands": [cards("7C"), cards("9C")], "stock": cards("JC TC 8C")}
    state = MINUS_TWENTY.new_match(deal=deal, first=0, options=MICRO)
    for text in ("discard 7C", "draw", "play 9C", "draw", "play JC", "take C", "play TC", "draw"):
        state.apply(state.parse_move(text))
    assert state.is_round_over() and state.scores == [-24, 7]
    assert [e.points for e in state.events] == [-24, 7]
    assert "(0 − 12) × 2" in state.events[0].text
    assert MINUS_TWENTY.display_values(state.observation(0))["melds"][0]["C"] == -24


def test_cards_outside_the_options_deck_are_refused() -> None:
    state = MINUS_TWENTY.new_match(seed=1, options=MICRO)
    with pytest.raises(IllegalMoveError, match="2♣ is not in this match's deck"):
        state.parse_move("play 2C")
    with pytest.raises(IllegalMoveError, match="A♣ is not used in Minus Twenty"):
        state.parse_move("discard AC")
    with pytest.raises(ValueError, match="Minus Twenty"):
        MINUS_TWENTY.new_match(deal={"hands": [cards("7C"), cards("9C")], "stock": cards("JC TC 2C")},
                               options=MICRO)


# -- the micro variant, played through -----------------------------------------------

@pytest.mark.parametrize(
    ("options", "matches"),
    [
        (MICRO, 300),
        ({**MICRO, "rounds": 3}, 100),
        ({"suits": 2, "numbers": 3, "investments": 0, "hand_size": 2, "stall_limit": 3, "rounds": 2}, 150),
        ({"suits": 3, "numbers": 5, "investments": 2, "minus": 10, "rounds": 1}, 40),
        ({"numbers": 1, "investments": 0, "minus": 5, "hand_size": 1, "rounds": 1}, 40),
    ],
)
def test_conformance_on_smaller_decks(options: dict[str, Any], matches: int) -> None:
    report = conformance.run(MINUS_TWENTY, hide, matches=matches, options=options)
    assert report.matches == matches and report.deep_checks > 0


@pytest.mark.parametrize("players", [("random", "random"), ("medium", "random"), ("random", "medium")])
def test_bots_play_the_micro_variant_and_records_round_trip(players: tuple[str, str]) -> None:
    for seed in range(20):
        state = play_bots(MINUS_TWENTY, [bots.make(p) for p in players], seed=seed, options=MICRO)
        assert state.is_match_over()
        data = record.to_data(state)
        assert data["options"] == MICRO  # every micro option differs from its default
        again = record.replay(record.loads(json.dumps(data)))  # the moves written in notation, read back
        assert again.snapshot() == state.snapshot() and again.totals == state.totals


def test_hard_plays_the_micro_variant() -> None:
    state = play_bots(MINUS_TWENTY, [bots.make("hard"), bots.make("medium")], seed=2, options=MICRO)
    assert state.is_match_over() and len(state.round_scores()) == 1


def test_medium_beats_random_on_the_micro_variant() -> None:
    """Seeded duplicate deals (each deal played from both seats).  Over 1,000 deals
    (``parlour arena``) medium won 1,153 matches, drew 716 and lost 131: +2.9 points a match."""
    margins = []
    for seed in range(50):
        for seats in (("medium", "random"), ("random", "medium")):
            state = play_bots(MINUS_TWENTY, [bots.make(p) for p in seats], seed=seed, options=MICRO)
            medium = seats.index("medium")
            margins.append(state.totals[medium] - state.totals[1 - medium])
    wins, losses = sum(m > 0 for m in margins), sum(m < 0 for m in margins)
    assert wins > 4 * losses and sum(margins) > len(margins)


# -- the bounds ----------------------------------------------------------------------

def test_bounds_of_the_default_and_micro_games() -> None:
    assert MINUS_TWENTY.bounds(DEFAULTS) == Bounds(3, 2 * (1 + 33 * 60), 531)
    assert MINUS_TWENTY.bounds(MINUS_TWENTY.check_options(MICRO)) == Bounds(1, 10, 32)
    with pytest.raises(ValueError, match="stall_limit"):
        MINUS_TWENTY.bounds(MINUS_TWENTY.check_options({"stall_limit": 0}))


def _round_sizes(options: dict[str, Any], players: tuple[str, str], seeds: range) -> tuple[int, int]:
    """The longest round and the widest margin of seeded matches."""
    longest = widest = 0
    for seed in seeds:
        state = play_bots(MINUS_TWENTY, [bots.make(p) for p in players], seed=seed, options=options)
        # history holds the rounds before the last; the last is the state's own
        for moves, scores in [*((r.moves, r.scores) for r in state.history), (state.moves, state.scores)]:
            longest = max(longest, len(moves))
            widest = max(widest, abs(scores[0] - scores[1]))
    assert longest > 0
    return longest, widest


@pytest.mark.parametrize(
    ("options", "players", "seeds"),
    [
        ({"rounds": 1}, ("random", "random"), range(60)),
        ({"rounds": 1}, ("medium", "random"), range(10)),
        ({"rounds": 1, "stall_limit": 4}, ("random", "random"), range(60)),
        (MICRO, ("random", "random"), range(400)),
        (MICRO, ("medium", "random"), range(200)),
    ],
)
def test_play_stays_inside_the_bounds(options: dict[str, Any], players: tuple[str, str], seeds: range) -> None:
    bounds = MINUS_TWENTY.bounds(MINUS_TWENTY.check_options(options))
    longest, widest = _round_sizes(options, players, seeds)
    assert longest <= bounds.moves and widest < bounds.points


def test_the_micro_bounds_are_exact() -> None:
    """Every deal and every line of play of the micro variant: the longest round is the
    bound's, and the widest margin is one less than its points (the bound is more than any)."""
    options = MINUS_TWENTY.check_options(MICRO)
    deck = MINUS_TWENTY.deck(options)
    longest = widest = 0

    def walk(state: State) -> None:
        nonlocal longest, widest
        if state.is_round_over():
            longest = max(longest, len(state.moves))
            widest = max(widest, abs(state.scores[0] - state.scores[1]))
            return
        for move in state.legal_moves():
            state.apply(move)
            walk(state)
            state.undo()

    for order in itertools.permutations(deck):
        walk(MINUS_TWENTY.new_match(deal={"hands": [[order[0]], [order[1]]], "stock": list(order[2:])},
                                    options=options))
    assert (longest, widest + 1) == MINUS_TWENTY.bounds(options)[1:]


def _longest_round(options: dict[str, Any], seed: int) -> int:
    """A round made as long as it can be: take from a discard pile while the stall rule
    allows, and discard (never meld) so that some other pile still has a card to take."""
    state = MINUS_TWENTY.new_match(seed=seed, options=options)
    assert isinstance(state, MinusTwentyState)
    while not state.is_round_over():
        legal = state.legal_moves()
        if state.drawing:
            takes = [m for m in legal if m.verb == "take"]
            state.apply(takes[0] if takes and state.stall < state.stall_limit - 1 else legal[0])
            continue
        piles = state.discard_piles
        discards = [m for m in legal if m.verb == "discard"]
        keep = [m for m in discards if any(piles[s] for s in range(4) if s != m.args[0] & 3)]  # type: ignore[operator]
        state.apply((keep or discards)[0])
    return len(state.moves)


@pytest.mark.parametrize(
    "options", [{}, {"stall_limit": 3}, {"hand_size": 1}, {"suits": 2, "hand_size": 2, "stall_limit": 4}])
def test_the_moves_bound_is_reached(options: dict[str, Any]) -> None:
    longest = max(_longest_round(options, seed) for seed in range(5))
    assert longest == MINUS_TWENTY.bounds(MINUS_TWENTY.check_options(options)).moves


def _cooperative_margin(options: dict[str, Any], seed: int) -> int:
    """Seat 0's margin in a round both seats play for it, seeing every card: seat 0 puts down
    investment cards and numbers from 4 up that fit its melds, lowest first; seat 1 puts
    down investment cards alone; each discards what the other wants and takes what it wants."""
    state = MINUS_TWENTY.new_match(seed=seed, options=options, first=0)
    assert isinstance(state, MinusTwentyState)

    def wanted(seat: int, card: int) -> bool:
        top = state.tops[seat][card & 3]
        if seat == 0:
            return top < LEVEL[card] and (VALUE[card] == 0 or VALUE[card] >= 4)
        return VALUE[card] == 0 and top == 0

    while not state.is_round_over():
        seat = state.to_move
        legal = state.legal_moves()
        if state.drawing:
            takes = [m for m in legal if m.verb == "take" and wanted(seat, state.discard_piles[
                "CDHS".index(str(m.args[0]))][-1])]
            state.apply(takes[0] if takes and state.stall < state.stall_limit - 1 else legal[0])
            continue
        plays = [m for m in legal if m.verb == "play" and wanted(seat, m.args[0])]  # type: ignore[arg-type]
        if plays:
            state.apply(min(plays, key=lambda m: VALUE[m.args[0]]))  # type: ignore[index]
        else:
            discards = [m for m in legal if m.verb == "discard"]
            state.apply(max(discards, key=lambda m: (wanted(1 - seat, m.args[0]),  # type: ignore[arg-type]
                                                      -VALUE[m.args[0]])))  # type: ignore[index]
    return state.scores[0] - state.scores[1]


def test_the_points_bound_is_not_vacuous() -> None:
    """The best of 20 cooperative rounds reaches 70% of the default game's bound (375 of 530)."""
    points = MINUS_TWENTY.bounds(DEFAULTS).points
    best = max(_cooperative_margin({}, seed) for seed in range(20))
    assert 0.7 * (points - 1) <= best < points
