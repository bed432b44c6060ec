"""The abuses of ``benchmarks/web_abuse.py``, each run by :func:`run` in a process of its own (so that it takes
nothing from the measuring clients' event loop), every socket bound to :data:`ABUSER`, another loopback
address than the victims', as a real attacker's would be.

Every abuse is bounded: it stops when the parent sets ``stop``, at ``config["seconds"]`` whatever happens,
and at its own count limits; it returns a tally (a dict of numbers, short strings and lists) that the parent
prints.  A tally's ``tables`` lists tables the parent waits to see end before the next quiet phase.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

HOST = "127.0.0.1"
"""The server: loopback only."""
ABUSER = "127.0.0.2"
"""The address every abuser's socket comes from (the victims and the new person come from 127.0.0.1)."""
FLOOD_MESSAGES = (
    json.dumps({"type": "hello"}),
    json.dumps({"type": "ping"}),
    "junk: not JSON at all {{{",
    json.dumps({"type": "zap", "version": 0}),
    json.dumps({"type": "move", "move": "play nonsense", "version": -1}),
)
PACED_MESSAGES = (
    json.dumps({"type": "ping"}),
    "junk: not JSON at all {{{",
    json.dumps({"type": "ping"}),
    json.dumps({"type": "zap", "junk": "x" * 200}),
)
BIG_FRAME = json.dumps({"type": "ping", "pad": "x" * (1_000_000 - 30)})
"""A text frame just under 1 MB (the old server's largest frame is 1 MiB)."""
KEEP = 2000
"""At most this many lifetimes or times kept in a tally."""


class Ctx:
    """What an abuse knows: the server, its bounds, the parent's events."""

    def __init__(self, config: dict[str, Any], ready: Any, stop: Any) -> None:
        self.config = config
        self.port = int(config["port"])
        self.ready = ready
        self.stop = stop
        self.start = time.monotonic()
        self.deadline = self.start + float(config["seconds"])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/tables/{table_id}"

    def over(self) -> bool:
        return time.monotonic() > self.deadline or self.stop.is_set()

    async def wait(self, done: Callable[[], bool] = lambda: False) -> None:
        """Until the parent says stop (or the bound), or ``done()``."""
        while not self.over() and not done():
            await asyncio.sleep(0.1)

    def http(self, timeout: Any = 30.0) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=timeout, trust_env=False,
                                 transport=httpx.AsyncHTTPTransport(local_address=ABUSER))

    async def identity(self, http: httpx.AsyncClient) -> str | None:
        """A new browser's cookie (``GET /``), or None if the server would not make one."""
        http.cookies.clear()
        answer = await http.get("/")
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        http.cookies.clear()
        return cookie if answer.status_code == 200 and "parlour_session=" in cookie else None

    async def create(self, http: httpx.AsyncClient, cookie: str | None, body: dict[str, Any]) -> tuple[int, Any]:
        """``POST /api/tables``: (status, table id or the refusal's text)."""
        http.cookies.clear()
        answer = await http.post("/api/tables", json=body, headers={"Cookie": cookie} if cookie else None)
        http.cookies.clear()
        if answer.status_code == 200:
            return 200, str(answer.json()["table_id"])
        return answer.status_code, said(answer.status_code, answer.text)

    async def own_table(self, tally: dict[str, Any]) -> tuple[str | None, str] | None:
        """A new identity and a table of its own (``me`` and ``friend``): (cookie, table id), or None when the
        server refuses it (the refusal goes in ``tally`` and the phase is told the abuser is ready)."""
        async with self.http() as http:
            cookie = await self.identity(http)
            status, table = await self.create(http, cookie, {"game": self.config["game"], "options": {},
                                                             "seats": [{"kind": "me"}, {"kind": "friend"}]})
        if status != 200:
            tally["table_refused"] = f"{status} {table}"
            self.ready.set()
            return None
        return cookie, str(table)

    async def connect(self, table_id: str, cookie: str | None) -> ClientConnection:
        return await connect(self.ws_url(table_id), proxy=None, compression=None, max_size=None, open_timeout=10,
                             close_timeout=1, local_addr=(ABUSER, 0),
                             additional_headers={"Cookie": cookie} if cookie else None)


