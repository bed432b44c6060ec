"""parlour's bots as OpenSpiel policies, so that OpenSpiel's own tools measure them
(install extra ``parlour[rl]``).

>>> from open_spiel.python.algorithms import exploitability
>>> from parlour.envs import openspiel, policies
>>> game = openspiel.load("twenty", rounds_only=True, options=games.get("twenty").micro_options)
>>> exploitability.nash_conv(game, policies.BotPolicy(game, "medium"))

A bot decides from its seat's observation alone (:mod:`parlour.bots`), which the seat's
information state determines, so a bot is a behaviour policy over information states.
:meth:`BotPolicy.action_probabilities` gives it per information state:

* exactly, where the bot knows its own chances (:meth:`parlour.bots.Bot.probabilities`:
  ``random``; ``medium`` where it weighs moves at a club temperature);
* otherwise as one decision, seeded by the seed and the information state: a pure
  strategy drawn from the bot's behaviour (the search levels), the same every time
  the information state comes round, so the policy is well defined.
"""

from __future__ import annotations

import random
from typing import Any

from open_spiel.python import policy as os_policy

from parlour import bots
from parlour.envs.openspiel import ParlourGame

__all__ = ["BotPolicy"]


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """The bot named by ``spec`` (:func:`parlour.bots.make`), seat by seat, as an OpenSpiel
    policy of ``game`` (a parlour OpenSpiel game); decisions are remembered per information
    state (see the module docstring)."""

    def __init__(self, game: ParlourGame, spec: str, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.spec = spec
        self.bot = bots.make(spec)
        self.seed = seed
        self.exact = True
        """Whether every decision so far came with the bot's own chances (no seeded draw)."""
        self._decided: dict[str, dict[int, float]] = {}

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """The bot's chance of each legal action at ``state``'s information state."""
        key = state.information_state_string()
        found = self._decided.get(key)
        if found is None:
            found = self._decided[key] = self._decide(state, key)
        return found

    def _decide(self, state: Any, key: str) -> dict[int, float]:
        engine = state.engine
        seat = engine.current_player()
        legal = engine.legal_moves()
        view = bots.view_for(self.bot, engine, seat)
        index = self.game.spec.space.index
        found = {index[move]: 0.0 for move in legal}  # every legal action, as OpenSpiel's tools ask
        chances = self.bot.probabilities(view, legal)
        if chances is not None:
            for move, p in zip(legal, chances):
                found[index[move]] += p
            return found
        self.exact = False
        found[index[self.bot.choose(view, legal, random.Random(f"{self.seed} {key}"))]] = 1.0
        return found
