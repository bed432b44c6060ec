"""parlour.envs.selfplay: one seat of the PettingZoo environment against a frozen policy."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env

from parlour import bots, games
from parlour.envs.selfplay import SelfPlayEnv, snapshot
from parlour.envs.spaces import space
from parlour.game import IllegalMoveError
from parlour.match import bot_rng, play_bots


def lowest(observation: np.ndarray, mask: np.ndarray) -> int:
    """A frozen policy: the lowest legal action."""
    return int(np.flatnonzero(mask)[0])


def play(env: SelfPlayEnv, seed: int | None, pick: random.Random) -> tuple[list[Any], dict[str, Any]]:
    """One episode with random legal learner actions: every observation, reward and mask."""
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs.tolist(), info["seat"]]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(pick.choice(np.flatnonzero(env.action_masks())))
        trace += [obs.tolist(), reward, env.action_masks().tolist()]
        done = terminated or truncated
    return trace, info


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_check_env(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Made without gymnasium.make, the env has no spec: check_env says it cannot try other render modes.
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(SelfPlayEnv(game_id, opponent=lowest, illegal="random"))
        check_env(SelfPlayEnv(game_id, opponent="random", illegal="random"))


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_masks_are_the_legal_moves(game_id: str) -> None:
    options = {"target_score": 40} if game_id == "silver-bars" else {}
    env = SelfPlayEnv(game_id, opponent=lowest, seat="random", reward="round", **options)
    sp = space(game_id, options)
    pick = random.Random(2)
    obs, info = env.reset(seed=2)
    state = env.aec.state
    assert state is not None
    learner = env.seat
    done, steps = False, 0
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool
        assert {sp.actions[i] for i in np.flatnonzero(mask)} == set(state.legal_moves())
        assert state.current_player() == learner
        np.testing.assert_array_equal(info["action_mask"], mask.astype(np.int8))
        np.testing.assert_array_equal(obs, sp.encode(state.observation(learner)))
        assert obs in env.observation_space
        obs, _, terminated, truncated, info = env.step(pick.choice(np.flatnonzero(mask)))
        done = terminated or truncated
        steps += 1
    assert not env.action_masks().any() and not info["action_mask"].any()
    assert steps > 1


def test_the_opponent_really_plays_the_lowest_legal_action() -> None:
    # Replay the episode's match move by move in the engine: each opponent move is the lowest
    # legal action there, and the learner's are the ones it chose.
    for game_id in games.GAME_IDS:
        options = {"target_score": 40} if game_id == "silver-bars" else {}
        game = games.get(game_id)
        sp = space(game_id, options)
        env = SelfPlayEnv(game_id, opponent=lowest, seat=1, **options)
        env.reset(seed=4)
        pick = random.Random(4)
        chosen = []
        done = False
        while not done:
            action = pick.choice(np.flatnonzero(env.action_masks()))
            _, _, terminated, truncated, info = env.step(action)
            chosen.append(info["played"])
            done = terminated or truncated
        final = env.aec.state
        assert final is not None
        replay = game.new_match(seed=4, options=options)
        rounds = [*final.history, None]
        learner_moves = iter(chosen)
        opponent_moves = 0
        for done_round in rounds:
            moves = done_round.moves if done_round is not None else final.moves
            for move in moves:
                seat = replay.current_player()
                legal = replay.legal_moves()
                if seat == 1:
                    assert str(move) == next(learner_moves)
                else:
                    assert sp.index[move] == min(sp.index[m] for m in legal)
                    opponent_moves += 1
                replay.apply(move)
            if done_round is not None:
                replay.next_round()
        assert next(learner_moves, None) is None
        assert opponent_moves > 0


def test_a_bot_opponent_plays_as_parlour_match_does() -> None:
    # With the learner playing the same bot, the episode is play_bots' match of that seed.
    env = SelfPlayEnv("twenty", opponent="heuristic", seat=0)
    env.reset(seed=6)
    me, rng = bots.make("heuristic"), bot_rng(6, 0)
    done = False
    while not done:
        state = env.aec.state
        assert state is not None
        move = me.choose(state.observation(0), state.legal_moves(), rng)
        _, _, terminated, truncated, info = env.step(env.space.index[move])
        done = terminated or truncated
    expected = play_bots(games.get("twenty"), [bots.make("heuristic"), bots.make("heuristic")], seed=6)
    assert info["totals"] == expected.totals
    assert env.aec.state is not None and env.aec.state.history[0].moves == expected.history[0].moves


def test_a_seeded_episode_reproduces_and_seats_alternate() -> None:
    for opponent in ("random", lowest):
        runs = [play(SelfPlayEnv("minus-twenty", opponent=opponent), 11, random.Random(0)) for _ in range(2)]
        assert runs[0][0] == runs[1][0]
        other = play(SelfPlayEnv("minus-twenty", opponent=opponent), 12, random.Random(0))
        assert other[0] != runs[0][0]
    env = SelfPlayEnv("progression", opponent="random")  # seat="alternate"
    seats = [env.reset(seed=7)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(5)]
    assert seats == [1, 2, 0, 1, 2, 0]  # 7 % 3, then one seat on each episode
    assert SelfPlayEnv("twenty", seat=1).reset(seed=4)[1]["seat"] == 1
    assert SelfPlayEnv("twenty", seat=1).reset(seed=4, options={"seat": 0})[1]["seat"] == 0
    fixed = SelfPlayEnv("twenty", seat="random")
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(12)} == {0, 1}


def test_set_opponent_takes_over_the_other_seats() -> None:
    env = SelfPlayEnv("twenty", opponent="random", seat=0)
    calls = []

    def highest(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(mask.copy())
        return int(np.flatnonzero(mask)[-1])

    env.reset(seed=1)
    env.set_opponent(highest)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert calls and all(m.dtype == bool for m in calls)
    with pytest.raises(ValueError, match="opponent"):
        env.set_opponent(42)


def test_an_opponent_that_picks_an_illegal_action_raises() -> None:
    env = SelfPlayEnv("twenty", opponent=lambda obs, mask: int(np.flatnonzero(~mask)[0]), seat=1)
    with pytest.raises(IllegalMoveError, match="opponent"):
        env.reset(seed=3)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        SelfPlayEnv("twenty", seat=2)
    with pytest.raises(ValueError, match="seat"):
        SelfPlayEnv("twenty", seat="first")
    env = SelfPlayEnv("twenty")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(52)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalMoveError):
        env.step(illegal)


def test_a_maskable_model_is_snapshot_when_given() -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = SelfPlayEnv("twenty", opponent="random", seat=0)
    model = MaskablePPO("MlpPolicy", env, seed=0, n_steps=64, batch_size=32, n_epochs=1, device="cpu")
    frozen = snapshot(model)
    env.set_opponent(model)
    observations = [(o, env.action_masks()) for o, _ in (env.reset(seed=k) for k in range(30))]
    frozen_before = [frozen(o, m) for o, m in observations]
    live_before = [int(model.predict(o, action_masks=m, deterministic=True)[0]) for o, m in observations]
    torch.manual_seed(0)
    with torch.no_grad():
        for parameter in model.policy.parameters():
            parameter.add_(torch.randn_like(parameter))  # the live model changes; the snapshots do not
    live_after = [int(model.predict(o, action_masks=m, deterministic=True)[0]) for o, m in observations]
    assert live_after != live_before
    assert all(m[a] for a, (_, m) in zip(frozen_before, observations))
    assert [frozen(o, m) for o, m in observations] == frozen_before == live_before
    assert env._policy is not None
    assert [env._policy(o, m) for o, m in observations] == live_before  # set_opponent snapshot it too
    with pytest.raises(ValueError, match="action_masks"):
        snapshot(object.__new__(type("NotMaskable", (), {"predict": lambda self, obs: 0})))