def said(status: int, text: str) -> str:
    """A refusal in a line: its status and the ``error`` of its JSON body (else the start of the body)."""
    with contextlib.suppress(ValueError, KeyError, TypeError):
        text = str(json.loads(text)["error"])
    return f"{status} {text[:160]}"


def bump(counts: dict[str, int], key: Any, by: int = 1) -> None:
    counts[str(key)] = counts.get(str(key), 0) + by


def closed_by(exc: ConnectionClosed) -> str:
    """How a connection ended: the server's close code, or ``dropped`` (no close frame came)."""
    return str(exc.rcvd.code) if exc.rcvd is not None else "dropped"


async def close_all(sockets: list[ClientConnection]) -> None:
    """Close every socket politely at once (at most 5 s), then drop what is left."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True), 5)
    for ws in sockets:
        with contextlib.suppress(Exception):
            ws.transport.abort()


async def cancel_all(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def hello(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    """Say hello; the ``welcome`` (raises ``RuntimeError`` with the error's code if one comes instead)."""
    await ws.send(json.dumps({"type": "hello"}))
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), max(0.001, deadline - time.monotonic())))
        if message.get("type") == "welcome":
            return dict(message)
        if message.get("type") == "error":
            raise RuntimeError(f"error {message.get('code')}")


# -- flood: a socket as fast as it takes messages, reconnecting (the first scenario of issue 16) ---------------
async def flood(ctx: Ctx) -> dict[str, Any]:
    """Send ``FLOOD_MESSAGES`` round and round on a table of the flooder's own as fast as the socket takes
    them, reconnecting when the server closes it; at most ``flood_limit`` messages and a tenth as many
    connections."""
    limit = int(ctx.config["flood_limit"])
    tally: dict[str, Any] = {"sent": 0, "connections": 0, "closed": {}, "refused": 0, "received": 0,
                             "rate_limited": 0, "lifetimes": []}
    own = await ctx.own_table(tally)
    if own is None:
        return tally
    cookie, table = own

    def over() -> bool:
        return ctx.over() or tally["sent"] >= limit or tally["connections"] >= max(1, limit // 10)

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                tally["received"] += 1
                if "rate_limited" in message:
                    tally["rate_limited"] += 1

    while not over():
        opened = time.monotonic()
        try:
            async with await ctx.connect(table, cookie) as ws:
                tally["connections"] += 1
                opened = time.monotonic()
                ctx.ready.set()
                reader = asyncio.create_task(drain(ws))
                try:
                    count = 0
                    while True:
                        await ws.send(FLOOD_MESSAGES[count % len(FLOOD_MESSAGES)])
                        tally["sent"] += 1
                        count += 1
                        if count % 50 == 0:
                            await asyncio.sleep(0)  # let the reader and the close handshake run
                            if over():
                                break
                finally:
                    reader.cancel()
        except ConnectionClosed as exc:
            bump(tally["closed"], closed_by(exc))
            if len(tally["lifetimes"]) < KEEP:
                tally["lifetimes"].append(time.monotonic() - opened)
        except (OSError, InvalidHandshake, TimeoutError):
            tally["refused"] += 1
            await asyncio.sleep(0.05)
    ctx.ready.set()
    tally["seconds"] = time.monotonic() - ctx.start
    return tally


async def count_states(ws: ClientConnection, tally: dict[str, Any], key: str) -> None:
    """Watch a table until the connection closes, counting its ``state`` messages in ``tally[key]``."""
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            if isinstance(raw, str) and '"type":"state"' in raw:
                tally[key] += 1


# -- bots: bots-only tables of expert bots, each watched (the second scenario of issue 16) ----------------------
async def bots(ctx: Ctx) -> dict[str, Any]:
    """``bot_tables`` tables of two expert bots, ``bots_per_person`` per new identity, each watched by a
    spectator (which keeps it from ending as idle) until stopped."""
    count, per = int(ctx.config["bot_tables"]), int(ctx.config["bots_per_person"])
    tally: dict[str, Any] = {"tables": [], "persons": 0, "refused": {}, "refusal": "", "changes": 0,
                             "watchers_refused": 0}
    sockets: list[ClientConnection] = []
    tasks: list[asyncio.Task[Any]] = []

    async with ctx.http() as http:
        cookie: str | None = None
        for number in range(count):
            if ctx.over():
                break
            if number % per == 0:
                cookie = await ctx.identity(http)
                tally["persons"] += 1
            status, table = await ctx.create(http, cookie, {"game": ctx.config["game"], "options": {}, "seats": [
                {"kind": "bot", "level": "expert", "name": "Expert A"},
                {"kind": "bot", "level": "expert", "name": "Expert B"}]})
            if status != 200:
                bump(tally["refused"], status)
                tally["refusal"] = tally["refusal"] or str(table)[:160]
                continue
            tally["tables"].append(table)
            try:
                ws = await ctx.connect(table, None)
                await hello(ws)
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed, RuntimeError):
                tally["watchers_refused"] += 1
                continue
            sockets.append(ws)
            tasks.append(asyncio.create_task(count_states(ws, tally, "changes")))
    ctx.ready.set()
    await ctx.wait()
    await cancel_all(tasks)
    await close_all(sockets)
    return tally


