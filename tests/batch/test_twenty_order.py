"""Twenty's batched engine gives the legal actions in the rules engine's order (what
:mod:`parlour.batch.arena` needs to play the lab's random bots to the same results): after
:meth:`TwentyBatch.set_match`, while :meth:`TwentyBatch.random_rounds` plays, the engine's hand to
move is ``TwentyState.legal_moves`` at every step, and its draws are ``rng.choice``'s."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from parlour import games
from parlour.batch import mt
from parlour.batch.twenty import TwentyBatch
from parlour.envs.spaces import space

ACTIONS = space("twenty").actions
GAME = games.get("twenty")
VARIANTS: list[dict[str, Any] | None] = [
    None,
    {"open_hands": True, "rounds": 3},
    {"hand_size": 3, "ranks": 12},
    {"suits": 2, "hand_size": 2, "hands": 4},
]


def _walk(options: dict[str, Any] | None, seed: int) -> int:
    """Match ``seed`` played one action a call (a log of one column: each call stops when the row is
    full, and the next goes on), in slot 1 of 2, against the rules engine; returns the steps."""
    state = GAME.new_match(seed=seed, options=options)
    engine = TwentyBatch(2, seed, options)
    seeds = [f"order:{seed}:{seat}" for seat in range(2)]
    chooser = [random.Random(text) for text in seeds]
    words, positions = mt.seeded(["0", "1", *seeds])  # slot 1: rows 2, 3
    slots = np.array([1], np.int64)
    log = np.full((1, 1), -1, np.int64)
    made = np.zeros(1, np.int64)
    steps = 0
    while True:
        seat = state.current_player()
        assert seat is not None and state.deal is not None
        engine.set_match(1, seat, [state.deal])
        while True:
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_moves()
            assert engine.legal_actions(1) == [ACTIONS.index(m) for m in legal]
            move = chooser[seat].choice(legal)
            ended = engine.random_rounds(slots, words, positions, log, made)
            assert made[0] == 1 and ACTIONS[int(log[0, 0])] == move
            state.apply(move)
            steps += 1
            if ended:
                assert state.is_round_over()
                break
            assert ended == 0 and not state.is_round_over()
        if state.is_match_over():
            return steps
        state.next_round()


@pytest.mark.parametrize("options", VARIANTS)
def test_legal_actions_in_the_rules_engines_order(options: dict[str, Any] | None) -> None:
    bounds = GAME.bounds(GAME.check_options(options))
    for seed in range(4):
        assert _walk(options, seed) == bounds.rounds * bounds.moves


def test_whole_rounds_in_one_call() -> None:
    """Two slots' rounds in one call: the moves the rules engine takes, with the bots' generators."""
    options = {"rounds": 1}
    states = [GAME.new_match(seed=seed, options=options) for seed in (11, 12)]
    texts = [f"whole:{k}:{seat}" for k in range(2) for seat in range(2)]
    words, positions = mt.seeded(texts)
    chooser = [random.Random(text) for text in texts]
    engine = TwentyBatch(2, 0, options)
    for k, state in enumerate(states):
        assert state.deal is not None
        engine.set_match(k, state.first, [state.deal])
    log = np.zeros((2, 64), np.int64)
    made = np.zeros(2, np.int64)
    assert engine.random_rounds(np.array([0, 1], np.int64), words, positions, log, made) == 2
    for k, state in enumerate(states):
        assert made[k] == 50
        for action in log[k, :50].tolist():
            seat = state.current_player()
            assert seat is not None
            assert ACTIONS[action] == chooser[2 * k + seat].choice(state.legal_moves())
            state.apply(ACTIONS[action])
        assert state.is_round_over()


def test_set_match_refuses_a_wrong_deal() -> None:
    state = GAME.new_match(seed=3)
    deal = state.deal
    assert deal is not None
    engine = TwentyBatch(1, 0)
    twice = {**deal, "stock": [deal["revealed"][0], *deal["stock"][1:]]}
    with pytest.raises(ValueError, match=r"round 1: .* more than once"):
        engine.set_match(0, 0, [twice])
    with pytest.raises(ValueError, match="hands must be two hands of 5 cards"):
        engine.set_match(0, 0, [{**deal, "hands": [deal["hands"][0][:4], deal["hands"][1]]}])
    with pytest.raises(ValueError, match="revealed must hold 2 cards"):
        engine.set_match(0, 0, [{**deal, "revealed": deal["revealed"][:1]}])
    with pytest.raises(ValueError, match="first must be a seat"):
        engine.set_match(0, 2, [deal])
    with pytest.raises(ValueError, match="lasts 2 round"):
        engine.set_match(0, 0, [deal, deal, deal])
    opened = TwentyBatch(1, 0, {"open_hands": True})
    with pytest.raises(ValueError, match="with open_hands, it must be round 1's deal with the hands exchanged"):
        opened.set_match(0, 0, [deal, deal])
    exchanged = {**deal, "hands": [deal["hands"][1], deal["hands"][0]]}
    opened.set_match(0, 1, [deal, exchanged])
    assert opened.legal_actions(0) == [int(card) for card in deal["hands"][1]]  # seat 1 first, its hand in order
