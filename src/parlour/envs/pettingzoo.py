"""PettingZoo AEC environments for parlour's games (install extra ``parlour[rl]``).

>>> from parlour.envs.pettingzoo import env
>>> e = env("minus-twenty", reward="round")
>>> e.reset(seed=7)
>>> observation, reward, terminated, truncated, info = e.last()

* Agents are ``player_0`` … ``player_{n-1}``, one per seat.
* Every agent's observation is a dict: ``"observation"``, the seat's
  ``float32`` vector of :class:`~parlour.envs.spaces.GameSpace` (made from
  what the seat may see only), and ``"action_mask"``, ``int8`` with 1 for
  each legal action — all 0 for an agent that is not to move.
* Every agent's action space is one ``Discrete(num_actions)``: the game's
  action table (:meth:`GameSpace.table`).  An illegal action raises
  :class:`~parlour.game.IllegalMoveError` (a ``ValueError``).
* An episode is a whole match.  Turns follow the rules: in Minus Twenty and
  Progression the same agent acts twice in a row (play, then draw).  When a
  round ends the next one is dealt at once.
* Rewards are zero-sum.  ``reward="match"`` (the default): at the end of
  the match each agent receives its final total minus the mean of the
  others' totals, and nothing before.  ``reward="round"``: at the end of
  each round each agent receives its round score minus the mean of the
  others' round scores (their sum over a match is the ``match`` reward).
* ``reward_scale``: every reward is those points times it, exactly.
  ``None`` (the default) takes the game's scale from
  :mod:`parlour.envs.rewards` (1/50, or 1/100 for Minus Twenty: a typical
  match margin within about ±1); ``reward_scale=1`` gives raw points.
* ``max_rounds``: the episode is truncated after that many rounds if the
  match has not ended (with ``reward="match"`` the totals so far are paid).
* ``reset(seed=...)`` deals the match of ``game.new_match(seed=...)``; a
  reset without a seed continues the generator of the last seed.
* ``render()`` with ``render_mode="ansi"`` returns the table as the agent to
  move sees it, drawn by parlour's terminal views, as plain text; with
  ``render_mode="human"`` it prints that text (and returns None), as
  PettingZoo's ``render_test`` expects of a human render mode.
* Rule options are keyword arguments: ``env("minus-twenty", hand_size=8)``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces as gym_spaces
from pettingzoo import AECEnv

from parlour import games
from parlour.envs.rewards import reward_scale_for
from parlour.envs.spaces import GameSpace, space
from parlour.game import IllegalMoveError, State

__all__ = ["env", "raw_env"]

REWARDS = ("match", "round")


class raw_env(AECEnv):  # type: ignore[misc]
    """One of parlour's games as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "parlour_v0",
                                          "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        reward: str = "match",
        render_mode: str | None = None,
        max_rounds: int | None = None,
        reward_scale: float | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'match' or 'round', not {reward!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if max_rounds is not None and max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        self.game = games.get(game_id)
        self.options = self.game.check_options(options)
        self.space: GameSpace = space(game_id, options)
        self.reward_mode = reward
        self.reward_scale = reward_scale_for(game_id, reward_scale, self.options)
        """What the points are multiplied by (the game's default when ``None`` was given)."""
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.metadata = dict(self.metadata, name=f"parlour_{game_id.replace('-', '_')}_v0")  # type: ignore[misc]
        n = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        sp = self.space
        self.observation_spaces = {
            agent: gym_spaces.Dict({
                "observation": gym_spaces.Box(sp.low, sp.high, sp.obs_shape, np.float32),
                "action_mask": gym_spaces.Box(0, 1, (sp.num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: gym_spaces.Discrete(sp.num_actions) for agent in self.possible_agents}
        self._no_mask = np.zeros(sp.num_actions, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._rng = random.Random()
        self.state: State | None = None
        self._rewarded = False

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """``Discrete(num_actions)``: the game's action table."""
        return self.action_spaces[agent]

    # -- the episode ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match: ``game.new_match(seed=seed)``; without a seed, one from the
        generator of the last seed (or of the system, before any)."""
        if seed is not None:
            self._rng = random.Random(seed)
        else:
            seed = self._rng.getrandbits(64)
        self.state = self.game.new_match(seed=seed, options=self.options)
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        self._rewarded = False
        seat = self.state.current_player()
        assert seat is not None
        self.agent_selection = agents[seat]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The agent's vector and its action mask (all 0 unless it is to move)."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before using the environment")
        seat = self._seat_of[agent]
        space = self.space
        if agent == self.agent_selection and seat == state.current_player():
            mask = space.mask(state.legal_moves())
        else:
            mask = self._no_mask.copy()
        return {"observation": space.encode_state(state, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool,
                                                   dict[str, Any]]:
        """The agent to move's observation, cumulative reward, terminated, truncated and info
        (as :meth:`pettingzoo.AECEnv.last`)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        """Make the move of ``action`` for the agent to move; a dead agent's action must be ``None``."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move: give an action index, not None")
        actions = self.space.actions
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise IllegalMoveError(f"an action is an index of the {len(actions)} actions, not {action!r}") from None
        if not 0 <= index < len(actions):
            raise IllegalMoveError(f"action {action!r} is not an index of the {len(actions)} actions")
        move = actions[index]
        try:
            state.apply(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"action {action} ({move}) is illegal for {agent}: {error}") from None
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            self._rewarded = False
        seat = state.current_player()
        if seat is None:
            seat = self._end_round(state)
        self.agent_selection = self.possible_agents[seat]

    def _end_round(self, state: State) -> int:
        """Pay the round's rewards; deal the next round or end the episode; return the seat to move."""
        agents = self.possible_agents
        ends = state.is_match_over()
        cut = not ends and self.max_rounds is not None and state.round_index + 1 >= self.max_rounds
        if self.reward_mode == "round":
            self._pay(state.scores)
        elif ends or cut:
            self._pay(state.totals)
        if ends:
            self.terminations = dict.fromkeys(agents, True)
        elif cut:
            self.truncations = dict.fromkeys(agents, True)
        else:
            state.next_round()
            seat = state.current_player()
            assert seat is not None
            return seat
        return state.round_starter(state.round_index)

    def _pay(self, points: list[int]) -> None:
        """Each agent: its points minus the mean of the others' points, times the reward scale."""
        n = len(points)
        whole = sum(points)
        scale = self.reward_scale
        for agent, mine in zip(self.possible_agents, points):
            self.rewards[agent] = float(mine - (whole - mine) / (n - 1)) * scale
        self._rewarded = True
        self._accumulate_rewards()

    def _state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    # -- showing it ------------------------------------------------------------------
    def render(self) -> str | None:
        """The table as the agent to move sees it, as text: returned (``render_mode="ansi"``)
        or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi' or 'human')")
            return None
        from parlour.terminal.views import observation_text

        state = self._state()
        seat = self._seat_of[self.agent_selection] if self.agent_selection in self._seat_of else 0
        text = observation_text(f"{self.game.name}, round {state.round_index + 1}: {self.agent_selection} "
                                f"(seat {seat}) to move; totals {state.totals}", state.observation(seat))
        if self.render_mode == "human":
            print(text, end="", flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    game_id: str,
    reward: str = "match",
    render_mode: str | None = None,
    max_rounds: int | None = None,
    reward_scale: float | None = None,
    **options: Any,
) -> raw_env:
    """The AEC environment of ``game_id`` (``minus-twenty``, ``progression``,
    ``twenty``, ``silver-bars``) with its rule ``options``.

    Not wrapped in PettingZoo's order-enforcing wrappers: the environment
    checks its own use (illegal or out-of-range actions raise
    ``ValueError``; stepping before :meth:`raw_env.reset` raises), and every
    wrapper layer would cost time on each step.
    """
    return raw_env(game_id, reward=reward, render_mode=render_mode, max_rounds=max_rounds,
                   reward_scale=reward_scale, **options)