# -- tables: a client that drops its cookie makes tables until refused ---------------------------------------
async def tables(ctx: Ctx) -> dict[str, Any]:
    """``POST /api/tables`` with no cookie each time (every request a new identity on a server that makes one
    per request), from ``flood_workers`` concurrent clients, until ``flood_tables`` were made or 50 refusals
    came in a row."""
    limit = int(ctx.config["flood_tables"])
    body = {"game": ctx.config["game"], "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    tally: dict[str, Any] = {"made": 0, "refused": {}, "errors": 0, "first_refusal_after": None,
                             "first_refusal_seconds": None, "refusal": "", "seconds": 0.0, "made_seconds": 0.0}
    state = {"started": 0, "streak": 0}

    def over() -> bool:
        return ctx.over() or state["started"] >= limit or state["streak"] >= 50

    async def worker() -> None:
        async with ctx.http() as http:
            while not over():
                state["started"] += 1
                http.cookies.clear()
                try:
                    answer = await http.post("/api/tables", json=body)
                except httpx.HTTPError:
                    tally["errors"] += 1
                    state["started"] -= 1
                    state["streak"] += 1
                    await asyncio.sleep(0.05)
                    continue
                if answer.status_code == 200:
                    tally["made"] += 1
                    tally["made_seconds"] = time.monotonic() - ctx.start
                    state["streak"] = 0
                else:
                    state["started"] -= 1
                    state["streak"] += 1
                    bump(tally["refused"], answer.status_code)
                    if tally["first_refusal_after"] is None:
                        tally["first_refusal_after"] = tally["made"]
                        tally["first_refusal_seconds"] = time.monotonic() - ctx.start
                        tally["refusal"] = said(answer.status_code, answer.text)

    ctx.ready.set()
    await asyncio.gather(*(worker() for _ in range(int(ctx.config["flood_workers"]))))
    tally["seconds"] = time.monotonic() - ctx.start
    return tally


