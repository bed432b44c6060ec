"""Every level a person can choose, in one place: the bot and budget behind each,
its description, the level that gives hints and the one that moves for a person
whose turn timer ran out.  The search budgets per game are in each game's
registry entry (:attr:`parlour.games.registry.GameEntry.levels`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A level of play: a name people choose, the bot spec behind it, and what it does."""

    name: str
    spec: str
    """The bot and its settings (see :func:`parlour.bots.make`)."""
    description: str


LEVELS = (
    Level("easy", "heuristic:noise=0.35", "the club player's advice, with a 35% chance of a random move"),
    Level("medium", "heuristic:temperature=club",
          "a sound club player's advice for each game; like a club player, it may misjudge a close call"),
    Level("hard", "ismcts:level=hard,rollout=heuristic",
          "IS-MCTS search over the hidden cards; decides within a second"),
    Level("expert", "ismcts:level=expert,rollout=heuristic", "IS-MCTS with four times the search of hard"),
)
"""The levels, weakest first."""


HINT_LEVEL = "hard"
"""The level whose search gives hints."""

HINT_LEGEND = ("points: how the round should end for you, your score minus your opponent's (with three players, "
               "the others' average), as the search expects it; give or take: its 95% margin")
"""What the numbers of a hint mean: printed under every hint (plain text, no markup)."""

TIMER_LEVEL = "medium"
"""The level that moves for a person whose turn timer has run out."""


DEFAULT_ITERATIONS = {"hard": 1000, "expert": 4000}
"""The search levels' iterations in a game whose registry entry does not give its own."""

SEARCH_LEVELS = tuple(DEFAULT_ITERATIONS)
"""The levels that search; each game's registry entry gives their iterations."""


def level_iterations(level: str, game_id: str) -> int:
    """Search iterations of ``level`` in ``game_id``, from the game's registry entry
    (``hard`` decides within one second on one core: ``benchmarks/search.py`` measures
    it).  Iterations, not seconds, so that the same seed gives the same decisions on any
    machine.  A game that gives none (a plug-in's) gets :data:`DEFAULT_ITERATIONS`."""
    from parlour import games

    if level not in DEFAULT_ITERATIONS:
        raise ValueError(f"{level!r} is not a search level ({', '.join(SEARCH_LEVELS)})")
    return games.entry(game_id).levels.get(level, DEFAULT_ITERATIONS[level])
