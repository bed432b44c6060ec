"""The registry of games: ``parlour.games.get("twenty")``.

Each game is one :class:`~parlour.games.registry.GameEntry` — the game and
the parts other layers plug in for it (heuristic advice, terminal view, web
layout, RL space, search budgets) — registered here for the four games of the family,
or by a plug-in with :func:`register`.  Modules named in the environment
variable ``PARLOUR_PLUGINS`` (comma-separated) are imported on start-up, so
a plug-in's games are known to every front end (``parlour play``, ``parlour
serve``, the lab) without a change to parlour.
"""

from __future__ import annotations

import importlib
import os
from types import MappingProxyType

from parlour.game import Game
from parlour.games.registry import GameEntry, Registry

__all__ = ["GAME_IDS", "GameEntry", "all_games", "entry", "get", "ids", "register"]


def _family(game_id: str, space: str, hard: int, expert: int, reward_scale: float) -> GameEntry:
    """The entry of one of parlour's own games: its parts live where the layout says."""
    module = game_id.replace("-", "_")
    return GameEntry(
        id=game_id, game=f"parlour.games.{module}:GAME", advice=f"parlour.bots.heuristic.{module}:ADVICE",
        terminal=f"parlour.terminal.{module}", web=f"parlour.web.layouts.{module}",
        space=f"parlour.envs.spaces.{module}:{space}",
        levels=MappingProxyType({"hard": hard, "expert": expert}), reward_scale=reward_scale,
    )


FAMILY = (
    # Search iterations: ``hard`` decides within one second on one core (benchmarks/search.py measures it).
    # Reward scales: one over random play's 90th-percentile match margin, rounded (parlour.envs.rewards).
    _family("minus-twenty", "MinusTwentySpace", hard=1850, expert=7400, reward_scale=0.01),
    _family("progression", "ProgressionSpace", hard=2400, expert=9600, reward_scale=0.02),
    _family("twenty", "TwentySpace", hard=1200, expert=4800, reward_scale=0.02),
    _family("silver-bars", "SilverBarsSpace", hard=850, expert=3400, reward_scale=0.02),
)
"""The four games of the family, in the order parlour lists them."""

GAME_IDS = tuple(e.id for e in FAMILY)
"""The ids of parlour's own games (plug-ins may register more: see :func:`ids`)."""

REGISTRY = Registry()
for _entry in FAMILY:
    REGISTRY.register(_entry)


def register(game_entry: GameEntry) -> None:
    """Make a game known to parlour: every front end, bot and adapter then finds it."""
    REGISTRY.register(game_entry)


def entry(game_id: str) -> GameEntry:
    """The registry entry of ``game_id`` (``ValueError`` if unknown)."""
    return REGISTRY.entry(game_id)


def get(game_id: str) -> Game:
    """The game with id ``game_id`` (``ValueError`` if unknown)."""
    return REGISTRY.get(game_id)


def ids() -> list[str]:
    """Ids of every game parlour plays."""
    return REGISTRY.ids()


def all_games() -> list[Game]:
    """Every game parlour plays, in registry order."""
    return REGISTRY.all()


for _plugin in filter(None, (p.strip() for p in os.environ.get("PARLOUR_PLUGINS", "").split(","))):
    importlib.import_module(_plugin)
