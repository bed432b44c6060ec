"""Post-game reviews on the server: worked out in the background, a decision at a time, kept with the match.

A player who held a seat at a finished table may ask for the review of that seat (and only that seat:
a review is worked out from the seat's observations, so it may name cards nobody else saw).  The
decisions are found by replaying the match (:func:`parlour.review.plan`); each is then judged by the
hint level's search in the bot workers, as a :data:`~parlour.web.scheduler.REVIEW` job of the
player's lane of the :class:`~parlour.web.scheduler.FairScheduler`: after every bot's move and every
hint waiting, never holding the worker the bots keep.  The progress can be asked for meanwhile; the
finished review is stored with the match (:class:`~parlour.web.store.ReviewRow`) and served from
there ever after, across restarts.  A review interrupted by a restart is simply asked for again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from parlour import bots, record, review
from parlour.web.scheduler import REVIEW, FairScheduler, review_verdict
from parlour.web.store import NEXT_ROUND, TableStore
from parlour.web.tables import Table, TableError

log = logging.getLogger("parlour.web")

ANALYST = bots.HINT_LEVEL
"""The bot whose search judges the moves (the hints' level: the same verdicts as ``parlour review``)."""


@dataclass
class ReviewProgress:
    """A review under way: how far it has got."""

    seat: int
    done: int = 0
    total: int | None = None
    """Decisions to judge (None until the match is replayed)."""
    failed: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def as_json(self, table_id: str) -> dict[str, Any]:
        status = "failed" if self.failed else "running"
        return {"table_id": table_id, "seat": self.seat, "status": status, "done": self.done, "total": self.total,
                "review": None, "steps": None}


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
    """The reviews of every finished table: ``store`` keeps them (written in ``db``, the store's one
    writer thread), ``scheduler`` runs their searches, ``table`` finds a table by id."""

    def __init__(self, store: TableStore, scheduler: FairScheduler, db: Executor,
                 table: Callable[[str], Awaitable[Table]]) -> None:
        self.store = store
        self.scheduler = scheduler
        self.db = db
        self.table = table
        self.running: dict[tuple[str, int], ReviewProgress] = {}

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
        running = self.running.get((table.id, seat))
        if running is not None:
            return running.as_json(table.id)
        stored = await asyncio.get_running_loop().run_in_executor(self.db, self.store.review, table.id, seat)
        if stored is None:
            return {"table_id": table.id, "seat": seat, "status": "none", "done": 0, "total": None, "review": None,
                    "steps": None}
        judged = len(stored["judgements"])
        return {"table_id": table.id, "seat": seat, "status": "done", "done": judged, "total": judged,
                "review": stored, "steps": replay_steps(table, stored["judgements"])}

    async def start(self, table_id: str, player: str | None) -> dict[str, Any]:
        """Set the review of ``player``'s seat going, unless it is done or under way; its status."""
        table, seat = await self._seat(table_id, player)
        answer = await self.status(table_id, player)
        under_way = self.running.get((table.id, seat))  # asked for twice at once: the first one goes
        if answer["status"] in ("none", "failed") and (under_way is None or under_way.failed):
            progress = self.running[(table.id, seat)] = ReviewProgress(seat)
            progress.task = asyncio.create_task(self._work_out(table, seat, player or "", progress))
            answer = progress.as_json(table.id)
        return answer

    async def _work_out(self, table: Table, seat: int, player: str, progress: ReviewProgress) -> None:
        try:
            match = record.from_data(record.to_data(table.state))
            todo = await asyncio.to_thread(review.plan, match, seat)
            progress.total = len(todo.decisions)
            judgements = []
            for decision in todo.decisions:
                found = await self.scheduler.run(player, REVIEW, review_verdict, ANALYST, decision.observation,
                                                 [str(m) for m in decision.legal], str(decision.played))
                judgements.append(review.judgement(decision, found))
                progress.done += 1
            data = review.finish(todo, ANALYST, judgements).to_data()
            await asyncio.get_running_loop().run_in_executor(self.db, self.store.add_review, table.id, seat, data)
        except asyncio.CancelledError:
            self.running.pop((table.id, seat), None)
            raise
        except Exception:
            log.exception("while reviewing seat %s of table %s", seat, table.id)
            progress.failed = True
            return
        self.running.pop((table.id, seat), None)

    def stop(self) -> None:
        """Give up the reviews under way (the server is stopping: they are asked for again after)."""
        for progress in self.running.values():
            if progress.task is not None:
                progress.task.cancel()
