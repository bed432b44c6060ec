"""The replay service (``parlour.web.replays``) in-process, with its real worker process: pages
are slices of the whole replay, what an upload may cost is bounded, one address cannot flood it,
a finished table's pages are kept, and the event loop never waits for a replay."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastapi.encoders import jsonable_encoder
from tests.test_record_limits import capped_record
from tests.test_record_limits import random_match as any_random_match

from parlour import games, record
from parlour.game import State
from parlour.web import replays, views
from parlour.web.replays import MAX_PAGE, MAX_UPLOAD, PAGE, ReplayRefused, ReplayService, TableSpec

from .conftest import DATA

NAMES = ("Ann", "Bo")
"""The players of the tables here (and Cy at a table of three)."""


@pytest.fixture(scope="module")
def service() -> Iterator[ReplayService]:
    """A service no test here runs out of replays on (the rate limit has tests of its own)."""
    replay = ReplayService(rate_per_minute=100_000)
    yield replay
    replay.close()


def random_match(game_id: str, seed: int, options: dict[str, Any] | None = None) -> tuple[State, list[str]]:
    """A whole match of random legal moves between Ann, Bo (and Cy), and its changes as a table keeps them."""
    return any_random_match(game_id, seed, options, [*NAMES, "Cy"][:games.get(game_id).players])


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def as_json(steps: list[views.View]) -> Any:
    """Steps as the browser received them before pages: FastAPI's encoding of the list."""
    return json.loads(json.dumps(jsonable_encoder(steps)))


def refusal(coroutine: Any) -> ReplayRefused:
    with pytest.raises(ReplayRefused) as info:
        run(coroutine)
    return info.value


def finished_twenty(seed: int = 5) -> TableSpec:
    state, changes = random_match("twenty", seed)
    assert state.is_match_over()
    return TableSpec("twenty", {}, seed, NAMES, tuple(changes), True)


def table_steps(spec: TableSpec, viewer: int | None) -> Any:
    state = games.get(spec.game).new_match(seed=spec.seed, options=spec.options, names=list(spec.names))
    view = views.full_view if viewer is None else (lambda s: s.observation(viewer))
    return as_json(list(views.steps(state, spec.changes, view)))


def test_an_uploads_pages_are_slices_of_every_step(service: ReplayService) -> None:
    for name in ("twenty-illustrative.json", "progression-six-rounds.json", "silver-bars-tie-at-100.json"):
        raw = (DATA / name).read_bytes()
        every = as_json(views.record_steps(json.loads(raw)))
        total = len(every)
        assert total > PAGE
        first = json.loads(run(service.upload(raw, "pages")))
        assert first == {"steps": every[:PAGE], "full": True, "offset": 0, "total": total}
        for offset, count in ((PAGE, PAGE), (37, 11), (total - 1, 5), (-30, 30), (-total - 5, 3)):
            page = json.loads(run(service.upload(raw, "pages", offset, count)))
            start = max(0, total + offset) if offset < 0 else offset
            assert page["offset"] == start and page["total"] == total
            assert page["steps"] == every[start:start + count], (name, offset, count)
    big = json.loads(run(service.upload((DATA / "progression-six-rounds.json").read_bytes(), "pages", 0, 10_000)))
    assert len(big["steps"]) == MAX_PAGE


def test_a_tables_pages_are_slices_of_every_step(service: ReplayService) -> None:
    spec = finished_twenty()
    live = TableSpec(spec.game, spec.options, spec.seed, spec.names, spec.changes[:60], False)
    for table, viewer in ((spec, None), (live, 0), (live, 1)):
        every = table_steps(table, viewer)
        assert len(every) == table.total
        for offset in range(0, table.total, 40):
            page = json.loads(run(service.table("t1", table, viewer, "pages", offset, 40)))
            assert page == {"steps": every[offset:offset + 40], "full": viewer is None, "offset": offset,
                            "total": table.total}
    last = json.loads(run(service.table("t1", spec, None, "pages", -1, PAGE)))
    assert last["offset"] == spec.total - 1 and last["steps"][0]["match_over"] is True


def test_bad_paging_is_refused(service: ReplayService) -> None:
    raw = (DATA / "twenty-illustrative.json").read_bytes()
    assert "count must be at least 1" in str(refusal(service.upload(raw, "paging", 0, 0)))
    past = refusal(service.upload(raw, "paging", 102, 10))
    assert past.status == 400 and str(past) == "offset 102 is past the last step (the replay has 102 steps)"
    assert refusal(service.table("t2", finished_twenty(), None, "paging", 500)).status == 400
    assert replays.paging({}) == (0, PAGE)
    assert replays.paging({"offset": "-100", "count": "50"}) == (-100, 50)
    for query in ({"offset": "x"}, {"count": "1e3"}, {"offset": "1" * 20}, {"count": "٣"}, {"offset": "--1"}):
        assert refusal_of(replays.paging, query).status == 400


