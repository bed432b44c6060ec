"""Stable-Baselines3's VecEnv on the vector env: the same observations, masks and rewards as the
vector env under the same seed and actions, the masks where sb3-contrib reads them, and
MaskablePPO learning on it (an illegal action would raise: the engine refuses one), seeded."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from parlour.batch.sb3 import BatchVecEnv
from parlour.batch.vector import BatchVectorEnv


@pytest.mark.parametrize("game_id", ["minus-twenty", "twenty"])
def test_the_bridge_is_the_vector_env(game_id: str) -> None:
    bridge = BatchVecEnv(game_id, 8, seed=3, options={"rounds": 1} if game_id == "minus-twenty" else {})
    vector = BatchVectorEnv(game_id, 8, seed=3, options={"rounds": 1} if game_id == "minus-twenty" else {})
    assert is_masking_supported(bridge) and bridge.num_envs == 8
    assert bridge.observation_space == vector.single_observation_space
    obs = bridge.reset()
    expected, _ = vector.reset()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(120):
        assert np.array_equal(obs, expected)
        masks = get_action_masks(bridge)
        assert np.array_equal(masks, vector.action_masks())
        actions = np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1)
        obs, rewards, dones, infos = bridge.step(actions)
        expected, paid, terminated, _, _ = vector.step(actions)
        assert np.array_equal(rewards, paid) and np.array_equal(dones, terminated) and len(infos) == 8
        ended += int(dones.sum())
    assert ended > 0
    bridge.seed(11)
    vector.reset(seed=11)
    assert np.array_equal(bridge.reset(), vector.step(np.full(8, -1))[0])  # seed() applies to the next reset
    assert bridge.get_attr("game_id") == [game_id] * 8 and bridge.env_is_wrapped(object, indices=[0, 1]) == [False] * 2


def _learned(seed: int) -> list[torch.Tensor]:
    torch.set_num_threads(1)
    env = BatchVecEnv("twenty", 8, seed=seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=2, seed=seed, device="cpu")
    model.learn(total_timesteps=256)  # an illegal action would raise ValueError in the engine
    assert model.num_timesteps == 256
    return [p.detach().clone() for p in model.policy.parameters()]


def test_maskable_ppo_learns_on_the_bridge_reproducibly() -> None:
    first, again = _learned(5), _learned(5)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


def test_the_baselines_benchmark_trains_on_the_vector_env(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import baselines

    with pytest.raises(SystemExit):  # the vector env has random opponents only, and PPO learns on it
        baselines.parse(["--vector", "16", "--games", "twenty"])
    with pytest.raises(SystemExit):
        baselines.parse(["--vector", "12", "--games", "twenty", "--algos", "ppo", "--opponents", "random"])
    out = tmp_path / "v.json"
    result = baselines.run(baselines.parse([
        "--vector", "8", "--games", "minus-twenty", "--algos", "ppo", "--opponents", "random", "--against", "random",
        "--steps", "256", "--deals", "1", "--seed", "3", "--out", str(out), "--quiet"]))
    run = result["runs"][0]
    assert run["train_env"] == "vector 8" and run["train_steps"] == 256 and run["eval"]["random"]["matches"] == 2
    assert "8 matches" in result["protocol"]["vector_env"] and "n_steps 32 " in result["protocol"]["vector_env"]
    assert json.loads(out.read_text())["runs"][0] == json.loads(json.dumps(baselines._finite(run)))
    assert "MaskablePPO (8 matches of the vector env)" in baselines.markdown([result])
