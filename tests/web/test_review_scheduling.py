"""Reviews at the bot workers (parlour.web.scheduler.FairScheduler): a review is low priority like a hint,
and hints and reviews together never hold the last worker, so a bot's move never waits for them."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from parlour.web.scheduler import BOT, HINT, REVIEW, FairScheduler


def test_reviews_and_hints_leave_a_worker_to_the_bots() -> None:
    release = threading.Event()
    running: list[str] = []
    lock = threading.Lock()

    def job(name: str) -> str:
        with lock:
            running.append(name)
        release.wait(10)
        return name

    def quick(name: str) -> str:
        with lock:
            running.append(name)
        return name

    async def scenario() -> None:
        with ThreadPoolExecutor(max_workers=3) as pool:
            scheduler = FairScheduler(pool, 3)
            slow = [asyncio.ensure_future(scheduler.run(f"player{k}", kind, job, f"{kind}{k}"))
                    for k, kind in enumerate([REVIEW, REVIEW, HINT, REVIEW])]
            for _ in range(1000):  # until both reviews hold their workers (no fixed sleep: load varies)
                if len(running) == 2:
                    break
                await asyncio.sleep(0.01)
            assert scheduler.low_running == 2 and scheduler.running == 2  # the third worker is the bots'
            assert sorted(running) == ["review0", "review1"]
            assert await scheduler.run("player9", BOT, quick, "bot") == "bot"
            # Not behind the reviews nor the hint: they are all still held (the reviews until release).
            assert not any(task.done() for task in slow)
            release.set()
            assert sorted(await asyncio.gather(*slow)) == ["hint2", "review0", "review1", "review3"]
            assert scheduler.low_running == 0 and scheduler.running == 0

    asyncio.run(scenario())


def test_a_hint_goes_before_a_review_that_waits() -> None:
    """A review holds the one worker hints and reviews share; another review and then a hint wait for it:
    the hint goes first.  (The first review is held until both wait: no sleep, which a loaded machine
    would outlast.)"""
    order: list[str] = []
    release = threading.Event()

    def job(name: str) -> str:
        order.append(name)
        if name == "review1":
            release.wait(10)
        return name

    async def scenario() -> None:
        with ThreadPoolExecutor(max_workers=2) as pool:
            scheduler = FairScheduler(pool, 2)  # hints and reviews: one worker between them
            first = asyncio.ensure_future(scheduler.run("ann", REVIEW, job, "review1"))
            for _ in range(1000):
                if order:
                    break
                await asyncio.sleep(0.01)
            later = [asyncio.ensure_future(scheduler.run("ann", REVIEW, job, "review2")),
                     asyncio.ensure_future(scheduler.run("bo", HINT, job, "hint"))]
            for _ in range(1000):
                if scheduler.queued() == 2:
                    break
                await asyncio.sleep(0.01)
            assert scheduler.queued() == 2 and order == ["review1"]
            release.set()
            await asyncio.gather(first, *later)

    asyncio.run(scenario())
    assert order == ["review1", "hint", "review2"]
