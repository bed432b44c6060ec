"""Bots, turn timers, hints and reviews: what happens at a table by itself, worked out in worker
processes that every player's tables share fairly.

After each change :class:`Autoplay` sets going what comes next by itself: a bot's move after a
short delay, a turn timer that moves for a person whose time runs out, or (at tables of bots
only, or when a round's timer runs out) the next round.  Bots think in worker processes, so the
server never waits for them: bots of tables with people in them have a pool of their own, and
bots-only tables share one low-priority worker.

:class:`FairScheduler` hands that work to the workers: it is queued per key (the player a table or
a hint is for) and handed to the workers round robin over the keys, so one player's many tables or
tabs wait behind each other, never in front of another player's bot.  Kinds of work have an order
and a share: a bot's move (someone is waiting to see it) goes before a hint, a hint before a step of
a post-game review (one decision judged: :mod:`parlour.web.reviews`), and hints and reviews together
may hold only some of the workers, so that they never keep a bot waiting for a free worker.  The executor is
never given more work than it has workers: everything waiting waits here, where it can be
reordered, and where a job nobody waits for any more is dropped before it runs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import random
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlour import bots, narrate, review
from parlour.bots import levels
from parlour.children import die_with_parent
from parlour.game import Move
from parlour.web.limits import KeyedBuckets, Limits, retry_text
from parlour.web.protocol import Error, HintMove, Hints, ProtocolError
from parlour.web.store import NEXT_ROUND
from parlour.web.tables import Connection, Table

log = logging.getLogger("parlour.web")

BOT = "bot"
"""A bot's move, or a timer's move for a seat whose time ran out."""
HINT = "hint"
REVIEW = "review"
"""One decision of a post-game review judged."""
LOW = (HINT, REVIEW)
"""The kinds of work no move waits for: together they hold at most all the workers but one."""


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


@dataclass
class _Kind:
    share: int
    """At most this many of the workers at once."""
    low: bool = False
    """One of the :data:`LOW` kinds, which share :attr:`FairScheduler.low_share` workers."""
    queues: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    running: int = 0


class FairScheduler:
    """Runs jobs on ``executor`` (``workers`` of them at once), fairly across keys.

    ``shares`` gives each kind of job, in order of priority, the most workers it may hold at once; the
    :data:`LOW` kinds (hints, reviews) together hold at most ``workers - 1`` (one, with one worker)."""

    def __init__(self, executor: Executor, workers: int, shares: dict[str, int] | None = None) -> None:
        self.executor = executor
        self.workers = workers
        shares = shares or {BOT: workers, HINT: max(1, workers - 1), REVIEW: max(1, workers - 1)}
        self._kinds = {name: _Kind(min(workers, share), low=name in LOW) for name, share in shares.items()}
        self.running = 0
        self.low_share = max(1, workers - 1)
        self.low_running = 0

    def queued(self, kind: str | None = None) -> int:
        """Jobs waiting for a worker (of ``kind``, or of every kind)."""
        kinds = [self._kinds[kind]] if kind is not None else list(self._kinds.values())
        return sum(len(q) for k in kinds for q in k.queues.values())

    async def run(self, key: str, kind: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker, when it is ``key``'s turn; its result.  Cancelling the caller
        drops the job if it has not started (if it has, its result is dropped)."""
        loop = asyncio.get_running_loop()
        job = _Job(fn, args, loop.create_future())
        self._kinds[kind].queues.setdefault(key, deque()).append(job)
        self._pump()
        try:
            return await job.future
        finally:
            if not job.future.done():
                job.future.cancel()  # still queued: _pump skips it

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        for kind in self._kinds.values():
            while (self.running < self.workers and kind.running < kind.share and kind.queues
                   and not (kind.low and self.low_running >= self.low_share)):
                key, queue = next(iter(kind.queues.items()))
                job = queue.popleft()
                if queue:
                    kind.queues.move_to_end(key)  # the key goes to the back of the round
                else:
                    del kind.queues[key]
                if job.future.done():  # nobody waits for it any more
                    continue
                self.running += 1
                kind.running += 1
                self.low_running += kind.low
                running = loop.run_in_executor(self.executor, job.fn, *job.args)
                running.add_done_callback(functools.partial(self._finished, job=job, kind=kind))

    def _finished(self, done: asyncio.Future[Any], *, job: _Job, kind: _Kind) -> None:
        self.running -= 1
        kind.running -= 1
        self.low_running -= kind.low
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        elif not done.cancelled():
            done.exception()  # looked at, so that asyncio does not log it as never retrieved
        try:
            self._pump()
        except RuntimeError:  # the loop is closing
            pass


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


