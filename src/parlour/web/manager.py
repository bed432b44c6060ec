"""The table manager: the coordinator of every table on the server.

It keeps the tables in memory (loading them from the database, ending idle ones as abandoned),
answers the HTTP API about them (creating, joining, accepting an invitation, re-opening a seat)
and the WebSocket messages of their connections, and commits each change: checked by the table
(:mod:`parlour.web.tables`, the authority), committed to the database (:mod:`parlour.web.store`),
made, and only then broadcast (:mod:`parlour.web.broadcast`).  What happens at a table by itself
(bots, turn timers, hints) is :class:`~parlour.web.scheduler.Autoplay`'s.  Limits
(:class:`~parlour.web.limits.Limits`) keep one player from filling the server.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import logging
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from parlour import bots, games, record
from parlour import names as naming
from parlour.game import Game
from parlour.match import discard_question, face_card_thrown_away
from parlour.web import broadcast, ratings
from parlour.web.again import rotated_seats
from parlour.web.chat import TableChat, line_of
from parlour.web.cluster import LEASE_SECONDS, Cluster, SharedLimits
from parlour.web.limits import Gauge, Limits
from parlour.web.metrics import Metrics
from parlour.web.protocol import (
    Acting,
    AskHint,
    Chat,
    Hello,
    MakeMove,
    NewTable,
    NextRound,
    Ping,
    PlayAgain,
    Pong,
    ProtocolError,
    Resolve,
    Resolved,
    Say,
    Undo,
    Welcome,
    as_object,
    encode,
    parse,
)
from parlour.web.scheduler import Autoplay
from parlour.web.seating import Seating
from parlour.web.store import (
    NEXT_ROUND,
    Conflict,
    MoveWrite,
    MoveWriter,
    RatingWrite,
    SeatRow,
    TableCounts,
    TableRow,
    TableStore,
    digest,
    now,
    read_told_move,
)
from parlour.web.tables import (
    SEAT_KINDS,
    TOKEN,
    Connection,
    Elsewhere,
    Seat,
    Table,
    TableError,
    apply_change,
    check_name,
    new_state,
)

MOVED_ON = "the table moved on meanwhile: here it is as it is now"
"""Why a move or an undo another process got in first to is refused (the table is sent as it is now)."""

log = logging.getLogger("parlour.web")


def judge_limits(limits: Limits, counts: TableCounts, bots_only: bool) -> bool:
    """Refuse a new table (:class:`TableError`, 429) if the server, its host or its address holds as many as
    it may; True if it may be made once a table nobody has moved at ends to make room (those fill their
    own share of the server), False if it may be made as it is."""
    if counts.played >= limits.live_tables:
        raise TableError(f"the server is full ({counts.played} tables are being played): try again later", 429)
    for who, has, holds, of_bots, most_open, most_bots, started, most_started in (
            ("you", "have", counts.host_open, counts.host_bots, limits.open_tables, limits.bot_tables,
             counts.host_started, limits.tables_per_hour),
            ("your address", "has", counts.address_open, counts.address_bots, limits.address_open_tables,
             limits.address_bot_tables, counts.address_started, limits.address_tables_per_hour)):
        if holds >= most_open:
            raise TableError(f"{who} already {has} {holds} tables being played (the limit is "
                             f"{most_open}): finish one before you start another", 429)
        if bots_only and of_bots >= most_bots:
            raise TableError(f"{who} already {has} {most_bots} tables of bots only being played: "
                             "wait until one is over", 429)
        if started >= most_started:
            raise TableError(f"{who} started {started} tables in the last hour (the limit is "
                             f"{most_started}): try again later", 429)
    return counts.waiting >= limits.waiting_tables


def server_busy(counts: TableCounts) -> TableError:
    """The refusal when the tables nobody has moved at fill their share and none can end to make room."""
    return TableError(f"the server is busy ({counts.waiting} new tables wait for their first move): "
                      "try again in a few minutes", 429)


class TableManager:
    """Every table of the server: the coordinator of the tables' authority, their store, their
    connections and their bots.  ``executor`` and ``background``: the bots' workers (see
    :class:`~parlour.web.scheduler.Autoplay`)."""

    def __init__(self, store: TableStore, bot_delay: float = 0.6, bot_workers: int = 2,
                 executor: Executor | None = None, limits: Limits | None = None,
                 background: Executor | None = None, metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        """What ``GET /metrics`` tells (:mod:`parlour.web.metrics`)."""
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.autoplay = Autoplay(self._commit, bot_delay, bot_workers, executor, background, self.limits)
        """Bots, turn timers and hints."""
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="parlour-db")
        """Database writes go one at a time, off the event loop."""
        self.writer = MoveWriter(store, self.db)
        self._sweeper: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()
        """Small database writes on their way, which nobody waits for."""
        self.seating = Seating(store, self.tables, self.get, self._run_db, self._after_change)
        """Players' names and seats."""
        self.chat = TableChat(store, self._run_db, self.seating.player_name, self.limits)
        """What is said at the tables."""
        self._creating = asyncio.Lock()
        self.sockets = Gauge()
        """Open WebSockets per address."""
        self.spectators = Gauge()
        """Of them, those watching a table, per address."""
        self.book = ratings.RatingBook()
        """The people's ratings (loaded by :meth:`start`)."""
        self.cluster = Cluster(store, self._run_db, changed=self._changed_elsewhere, claimed=self._take_over,
                               owns=self._owns, resync=self._resync)
        """This process among the server processes sharing the database (:mod:`parlour.web.cluster`)."""
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        """Tables being read again after another process changed them."""
        self._stale: set[str] = set()
        """Of them, those changed again meanwhile (read once more when the reading ends)."""
        self._whole: set[str] = set()
        """Tables to read whole (not only their new moves) at their next reading."""
        self._pinged: tuple[float, bool] = (-1e9, False)
        """When the database was last asked (:func:`time.monotonic`), and whether it answered."""
        self._ping: asyncio.Task[bool] | None = None
        self.shared_limits: SharedLimits | None = None
        """With several processes: the clients' budgets and holdings, counted in the database."""
        self._presence: dict[str, asyncio.Task[None]] = {}
        """Tables whose presence here is being written for the other processes."""
        self._presence_changed: set[str] = set()
        """Of them, those whose presence changed again meanwhile."""

    async def _run_db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    # -- life cycle -------------------------------------------------------------
    async def start(self) -> None:
        """Load every live table (ending those idle too long as abandoned) and set its bots and timers going."""
        cutoff = now() - _dt.timedelta(seconds=self.limits.idle_seconds)
        await self.cluster.start()
        if self.cluster.shared:
            self.shared_limits = SharedLimits(self.store, self.cluster.node)
            for name, budget in (("chat", self.chat.identities), ("address_chat", self.chat.addresses),
                                 ("hints", self.autoplay.hints)):
                budget.share(self.shared_limits, name)
            self.sockets.share(self.shared_limits, "sockets")
            self.spectators.share(self.shared_limits, "spectators")
        await self._run_db(self.store.address_digest, "")  # its key is read from the database once, now
        self.book = ratings.RatingBook(await self._run_db(self.store.standings),
                                       await self._run_db(self.store.handles))
        for table_id in await self._run_db(self.store.unrated_matches):  # the server stopped before rating them
            try:
                await self._rate(await self.get(table_id))
            except Exception:  # a table that no longer loads (its game is gone) must not stop the server
                log.exception("while rating table %s", table_id)
        if self.cluster.shared:  # the live tables no process alive owns (all of them, at a first start)
            await self._take_over(await self._run_db(self.store.claim_tables, self.cluster.node, LEASE_SECONDS,
                                                     10**9))
        else:
            for table_row, seat_rows, move_rows in await self._run_db(self.store.live, cutoff):
                table = self._rebuild(table_row, seat_rows, [(m.seat, m.move) for m in move_rows])
                self.tables[table.id] = table
                if table.active <= time.time() - self._idle_limit(table):  # nobody can be at it yet
                    await self._abandon(table)
                    continue
                self._after_change(table)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        bots_waiting = (self.autoplay.people_bots, self.autoplay.background_bots)
        self.metrics.watch(self.cluster.node, "several" if self.cluster.shared else "one",
                           lambda: (len(self.tables), sum(t.owned and t.live for t in self.tables.values())),
                           self.sockets.total, lambda: sum(pool.queued() for pool in bots_waiting))

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            if table.task is not None:
                table.task.cancel()
        self.autoplay.stop()
        await self.cluster.stop()
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
                      active=active.replace(tzinfo=_dt.UTC).timestamp(), address=row.address,
                      rated=bool(row.rated), book=self.book,
                      owned=not self.cluster.shared or row.owner == self.cluster.node)
        table.played = table.person_moved()
        table.changed_at = (row.updated or row.created).replace(tzinfo=_dt.UTC).timestamp()
        if not table.owned and table.live:
            self.autoplay.set_going(table)  # another process's: nothing set going here, the deadline shown
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
        table = self._rebuild(row, seat_rows, [(m.seat, m.move) for m in move_rows])
        if table.status == "finished":
            table.again.next_table = await self._run_db(self.store.next_table, table_id)
        table = self.tables.setdefault(table_id, table)
        if self.cluster.shared:
            # A change another process made while the table was being read was told before it was held here:
            # read what is new once more now (anything later is told to it).
            self._refresh_soon(table_id, whole=False)
            await self._presence_elsewhere(table)
            await self._votes_elsewhere(table)
        return table

    # -- several server processes (parlour.web.cluster) -----------------------------------------------
    async def _changed_elsewhere(self, kind: str, table_id: str, version: int, more: str = "") -> None:
        """Another server process changed ``table_id``: a table held here takes the move told (``more``),
        or is read again (a chat line is read alone and told)."""
        if kind == "c":
            await self._chat_elsewhere(table_id, version)
            return
        if kind == "r":
            await self._rated_elsewhere(table_id)
            return
        table = self.tables.get(table_id)
        if kind == "n":  # a new table, made at another process: this one's if it is its owner
            if table is None and await self._run_db(self.store.owner_of, table_id) == self.cluster.node:
                await self._take_over([table_id])
            return
        if kind in ("p", "a"):
            if table is not None:
                await (self._presence_elsewhere(table) if kind == "p" else self._votes_elsewhere(table))
            return
        if table is None or (kind == "m" and table.version >= version):
            return  # nobody here looks at it, or this process has that version already
        if kind == "m" and more and self._take_told_move(table, version, more):
            return
        self._refresh_soon(table_id, whole=kind != "m")

    def _take_told_move(self, table: Table, version: int, told: str) -> bool:
        """Take the move another process told of with its notification, without reading the database: only
        the next one, at a table nothing else is changing or reading now (else False: it is read)."""
        if table.lock.locked() or table.id in self._refreshing or table.version != version - 1:
            return False
        try:
            seq, seat, move = read_told_move(told)
            if seq != len(table.changes) or (seat is not None and not 0 <= seat < len(table.seats)):
                return False
            table.finish_change(table.begin_change(seat, move))
        except ValueError:  # not a move of this copy's position: read from the database
            log.warning("table %s: a move told by another process does not follow here", table.id)
            return False
        self.metrics.followed.labels(how="told").inc()
        now_ = time.time()
        if table.by_person(seat):
            table.active = max(table.active, now_)
        table.changed_at = now_
        table.messages.clear()
        self._after_change(table)
        return True

    def _refresh_soon(self, table_id: str, whole: bool = True) -> None:
        """Read the table again, once at a time (changes that come meanwhile are read after); new moves
        alone unless ``whole`` (seats, an undo: everything)."""
        if whole:
            self._whole.add(table_id)
        if table_id in self._refreshing:
            self._stale.add(table_id)
            return
        self._refreshing[table_id] = asyncio.create_task(self._refresh(table_id))

    async def _refresh(self, table_id: str) -> None:
        try:
            while True:
                self._stale.discard(table_id)
                whole = table_id in self._whole
                self._whole.discard(table_id)
                table = self.tables.get(table_id)
                if table is None:
                    return
                async with table.lock:
                    if whole or not await self._follow(table):
                        await self._catch_up(table)
                if table_id not in self._stale:
                    return
        except Exception:  # a database hiccup: the next change reads it again
            log.exception("while reading table %s again", table_id)
        finally:
            self._refreshing.pop(table_id, None)

    async def _follow(self, table: Table) -> bool:
        """Take the moves another process added to ``table`` (holding its lock), reading only those:
        False when that is not enough (an undo, a version that does not add up) and the table must be
        read whole (:meth:`_catch_up`)."""
        found = await self._run_db(self.store.moves_since, table.id, len(table.changes))
        if found is None:
            return True
        row, new = found
        if row.version != table.version + len(new) or any(seq != len(table.changes) + k
                                                           for k, (seq, _, _) in enumerate(new)):
            return False
        try:
            for _seq, seat, move in new:
                table.finish_change(table.begin_change(seat, move))
        except ValueError:  # not a move of this copy's position: it is read whole and rebuilt
            log.exception("table %s: a new move does not follow here", table.id)
            return False
        self.metrics.followed.labels(how="read").inc(len(new))
        table.played = table.played or any(table.by_person(seat) for _, seat, _ in new)
        abandoned = row.status == "abandoned"
        owned = row.owner == self.cluster.node
        if not new and abandoned == table.abandoned and owned == table.owned:
            return True
        table.abandoned = abandoned
        if owned != table.owned:
            table.owned, table.owned_since = owned, time.monotonic()
        table.active = max(table.active, row.active.replace(tzinfo=_dt.UTC).timestamp())
        table.changed_at = row.updated.replace(tzinfo=_dt.UTC).timestamp()
        table.messages.clear()
        self._after_change(table)
        return True

    async def _catch_up(self, table: Table) -> bool:
        """Read ``table`` from the database (holding its lock) and take what other server processes
        changed: its moves (or an undo), seats, status and owner; every connection is then sent its
        viewer's state.  Whether anything changed."""
        loaded = await self._run_db(self.store.load, table.id)
        if loaded is None:
            return False
        row, seat_rows, move_rows = loaded
        changed = False
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_digest, s.owner, s.invite) for s in seat_rows]
        if seats != table.seats:
            table.seats[:] = seats
            table.state.names = tuple(s.name for s in seats)
            changed = True
        changes = [(m.seat, m.move) for m in move_rows]
        if changes != table.changes or row.version != table.version:
            self._take_changes(table, changes)
            table.version = row.version
            changed = True
        if (row.status == "abandoned") != table.abandoned:
            table.abandoned = row.status == "abandoned"
            changed = True
        active = row.active or row.updated or row.created
        table.active = max(table.active, active.replace(tzinfo=_dt.UTC).timestamp())
        table.changed_at = (row.updated or row.created).replace(tzinfo=_dt.UTC).timestamp()
        owned = row.owner == self.cluster.node
        if owned != table.owned:
            table.owned, table.owned_since = owned, time.monotonic()
            changed = True
        if table.status == "finished" and table.again.next_table is None:
            went_on = await self._run_db(self.store.next_table, table.id)
            if went_on is not None:
                self._went_on(table, went_on)
                self._tell_again(table)
        if changed:
            table.messages.clear()
            self._after_change(table)
        return changed

    @staticmethod
    def _take_changes(table: Table, changes: list[tuple[int | None, str]]) -> None:
        """Bring the table's changes to ``changes``: what it has beyond their common start taken back (an
        undo made elsewhere), then the new ones made; rebuilt from the start where taking back cannot
        reach (past a new round)."""
        common = 0
        for mine, theirs in zip(table.changes, changes):
            if mine != theirs:
                break
            common += 1
        back = len(table.changes) - common
        if back > len(table.state.moves) or any(c == NEXT_ROUND for _, c in table.changes[common:]):
            table.state = new_state(table.game, table.options, table.seed, [s.name for s in table.seats])
            table.changes, table.narration = [], {}
            common = 0
        elif back:
            table.take_back(back)
        for seat, change in changes[common:]:
            table.finish_change(table.begin_change(seat, change))
        table.played = table.person_moved()

    async def _chat_elsewhere(self, table_id: str, line: int) -> None:
        """A chat line said at another server process: kept and told here too."""
        table = self.tables.get(table_id)
        if table is None or (table.chat is None and not table.connections):
            return
        row = await self._run_db(self.store.chat_line, line)
        if row is None or row.table_id != table_id:
            return
        said = line_of(row)
        if table.chat is not None:
            table.chat.append(said)
        text = encode(Chat(**said))
        for conn in list(table.connections):
            conn.send_text(text)

    def _tell_presence(self, table: Table) -> None:
        """Tell the other processes who is connected to ``table`` here (one write at a time a table; the
        newest is written last)."""
        if not self.cluster.shared:
            return
        self._presence_changed.add(table.id)
        if table.id not in self._presence:
            self._presence[table.id] = asyncio.create_task(self._write_presence(table.id))

    async def _write_presence(self, table_id: str) -> None:
        try:
            while table_id in self._presence_changed:
                self._presence_changed.discard(table_id)
                table = self.tables.get(table_id)
                seats, watchers, host = table.here() if table is not None else ([], [], False)
                await self._run_db(self.store.set_presence, self.cluster.node, table_id, seats, watchers, host)
        except Exception:  # the database is away: the next change of presence writes it
            log.exception("while telling who is at table %s", table_id)
        finally:
            self._presence.pop(table_id, None)

    async def _presence_elsewhere(self, table: Table) -> None:
        """Read who is connected to ``table`` at the other processes; tell the connections here who came
        or went (as for connections here) and how many watch."""
        seats, watchers, host = await self._run_db(self.store.presence, table.id, self.cluster.node,
                                                   LEASE_SECONDS)
        found = Elsewhere(frozenset(seats), frozenset(watchers), host)
        if found == table.elsewhere:
            return
        before = {seat.seat for seat in table.seats if table.connected(seat.seat)}
        watching = broadcast.spectators(table)
        table.elsewhere = found
        after = {seat.seat for seat in table.seats if table.connected(seat.seat)}
        if before != after:
            broadcast.presence(table, None)
            for seat in sorted(before - after):
                self._gone_from_again(table, seat)
            vote = table.again
            if vote.left & after and vote.next_table is None:
                vote.left -= after  # back (at another process)
                self._tell_again(table)
        for seat in sorted(after - before):
            broadcast.arrival(table, None, seat, True, watching)
            watching = broadcast.spectators(table)
        for seat in sorted(before - after):
            broadcast.arrival(table, None, seat, False, watching)
            watching = broadcast.spectators(table)
        broadcast.arrival(table, None, None, True, watching)  # how many watch, if that changed

    async def _take_over(self, table_ids: list[str]) -> None:
        """This process now owns these tables (their owner was given up, or never was): each is read from
        the database and its bots and timers set going here (a table left alone too long ends)."""
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is None:
                loaded = await self._run_db(self.store.load, table_id)
                if loaded is None:
                    continue
                row, seat_rows, move_rows = loaded
                table = self.tables.setdefault(table_id, self._rebuild(row, seat_rows,
                                                                       [(m.seat, m.move) for m in move_rows]))
            async with table.lock:
                await self._catch_up(table)
                if not table.owned:  # taken by another process meanwhile
                    continue
                table.owned_since = time.monotonic()
                abandon = table.live and not table.attended() and table.active <= time.time() - self._idle_limit(table)
            if abandon:
                await self._abandon(table)
            else:
                self._after_change(table)
            await self._run_db(self.store.notify, "p", table_id, 0)  # the dead process's connections are gone

    async def _owns(self, table_ids: set[str], since: float) -> None:
        """This process owns only ``table_ids`` of the live tables it owned before ``since``: it lets go of
        the others (another process took them over while this one was thought dead)."""
        for table in list(self.tables.values()):
            if table.owned and table.live and table.id not in table_ids and table.owned_since < since:
                table.owned = False
                if table.task is not None:
                    table.task.cancel()
                    table.task = None
                log.warning("table %s is another process's now", table.id)
        missing = [t for t in table_ids if t not in self.tables or not self.tables[t].owned]
        if missing:  # made at another process for this one (a notification missed): taken up now
            await self._take_over(missing)

    async def _resync(self) -> None:
        """Notifications may have been missed: every table held here is read again."""
        for table_id in list(self.tables):
            self._refresh_soon(table_id)

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
            if table.live and not table.owned:  # another process's: kept while someone here looks at it
                if not table.connections:
                    self.tables.pop(table.id, None)
                continue
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
            broadcast.changed(table)
        return True

    async def _database_answers(self) -> bool:
        """Whether the database answered within 3 s, asked at most once a second whoever asks
        (``/healthz`` from many places costs the database one question a second)."""
        asked_at, answered = self._pinged
        if time.monotonic() - asked_at < 1.0:
            return answered
        if self._ping is None or self._ping.done():
            self._ping = asyncio.create_task(self._ask_database())
        return await asyncio.shield(self._ping)

    async def _ask_database(self) -> bool:
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.ping), 3)
            answered = True
        except Exception:  # away, or too slow to answer
            answered = False
        self._pinged = (time.monotonic(), answered)
        return answered

    async def health(self) -> dict[str, Any]:
        """How this process is (``GET /healthz``): whether it reaches the database (and, with several
        processes, hears the others and is not given up for dead), its tables and connections."""
        database = await self._database_answers()
        ok = database and (not self.cluster.shared or (self.cluster.listening and self.cluster.alive))
        return {"status": "ok" if ok else "failing", "database": database,
                "processes": "several" if self.cluster.shared else "one", "node": self.cluster.node,
                "alive": len(self.cluster.alive_nodes),
                "notifications": self.cluster.listening if self.cluster.shared else None,
                "tables": {"held": len(self.tables), "owned": sum(t.owned and t.live for t in self.tables.values())},
                "connections": self.sockets.total()}

    # -- HTTP ---------------------------------------------------------------------
    async def create(self, request: Any, player: str, address: str = "unknown") -> dict[str, Any]:
        """A new table from ``{game, options, seats, turn_seconds, rated}``, hosted by ``player`` at ``address``."""
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
        rated = request.get("rated", False)
        if not isinstance(rated, bool):
            raise TableError("rated must be true or false")
        table_id = secrets.token_urlsafe(9)  # the seats' rows name it
        my_name = await self.seating.player_name(player)
        seats: list[SeatRow] = []
        for number, item in enumerate(seats_in):
            if not isinstance(item, dict) or item.get("kind") not in SEAT_KINDS:
                raise TableError(f"seat {number + 1}: kind must be one of {', '.join(SEAT_KINDS)}")
            kind = item["kind"]
            level = item.get("level")
            if kind == "bot":
                if not isinstance(level, str) or level not in bots.LEVELS:
                    raise TableError(f"seat {number + 1}: level must be one of {', '.join(bots.LEVELS)}")
                name = check_name(item.get("name"), f"seat {number + 1}'s name") or f"{level.capitalize()} bot"
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
        if rated and all(s.kind == "bot" for s in seats):
            raise TableError("a rated match needs a person: bots' ratings are fixed")
        unmeasured = sorted({s.level for s in seats if s.level and not ratings.anchors().measured(game.id, s.level)})
        if rated and unmeasured:
            raise TableError(f"{game.name} has no measured rating for the {' or '.join(unmeasured)} bot yet: "
                             "choose another level for a rated match, or play it unrated")
        table = await self._open(game, options, turn, seats, player, self.store.address_digest(address), rated)
        out = table.summary(player)
        out["url"] = f"/table/{table.id}"
        return out

    async def _open(self, game: Game, options: dict[str, Any], turn: int | None, seats: list[SeatRow],
                    host: str, where: str | None, rated: bool) -> Table:
        """Start a new table of checked ``seats`` (their rows name its id), hosted by ``host`` from the
        address digest ``where``, rated or not, if the limits allow it."""
        table_id = seats[0].table_id
        bots_only = all(s.kind == "bot" for s in seats)
        async with self._creating:  # one at a time: the limits are checked against every table made before
            seed = secrets.randbits(62)
            owner = self.cluster.home(host)  # every table of one host has its bots at one process: fair turns
            row = TableRow(id=table_id, game=game.id, options=options, seed=seed, turn_seconds=turn, version=0,
                           status="playing", created=now(), host=host, active=now(), address=where,
                           rated=rated, owner=owner)
            state = new_state(game, options, seed, [s.name for s in seats])
            if self.cluster.shared:  # counted in the database, under a lock every process takes
                limits = self.limits
                ended = await self._run_db(self.store.add_table_within_limits, row, seats, bots_only, LEASE_SECONDS,
                                           lambda counts: judge_limits(limits, counts, bots_only), server_busy)
                if ended is not None:
                    log.info("table %s ended unplayed to make room for a new one", ended)
            else:
                await self._check_limits(host, where, bots_only)
                await self._run_db(self.store.add_table, row, seats)
            table = Table(table_id, game, options, seed, turn,
                          [Seat(s.seat, s.kind, s.level, s.name, s.token_digest, s.owner, s.invite) for s in seats],
                          state, created=row.created.isoformat() + "Z", host=host, address=where,
                          rated=rated, book=self.book, owned=owner == self.cluster.node)
            self.tables[table_id] = table
        if not table.owned:
            await self._run_db(self.store.notify, "n", table_id, 0)  # its owner takes it up
        self._after_change(table)
        return table

    async def _check_limits(self, player: str, address: str | None, bots_only: bool) -> None:
        """Refuse a new table (429) when ``player``, its ``address`` (a digest) or the server has as many as
        it may (:func:`judge_limits`); when the tables nobody has moved at fill their own share, the one
        left alone longest ends to make room.  One process: counted in its memory (the database's tables
        started in the last hour aside)."""
        live = [t for t in self.tables.values() if t.live]
        made, made_here = await self._run_db(self.store.created_since, player, now() - _dt.timedelta(hours=1),
                                             address)
        mine = [t for t in live if t.host == player]
        here = [t for t in live if t.address == address]
        counts = TableCounts(played=sum(t.played for t in live), waiting=sum(not t.played for t in live),
                             host_open=len(mine), host_bots=sum(t.bots_only for t in mine), host_started=made,
                             address_open=len(here), address_bots=sum(t.bots_only for t in here),
                             address_started=made_here)
        if judge_limits(self.limits, counts, bots_only):
            for table in sorted((t for t in live if not t.played), key=lambda t: t.active):
                if not table.attended() and await self._abandon(table):
                    log.info("table %s ended unplayed to make room for a new one", table.id)
                    return
            raise server_busy(counts)

    async def lobby(self, page: int = 1, per_page: int = 20) -> dict[str, Any]:
        """Live tables with a free ``open`` seat, newest first, a page at a time (with several server
        processes, found in the database: every process's tables)."""
        per_page = max(1, min(50, per_page))
        if self.cluster.shared:
            total = await self._run_db(self.store.open_tables_count)
            pages = max(1, math.ceil(total / per_page))
            page = max(1, min(page, pages))
            shown = [await self.get(table_id) for table_id in
                     await self._run_db(self.store.open_tables, (page - 1) * per_page, per_page)]
            return {"tables": [t.summary() for t in shown], "page": page, "pages": pages, "total": total}
        found = sorted((t for t in self.tables.values() if t.live
                        and any(s.kind == "open" and not s.taken for s in t.seats)),
                       key=lambda t: t.created, reverse=True)
        pages = max(1, math.ceil(len(found) / per_page))
        page = max(1, min(page, pages))
        shown = found[(page - 1) * per_page: page * per_page]
        return {"tables": [t.summary() for t in shown], "page": page, "pages": pages, "total": len(found)}

    async def record(self, table_id: str) -> dict[str, Any]:
        """The match record, once the match is over."""
        table = await self.get(table_id)
        if table.status != "finished":
            raise TableError("the record is available once the match is over", 409)
        return record.to_data(table.state, {"server": "parlour serve", "table": table.id})

    # -- WebSocket ------------------------------------------------------------------
    async def hello(self, conn: Connection, table_id: str, message: Hello | Mapping[str, Any]) -> None:
        """The connection's player takes their seat (or watches); ``welcome`` and the state go to it alone.
        (A message given as an object is read first: :func:`~parlour.web.protocol.parse`.)"""
        if not isinstance(message, Hello):
            hello = parse(message)
            if not isinstance(hello, Hello):
                raise ProtocolError("malformed", f"a hello was expected, not {hello.type!r}")
            message = hello
        table = await self.get(table_id)
        said = list(await self.chat.recent(table))
        token = message.token
        seat = table.seat_of(conn.player)
        if seat is None and token:
            seat = await self.seating.legacy_token(table, token, conn.player)
        if seat is None and not conn.watching:
            if not await self.spectators.hold(conn.address, self.limits.spectators):
                raise ProtocolError("too_many", f"{self.limits.spectators} connections from your address watch "
                                    "tables already: close one to watch another")
            conn.watching = True
        elif seat is not None and conn.watching:
            await self.spectators.release(conn.address)
            conn.watching = False
        if conn.table is not None and conn.table is not table:
            self.leave(conn)
        was_there = seat is not None and table.connected(seat)
        watching = broadcast.spectators(table)
        conn.table, conn.seat = table, seat
        table.connections.add(conn)
        if conn.player is not None and (seat is not None or (table.bots_only and conn.player == table.host)):
            table.active = time.time()
        conn.send(Welcome(seat=seat, role="spectator" if seat is None else "player",
                          table=table.summary(conn.player), spectators=broadcast.spectators(table), chat=said))
        conn.send_text(broadcast.shown(table, seat).text)
        came = seat if seat is not None and not was_there else None
        if came is not None:
            broadcast.presence(table, conn)
        self._back_for_again(table, conn)
        broadcast.arrival(table, conn, came, True, watching)
        self._tell_presence(table)

    def leave(self, conn: Connection) -> None:
        """The connection has gone (or moves to another table)."""
        table = conn.table
        if table is not None and conn in table.connections:
            watching = broadcast.spectators(table)
            table.connections.discard(conn)
            if conn.seat is not None or (table.bots_only and conn.player == table.host):
                table.active = time.time()  # someone was at it until now (a spectator's coming and going is not)
            gone = conn.seat is not None and not table.connected(conn.seat)
            if gone:
                broadcast.presence(table, None)
                if conn.seat is not None:
                    self._gone_from_again(table, conn.seat)
            broadcast.arrival(table, None, conn.seat if gone else None, False, watching)
            self._tell_presence(table)
            if gone and table.live:
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
            task = asyncio.create_task(self.spectators.release(conn.address))
            self._chores.add(task)
            task.add_done_callback(self._chores.discard)
            conn.watching = False

    async def handle(self, conn: Connection, message: Acting | Ping | Hello | Say | Mapping[str, Any]) -> None:
        """One message from a client (after ``hello``; one given as an object is read first:
        :func:`~parlour.web.protocol.parse`)."""
        table = conn.table
        assert table is not None
        if isinstance(message, Mapping):
            message = parse(message, seated=conn.seat is not None)
        if isinstance(message, Hello):
            await self.hello(conn, table.id, message)
            return
        if isinstance(message, Ping):
            conn.send(Pong())
            return
        if isinstance(message, Say):
            await self.chat.say(conn, table, message.text)
            return
        seat = conn.seat
        if seat is None:
            raise ProtocolError("unauthorized", "spectators cannot act at the table")
        table.check_open()
        table.active = time.time()
        if isinstance(message, MakeMove):
            await self._move(table, seat, message.move, message.version)
        elif isinstance(message, NextRound):
            await self._next_round(table, seat, message.version)
        elif isinstance(message, Undo):
            await self._undo(table, seat, message.version)
        elif isinstance(message, AskHint):
            await self.autoplay.hint(conn, table, message.version)
        elif isinstance(message, Resolve):
            await self._resolve(conn, table, seat, message)
        elif isinstance(message, PlayAgain):
            await self._play_again(table, seat, message)

    async def _move(self, table: Table, seat: int, text: str, version: int) -> None:
        began = time.perf_counter()
        async with table.lock:
            table.check_version(version)
            move = table.read_move(seat, text)
            await self._commit(table, seat, str(move))
        self.metrics.move_seconds.observe(time.perf_counter() - began)

    async def _next_round(self, table: Table, seat: int | None, version: int) -> None:
        async with table.lock:
            table.check_version(version)
            table.check_next_round()
            await self._commit(table, seat, NEXT_ROUND)

    async def _resolve(self, conn: Connection, table: Table, seat: int, message: Resolve) -> None:
        """Read what the player typed as one legal move of theirs, and tell them which (nothing changes)."""
        async with table.lock:  # not in the middle of a commit: the state is the version's
            table.check_version(message.version)
            move = table.resolve(seat, message.text)
        face = face_card_thrown_away(message.text, move)
        conn.send(Resolved(text=message.text, move=str(move), confirm=discard_question(face) if face else None))

    async def _commit(self, table: Table, seat: int | None, change: str) -> None:
        """Commit a checked change to the database, then make and broadcast it (holding the lock)."""
        pending = table.begin_change(seat, change)
        try:
            await self.writer.write(MoveWrite(table.id, len(table.changes), seat, change, table.version + 1,
                                              pending.status, table.by_person(seat)))
        except Conflict:
            table.abort_change(pending)
            self.metrics.conflicts.inc()
            await self._catch_up(table)
            raise ProtocolError("stale", MOVED_ON) from None
        except BaseException:
            table.abort_change(pending)
            raise
        table.finish_change(pending)
        self.metrics.moves.labels(by="table" if seat is None else "bot" if table.seats[seat].is_bot
                                  else "person").inc()
        if table.rated and pending.status == "finished":
            await self._rate(table)
        self._after_change(table)

    async def _rate(self, table: Table) -> None:
        """Update the people's ratings after a rated match (stored by the database's writer, then kept in
        the book).  A person's seat nobody holds (a seat given back and never taken) leaves it unrated."""
        if any(not s.is_bot and s.owner is None for s in table.seats):
            log.info("rated table %s ended with a seat nobody holds: not rated", table.id)
            return
        game_id, totals = table.game.id, table.state.totals

        def compute(stored: dict[str, tuple[float, float]]) -> list[RatingWrite]:
            standings = {player: ratings.Standing(mu, sigma) for player, (mu, sigma) in stored.items()}
            entrants = [ratings.entrant(game_id, s.seat, s.owner, s.level if s.is_bot else None, standings)
                        for s in table.seats]
            return [RatingWrite(u.player, u.seat, u.place, u.before.mu, u.before.sigma, u.after.mu, u.after.sigma)
                    for u in ratings.rate(entrants, totals)]

        players = [s.owner for s in table.seats if not s.is_bot and s.owner is not None]
        try:
            writes = await self._run_db(self.store.rate_match, table.id, game_id, players, compute)
        except Exception:  # the match itself is stored: its rating is not worth failing the move
            log.exception("while rating table %s", table.id)
            return
        await self._keep_ratings(game_id, writes)

    async def _keep_ratings(self, game_id: str, writes: Sequence[RatingWrite]) -> None:
        """Keep a rated match's new ratings in the book (those that page handles and seats show)."""
        handles = {w.player: await self._run_db(self.store.handle_of, w.player) for w in writes}
        self.book.take(game_id, [ratings.Update(w.player, w.seat, ratings.Standing(w.mu_before, w.sigma_before),
                                                ratings.Standing(w.mu_after, w.sigma_after), w.place)
                                 for w in writes], handles)

    async def _rated_elsewhere(self, table_id: str) -> None:
        """Another process rated the match at ``table_id``: keep its people's new ratings here too."""
        game_id = await self._run_db(self.store.game_of, table_id)
        if game_id is None:
            return
        await self._keep_ratings(game_id, await self._run_db(self.store.rating_changes, table_id))
        table = self.tables.get(table_id)
        if table is not None:
            self._after_change(table)

    async def _undo(self, table: Table, seat: int, version: int) -> None:
        async with table.lock:
            table.check_version(version)
            reach = table.undo_reach(seat)
            if not reach.moves:
                raise ProtocolError("not_allowed", reach.why_not)
            count = reach.moves
            first = len(table.changes) - count
            try:
                await self._run_db(self.store.undo_moves, table.id, first, table.version + 1, "playing")
            except Conflict:
                await self._catch_up(table)
                raise ProtocolError("stale", MOVED_ON) from None
            table.take_back(count)
            self._after_change(table)

    def _after_change(self, table: Table) -> None:
        """Set going whatever must happen next by itself, and broadcast the new state."""
        self.autoplay.set_going(table)
        broadcast.changed(table)

    def message(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator), as the JSON object it is sent as."""
        return as_object(broadcast.state_message(table, seat))

    # -- again --
    async def _play_again(self, table: Table, seat: int, message: PlayAgain) -> None:
        """``seat``'s answer to "Play again?"; once every person at the table has accepted, the new table
        starts (:mod:`parlour.web.again`) and every connection is sent its address."""
        async with table.lock:
            table.check_version(message.version)
            if table.status != "finished":
                raise ProtocolError("not_allowed", "you can play again once the match is over")
            vote = table.again
            if vote.next_table is not None:
                raise ProtocolError("not_allowed", "the new table has started already")
            if seat not in table.people:
                raise ProtocolError("unauthorized", "only the people at the table answer")
            if self.cluster.shared:  # counted in the database, one vote at a time over every process
                self._take_votes(table, await self._run_db(self.store.again_vote, table.id, seat, message.accept))
            else:
                vote.answer(seat, message.accept)
            if vote.ready(table.people):
                try:
                    new = await self._open_again(table)
                except TableError:
                    vote.accepted.discard(seat)  # not started (a limit): the last to accept may try again
                    if self.cluster.shared:
                        await self._run_db(self.store.again_forget, table.id, seat)
                    self._tell_again(table)
                    raise
                await self._run_db(self.store.link_again, table.id, new.id)
                self._went_on(table, new.id)
            self._tell_again(table)

    @staticmethod
    def _take_votes(table: Table, votes: Mapping[int, bool]) -> None:
        """The answers to "Play again?" as the database has them."""
        table.again.accepted = {seat for seat, accept in votes.items() if accept}
        table.again.declined = {seat for seat, accept in votes.items() if not accept}

    def _went_on(self, table: Table, next_table: str) -> None:
        """The people of finished ``table`` go on at ``next_table``: its connections are sent there."""
        table.again.next_table = next_table
        text = encode(NewTable(table_id=next_table, url=f"/table/{next_table}"))
        for conn in list(table.connections):
            conn.send_text(text)

    async def _votes_elsewhere(self, table: Table) -> None:
        """Someone answered "Play again?" at another process: the answers are read and told here."""
        if table.status != "finished" or table.again.next_table is not None:
            return
        self._take_votes(table, await self._run_db(self.store.again_votes, table.id))
        went_on = await self._run_db(self.store.next_table, table.id)
        if went_on is not None:
            self._went_on(table, went_on)
        self._tell_again(table)

    async def _open_again(self, table: Table) -> Table:
        """The new table of a finished one: the same game, options, turn timer, players and bots, the
        seats rotated one place; hosted by the old table's host (or, if the host held no seat there, the
        first person), counted against the limits like any new table."""
        owners = [s.owner for s in table.seats if s.owner is not None and not s.is_bot]
        host = table.host if table.host in owners else owners[0]
        seats = rotated_seats(table.seats, secrets.token_urlsafe(9))
        return await self._open(table.game, dict(table.options), table.turn_seconds, seats, host, table.address,
                                table.rated)

    def _tell_again(self, table: Table) -> None:
        """Tell every connection of ``table`` the answers to "Play again?" so far."""
        text = encode(table.again.message(table.people))
        for conn in list(table.connections):
            conn.send_text(text)

    def _gone_from_again(self, table: Table, seat: int) -> None:
        """A person's every connection has gone from a finished table: no new table while they are away."""
        vote = table.again
        if table.status == "finished" and vote.next_table is None and seat in table.people:
            vote.left.add(seat)
            self._tell_again(table)

    def _back_for_again(self, table: Table, conn: Connection) -> None:
        """A connection came to a finished table: a person who had gone is back; it is told the answers."""
        if table.status != "finished":
            return
        vote = table.again
        if conn.seat is not None and conn.seat in vote.left and vote.next_table is None:
            vote.left.discard(conn.seat)
            self._tell_again(table)
        elif vote.asked():
            conn.send(vote.message(table.people))
