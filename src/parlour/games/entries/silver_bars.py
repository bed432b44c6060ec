"""100 Silver Bars' registry entry: where each of its parts lives."""

from types import MappingProxyType

from parlour.games.registry import LOOKAHEAD, GameEntry, SparringPlan

ENTRY = GameEntry(
    id="silver-bars", order=40,
    game="parlour.games.silver_bars:GAME", advice="parlour.bots.heuristic.silver_bars:ADVICE",
    terminal="parlour.terminal.silver_bars", web="parlour.web.layouts.silver_bars",
    tutorial="parlour.games.tutorials:silver_bars.json",
    space="parlour.envs.spaces.silver_bars:SilverBarsSpace",
    levels=MappingProxyType({"hard": 1700, "expert": 6800}), leaf=16, reward_scale=0.02,
    # The look-ahead in 40% of its decisions, the advice in the rest: measured as strong as looking
    # ahead every time, and 2-3 times as fast.
    sparring=SparringPlan(LOOKAHEAD, share=0.4),
)
"""100 Silver Bars, fourth in parlour's list."""
