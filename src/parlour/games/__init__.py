"""The registry of games: ``parlour.games.get("twenty")``.

Each game lives in its own module and is loaded on first use.
"""

from __future__ import annotations

from parlour.game import Game, Registry

REGISTRY = Registry()


def _twenty() -> Game:
    from parlour.games.twenty import GAME

    return GAME


REGISTRY.register("twenty", _twenty)


def get(game_id: str) -> Game:
    """The game with id ``game_id`` (``ValueError`` if unknown)."""
    return REGISTRY.get(game_id)


def ids() -> list[str]:
    """Ids of every game parlour plays."""
    return REGISTRY.ids()


def all_games() -> list[Game]:
    """Every game parlour plays, in registry order."""
    return REGISTRY.all()
