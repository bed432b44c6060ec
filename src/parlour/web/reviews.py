"""Post-game reviews on the server: worked out in the background, a decision at a time, kept with the match.

A player who held a seat at a finished table may ask for the review of that seat (and only that seat:
a review is worked out from the seat's observations, so it may name cards nobody else saw).  The
decisions are found by replaying the match (:func:`parlour.review.plan`); each is then judged by the
hint level's search in the bot workers, as a :data:`~parlour.web.scheduler.REVIEW` job of the
player's lane of the :class:`~parlour.web.scheduler.FairScheduler`: after every bot's move and every
hint waiting, never holding the worker the bots keep.  The progress can be asked for meanwhile; the
finished review is stored with the match (:class:`~parlour.web.store.ReviewRow`) and served from
there ever after, across restarts.  A review interrupted by a restart is simply asked for again.

An uploaded record (the replay page) is reviewed the same way, for whichever of its seats the
uploader asks (the file shows every card anyway): it is read and planned in the replay worker
(counted like a replay), refused beyond :data:`MAX_RECORD_DECISIONS` decisions, judged in the lane of
the player (or address) who asked, at most one at a time for each and :data:`RECORD_REVIEWS_AT_ONCE`
on the whole server, and kept by the SHA-256 of the record's bytes: the same file is never judged
twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from parlour import bots, record, review
from parlour.web.replays import ReplayService
from parlour.web.scheduler import REVIEW, FairScheduler, review_verdict
from parlour.web.store import NEXT_ROUND, TableStore
from parlour.web.tables import Table, TableError

log = logging.getLogger("parlour.web")

ANALYST = bots.HINT_LEVEL
"""The bot whose search judges the moves (the hints' level: the same verdicts as ``parlour review``)."""
MAX_RECORD_DECISIONS = 1000
"""The most decisions of an uploaded record's seat reviewed (six rounds of Progression: some 140 a seat,
judged in about 50 s by one bot worker, which a hundred rounds of it would exceed)."""
RECORD_REVIEWS_AT_ONCE = 4
"""Uploaded records being reviewed at once on the whole server (every process together)."""
_LANE_BUSY = "your other review is still being worked out: ask again once it is done"
_BUSY = "the server is busy reviewing: ask again in a minute"


@dataclass
class ReviewProgress:
    """A review under way: how far it has got."""

    seat: int
    done: int = 0
    total: int | None = None
    """Decisions to judge (None until the match is replayed)."""
    failed: bool = False
    lane: str = ""
    """Whose lane of the scheduler judges it."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def as_json(self, subject: dict[str, Any]) -> dict[str, Any]:
        status = "failed" if self.failed else "running"
        return {**subject, "seat": self.seat, "status": status, "done": self.done, "total": self.total,
                "review": None, "steps": None}


@dataclass(frozen=True)
class RecordPlan:
    """An uploaded record's review to do: the seat's decisions, and the replay step of each."""

    todo: review.Plan
    steps: list[int]


def plan_record(raw: bytes, seat: int) -> RecordPlan:
    """Read an uploaded record and plan the review of ``seat`` (in the replay worker).  Raises
    :class:`~parlour.record.RecordError` for a record that does not replay, :class:`TableError` for a
    seat it does not have or a seat with more than :data:`MAX_RECORD_DECISIONS` decisions."""
    match = record.loads(raw)
    try:
        review.check_seat(match, seat)
    except ValueError as exc:
        raise TableError(str(exc), 400) from None
    moves = sum(len(rnd.moves) for rnd in match.rounds)
    if moves > MAX_RECORD_DECISIONS * len(match.players):  # cheap first: no replay of a record far too long
        raise TableError(f"a review covers at most {MAX_RECORD_DECISIONS} decisions of a seat; this record has "
                         f"{moves} moves", 413)
    todo = review.plan(match, seat)
    if len(todo.decisions) > MAX_RECORD_DECISIONS:
        raise TableError(f"a review covers at most {MAX_RECORD_DECISIONS} decisions of a seat; this seat made "
                         f"{len(todo.decisions)}", 413)
    first = [0]  # the replay step of each round's deal: the deal, then a step a move
    for rnd in match.rounds:
        first.append(first[-1] + len(rnd.moves) + 1)
    return RecordPlan(todo, [first[d.round - 1] + d.move - 1 for d in todo.decisions])


MAX_SEAT = 99
"""No game has more seats than this: a larger seat number is refused before the database is asked."""


def check_seat_number(seat: int) -> None:
    """Refuse (:class:`TableError`, 400) a seat number no record has (negative, or beyond :data:`MAX_SEAT`)."""
    if not 0 <= seat <= MAX_SEAT:
        raise TableError(f"there is no seat {seat}: seats are numbered from 0", 400)


def record_digest(raw: bytes) -> str:
    """What an uploaded record's review is kept by: the SHA-256 of its bytes, in hex."""
    return hashlib.sha256(raw).hexdigest()


def replay_steps(table: Table, judgements: list[dict[str, Any]]) -> list[int | None]:
    """The step of the table's replay at which each judged decision was made (the position before its
    move: step 0 is the deal, step ``i`` follows the table's ``i``-th change), for the replay to jump to."""
    found: dict[tuple[int, int], int] = {}
    round_number, move_number = 1, 0
    for step, (_seat, change) in enumerate(table.changes):
        if change == NEXT_ROUND:
            round_number, move_number = round_number + 1, 0
            continue
        move_number += 1
        found[(round_number, move_number)] = step
    return [found.get((j["round"], j["move"])) for j in judgements]


class Reviews:
    """The reviews of every finished table and uploaded record: ``store`` keeps them (written in ``db``,
    the store's one writer thread), ``scheduler`` runs their searches, ``table`` finds a table by id,
    ``replays`` reads and plans uploaded records in its worker."""

    def __init__(self, store: TableStore, scheduler: FairScheduler, db: Executor,
                 table: Callable[[str], Awaitable[Table]], replays: ReplayService, node: str | None = None) -> None:
        self.store = store
        self.node = node
        """With several server processes, this one's id: a table's review under way is kept in the
        database (``web_review_jobs``), its progress shown by every process, and taken over by another
        if this one is given up (:meth:`resume`).  None: one process, everything in its memory."""
        self.scheduler = scheduler
        self.db = db
        self.table = table
        self.replays = replays
        self.running: dict[tuple[str, int], ReviewProgress] = {}
        """The reviews under way, by table id (or ``record `` and the record's digest) and seat."""

    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    # -- the tables of the server --------------------------------------------------------------
    async def _seat(self, table_id: str, player: str | None) -> tuple[Table, int]:
        table = await self.table(table_id)
        if table.status != "finished":
            raise TableError("a review is made once the match is over", 409)
        seat = table.seat_of(player)
        if seat is None:
            raise TableError("a review is shown only to the player of its seat, and you held no seat at this "
                             "table", 403)
        return table, seat

    async def status(self, table_id: str, player: str | None) -> dict[str, Any]:
        """The review of ``player``'s seat at the table: done (with the review), under way (how far), or
        not asked for (``none``)."""
        table, seat = await self._seat(table_id, player)
        subject = {"table_id": table.id}
        running = self.running.get((table.id, seat))
        if running is not None:
            return running.as_json(subject)
        stored = await self._in_db(self.store.review, table.id, seat)
        if stored is None:
            return await self._elsewhere(table.id, seat, subject)
        return _done(subject, seat, stored, replay_steps(table, stored["judgements"]))

    async def start(self, table_id: str, player: str | None) -> dict[str, Any]:
        """Set the review of ``player``'s seat going, unless it is done or under way; its status."""
        table, seat = await self._seat(table_id, player)
        answer = await self.status(table_id, player)
        under_way = self.running.get((table.id, seat))  # asked for twice at once: the first one goes
        if answer["status"] in ("none", "failed") and (under_way is None or under_way.failed):
            if self.node is not None:
                from parlour.web.cluster import LEASE_SECONDS

                other = await asyncio.to_thread(self.store.claim_review, table.id, seat, self.node, player or "",
                                                LEASE_SECONDS)
                if other is not None:  # another process works it out (asked for twice at once)
                    return ReviewProgress(seat, other.done, other.total).as_json({"table_id": table.id})
            answer = self._review_table(table, seat, player or "").as_json({"table_id": table.id})
        return answer

    def _review_table(self, table: Table, seat: int, lane: str) -> ReviewProgress:
        """Set the review of ``seat`` at finished ``table`` going here (in ``lane``'s turns)."""
        def save(data: dict[str, Any]) -> None:
            self.store.add_review(table.id, seat, data)

        async def plan() -> review.Plan:
            match = record.from_data(record.to_data(table.state))
            return await asyncio.to_thread(review.plan, match, seat)

        progress = self.running[(table.id, seat)] = ReviewProgress(seat, lane=lane)
        progress.task = asyncio.create_task(self._work_out((table.id, seat), plan, save, progress))
        return progress

    async def _elsewhere(self, key: str, seat: int, subject: dict[str, Any]) -> dict[str, Any]:
        """A review not under way here nor stored: under way at another process (how far), or not asked for."""
        job = await asyncio.to_thread(self.store.review_job, key, seat) if self.node else None
        if job is None:
            return _not_asked(subject, seat)
        done, total = job
        return ReviewProgress(seat, done, total).as_json(subject)

    async def resume(self, jobs: list[tuple[str, int, str]]) -> None:
        """Take over the reviews another process was working out when it was given up: (key, seat, lane),
        the key a table's id or ``record`` and an uploaded record's digest."""
        for key, seat, lane in jobs:
            if (key, seat) in self.running:
                continue
            log.info("taking over the review of %s, seat %s", key, seat)
            if key.startswith("record "):
                await self._resume_record(key.removeprefix("record "), seat, lane)
                continue
            try:
                table = await self.table(key)
            except TableError:
                await asyncio.to_thread(self.store.end_review, key, seat, self.node or "")
                continue
            self._review_table(table, seat, lane)

    # -- uploaded records ----------------------------------------------------------------------
    async def record_status(self, digest: str, seat: int) -> dict[str, Any]:
        """The review of ``seat`` of the uploaded record whose digest is ``digest`` (:func:`record_digest`)."""
        check_seat_number(seat)
        subject = {"review_id": digest}
        running = self.running.get(("record " + digest, seat))
        if running is not None:
            return running.as_json(subject)
        stored = await self._in_db(self.store.record_review, digest, seat)
        if stored is None:
            return await self._elsewhere("record " + digest, seat, subject)
        data, steps = stored
        return _done(subject, seat, data, steps)

    async def start_record(self, raw: bytes, seat: int, lane: str, address: str) -> dict[str, Any]:
        """Set the review of ``seat`` of an uploaded record going (in ``lane``: the player who asked, or
        their address), unless it is done or under way; its status.  Raises
        :class:`~parlour.record.RecordError`, :class:`TableError` (the seat, too many decisions, another
        review of the lane's under way: 429, the server busy with them: 503) or
        :class:`~parlour.web.replays.ReplayRefused`."""
        check_seat_number(seat)
        digest = record_digest(raw)
        key = ("record " + digest, seat)
        answer = await self.record_status(digest, seat)
        under_way = self.running.get(key)
        if answer["status"] not in ("none", "failed") or (under_way is not None and not under_way.failed):
            return answer
        records = [p for k, p in self.running.items() if k[0].startswith("record ") and not p.failed]
        if any(p.lane == lane for p in records):
            raise TableError(_LANE_BUSY, 429)
        if len(records) >= RECORD_REVIEWS_AT_ONCE:
            raise TableError(_BUSY, 503)
        progress = self.running[key] = ReviewProgress(seat, lane=lane)  # held while it is planned
        try:
            if self.node is not None:
                from parlour.web.cluster import LEASE_SECONDS

                other = await asyncio.to_thread(self.store.claim_record_review, digest, seat, self.node, lane, raw,
                                                LEASE_SECONDS, RECORD_REVIEWS_AT_ONCE)
                if isinstance(other, str):
                    raise TableError(_LANE_BUSY, 429) if other == "lane" else TableError(_BUSY, 503)
                if other is not None:  # another process works it out (asked for twice at once)
                    self.running.pop(key, None)
                    return ReviewProgress(seat, other.done, other.total).as_json({"review_id": digest})
            planned = await self.replays.work(address, "review " + digest, plan_record, raw, seat)
        except BaseException:
            self.running.pop(key, None)
            await self._tell_progress(key, progress, ended=True)
            raise
        self._review_record(digest, seat, planned, progress)
        return progress.as_json({"review_id": digest})

    def _review_record(self, digest: str, seat: int, planned: RecordPlan, progress: ReviewProgress) -> None:
        """Work out the review of ``seat`` of an uploaded record, ``planned`` (in ``progress``'s lane)."""
        def save(data: dict[str, Any]) -> None:
            self.store.add_record_review(digest, seat, data, planned.steps)

        async def plan() -> review.Plan:
            return planned.todo

        progress.task = asyncio.create_task(self._work_out(("record " + digest, seat), plan, save, progress))

    async def _resume_record(self, digest: str, seat: int, lane: str) -> None:
        """Work out again here the review of an uploaded record that a process given up was working out."""
        key = ("record " + digest, seat)
        progress = self.running[key] = ReviewProgress(seat, lane=lane)
        try:
            raw = await asyncio.to_thread(self.store.record_to_review, digest, seat)
            if raw is None:  # ended meanwhile: nothing to take over
                self.running.pop(key, None)
                return
            planned = await self.replays.run(plan_record, raw, seat)
        except Exception:
            log.exception("could not take over the review of the uploaded record %s, seat %s", digest, seat)
            self.running.pop(key, None)
            await self._tell_progress(key, progress, ended=True)
            return
        self._review_record(digest, seat, planned, progress)

    # -- the work ------------------------------------------------------------------------------
    async def _work_out(self, key: tuple[str, int], plan: Callable[[], Awaitable[review.Plan]],
                        save: Callable[[dict[str, Any]], None], progress: ReviewProgress) -> None:
        try:
            todo = await plan()
            progress.total = len(todo.decisions)
            judgements = []
            for decision in todo.decisions:
                found = await self.scheduler.run(progress.lane, REVIEW, review_verdict, ANALYST, decision.observation,
                                                 [str(m) for m in decision.legal], str(decision.played))
                judgements.append(review.judgement(decision, found))
                progress.done += 1
                await self._tell_progress(key, progress)
            await self._in_db(save, review.finish(todo, ANALYST, judgements).to_data())
        except asyncio.CancelledError:
            self.running.pop(key, None)
            raise
        except Exception:
            log.exception("while reviewing %s, seat %s", key[0], key[1])
            progress.failed = True
            await self._tell_progress(key, progress, ended=True)
            return
        self.running.pop(key, None)
        await self._tell_progress(key, progress, ended=True)

    async def _tell_progress(self, key: tuple[str, int], progress: ReviewProgress, ended: bool = False) -> None:
        """With several processes: how far a review has got (or that it is over), for the others."""
        if self.node is None:
            return
        try:
            if ended:
                await asyncio.to_thread(self.store.end_review, key[0], key[1], self.node)
            else:
                await asyncio.to_thread(self.store.review_progress, key[0], key[1], self.node, progress.done,
                                        progress.total)
        except Exception:  # the database is away a moment: the next step tells it
            log.warning("could not store how far the review of %s has got", key[0], exc_info=True)

    def stop(self) -> None:
        """Give up the reviews under way (the server is stopping: they are asked for again after)."""
        for progress in self.running.values():
            if progress.task is not None:
                progress.task.cancel()


def _not_asked(subject: dict[str, Any], seat: int) -> dict[str, Any]:
    return {**subject, "seat": seat, "status": "none", "done": 0, "total": None, "review": None, "steps": None}


def _done(subject: dict[str, Any], seat: int, data: dict[str, Any],
          steps: list[int | None] | list[int]) -> dict[str, Any]:
    judged = len(data["judgements"])
    return {**subject, "seat": seat, "status": "done", "done": judged, "total": judged, "review": data, "steps": steps}
