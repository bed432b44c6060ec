"""Twenty's fast paths hold what the slow ones did: the count of unplayed values kept in the
state, undo from its record, the sampler's states, the event tables and the advice's tables
each equal a recomputation from scratch, on many seeded positions."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from parlour import games
from parlour.bots.heuristic import twenty as advice
from parlour.cards import Card
from parlour.game import Event, State
from parlour.games.twenty import (
    HAND,
    MAX_TALLY,
    PACK_VALUES,
    PLAY,
    VALUE,
    TwentyState,
    tally_name,
    tally_points,
)

TWENTY = games.get("twenty")


def counted(cards: list[Card]) -> list[int]:
    """How many of ``cards`` have each value, 0 to 10."""
    counts = [0] * 11
    for card in cards:
        counts[VALUE[card]] += 1
    return counts


def unplayed_from_scratch(state: TwentyState) -> list[int]:
    """The values still in the hands and the stock, counted card by card."""
    return counted([*state.hands[0], *state.hands[1], *state.stock[state.stock_pos:]])


def replayed(state: TwentyState) -> TwentyState:
    """The same round, dealt afresh and its moves made again."""
    assert state.deal is not None
    fresh = TWENTY.new_match(deal=state.deal, first=state.first, options=state.options, names=state.names)
    assert isinstance(fresh, TwentyState)
    for move in state.moves:
        fresh.apply(move)
    return fresh


def fields(state: State) -> dict[str, Any]:
    """Everything a state holds, for comparison (its RNG by its position)."""
    found = dict(vars(state))
    rng = found.pop("rng")
    found["rng"] = rng.getstate() if rng is not None else None
    return found


def mid_round(seed: int, open_hands: bool = False) -> TwentyState:
    """A position reached by seeded random play: round 1 or 2, early, late or over."""
    rng = random.Random(seed)
    state = TWENTY.new_match(seed=seed, options={"open_hands": open_hands})
    assert isinstance(state, TwentyState)
    if seed % 3 == 0:
        while state.legal_moves():
            state.apply(rng.choice(state.legal_moves()))
        state.next_round()
    for _ in range(rng.randrange(51)):
        if not state.legal_moves():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


# -- the engine --------------------------------------------------------------------------

@pytest.mark.parametrize("open_hands", [False, True])
def test_unplayed_and_undo_match_a_recount_and_a_replay(open_hands: bool) -> None:
    """Random runs of moves and undos: the count kept equals a recount, and the state
    equals its own moves replayed on the deal, field by field."""
    for seed in range(60):
        rng = random.Random(seed)
        state = TWENTY.new_match(seed=seed, options={"open_hands": open_hands})
        assert isinstance(state, TwentyState)
        for _ in range(120):
            if state.moves and (not state.legal_moves() or rng.random() < 0.35):
                state.undo()
            else:
                state.apply(rng.choice(state.legal_moves()))
            assert state.unplayed == unplayed_from_scratch(state)
            if rng.random() < 0.2:
                assert fields(state) == fields(replayed(state)) | {"rng": fields(state)["rng"]}
        while state.moves:
            state.undo()
        assert fields(state) == fields(replayed(state)) | {"rng": fields(state)["rng"]}


def test_a_copy_keeps_its_own_count() -> None:
    state = mid_round(4)
    copy = state.copy()
    assert isinstance(copy, TwentyState)
    assert copy.unplayed == state.unplayed and copy.unplayed is not state.unplayed
    copy.apply(copy.legal_moves()[0])
    assert state.unplayed == unplayed_from_scratch(state)
    assert copy.unplayed == unplayed_from_scratch(copy)


def test_undo_takes_a_set_aside_tally_back_whole() -> None:
    """A tally of 20 or more goes back on the table as it was, wherever the set-aside pile
    splits into tallies."""
    for seed in range(40):
        rng = random.Random(seed)
        state = TWENTY.new_match(seed=seed)
        assert isinstance(state, TwentyState)
        while state.legal_moves():
            before = (list(state.tally), state.tally_value, list(state.set_aside), state.last_scorer)
            state.apply(rng.choice(state.legal_moves()))
            if not state.tally and before[0]:
                state.undo()
                assert (state.tally, state.tally_value, state.set_aside, state.last_scorer) == before
                state.apply(rng.choice(state.legal_moves()))


def test_every_event_comes_from_its_table_as_the_rules_word_it() -> None:
    """The prebuilt events are those the rules name, with the points the rules give."""
    seen: set[tuple[str, int, str]] = set()
    for seed in range(200):
        rng = random.Random(seed)
        state = TWENTY.new_match(seed=seed)
        while not state.is_match_over():
            if not state.advance():
                state.apply(rng.choice(state.legal_moves()))
            for event in state.events:
                seen.add((event.kind, event.points, event.text))
                assert isinstance(event, Event) and event.other is None
    wording = {
        "Exact Twenty": lambda points: f"{{player}} {{score}} {points} for Exact Twenty",
        "End of Round Bonus": lambda points: f"{{player}} {{take}} the End of Round Bonus of {points}",
        "New Hand": lambda points: "{player} {be} dealt a new hand of five",
    }
    for kind, points, text in seen:
        if kind == "Beyond Twenty":
            assert text == f"{{player}} {{score}} {points} for Beyond Twenty (tally {20 + points})"
        elif kind.endswith("Tally"):
            size = next(n for n in range(HAND, MAX_TALLY + 1) if tally_name(n) == kind)
            assert points == tally_points(size) and text == f"{{player}} {{score}} {points} for {kind}"
        else:
            assert text == wording[kind](points)
    assert {kind for kind, _, _ in seen} >= {"Exact Twenty", "Beyond Twenty", "Five Tally", "Six Tally",
                                             "End of Round Bonus", "New Hand"}


def test_legal_moves_are_fresh_lists_of_the_prebuilt_moves() -> None:
    state = mid_round(7)
    legal = state.legal_moves()
    assert legal == [PLAY[c] for c in state.hands[state.to_move]]
    legal.clear()
    assert state.legal_moves() == [PLAY[c] for c in state.hands[state.to_move]]


# -- the sampler -------------------------------------------------------------------------

@pytest.mark.parametrize("open_hands", [False, True])
def test_sampler_deals_what_determinize_deals(open_hands: bool) -> None:
    """Each sample is, field by field, the state :meth:`determinize` gives with the same RNG."""
    for seed in range(40):
        state = mid_round(seed, open_hands)
        for seat in (0, 1):
            observation = state.observation(seat)
            sample = TWENTY.sampler(observation)
            for k in range(4):
                fast = sample(random.Random(k))
                slow = TWENTY.determinize(observation, random.Random(k))
                assert fields(fast) == fields(slow)
                if fast.legal_moves():  # and the samples are separate states
                    fast.apply(fast.legal_moves()[0])
                    assert fields(sample(random.Random(k))) == fields(slow)


# -- the advice --------------------------------------------------------------------------

def test_chance_tables_are_the_formula() -> None:
    """For every count a round can have, and beyond (a hand of six, fifty cards unseen)."""
    for hand in range(HAND + 2):
        for unseen in range(51):
            table = advice.chance_table(unseen, hand)
            most = min(unseen, max(PACK_VALUES))  # no value has more cards than the tens' sixteen
            assert list(table[:most + 1]) == [advice.holds_chance(unseen, n, hand) for n in range(most + 1)]


@pytest.mark.parametrize("open_hands", [False, True])
def test_rollout_counts_what_the_other_hand_and_the_stock_hold(open_hands: bool) -> None:
    """The rollout's count (the state's, less the mover's hand) gives the card the count of
    the other hand and the stock, card by card, gives."""
    for seed in range(150):
        state = mid_round(seed, open_hands)
        if not state.legal_moves():
            continue
        seat = state.to_move
        other = state.hands[1 - seat]
        known = [VALUE[c] for c in other] if open_hands else None
        size = len(other) or (HAND if state.stock_pos < len(state.stock) else 0)
        card = advice.best_card(state.hands[seat], state.tally_value, len(state.tally),
                                counted([*other, *state.stock[state.stock_pos:]]), size, known)
        assert advice.rollout(state, random.Random(seed)) is PLAY[card]


ADVISED = [
    ([69, 80], "b35c89a22750"), ([98, 98], "77ad907149e9"), ([93, 103], "d90abe0c6927"),
    ([82, 82], "a372aa60ca95"), ([97, 68], "943b4082f591"), ([74, 74], "8548e9640b3f"),
    ([72, 91], "988aaaff0540"), ([65, 65], "1d3534f64f9d"),
]
"""Pinned before the advice read the state's count and its tables: seeded matches (open
hands at odd seeds) played by the advice on both sides, their totals and a digest of their moves."""


@pytest.mark.parametrize("policy", ["choose", "rollout"])
def test_the_advice_plays_the_pinned_matches(policy: str) -> None:
    for seed, pinned in enumerate(ADVISED):
        state = TWENTY.new_match(seed=seed, options={"open_hands": seed % 2 == 1})
        rng = random.Random(seed)
        played = []
        while not state.is_match_over():
            if state.advance():
                continue
            seat = state.current_player()
            assert seat is not None
            if policy == "choose":
                move = advice.choose(state.observation(seat), state.legal_moves(), rng)
            else:
                move = advice.rollout(state, rng)
            played.append(str(move))
            state.apply(move)
        assert (state.totals, hashlib.sha256(" ".join(played).encode()).hexdigest()[:12]) == pinned
