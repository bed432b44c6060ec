"""Stable-Baselines3's ``VecEnv`` on :class:`parlour.batch.vector.BatchVectorEnv`, for
sb3-contrib's ``MaskablePPO`` (extra ``parlour[baselines]`` beside ``parlour[fast]``).

>>> from sb3_contrib import MaskablePPO
>>> from parlour.batch.sb3 import BatchVecEnv
>>> env = BatchVecEnv("minus-twenty", num_envs=16, seed=0, options={"rounds": 1})
>>> MaskablePPO("MlpPolicy", env, n_steps=128).learn(100_000)

* The matches, the opponents (uniformly random), the observations, the rewards and the same-step
  reset are the vector env's; Stable-Baselines3's conventions are kept: ``reset()`` returns the
  observations only (dealt from the seed :meth:`BatchVecEnv.seed` last gave, else the env's
  own), ``step`` returns ``(obs, rewards, dones, infos)`` with one info dict a match.
* sb3-contrib reads the legal actions through ``env_method("action_masks")``
  (``sb3_contrib.common.maskable.utils.get_action_masks`` stacks what it returns): here that is
  one row of the vector env's mask a match.
* A finished match's last observation is not given (``infos[i]`` has no
  ``"terminal_observation"``): the engine has already dealt the next match, and matches are
  never truncated, so no learner needs it to bootstrap (MaskablePPO reads it only for a
  truncated episode).  Wrappers that require it (``VecFrameStack``) do not fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from parlour.batch.vector import BatchVectorEnv


class BatchVecEnv(VecEnv):
    """``num_envs`` matches of ``game_id`` against random opponents, as an SB3 ``VecEnv`` (see the
    module docstring); ``vector`` is the :class:`BatchVectorEnv` underneath."""

    def __init__(self, game_id: str, num_envs: int, seed: int = 0, options: Mapping[str, Any] | None = None,
                 reward_scale: float | None = None) -> None:
        self.vector = BatchVectorEnv(game_id, num_envs, seed=seed, options=options, reward_scale=reward_scale)
        self.render_mode = None
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(num_envs, self.vector.single_observation_space, self.vector.single_action_space)

    def reset(self) -> VecEnvObs:
        """Deal every match afresh: from the seed :meth:`seed` gave (once), else the env's own."""
        seed = self._seeds[0]
        obs, _ = self.vector.reset(seed=seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_async() must come before step_wait()")
        obs, rewards, terminated, _truncated, _info = self.vector.step(self._actions)
        self._actions = None
        return obs, rewards, terminated, [{} for _ in range(self.num_envs)]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, actions): the learner's legal actions in each match."""
        return self.vector.action_masks()

    def close(self) -> None:
        self.vector.close()

    def _chosen(self, indices: VecEnvIndices) -> Sequence[int]:
        chosen: Iterable[int] = self._get_indices(indices)
        return list(chosen)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute (this env's own for ``render_mode``), once per index."""
        value = self.render_mode if attr_name == "render_mode" else getattr(self.vector, attr_name)
        return [value for _ in self._chosen(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.vector, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: each chosen match's row of the mask; any other method of the vector
        env: its result, once per index."""
        chosen = self._chosen(indices)
        if method_name == "action_masks":
            masks = self.vector.action_masks()
            return [masks[i] for i in chosen]
        result = getattr(self.vector, method_name)(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
                       indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._chosen(indices)]