def refusal_of(function: Any, *args: Any) -> ReplayRefused:
    with pytest.raises(ReplayRefused) as info:
        function(*args)
    return info.value


def test_a_broken_record_is_a_record_error_with_its_place(service: ReplayService) -> None:
    for name in ("silver-bars-invalid-bar-not-higher.json", "progression-invalid-face-after-number.json"):
        raw = (DATA / name).read_bytes()
        with pytest.raises(record.RecordError) as expected:
            record.replay(record.loads(raw))
        with pytest.raises(record.RecordError) as got:
            run(service.upload(raw, "broken", 5, 10))
        assert (got.value.round, got.value.move, str(got.value)) == (
            expected.value.round, expected.value.move, str(expected.value))
    with pytest.raises(record.RecordError, match="not valid JSON"):
        run(service.upload(b"not json", "broken"))
    with pytest.raises(record.RecordError, match="nested too deeply"):
        run(service.upload(b"[" * 100_000 + b"]" * 100_000, "broken"))


def test_a_record_of_120_rounds_is_refused_with_one_clear_line(service: ReplayService) -> None:
    data = capped_record()
    data["rounds"] += copy.deepcopy(data["rounds"][:20])
    raw = json.dumps(data, indent=1).encode()
    assert 300_000 < len(raw) < MAX_UPLOAD
    with pytest.raises(record.RecordError) as info:
        run(service.upload(raw, "long"))
    assert str(info.value) == "a record holds at most 100 rounds; this one has 120"
    assert (info.value.round, info.value.move) == (0, 0)


def test_a_body_over_the_limit_is_refused_unread(service: ReplayService) -> None:
    before = service.computed
    big = b"{" + b" " * MAX_UPLOAD + b"}"
    refused = refusal(service.upload(big, "big"))
    assert refused.status == 413 and str(refused) == "a record is at most 1024 kB; this one is 1.0 MB"
    assert service.computed == before  # never handed to the worker, so never parsed

    read: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        for number in range(100):
            read.append(number)
            yield b" " * 64 * 1024

    refused = refusal(replays.read_upload(chunks()))
    assert refused.status == 413 and len(read) == MAX_UPLOAD // (64 * 1024) + 1  # no further than the limit
    read.clear()
    refused = refusal(replays.read_upload(chunks(), str(50 * 1024 * 1024)))
    assert "this one is 50.0 MB" in str(refused) and not read  # the declared length is enough
    assert refusal(replays.read_upload(chunks(), "9" * 5000)).status == 413 and not read
    small = (DATA / "twenty-illustrative.json").read_bytes()

    async def whole() -> AsyncIterator[bytes]:
        yield small[:100]
        yield small[100:]

    assert run(replays.read_upload(whole(), str(len(small)))) == small


def test_a_flood_of_uploads_from_one_address_is_refused_not_from_another() -> None:
    limited = ReplayService(rate_per_minute=20)  # bursts of 10
    golden = json.loads((DATA / "twenty-illustrative.json").read_text())

    def upload(number: int) -> bytes:
        return json.dumps(dict(golden, meta={"copy": number})).encode()

    try:
        for number in range(10):
            json.loads(run(limited.upload(upload(number), "10.0.0.1")))
        refused = refusal(limited.upload(upload(10), "10.0.0.1"))
        assert refused.status == 429
        assert re.fullmatch(r"too many replays from your address: try again in [1-3] s", str(refused))
        assert json.loads(run(limited.upload(upload(10), "10.0.0.2")))["total"] == 102
        # Paging through one replay costs a tenth a page: a long match is never refused.
        raw = (DATA / "progression-six-rounds.json").read_bytes()
        for offset in range(0, 452, 10):
            assert json.loads(run(limited.upload(raw, "10.0.0.3", offset, 10)))["offset"] == offset
    finally:
        limited.close()


