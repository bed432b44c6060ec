"""reward_scale: the RL adapters pay the points times the scale, exactly; each game's default is
the one docs/envs/gymnasium.md states, chosen by the rule it states."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from parlour import bots, games
from parlour.envs.gymnasium import ENV_IDS, ParlourEnv
from parlour.envs.pettingzoo import env as aec_env
from parlour.envs.rewards import default_reward_scale
from parlour.envs.selfplay import SelfPlayEnv
from parlour.match import play_bots

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs"
SHORT = {"silver-bars": {"target_score": 40}}
"""Options that keep a test's matches short."""
REWARD_SCALES = {game_id: games.entry(game_id).reward_scale for game_id in games.GAME_IDS}
"""Each game's default scale, from its registry entry."""


def _gym_rewards(game_id: str, reward: str, scale: float | None, seed: int) -> tuple[list[float], ParlourEnv]:
    env = ParlourEnv(game_id, reward=reward, reward_scale=scale, **SHORT.get(game_id, {}))
    _, info = env.reset(seed=seed)
    rng = random.Random(seed)
    rewards, terminated = [], False
    while not terminated:
        _, r, terminated, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        rewards.append(r)
    return rewards, env


@pytest.mark.parametrize("game_id", games.GAME_IDS)
@pytest.mark.parametrize("reward", ["match", "round"])
def test_gymnasium_rewards_are_the_points_times_the_scale(game_id: str, reward: str) -> None:
    raw, raw_env = _gym_rewards(game_id, reward, 1, seed=3)
    for scale in (None, 0.02, 1 / 3, 7.0):
        scaled, env = _gym_rewards(game_id, reward, scale, seed=3)
        factor = default_reward_scale(game_id) if scale is None else scale
        assert env.reward_scale == factor
        assert scaled == [r * factor for r in raw]  # exactly
    assert any(raw)
    state = raw_env.state
    assert state is not None and state.is_match_over()
    seat = raw_env.seat
    others = (sum(state.totals) - state.totals[seat]) / (len(state.totals) - 1)
    assert sum(raw) == pytest.approx(state.totals[seat] - others)
    if reward == "match":
        assert raw[-1] == state.totals[seat] - others and not any(raw[:-1])


def _aec_rewards(game_id: str, reward: str, scale: float | None, seed: int) -> list[dict[str, float]]:
    """Every step's rewards of a seeded random episode."""
    e = aec_env(game_id, reward=reward, reward_scale=scale, **SHORT.get(game_id, {}))
    e.reset(seed=seed)
    rng = random.Random(seed)
    paid = []
    for _ in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        paid.append(dict(e.rewards))
    return paid


@pytest.mark.parametrize("game_id", games.GAME_IDS)
@pytest.mark.parametrize("reward", ["match", "round"])
def test_pettingzoo_rewards_are_the_points_times_the_scale(game_id: str, reward: str) -> None:
    raw = _aec_rewards(game_id, reward, 1, seed=5)
    assert any(any(r.values()) for r in raw)
    for scale in (None, 0.01, 2.5):
        factor = default_reward_scale(game_id) if scale is None else scale
        scaled = _aec_rewards(game_id, reward, scale, seed=5)
        assert scaled == [{agent: r * factor for agent, r in step.items()} for step in raw]


def test_selfplay_rewards_are_the_points_times_the_scale() -> None:
    def episode(scale: float | None) -> list[float]:
        env = SelfPlayEnv("minus-twenty", opponent="random", reward="round", reward_scale=scale)
        env.reset(seed=9)
        rng = random.Random(9)
        rewards, done = [], False
        while not done:
            _, r, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            rewards.append(r)
            done = terminated or truncated
        return rewards

    raw = episode(1)
    assert any(raw)
    assert episode(None) == [r * REWARD_SCALES["minus-twenty"] for r in raw]
    assert episode(0.5) == [r * 0.5 for r in raw]


def test_the_defaults_are_the_ones_the_docs_state() -> None:
    text = (DOCS / "gymnasium.md").read_text()
    stated = {game: 1 / int(over) for game, over in re.findall(r"^\| `([a-z-]+)` \| 1/(\d+) \|", text, re.M)}
    assert stated == dict(REWARD_SCALES)
    assert set(REWARD_SCALES) == set(games.GAME_IDS)
    for env_id, game_id in ENV_IDS.items():
        assert ParlourEnv(game_id).reward_scale == REWARD_SCALES[game_id], env_id
        assert aec_env(game_id).reward_scale == REWARD_SCALES[game_id]


def test_each_default_follows_the_documented_rule() -> None:
    # One over the 90th percentile of |match margin| in 300 matches between random bots (seeds 0-299),
    # rounded to the nearer of 50 and 100 points.
    for game_id, scale in REWARD_SCALES.items():
        game = games.get(game_id)
        margins = []
        for seed in range(300):
            totals = play_bots(game, [bots.make("random") for _ in range(game.players)], seed=seed).totals
            margins.append(abs(totals[0] - (sum(totals) - totals[0]) / (len(totals) - 1)))
        p90 = sorted(margins)[int(0.9 * 299)]
        assert 1 / min((50, 100), key=lambda r: abs(r - p90)) == scale, (game_id, p90)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "0.1", True])
def test_a_bad_scale_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="reward_scale"):
        ParlourEnv("twenty", reward_scale=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reward_scale"):
        aec_env("twenty", reward_scale=bad)  # type: ignore[arg-type]
