"""The batched engines' registry and the Gymnasium VectorEnv on top of them.

The vector env is followed, step by step, by the rules engine: each match's moves (read from the
batch's records) are made in a rules-engine state, the first of a step being the learner's action
and the others the opponent's legal moves, until it is the learner's turn again; there the env's
observation and mask are ``encode_state``'s and the space's mask of that state, and at a match's
end the reward is the rules engine's margin for the learner's seat times the scale.  A skipped
match is left as it is, and the same seed gives the same run.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from parlour import batch, games, record
from parlour.batch.vector import SKIP, BatchVectorEnv
from parlour.envs.rewards import default_reward_scale
from parlour.envs.spaces import space
from parlour.game import State

GAMES = batch.ids()
OPTIONS: dict[str, dict[str, Any]] = {"minus-twenty": {"rounds": 2}, "twenty": {}, "progression": {"rounds": 1},
                                      "silver-bars": {"max_rounds": 1}}
"""Short matches (two rounds each), so that every slot finishes some within the test."""


def test_the_registry_names_its_engines_and_refuses_others() -> None:
    assert batch.available() and set(GAMES) == {"minus-twenty", "progression", "silver-bars", "twenty"}
    engine = batch.engine("twenty", 3, seed=1)
    assert engine.legal_mask().shape == (3, space("twenty").num_actions)
    with pytest.raises(ValueError, match="no batched engine for 'chess'"):
        batch.engine("chess", 1)


def test_the_engines_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(batch.OFF, "Off")
    assert not batch.available()
    with pytest.raises(ImportError, match="turned off"):
        batch.engine("twenty", 1)
    monkeypatch.setenv(batch.OFF, "on")
    assert batch.available()


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


class Mirror:
    """One slot's match in the rules engine, kept level with the batch's record of it."""

    def __init__(self, game_id: str, data: dict[str, Any], seat: int) -> None:
        self.game = games.get(game_id)
        self.moves = {str(m): m for m in space(game_id).actions}
        self.seat = seat
        opening = {**data, "rounds": [{"deal": data["rounds"][0]["deal"], "moves": []}],
                   "totals": [0] * len(data["players"])}
        self.state: State = record.replay(record.from_data(json.loads(json.dumps(opening))))
        self.round = 0
        self.made = 0
        self.follow(data, None)

    def follow(self, data: dict[str, Any], learner: str | None) -> int:
        """Make the moves of ``data`` (this match, later on) not made yet: the first is ``learner``'s
        (when given), every other one the opponent's, each legal.  Returns how many."""
        count = 0
        for r in range(self.round, len(data["rounds"])):
            if r > self.round:
                assert self.state.is_round_over() and not self.state.is_match_over()
                self.state.next_round(self.game.deal_from_json(data["rounds"][r]["deal"]))
                self.round, self.made = r, 0
            for text in data["rounds"][r]["moves"][self.made:]:
                move = self.moves[text]
                assert move in self.state.legal_moves()
                if learner is not None and count == 0:
                    assert self.state.current_player() == self.seat and text == learner
                else:
                    assert self.state.current_player() != self.seat
                self.state.apply(move)
                self.made += 1
                count += 1
        return count


