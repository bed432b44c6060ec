"""The sparring partner: a cheap opponent, stronger than ``medium``, to train learners against.

A learner plays millions of moves against its opponent; ``hard`` (IS-MCTS with
850–2400 iterations a move) lets an environment run only 2–31 steps a second.
``sparring`` (``parlour.bots.make("sparring")``) plays each game with the cheapest
setting that was measured to beat ``medium`` on duplicate deals
(``docs/strength.md``, *The sparring partner*):

* **Minus Twenty**: the advice without ``medium``'s wavering (``heuristic``: always
  the advised move, where ``medium`` samples at the club temperature).  As fast as
  ``medium``.
* **Twenty**: IS-MCTS with 16 iterations a move and heuristic rollouts, without
  reading the other's hand from its moves (``infer=0``, the costly part).
* **Progression** and **100 Silver Bars**: the smallest IS-MCTS there is — one
  sample a round of sequential halving (``iterations=1``), and each move judged
  right after the next player's advised reply by the advice's own evaluation
  (``depth=0``), without inference: a one-ply look-ahead on a determinized deal.
  In Progression it looks ahead only on what to play, in 75% of those decisions
  (:data:`SHARES`), and follows the advice on what to draw (:data:`ADVICE_KINDS`:
  the look-ahead drew worse than the advice) and in the other plays: fast enough
  for 1,000 env steps a CPU-second against two of it, and still clearly stronger
  than ``medium`` (looking ahead on every play is slower, 863 steps a CPU-second;
  ``share=0.4`` is faster but no longer clearly stronger).  In 100 Silver Bars it
  looks ahead in 40% of its decisions and follows the advice in the rest, which was
  measured as strong as looking ahead every time and is 2–3 times as fast.

A game with no entry here (a plug-in) gets the advice itself (``heuristic``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from parlour.bots import Bot, Budget
from parlour.game import Move, Observation

LOOKAHEAD = "ismcts:iterations=1,rollout=heuristic,depth=0,infer=0"
"""A one-ply look-ahead on one determinized deal a halving round, judged by the advice's evaluation."""

SPECS: Mapping[str, str] = MappingProxyType({
    "minus-twenty": "heuristic",
    "twenty": "ismcts:iterations=16,rollout=heuristic,infer=0",
    "progression": LOOKAHEAD,
    "silver-bars": LOOKAHEAD,
})
"""The bot spec ``sparring`` plays in each game (see the module docstring)."""

SHARES: Mapping[str, float] = MappingProxyType({"progression": 0.75, "silver-bars": 0.4})
"""Where the game's bot costs too much to move every time: the share of its decisions (with
a real choice, not left to the advice by :data:`ADVICE_KINDS`) it makes, drawn with the
bot's RNG; the others are the advice's (:data:`FALLBACK`).  A game not named here uses its
bot for every such decision.  ``sparring:share=S`` sets one share for every game."""

ADVICE_KINDS: Mapping[str, frozenset[str]] = MappingProxyType({"progression": frozenset({"draw", "take"})})
"""Decisions the game's bot leaves to the advice (:data:`FALLBACK`): those in which a legal
move is of one of these kinds (:meth:`parlour.game.Game.move_kind`).  In Progression the
look-ahead lost to the advice on what to draw (23.9% of 300 rounds against two ``medium``)
and beat it on what to play (51.7%)."""

FALLBACK = "heuristic"
"""What ``sparring`` plays in a game that :data:`SPECS` does not name."""


def spec_for(game_id: str) -> str:
    """The bot spec the sparring partner plays in ``game_id``."""
    return SPECS.get(game_id, FALLBACK)


class SparringBot(Bot):
    """Plays each game as :data:`SPECS` says (the bot of each game is made once, when first needed)."""

    name = "sparring"

    def __init__(self, share: float | None = None) -> None:
        """``share``: the share of decisions in which every game's bot moves (instead of
        :data:`SHARES`: ``1`` looks ahead at every decision, slower and stronger)."""
        if share is not None and not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be between 0 and 1, not {share!r}")
        self.share = share
        self._bots: dict[str, Bot] = {}

    def bot_for(self, game_id: str) -> Bot:
        """The bot that plays ``game_id`` for the sparring partner."""
        bot = self._bots.get(game_id)
        if bot is None:
            from parlour.bots import make

            bot = self._bots[game_id] = make(spec_for(game_id))
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
        """Whether this decision is the advice's (:data:`ADVICE_KINDS`, :data:`SHARES`)."""
        kinds = ADVICE_KINDS.get(game_id)
        if kinds:
            from parlour import games

            kind_of = games.get(game_id).move_kind
            if any(kind_of(move) in kinds for move in legal):
                return True
        share = SHARES.get(game_id, 1.0) if self.share is None else self.share
        return share < 1.0 and rng.random() >= share

    def _fallback(self) -> Bot:
        bot = self._bots.get("")
        if bot is None:
            from parlour.bots import make

            bot = self._bots[""] = make(FALLBACK)
        return bot

    def describe(self) -> str:
        share = "" if self.share is None else f", share {self.share:g}"
        return f"{self.name} (per game: {'; '.join(f'{g} {s}' for g, s in SPECS.items())}{share})"
