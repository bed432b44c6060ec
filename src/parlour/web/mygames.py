"""My games: the matches an identity holds a seat at, newest first, a page at a time, each with the
opponents, the result for that seat, the date, whether it was rated, and where to replay, review and
download it (``GET /api/me/games``, the page ``/me/games``).

A finished match's result comes from replaying its stored moves through the engine (its winners
never change, so they are kept in memory once known); a table still being played is ``playing``, one
that ended without finishing ``abandoned``.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from parlour import games
from parlour.web.store import TableParts, TableStore
from parlour.web.tables import apply_change, new_state

RESULTS = ("won", "lost", "shared", "drawn", "abandoned", "playing", "finished")
"""A match's result for a seat: won alone, lost, shared the win with some (not all) of the others, drawn
(every seat shares the win), abandoned, still being played, or finished in a game that is not installed
any more (nothing can replay it)."""
PER_PAGE = 20
MAX_PER_PAGE = 50
MAX_PAGE = 1_000_000
"""Pages asked for beyond this are this one (the database's offsets stay small numbers)."""
REMEMBERED = 10_000
"""Finished matches whose winners are kept in memory."""


@dataclass(frozen=True)
class Opponent:
    """Another seat of the match: its name, its bot level (None: a person) and its final total."""

    name: str
    bot: str | None
    total: int | None

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "total": self.total}


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended: each seat's total and the winners."""

    totals: list[int]
    winners: list[int]


@dataclass(frozen=True)
class MatchLine:
    """One match in a player's list."""

    table_id: str
    game: str
    game_name: str
    seat: int
    name: str
    """The player's name at the table."""
    total: int | None
    opponents: list[Opponent]
    result: str
    created: str
    rated: bool

    def to_data(self) -> dict[str, Any]:
        path = f"/table/{self.table_id}"
        finished = self.result not in ("playing", "abandoned")
        links = {"table": path,
                 "replay": path + "#replay" if self.result != "playing" else None,
                 "review": path + "#review" if finished else None,
                 "record": f"/api/tables/{self.table_id}/record" if finished else None}
        return {"table_id": self.table_id, "game": self.game, "game_name": self.game_name, "seat": self.seat,
                "name": self.name, "total": self.total, "opponents": [o.to_data() for o in self.opponents],
                "result": self.result, "created": self.created, "rated": self.rated, "links": links}


def result_for(seat: int, players: int, winners: list[int]) -> str:
    """``won``, ``lost``, ``shared`` or ``drawn`` for ``seat`` of a finished match with these winners."""
    if seat not in winners:
        return "lost"
    if len(winners) == players:
        return "drawn"
    return "won" if len(winners) == 1 else "shared"


def outcome_of(parts: TableParts) -> Outcome | None:
    """The totals and winners of a finished stored match, by replaying its moves (None: its game is not
    installed any more)."""
    row = parts.table
    try:
        game = games.get(row.game)
    except ValueError:
        return None
    rules = {option.name for option in game.options}
    options = {k: v for k, v in row.options.items() if k in rules}  # only the game's own rules
    state = new_state(game, options, row.seed, [s.name for s in parts.seats])
    for move in parts.moves:
        apply_change(state, move.move)
    return Outcome(list(state.totals), list(state.winners()))


class MyGames:
    """The lists of matches of the identities of ``store``."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._outcomes: OrderedDict[str, Outcome | None] = OrderedDict()
        self._lock = threading.Lock()
        """The page is made in worker threads, several at once."""

    def outcome(self, parts: TableParts) -> Outcome | None:
        """The totals and winners of a finished stored match (:func:`outcome_of`), remembered: a finished
        match never changes, and its pages may be asked for again and again."""
        table_id = parts.table.id
        with self._lock:
            if table_id in self._outcomes:
                self._outcomes.move_to_end(table_id)
                return self._outcomes[table_id]
        outcome = outcome_of(parts)
        with self._lock:
            self._outcomes[table_id] = outcome
            while len(self._outcomes) > REMEMBERED:
                self._outcomes.popitem(last=False)
        return outcome

    def line(self, parts: TableParts, player: str) -> MatchLine:
        """``player``'s line of one stored match."""
        row = parts.table
        seat = next(s for s in parts.seats if s.owner == player)
        outcome = self.outcome(parts) if row.status == "finished" else None
        totals = outcome.totals if outcome is not None else [None] * len(parts.seats)
        if row.status == "abandoned":
            result = "abandoned"
        elif row.status != "finished":
            result = "playing"
        elif outcome is None:
            result = "finished"
        else:
            result = result_for(seat.seat, len(parts.seats), outcome.winners)
        try:
            game_name = games.get(row.game).name
        except ValueError:
            game_name = row.game
        opponents = [Opponent(s.name, s.level if s.kind == "bot" else None, totals[s.seat])
                     for s in parts.seats if s.seat != seat.seat]
        return MatchLine(row.id, row.game, game_name, seat.seat, seat.name, totals[seat.seat], opponents, result,
                         row.created.isoformat() + "Z", bool(row.rated))

    def page_of(self, player: str | None, page: int, per_page: int) -> dict[str, Any]:
        """A page of ``player``'s matches, newest first (run it off the event loop: it reads the database
        and replays finished matches it has not seen)."""
        per_page = max(1, min(MAX_PER_PAGE, per_page))
        page = max(1, min(MAX_PAGE, page))
        if player is None:
            return {"matches": [], "page": 1, "pages": 1, "total": 0}
        total, found = self.store.matches_of(player, (page - 1) * per_page, per_page)
        pages = max(1, math.ceil(total / per_page))
        if page > pages:
            page = pages
            total, found = self.store.matches_of(player, (page - 1) * per_page, per_page)
        return {"matches": [self.line(parts, player).to_data() for parts in found],
                "page": page, "pages": pages, "total": total}

    async def page(self, player: str | None, page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
        """:meth:`page_of`, in a worker thread."""
        return await asyncio.to_thread(self.page_of, player, page, per_page)
