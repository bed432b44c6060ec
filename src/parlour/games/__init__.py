"""The registry of games: ``parlour.games.get("twenty")``.

Each game lives in its own module, ``parlour.games.<id with _ for ->``, which
defines ``GAME``; it is loaded on first use.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util

from parlour.game import Game, Registry

GAME_IDS = ("minus-twenty", "progression", "twenty", "silver-bars")
"""Every game of the family, in the order parlour lists them."""

REGISTRY = Registry()


def module_name(game_id: str) -> str:
    """The module that holds a game's rules: ``minus-twenty`` → ``minus_twenty``."""
    return game_id.replace("-", "_")


def _loader(game_id: str) -> Game:
    module = importlib.import_module(f"parlour.games.{module_name(game_id)}")
    game: Game = module.GAME
    return game


for _id in GAME_IDS:
    if importlib.util.find_spec(f"parlour.games.{module_name(_id)}") is not None:
        REGISTRY.register(_id, functools.partial(_loader, _id))


def get(game_id: str) -> Game:
    """The game with id ``game_id`` (``ValueError`` if unknown)."""
    return REGISTRY.get(game_id)


def ids() -> list[str]:
    """Ids of every game parlour plays."""
    return REGISTRY.ids()


def all_games() -> list[Game]:
    """Every game parlour plays, in registry order."""
    return REGISTRY.all()
