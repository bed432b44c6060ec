"""The registry of games: ``parlour.games.get("twenty")``.

Each game is one :class:`~parlour.games.registry.GameEntry` — the game and
the parts other layers plug in for it (heuristic advice, terminal view, web
layout, RL space, search budgets, sparring plan).  parlour's own games are found,
not listed: each has an entry module in :mod:`parlour.games.entries`, discovered
on start-up and registered in its ``order``.  A plug-in registers its games with
:func:`register`; modules named in the environment variable ``PARLOUR_PLUGINS``
(comma-separated) are imported when parlour is first asked for a game, so a plug-in's games are known to
every front end (``parlour play``, ``parlour serve``, the lab) without a change
to parlour.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

from parlour.game import Game
from parlour.games import entries
from parlour.games.registry import GameEntry, Registry

__all__ = ["GAME_IDS", "GameEntry", "all_games", "entry", "get", "ids", "register"]


def _discover() -> tuple[GameEntry, ...]:
    """The entries of parlour's own games, one per module of :mod:`parlour.games.entries`, in their order."""
    found = [importlib.import_module(f"{entries.__name__}.{module.name}").ENTRY
             for module in pkgutil.iter_modules(entries.__path__)]
    return tuple(sorted(found, key=lambda e: (e.order, e.id)))


FAMILY = _discover()
"""parlour's own games, in the order parlour lists them."""

GAME_IDS = tuple(e.id for e in FAMILY)
"""The ids of parlour's own games (plug-ins may register more: see :func:`ids`)."""

REGISTRY = Registry(plugins=[p.strip() for p in os.environ.get("PARLOUR_PLUGINS", "").split(",") if p.strip()])
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

