"""Replays on the web, a page of steps at a time: uploaded records and the tables of the server.

A replay step is a whole view of the table (:mod:`parlour.web.views`), a few kilobytes each, and a
long match has thousands: so a replay is answered a page at a time (``offset`` and ``count``), and
every page is worked out in one worker process at a lower CPU priority, never on the event loop,
which only receives the page as JSON text.  Only the page's own views are built; the moves before
it are only made.  What one request can cost is bounded whatever it holds: an upload is at most
:data:`MAX_UPLOAD` bytes and a record at most :data:`~parlour.record.MAX_ROUNDS` rounds and
:data:`~parlour.record.MAX_MOVES` moves, a page at most :data:`MAX_PAGE` steps, and at most
:data:`BUSY` pages are being worked out at once on the whole server.

Pages are counted per client address (:class:`~parlour.web.limits.KeyedBuckets`): a replay's first
page costs one, its later pages a tenth, so paging through a long match is never refused but a
flood of uploads is.  A finished table never changes: its pages are kept (:class:`PageCache`) and
cost nothing the second time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from parlour import games, record
from parlour.children import die_with_parent
from parlour.game import State
from parlour.web import views
from parlour.web.limits import Gauge, KeyedBuckets, retry_text

Done = TypeVar("Done")

PAGE = 100
"""Steps in a page unless the client asks for another count."""
MAX_PAGE = 200
"""The most steps in one page (a larger ``count`` gets this many): at most about 1.7 MB of JSON
(Progression's three hands shown in every step), 0.9 MB for :data:`PAGE` steps."""
MAX_UPLOAD = 1024 * 1024
"""The largest record uploaded.  A three-round Minus Twenty record is about 10 kB (random play:
11 kB), six rounds of Progression about 24 kB, and even a 100-round match to a target nobody
reached about 420 kB: twice that is still allowed."""
CACHE_BYTES = 64 * 1024 * 1024
"""The pages of finished tables kept, in bytes of JSON."""
BUSY = 4
"""Pages being worked out or waiting for the worker at once, on the whole server."""
ADDRESS_BUSY = 2
"""Of them, pages asked for from one address."""
FIRST_COST = 1.0
LATER_COST = 0.1
"""What a replay's first page costs an address (in replays of its rate), and each later one."""
SEEN_SECONDS = 600.0
"""How long after a replay's first page its later pages cost :data:`LATER_COST`."""
SEEN_KEYS = 10_000
"""Replays remembered for that (the oldest are forgotten first)."""
_DIGITS = 9
"""The most digits of a query's ``offset`` or ``count`` (no replay has a billion steps)."""


class ReplayRefused(ValueError):
    """A replay page not worked out, with the HTTP status to answer: 400 (bad paging), 413 (too
    large), 429 (too many from the address) or 503 (the server is busy replaying)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type[ReplayRefused], tuple[str, int]]:
        return ReplayRefused, (str(self), self.status)


@dataclass(frozen=True)
class TableSpec:
    """What a table's replay is made from: its match starts as ``game``'s ``new_match`` with
    ``seed``, ``options`` and ``names``, and ``changes`` are made in turn (moves in notation, or
    ``next round``: :data:`~parlour.web.store.NEXT_ROUND`)."""

    game: str
    options: dict[str, Any]
    seed: int
    names: tuple[str, ...]
    changes: tuple[str, ...]
    finished: bool

    @property
    def total(self) -> int:
        """Steps in the replay: the deal, then one for each change."""
        return len(self.changes) + 1


def paging(query: Mapping[str, str]) -> tuple[int, int]:
    """``offset`` and ``count`` from a request's query (default 0 and :data:`PAGE`).

    A negative offset counts from the end (``-100`` with a count of 100: the last hundred steps);
    a count above :data:`MAX_PAGE` is that many.  Raises :class:`ReplayRefused` (400).
    """
    return _whole(query.get("offset"), "offset", 0), _whole(query.get("count"), "count", PAGE)


def _whole(text: str | None, name: str, default: int) -> int:
    if text is None:
        return default
    digits = text.removeprefix("-")
    if not digits.isdecimal() or not digits.isascii() or len(digits) > _DIGITS:
        raise ReplayRefused(f"{name} must be a whole number, not {text[:20]!r}", 400)
    return int(text)


def _count(count: int) -> int:
    if count < 1:
        raise ReplayRefused(f"count must be at least 1, not {count}", 400)
    return min(count, MAX_PAGE)


def _start(offset: int, total: int) -> int:
    """The first step of a page: ``offset``, or counted from the end when negative."""
    if offset >= total:
        raise ReplayRefused(f"offset {offset} is past the last step (the replay has {total} steps)", 400)
    return max(0, total + offset) if offset < 0 else offset


async def read_upload(chunks: AsyncIterable[bytes], declared: str | None = None) -> bytes:
    """An uploaded record's bytes, read no further than :data:`MAX_UPLOAD` (``declared``: the
    request's Content-Length, if it gave one).  Raises :class:`ReplayRefused` (413) beyond."""
    if declared is not None and declared.isdecimal() and declared.isascii():
        if len(declared) > _DIGITS:
            raise _too_large(None)
        if int(declared) > MAX_UPLOAD:
            raise _too_large(int(declared))
    body = bytearray()
    async for chunk in chunks:
        body += chunk
        if len(body) > MAX_UPLOAD:
            raise _too_large(None)
    return bytes(body)


_BUSY = "the server is busy replaying: try again in a few seconds"
_HELD = "your other replays are still being worked out: try again in a few seconds"


def _too_many(seconds: float) -> ReplayRefused:
    return ReplayRefused(f"too many replays from your address: try again {retry_text(seconds)}", 429)


def _too_large(size: int | None) -> ReplayRefused:
    this = f"; this one is {size / (1024 * 1024):.1f} MB" if size else ""
    return ReplayRefused(f"a record is at most {MAX_UPLOAD // 1024} kB{this}", 413)


# -- in the worker process ----------------------------------------------------------------
def _worker_init() -> None:
    """The replay worker stops with the server, and yields the CPU to the workers of live tables."""
    die_with_parent()
    os.nice(5)


def _page_json(steps: list[views.View], full: bool, offset: int, total: int) -> str:
    return json.dumps({"steps": steps, "full": full, "offset": offset, "total": total}, separators=(",", ":"))


def upload_page(raw: bytes, offset: int, count: int) -> str:
    """A page of an uploaded record's replay, as JSON text (run in the worker).

    The whole record is read and replayed first, so that any page of a wrong record raises the
    same :class:`~parlour.record.RecordError`."""
    rec = record.loads(raw)
    record.replay(rec)
    total = sum(len(rnd.moves) for rnd in rec.rounds) + len(rec.rounds)
    start = _start(offset, total)
    steps, total = views.record_page(rec, start, count)
    return _page_json(steps, True, start, total)


def table_page(spec: TableSpec, viewer: int | None, offset: int, count: int) -> str:
    """A page of a table's replay, as JSON text (run in the worker): with all cards when
    ``viewer`` is None, else as seat ``viewer`` saw it."""
    state = games.get(spec.game).new_match(seed=spec.seed, options=spec.options, names=list(spec.names))
    view: Callable[[State], views.View] = views.full_view if viewer is None else partial(_seat_view, viewer)
    start = _start(offset, spec.total)
    return _page_json(views.page(state, spec.changes, view, start, count), viewer is None, start, spec.total)


def _seat_view(seat: int, state: State) -> views.View:
    return state.observation(seat)


# -- in the server ----------------------------------------------------------------------------
PageKey = tuple[str, int | None, int, int]
"""A kept page: the table, the viewer, and the ``offset`` and ``count`` asked for."""


class PageCache:
    """Pages of finished tables as JSON text; the least recently used go first when they hold more
    than ``limit`` bytes (a page larger than that is not kept)."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._pages: OrderedDict[PageKey, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, key: PageKey) -> str | None:
        text = self._pages.get(key)
        if text is not None:
            self._pages.move_to_end(key)
        return text

    def put(self, key: PageKey, text: str) -> None:
        if len(text) > self.limit:
            return
        old = self._pages.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._pages[key] = text
        self.size += len(text)
        while self.size > self.limit:
            _key, dropped = self._pages.popitem(last=False)
            self.size -= len(dropped)


class ReplayService:
    """Replay pages for the web: worked out in a worker process, counted per address, bounded in
    number at once, and kept for finished tables."""

    def __init__(self, rate_per_minute: int = 20) -> None:
        self.buckets = KeyedBuckets.per_minute(rate_per_minute)
        self.cache = PageCache()
        self.computed = 0
        """Pages handed to the worker so far (a page served from the cache is not)."""
        self._pool: ProcessPoolExecutor | None = None
        self._running: set[concurrent.futures.Future[Any]] = set()
        self._held = Gauge()
        self._seen: OrderedDict[tuple[str, str], float] = OrderedDict()

    async def upload(self, raw: bytes, address: str, offset: int = 0, count: int = PAGE) -> str:
        """A page of an uploaded record's replay, as JSON text: ``{"steps", "full": true, "offset",
        "total"}``.  Raises :class:`~parlour.record.RecordError` for a record that does not replay
        and :class:`ReplayRefused` for one too large, bad paging, or too many replays."""
        if len(raw) > MAX_UPLOAD:
            raise _too_large(len(raw))
        count = _count(count)
        replay = "upload " + hashlib.blake2b(raw, digest_size=16).hexdigest()
        return await self.work(address, replay, upload_page, raw, offset, count)

    async def table(self, key: str, spec: TableSpec, viewer: int | None, address: str, offset: int = 0,
                    count: int = PAGE) -> str:
        """A page of table ``key``'s replay, as JSON text (``"full"``: ``viewer`` is None, every card
        shown); a finished table's pages are kept.  Raises :class:`ReplayRefused`."""
        count = _count(count)
        text = self.cache.get((key, viewer, offset, count))
        if text is not None:
            return text
        start = _start(offset, spec.total)
        text = await self.work(address, f"table {key} {viewer}", table_page, spec, viewer, start, count)
        if spec.finished:
            self.cache.put((key, viewer, offset, count), text)
        return text

    def kept(self, key: str, offset: int = 0, count: int = PAGE) -> str | None:
        """The page of finished table ``key`` (every card shown) if it is kept, else None: a page
        kept needs no table loaded (only a finished table's pages are kept, and it never changes)."""
        return self.cache.get((key, None, offset, _count(count)))

    async def check(self, address: str) -> None:
        """Raise :class:`ReplayRefused` now if any page asked for from ``address`` would be refused
        (the server is busy replaying, or the address has run out of replays): so that an upload
        is refused before its body is read."""
        self._running = {f for f in self._running if not f.done()}
        if len(self._running) >= BUSY:
            raise ReplayRefused(_BUSY, 503)
        if self._held[address] >= ADDRESS_BUSY:
            raise ReplayRefused(_HELD, 429)
        if wait := await self.buckets.waiting(address, LATER_COST):
            raise _too_many(wait)

    def close(self) -> None:
        """Stop the worker (pages being worked out are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def work(self, address: str, replay: str, job: Callable[..., Done], *args: Any) -> Done:
        """``job(*args)`` in the replay worker, counted against ``address`` like a replay's page
        (``replay`` names what is replayed: its later pages cost less).  Raises :class:`ReplayRefused`."""
        await self.check(address)
        cost = LATER_COST if self._seen_lately(address, replay) else FIRST_COST
        if wait := await self.buckets.spend(address, cost):
            raise _too_many(wait)
        self._seen[(address, replay)] = time.monotonic()
        self._seen.move_to_end((address, replay))
        while len(self._seen) > SEEN_KEYS:
            self._seen.popitem(last=False)
        self._held.take(address, ADDRESS_BUSY)
        try:
            return await self.run(job, *args)
        finally:
            self._held.give_back(address)

    async def run(self, job: Callable[..., Done], *args: Any) -> Done:
        """``job(*args)`` in the replay worker, counted against nobody (work asked for and counted at a
        process that has gone since, taken over here).  Raises :class:`ReplayRefused`."""
        try:
            future = self._executor().submit(job, *args)
            self._running.add(future)
            self.computed += 1
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): the next page starts a new one.
            self.close()
            raise ReplayRefused("the replay could not be worked out: try again in a few seconds", 503) from None

    def _seen_lately(self, address: str, replay: str) -> bool:
        seen = self._seen.get((address, replay))
        return seen is not None and time.monotonic() - seen < SEEN_SECONDS

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_init)
        return self._pool