def _follow(game_id: str, slots: int, steps: int, seed: int) -> tuple[int, int, list[np.ndarray]]:
    """Run the env with random legal learner actions, the rules engine following every match;
    returns (matches finished, opponent moves checked, the observations)."""
    the_space = space(game_id)
    scale = np.float32(default_reward_scale(game_id))
    env = BatchVectorEnv(game_id, slots, seed=seed, options=OPTIONS[game_id])
    obs, info = env.reset()
    engine = env._engine
    mirrors = [Mirror(game_id, engine.record(i), int(env.seats[i])) for i in range(slots)]
    rng = np.random.default_rng(seed)
    finished = opponent_moves = 0
    seen = [obs]
    for _ in range(steps):
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        for i, mirror in enumerate(mirrors):
            assert mirror.state.current_player() == env.seats[i]
            assert np.array_equal(obs[i], the_space.encode_state(mirror.state, mirror.seat))
            assert np.array_equal(mask[i], the_space.mask(mirror.state.legal_moves()).astype(bool))
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, mirror in enumerate(mirrors):
            learner = str(the_space.actions[actions[i]])
            if not terminated[i]:
                opponent_moves += mirror.follow(engine.record(i), learner) - 1
                assert reward[i] == 0
                continue
            opponent_moves += mirror.follow(engine.last_record(i), learner) - 1
            state = mirror.state
            assert state.is_round_over() and state.is_match_over()
            totals, seat = state.totals, mirror.seat
            others = [total for s, total in enumerate(totals) if s != seat]
            assert reward[i] == np.float32(totals[seat] - sum(others) / len(others)) * scale
            mirrors[i] = Mirror(game_id, engine.record(i), seat)  # the slot's next match, up to the learner's turn
            finished += 1
        seen.append(obs)
    return finished, opponent_moves, seen


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_engine_follows_the_vector_env(game_id: str) -> None:
    finished, opponent_moves, seen = _follow(game_id, 6, 300, seed=5)
    assert finished >= 6 and opponent_moves > 5 * 300  # about a move of theirs for each of the learner's
    _, _, again = _follow(game_id, 6, 20, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(seen, again, strict=False))  # the same seed, the same run
    _, _, other = _follow(game_id, 6, 20, seed=6)
    assert not all(np.array_equal(a, b) for a, b in zip(seen, other, strict=False))


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_is_refused_and_changes_nothing(game_id: str) -> None:
    env = BatchVectorEnv(game_id, 4, seed=2)
    obs, _ = env.reset()
    before = [env._engine.record(i) for i in range(4)]
    actions = env.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~env.action_masks()[2])[0])
    with pytest.raises(ValueError, match="match 2"):
        env.step(actions)
    assert [env._engine.record(i) for i in range(4)] == before
    assert np.array_equal(env.step(env.action_masks().argmax(axis=1))[0].shape, obs.shape)


def test_without_copies_the_env_hands_back_its_own_arrays() -> None:
    env = BatchVectorEnv("minus-twenty", 4, seed=1, copy=False)
    first, _ = env.reset()
    kept = first.copy()
    second = env.step(env.action_masks().argmax(axis=1))[0]
    assert second is first and not np.array_equal(second, kept)
    copied = BatchVectorEnv("minus-twenty", 4, seed=1)
    obs, _ = copied.reset()
    assert np.array_equal(obs, kept) and copied.step(copied.action_masks().argmax(axis=1))[0] is not obs


@pytest.mark.parametrize("game_id", GAMES)
def test_the_engines_refuse_arrays_of_the_wrong_shape(game_id: str) -> None:
    engine = batch.engine(game_id, 4, seed=1)
    the_space = space(game_id)
    arrays = {"actions": np.full(4, SKIP, np.int64), "seats": np.zeros(4, np.int64),
              "chooser": np.zeros(4, np.uint64), "scale": 1.0, "rewards": np.zeros(4, np.float32),
              "done": np.zeros(4, np.bool_), "obs": np.zeros((4, *the_space.obs_shape), np.float32),
              "mask": np.zeros((4, the_space.num_actions), np.bool_)}
    engine.step_against_random(**arrays)
    assert (engine.to_move() == 0).all() and np.array_equal(arrays["mask"], engine.legal_mask())
    for name, wrong in (("obs", np.zeros((4, 3), np.float32)), ("done", np.zeros(3, np.bool_)),
                        ("mask", np.zeros((2, the_space.num_actions), np.bool_))):
        with pytest.raises(ValueError, match="one row a match"):
            engine.step_against_random(**{**arrays, name: wrong})
    with pytest.raises(ValueError, match=f"seats are 0 to {engine.players - 1}"):
        engine.step_against_random(**{**arrays, "seats": np.full(4, engine.players, np.int64)})