def test_a_finished_tables_pages_come_from_the_cache(service: ReplayService) -> None:
    spec = finished_twenty(7)
    before = service.computed
    first = run(service.table("t3", spec, None, "cache", 0, PAGE))
    assert service.computed == before + 1
    again = [run(service.table("t3", spec, None, "cache", 0, PAGE)) for _ in range(5)]
    assert service.computed == before + 1 and all(text == first for text in again)
    assert service.kept("t3", 0, PAGE) == first and service.kept("t3", 0, 7) is None
    run(service.table("t3", spec, None, "cache", PAGE, PAGE))
    assert service.computed == before + 2  # another page is worked out once
    live = TableSpec(spec.game, spec.options, spec.seed, spec.names, spec.changes[:30], False)
    run(service.table("t4", live, 0, "cache"))
    run(service.table("t4", live, 0, "cache"))
    assert service.computed == before + 4  # a table being played is never kept


def test_a_cached_page_costs_no_replay() -> None:
    limited = ReplayService(rate_per_minute=1)  # one replay, then a tenth of one every 6 s
    spec = finished_twenty(8)
    try:
        run(limited.table("t5", spec, None, "10.0.0.4"))
        for _ in range(20):
            run(limited.table("t5", spec, None, "10.0.0.4"))
        assert refusal(limited.table("t6", spec, None, "10.0.0.4")).status == 429
        assert refusal(limited.check("10.0.0.4")).status == 429  # an upload is refused before it is read
        run(limited.check("10.0.0.5"))
    finally:
        limited.close()


def test_the_cache_is_bounded_by_its_bytes() -> None:
    cache = replays.PageCache(1000)
    for number in range(10):
        cache.put(("t", None, number, 1, 10), "x" * 300)
    assert cache.size <= 1000 and len(cache) == 3
    assert cache.get(("t", None, 9, 1, 10)) is not None and cache.get(("t", None, 0, 1, 10)) is None
    cache.put(("t", None, 99, 1, 10), "x" * 2000)
    assert cache.get(("t", None, 99, 1, 10)) is None and len(cache) == 3


def test_the_server_refuses_more_replays_at_once_than_it_works_out(service: ReplayService) -> None:
    raw = json.dumps(capped_record()).encode()

    async def many() -> list[Any]:
        asks = [service.upload(raw, f"10.1.0.{n}", -MAX_PAGE, MAX_PAGE) for n in range(replays.BUSY + 3)]
        return await asyncio.gather(*asks, return_exceptions=True)

    answers = run(many())
    busy = [a for a in answers if isinstance(a, ReplayRefused)]
    assert len(busy) == 3 and all(a.status == 503 for a in busy)
    assert str(busy[0]) == "the server is busy replaying: try again in a few seconds"
    assert all(json.loads(a)["total"] > 19_000 for a in answers if isinstance(a, str))


def test_the_event_loop_keeps_ticking_while_a_long_match_is_replayed(service: ReplayService) -> None:
    """The pages of a long match are worked out in the worker, not on the event loop: the loop's thread spends
    a small part of the CPU time the same pages cost when made on it.  CPU time of the thread, not the wall
    clock: a busy machine delays a ticking loop by its own scheduling, whoever does the work."""
    state, changes = random_match("progression", 4, {"target_score": 1000})
    raw = json.dumps(record.to_data(state), indent=1).encode()
    assert len(state.history) == 99 and len(raw) > 350_000  # 100 rounds, about 23,000 moves
    spec = TableSpec("progression", {"target_score": 1000}, 4, tuple(state.names), tuple(changes), True)
    cpu = time.thread_time()
    made_here = [replays.upload_page(raw, offset, MAX_PAGE) for offset in (0, -MAX_PAGE)]
    made_here.append(replays.table_page(spec, None, -MAX_PAGE, MAX_PAGE))
    on_the_loop_it_costs = time.thread_time() - cpu

    async def measured() -> tuple[list[str], float, int]:
        ticks = 0
        done = asyncio.Event()

        async def tick() -> None:
            nonlocal ticks
            while not done.is_set():
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        started = time.thread_time()
        pages = [await service.upload(raw, "heavy", offset, MAX_PAGE) for offset in (0, -MAX_PAGE)]
        pages.append(await service.table("t7", spec, None, "heavy", -MAX_PAGE, MAX_PAGE))
        spent = time.thread_time() - started
        done.set()
        await ticker
        return pages, spent, ticks

    pages, spent, ticks = run(measured())
    assert pages == made_here  # the same pages, made in the worker
    assert on_the_loop_it_costs > 0.2  # real work
    assert spent < on_the_loop_it_costs / 4, f"the loop's thread spent {spent:.2f} s of {on_the_loop_it_costs:.2f} s"
    assert ticks > 0  # and it went on ticking meanwhile
