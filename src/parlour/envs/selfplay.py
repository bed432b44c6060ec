"""Self-play: one seat of the PettingZoo environment as a Gymnasium environment, the
other seats played by a frozen policy (install extra ``parlour[rl]``).

>>> from parlour.envs.selfplay import SelfPlayEnv
>>> env = SelfPlayEnv("twenty", opponent="random", seat="alternate")
>>> observation, info = env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))

A self-play loop trains the learner against a frozen copy of itself and
snapshots it now and then::

    model = MaskablePPO("MlpPolicy", env, seed=0)
    for generation in range(10):
        model.learn(20_000)
        env.set_opponent(model)        # the model's policy, copied now

* The environment is :func:`parlour.envs.pettingzoo.env` of the game: the same
  observation vectors, action table, rewards (``reward``, ``reward_scale``,
  ``max_rounds``) and deals (``reset(seed=s)`` deals ``game.new_match(seed=s)``).
  The learner's observation is its seat's ``"observation"`` vector; its reward
  at a step is what the PettingZoo environment paid its agent since its last
  move (the points times ``reward_scale``).  ``terminated`` when the match
  ends, ``truncated`` when ``max_rounds`` cuts it.
* ``opponent`` plays every other seat, each from its own seat's view:

  - a *policy*, any callable ``policy(observation, action_mask) -> action``
    given the seat's ``float32`` vector and its ``bool`` mask of legal actions;
  - a model with ``predict(observation, action_masks=mask)`` such as
    sb3-contrib's ``MaskablePPO``: its policy is copied when it is given
    (:func:`snapshot`), so that training the model further does not change the
    opponent; it plays its most likely action (``deterministic=True``);
  - a parlour bot spec (``"random"``, ``"heuristic"``, ``"medium"``, …) or a
    :class:`~parlour.bots.Bot`, which sees the seat's
    :meth:`~parlour.game.State.observation` and the legal moves and draws from
    the RNG :func:`parlour.match.bot_rng` gives for the match seed and its seat.

  :meth:`SelfPlayEnv.set_opponent` replaces it from the next opponent move on.
* ``seat``: a seat number (the learner always plays it), ``"alternate"`` (the
  default: episode k after a ``reset(seed=s)`` is played from seat
  ``(s + k) % players``, so consecutive episodes take turns and a seed names its
  seat) or ``"random"`` (drawn from ``np_random`` each episode).
  ``reset(options={"seat": k})`` fixes it for one episode.
* ``action_masks()`` (``bool``) is the method sb3-contrib's ``MaskablePPO`` asks
  for; ``info["action_mask"]`` gives the same as ``int8``.
* ``illegal="raise"`` (the default) raises :class:`~parlour.game.IllegalMoveError`
  for an illegal learner action; ``illegal="random"`` plays a legal one drawn
  from ``np_random`` instead and says so in ``info["illegal_action"]`` (for
  Gymnasium's ``check_env``, which samples the whole action space).  An opponent
  that picks an illegal action always raises.
"""

from __future__ import annotations

import copy
import inspect
import operator
import random
from collections.abc import Callable
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces as gym_spaces

from parlour import bots
from parlour.bots import Bot
from parlour.envs.gymnasium import seat_info
from parlour.envs.pettingzoo import raw_env
from parlour.game import IllegalMoveError, State
from parlour.match import bot_rng

__all__ = ["Policy", "SelfPlayEnv", "snapshot"]

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
Policy = Callable[[Observation, Mask], SupportsIndex]
"""A frozen policy: the seat's observation vector and its mask of legal actions → an action."""

SEATS = ("alternate", "random")
ILLEGAL = ("raise", "random")


def snapshot(model: Any, deterministic: bool = True) -> Policy:
    """A frozen :data:`Policy` from a model with ``predict(observation, action_masks=...)``
    (sb3-contrib's ``MaskablePPO``): its ``policy`` network is deep-copied now, so later
    training of ``model`` does not change what the snapshot plays."""
    predictor = model.policy if hasattr(getattr(model, "policy", None), "predict") else model
    predict = getattr(predictor, "predict", None)
    if predict is None or "action_masks" not in inspect.signature(predict).parameters:
        raise ValueError(f"{type(model).__name__} has no predict(observation, action_masks=...): give a "
                         "maskable model (sb3-contrib's MaskablePPO), a policy callable or a bot spec")
    frozen = copy.deepcopy(predictor)

    def policy(observation: Observation, mask: Mask) -> int:
        action, _ = frozen.predict(observation, action_masks=mask, deterministic=deterministic)
        return int(np.asarray(action).reshape(()))

    return policy


class SelfPlayEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a parlour game against a frozen policy (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (as Gymnasium declares it)

    def __init__(
        self,
        game_id: str,
        opponent: Policy | str | Bot | Any = "random",
        seat: int | str = "alternate",
        reward: str = "match",
        reward_scale: float | None = None,
        max_rounds: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'raise' or 'random', not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.aec = raw_env(game_id, reward=reward, render_mode=render_mode, max_rounds=max_rounds,
                           reward_scale=reward_scale, **options)
        """The PettingZoo environment that plays the match."""
        self.game = self.aec.game
        self.space = self.aec.space
        self.reward_scale = self.aec.reward_scale
        players = self.game.players
        if not (seat in SEATS or (type(seat) is int and 0 <= seat < players)):
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, 'alternate' or 'random', not {seat!r}")
        self.seat_rule = seat
        self.illegal = illegal
        self.render_mode = render_mode
        sp = self.space
        self.observation_space = gym_spaces.Box(sp.low, sp.high, sp.obs_shape, np.float32)
        self.action_space = gym_spaces.Discrete(sp.num_actions)
        self.seat = 0
        """The learner's seat in the current episode."""
        self._policy: Policy | None = None
        self._bot: Bot | None = None
        self.set_opponent(opponent)
        self._first_seat = 0
        self._episode = 0
        self._bot_rngs: dict[int, random.Random] = {}
        self._started = False

    def set_opponent(self, opponent: Policy | str | Bot | Any) -> None:
        """Let ``opponent`` play the other seats from the next opponent move on: a policy
        callable, a maskable model (copied now: :func:`snapshot`), a bot spec or a Bot."""
        if isinstance(opponent, str):
            self._policy, self._bot = None, bots.make(opponent)
        elif isinstance(opponent, Bot):
            self._policy, self._bot = None, opponent
        elif hasattr(opponent, "predict"):
            self._policy, self._bot = snapshot(opponent), None
        elif callable(opponent):
            self._policy, self._bot = opponent, None
        else:
            raise ValueError(f"an opponent is a policy(observation, action_mask) -> action, a model with "
                             f"predict(observation, action_masks=...), a bot spec or a Bot, not {opponent!r}")

    # -- the episode ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match and let the opponent play until the learner is to move.
        ``options`` may hold ``seat``."""
        super().reset(seed=seed)
        players = self.game.players
        seat: int | None = None
        for key, value in (options or {}).items():
            if key != "seat":
                raise ValueError(f"reset options may only hold 'seat', not {key!r}")
            if value is not None and not (type(value) is int and 0 <= value < players):
                raise ValueError(f"seat must be None or a seat from 0 to {players - 1}, not {value!r}")
            seat = value
        match_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        if seed is not None:
            self._first_seat, self._episode = seed % players, 0
        if seat is None:
            rule = self.seat_rule
            if rule == "alternate":
                seat = (self._first_seat + self._episode) % players
            elif rule == "random":
                seat = int(self.np_random.integers(players))
            else:
                assert isinstance(rule, int)
                seat = rule
        self._episode += 1
        self.seat = seat
        self.aec.reset(seed=match_seed)
        self._bot_rngs = {other: bot_rng(match_seed, other) for other in range(players) if other != seat}
        self._started = True
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's move of ``action``, then the opponents' moves until the learner
        is to move again or the match is over."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        aec = self.aec
        if self._done():
            raise RuntimeError("the match is over: call reset() to start another")
        index, illegal = self._action_of(action)
        aec.step(index)
        self._play_opponents()
        learner = aec.possible_agents[self.seat]
        reward = float(aec._cumulative_rewards[learner])
        info = self._info()
        info["played"] = str(self.space.actions[index])
        info["illegal_action"] = illegal
        return self._observe(), reward, bool(aec.terminations[learner]), bool(aec.truncations[learner]), info

    def _action_of(self, action: SupportsIndex) -> tuple[int, bool]:
        """The index to play for ``action``, and whether ``action`` was illegal (and replaced)."""
        n = self.space.num_actions
        try:
            index = operator.index(action)
        except TypeError:
            raise ValueError(f"an action is a whole number from 0 to {n - 1}, not {action!r}") from None
        if not 0 <= index < n:
            raise ValueError(f"action {index} is not an index of the {n} actions")
        legal = np.flatnonzero(self.action_masks())
        if index in legal or self.illegal == "raise":  # the PettingZoo env says why an action is illegal
            return index, False
        return int(legal[int(self.np_random.integers(len(legal)))]), True

    def _play_opponents(self) -> None:
        """Let the opponent move until the learner is to move or the match is over."""
        aec = self.aec
        learner = aec.possible_agents[self.seat]
        state = self._state()
        while not self._done():
            agent = aec.agent_selection
            if agent == learner:
                return
            seat = aec._seat_of[agent]
            if self._bot is not None:
                move = self._bot.choose(state.observation(seat), state.legal_moves(), self._bot_rngs[seat])
                index = self.space.index[move]
            else:
                assert self._policy is not None
                seen = aec.observe(agent)
                mask = seen["action_mask"].astype(bool)
                chosen = self._policy(seen["observation"], mask)
                index = operator.index(chosen)
                if not (0 <= index < len(mask) and mask[index]):
                    raise IllegalMoveError(f"the opponent's policy chose action {chosen!r} for seat {seat}, "
                                           f"which is not legal (legal: {np.flatnonzero(mask).tolist()})")
            aec.step(index)

    def _done(self) -> bool:
        learner = self.aec.possible_agents[self.seat]
        return bool(self.aec.terminations[learner] or self.aec.truncations[learner])

    def _state(self) -> State:
        state = self.aec.state
        if state is None:
            raise RuntimeError("call reset() before using the environment")
        return state

    def action_masks(self) -> Mask:
        """``bool`` of ``num_actions``: True for each action legal for the learner now (all
        False once the episode is over) — what sb3-contrib's ``MaskablePPO`` asks for."""
        if not self._started:
            raise RuntimeError("call reset() before action_masks()")
        state = self._state()
        if self._done() or state.current_player() != self.seat:
            return np.zeros(self.space.num_actions, dtype=bool)
        return self.space.mask(state.legal_moves()).astype(bool)

    def _observe(self) -> Observation:
        return self.space.encode_state(self._state(), self.seat)

    def _info(self) -> dict[str, Any]:
        mask = self.action_masks()
        return seat_info(self._state(), self.seat, mask.astype(np.int8),
                         [str(self.space.actions[i]) for i in np.flatnonzero(mask)])

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as the learner's seat sees it, as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        from parlour.terminal.views import observation_text

        state = self._state()
        return observation_text(f"{self.game.name}, round {state.round_index + 1}: the learner is seat {self.seat}; "
                                f"totals {state.totals}", state.observation(self.seat))
