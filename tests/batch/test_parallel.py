"""The PettingZoo-style batched API, followed by the rules engine: in every match the mover's
action is made in a rules-engine state too, every agent's observation and mask is the space's
encoding of that state (no legal action for the agent not to move), the others' actions are
ignored, and a match's end pays each agent its margin times the scale."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from parlour import batch, games, record
from parlour.batch.parallel import BatchParallelEnv
from parlour.envs.rewards import default_reward_scale
from parlour.envs.spaces import space
from parlour.game import State

GAMES = batch.ids()
OPTIONS: dict[str, dict[str, Any]] = {"minus-twenty": {"rounds": 2, "stall_limit": 3}, "twenty": {},
                                      "progression": {"rounds": 1}, "silver-bars": {"max_rounds": 1}}


def replayed(data: dict[str, Any]) -> State:
    return record.replay(record.from_data(json.loads(json.dumps(data))))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_engine_follows_every_agent(game_id: str) -> None:
    game, the_space = games.get(game_id), space(game_id)
    scale = np.float32(default_reward_scale(game_id))
    env = BatchParallelEnv(game_id, 6, seed=4, options=OPTIONS[game_id])
    agents = [f"player_{seat}" for seat in range(game.players)]
    assert env.possible_agents == env.agents == agents
    assert env.observation_space("player_1").shape == the_space.obs_shape
    assert env.action_space("player_0").n == the_space.num_actions
    observations, infos = env.reset()
    engine = env._engine
    mirrors = [replayed(engine.record(i)) for i in range(6)]
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(500):
        for seat, agent in enumerate(agents):
            mask = env.action_masks(agent)
            assert np.array_equal(mask, infos[agent]["action_mask"])
            for i, state in enumerate(mirrors):
                acting = state.current_player() == seat
                assert infos[agent]["acting"][i] == acting
                assert np.array_equal(observations[agent][i], the_space.encode_state(state, seat))
                legal = the_space.mask(state.legal_moves()).astype(bool)
                assert np.array_equal(mask[i], legal if acting else np.zeros_like(legal))
        # Each agent sends a random legal action where it moves and an illegal one where it does not.
        sent = {agent: np.where(infos[agent]["acting"],
                                np.where(infos[agent]["action_mask"], rng.random(mask.shape), -1.0).argmax(axis=1),
                                the_space.num_actions + 7)
                for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(sent)
        for i, state in enumerate(mirrors):
            mover = state.current_player()
            state.apply(the_space.actions[sent[f"player_{mover}"][i]])
            assert not any(truncations[agent][i] for agent in agents)
            assert len({bool(terminations[agent][i]) for agent in agents}) == 1
            if state.is_round_over() and state.is_match_over():
                assert terminations["player_0"][i]
                totals = state.totals
                for seat, agent in enumerate(agents):
                    others = [total for s, total in enumerate(totals) if s != seat]
                    assert rewards[agent][i] == np.float32(totals[seat] - sum(others) / len(others)) * scale
                mirrors[i] = replayed(engine.record(i))
                finished += 1
                continue
            assert not terminations["player_0"][i] and all(rewards[agent][i] == 0 for agent in agents)
            if state.is_round_over():  # the engine has dealt the next round: the same deal here
                deal = engine.record(i)["rounds"][state.round_index + 1]["deal"]
                state.next_round(game.deal_from_json(deal))
    assert finished >= 6


def test_a_mover_without_an_action_leaves_its_match_and_bad_calls_are_refused() -> None:
    env = BatchParallelEnv("twenty", 4, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    _, infos = env.reset(seed=2)
    before = [env._engine.record(i) for i in range(4)]
    acting = infos["player_0"]["acting"]
    env.step({"player_0": infos["player_0"]["action_mask"].argmax(axis=1)})  # player_1 sends nothing
    after = [env._engine.record(i) for i in range(4)]
    assert all((a == b) != bool(moved) for a, b, moved in zip(after, before, acting, strict=True))
    with pytest.raises(ValueError, match="no agent player_7"):
        env.step({"player_7": np.zeros(4)})
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        env.action_space("nobody")
    waiting = env.action_masks("player_1")
    assert waiting.any(axis=1).all()  # player_1 moves everywhere now: where it did not, and after player_0
    with pytest.raises(ValueError, match="not a legal move"):
        env.step({"player_0": np.zeros(4), "player_1": (~waiting).argmax(axis=1)})  # the first card it lacks
    assert [env._engine.record(i) for i in range(4)] == after