# -- replay: a large valid record posted again and again ---------------------------------------------------------
async def replay(ctx: Ctx) -> dict[str, Any]:
    """``replay_clients`` clients post the record at ``config["record"]`` to ``/api/replay`` over and over,
    reading each answer to its end (and counting its bytes), until ``replay_limit`` requests in all."""
    body = Path(ctx.config["record"]).read_bytes()
    limit = int(ctx.config["replay_limit"])
    tally: dict[str, Any] = {"requests": 0, "answered": 0, "refused": {}, "refusals": {}, "errors": 0,
                             "unfinished": 0, "cut_after": [], "bytes": 0, "times": [], "record_bytes": len(body)}
    state = {"started": 0}

    async def worker() -> None:
        async with ctx.http(httpx.Timeout(300.0, connect=10.0)) as http:
            while not ctx.over() and state["started"] < limit:
                state["started"] += 1
                tally["requests"] += 1
                sent = time.monotonic()
                try:
                    async with http.stream("POST", "/api/replay", content=body,
                                           headers={"Content-Type": "application/json"}) as answer:
                        size, head = 0, b""
                        async for chunk in answer.aiter_raw():
                            size += len(chunk)
                            if len(head) < 1000:
                                head += chunk[:1000]
                        if answer.status_code == 200:
                            tally["answered"] += 1
                            tally["bytes"] += size
                            tally["times"].append(time.monotonic() - sent)
                        else:
                            bump(tally["refused"], answer.status_code)
                            tally["refusals"].setdefault(str(answer.status_code), said(
                                answer.status_code, head.decode(errors="replace")))
                except httpx.HTTPError:
                    tally["errors"] += 1
                    await asyncio.sleep(0.1)
                except asyncio.CancelledError:
                    tally["unfinished"] += 1
                    tally["cut_after"].append(time.monotonic() - sent)
                    raise

    workers = [asyncio.create_task(worker()) for _ in range(int(ctx.config["replay_clients"]))]
    ctx.ready.set()
    await ctx.wait(lambda: all(w.done() for w in workers))
    await cancel_all(workers)
    return tally


# -- starve: turn timers and hints keep the people's bot pool busy -----------------------------------------------
async def starve(ctx: Ctx) -> dict[str, Any]:
    """One identity makes ``starve_tables`` tables of an untaken ``open`` seat against an expert bot with a
    5-second turn timer (the timer plays the open seat with a bot, and the expert answers: both in the people's
    bot pool), each watched by that identity (so that it does not end as idle), and a table of its own against
    a medium bot where ``starve_tabs`` connections (tabs) of its seat ask for a hint over and over, each as soon
    as the last one is answered (at most 19 a second: under the message rate)."""
    tally: dict[str, Any] = {"tables": [], "refused": {}, "refusal": "", "timer_changes": 0, "hints_asked": 0,
                             "hints": 0, "hint_times": [], "errors": {}, "tabs": 0, "tabs_closed": {},
                             "tabs_refused": 0}
    sockets: list[ClientConnection] = []
    tasks: list[asyncio.Task[Any]] = []

    async def tab(table: str, cookie: str | None) -> None:
        for _attempt in range(10):  # reconnects when the server closes the tab
            if ctx.over():
                return
            try:
                ws = await ctx.connect(table, cookie)
                sockets.append(ws)
                await ws.send(json.dumps({"type": "hello"}))
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                tally["tabs_refused"] += 1
                await asyncio.sleep(1.0)
                continue
            tally["tabs"] += 1
            try:
                await ask_hints(ws)
                return
            except ConnectionClosed as exc:
                bump(tally["tabs_closed"], closed_by(exc))
                await asyncio.sleep(1.0)

    async def ask_hints(ws: ClientConnection) -> None:
        version, turn, waiting, sent, next_at = None, False, False, 0.0, 0.0
        while not ctx.over():
            now = time.monotonic()
            if turn and not waiting and now >= next_at and version is not None:
                await ws.send(json.dumps({"type": "hint", "version": version}))
                tally["hints_asked"] += 1
                waiting, sent, next_at = True, now, now + 1 / 19
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.05 if turn and not waiting else 0.5)
            except TimeoutError:
                if waiting and time.monotonic() - sent > 60:
                    waiting = False
                continue
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                version, turn = message["version"], bool(message.get("legal"))
            elif kind == "hint":
                tally["hints"] += 1
                if len(tally["hint_times"]) < KEEP:
                    tally["hint_times"].append(time.monotonic() - sent)
                waiting = False
            elif kind == "error" and message.get("code") != "hello_required":
                bump(tally["errors"], message.get("code"))
                if message.get("version") is not None:
                    version = message["version"]
                waiting = False

    async with ctx.http() as http:
        cookie = await ctx.identity(http)
        ctx.ready.set()
        for _ in range(int(ctx.config["starve_tables"])):
            if ctx.over():
                break
            status, table = await ctx.create(http, cookie, {
                "game": ctx.config["game"], "options": {}, "turn_seconds": 5,
                "seats": [{"kind": "open"}, {"kind": "bot", "level": "expert"}]})
            if status != 200:
                bump(tally["refused"], status)
                tally["refusal"] = tally["refusal"] or str(table)[:160]
                continue
            tally["tables"].append(table)
            try:
                ws = await ctx.connect(table, cookie)
                sockets.append(ws)
                await hello(ws)
                tasks.append(asyncio.create_task(count_states(ws, tally, "changes")))
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed, RuntimeError):
                tally["tabs_refused"] += 1
        status, table = await ctx.create(http, cookie, {"game": ctx.config["game"], "options": {}, "seats": [
            {"kind": "me"}, {"kind": "bot", "level": "medium"}]})
        if status == 200:
            tally["tables"].append(table)
            tasks += [asyncio.create_task(tab(table, cookie)) for _ in range(int(ctx.config["starve_tabs"]))]
        else:
            bump(tally["refused"], status)
            tally["refusal"] = tally["refusal"] or str(table)[:160]
    await ctx.wait()
    await cancel_all(tasks)
    await close_all(sockets)
    return tally


