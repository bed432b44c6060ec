"""A PettingZoo-style batched API on a compiled engine, for self-play: every seat is an agent, and
each call steps ``num_envs`` matches at once.

>>> from parlour.batch.parallel import BatchParallelEnv
>>> env = BatchParallelEnv("twenty", num_envs=1024, seed=0)
>>> observations, infos = env.reset()
>>> acting = infos["player_0"]["acting"]                  # (1024,) where player_0 is to move
>>> mask = env.action_masks("player_0")                   # (1024, 52), no legal action where it is not
>>> observations, rewards, terminations, truncations, infos = env.step(
...     {"player_0": actions_0, "player_1": actions_1})   # one action a match for each agent

It keeps the names of PettingZoo's Parallel API (``possible_agents``, ``agents``,
``observation_space(agent)``, ``action_space(agent)``, ``reset(seed)``, ``step(actions)``) with
every value an array of one row a match:

* The games take turns: in each match only the agent to move acts (``infos[agent]["acting"]``);
  what the others send for that match is ignored.  A match whose mover sends −1 (or no array)
  is left as it is.
* ``observations[agent]`` is ``(num_envs, obs_size)``, the seat's view as the game's space
  encodes it (:func:`parlour.envs.spaces.space`), every step for every agent;
  ``infos[agent]["action_mask"]`` (and :meth:`BatchParallelEnv.action_masks`) its legal actions,
  all False where it is not to move.
* ``rewards[agent]`` is paid by the step that ends a match: the seat's total minus the mean of
  the others', times ``reward_scale`` (the game's default of :mod:`parlour.envs.rewards` when
  None); 0 on every other step.  ``terminations[agent]`` marks those matches, which the engine
  has already replaced by the slot's next (same-step reset): the observation beside ``True`` is
  the new match's first.  Matches are never truncated, and ``agents`` never empties.

Nothing is compiled here: it is a thin face on the engine's ``to_move``, ``legal_mask``,
``observe`` and ``step`` (:mod:`parlour.batch`).  For one learner against random opponents, see
:class:`parlour.batch.vector.BatchVectorEnv`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from parlour import batch, games
from parlour.envs.rewards import reward_scale_for
from parlour.envs.spaces import space

SKIP = -1
"""The action that leaves a match as it is."""


class BatchParallelEnv:
    """``num_envs`` matches of ``game_id``, every seat an agent (see the module docstring)."""

    metadata = {"name": "parlour_batch_parallel", "is_parallelizable": True}  # noqa: RUF012 (PettingZoo's attribute)

    def __init__(self, game_id: str, num_envs: int, seed: int = 0, options: Mapping[str, Any] | None = None,
                 reward_scale: float | None = None) -> None:
        self.game_id = game_id
        self.num_envs = num_envs
        self.players = games.get(game_id).players
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._options = dict(options or {})
        self._seed = seed
        self._space = space(game_id)
        self.reward_scale = reward_scale_for(game_id, reward_scale, self._options)
        self._observation_space = gymnasium.spaces.Box(self._space.low, self._space.high, dtype=np.float32)
        self._action_space = gymnasium.spaces.Discrete(self._space.num_actions)
        self._engine: Any = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Box:
        """One match's observation of ``agent`` (a row of ``observations[agent]``)."""
        self._seat_of(agent)
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """One match's action of ``agent``: an index into the game's action table."""
        self._seat_of(agent)
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[
            dict[str, npt.NDArray[np.float32]], dict[str, dict[str, Any]]]:
        """Deal every match afresh (from ``seed``, else the env's own): (observations, infos)."""
        if seed is not None:
            self._seed = seed
        self._engine = batch.engine(self.game_id, self.num_envs, seed=self._seed, options=self._options)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def step(self, actions: Mapping[str, npt.ArrayLike]) -> tuple[
            dict[str, npt.NDArray[np.float32]], dict[str, npt.NDArray[np.float32]], dict[str, npt.NDArray[np.bool_]],
            dict[str, npt.NDArray[np.bool_]], dict[str, dict[str, Any]]]:
        """Each match's mover's action (an array of one action a match per agent; the others'
        are ignored): (observations, rewards, terminations, truncations, infos), each keyed by
        agent.  An illegal action raises ``ValueError`` and makes no action at all."""
        engine = self._live()
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise ValueError(f"no agent {', '.join(sorted(unknown))} (the agents are {', '.join(self.agents)})")
        sent = np.full((self.players, self.num_envs), SKIP, np.int64)
        for agent, chosen in actions.items():
            sent[self._seat[agent]] = np.asarray(chosen, dtype=np.int64).reshape(self.num_envs)
        paid, done = engine.step(sent[engine.to_move(), np.arange(self.num_envs)])
        rewards = {agent: (paid[:, seat] * self.reward_scale).astype(np.float32)
                   for agent, seat in self._seat.items()}
        terminations = {agent: done.copy() for agent in self.possible_agents}
        truncations = {agent: np.zeros(self.num_envs, np.bool_) for agent in self.possible_agents}
        return self._observations(), rewards, terminations, truncations, self._infos()

    def action_masks(self, agent: str) -> npt.NDArray[np.bool_]:
        """``(num_envs, actions)``: ``agent``'s legal actions in each match (none where it is not
        to move)."""
        engine = self._live()
        acting = engine.to_move() == self._seat_of(agent)
        mask: npt.NDArray[np.bool_] = engine.legal_mask() & acting[:, None]
        return mask

    def close(self) -> None:
        """Nothing to release (PettingZoo's name)."""

    def _seat_of(self, agent: str) -> int:
        if agent not in self._seat:
            raise ValueError(f"no agent {agent!r} (the agents are {', '.join(self.possible_agents)})")
        return self._seat[agent]

    def _live(self) -> Any:
        if self._engine is None:
            raise RuntimeError("call reset() before step()")
        return self._engine

    def _observations(self) -> dict[str, npt.NDArray[np.float32]]:
        return {agent: self._engine.observe(seat) for agent, seat in self._seat.items()}

    def _infos(self) -> dict[str, dict[str, Any]]:
        to_move = self._engine.to_move()
        mask = self._engine.legal_mask()
        infos: dict[str, dict[str, Any]] = {}
        for agent, seat in self._seat.items():
            acting = to_move == seat
            infos[agent] = {"acting": acting, "action_mask": mask & acting[:, None]}
        return infos
