"""The batched engines' registry and the Gymnasium VectorEnv on top of them: every match is at the
learner's turn whenever the env hands it back, the learner's reward is the engine's payment for its
seat times the scale, a skipped match is left as it is, and the same seed gives the same run."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from parlour import batch
from parlour.batch.vector import SKIP, BatchVectorEnv
from parlour.envs.rewards import default_reward_scale
from parlour.envs.spaces import space

GAMES = batch.ids()


def test_the_registry_names_its_engines_and_refuses_others() -> None:
    assert batch.available() and set(GAMES) == {"minus-twenty", "silver-bars", "twenty"}
    engine = batch.engine("twenty", 3, seed=1)
    assert engine.legal_mask().shape == (3, space("twenty").num_actions)
    with pytest.raises(ValueError, match="no batched engine for 'chess'"):
        batch.engine("chess", 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_skipped_match_is_left_as_it_is(game_id: str) -> None:
    engine = batch.engine(game_id, 4, seed=3)
    before = [engine.record(i) for i in range(4)]
    mask = engine.legal_mask()
    chosen = np.array([SKIP, int(mask[1].argmax()), SKIP, int(mask[3].argmax())])
    engine.step(chosen)
    after = [engine.record(i) for i in range(4)]
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1] and after[3] != before[3]


def _run(game_id: str, steps: int, seed: int) -> tuple[list[np.ndarray], list[np.ndarray], list[Any]]:
    env = BatchVectorEnv(game_id, 16, seed=seed)
    obs, info = env.reset()
    paid: list[tuple[np.ndarray, np.ndarray]] = []
    step = env._engine.step

    def watched(actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # the real engine, its payments kept
        rewards, done = step(actions)
        paid.append((rewards, done))
        return rewards, done

    env._engine.step = watched
    rng = np.random.default_rng(seed)
    observations, rewards, checks = [obs], [], []
    for _ in range(steps):
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"]) and mask.any(axis=1).all()
        keys = rng.random(mask.shape)
        keys[~mask] = -1
        paid.clear()
        obs, reward, terminated, truncated, info = env.step(keys.argmax(axis=1))
        # Back at the learner's turn in every match; its view of it; paid what the engine paid its seat.
        assert (env._engine.to_move() == env.seats).all() and not truncated.any()
        assert np.array_equal(obs, env._engine.observe(env.seats))
        expected = sum(r[np.arange(16), env.seats] * d for r, d in paid) * default_reward_scale(game_id)
        assert np.allclose(reward, expected) and np.array_equal(terminated, np.any([d for _, d in paid], axis=0))
        observations.append(obs)
        rewards.append(reward)
        checks.append(terminated.copy())
    return observations, rewards, checks


@pytest.mark.parametrize("game_id", GAMES)
def test_the_vector_env_hands_back_the_learners_turn_and_pays_its_seat(game_id: str) -> None:
    observations, rewards, ended = _run(game_id, 400, seed=5)
    assert np.any(ended), "400 steps of 16 matches end some"
    assert all((r[~e] == 0).all() for r, e in zip(rewards, ended))  # paid only when a match ends
    again = _run(game_id, 50, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(observations[:51], again[0]))  # the same seed, the same run
