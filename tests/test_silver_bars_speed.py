"""100 Silver Bars' fast paths hold to the plain reading of the rules.

The engine knows a prebuilt move by its identity and keeps each vault's bars
as moves are made and undone; the sampler replays a round once and re-deals
only the unseen cards; the advice reads the engine's bits instead of the
vaults' cards.  Each is held here to a from-scratch recomputation, over
seeded random play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from parlour import games
from parlour.cards import Card
from parlour.game import IllegalMoveError, Move, State, restore_base
from parlour.games.silver_bars import (
    BAR,
    BAR_VALUE,
    HAND,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCKED,
    MINER,
    RUBBLE,
    SHOVEL,
    STRIKE,
    SilverBarsState,
    silver_bars_deck,
    vault_bars,
    vault_state,
)
from parlour.games.silver_bars.tables import ACTIONS, DISCARD, FEAT, FILL, LOCK, PLAY_ALONE, PLAY_AT, RESOLVE, STEAL

GAME = games.get("silver-bars")
OPTIONS: list[dict[str, Any]] = [
    {}, {"lo_thieves": 8, "hi_thieves": 4, "mining_packs": 1}, {"rubble": 0, "shovels": 0, "strikes": 0},
]


def random_positions(seeds: int, every: int = 1) -> list[SilverBarsState]:
    """Copies of positions of seeded random rounds (every ``every``-th move), under each option set."""
    found = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = GAME.new_match(seed=seed, options=OPTIONS[seed % len(OPTIONS)])
        assert isinstance(state, SilverBarsState)
        number = 0
        while state.current_player() is not None:
            if number % every == 0:
                found.append(state.copy())
            state.apply(rng.choice(state.legal_moves()))
            number += 1
        found.append(state.copy())
    return found


# -- the state kept move by move ----------------------------------------------------

def assert_vaults_agree(state: SilverBarsState) -> None:
    """Each vault's state code, bars and bits equal those read afresh from its cards."""
    for seat in (0, 1):
        fill = feat = 0
        for i, cards in enumerate(state.vaults[seat]):
            code = vault_state(cards, state.rubble[seat][i] is not None, state.vstate[seat][i] == LOCKED)
            assert state.vstate[seat][i] == code
            assert state.bars[seat][i] == vault_bars(cards)
            fill += FILL[code] << i
            feat += FEAT[code] << i
        assert (state.fill[seat], state.feat[seat]) == (fill, feat)
        locked = [i for i in range(5) if state.vstate[seat][i] == LOCKED]
        assert state.scores[seat] == sum(vault_bars(state.vaults[seat][i]) for i in locked)