# -- paced: sockets sending just over the rate, and sockets sending 1 MB frames ------------------------------------
async def paced(ctx: Ctx) -> dict[str, Any]:
    """On a table of the abuser's, ``paced_sockets`` tabs of its seat each send ``paced_rate`` messages a second
    (pings and junk, evenly spaced) and ``bytes_sockets`` tabs send 1 MB text frames back to back (at most
    ``bytes_cap`` bytes in all); a socket the server closes is opened again after 0.5 s (at most 30 times
    each).  Counts the connections the server closed and how long each had lived."""
    rate = float(ctx.config["paced_rate"])
    cap = int(ctx.config["bytes_cap"])
    kinds = ("messages", "bytes")
    tally: dict[str, Any] = {kind: {"connections": 0, "closed": {}, "lifetimes": [], "refused": 0, "sent": 0,
                                    "bytes": 0, "received": 0, "rate_limited": 0, "survived": 0} for kind in kinds}
    sockets: list[ClientConnection] = []

    async def drain(ws: ClientConnection, counts: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                counts["received"] += 1
                if isinstance(message, str) and "rate_limited" in message:
                    counts["rate_limited"] += 1

    async def slot(kind: str, table: str, cookie: str | None) -> None:
        counts = tally[kind]
        for _attempt in range(30):
            if ctx.over() or (kind == "bytes" and tally["bytes"]["bytes"] >= cap):
                return
            try:
                ws = await ctx.connect(table, cookie)
            except (OSError, InvalidHandshake, TimeoutError):
                counts["refused"] += 1
                await asyncio.sleep(0.5)
                continue
            sockets.append(ws)
            counts["connections"] += 1
            opened = time.monotonic()
            reader = asyncio.create_task(drain(ws, counts))
            try:
                await ws.send(json.dumps({"type": "hello"}))
                if kind == "messages":
                    await send_paced(ws, counts)
                else:
                    await send_big(ws, counts)
                counts["survived"] += 1
                return
            except ConnectionClosed as exc:
                bump(counts["closed"], closed_by(exc))
                if len(counts["lifetimes"]) < KEEP:
                    counts["lifetimes"].append(time.monotonic() - opened)
            finally:
                reader.cancel()
            await asyncio.sleep(0.5)

    async def send_paced(ws: ClientConnection, counts: dict[str, Any]) -> None:
        due, number = time.monotonic(), 0
        while not ctx.over():
            await ws.send(PACED_MESSAGES[number % len(PACED_MESSAGES)])
            counts["sent"] += 1
            number += 1
            due += 1 / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -0.5:  # far behind: no catching up in a burst
                due = time.monotonic()

    async def send_big(ws: ClientConnection, counts: dict[str, Any]) -> None:
        while not ctx.over() and counts["bytes"] < cap:
            await ws.send(BIG_FRAME)
            counts["sent"] += 1
            counts["bytes"] += len(BIG_FRAME)
            await asyncio.sleep(0)  # a send the kernel took at once does not yield: let the paced sockets send

    own = await ctx.own_table(tally)
    if own is None:
        return tally
    cookie, table = own
    tasks = [asyncio.create_task(slot("messages", table, cookie)) for _ in range(int(ctx.config["paced_sockets"]))]
    tasks += [asyncio.create_task(slot("bytes", table, cookie)) for _ in range(int(ctx.config["bytes_sockets"]))]
    ctx.ready.set()
    await ctx.wait(lambda: all(t.done() for t in tasks))
    await cancel_all(tasks)
    await close_all(sockets)
    return tally


# -- swarm: hundreds of spectators on one table -------------------------------------------------------------------
async def swarm(ctx: Ctx) -> dict[str, Any]:
    """``swarm`` spectators (no cookie) on the table ``table_id`` (the victim's), opened 20 at a time, each
    reading every message like a browser, until stopped."""
    target, count = str(ctx.config["table_id"]), int(ctx.config["swarm"])
    tally: dict[str, Any] = {"opened": 0, "refused": {}, "closed": {}, "lifetimes": [], "received": 0,
                             "bytes": 0, "open_seconds": None}
    sockets: list[ClientConnection] = []
    gate = asyncio.Semaphore(20)
    state = {"tried": 0}

    async def spectator() -> None:
        async with gate:
            if ctx.over():
                return
            try:
                ws = await ctx.connect(target, None)
                sockets.append(ws)
                await hello(ws)
            except InvalidHandshake as exc:
                bump(tally["refused"], getattr(getattr(exc, "response", None), "status_code", "handshake"))
                return
            except ConnectionClosed as exc:
                bump(tally["refused"], f"closed {closed_by(exc)}")
                return
            except (OSError, TimeoutError, RuntimeError) as exc:
                bump(tally["refused"], type(exc).__name__ if not isinstance(exc, RuntimeError) else str(exc))
                return
            finally:
                state["tried"] += 1
                if state["tried"] == count:
                    tally["open_seconds"] = time.monotonic() - ctx.start
            tally["opened"] += 1
        opened = time.monotonic()
        try:
            async for message in ws:
                tally["received"] += 1
                tally["bytes"] += len(message)
        except ConnectionClosed as exc:
            bump(tally["closed"], closed_by(exc))
            if len(tally["lifetimes"]) < KEEP:
                tally["lifetimes"].append(time.monotonic() - opened)
            return
        bump(tally["closed"], "normal")

    tasks = [asyncio.create_task(spectator()) for _ in range(count)]
    ctx.ready.set()
    await ctx.wait()
    await cancel_all(tasks)
    await close_all(sockets)
    return tally


ATTACKS: dict[str, Callable[[Ctx], Coroutine[Any, Any, dict[str, Any]]]] = {
    "flood": flood, "bots": bots, "tables": tables, "replay": replay, "starve": starve, "paced": paced,
    "swarm": swarm}


def run(kind: str, config: dict[str, Any], ready: Any, stop: Any, results: Any) -> None:
    """The abuser process: abuse ``kind`` until ``stop`` (or its bounds); its tally goes into ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
    tally: dict[str, Any]
    try:
        tally = asyncio.run(ATTACKS[kind](Ctx(config, ready, stop)))
    except Exception as exc:  # reported by the parent, beside the figures
        tally = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    ready.set()
    results.put(tally)
