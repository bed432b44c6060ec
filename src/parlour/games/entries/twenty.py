"""Twenty's registry entry: where each of its parts lives."""

from types import MappingProxyType

from parlour.games.registry import GameEntry, SparringPlan

ENTRY = GameEntry(
    id="twenty", order=30,
    game="parlour.games.twenty:GAME", advice="parlour.bots.heuristic.twenty:ADVICE",
    terminal="parlour.terminal.twenty", web="parlour.web.layouts.twenty",
    tutorial="parlour.games.tutorials:twenty.json",
    space="parlour.envs.spaces.twenty:TwentySpace",
    levels=MappingProxyType({"hard": 1200, "expert": 4800}), reward_scale=0.02,
    # IS-MCTS with 16 iterations and heuristic rollouts, without reading the other's hand (the costly part).
    sparring=SparringPlan("ismcts:iterations=16,rollout=heuristic,infer=0"),
)
"""Twenty, third in parlour's list."""
