"""The table manager: the only authority over every game played on the server.

Each table holds its :class:`~parlour.game.State`, a version that goes up
with every change, its seats and its open connections.  A change is checked
by the engine, committed to the database, applied, and only then broadcast;
each connection is sent its own seat's observation (spectators the public
view).  Bots think in worker processes, so the server never waits for them.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlour import bots, games
from parlour.game import Game, IllegalMoveError, Move, MoveSyntaxError, State
from parlour.web import views
from parlour.web.store import NEXT_ROUND, SeatRow, TableRow, TableStore, digest, now

PERSON_KINDS = ("me", "friend", "open")
SEAT_KINDS = (*PERSON_KINDS, "bot")
TIMER_LEVEL = "medium"
"""The bot that moves for a person whose turn timer has run out."""
MAX_NAME = 40


class TableError(ValueError):
    """A request about a table that cannot be granted, with an HTTP-like status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class ProtocolError(ValueError):
    """A WebSocket message that gets a typed ``error`` back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# -- work done in worker processes --------------------------------------------
def bot_move(spec: str, observation: dict[str, Any], legal: list[str], seed: str) -> str:
    """A bot's decision, in a worker process: the move in notation."""
    moves = [Move.parse(text) for text in legal]
    return str(bots.make(spec).choose(observation, moves, random.Random(seed)))


def bot_hint(observation: dict[str, Any], legal: list[str], seed: str) -> list[dict[str, Any]]:
    """The hint bot's three best moves, in a worker process."""
    moves = [Move.parse(text) for text in legal]
    return [
        {"move": str(e.move), "value": round(e.value, 2),
         "margin": None if e.margin == float("inf") else round(e.margin, 2),
         "share": round(e.share, 3), "text": bots.format_estimate(e)}
        for e in bots.hint(observation, moves, random.Random(seed))
    ]


def _worker_init() -> None:
    from parlour.lab.runner import _die_with_parent

    _die_with_parent()


# -- tables ---------------------------------------------------------------------
@dataclass
class Seat:
    """A seat as the server knows it."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_digest: str | None

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def public(self, connected: bool) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "taken": self.is_bot or self.token_digest is not None, "connected": connected}


class Connection:
    """One WebSocket: its seat (None for a spectator) and an outgoing queue,
    so that a slow reader never holds up a table."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.table: Table | None = None
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=256)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            # A client that reads nothing for 256 messages gets only the newest state.
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(message)


@dataclass
class Table:
    """A table in memory: the state, its version, seats, changes and connections."""

    id: str
    game: Game
    options: dict[str, Any]
    seed: int
    turn_seconds: int | None
    seats: list[Seat]
    state: State
    version: int = 0
    changes: list[tuple[int | None, str]] = field(default_factory=list)
    """Every accepted change as (seat, move or ``next round``), in order."""
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    created: str = ""
    """When the table was started (ISO 8601, UTC)."""
    deadline: float | None = None
    task: asyncio.Task[None] | None = None
    """The pending bot move, turn timer or automatic next round."""

    @property
    def status(self) -> str:
        if self.state.is_match_over():
            return "finished"
        return "round_over" if self.state.is_round_over() else "playing"

    @property
    def people(self) -> list[int]:
        return [s.seat for s in self.seats if not s.is_bot]

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def summary(self) -> dict[str, Any]:
        return {"table_id": self.id, "game": self.game.id, "name": self.game.name, "options": self.options,
                "seats": [s.public(self.connected(s.seat)) for s in self.seats], "status": self.status,
                "version": self.version, "turn_seconds": self.turn_seconds, "created": self.created}


def new_state(game: Game, options: dict[str, Any], seed: int, names: Sequence[str]) -> State:
    """A table's match as it starts: the same seed always gives the same deals."""
    return game.new_match(seed=seed, options=options, names=list(names))


def apply_change(state: State, change: str) -> None:
    """Make one stored change: a move, or dealing the next round."""
    if change == NEXT_ROUND:
        state.next_round()
    else:
        state.apply(Move.parse(change))


