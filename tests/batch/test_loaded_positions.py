"""A rules-engine position loaded into a slot of a batched engine (the compiled rollout plug-ins'
``load``, issue 36) plays on as the rules engine: the same legal actions and observations (every
seat) at every step of the round played on at random, and the same round scores."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import batch  # noqa: E402
from parlour.batch.rollout import COMPILED  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402

from .positions import round_positions  # noqa: E402

POSITIONS = {"minus-twenty": (40, 220, 50), "progression": (12, 120, 20), "silver-bars": (25, 160, 40)}
"""Each game with a compiled plug-in: seeded matches, the most moves each is played on, and the least
positions loaded (a round that ended gives none)."""


@pytest.mark.parametrize("game_id", sorted(COMPILED))
def test_a_loaded_position_plays_as_the_rules_engine(game_id: str) -> None:
    count, most, least = POSITIONS[game_id]
    the_space = space(game_id)
    engine = batch.engine(game_id, 3, 0)
    rng = random.Random(5)
    steps = loaded = 0
    for k, state in enumerate(round_positions(game_id, count, 3, most=most)):
        state = state.copy()
        i = k % 3
        engine.load(i, state)
        loaded += 1
        while True:
            assert np.array_equal(engine.legal_mask()[i], the_space.mask(state.legal_moves()).astype(bool))
            for seat in range(state.num_players):
                assert np.array_equal(engine.observe(seat)[i], the_space.encode_state(state, seat))
            move = rng.choice(state.legal_moves())
            actions = np.full(3, -1)
            actions[i] = the_space.index[move]
            engine.step(actions)
            state.apply(move)
            steps += 1
            if state.is_round_over():
                assert engine._t.scores[i, state.round_index].tolist() == state.scores
                break
    assert loaded >= least and steps > 1000
