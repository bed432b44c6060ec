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
  seat plays a uniformly random legal action (each match's choices from its own stream, seeded
  by ``seed``) until it is the learner's turn again.  A step is one compiled call of the engine
  (``step_against_random``): the learner's actions, the opponents' moves, the rewards, the
  observations and the masks, written into arrays the env allocates once.
* An episode is a match; the reward is paid by the step that ends it: the learner's total minus the
  mean of the others' totals, times ``reward_scale`` (the game's default of
  :mod:`parlour.envs.rewards` when None).  A finished match is replaced at once by the slot's next
  one (Gymnasium's same-step autoreset): the observation returned with ``terminated`` is the new
  match's first.  Matches are never truncated.
* An illegal action raises ``ValueError`` and makes no move at all; the action −1 (:data:`SKIP`)
  leaves that match as it is.
* ``copy=False`` hands back the env's own observation array, overwritten by the next step (as
  Gymnasium's ``SyncVectorEnv(copy=False)``): a trainer that copies what it keeps saves a copy a
  step.

For self-play (every seat learned) see :mod:`parlour.batch.parallel`; for Stable-Baselines3 and
sb3-contrib, :mod:`parlour.batch.sb3`.
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
                 reward_scale: float | None = None, copy: bool = True) -> None:
        self.game_id = game_id
        self.num_envs = num_envs
        self.players = games.get(game_id).players
        self.copy = copy
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
        self._chooser = np.zeros(num_envs, np.uint64)
        self._obs_shape = (num_envs, *self._space.obs_shape)
        self._obs = np.zeros(self._obs_shape, np.float32)
        """The observations handed back when ``copy`` is False (else a new array each step)."""
        self._mask = np.zeros((num_envs, self._space.num_actions), np.bool_)
        self._rewards = np.zeros(num_envs, np.float32)
        self._done = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._none = np.full(num_envs, SKIP, np.int64)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[
            npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every match afresh (from ``seed``, else the env's own) and play the opponents up to
        the learner's first turn."""
        if seed is not None:
            self._seed = seed
        self._engine = batch.engine(self.game_id, self.num_envs, seed=self._seed, options=self._options)
        # Each match's stream of the opponents' choices, from the seed alone.
        self._chooser[:] = np.random.default_rng(self._seed).bit_generator.random_raw(self.num_envs)
        return self._play(self._none), {"action_mask": self._mask.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, actions) the learner's legal actions in each match."""
        if self._engine is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.copy()

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in every match, then the opponents' until it is the learner's turn
        again (or the match is over and the next has begun)."""
        if self._engine is None:
            raise RuntimeError("call reset() before step()")
        obs = self._play(np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs))
        return obs, self._rewards.copy(), self._done.copy(), self._truncated.copy(), {"action_mask": self._mask.copy()}

    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """One compiled call; the observations it wrote (into a new array unless ``copy`` is False:
        written once, never copied)."""
        obs = np.empty(self._obs_shape, np.float32) if self.copy else self._obs
        self._engine.step_against_random(actions, self.seats, self._chooser, self._scale, self._rewards, self._done,
                                         obs, self._mask)
        return obs