@pytest.mark.parametrize("seed", range(12))
def test_bars_and_bits_follow_random_moves_and_undos(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_match(seed=seed, options=OPTIONS[seed % len(OPTIONS)])
    assert isinstance(state, SilverBarsState)
    checked = 0
    while state.current_player() is not None:
        assert_vaults_agree(state)
        if state.moves and rng.random() < 0.3:
            for _ in range(rng.randrange(1, min(4, len(state.moves)) + 1)):
                state.undo()
                assert_vaults_agree(state)
        state.apply(rng.choice(state.legal_moves()))
        checked += 1
    assert_vaults_agree(state)
    while state.moves:
        state.undo()
        assert_vaults_agree(state)
    assert checked > 50


def candidate_moves(state: SilverBarsState) -> list[Move]:
    """Every prebuilt move that could be legal with a card of the mover's hand, and the rest."""
    seat = state.to_move
    moves: list[Move] = [RESOLVE, *LOCK]
    for card in set(state.hands[seat]):
        moves += [DISCARD[card], PLAY_ALONE[card], *PLAY_AT[card]]
        if card in STEAL:
            moves += [m for row in STEAL[card] for m in row]
    return moves


def test_a_prebuilt_move_and_its_parsed_twin_do_the_same() -> None:
    """The engine knows a prebuilt move by its identity; the same move read from text takes
    the word-by-word path.  Both make the same position or raise the same error."""
    made = refused = 0
    for state in random_positions(30, every=5):
        if state.current_player() is None:
            continue
        for move in candidate_moves(state):
            twin = Move.parse(" ".join([move.verb, *map(str, move.args)]))  # as a player types it
            assert twin == move and twin is not move
            results = []
            for version in (move, twin):
                other = state.copy()
                try:
                    other.apply(version)
                except IllegalMoveError as error:
                    results.append(("illegal", str(error)))
                else:
                    assert other.moves[-1] is version
                    results.append(("made", other.snapshot()))
            assert results[0] == results[1], move
            if results[0][0] == "made":
                made += 1
                assert id(move) in ACTIONS and move in state.legal_moves()
            else:
                refused += 1
                assert move not in state.legal_moves()
    assert made > 1000 and refused > 1000


# -- the sampler ----------------------------------------------------------------------

def determinize_by_replay(observation: dict[str, Any], rng: random.Random) -> SilverBarsState:
    """Determinize as the rulebook reads: deal the unseen cards at random, then replay
    every move of the round from the deal."""
    options = dict(observation["options"])
    state = SilverBarsState(options, observation["first"], tuple(observation["names"]), None)
    restore_base(state, observation)
    seat = observation["seat"]
    moves = [Move.parse(m) for m in observation["moves"]]
    starter = state.round_starter(state.round_index)
    played: list[list[Card]] = [[], []]
    drawers = []
    for number, move in enumerate(moves):
        mover = (starter + number) % 2
        if move.verb in ("play", "discard"):
            played[mover].append(move.args[0])  # type: ignore[arg-type]
            drawers.append(mover)
    own = [Card.parse(c) for c in observation["hand"]]
    unseen = Counter(silver_bars_deck(options))
    unseen.subtract([*played[0], *played[1], *own])
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    size = observation["hand_sizes"][1 - seat]
    hands: list[list[Card]] = [[], []]
    hands[seat], hands[1 - seat] = own, pool[:size]
    received = [played[s] + hands[s] for s in (0, 1)]
    stock = []
    taken = [HAND, HAND]
    for mover in drawers:
        stock.append(received[mover][taken[mover]])
        taken[mover] += 1
    stock.extend(pool[size:])
    deal = {"hands": [received[0][:HAND], received[1][:HAND]], "stock": stock}
    state.deal = deal
    state._start_round(deal)
    for move in moves:
        state.apply(move)
    return state


def test_samples_are_the_states_a_replay_gives() -> None:
    checked = 0
    for number, state in enumerate(random_positions(40, every=9)):
        for seat in (0, 1):
            observation = dict(state.observation(seat))
            sample = GAME.sampler(observation)
            rng, again = random.Random(number), random.Random(number)
            for _ in range(3):
                fast = sample(rng)
                slow = determinize_by_replay(observation, again)
                assert fast.snapshot() == slow.snapshot()
                assert fast.deal == slow.deal and fast.history == slow.history
                assert fast.observation(seat) == state.observation(seat)
                checked += 1
    assert checked > 500


# -- the advice -------------------------------------------------------------------------

def advised_by_the_vaults(legal: Sequence[Move], vaults: Sequence[Sequence[Sequence[Card]]],
                          rubble: Sequence[Sequence[bool]], locked: Sequence[Sequence[bool]], seat: int,
                          hand: Sequence[Card], stock: int, locks_left: int) -> Move:
    """The advice of :mod:`parlour.bots.heuristic.silver_bars`, read from the vaults' cards."""
    def bars(cards: Sequence[Card]) -> int:
        return sum(BAR_VALUE[c] for c in cards)

    def top_bar(cards: Sequence[Card]) -> int:
        return BAR_VALUE[cards[-1]] if cards and KIND[cards[-1]] == BAR else 0

    mine, theirs = vaults[seat], vaults[1 - seat]

    def value(move: Move) -> float:
        verb, args = move
        if verb == "resolve":
            return 0.0
        if verb == "lock":
            worth = bars(mine[args[0] - 1])  # type: ignore[operator]
            waiting = sum(1 for i, v in enumerate(mine) if not locked[seat][i] and top_bar(v))
            ahead = sum(bars(v) for i, v in enumerate(mine) if locked[seat][i]) + worth
            behind = sum(bars(v) for i, v in enumerate(theirs) if locked[1 - seat][i])
            if locks_left == 1 and ahead > behind + 4:
                return 30.0 + worth
            if stock / 2 <= waiting + 1:
                return 20.0 + worth
            return worth - 9 + 0.5
        card: Card = args[0]  # type: ignore[assignment]
        kind = KIND[card]
        if verb == "discard":
            if kind == BAR:
                keep = 1.0 + BAR_VALUE[card] / 2
            elif kind == MINER:
                keep = 1.0 if any(0 < top_bar(v) < 6 for i, v in enumerate(mine) if not locked[seat][i]) else 0.2
            elif kind == RUBBLE:
                keep = 1.0 if any(not v and not rubble[1 - seat][i] and not locked[1 - seat][i]
                                  for i, v in enumerate(theirs)) else 0.3
            elif kind == SHOVEL:
                keep = 1.0 if any(rubble[seat]) else 0.2
            else:
                keep = 1.5
            return -keep - 0.5
        if kind == BAR:
            return 2.0 + (6 - BAR_VALUE[card]) * 0.4 if not mine[args[1] - 1] else 2.0 + BAR_VALUE[card]  # type: ignore[operator]
        if kind == MINER:
            under = top_bar(mine[args[1] - 1])  # type: ignore[operator]
            higher = any(KIND[c] == BAR and BAR_VALUE[c] > under for c in hand)
            return (2.5 if higher else 0.8) if under < 6 else -3.0
        if kind == RUBBLE:
            return 2.5
        if kind == SHOVEL:
            return 2.5 if any(KIND[c] == BAR for c in hand) else 0.5
        if kind in (LO_THIEF, HI_THIEF):
            return 1.5 * top_bar(theirs[args[1] - 1]) + 1.0  # type: ignore[operator]
        if kind == STRIKE:
            return 2.0 * sum(1 for i, v in enumerate(theirs) if not locked[1 - seat][i] and v
                             and KIND[v[-1]] == MINER) + 1.5
        return 0.0

    best, best_value = legal[0], -1e9
    for move in legal:
        if value(move) > best_value:
            best, best_value = move, value(move)
    return best


def test_the_advice_is_the_same_from_the_state_the_observation_and_the_cards() -> None:
    from parlour.bots.heuristic import silver_bars as advice

    checked = 0
    for state in random_positions(60, every=2):
        seat = state.current_player()
        if seat is None:
            continue
        legal = state.legal_moves()
        rubble = [[r is not None for r in state.rubble[s]] for s in (0, 1)]
        locked = [[code == LOCKED for code in state.vstate[s]] for s in (0, 1)]
        expected = advised_by_the_vaults(legal, state.vaults, rubble, locked, seat, state.hands[seat],
                                         len(state.stock) - state.stock_pos, 5 - state.locked[seat])
        assert advice.best_move(legal, state, seat, state.hands[seat], len(state.stock) - state.stock_pos,
                                5 - state.locked[seat]) is expected
        assert advice.choose(state.observation(seat), legal, random.Random(0)) is expected
        if len(legal) > 1:
            assert advice.rollout(state, random.Random(0)) is expected
        checked += 1
    assert checked > 2000


def test_the_evaluation_reads_the_bars_kept_move_by_move() -> None:
    from parlour.bots.heuristic import silver_bars as advice

    for state in random_positions(20, every=3):
        expected = []
        for seat in (0, 1):
            total = 0.0
            for i, cards in enumerate(state.vaults[seat]):
                if state.vstate[seat][i] == LOCKED:
                    total += vault_bars(cards)
                elif cards:
                    total += vault_bars(cards) * advice.OPEN_VAULT_WORTH[0 if KIND[cards[-1]] == BAR else 1]
            expected.append(total)
        assert advice.evaluate(state) == expected


def test_search_with_the_advice_is_seeded() -> None:
    """The same seed, the same search (the fast sampler and the advice draw nothing of their own)."""
    from parlour.bots.ismcts import ISMCTSBot

    state: State = random_positions(1, every=30)[1]
    seat = state.current_player()
    assert seat is not None
    runs = [
        [(e.move, e.visits, e.value) for e in ISMCTSBot(iterations=60, rollout="heuristic").analyse(
            state.observation(seat), state.legal_moves(), random.Random(4))]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
