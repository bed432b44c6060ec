"""Ratings of people: the rules in one place.

A rated match (a choice made when the table is made) updates an openskill rating (Plackett–Luce, the
model of ``parlour lab ladder``) per game for each person at it, keyed by their identity (the player
id of the seat's owner).  Bots are anchors: each level of each game has the FIXED rating that
``parlour lab ladder`` measured for it (``parlour/data/bot_ratings.json``, with the command that made
it), which takes part in the arithmetic but never changes, so that a person who only plays bots still
gets a rating on the ladder's scale.  Places come from the match totals as the ladder takes them
(higher is better, equal totals share a place: a shared win is a tie).

What is shown is one number everywhere, the conservative ``μ − 3σ`` (as the ladder prints it), with
one decimal: a newcomer starts at μ = 25, σ = 25/3, so at 0.0, and rises as matches make the
rating surer.  :class:`RatingBook` keeps the ratings in memory for the tables' seats and the lobby,
with each rated player's page handle (a digest: a player's identity is never shown to others).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""openskill's Plackett–Luce model with its defaults (μ = 25, σ = 25/3), as the ladder uses it."""
ANCHORS = "data/bot_ratings.json"
"""The ladder's ratings of the bot levels, inside the ``parlour`` package."""


@dataclass(frozen=True)
class Standing:
    """An openskill rating: its mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The number shown to people: the conservative ``μ − 3σ``, to one decimal."""
        return round(self.mu - 3 * self.sigma, 1)


NEWCOMER = Standing(MODEL.mu, MODEL.sigma)
"""Everyone's rating before their first rated match of a game."""


@dataclass(frozen=True)
class Measure:
    """How one game's bot ratings were measured."""

    command: str
    """The ``parlour lab ladder …`` command."""
    made: str
    """When (ISO 8601 date)."""


@dataclass(frozen=True)
class Anchors:
    """The bot levels' fixed ratings per game, and how they were measured."""

    measures: dict[str, Measure]
    """``{game id: how its ratings were measured}``."""
    games: dict[str, dict[str, Standing]]
    """``{game id: {level: rating}}``."""
    matches: dict[str, dict[str, int]]
    """``{game id: {level: ladder matches played}}``."""

    def of(self, game_id: str, level: str) -> Standing:
        """The fixed rating of bot ``level`` in ``game_id`` (a newcomer's for a game or level not measured)."""
        return self.games.get(game_id, {}).get(level, NEWCOMER)

    def measured(self, game_id: str, level: str) -> bool:
        """Whether the ladder measured ``level`` in ``game_id`` (only those may sit at a rated table)."""
        return level in self.games.get(game_id, {})


def read_anchors(data: dict[str, Any]) -> Anchors:
    """Anchors from the stored ladder file's JSON: ``{games: {game id: {command, made, printed, levels:
    {level: {mu, sigma, matches}}}}}``."""
    games_in: dict[str, Any] = data["games"]
    return Anchors(
        measures={g: Measure(str(d["command"]), str(d["made"])) for g, d in games_in.items()},
        games={g: {level: Standing(float(r["mu"]), float(r["sigma"])) for level, r in d["levels"].items()}
               for g, d in games_in.items()},
        matches={g: {level: int(r["matches"]) for level, r in d["levels"].items()} for g, d in games_in.items()})


@cache
def anchors() -> Anchors:
    """The stored ladder's ratings of the bot levels (read once)."""
    return read_anchors(json.loads(files("parlour").joinpath(ANCHORS).read_text("utf-8")))


@dataclass(frozen=True)
class Entrant:
    """One seat of a rated match: a person (``player``) or a bot (``level``), with their rating before."""

    seat: int
    standing: Standing
    player: str | None = None
    """The seat owner's identity; None for a bot."""
    level: str | None = None
    """The bot's level; None for a person."""


@dataclass(frozen=True)
class Update:
    """What a rated match does to one person's rating."""

    player: str
    seat: int
    before: Standing
    after: Standing
    place: int
    """1 for the best total (shared on a tie), 2 for the next…"""


def entrant(game_id: str, seat: int, player: str | None, level: str | None,
            stored: Mapping[str, Standing]) -> Entrant:
    """A seat as it enters a rated match: a bot (``level``) with its anchor, or a person (``player``)
    with their rating in ``stored`` (a newcomer's if they have none)."""
    if level is not None:
        return Entrant(seat, anchors().of(game_id, level), level=level)
    if player is None:
        raise ValueError(f"seat {seat + 1} has neither a person nor a bot: it cannot be rated")
    return Entrant(seat, stored.get(player, NEWCOMER), player=player)


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place from the match totals: 1 + the number of seats with a higher total (ties share)."""
    return [1 + sum(1 for other in totals if other > total) for total in totals]


def rate(entrants: Sequence[Entrant], totals: Sequence[int]) -> list[Update]:
    """The people's new ratings after a match with these ``totals`` (one per seat, in the entrants'
    order): openskill's Plackett–Luce update of every seat as a team of one; a bot's new rating is
    dropped (it is an anchor)."""
    if len(entrants) != len(totals):
        raise ValueError(f"{len(entrants)} seats but {len(totals)} totals")
    ranks = places(totals)
    teams = [[MODEL.rating(mu=e.standing.mu, sigma=e.standing.sigma)] for e in entrants]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Update(e.player, e.seat, e.standing, Standing(new.mu, new.sigma), ranks[i])
            for i, (e, (new,)) in enumerate(zip(entrants, rated)) if e.player is not None]


class RatingBook:
    """The people's ratings in memory (``(game id, player) → Standing``), loaded from the database
    when the server starts and kept up to date as rated matches finish; bots' from the anchors."""

    def __init__(self, rows: Iterable[tuple[str, str, float, float]] = (),
                 handles: Mapping[str, str] | None = None) -> None:
        self.standings: dict[tuple[str, str], Standing] = {
            (game_id, player): Standing(mu, sigma) for game_id, player, mu, sigma in rows}
        self.handles: dict[str, str] = dict(handles or {})
        """Players' page handles (``/player/HANDLE``), for those who have played a rated match."""

    def of(self, game_id: str, player: str) -> Standing:
        """``player``'s rating in ``game_id`` (a newcomer's before their first rated match)."""
        return self.standings.get((game_id, player), NEWCOMER)

    def shown(self, game_id: str, player: str | None, level: str | None) -> float | None:
        """The number shown beside a seat: a bot's anchor, or a person's rating once they have one
        (None for a person without a rated match of the game, and for a seat nobody holds)."""
        if level is not None:
            return anchors().of(game_id, level).shown if anchors().measured(game_id, level) else None
        if player is None:
            return None
        standing = self.standings.get((game_id, player))
        return standing.shown if standing is not None else None

    def handle(self, player: str | None) -> str | None:
        """The handle of ``player``'s page, once they have one."""
        return self.handles.get(player) if player is not None else None

    def take(self, game_id: str, updates: Iterable[Update], handles: Mapping[str, str]) -> None:
        """Keep the new ratings of a rated match and the players' page handles (once stored)."""
        for update in updates:
            self.standings[(game_id, update.player)] = update.after
        self.handles.update(handles)
