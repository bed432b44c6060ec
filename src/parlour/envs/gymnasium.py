"""Gymnasium environments: one seat of a parlour game against parlour's bots
(install extra ``parlour[rl]``).

>>> import gymnasium
>>> import parlour.envs.gymnasium  # registers the ids below
>>> env = gymnasium.make("parlour/MinusTwenty-v0", opponent="hard")
>>> observation, info = env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Ids: ``parlour/MinusTwenty-v0``, ``parlour/Progression-v0`` (three players),
``parlour/Twenty-v0``, ``parlour/SilverBars-v0``.  Gymnasium 1.x no longer
loads the ``gymnasium.envs`` entry point that parlour declares, so import
this module (or pass ``"parlour.envs.gymnasium:parlour/Twenty-v0"`` to
``gymnasium.make``) before making one.

* The learner plays one seat; every other seat is a parlour bot
  (``opponent``: a level or bot spec such as ``"random"``, ``"heuristic"``,
  ``"hard"``, a :class:`~parlour.bots.Bot`, or a sequence of those, one per
  other seat in turn order after the learner).  Bots are given only their
  seat's :meth:`~parlour.game.State.observation` and the legal moves, as in
  :mod:`parlour.match`, and move inside :meth:`ParlourEnv.step` (and inside
  :meth:`ParlourEnv.reset` when they play first).
* Observation: the learner's ``float32`` vector of
  :class:`~parlour.envs.spaces.GameSpace`, made from what its seat may see
  only.  Action: ``Discrete(num_actions)``, the game's action table.
  ``info["action_mask"]`` (``int8``, 1 for each legal action; all 0 once
  the match is over; :meth:`ParlourEnv.action_masks` gives the same as
  booleans, the method sb3-contrib's ``MaskablePPO`` asks an env for, so it
  runs on the env as it is), ``info["legal_moves"]`` (their notation),
  ``info["totals"]`` (match totals by seat), ``info["scores"]`` (the round's
  scores so far), ``info["seat"]`` and ``info["round"]`` come with every
  observation; after a step also ``info["played"]`` (the learner's move)
  and ``info["illegal_action"]``.
* An episode is a whole match: ``terminated`` when it ends; a finished round
  is followed by the next deal at once.  It is never truncated.
* ``reward="match"`` (the default, as in :mod:`parlour.envs.pettingzoo`):
  the learner's final total minus the mean of the others' totals, paid by
  the step that ends the match.  ``reward="round"``: each round's score
  minus the others' mean, paid by the step in which the round ends.  Both
  sum to the same amount over a match.
* ``reward_scale``: the points are multiplied by it (the reward is the
  margin in points times the scale, exactly).  ``None`` (the default) takes
  the game's scale from :mod:`parlour.envs.rewards` — 1/50, or 1/100 for
  Minus Twenty, which puts a typical match margin within about ±1, where
  learners such as ``MaskablePPO`` learn; ``reward_scale=1`` gives raw points.
* ``illegal="raise"`` (the default): an action whose move is not legal
  raises :class:`~parlour.game.IllegalMoveError` (a ``ValueError``) naming
  the move, why it is illegal and the legal moves, and leaves the match as
  it was.  ``illegal="random"``: the env plays a uniformly random legal
  move instead (drawn from ``env.np_random``) and reports it with
  ``info["illegal_action"] = True`` — for tools that sample from the whole
  action space without the mask, such as Gymnasium's ``check_env``.  An
  index outside the action space raises ``ValueError`` in both.
* Seeds: ``reset(seed=s)`` deals ``game.new_match(seed=s)`` and gives the
  bot in seat ``k`` the RNG of :func:`parlour.match.bot_rng` for ``(s, k)``,
  so that a match is the one :func:`parlour.match.play_bots` plays from the
  same seed; ``seat=None`` (the default) draws the learner's seat from the
  seed.  A reset without a seed takes a new match seed from ``np_random``.
  ``reset(options={"seat": 1})`` fixes the seat for that episode.
* Rule options are keyword arguments (``hand_size=8``) or ``options={...}``.
* ``render_mode="ansi"``: :meth:`ParlourEnv.render` returns the table as the
  learner's seat sees it, drawn by parlour's terminal views.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces as gym_spaces

from parlour import bots, games
from parlour.bots import Bot
from parlour.envs.rewards import reward_scale_for
from parlour.envs.spaces import GameSpace, space
from parlour.game import IllegalMoveError, Move, State
from parlour.match import bot_rng

__all__ = ["ENV_IDS", "ParlourEnv", "register_envs"]

ENV_IDS: dict[str, str] = {f"parlour/{e.camel_name}-v0": e.id for e in games.REGISTRY.entries() if e.space}
"""Gymnasium id → parlour game id: ``parlour/MinusTwenty-v0`` → ``minus-twenty``, for every
registered game with an RL space."""

REWARDS = ("match", "round")
ILLEGAL = ("raise", "random")

Opponent = str | Bot
Observation = npt.NDArray[np.float32]


class ParlourEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a parlour game against parlour bots (see the module docstring)."""

    # A turn-based table has no frame rate; declaring one keeps check_env from warning.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (as Gymnasium declares it)

    def __init__(
        self,
        game_id: str,
        opponent: Opponent | Sequence[Opponent] = "random",
        seat: int | None = None,
        reward: str = "match",
        reward_scale: float | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        **game_options: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'match' or 'round', not {reward!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'raise' or 'random', not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = games.get(game_id)
        players = self.game.players
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be None or a seat from 0 to {players - 1}, not {seat!r}")
        clash = set(options or {}) & set(game_options)
        if clash:
            raise ValueError(f"option(s) {sorted(clash)} given both in options and as keyword arguments")
        self.options = self.game.check_options({**(options or {}), **game_options})
        self.space: GameSpace = space(game_id, self.options)
        self.opponents = _opponents(opponent, players - 1)
        """The bots of the other seats, in turn order after the learner."""
        self.fixed_seat = seat
        self.reward_mode = reward
        self.reward_scale = reward_scale_for(self.game.id, reward_scale, self.options)
        """What the points are multiplied by (the game's default when ``None`` was given)."""
        self.illegal = illegal
        self.render_mode = render_mode
        sp = self.space
        self.observation_space = gym_spaces.Box(sp.low, sp.high, sp.obs_shape, np.float32)
        self.action_space = gym_spaces.Discrete(sp.num_actions)
        self.state: State | None = None
        """The match being played (the referee's state: never shown to the learner)."""
        self.seat = 0
        """The learner's seat in the current episode."""
        self._bots: dict[int, Bot] = {}
        self._bot_rngs: dict[int, random.Random] = {}
        self._pending = 0.0

    # -- the episode ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match (``game.new_match(seed=seed)``) and let the bots play
        until the learner is to move.  ``options`` may hold ``seat``."""
        super().reset(seed=seed)
        players = self.game.players
        seat = self.fixed_seat
        for key, value in (options or {}).items():
            if key != "seat":
                raise ValueError(f"reset options may only hold 'seat', not {key!r}")
            if value is not None and not (isinstance(value, int) and 0 <= value < players):
                raise ValueError(f"seat must be None or a seat from 0 to {players - 1}, not {value!r}")
            seat = value
        match_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        if seat is None:
            seat = int(self.np_random.integers(players))
        self.seat = seat
        self.state = self.game.new_match(seed=match_seed, options=self.options)
        others = [(seat + k) % players for k in range(1, players)]
        self._bots = dict(zip(others, self.opponents))
        self._bot_rngs = {other: bot_rng(match_seed, other) for other in others}
        # A round ending before the learner's first move would be paid by its first step.
        self._pending = self._play_bots(self.state)  # points, scaled when paid
        return self._observe(self.state), self._info(self.state)

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's move of ``action``, then the bots' moves until the
        learner is to move again or the match is over."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.current_player() != self.seat:
            raise RuntimeError("the match is over: call reset() to start another")
        move, illegal = self._move_of(state, action)
        state.apply(move)
        reward = (self._pending + self._play_bots(state)) * self.reward_scale
        self._pending = 0.0
        info = self._info(state)
        info["played"] = str(move)
        info["illegal_action"] = illegal
        return self._observe(state), reward, state.is_match_over(), False, info

    def _move_of(self, state: State, action: SupportsIndex) -> tuple[Move, bool]:
        """The move to play for ``action``, and whether ``action`` was illegal (and replaced)."""
        actions = self.space.actions
        try:
            index = operator.index(action)
        except TypeError:
            raise ValueError(f"an action is a whole number from 0 to {len(actions) - 1}, not {action!r}") from None
        if not 0 <= index < len(actions):
            raise ValueError(f"action {index} is not an index of the {len(actions)} actions")
        move = actions[index]
        legal = state.legal_moves()
        if move in legal:
            return move, False
        if self.illegal == "random":
            return legal[int(self.np_random.integers(len(legal)))], True
        reason = state.why_illegal(move) or "the rules do not allow it here"
        choices = ", ".join(f"{self.space.index[m]} ({m})" for m in legal)
        raise IllegalMoveError(f"action {index} ({move}) is illegal for seat {self.seat}: {reason}; "
                               f"legal actions now: {choices}")

    def _play_bots(self, state: State) -> float:
        """Let the bots move (dealing new rounds as they come) until the learner
        is to move or the match is over; return the learner's margin in points meanwhile."""
        reward = 0.0
        while True:
            seat = state.current_player()
            if seat is None:
                if self.reward_mode == "round":
                    reward += self._margin(state.scores)
                if state.is_match_over():
                    if self.reward_mode == "match":
                        reward += self._margin(state.totals)
                    return reward
                state.next_round()
                continue
            if seat == self.seat:
                return reward
            move = self._bots[seat].choose(state.observation(seat), state.legal_moves(), self._bot_rngs[seat])
            state.apply(move)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``bool`` of ``num_actions``: True for each action legal for the learner now (all False
        once the match is over) — the name and type sb3-contrib's ``MaskablePPO`` looks for."""
        if self.state is None:
            raise RuntimeError("call reset() before action_masks()")
        state = self.state
        legal = state.legal_moves() if state.current_player() == self.seat else []
        return self.space.mask(legal).astype(bool)

    def _margin(self, points: list[int]) -> float:
        """The learner's points minus the mean of the others' points."""
        mine = points[self.seat]
        return float(mine - (sum(points) - mine) / (len(points) - 1))

    def _observe(self, state: State) -> Observation:
        return self.space.encode_state(state, self.seat)

    def _info(self, state: State) -> dict[str, Any]:
        legal = state.legal_moves() if state.current_player() == self.seat else []
        return seat_info(state, self.seat, self.space.mask(legal), [str(m) for m in legal])

    # -- showing it ------------------------------------------------------------------
    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as the learner's seat sees it, as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        from parlour.terminal.views import observation_text

        state = self.state
        return observation_text(f"{self.game.name}, round {state.round_index + 1}: the learner is seat {self.seat}; "
                                f"totals {state.totals}", state.observation(self.seat))


def seat_info(state: State, seat: int, mask: Any, legal: list[str]) -> dict[str, Any]:
    """The ``info`` a single-seat environment returns: the seat's action mask and legal moves
    in notation, the match totals, the round's scores, the seat and the round (from 1)."""
    return {"action_mask": mask, "legal_moves": legal, "totals": state.totals, "scores": list(state.scores),
            "seat": seat, "round": state.round_index + 1}


def _opponents(opponent: Opponent | Sequence[Opponent], count: int) -> list[Bot]:
    """``count`` bots from one spec or bot (for every other seat) or a sequence of ``count``."""
    if isinstance(opponent, str | Bot):
        return [_bot(opponent) for _ in range(count)]
    given = list(opponent)
    if len(given) != count:
        raise ValueError(f"opponent: give one bot for every other seat ({count}), not {len(given)}")
    return [_bot(o) for o in given]


def _bot(opponent: Opponent) -> Bot:
    if isinstance(opponent, Bot):
        return opponent
    if not isinstance(opponent, str):
        raise ValueError(f"an opponent is a bot spec such as 'random' or 'hard', or a Bot, not {opponent!r}")
    return bots.make(opponent)


def register_envs() -> None:
    """Register ``parlour/MinusTwenty-v0`` … ``parlour/SilverBars-v0`` with Gymnasium
    (once: calling it again changes nothing)."""
    for env_id, game_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:ParlourEnv", kwargs={"game_id": game_id})


register_envs()
