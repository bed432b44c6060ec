"""The ladder: bot levels rated against each other with openskill.

Every pairing of levels (every group of three, for three-player games)
plays matches with rotating seats, stored as ordinary experiments named
``ladder <game>: a vs b``; the ratings are then computed from all of a game's
ladder matches in a fixed order (Plackett–Luce), and stored.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from parlour import games
from parlour.bots import levels
from parlour.lab.spec import ExperimentSpec, make_spec
from parlour.store import Store

LEVELS = tuple(level.name for level in levels.LEVELS)


def prefix(game_id: str) -> str:
    """The start of the names of a game's ladder experiments."""
    return f"ladder {game_id}: "


def ladder_specs(game_id: str, levels: Sequence[str], matches: int, seed: int = 0) -> list[ExperimentSpec]:
    """One experiment per group of levels (pairs, or triples for three players)."""
    players = games.get(game_id).players
    if len(levels) < players:
        raise ValueError(f"{game_id} needs at least {players} levels for a ladder")
    return [
        make_spec(game=game_id, players=list(group), matches=matches, seed=seed,
                  name=prefix(game_id) + " vs ".join(group))
        for group in itertools.combinations(levels, players)
    ]


def rate(store: Store, game_id: str) -> dict[str, tuple[float, float, int]]:
    """Ratings ``{player: (mu, sigma, matches)}`` from every stored ladder match of the game.

    Matches are taken in experiment then match order, so the same database
    always gives the same ratings.  Higher totals rank higher; equal totals tie.
    """
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    played: dict[str, int] = {}
    for experiment in store.experiments():
        if not experiment.name.startswith(prefix(game_id)):
            continue
        for match in store.matches(experiment.id):
            seated = [experiment.players[p] for p in match.seating]
            for name in seated:
                ratings.setdefault(name, model.rating(name=name))
                played[name] = played.get(name, 0) + 1
            ranks = [1.0 + sum(1 for other in match.totals if other > total) for total in match.totals]
            teams = [[ratings[name]] for name in seated]
            for name, (new,) in zip(seated, model.rate(teams, ranks=ranks)):
                ratings[name] = new
    return {name: (r.mu, r.sigma, played[name]) for name, r in ratings.items()}
