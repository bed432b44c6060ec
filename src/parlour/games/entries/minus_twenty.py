"""Minus Twenty's registry entry: where each of its parts lives."""

from types import MappingProxyType

from parlour.games.registry import GameEntry, SparringPlan

ENTRY = GameEntry(
    id="minus-twenty", order=10,
    game="parlour.games.minus_twenty:GAME", advice="parlour.bots.heuristic.minus_twenty:ADVICE",
    terminal="parlour.terminal.minus_twenty", web="parlour.web.layouts.minus_twenty",
    tutorial="parlour.games.tutorials:minus_twenty.json",
    space="parlour.envs.spaces.minus_twenty:MinusTwentySpace",
    levels=MappingProxyType({"hard": 3200, "expert": 12800}), leaf=16, reward_scale=0.01,
    # The advice without medium's wavering (always the advised move): as fast as medium.
    sparring=SparringPlan("heuristic"),
)
"""Minus Twenty, first in parlour's list."""
