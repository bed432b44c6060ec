"""Players and their seats: the names players choose, and how a seat becomes a player's (joining
from the lobby, accepting an invitation, a first-release secret link) or is taken back by the host.

A seat belongs to a player: the identity in the browser's signed cookie.  An invitation gives a seat
to the first player who accepts it; nobody else ever gets it.  No two seats at a table share a name
(:meth:`~parlour.web.tables.Table.fit_name`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from parlour.web import broadcast
from parlour.web.protocol import ProtocolError
from parlour.web.store import TableStore, digest
from parlour.web.tables import TOKEN, Seat, Table, TableError, check_name, invite_url


class Seating:
    """Players' names and seats, for the tables of ``tables`` (found by ``get``, kept in the database
    ``store`` through ``run_db``); ``after_change`` sets a table going again when a seat to move gets
    a person."""

    def __init__(self, store: TableStore, tables: Mapping[str, Table], get: Callable[[str], Awaitable[Table]],
                 run_db: Callable[..., Awaitable[Any]], after_change: Callable[[Table], None]) -> None:
        self.store = store
        self.tables = tables
        self.get = get
        self._run_db = run_db
        self.after_change = after_change
        self.names: dict[str, str | None] = {}
        """Players' chosen names, as far as they have been looked up."""

    async def player_name(self, player: str | None) -> str | None:
        """The name ``player`` chose, if any."""
        if player is None:
            return None
        if player not in self.names:
            self.names[player] = await self._run_db(self.store.player_name, player)
        return self.names[player]

    async def rename(self, player: str, request: Any) -> dict[str, Any]:
        """Set the player's name; their seats at live tables take it too."""
        name = check_name(request.get("name") if isinstance(request, dict) else None)
        if name is None:
            raise TableError("give your name, as {\"name\": \"…\"}")
        held = list(self.tables.values())
        if self.store.shared:  # with several server processes, the player's tables may be anywhere
            held = [await self.get(table_id) for table_id in await self._run_db(self.store.live_tables_of, player)]
        renamed = [(t, t.fit_name(seat, name)) for t in held if t.live and (seat := t.seat_of(player)) is not None]
        await self._run_db(self.store.set_player_name, player, name,
                           [(table.id, seat, seat_name) for table, names in renamed
                            for seat, seat_name in names.items()])
        self.names[player] = name
        for table, names in renamed:
            table.rename_seats(names)
            broadcast.changed(table)
        return {"name": name}

    async def claim(self, table: Table, seat: Seat, player: str, name: str | None) -> None:
        """Give ``seat`` to ``player`` for good (holding the table's lock); a ``name`` given becomes
        the player's name too."""
        names = table.fit_name(seat.seat, name or await self.player_name(player) or seat.name)
        ok = await self._run_db(self.store.claim_seat, table.id, seat.seat, player, names[seat.seat],
                                [(table.id, n, seat_name) for n, seat_name in names.items() if n != seat.seat])
        if not ok:
            raise TableError("someone took that seat a moment ago: you can watch the table", 409)
        if name is not None and name != self.names.get(player):
            await self._run_db(self.store.set_player_name, player, name, [])
            self.names[player] = name
        seat.owner, seat.invite = player, None
        table.active = time.time()
        table.rename_seats(names)
        if table.live and table.state.current_player() == seat.seat:
            self.after_change(table)  # its turn now has a person behind it: the turn timer starts
        else:
            broadcast.changed(table)

    async def join(self, table_id: str, request: Any, player: str) -> dict[str, Any]:
        """Take a free ``open`` seat."""
        table = await self.get(table_id)
        if not isinstance(request, dict) or not isinstance(request.get("seat"), int) \
                or isinstance(request.get("seat"), bool):
            raise TableError("give the seat to take, as {\"seat\": number}")
        number = request["seat"]
        if not 0 <= number < len(table.seats):
            raise TableError(f"no seat {number} at this table")
        name = check_name(request.get("name"))
        async with table.lock:
            table.check_live()
            seat = table.seats[number]
            mine = table.seat_of(player)
            if mine is not None:
                if mine == number:
                    return {"seat": number}
                raise TableError(f"you already have seat {mine + 1} at this table", 409)
            if seat.kind != "open" or seat.taken:
                raise TableError("that seat is already taken: you can watch the table", 409)
            await self.claim(table, seat, player, name)
        return {"seat": number}

    async def accept(self, table_id: str, request: Any, player: str) -> dict[str, Any]:
        """Accept an invitation: its seat becomes ``player``'s, unless someone accepted it first."""
        table = await self.get(table_id)
        code = request.get("invite") if isinstance(request, dict) else None
        if not isinstance(code, str) or not TOKEN.fullmatch(code):
            raise TableError("give the invitation, as {\"invite\": \"…\", \"name\": \"…\"}")
        name = check_name(request.get("name"))
        wanted = digest(code)
        seat = next((s for s in table.seats if s.token_digest is not None
                     and secrets.compare_digest(s.token_digest, wanted)), None)
        if seat is None:
            raise TableError("this invitation is not valid (the host may have replaced it): "
                             "you can watch the table", 404)
        async with table.lock:
            if seat.owner == player:
                return {"seat": seat.seat}
            if seat.owner is not None:
                raise TableError(f"this invitation was already accepted by {seat.name}: "
                                 "you can watch the table as a spectator", 409)
            table.check_live()
            mine = table.seat_of(player)
            if mine is not None:
                raise TableError(f"you already have seat {mine + 1} at this table: the invitation is "
                                 "for someone else", 409)
            await self.claim(table, seat, player, name)
        return {"seat": seat.seat}

    async def reopen(self, table_id: str, number: int, player: str) -> dict[str, Any]:
        """The host takes a seat back from a person who left, with a new invitation for it."""
        table = await self.get(table_id)
        if player != table.host:
            raise TableError("only the table's host can re-open a seat", 403)
        if not 0 <= number < len(table.seats):
            raise TableError(f"no seat {number} at this table", 404)
        async with table.lock:
            table.check_live()
            seat = table.seats[number]
            if seat.is_bot:
                raise TableError("a bot's seat cannot be re-opened", 409)
            if seat.owner == player:
                raise TableError("that is your own seat", 409)
            if table.connected(number):
                raise TableError(f"{seat.name} is at the table right now", 409)
            invite = secrets.token_urlsafe(18)
            await self._run_db(self.store.reopen_seat, table.id, number, invite)
            seat.kind, seat.owner, seat.invite, seat.token_digest = "friend", None, invite, digest(invite)
            for conn in list(table.connections):
                if conn.seat == number:
                    conn.seat = None
            broadcast.changed(table)
        return {"seat": number, "url": invite_url(table.id, invite)}

    async def legacy_token(self, table: Table, token: str, player: str | None) -> int:
        """A seat's secret link of the first release: it gives the seat to the first player who brings it
        (as an invitation does), so that tables of the first release go on after an upgrade."""
        wanted = digest(token) if TOKEN.fullmatch(token) else ""  # no link looks otherwise
        seat = next((s for s in table.seats if wanted and s.token_digest is not None and s.owner is None
                     and secrets.compare_digest(s.token_digest, wanted)), None)
        if seat is None or player is None:
            raise ProtocolError("unauthorized", "that link holds no free seat at this table")
        async with table.lock:
            try:
                await self.claim(table, seat, player, None)
            except TableError as exc:
                raise ProtocolError("unauthorized", str(exc)) from None
        return seat.seat
