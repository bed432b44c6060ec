"""Several ``parlour serve`` processes, on one machine or several, sharing one PostgreSQL database.

Every process serves every table: a person may be connected to any of them.  The database is the one
authority on a table's changes, and each process keeps a copy in memory of the tables its connections
are at:

- **A change** (a move, a next round, an undo) is stored only if the table is still at the version
  the change was made at (:meth:`~parlour.web.store.TableStore.add_moves`: compare and set, in the
  same transaction as the change).  Two processes never both store a change at one version: the
  later finds the table moved on, takes nothing, and its player is told the table is ``stale``.
- **Fan-out** is PostgreSQL's ``LISTEN``/``NOTIFY`` (through psycopg): the transaction that stores
  a change notifies the channel :data:`~parlour.web.store.CHANNEL` (``m:TABLE:VERSION:NODE``); every
  other process that holds the table reads what is new from the database and sends each of its
  connections its own viewer's state.  The notification says only *which* table changed: the
  views, hidden cards included, never leave the database but through each process's per-seat view.
  A process whose listening connection broke reads all its tables again once it is back.
- **A lease**: what happens at a table by itself (bots, turn timers, the next round of a table of
  bots, ending it when it is left alone) is done by one process, the table's owner
  (:attr:`~parlour.web.store.TableRow.owner`), while it beats (:data:`BEAT_SECONDS`).  A process
  that has not beaten for :data:`LEASE_SECONDS` (killed, or cut off) is given up: the others take
  its tables over (:meth:`~parlour.web.store.TableStore.claim_tables`, shared out between them),
  rebuild them from the database and set their bots and timers going; its connections' pages
  reconnect by themselves, to any process.  An owner that finds it was given up drops its tables.

With SQLite (the embedded default) there is one process: :func:`lock_sqlite` refuses a second
``parlour serve`` on the same file.  Everything here is then idle: the one process owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import make_url

from parlour.store import database_url
from parlour.web.store import CHANNEL, TableStore

log = logging.getLogger("parlour.web")

BEAT_SECONDS = 1.0
"""How often a process says it is alive (and looks for tables nobody alive owns)."""
LEASE_SECONDS = 4.0
"""A process silent this long is given up, and its tables taken over by the others."""
CHECK_OWNED_BEATS = 5
"""Every this many beats, a process checks that it still owns the tables it thinks it owns."""
FORGET_BEATS = 600
"""Every this many beats, a process drops the budgets untouched for a day."""

Changed = Callable[[str, str, int, str], Awaitable[None]]
"""``(kind, table_id, version, more)``: another process changed a table (see :func:`parse`)."""
Claimed = Callable[[list[str]], Awaitable[None]]
"""The tables this process has just taken over."""
Owns = Callable[[set[str], float], Awaitable[None]]
"""``(tables, since)``: this process owns these tables, of those it owned before ``since`` (a
:func:`time.monotonic` time): it lets go of any other."""


class SqliteInUse(RuntimeError):
    """Another ``parlour serve`` has this SQLite database."""


_HELD: dict[str, IO[str]] = {}
"""The SQLite databases whose lock this process holds, by file."""


def lock_sqlite(url: str) -> None:
    """For a SQLite database, hold an exclusive lock beside its file (``FILE.serve-lock``) as long as this
    process lives (the system lets go of it when the process ends, however it ends), or until
    :func:`release_sqlite`; raise :class:`SqliteInUse` with one clear line if another process holds it.
    Nothing for PostgreSQL (or a database in memory)."""
    parsed = make_url(database_url(url))
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
        return
    path = str(Path(path).resolve())
    if path in _HELD:
        return
    lock_path = Path(path + ".serve-lock")
    handle = open(lock_path, "a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise SqliteInUse(f"{path} is in use by another parlour serve ({holder}): a SQLite database serves "
                          "one process; for several, use PostgreSQL (see docs/deploy.md)") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()} on {socket.gethostname()}\n")
    handle.flush()
    _HELD[path] = handle


def release_sqlite(url: str) -> None:
    """Let go of the lock :func:`lock_sqlite` took for ``url``'s database, if this process holds it."""
    path = make_url(database_url(url)).database
    handle = _HELD.pop(str(Path(path).resolve()), None) if path else None
    if handle is not None:
        handle.close()


def parse(payload: str) -> list[tuple[str, str, int, str, str]]:
    """The changes a notification tells of: (kind, table, version, node that made them, what more it says:
    a move's :func:`parlour.web.store.told_move`, or "")."""
    found = []
    for word in payload.split():
        parts = word.split(":", 4)
        if len(parts) >= 4 and parts[2].lstrip("-").isdigit():
            found.append((parts[0], parts[1], int(parts[2]), parts[3], parts[4] if len(parts) == 5 else ""))
    return found


