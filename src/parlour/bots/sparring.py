"""The sparring partner: a cheap opponent, stronger than ``medium``, to train learners against.

A learner plays millions of moves against its opponent; ``hard`` (IS-MCTS with
850–2400 iterations a move) lets an environment run only 2–31 steps a second.
``sparring`` (``parlour.bots.make("sparring")``) plays each game with the cheapest
setting that was measured to beat ``medium`` on duplicate deals
(``docs/strength.md``, *The sparring partner*).

Each game's plan is a :class:`~parlour.games.registry.SparringPlan` in its registry entry
(``GameEntry.sparring``): the bot spec it plays, the share of decisions in which that bot
moves (the advice moves in the rest), and the kinds of decision it leaves to the advice.
The plans of parlour's own games, and why, are in their entries (:mod:`parlour.games.entries`):

* **Minus Twenty**: the advice without ``medium``'s wavering (``heuristic``: always
  the advised move, where ``medium`` samples at the club temperature).  As fast as
  ``medium``.
* **Twenty**: IS-MCTS with 16 iterations a move and heuristic rollouts, without
  reading the other's hand from its moves (``infer=0``, the costly part).
* **Progression** and **100 Silver Bars**: the smallest IS-MCTS there is — one
  sample a round of sequential halving (``iterations=1``), and each move judged
  right after the next player's advised reply by the advice's own evaluation
  (``depth=0``), without inference: a one-ply look-ahead on a determinized deal.
  In Progression it looks ahead only on what to play, in 75% of those decisions,
  and follows the advice on what to draw (the look-ahead drew worse than the advice)
  and in the other plays.  In 100 Silver Bars it looks ahead in 40% of its decisions
  and follows the advice in the rest.

A game whose entry has no plan (a plug-in) gets the advice itself (``heuristic``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from parlour import games
from parlour.bots.base import Bot, Budget
from parlour.game import Move, Observation
from parlour.games.registry import SparringPlan

FALLBACK = "heuristic"
"""What ``sparring`` plays in a game whose entry has no plan."""
FALLBACK_PLAN = SparringPlan(FALLBACK)
"""The plan of a game whose entry has none: the advice at every decision."""


def plan_for(game_id: str) -> SparringPlan:
    """How the sparring partner plays ``game_id`` (its entry's plan, else :data:`FALLBACK_PLAN`)."""
    try:
        plan = games.entry(game_id).sparring
    except ValueError:  # a game parlour does not know: the advice is all it can play
        plan = None
    return plan if plan is not None else FALLBACK_PLAN


def spec_for(game_id: str) -> str:
    """The bot spec the sparring partner plays in ``game_id``."""
    return plan_for(game_id).spec


class SparringBot(Bot):
    """Plays each game as its plan says (the bot of each game is made once, when first needed)."""

    name = "sparring"

    def __init__(self, make: Callable[[str], Bot], share: float | None = None) -> None:
        """``make``: how a bot is made from its spec (:func:`parlour.bots.make`, which makes this
        bot for the spec ``sparring``); ``share``: the share of decisions in which every game's bot
        moves (instead of each plan's ``share``: ``1`` looks ahead at every decision, slower and stronger)."""
        if share is not None and not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be between 0 and 1, not {share!r}")
        self.share = share
        self._make = make
        self._bots: dict[str, Bot] = {}
        self._plans: dict[str, SparringPlan] = {}

    def bot_for(self, game_id: str) -> Bot:
        """The bot that plays ``game_id`` for the sparring partner."""
        bot = self._bots.get(game_id)
        if bot is None:
            bot = self._bots[game_id] = self._make(spec_for(game_id))
        return bot

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The move of this game's bot (:func:`spec_for`)."""
        if len(legal) == 1:
            return legal[0]
        game_id = observation["game"]
        if self._leaves_to_advice(game_id, legal, rng):
            return self._fallback().choose(observation, legal, rng)
        return self.bot_for(game_id).choose(observation, legal, rng)

    def _leaves_to_advice(self, game_id: str, legal: Sequence[Move], rng: random.Random) -> bool:
        """Whether this decision is the advice's (the plan's ``advice_kinds`` and ``share``)."""
        plan = self._plans.get(game_id)
        if plan is None:
            plan = self._plans[game_id] = plan_for(game_id)
        kinds = plan.advice_kinds
        if kinds:
            kind_of = games.get(game_id).move_kind
            if any(kind_of(move) in kinds for move in legal):
                return True
        share = plan.share if self.share is None else self.share
        return share < 1.0 and rng.random() >= share

    def _fallback(self) -> Bot:
        bot = self._bots.get("")
        if bot is None:
            bot = self._bots[""] = self._make(FALLBACK)
        return bot

    def describe(self) -> str:
        share = "" if self.share is None else f", share {self.share:g}"
        plans = "; ".join(f"{e.id} {e.sparring.spec}" for e in games.REGISTRY.entries() if e.sparring is not None)
        return f"{self.name} (per game: {plans}{share})"
