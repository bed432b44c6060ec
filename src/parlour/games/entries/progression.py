"""Progression's registry entry: where each of its parts lives."""

from types import MappingProxyType

from parlour.games.registry import LOOKAHEAD, GameEntry, SparringPlan

ENTRY = GameEntry(
    id="progression", order=20,
    game="parlour.games.progression:GAME", advice="parlour.bots.heuristic.progression:ADVICE",
    terminal="parlour.terminal.progression", web="parlour.web.layouts.progression",
    tutorial="parlour.games.tutorials:progression.json",
    space="parlour.envs.spaces.progression:ProgressionSpace",
    levels=MappingProxyType({"hard": 4800, "expert": 19200}), leaf=16, reward_scale=0.02,
    # The look-ahead on what to play, in 75% of those decisions; the advice on what to draw (the
    # look-ahead drew worse: 23.9% of 300 rounds against two medium, and played better: 51.7%) and
    # in the other plays: 1,000 env steps a CPU-second against two of it, still clearly stronger
    # than medium (every play: 863 steps a CPU-second; a share of 0.4 is no longer clearly stronger).
    sparring=SparringPlan(LOOKAHEAD, share=0.75, advice_kinds=frozenset({"draw", "take"})),
)
"""Progression, second in parlour's list."""
