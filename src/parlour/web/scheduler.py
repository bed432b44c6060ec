"""Fair use of the bot workers: bots' moves, turn timers and hints of every player share a few processes.

Work is queued per key (the player a table or a hint is for) and handed to the
workers round robin over the keys, so one player's many tables or tabs wait
behind each other, never in front of another player's bot.  Kinds of work have
an order and a share: a bot's move (someone is waiting to see it) goes before a
hint, and hints may hold only some of the workers, so a running hint never
keeps a bot waiting for a free worker.  The executor is never given more work
than it has workers: everything waiting waits here, where it can be
reordered, and where a job nobody waits for any more is dropped before it runs.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

BOT = "bot"
"""A bot's move, or a timer's move for a seat whose time ran out."""
HINT = "hint"


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


@dataclass
class _Kind:
    share: int
    """At most this many of the workers at once."""
    queues: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    running: int = 0


class FairScheduler:
    """Runs jobs on ``executor`` (``workers`` of them at once), fairly across keys.

    ``shares`` gives each kind of job, in order of priority, the most workers it may hold at once."""

    def __init__(self, executor: Executor, workers: int, shares: dict[str, int] | None = None) -> None:
        self.executor = executor
        self.workers = workers
        shares = shares or {BOT: workers, HINT: max(1, workers - 1)}
        self._kinds = {name: _Kind(min(workers, share)) for name, share in shares.items()}
        self.running = 0

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
            while self.running < self.workers and kind.running < kind.share and kind.queues:
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
                running = loop.run_in_executor(self.executor, job.fn, *job.args)
                running.add_done_callback(functools.partial(self._finished, job=job, kind=kind))

    def _finished(self, done: asyncio.Future[Any], *, job: _Job, kind: _Kind) -> None:
        self.running -= 1
        kind.running -= 1
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
