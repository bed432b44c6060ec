"""The kinds of move a player of a game can choose between, found by a census of random play.

A restricted bot (:class:`parlour.bots.Restricted`) is checked against them when an experiment
is made, and the ``what matters`` study (:func:`parlour.lab.studies.matters`) bars each in turn.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from parlour import games

CENSUS_ROUNDS = 30
"""Rounds of random play :func:`kinds_of` looks through."""


def kinds_of(
    game_id: str, options: Mapping[str, Any] | None = None, rounds: int = CENSUS_ROUNDS, seed: int = 0
) -> list[str]:
    """The kinds of move a player can choose between (:func:`_census`), taken once for each
    game, options, rounds and seed."""
    key = (game_id, json.dumps(dict(options or {}), sort_keys=True, default=str), rounds, seed)
    if key not in _CENSUS:
        _CENSUS[key] = _census(game_id, options, rounds, seed)
    return list(_CENSUS[key])


_CENSUS: dict[tuple[str, str, int, int], list[str]] = {}
"""Censuses already taken (each is the same every time)."""


def _census(game_id: str, options: Mapping[str, Any] | None, rounds: int, seed: int) -> list[str]:
    """The kinds of move (:meth:`parlour.game.Game.move_kind`) a player can choose between:
    a census of ``rounds`` seeded rounds of random play, the same every time.  A kind counts
    at a decision where it is legal beside another kind (a move that is the only kind on
    offer, like resolving a strike, is no choice: barring it or binding to it changes
    nothing); most often offered first."""
    game = games.get(game_id)
    offered: Counter[str] = Counter()
    for number in range(rounds):
        rng = random.Random(f"parlour-census:{seed}:{number}")
        state = game.new_match(rng=rng, options=options)
        while state.current_player() is not None:
            legal = state.legal_moves()
            kinds = {game.move_kind(move) for move in legal}
            if len(kinds) > 1:
                offered.update(kinds)
            state.apply(rng.choice(legal))
    return sorted(offered, key=lambda kind: (-offered[kind], kind))