class Cluster:
    """This server process among those sharing the database ``store``.

    ``run_db`` runs a store call off the event loop; ``changed`` is called for every change another
    process made, ``claimed`` with the tables this process takes over, ``owns`` with the tables it
    still owns (it lets go of the others), ``resync`` when notifications may have been missed (every
    table held should be read again)."""

    def __init__(self, store: TableStore, run_db: Callable[..., Awaitable[Any]], *, changed: Changed,
                 claimed: Claimed, owns: Owns, resync: Callable[[], Awaitable[None]], name: str = "") -> None:
        self.reviews: Callable[[list[tuple[str, int, str]]], Awaitable[None]] | None = None
        """Takes over the reviews a process given up was working out (set by the app)."""
        self.store = store
        self.run_db = run_db
        self.changed = changed
        self.claimed = claimed
        self.owns = owns
        self.resync = resync
        self.node = secrets.token_hex(8)
        """This process's id in the database (a new one at every start)."""
        self.name = name or f"{socket.gethostname()} pid {os.getpid()}"
        self.shared = store.shared
        self.listening = False
        """Whether notifications reach this process now."""
        self.alive = True
        """Whether this process's last beat was taken (it is not given up)."""
        self._tasks: list[asyncio.Task[None]] = []
        self.alive_nodes: list[str] = [self.node]
        """The processes alive at the last beat (this one among them)."""

    async def start(self) -> None:
        """Refuse a second process on a SQLite file; register, and (on PostgreSQL) start beating and listening."""
        lock_sqlite(self.store.url)
        self.store.node = self.node
        await self.run_db(self.store.add_node, self.node, self.name)
        if self.shared:
            self.alive_nodes = sorted({node for node, _name, alive in await self.run_db(self.store.nodes, LEASE_SECONDS)
                                       if alive} | {self.node})
            ready = asyncio.get_running_loop().create_future()
            self._tasks.append(asyncio.create_task(self._listen(ready)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(ready), 10)
            self._tasks.append(asyncio.create_task(self._beat_forever()))

    async def stop(self) -> None:
        """Stop beating and listening; give the tables back at once (the others take them over)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.run_db(self.store.remove_node, self.node)
        release_sqlite(self.store.url)

    # -- liveness and leases -------------------------------------------------------------------------
    async def _beat_forever(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            beats += 1
            try:
                await self.beat(check=beats % CHECK_OWNED_BEATS == 0)
                if beats % FORGET_BEATS == 0:
                    await self.run_db(self.store.forget_budgets)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away for a moment: the next beat tries again
                log.exception("while beating")

    async def beat(self, check: bool = False) -> None:
        """Say this process is alive; take over the tables nobody alive owns; with ``check``, let go of
        tables another process has taken meanwhile."""
        since = time.monotonic()
        if not await self.run_db(self.store.beat, self.node):
            log.warning("this server process was given up for dead: its tables go to the others")
            self.alive = False
            await self.owns(set(), since)
            await self.run_db(self.store.add_node, self.node, self.name)
            self.alive = True
        self.alive_nodes = sorted({node for node, _name, alive in await self.run_db(self.store.nodes, LEASE_SECONDS)
                                   if alive} | {self.node})
        claimed = await self.run_db(self.store.claim_tables, self.node, LEASE_SECONDS)
        if claimed:
            log.info("took over %d tables", len(claimed))
            await self.claimed(claimed)
        if check:
            await self.owns(await self.run_db(self.store.owned_by, self.node), since)
        if self.reviews is not None:
            orphans = await self.run_db(self.store.orphan_reviews, self.node, LEASE_SECONDS)
            if orphans:
                await self.reviews(orphans)

    def home(self, player: str) -> str:
        """The process whose bots a player's new tables have (rendezvous hashing over the processes alive):
        one process's fair turns then hold all of a player's bots, wherever the player is connected, and
        a process's going or coming moves few players."""
        if not self.shared:
            return self.node
        return max(self.alive_nodes, key=lambda node: hashlib.sha256(f"{node} {player}".encode()).digest())

    # -- notifications -------------------------------------------------------------------------------
    def _conninfo(self) -> str:
        url = self.store.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Listen on :data:`CHANNEL` for as long as the process lives, connecting again when the
        connection breaks (and then reading every table again: notifications may have gone by)."""
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._conninfo(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    if not ready.done():
                        ready.set_result(None)
                    if not first:
                        await self.resync()
                    first = False
                    async for note in conn.notifies():
                        for kind, table_id, version, node, more in parse(note.payload):
                            if node != self.node:
                                await self.changed(kind, table_id, version, more)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection broke: listen again shortly
                log.warning("lost the database's notifications; listening again", exc_info=True)
            self.listening = False
            await asyncio.sleep(BEAT_SECONDS)


class SharedLimits:
    """The clients' budgets and holdings kept in the database, for every server process together
    (:class:`parlour.web.limits.Shared`); asked off the event loop, beside the writes of moves."""

    def __init__(self, store: TableStore, node: str) -> None:
        self.store = store
        self.node = node

    async def spend(self, name: str, key: str, rate: float, burst: float, cost: float, take: bool) -> float:
        wait: float = await asyncio.to_thread(self.store.spend, f"{name} {key}", rate, burst, cost, take)
        return wait

    async def hold(self, name: str, key: str, limit: int) -> bool:
        held: bool = await asyncio.to_thread(self.store.hold, self.node, f"{name} {key}", limit, LEASE_SECONDS)
        return held

    async def release(self, name: str, key: str) -> None:
        await asyncio.to_thread(self.store.release, self.node, f"{name} {key}")
