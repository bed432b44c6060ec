"""A Gymnasium ``VectorEnv`` on a batched engine: ``num_envs`` matches, the learner one seat of each
against uniformly random opponents, stepped together in compiled calls.

>>> from parlour.batch.vector import BatchVectorEnv
>>> env = BatchVectorEnv("minus-twenty", num_envs=1024, seed=0)
>>> obs, info = env.reset()
>>> obs, rewards, terminated, truncated, info = env.step(some_actions)   # (1024,) action indices
>>> env.action_masks()                                                    # for sb3-contrib's MaskablePPO

* Observations are the learner's ``float32`` vectors, the same as the game's space gives
  (:func:`parlour.envs.spaces.space`); actions index its action table; ``action_masks()`` (and
  ``info["action_mask"]``) the legal ones.
* The learner sits in seat ``i % players`` of match ``i`` (both seats are learned); every other
  seat plays a uniformly random legal action (from a numpy generator seeded by ``seed``) inside
  :meth:`BatchVectorEnv.step`, until it is the learner's turn again.
* An episode is a match; the reward is paid by the step that ends it: the learner's total minus the
  mean of the others' totals, times ``reward_scale`` (the game's default of
  :mod:`parlour.envs.rewards` when None).  A finished match is replaced at once by the slot's next
  one (Gymnasium's same-step autoreset): the observation returned with ``terminated`` is the new
  match's first.  Matches are never truncated.

The batched engine itself is the PettingZoo-style API for self-play: ``to_move()``, ``observe(seats)``,
``legal_mask()`` and ``step(actions)`` with a reward for every seat (:mod:`parlour.batch`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from parlour import batch, games
from parlour.envs.rewards import reward_scale_for
from parlour.envs.spaces import space

SKIP = -1
"""The action that leaves a match as it is for one call of the engine's ``step``."""


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` matches of ``game_id`` on its batched engine (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(self, game_id: str, num_envs: int, seed: int = 0, options: Mapping[str, Any] | None = None,
                 reward_scale: float | None = None) -> None:
        self.game_id = game_id
        self.num_envs = num_envs
        self.players = games.get(game_id).players
        self._options = dict(options or {})
        self._seed = seed
        self._space = space(game_id)
        self._scale = reward_scale_for(game_id, reward_scale, self._options)
        self.single_observation_space = gymnasium.spaces.Box(self._space.low, self._space.high, dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self._space.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.seats = np.arange(num_envs, dtype=np.int64) % self.players
        """The learner's seat in each match."""
        self._engine: Any = None
        self._rng = np.random.default_rng(seed)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[
            npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every match afresh (from ``seed``, else the env's own) and play the opponents up to
        the learner's first turn."""
        if seed is not None:
            self._seed = seed
        self._rng = np.random.default_rng(self._seed)
        self._engine = batch.engine(self.game_id, self.num_envs, seed=self._seed, options=self._options)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        self._opponents(rewards, done)
        return self._engine.observe(self.seats), {"action_mask": self.action_masks()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, actions) the learner's legal actions in each match."""
        mask: npt.NDArray[np.bool_] = self._engine.legal_mask()
        return mask

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in every match, then the opponents' until it is the learner's turn
        again (or the match is over and the next has begun)."""
        if self._engine is None:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        paid, ended = self._engine.step(chosen)
        self._pay(paid, ended, rewards, done)
        self._opponents(rewards, done)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return (self._engine.observe(self.seats), rewards, done, truncated, {"action_mask": self.action_masks()})

    def _pay(self, paid: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_], rewards: npt.NDArray[np.float32],
             done: npt.NDArray[np.bool_]) -> None:
        """Add the learner's match reward of the matches that just ended (each seat's total minus the
        mean of the others', which is what the engines pay: the margin over the other seats)."""
        if ended.any():
            mine = paid[np.arange(self.num_envs), self.seats]
            rewards[ended] += mine[ended] * self._scale
            done |= ended

    def _opponents(self, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """Random legal actions for every match whose turn is not the learner's, until all are."""
        while True:
            waiting = self._engine.to_move() != self.seats
            if not waiting.any():
                return
            mask = self._engine.legal_mask()
            keys = self._rng.random(mask.shape, dtype=np.float32)
            keys[~mask] = -1.0
            chosen = keys.argmax(axis=1).astype(np.int64)
            chosen[~waiting] = SKIP
            paid, ended = self._engine.step(chosen)
            self._pay(paid, ended, rewards, done)
