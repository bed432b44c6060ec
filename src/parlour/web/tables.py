"""The table manager: the only authority over every game played on the server.

Each table holds its :class:`~parlour.game.State`, a version that goes up
with every change, its seats and its open connections.  A change is checked
by the engine, committed to the database, applied, and only then broadcast;
each connection is sent its own seat's observation (spectators the public
view).  The ``state`` message is built and turned into JSON once per version
and viewer (each seat, and spectators), and that one text goes to every
connection of the viewer: a connection is sent the text kept under its own
seat, never another's.

A seat belongs to a player: the identity in the browser's signed cookie.  An
invitation gives a seat to the first player who accepts it; nobody else ever
gets it.  Bots think in worker processes, so the server never waits for them:
bots of tables with people in them have a pool of their own, and bots-only
tables share one low-priority worker.  Limits (:class:`Limits`) keep one
player from filling the server, and tables nobody uses end as abandoned.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import logging
import math
import multiprocessing
import os
import random
import re
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlour import bots, games, narrate
from parlour import names as naming
from parlour.bots import levels
from parlour.game import Game, IllegalMoveError, Move, MoveSyntaxError, State
from parlour.web import layouts, views
from parlour.web.limits import Gauge, Limits, Strikes, TokenBucket, retry_text
from parlour.web.scheduler import BOT, HINT, FairScheduler
from parlour.web.store import LIVE, NEXT_ROUND, SeatRow, TableRow, TableStore, digest, now

log = logging.getLogger("parlour.web")
PERSON_KINDS = ("me", "friend", "open")
SEAT_KINDS = (*PERSON_KINDS, "bot")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What an invitation or a seat's secret link looks like (``secrets.token_urlsafe``)."""


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
    """The hint bot's three best moves, in a worker process (the server words them for the player)."""
    moves = [Move.parse(text) for text in legal]
    return [
        {"move": str(e.move), "value": round(e.value, 2),
         "margin": None if e.margin == float("inf") else round(e.margin, 2),
         "share": round(e.share, 3)}
        for e in bots.hint(observation, moves, random.Random(seed))
    ]


def _worker_init() -> None:
    from parlour.lab.runner import _die_with_parent

    _die_with_parent()


def _background_worker_init() -> None:
    """A worker for bots-only tables: the lowest CPU priority, so people's bots always come first."""
    _worker_init()
    os.nice(19)


# -- tables ---------------------------------------------------------------------
@dataclass
class Seat:
    """A seat as the server knows it."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_digest: str | None
    """The digest of the seat's invitation (kept after it is accepted, to say so)."""
    owner: str | None = None
    """The player whose seat it is."""
    invite: str | None = None
    """The invitation in clear, until someone accepts it (only the host is shown it)."""

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def taken(self) -> bool:
        """A bot's, a player's, or (a table of the first release) held by a secret link nobody brought yet."""
        return self.is_bot or self.owner is not None or (self.token_digest is not None and self.invite is None)

    def public(self, connected: bool) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "taken": self.taken, "connected": connected}


encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""A message (or any JSON value) as the JSON text sent to the browser: the same text as
``json.dumps(message, separators=(",", ":"))``, made without checking for cycles (a message is a tree)."""


def encode_with(message: dict[str, Any], encoded: dict[str, str]) -> str:
    """``encode(message)``, the values of the keys in ``encoded`` taken as the JSON texts given there
    (the same text, made without encoding those values again)."""
    parts: list[str] = []
    run: dict[str, Any] = {}  # keys in a row to encode together
    for key, value in message.items():
        if key in encoded:
            if run:
                parts.append(encode(run)[1:-1])
                run = {}
            parts.append(f"{encode(key)}:{encoded[key]}")
        else:
            run[key] = value
    if run:
        parts.append(encode(run)[1:-1])
    return "{" + ",".join(parts) + "}"


class Connection:
    """One WebSocket: the player behind it (from the cookie) and its address, its seat (None for a
    spectator), its message and byte budgets, and an outgoing queue of JSON texts, so that a slow reader
    never holds up a table."""

    def __init__(self, player: str | None = None, bucket: TokenBucket | None = None, address: str = "unknown",
                 limits: Limits | None = None) -> None:
        limits = limits or Limits()
        self.player = player
        self.address = address
        self.seat: int | None = None
        self.table: Table | None = None
        self.bucket = bucket or TokenBucket(limits.messages_per_second, limits.message_burst)
        self.bytes = TokenBucket(limits.bytes_per_second, limits.byte_burst)
        """What it may send, in bytes."""
        self.strikes = Strikes()
        """Messages refused by the rate limit, decaying (see :class:`~parlour.web.limits.Strikes`)."""
        self.watching = False
        """Whether it holds one of its address's spectator places."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=256)

    def send(self, message: dict[str, Any]) -> None:
        """Send a message made for this connection alone (an error, a hint, ``welcome``)."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Send a message already in JSON (a ``state`` shared by the viewer's connections)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            # A client that reads nothing for 256 messages gets only the newest state.
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(text)


class Narration:
    """The round's moves in words for one viewer (see :func:`parlour.narrate.move_log`), each
    with its JSON text, made once as the move is said: a round's account grows by one move at a
    time, and is never encoded whole again."""

    def __init__(self, entries: Sequence[dict[str, Any]] = ()) -> None:
        self.entries: list[dict[str, Any]] = []
        self.texts: list[str] = []
        for entry in entries:
            self.append(entry)

    def append(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        self.texts.append(encode(entry))

    def json(self) -> str:
        """``encode(self.entries)``."""
        return "[" + ",".join(self.texts) + "]"


class Shown:
    """The ``state`` message of one version for one viewer (a seat, or None: spectators), and its
    JSON text, made on first use and then sent as it is to every connection of that viewer.
    ``encoded``: values of the message already in JSON (the round's moves in words)."""

    def __init__(self, message: dict[str, Any], encoded: dict[str, str] | None = None) -> None:
        self.message = message
        self.encoded = encoded or {}
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = encode_with(self.message, self.encoded)
        return self._text

    def reseat(self, seats: list[dict[str, Any]]) -> None:
        """Who is connected changed: the message says so (its text is made again when next sent)."""
        self.message["seats"] = seats
        self._text = None


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
    host: str | None = None
    """The player who created the table."""
    active: float = field(default_factory=time.time)
    """When a person last moved or was connected (epoch seconds)."""
    abandoned: bool = False
    messages: dict[int | None, Shown] = field(default_factory=dict)
    """The ``state`` message of the current version for each viewer: a seat, or None (spectators)."""
    narration: dict[int | None, Narration] = field(default_factory=dict)
    """The round's moves in words for each viewer (see :func:`parlour.narrate.move_log`)."""
    played: bool = False
    """Whether a person has moved here: only such tables count against the server's cap."""
    address: str | None = None
    """The digest of the address the table was started from (see :meth:`TableStore.address_digest`)."""
    hints: dict[tuple[int, int], asyncio.Future[list[dict[str, Any]]]] = field(default_factory=dict)
    """The hint for (version, seat), worked out once: asked for or in the making."""
    hint_budgets: dict[int, TokenBucket] = field(default_factory=dict)
    """Each seat's hint budget, shared by all its connections."""

    @property
    def status(self) -> str:
        if self.abandoned:
            return "abandoned"
        if self.state.is_match_over():
            return "finished"
        return "round_over" if self.state.is_round_over() else "playing"

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def people(self) -> list[int]:
        """The seats people hold (an untaken seat is nobody's: a bot never plays for it)."""
        return [s.seat for s in self.seats if not s.is_bot and s.owner is not None]

    @property
    def bots_only(self) -> bool:
        """Made with bots in every seat."""
        return all(s.is_bot for s in self.seats)

    def person_moved(self) -> bool:
        """Whether one of the table's changes is a person's move."""
        return any(seat is not None and not self.seats[seat].is_bot for seat, _change in self.changes)

    def attended(self) -> bool:
        """Whether someone is at the table: a connection sitting at a seat, or the host watching the
        bots of a bots-only table.  Spectators alone do not keep a table alive."""
        return any(c.seat is not None or (self.bots_only and c.player is not None and c.player == self.host)
                   for c in self.connections)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def seat_of(self, player: str | None) -> int | None:
        """The seat ``player`` holds here, if any."""
        if player is None:
            return None
        return next((s.seat for s in self.seats if s.owner == player), None)

    def public_seats(self) -> list[dict[str, Any]]:
        return [s.public(self.connected(s.seat)) for s in self.seats]

    def summary(self, player: str | None = None) -> dict[str, Any]:
        """What anyone may know about the table; ``you`` and (for the host) open invitations for ``player``."""
        host = player is not None and player == self.host
        invites = [{"seat": s.seat, "url": invite_url(self.id, s.invite)} for s in self.seats
                   if host and s.invite and s.owner is None and self.live]
        return {"table_id": self.id, "game": self.game.id, "name": self.game.name, "options": self.options,
                "seats": self.public_seats(), "status": self.status,
                "version": self.version, "turn_seconds": self.turn_seconds, "created": self.created,
                "you": {"seat": self.seat_of(player), "host": host}, "invites": invites}


def invite_url(table_id: str, invite: str) -> str:
    """The link a host sends a friend: the invitation is in the fragment, which browsers never send."""
    return f"/table/{table_id}#invite={invite}"


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
                 executor: Executor | None = None, limits: Limits | None = None,
                 background: Executor | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        spawn = multiprocessing.get_context("spawn")
        self.executor = executor or ProcessPoolExecutor(
            max_workers=bot_workers, mp_context=spawn, initializer=_worker_init)
        """Bots of tables with people in them, timers and hints."""
        self.background = background or ProcessPoolExecutor(
            max_workers=1, mp_context=spawn, initializer=_background_worker_init)
        """Bots of bots-only tables: one worker at the lowest priority."""
        self.people_bots = FairScheduler(self.executor, bot_workers)
        """Fair turns at :attr:`executor`, player by player."""
        self.background_bots = FairScheduler(self.background, 1)
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlour-db")
        """Database writes go one at a time, off the event loop."""
        self._pending: list[tuple[tuple[str, int, int | None, str, int, str, bool], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()
        """Small database writes and hints on their way, which nobody waits for."""
        self.names: dict[str, str | None] = {}
        """Players' chosen names, as far as they have been looked up."""
        self._creating = asyncio.Lock()
        self.sockets = Gauge()
        """Open WebSockets per address."""
        self.spectators = Gauge()
        """Of them, those watching a table, per address."""

    async def _run_db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    # -- life cycle -------------------------------------------------------------
    async def start(self) -> None:
        """Load every live table (ending those idle too long as abandoned) and set its bots and timers going."""
        cutoff = now() - _dt.timedelta(seconds=self.limits.idle_seconds)
        await self._run_db(self.store.address_digest, "")  # its key is read from the database once, now
        for table_row, seat_rows, move_rows in await self._run_db(self.store.live, cutoff):
            table = self._rebuild(table_row, seat_rows, [(m.seat, m.move) for m in move_rows])
            self.tables[table.id] = table
            if table.active <= time.time() - self._idle_limit(table):  # nobody can be at it yet
                await self._abandon(table)
                continue
            self._after_change(table)
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            if table.task is not None:
                table.task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.background.shutdown(wait=False, cancel_futures=True)
        self.db.shutdown(wait=True)
        self.store.close()

    def _rebuild(self, row: TableRow, seat_rows: Sequence[SeatRow], changes: list[tuple[int | None, str]]) -> Table:
        game = games.get(row.game)
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_digest, s.owner, s.invite) for s in seat_rows]
        state = new_state(game, row.options, row.seed, [s.name for s in seats])
        for _seat, change in changes:
            apply_change(state, change)
        active = row.active or row.updated or row.created
        table = Table(row.id, game, row.options, row.seed, row.turn_seconds, seats, state, row.version, changes,
                      created=row.created.isoformat() + "Z", host=row.host, abandoned=row.status == "abandoned",
                      active=active.replace(tzinfo=_dt.UTC).timestamp(), address=row.address)
        table.played = table.person_moved()
        return table

    async def get(self, table_id: str) -> Table:
        """A table by id (finished and abandoned ones are loaded from the database on demand)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not TOKEN.fullmatch(table_id) or len(table_id) > 32:  # no table's id looks otherwise
            raise TableError(f"no table {table_id[:40]!r}: it may have been mistyped", 404)
        loaded = await self._run_db(self.store.load, table_id)
        if loaded is None:
            raise TableError(f"no table {table_id!r}: it may have been mistyped", 404)
        row, seat_rows, move_rows = loaded
        table = self.tables.setdefault(table_id, self._rebuild(row, seat_rows, [(m.seat, m.move) for m in move_rows]))
        return table

    async def _sweep_forever(self) -> None:
        """Now and then: end idle tables as abandoned and unload tables nobody is at."""
        shortest = min(self.limits.idle_seconds, self.limits.first_move_seconds)
        pause = max(0.5, min(60.0, shortest / 4))
        while True:
            await asyncio.sleep(pause)
            try:
                await self.sweep()
            except Exception:  # a database hiccup: try again next time
                log.exception("while ending idle tables")

    def _idle_limit(self, table: Table) -> float:
        """How long ``table`` may stay unattended: a table people play keeps for the idle time, one
        nobody has moved at (bots-only tables too) only for the time to a first move."""
        return self.limits.idle_seconds if table.played else self.limits.first_move_seconds

    async def sweep(self) -> None:
        """End live tables left alone for longer than their limit (:meth:`_idle_limit`; spectators do not
        count) as abandoned; unload ended tables that nobody is looking at."""
        clock = time.time()
        for table in list(self.tables.values()):
            if table.live:
                if table.attended() or table.active > clock - self._idle_limit(table):
                    continue
                await self._abandon(table)
            if not table.connections:
                self.tables.pop(table.id, None)

    async def _abandon(self, table: Table) -> bool:
        """End a live table as abandoned (if it still is live and nobody sits at it)."""
        async with table.lock:
            if table.attended() or not table.live:
                return False
            await self._run_db(self.store.abandon, table.id)
            if table.task is not None:
                table.task.cancel()
            table.abandoned, table.task, table.deadline = True, None, None
            self._changed(table)
        return True

    # -- players ---------------------------------------------------------------------
    async def player_name(self, player: str | None) -> str | None:
        """The name ``player`` chose, if any."""
        if player is None:
            return None
        if player not in self.names:
            self.names[player] = await self._run_db(self.store.player_name, player)
        return self.names[player]

    async def rename(self, player: str, request: Any) -> dict[str, Any]:
        """Set the player's name; their seats at live tables take it too."""
        name = self._name(request.get("name") if isinstance(request, dict) else None)
        if name is None:
            raise TableError("give your name, as {\"name\": \"…\"}")
        renamed = [(t, self._fit(t, seat, name)) for t in self.tables.values()
                   if t.live and (seat := t.seat_of(player)) is not None]
        await self._run_db(self.store.set_player_name, player, name,
                           [(table.id, seat, seat_name) for table, names in renamed
                            for seat, seat_name in names.items()])
        self.names[player] = name
        for table, names in renamed:
            self._rename_seats(table, names)
            self._changed(table)
        return {"name": name}

    @staticmethod
    def _name(value: Any, what: str = "a name") -> str | None:
        """A name as given in a request, checked (:func:`parlour.names.check_name`); None if none was given."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        try:
            return naming.check_name(value, what=what)
        except naming.BadName as exc:
            raise TableError(str(exc)) from None

    @staticmethod
    def _fit(table: Table, seat: int, name: str) -> dict[int, str]:
        """The seats' new names when a person at ``seat`` takes ``name``: no two seats share a name (the
        later person's gets a number), and a bot whose name the person wants gives it up (the bot's gets
        a number), so that a bot never passes for a person."""
        others = [s for s in table.seats if s.seat != seat]
        people = [s.name for s in others if not s.is_bot]
        mine = naming.unique_name(name, people)
        out = {seat: mine}
        taken = [*people, mine]
        for bot in (s for s in others if s.is_bot):
            if naming.name_key(bot.name) in {naming.name_key(t) for t in taken}:
                out[bot.seat] = naming.unique_name(bot.name, [*taken, *(b.name for b in others if b.is_bot)])
            taken.append(out.get(bot.seat, bot.name))
        return out

    @staticmethod
    def _rename_seats(table: Table, names: dict[int, str]) -> None:
        """Give seats new names in memory (stored already); the caller tells the table."""
        for number, seat_name in names.items():
            table.seats[number].name = seat_name
        table.state.names = tuple(s.name for s in table.seats)

    # -- HTTP ---------------------------------------------------------------------
    async def create(self, request: Any, player: str, address: str = "unknown") -> dict[str, Any]:
        """A new table from ``{game, options, seats, turn_seconds}``, hosted by ``player`` at ``address``."""
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
        my_name = await self.player_name(player)
        seats: list[SeatRow] = []
        for number, item in enumerate(seats_in):
            if not isinstance(item, dict) or item.get("kind") not in SEAT_KINDS:
                raise TableError(f"seat {number + 1}: kind must be one of {', '.join(SEAT_KINDS)}")
            kind = item["kind"]
            level = item.get("level")
            if kind == "bot":
                if not isinstance(level, str) or level not in bots.LEVELS:
                    raise TableError(f"seat {number + 1}: level must be one of {', '.join(bots.LEVELS)}")
                name = self._name(item.get("name"), f"seat {number + 1}'s name") or f"{level.capitalize()} bot"
            else:
                level = None
                name = (my_name if kind == "me" else None) or f"Player {number + 1}"
            invite = secrets.token_urlsafe(18) if kind == "friend" else None
            seats.append(SeatRow(table_id=table_id, seat=number, kind=kind, level=level, name=name,
                                 token_digest=digest(invite) if invite else None,
                                 owner=player if kind == "me" else None, invite=invite))
        if sum(s.kind == "me" for s in seats) > 1:
            raise TableError("only one seat can be yours: a friend on this device can take an invitation")
        taken: list[str] = []  # people's seats name themselves first; a bot gives way (it gets a number)
        for seat in sorted(seats, key=lambda s: s.kind == "bot"):
            seat.name = naming.unique_name(seat.name, taken)
            taken.append(seat.name)
        where = self.store.address_digest(address)
        bots_only = all(s.kind == "bot" for s in seats)
        async with self._creating:  # one at a time: the limits are checked against every table made before
            await self._check_limits(player, where, bots_only)
            seed = secrets.randbits(62)
            row = TableRow(id=table_id, game=game.id, options=options, seed=seed, turn_seconds=turn, version=0,
                           status="playing", created=now(), host=player, active=now(), address=where)
            state = new_state(game, options, seed, [s.name for s in seats])
            await self._run_db(self.store.add_table, row, seats)
            table = Table(table_id, game, options, seed, turn,
                          [Seat(s.seat, s.kind, s.level, s.name, s.token_digest, s.owner, s.invite) for s in seats],
                          state, created=row.created.isoformat() + "Z", host=player, address=where)
            self.tables[table_id] = table
        self._after_change(table)
        out = table.summary(player)
        out["url"] = f"/table/{table_id}"
        return out

    async def _check_limits(self, player: str, address: str, bots_only: bool) -> None:
        """Refuse a new table (429) when ``player``, its ``address`` (a digest) or the server has as many as
        it may.  The server's cap counts the tables people play; when the tables nobody has moved at fill
        their own share, the one left alone longest ends to make room."""
        limits = self.limits
        live = [t for t in self.tables.values() if t.live]
        played = sum(t.played for t in live)
        if played >= limits.live_tables:
            raise TableError(f"the server is full ({played} tables are being played): try again later", 429)
        made, made_here = await self._run_db(self.store.created_since, player, now() - _dt.timedelta(hours=1),
                                             address)
        for who, has, holds, most_open, most_bots, started, most_started in (
                ("you", "have", [t for t in live if t.host == player], limits.open_tables, limits.bot_tables,
                 made, limits.tables_per_hour),
                ("your address", "has", [t for t in live if t.address == address], limits.address_open_tables,
                 limits.address_bot_tables, made_here, limits.address_tables_per_hour)):
            if len(holds) >= most_open:
                raise TableError(f"{who} already {has} {len(holds)} tables being played (the limit is "
                                 f"{most_open}): finish one before you start another", 429)
            if bots_only and sum(t.bots_only for t in holds) >= most_bots:
                raise TableError(f"{who} already {has} {most_bots} tables of bots only being played: "
                                 "wait until one is over", 429)
            if started >= most_started:
                raise TableError(f"{who} started {started} tables in the last hour (the limit is "
                                 f"{most_started}): try again later", 429)
        waiting = sorted((t for t in live if not t.played), key=lambda t: t.active)
        if len(waiting) >= limits.waiting_tables:
            for table in waiting:
                if not table.attended() and await self._abandon(table):
                    log.info("table %s ended unplayed to make room for a new one", table.id)
                    return
            raise TableError(f"the server is busy ({len(waiting)} new tables wait for their first move): "
                             "try again in a few minutes", 429)

    def lobby(self, page: int = 1, per_page: int = 20) -> dict[str, Any]:
        """Live tables with a free ``open`` seat, newest first, a page at a time."""
        per_page = max(1, min(50, per_page))
        found = sorted((t for t in self.tables.values() if t.live
                        and any(s.kind == "open" and not s.taken for s in t.seats)),
                       key=lambda t: t.created, reverse=True)
        pages = max(1, math.ceil(len(found) / per_page))
        page = max(1, min(page, pages))
        shown = found[(page - 1) * per_page: page * per_page]
        return {"tables": [t.summary() for t in shown], "page": page, "pages": pages, "total": len(found)}

    def _live(self, table: Table) -> None:
        if table.abandoned:
            raise TableError("this table was abandoned: nobody played at it for a long time", 409)
        if not table.live:
            raise TableError("this match is over", 409)

    async def _claim(self, table: Table, seat: Seat, player: str, name: str | None) -> None:
        """Give ``seat`` to ``player`` for good (holding the table's lock); a ``name`` given becomes
        the player's name too."""
        names = self._fit(table, seat.seat, name or await self.player_name(player) or seat.name)
        ok = await self._run_db(self.store.claim_seat, table.id, seat.seat, player, names[seat.seat],
                                [(table.id, n, seat_name) for n, seat_name in names.items() if n != seat.seat])
        if not ok:
            raise TableError("someone took that seat a moment ago: you can watch the table", 409)
        if name is not None and name != self.names.get(player):
            await self._run_db(self.store.set_player_name, player, name, [])
            self.names[player] = name
        seat.owner, seat.invite = player, None
        table.active = time.time()
        self._rename_seats(table, names)
        if table.live and table.state.current_player() == seat.seat:
            self._after_change(table)  # its turn now has a person behind it: the turn timer starts
        else:
            self._changed(table)

    async def join(self, table_id: str, request: Any, player: str) -> dict[str, Any]:
        """Take a free ``open`` seat."""
        table = await self.get(table_id)
        if not isinstance(request, dict) or not isinstance(request.get("seat"), int) \
                or isinstance(request.get("seat"), bool):
            raise TableError("give the seat to take, as {\"seat\": number}")
        number = request["seat"]
        if not 0 <= number < len(table.seats):
            raise TableError(f"no seat {number} at this table")
        name = self._name(request.get("name"))
        async with table.lock:
            self._live(table)
            seat = table.seats[number]
            mine = table.seat_of(player)
            if mine is not None:
                if mine == number:
                    return {"seat": number}
                raise TableError(f"you already have seat {mine + 1} at this table", 409)
            if seat.kind != "open" or seat.taken:
                raise TableError("that seat is already taken: you can watch the table", 409)
            await self._claim(table, seat, player, name)
        return {"seat": number}

    async def accept(self, table_id: str, request: Any, player: str) -> dict[str, Any]:
        """Accept an invitation: its seat becomes ``player``'s, unless someone accepted it first."""
        table = await self.get(table_id)
        code = request.get("invite") if isinstance(request, dict) else None
        if not isinstance(code, str) or not TOKEN.fullmatch(code):
            raise TableError("give the invitation, as {\"invite\": \"…\", \"name\": \"…\"}")
        name = self._name(request.get("name"))
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
            self._live(table)
            mine = table.seat_of(player)
            if mine is not None:
                raise TableError(f"you already have seat {mine + 1} at this table: the invitation is "
                                 "for someone else", 409)
            await self._claim(table, seat, player, name)
        return {"seat": seat.seat}

    async def reopen(self, table_id: str, number: int, player: str) -> dict[str, Any]:
        """The host takes a seat back from a person who left, with a new invitation for it."""
        table = await self.get(table_id)
        if player != table.host:
            raise TableError("only the table's host can re-open a seat", 403)
        if not 0 <= number < len(table.seats):
            raise TableError(f"no seat {number} at this table", 404)
        async with table.lock:
            self._live(table)
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
            self._changed(table)
        return {"seat": number, "url": invite_url(table.id, invite)}

    async def record(self, table_id: str) -> dict[str, Any]:
        """The match record, once the match is over."""
        from parlour import record

        table = await self.get(table_id)
        if table.status != "finished":
            raise TableError("the record is available once the match is over", 409)
        return record.to_data(table.state, {"server": "parlour serve", "table": table.id})

    # -- WebSocket ------------------------------------------------------------------
    async def hello(self, conn: Connection, table_id: str, message: dict[str, Any]) -> None:
        """The connection's player takes their seat (or watches); ``welcome`` and the state go to it alone."""
        table = await self.get(table_id)
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("malformed", "token must be a string or null")
        seat = table.seat_of(conn.player)
        if seat is None and token:
            seat = await self._legacy_token(table, token, conn.player)
        if seat is None and not conn.watching:
            if not self.spectators.take(conn.address, self.limits.spectators):
                raise ProtocolError("too_many", f"{self.limits.spectators} connections from your address watch "
                                    "tables already: close one to watch another")
            conn.watching = True
        elif seat is not None and conn.watching:
            self.spectators.give_back(conn.address)
            conn.watching = False
        if conn.table is not None and conn.table is not table:
            self.leave(conn)
        was_there = seat is not None and table.connected(seat)
        conn.table, conn.seat = table, seat
        table.connections.add(conn)
        if conn.player is not None and (seat is not None or (table.bots_only and conn.player == table.host)):
            table.active = time.time()
        conn.send({"type": "welcome", "seat": seat, "role": "spectator" if seat is None else "player",
                   "table": table.summary(conn.player)})
        conn.send_text(self.shown(table, seat).text)
        if seat is not None and not was_there:
            self._presence(table, conn)

    async def _legacy_token(self, table: Table, token: str, player: str | None) -> int:
        """A seat's secret link of the first release: it gives the seat to the first player who brings it
        (as an invitation does), so that tables of the first release go on after an upgrade."""
        wanted = digest(token) if TOKEN.fullmatch(token) else ""  # no link looks otherwise
        seat = next((s for s in table.seats if wanted and s.token_digest is not None and s.owner is None
                     and secrets.compare_digest(s.token_digest, wanted)), None)
        if seat is None or player is None:
            raise ProtocolError("unauthorized", "that link holds no free seat at this table")
        async with table.lock:
            try:
                await self._claim(table, seat, player, None)
            except TableError as exc:
                raise ProtocolError("unauthorized", str(exc)) from None
        return seat.seat

    def leave(self, conn: Connection) -> None:
        """The connection has gone (or moves to another table)."""
        table = conn.table
        if table is not None and conn in table.connections:
            table.connections.discard(conn)
            if conn.seat is not None or (table.bots_only and conn.player == table.host):
                table.active = time.time()  # someone was at it until now (a spectator's coming and going is not)
            if conn.seat is not None and not table.connected(conn.seat):
                self._presence(table, None)
                if table.live:
                    task = asyncio.create_task(self._touch(table.id))
                    self._chores.add(task)
                    task.add_done_callback(self._chores.discard)

    async def _touch(self, table_id: str) -> None:
        """Store that a person was at the table just now (for abandoning idle tables after a restart)."""
        try:
            await self._run_db(self.store.touch, table_id)
        except Exception:  # shutting down, or the database is away: the next move stores it anyway
            pass

    def closed(self, conn: Connection) -> None:
        """The connection is closed: it leaves its table and gives back its address's places."""
        self.leave(conn)
        if conn.watching:
            self.spectators.give_back(conn.address)
            conn.watching = False

    def _presence(self, table: Table, skip: Connection | None) -> None:
        """Tell the table who is connected (a small message: the views do not change)."""
        seats = table.public_seats()
        for shown in table.messages.values():
            shown.reseat(seats)
        text = encode({"type": "seats", "seats": seats})
        for conn in list(table.connections):
            if conn is not skip:
                conn.send_text(text)

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
        if kind not in ("move", "next_round", "undo", "hint"):
            raise ProtocolError("malformed", f"unknown message type {kind!r}")
        if table.abandoned:
            raise ProtocolError("not_allowed", "this table was abandoned: nobody played at it for a long time")
        table.active = time.time()
        if kind == "move":
            text = message.get("move")
            if not isinstance(text, str) or len(text) > 60:
                raise ProtocolError("malformed", "move must be a move in notation, like 'play <card>'")
            await self._move(table, conn.seat, text, version)
        elif kind == "next_round":
            await self._next_round(table, conn.seat, version)
        elif kind == "undo":
            await self._undo(table, conn.seat, version)
        else:
            await self._hint(conn, table, version)

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
            said: dict[int | None, dict[str, Any]] = {}
        else:
            move = Move.parse(change)
            said = {viewer: {"seat": seat, "move": change, "text": state.describe_move(move, viewer, made=True)}
                    for viewer in table.narration}
            state.apply(move)
            status = table.status
        try:
            person = seat is not None and not table.seats[seat].is_bot
            await self._write((table.id, len(table.changes), seat, change, table.version + 1, status, person))
        except BaseException:
            if change != NEXT_ROUND:
                state.undo()
            raise
        if change == NEXT_ROUND:
            state.next_round()
            table.narration.clear()
        for viewer, entry in said.items():
            table.narration[viewer].append(entry)
        table.changes.append((seat, change))
        table.played = table.played or (seat is not None and not table.seats[seat].is_bot)
        table.version += 1
        self._after_change(table)

    async def _write(self, move: tuple[str, int, int | None, str, int, str, bool]) -> None:
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
        count, found = 0, False
        for who, change in reversed(table.changes[len(table.changes) - len(probe.moves):]):
            if change == NEXT_ROUND or (found and who != seat):
                break
            move = probe.undo()
            if probe.stock_draws(move)[0]:  # it showed a card of the stock: no going back past it
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
            await self._run_db(self.store.undo_moves, table.id, first, table.version + 1, "playing")
            for _ in range(count):
                table.state.undo()
            table.narration.clear()
            del table.changes[first:]
            table.version += 1
            self._after_change(table)

    async def _hint(self, conn: Connection, table: Table, version: int) -> None:
        """The three best moves for the connection's seat, worked out once per version and seat (every tab
        of the player shares it, and asking again costs nothing), within the seat's hint budget."""
        self._check_version(table, version)
        seat = conn.seat
        if not self._against_bots(table, seat) or table.state.current_player() != seat or seat is None:
            raise ProtocolError("not_allowed", "hints are for your own turn at a table against bots")
        future = table.hints.get((version, seat))
        if future is None:
            budget = table.hint_budgets.setdefault(seat, TokenBucket(self.limits.hints_per_minute / 60,
                                                                     max(1, self.limits.hints_per_minute // 4)))
            if not budget.allow():
                raise ProtocolError("rate_limited", f"too many hints: ask again {retry_text(budget.wait())}")
            future = table.hints[(version, seat)] = asyncio.ensure_future(self._work_out_hint(table, seat, version))
        # The connection goes on reading (a ping, a move) while the hint is worked out.
        task = asyncio.create_task(self._send_hint(conn, table, seat, version, future))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _send_hint(self, conn: Connection, table: Table, seat: int, version: int,
                         future: asyncio.Future[list[dict[str, Any]]]) -> None:
        try:
            moves = await asyncio.shield(future)
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("while working out a hint at table %s", table.id)
            table.hints.pop((version, seat), None)
            conn.send(error("internal", "the hint could not be worked out", version))
            return
        if conn.table is not table or conn.seat != seat or table.version != version:
            return  # the table moved on meanwhile: the hint is about a position that has gone
        conn.send({"type": "hint", "version": version, "moves": moves})

    async def _work_out_hint(self, table: Table, seat: int, version: int) -> list[dict[str, Any]]:
        observation = table.state.observation(seat)
        legal = [str(m) for m in table.state.legal_moves()]
        state = table.state.copy()
        moves: list[dict[str, Any]] = await self.people_bots.run(
            self._lane(table), HINT, bot_hint, observation, legal, f"hint:{table.seed}:{version}")
        for entry in moves:  # in words, for the player who asked: "You play 9♣ on your ♣ meld: +2.7 ± 1.3 …"
            margin = "?" if entry["margin"] is None else f"{entry['margin']:.1f}"
            entry["text"] = (f"{state.describe_move(Move.parse(entry['move']), seat)}: "
                             f"{entry['value']:+.1f} ± {margin} points ({entry['share']:.0%} of the search)")
        return moves

    @staticmethod
    def _lane(table: Table) -> str:
        """Whose turn at the bot workers a table's work waits for: its host's (one player's many tables
        and tabs queue behind each other, not in front of anyone else)."""
        return table.host or table.id

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
        elif table.turn_seconds and table.seats[seat].owner is not None:  # nobody's seat: nobody's timer
            table.deadline = time.time() + table.turn_seconds
            table.task = asyncio.create_task(
                self._later(table, table.version, seat, levels.TIMER_LEVEL, table.turn_seconds))
        table.hints.clear()
        self._changed(table)

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
            pool = self.people_bots if table.people else self.background_bots
            move = await pool.run(self._lane(table), BOT, bot_move, spec, observation, legal,
                                  f"bot:{table.seed}:{seat}:{version}")
            async with table.lock:
                if table.version == version:
                    await self._commit(table, seat, move)
        except asyncio.CancelledError:
            pass

    def message(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator), made once per version."""
        return self.shown(table, seat).message

    def shown(self, table: Table, viewer: int | None) -> Shown:
        """The ``state`` message for ``viewer`` (a seat, or None: spectators) with its JSON text,
        made once per version: it is kept under the viewer, so that each seat's connections get
        that seat's view and spectators the public view."""
        shown = table.messages.get(viewer)
        if shown is None:
            shown = table.messages[viewer] = Shown(self._message(table, viewer),
                                                   {"moves": self._narration(table, viewer).json()})
        return shown

    def _message(self, table: Table, seat: int | None) -> dict[str, Any]:
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
        offered = layouts.offers(state) if seat is not None and seat == to_move else []
        return {
            "type": "state", "version": table.version, "view": view,
            "legal": [o["move"] for o in offered],
            "seats": table.public_seats(),
            "status": status, "deadline": table.deadline,
            "can_undo": bool(self._undo_count(table, seat)),
            "can_hint": self._against_bots(table, seat) and to_move == seat,
            "last": last, "log": narrate.event_log(state, seat), "values": views.display_values(view),
            "summary": summary,
            "moves": list(self._narration(table, seat).entries),
            "layout": layouts.table_layout(view, offered),
        }

    @staticmethod
    def _narration(table: Table, viewer: int | None) -> Narration:
        """The round's moves in words for ``viewer``: worked out once, then kept up to date by each move."""
        said = table.narration.get(viewer)
        if said is None:
            said = table.narration[viewer] = Narration(narrate.move_log(table.state, viewer))
        return said

    def _changed(self, table: Table) -> None:
        """The table changed: send every connection its viewer's new ``state`` (each made once)."""
        table.messages.clear()
        for conn in list(table.connections):
            conn.send_text(self.shown(table, conn.seat).text)



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
    if not valid_unicode(data):
        raise ProtocolError("malformed", "a message holds text that is not valid Unicode (a lone surrogate)")
    return data


def valid_unicode(value: Any) -> bool:
    """Whether every string in a decoded JSON value is valid Unicode (JSON's ``\\ud800`` escapes can
    make lone surrogates, which no database, log or answer can hold)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