def review_verdict(analyst: str, observation: dict[str, Any], legal: list[str], played: str) -> review.Verdict:
    """The search's verdict on one decision of a review, in a worker process (from the seat's observation)."""
    moves = [Move.parse(text) for text in legal]
    return review.verdict(review.analyst_for(analyst), observation, moves, Move.parse(played))


def _worker_init() -> None:
    die_with_parent()


def _background_worker_init() -> None:
    """A worker for bots-only tables: the lowest CPU priority, so people's bots always come first."""
    _worker_init()
    os.nice(19)


def lane(table: Table) -> str:
    """Whose turn at the bot workers a table's work waits for: its host's (one player's many tables
    and tabs queue behind each other, not in front of anyone else)."""
    return table.host or table.id


Commit = Callable[[Table, int | None, str], Awaitable[None]]
"""Commit a change to a table (holding its lock): the seat (None: the table's own next round) and
the move in notation or ``next round``."""


class Autoplay:
    """The bots, turn timers and hints of every table, in worker processes: ``executor`` for tables
    with people in them (``bot_workers`` processes unless given), ``background`` (one process at the
    lowest priority unless given) for bots-only tables.  ``commit`` makes a bot's or a timer's move."""

    def __init__(self, commit: Commit, bot_delay: float = 0.6, bot_workers: int = 2,
                 executor: Executor | None = None, background: Executor | None = None,
                 limits: Limits | None = None) -> None:
        self.commit = commit
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        spawn = multiprocessing.get_context("spawn")
        self.executor = executor or ProcessPoolExecutor(
            max_workers=bot_workers, mp_context=spawn, initializer=_worker_init)
        """Bots of tables with people in them, timers and hints."""
        self.background = background or ProcessPoolExecutor(
            max_workers=1, mp_context=spawn, initializer=_background_worker_init)
        """Bots of bots-only tables: one worker at the lowest priority."""
        self.hints = KeyedBuckets(self.limits.hints_per_minute / 60, max(1, self.limits.hints_per_minute // 4))
        """Each seat's hint budget (``TABLE SEAT``), shared by all its connections."""
        self.people_bots = FairScheduler(self.executor, bot_workers)
        """Fair turns at :attr:`executor`, player by player."""
        self.background_bots = FairScheduler(self.background, 1)
        self._chores: set[asyncio.Task[None]] = set()
        """Hints on their way, which nobody waits for."""

    def stop(self) -> None:
        """Stop the workers (the tables' pending tasks are cancelled by their manager)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.background.shutdown(wait=False, cancel_futures=True)

    # -- bots and timers ------------------------------------------------------------------------
    def set_going(self, table: Table) -> None:
        """After a change: set going whatever must happen next by itself (and forget the old hints).
        At a table another server process owns (:attr:`Table.owned`) nothing is set going here, but
        the turn's deadline is kept, to be shown (counted from the change, as its owner counts it)."""
        if table.task is not None and table.task is not asyncio.current_task():
            table.task.cancel()
        table.task, table.deadline = None, None
        table.hints.clear()
        began = time.time() if table.owned else table.changed_at
        state = table.state
        seat = state.current_player()
        later: tuple[int | None, str | None, float] | None = None
        if seat is None:
            if table.status == "round_over":
                if not table.people:
                    later = (None, None, self.bot_delay)
                elif table.turn_seconds:
                    table.deadline = began + table.turn_seconds
                    later = (None, None, table.turn_seconds)
        elif table.seats[seat].is_bot:
            later = (seat, table.seats[seat].level or "medium", self.bot_delay)
        elif table.turn_seconds and table.seats[seat].owner is not None:  # nobody's seat: nobody's timer
            table.deadline = began + table.turn_seconds
            later = (seat, levels.TIMER_LEVEL, table.turn_seconds)
        if later is not None and table.owned:
            table.task = asyncio.create_task(self._later(table, table.version, *later))

    async def _later(self, table: Table, version: int, seat: int | None, spec: str | None, delay: float) -> None:
        """After ``delay``: a bot's move for ``seat`` (or the next round), if nothing changed meanwhile."""
        try:
            await asyncio.sleep(delay)
            if seat is None:
                async with table.lock:
                    if table.version == version and table.status == "round_over" and table.owned:
                        await self.commit(table, None, NEXT_ROUND)
                return
            assert spec is not None
            observation = table.state.observation(seat)
            legal = [str(m) for m in table.state.legal_moves()]
            pool = self.people_bots if table.people else self.background_bots
            move = await pool.run(lane(table), BOT, bot_move, spec, observation, legal,
                                  f"bot:{table.seed}:{seat}:{version}")
            async with table.lock:
                if table.version == version and table.owned:
                    await self.commit(table, seat, move)
        except asyncio.CancelledError:
            pass
        except ProtocolError as exc:  # another server process moved the table on first: it is read again
            log.info("table %s: %s", table.id, exc)

    # -- hints ------------------------------------------------------------------------------------
    async def hint(self, conn: Connection, table: Table, version: int) -> None:
        """The three best moves for the connection's seat, worked out once per version and seat (every tab
        of the player shares it, and asking again costs nothing), within the seat's hint budget; sent to
        the connection when ready."""
        table.check_version(version)
        seat = conn.seat
        if not table.may_hint(seat) or seat is None:
            raise ProtocolError("not_allowed", "hints are for your own turn at a table against bots")
        future = table.hints.get((version, seat))
        if future is None:
            if wait := await self.hints.spend(f"{table.id} {seat}"):
                raise ProtocolError("rate_limited", f"too many hints: ask again {retry_text(wait)}")
            table.check_version(version)  # (the table may have moved on while the budget was counted)
            future = table.hints.get((version, seat))
            if future is None:
                future = table.hints[(version, seat)] = asyncio.ensure_future(
                    self._work_out_hint(table, seat, version))
        # The connection goes on reading (a ping, a move) while the hint is worked out.
        task = asyncio.create_task(self._send_hint(conn, table, seat, version, future))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _send_hint(self, conn: Connection, table: Table, seat: int, version: int,
                         future: asyncio.Future[list[HintMove]]) -> None:
        try:
            moves = await asyncio.shield(future)
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("while working out a hint at table %s", table.id)
            table.hints.pop((version, seat), None)
            conn.send(Error(code="internal", message="the hint could not be worked out", version=version))
            return
        if conn.table is not table or conn.seat != seat or table.version != version:
            return  # the table moved on meanwhile: the hint is about a position that has gone
        conn.send(Hints(version=version, moves=moves))

    async def _work_out_hint(self, table: Table, seat: int, version: int) -> list[HintMove]:
        observation = table.state.observation(seat)
        legal = [str(m) for m in table.state.legal_moves()]
        state = table.state.copy()
        found: list[dict[str, Any]] = await self.people_bots.run(
            lane(table), HINT, bot_hint, observation, legal, f"hint:{table.seed}:{version}")
        moves: list[HintMove] = []
        for entry in found:  # in words, for the player who asked: "about 2.7 points better for you than …"
            outlook = narrate.estimate_text(entry["value"], entry["margin"], players=state.num_players,
                                            only=len(legal) == 1)
            text = f"{state.describe_move(Move.parse(entry['move']), seat)}: {outlook}"
            moves.append(HintMove(move=entry["move"], value=entry["value"], margin=entry["margin"],
                                  share=entry["share"], text=text, outlook=outlook))
        return moves