class TableManager:
    """Every table of the server, and the rules for changing them."""

    def __init__(self, store: TableStore, bot_delay: float = 0.6, bot_workers: int = 2,
                 executor: Executor | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.executor = executor or ProcessPoolExecutor(
            max_workers=bot_workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init)
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlour-db")
        """Database writes go one at a time, off the event loop."""
        self._pending: list[tuple[tuple[str, int, int | None, str, int, str], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    # -- life cycle -------------------------------------------------------------
    async def start(self) -> None:
        """Load every unfinished table and set its bots and timers going again."""
        rows = await asyncio.get_running_loop().run_in_executor(self.db, self.store.unfinished)
        for table_row, seat_rows, move_rows in rows:
            table = self._rebuild(table_row, seat_rows, [(m.seat, m.move) for m in move_rows])
            self.tables[table.id] = table
            self._after_change(table)

    async def stop(self) -> None:
        for table in self.tables.values():
            if table.task is not None:
                table.task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.db.shutdown(wait=True)
        self.store.close()

    def _rebuild(self, row: TableRow, seat_rows: Sequence[SeatRow], changes: list[tuple[int | None, str]]) -> Table:
        game = games.get(row.game)
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_digest) for s in seat_rows]
        state = new_state(game, row.options, row.seed, [s.name for s in seats])
        for _seat, change in changes:
            apply_change(state, change)
        return Table(row.id, game, row.options, row.seed, row.turn_seconds, seats, state, row.version, changes,
                     created=row.created.isoformat() + "Z")

    async def get(self, table_id: str) -> Table:
        """A table by id (finished ones are loaded from the database on demand)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loaded = await asyncio.get_running_loop().run_in_executor(self.db, self.store.load, table_id)
        if loaded is None:
            raise TableError(f"no table {table_id!r}", 404)
        row, seat_rows, move_rows = loaded
        table = self.tables.setdefault(table_id, self._rebuild(row, seat_rows, [(m.seat, m.move) for m in move_rows]))
        return table

    # -- HTTP ---------------------------------------------------------------------
    async def create(self, request: Any) -> dict[str, Any]:
        """A new table from ``{game, options, seats, turn_seconds}``; tokens for its people."""
        if not isinstance(request, dict):
            raise TableError("the request must be a JSON object")
        try:
            game = games.get(str(request.get("game")))
        except ValueError as exc:
            raise TableError(str(exc)) from None
        options_in = request.get("options") or {}
        if not isinstance(options_in, dict):
            raise TableError("options must be an object of option names and values")
        try:
            options = game.check_options(options_in)
        except ValueError as exc:
            raise TableError(str(exc)) from None
        seats_in = request.get("seats")
        if not isinstance(seats_in, list) or len(seats_in) != game.players:
            raise TableError(f"{game.name} needs {game.players} seats")
        turn = request.get("turn_seconds")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or not 5 <= turn <= 3600):
            raise TableError("turn_seconds must be a whole number of seconds from 5 to 3600, or null")
        table_id = secrets.token_urlsafe(9)
        seats, tokens = [], {}
        for number, item in enumerate(seats_in):
            if not isinstance(item, dict) or item.get("kind") not in SEAT_KINDS:
                raise TableError(f"seat {number + 1}: kind must be one of {', '.join(SEAT_KINDS)}")
            kind = item["kind"]
            level = item.get("level")
            if kind == "bot":
                if not isinstance(level, str) or level not in bots.LEVELS:
                    raise TableError(f"seat {number + 1}: level must be one of {', '.join(bots.LEVELS)}")
            else:
                level = None
            name = item.get("name")
            if name is None or name == "":
                name = {"bot": f"{str(level).capitalize()} bot", "open": f"Seat {number + 1}"}.get(
                    kind, f"Player {number + 1}")
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise TableError(f"seat {number + 1}: a name is text of at most {MAX_NAME} characters")
            token = secrets.token_urlsafe(24) if kind in ("me", "friend") else None
            if token:
                tokens[number] = token
            seats.append(SeatRow(table_id=table_id, seat=number, kind=kind, level=level, name=name.strip() or name,
                                 token_digest=digest(token) if token else None))
        names = [s.name for s in seats]
        for seat in seats:
            if names.count(seat.name) > 1:
                seat.name = f"{seat.name} {seat.seat + 1}"
        seed = secrets.randbits(62)
        row = TableRow(id=table_id, game=game.id, options=options, seed=seed, turn_seconds=turn, version=0,
                       status="playing", created=now())
        state = new_state(game, options, seed, [s.name for s in seats])
        await asyncio.get_running_loop().run_in_executor(self.db, self.store.add_table, row, seats)
        table = Table(table_id, game, options, seed, turn, [Seat(s.seat, s.kind, s.level, s.name, s.token_digest)
                                                            for s in seats], state,
                      created=row.created.isoformat() + "Z")
        self.tables[table_id] = table
        self._after_change(table)
        out = table.summary()
        out.update(url=f"/table/{table_id}", spectate_url=f"/table/{table_id}")
        for seat in out["seats"]:
            token = tokens.get(seat["seat"])
            if token:
                seat.update(token=token, url=f"/table/{table_id}#token={token}")
        return out

    def lobby(self) -> list[dict[str, Any]]:
        """Unfinished tables with a free ``open`` seat, newest first."""
        found = [t for t in self.tables.values() if t.status != "finished"
                 and any(s.kind == "open" and s.token_digest is None for s in t.seats)]
        return [t.summary() for t in reversed(found)]

    async def join(self, table_id: str, request: Any) -> dict[str, Any]:
        """Take a free ``open`` seat: its token and link."""
        table = await self.get(table_id)
        if not isinstance(request, dict) or not isinstance(request.get("seat"), int) \
                or isinstance(request.get("seat"), bool):
            raise TableError("give the seat to take, as {\"seat\": number}")
        number = request["seat"]
        if not 0 <= number < len(table.seats):
            raise TableError(f"no seat {number} at this table")
        name = request.get("name") or table.seats[number].name
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise TableError(f"a name is text of at most {MAX_NAME} characters")
        seat = table.seats[number]
        if seat.kind != "open" or seat.token_digest is not None:
            raise TableError("that seat is already taken", 409)
        token = secrets.token_urlsafe(24)
        async with table.lock:
            ok = await asyncio.get_running_loop().run_in_executor(
                self.db, self.store.claim_seat, table.id, number, token, name)
            if not ok:
                raise TableError("that seat is already taken", 409)
            seat.token_digest, seat.name = digest(token), name
            table.state.names = tuple(s.name for s in table.seats)
            self._broadcast(table)
        return {"token": token, "url": f"/table/{table.id}#token={token}", "seat": number}

    async def replay(self, table_id: str, token: str | None) -> dict[str, Any]:
        """Replay steps: from the token's seat during play, with all cards after the match."""
        table = await self.get(table_id)
        state = new_state(table.game, table.options, table.seed, [s.name for s in table.seats])
        changes = [c for _s, c in table.changes]
        if table.status == "finished":
            return {"steps": list(views.steps(state, changes, views.full_view)), "full": True}
        seat = self._seat_of(table, token)
        if seat is None:
            raise TableError("during play, a replay is shown only to a seat (with its token)", 403)
        return {"steps": list(views.steps(state, changes, lambda s: s.observation(seat))), "full": False}

    async def record(self, table_id: str) -> dict[str, Any]:
        """The match record, once the match is over."""
        from parlour import record

        table = await self.get(table_id)
        if table.status != "finished":
            raise TableError("the record is available once the match is over", 409)
        return record.to_data(table.state, {"server": "parlour serve", "table": table.id})

    # -- WebSocket ------------------------------------------------------------------
    @staticmethod
    def _seat_of(table: Table, token: str | None) -> int | None:
        if not token:
            return None
        wanted = digest(token)
        for seat in table.seats:
            if seat.token_digest is not None and secrets.compare_digest(seat.token_digest, wanted):
                return seat.seat
        return None

    async def hello(self, conn: Connection, table_id: str, token: Any) -> None:
        """Claim a seat by its token (or watch with none); sends ``welcome`` and the state."""
        if token is not None and not isinstance(token, str):
            raise ProtocolError("malformed", "token must be a string or null")
        table = await self.get(table_id)
        seat = self._seat_of(table, token)
        if token and seat is None:
            raise ProtocolError("unauthorized", "that token holds no seat at this table")
        if conn.table is not None:
            conn.table.connections.discard(conn)
        conn.table, conn.seat = table, seat
        table.connections.add(conn)
        conn.send({"type": "welcome", "seat": seat, "role": "spectator" if seat is None else "player",
                   "table": table.summary()})
        self._broadcast(table)

    def leave(self, conn: Connection) -> None:
        table = conn.table
        if table is not None and conn in table.connections:
            table.connections.discard(conn)
            self._broadcast(table)

    async def handle(self, conn: Connection, message: dict[str, Any]) -> None:
        """One message from a client (after ``hello``)."""
        table = conn.table
        assert table is not None
        kind = message.get("type")
        if kind == "ping":
            conn.send({"type": "pong"})
            return
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("malformed", f"a {kind} message needs the version it was made against")
        if conn.seat is None:
            raise ProtocolError("unauthorized", "spectators cannot act at the table")
        if kind == "move":
            text = message.get("move")
            if not isinstance(text, str) or len(text) > 60:
                raise ProtocolError("malformed", "move must be a move in notation, like 'play <card>'")
            await self._move(table, conn.seat, text, version)
        elif kind == "next_round":
            await self._next_round(table, conn.seat, version)
        elif kind == "undo":
            await self._undo(table, conn.seat, version)
        elif kind == "hint":
            await self._hint(conn, table, version)
        else:
            raise ProtocolError("malformed", f"unknown message type {kind!r}")

    @staticmethod
    def _check_version(table: Table, version: int) -> None:
        if version != table.version:
            raise ProtocolError("stale", f"the table is at version {table.version}, not {version}")

    async def _move(self, table: Table, seat: int, text: str, version: int) -> None:
        async with table.lock:
            self._check_version(table, version)
            to_move = table.state.current_player()
            if to_move is None:
                raise ProtocolError("not_your_turn", "the round is over")
            if to_move != seat:
                raise ProtocolError("not_your_turn", f"it is {table.seats[to_move].name}'s turn")
            try:
                move = table.state.parse_move(text)
            except MoveSyntaxError as exc:
                raise ProtocolError("syntax", str(exc)) from None
            except IllegalMoveError as exc:
                raise ProtocolError("illegal", str(exc)) from None
            await self._commit(table, seat, str(move))

    async def _next_round(self, table: Table, seat: int | None, version: int) -> None:
        async with table.lock:
            self._check_version(table, version)
            if table.status != "round_over":
                raise ProtocolError("not_allowed", "the next round is dealt only once this round is over")
            await self._commit(table, seat, NEXT_ROUND)

    async def _commit(self, table: Table, seat: int | None, change: str) -> None:
        """Commit a checked change to the database, then apply and broadcast it (holding the lock)."""
        state = table.state
        if change == NEXT_ROUND:
            status = "playing"
        else:
            state.apply(Move.parse(change))
            status = table.status
        try:
            await self._write((table.id, len(table.changes), seat, change, table.version + 1, status))
        except BaseException:
            if change != NEXT_ROUND:
                state.undo()
            raise
        if change == NEXT_ROUND:
            state.next_round()
        table.changes.append((seat, change))
        table.version += 1
        self._after_change(table)

    async def _write(self, move: tuple[str, int, int | None, str, int, str]) -> None:
        """Commit one move: moves that arrive while a commit is under way go together in the next
        (group commit), so many tables share the cost of a commit; each waits for its own."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((move, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await loop.run_in_executor(self.db, self.store.add_moves, [m for m, _ in batch])
            except Exception as exc:
                for _m, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for _m, done in batch:
                if not done.done():
                    done.set_result(None)

    # -- undo and hints ---------------------------------------------------------------
    def _against_bots(self, table: Table, seat: int | None) -> bool:
        return seat is not None and all(s.is_bot for s in table.seats if s.seat != seat)

    def _undo_count(self, table: Table, seat: int | None) -> int:
        """How many changes an undo for ``seat`` takes back (0: none possible): back to the
        start of its last turn, never past a draw from the stock or a new deal."""
        if not self._against_bots(table, seat) or table.state.current_player() is None:
            return 0
        probe = table.state.copy()
        stock = len(probe.zones()["stock"])
        count, found = 0, False
        for who, change in reversed(table.changes[len(table.changes) - len(probe.moves):]):
            if change == NEXT_ROUND or (found and who != seat):
                break
            probe.undo()
            if len(probe.zones()["stock"]) != stock:
                break
            count += 1
            found = found or who == seat
        if not found:
            return 0
        while count and table.changes[len(table.changes) - count][0] != seat:
            count -= 1
        return count

    async def _undo(self, table: Table, seat: int, version: int) -> None:
        async with table.lock:
            self._check_version(table, version)
            count = self._undo_count(table, seat)
            if not count:
                raise ProtocolError("not_allowed", "nothing to undo: only your own last turn against bots, "
                                    "and never past a draw from the stock or a new deal")
            first = len(table.changes) - count
            await asyncio.get_running_loop().run_in_executor(
                self.db, self.store.undo_moves, table.id, first, table.version + 1, "playing")
            for _ in range(count):
                table.state.undo()
            del table.changes[first:]
            table.version += 1
            self._after_change(table)

    async def _hint(self, conn: Connection, table: Table, version: int) -> None:
        self._check_version(table, version)
        seat = conn.seat
        if not self._against_bots(table, seat) or table.state.current_player() != seat or seat is None:
            raise ProtocolError("not_allowed", "hints are for your own turn at a table against bots")
        observation = table.state.observation(seat)
        legal = [str(m) for m in table.state.legal_moves()]
        moves = await asyncio.get_running_loop().run_in_executor(
            self.executor, bot_hint, observation, legal, f"hint:{table.seed}:{version}")
        conn.send({"type": "hint", "version": version, "moves": moves})

    # -- bots, timers, broadcasting -------------------------------------------------------
    def _after_change(self, table: Table) -> None:
        """Broadcast the new state, and set going whatever must happen next by itself."""
        if table.task is not None and table.task is not asyncio.current_task():
            table.task.cancel()
        table.task, table.deadline = None, None
        state = table.state
        seat = state.current_player()
        if seat is None:
            if table.status == "round_over":
                if not table.people:
                    table.task = asyncio.create_task(self._later(table, table.version, None, None, self.bot_delay))
                elif table.turn_seconds:
                    table.deadline = time.time() + table.turn_seconds
                    table.task = asyncio.create_task(
                        self._later(table, table.version, None, None, table.turn_seconds))
        elif table.seats[seat].is_bot:
            level = table.seats[seat].level or "medium"
            table.task = asyncio.create_task(self._later(table, table.version, seat, level, self.bot_delay))
        elif table.turn_seconds:
            table.deadline = time.time() + table.turn_seconds
            table.task = asyncio.create_task(
                self._later(table, table.version, seat, TIMER_LEVEL, table.turn_seconds))
        self._broadcast(table)

    async def _later(self, table: Table, version: int, seat: int | None, spec: str | None, delay: float) -> None:
        """After ``delay``: a bot's move for ``seat`` (or the next round), if nothing changed meanwhile."""
        try:
            await asyncio.sleep(delay)
            if seat is None:
                async with table.lock:
                    if table.version == version and table.status == "round_over":
                        await self._commit(table, None, NEXT_ROUND)
                return
            assert spec is not None
            observation = table.state.observation(seat)
            legal = [str(m) for m in table.state.legal_moves()]
            move = await asyncio.get_running_loop().run_in_executor(
                self.executor, bot_move, spec, observation, legal, f"bot:{table.seed}:{seat}:{version}")
            async with table.lock:
                if table.version == version:
                    await self._commit(table, seat, move)
        except asyncio.CancelledError:
            pass

    def message(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator)."""
        state = table.state
        view = state.observation(seat) if seat is not None else views.public_view(state)
        to_move = state.current_player()
        status = table.status
        last = None
        if state.moves:
            who = table.changes[-1][0] if table.changes else None
            last = {"seat": who, "move": str(state.moves[-1])}
        summary = None
        if status != "playing":
            summary = {"rounds": [list(r.scores) for r in state.history] + [list(state.scores)],
                       "totals": state.totals, "winners": state.winners()}
        return {
            "type": "state", "version": table.version, "view": view,
            "legal": [str(m) for m in state.legal_moves()] if seat is not None and seat == to_move else [],
            "seats": [s.public(table.connected(s.seat)) for s in table.seats],
            "status": status, "deadline": table.deadline,
            "can_undo": bool(self._undo_count(table, seat)),
            "can_hint": self._against_bots(table, seat) and to_move == seat,
            "last": last, "log": state.log(), "values": views.display_values(view), "summary": summary,
        }

    def _broadcast(self, table: Table) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(table.connections):
            if conn.seat not in cache:
                cache[conn.seat] = self.message(table, conn.seat)
            conn.send(cache[conn.seat])


def error(code: str, message: str, version: int | None = None) -> dict[str, Any]:
    """A typed ``error`` message."""
    return {"type": "error", "code": code, "message": message, "version": version}


def parse_message(text: str) -> dict[str, Any]:
    """One client message as an object, or :class:`ProtocolError`."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", "a message is a JSON object with a 'type'")
    return data
