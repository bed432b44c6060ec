"""Abuse of ``parlour serve``: what a flood or a crowd of bots-only tables costs the people at other tables.

Starts a real ``parlour serve`` process on 127.0.0.1 (SQLite in a temporary
directory, bots waiting ``--bot-delay`` seconds like the real default 0.6) and
prints, each beside the same figure without the abuse:

a. Ping round trip (ms): a person at an ordinary table sends ``ping``
   ``--ping-rate`` times a second and times each ``pong`` -- quiet, and while
   another client (a separate process) floods ANOTHER table's socket with
   ``hello``, ``ping`` and junk as fast as it can, reconnecting whenever the
   server closes it for flooding (the messages it got out and the connections
   closed on it are counted).
b. A medium bot's reply (s): ``--players`` people, each at a table against a
   ``medium`` bot, make a move and time until the bot's move arrives in a
   ``state`` -- quiet, and while ``--bot-tables`` bots-only tables of two
   ``expert`` bots play, made by several persons (``--bots-per-person`` each,
   the server's ``--max-bot-tables``), each watched by a spectator.

Quiet and abuse phases of ``--seconds`` each alternate (``--rounds`` times,
the order swapped every round), on the same server and connections.  Bots-only
tables cannot be deleted, so the server ends idle tables after 3 s
(``--idle-minutes 0.05``): when a bots phase ends their spectators leave, and
the next phase waits until they are abandoned and the niced bot worker is idle.
The CPU each part used in each kind of phase is printed too.  The aims (issue
16): the p99 under abuse at most 1.5× the quiet p99, and pings under 100 ms.

    .venv/bin/python benchmarks/web_abuse.py                  # about 2.5 minutes
    .venv/bin/python benchmarks/web_abuse.py --seconds 5 --rounds 1
    .venv/bin/python benchmarks/web_abuse.py --bot-delay 0.2 --bot-tables 20

Every load is bounded (the phase's length; per flood phase ``--flood-limit``
messages and a tenth as many connections; ``--bot-tables`` tables) and goes
only to the server this script started; the server, the flooder and every
connection are stopped at the end, also on Ctrl-C or an error.  Progress goes
to stderr, the figures to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

HOST = "127.0.0.1"
"""The only address anything here talks to: the server this script starts."""
IDLE_MINUTES = 0.05
"""The server ends a table nobody is at after 3 s: how a bots phase ends."""
TICK = os.sysconf("SC_CLK_TCK")
FLOOD_MESSAGES = (
    json.dumps({"type": "hello"}),
    json.dumps({"type": "ping"}),
    "junk: not JSON at all {{{",
    json.dumps({"type": "zap", "version": 0}),
    json.dumps({"type": "move", "move": "play nonsense", "version": -1}),
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


# -- the server process ---------------------------------------------------------------------
def _die_with_parent() -> None:
    """In the server's process before it starts: SIGTERM when this script goes (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    """``python -m parlour serve`` on loopback, with its log in ``folder``."""

    def __init__(self, folder: Path, bot_delay: float, bots_per_person: int) -> None:
        self.port = free_port()
        self.log = folder / "server.log"
        self.command = [
            sys.executable, "-m", "parlour", "serve", "--host", HOST, "--port", str(self.port),
            "--db", f"sqlite:///{folder / 'parlour.db'}", "--bot-delay", str(bot_delay),
            "--idle-minutes", str(IDLE_MINUTES), "--max-bot-tables", str(bots_per_person),
            "--max-per-hour", "1000", "--max-open", "100",
        ]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/tables/{table_id}"

    def start(self) -> None:
        """Start it in a session of its own, so that Ctrl-C reaches only this script, which then stops it
        (and it gets SIGTERM should this script die without doing so)."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=dict(os.environ, PYTHONUNBUFFERED="1"), start_new_session=True,
                                         preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"parlour serve exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1, trust_env=False).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise SystemExit(f"parlour serve did not start within 30 s:\n{self.tail()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 15 s (its bot workers die with it)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no log)"

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of the server's event loop, its people's bot pool and its niced bots-only worker."""
        out = {"server": 0.0, "pool": 0.0, "niced": 0.0}
        if self.proc is None:
            return out
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                found = proc_stat(int(entry.name))
                if found is None:
                    continue
                parent, nice, seconds = found
                if int(entry.name) == self.proc.pid:
                    out["server"] += seconds
                elif parent == self.proc.pid:
                    out["niced" if nice > 0 else "pool"] += seconds
        return out


def proc_stat(pid: int) -> tuple[int, int, float] | None:
    """A process's parent, nice value and CPU seconds so far (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[16]), (int(fields[11]) + int(fields[12])) / TICK


# -- clients ---------------------------------------------------------------------------------
async def new_person(http: httpx.AsyncClient) -> str:
    """A new browser: its first ``GET /`` makes its identity; returns the ``Cookie`` header it sends."""
    http.cookies.clear()
    answer = await http.get("/")
    answer.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    http.cookies.clear()
    if "parlour_session=" not in cookie:
        raise RuntimeError("GET / set no parlour_session cookie")
    return cookie


async def create_table(http: httpx.AsyncClient, cookie: str, game: str, seats: list[dict[str, Any]]) -> str:
    answer = await http.post("/api/tables", json={"game": game, "options": {}, "seats": seats},
                             headers={"Cookie": cookie})
    http.cookies.clear()
    if answer.status_code != 200:
        raise RuntimeError(f"POST /api/tables: {answer.status_code} {answer.text[:300]}")
    return str(answer.json()["table_id"])


class Socket:
    """One WebSocket to a table, as a browser tab: the cookie with the handshake, then ``hello``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None

    @classmethod
    async def open(cls, server: Server, table_id: str, cookie: str | None) -> Socket:
        ws = await connect(server.ws_url(table_id), proxy=None, max_size=None, compression=None, open_timeout=30,
                           close_timeout=2, additional_headers={"Cookie": cookie} if cookie else None)
        sock = cls(ws)
        await ws.send(json.dumps({"type": "hello"}))
        welcome = await sock.until("welcome", 30)
        sock.seat = welcome["seat"]
        await sock.until("state", 30)
        return sock

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message (None if none came in time)."""
        try:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), max(timeout, 0.001)))
        except TimeoutError:
            return None
        if message.get("type") == "state":
            self.state = message
        return message

    async def until(self, kind: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(deadline - time.monotonic())
            if message is None:
                raise TimeoutError(f"no {kind} within {timeout:g} s")
            if message.get("type") == kind:
                return message

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


async def ping_phase(sock: Socket, seconds: float, rate: float, samples: list[float]) -> int:
    """Ping ``rate`` times a second for ``seconds``, one at a time; each pong's round trip goes into
    ``samples`` (seconds).  Returns the pings that got no pong within 10 s."""
    lost = 0
    start = time.monotonic()
    due = start
    while due < start + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        sent = time.perf_counter()
        await sock.send({"type": "ping"})
        while True:
            message = await sock.next(10 - (time.perf_counter() - sent))
            if message is None:
                lost += 1
                break
            if message.get("type") == "pong":
                samples.append(time.perf_counter() - sent)
                break
        due = max(due + 1 / rate, time.monotonic())
    return lost


@dataclass
class Player:
    """A person at a table against a medium bot (seat 1)."""

    server: Server
    http: httpx.AsyncClient
    game: str
    rng: random.Random
    cookie: str = ""
    sock: Socket | None = None
    tables: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    async def sit(self) -> None:
        """A new table against a medium bot, and a connection to it."""
        if not self.cookie:
            self.cookie = await new_person(self.http)
        if self.sock is not None:
            await self.sock.close()
        table_id = await create_table(self.http, self.cookie, self.game,
                                      [{"kind": "me"}, {"kind": "bot", "level": "medium"}])
        self.tables += 1
        self.sock = await Socket.open(self.server, table_id, self.cookie)
        if self.sock.seat != 0:
            raise RuntimeError(f"the host was welcomed to seat {self.sock.seat}, not 0")

    async def changed(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The next ``state`` past ``version`` (None on an error or when none comes in time)."""
        assert self.sock is not None
        deadline = time.monotonic() + timeout
        while True:
            message = await self.sock.next(deadline - time.monotonic())
            if message is None:
                return None
            if message.get("type") == "error":
                self.errors[message["code"]] = self.errors.get(message["code"], 0) + 1
                return None
            if message.get("type") == "state" and message["version"] > version:
                return message

    async def play(self, until: float, think: float, samples: list[float]) -> None:
        """Move whenever it is this person's turn (after ``think`` seconds on average) until ``until``;
        for every move after which the bot is to move, the time from sending it to the bot's move."""
        while True:
            assert self.sock is not None and self.sock.state is not None
            state = self.sock.state
            version = state["version"]
            if time.monotonic() >= until:
                return
            if state["status"] == "finished":
                await self.sit()
            elif state["status"] == "round_over":
                await self.sock.send({"type": "next_round", "version": version})
                await self.changed(version, 30)
            elif state["legal"]:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * think)
                sent = time.perf_counter()
                await self.sock.send({"type": "move", "move": self.rng.choice(state["legal"]), "version": version})
                mine = await self.changed(version, 30)
                if mine is not None and mine["status"] == "playing" and not mine["legal"]:
                    reply = await self.changed(mine["version"], 60)  # finish the sample even after ``until``
                    if reply is not None and (reply.get("last") or {}).get("seat") == 1:
                        samples.append(time.perf_counter() - sent)
            else:  # the bot moves first
                await self.changed(version, max(0.0, until - time.monotonic()))


# -- the flooder: a process of its own, so that it takes nothing from the measuring clients --------------
def flood_process(port: int, table_id: str, cookie: str, seconds: float, limit: int, ready: Any, stop: Any,
                  results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
    results.put(asyncio.run(flood(port, table_id, cookie, seconds, limit, ready, stop)))


async def flood(port: int, table_id: str, cookie: str, seconds: float, limit: int, ready: Any,
                stop: Any) -> dict[str, Any]:
    """Send ``FLOOD_MESSAGES`` round and round as fast as the socket takes them, reconnecting when the server
    closes it; at most ``seconds``, ``limit`` messages and ``limit // 10`` connections."""
    url = f"ws://{HOST}:{port}/ws/tables/{table_id}"
    tally = {"sent": 0, "connections": 0, "closed_1008": 0, "closed_other": 0, "refused": 0, "received": 0,
             "rate_limited": 0}
    deadline = time.monotonic() + seconds

    def over() -> bool:
        return (time.monotonic() > deadline or stop.is_set() or tally["sent"] >= limit
                or tally["connections"] >= max(1, limit // 10))

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                tally["received"] += 1
                if "rate_limited" in message:
                    tally["rate_limited"] += 1

    while not over():
        try:
            async with connect(url, proxy=None, compression=None, open_timeout=10, close_timeout=1,
                               additional_headers={"Cookie": cookie}) as ws:
                tally["connections"] += 1
                ready.set()
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
            tally["closed_1008" if exc.rcvd is not None and exc.rcvd.code == 1008 else "closed_other"] += 1
        except (OSError, InvalidHandshake, TimeoutError):
            tally["refused"] += 1
            await asyncio.sleep(0.05)
    ready.set()
    return tally


# -- the benchmark ------------------------------------------------------------------------------
@dataclass
class Condition:
    """What one kind of phase measured, over all its rounds."""

    samples: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    lost: int = 0


class Bench:
    def __init__(self, args: argparse.Namespace, server: Server, folder: Path) -> None:
        self.args = args
        self.server = server
        self.folder = folder
        self.results: dict[tuple[str, bool], Condition] = {
            (kind, abuse): Condition() for kind in ("ping", "reply") for abuse in (False, True)}
        self.flood: dict[str, float] = {}
        self.bots = {"tables": 0, "persons": 0, "changes": 0, "settle": 0.0, "after_cpu": 0.0}
        self.load = os.getloadavg()[0]
        """The machine's load average as the run starts (other work skews the figures)."""
        self.flooders: list[multiprocessing.process.BaseProcess] = []
        """Flooder processes alive (stopped in ``finally`` whatever happens)."""

    def stop_flooders(self) -> None:
        for proc in self.flooders:
            if proc.is_alive():
                proc.terminate()
            proc.join(5)
        self.flooders.clear()

    async def run(self) -> None:
        args = self.args
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30, trust_env=False) as http:
            self.http = http
            pinger_cookie = await new_person(http)
            ping_table = await create_table(http, pinger_cookie, args.game, [{"kind": "me"}, {"kind": "friend"}])
            self.pinger = await Socket.open(self.server, ping_table, pinger_cookie)
            self.flooder_cookie = await new_person(http)
            self.players = [Player(self.server, http, args.game, random.Random(f"{args.seed}:{n}"))
                            for n in range(args.players)]
            try:
                for player in self.players:
                    await player.sit()
                # Warm-up (not measured): the people's bot pool starts its workers, the pinger its connection.
                await asyncio.gather(ping_phase(self.pinger, 1.0, args.ping_rate, []),
                                     *(p.play(time.monotonic() + 3.0, args.think, []) for p in self.players))
                for number in range(args.rounds):
                    for kind in ("ping", "reply"):
                        for abuse in ((False, True) if number % 2 == 0 else (True, False)):
                            await self.phase(kind, abuse, number)
            finally:
                await self.pinger.close()
                for player in self.players:
                    if player.sock is not None:
                        await player.sock.close()

    async def phase(self, kind: str, abuse: bool, number: int) -> None:
        args = self.args
        label = f"round {number + 1}/{args.rounds}: {'ping' if kind == 'ping' else 'bot reply'}, " + (
            ("flood" if kind == "ping" else f"{args.bot_tables} bots-only tables") if abuse else "quiet")
        print(f"  {label} ...", end="", flush=True, file=sys.stderr)
        result = self.results[(kind, abuse)]
        load: Any = None
        if abuse:
            load = await (self.start_flood() if kind == "ping" else self.start_bots())
        before_cpu, before = self.cpu(load), time.monotonic()
        size = len(result.samples)
        # (on an error or Ctrl-C, main() stops the flooder and the server: nothing to wind down here)
        if kind == "ping":
            result.lost += await ping_phase(self.pinger, args.seconds, args.ping_rate, result.samples)
        else:
            until = time.monotonic() + args.seconds
            await asyncio.gather(*(p.play(until, args.think, result.samples) for p in self.players))
        after_cpu, elapsed = self.cpu(load), time.monotonic() - before
        result.seconds += elapsed
        for part in after_cpu:
            result.cpu[part] = result.cpu.get(part, 0.0) + after_cpu[part] - before_cpu.get(part, 0.0)
        if abuse and kind == "ping":
            await self.end_flood(load)
        elif abuse:
            await self.end_bots(load)
        print(f" {len(result.samples) - size} samples", file=sys.stderr, flush=True)

    def cpu(self, load: Any) -> dict[str, float]:
        """CPU seconds so far of the server's parts and of the flooder (``load`` of a flood phase)."""
        out = self.server.cpu()
        if isinstance(load, tuple) and isinstance(load[0], multiprocessing.process.BaseProcess):
            found = proc_stat(load[0].pid)
            out["flooder"] = found[2] if found is not None else 0.0
        return out

    # -- a: the flood ----------------------------------------------------------------------------
    async def start_flood(self) -> tuple[Any, Any, Any]:
        """A fresh table of the flooder's (the last one was ended as idle), and the flooder process."""
        table_id = await create_table(self.http, self.flooder_cookie, self.args.game,
                                      [{"kind": "me"}, {"kind": "friend"}])
        context = multiprocessing.get_context("spawn")
        ready, stop, results = context.Event(), context.Event(), context.Queue()
        proc = context.Process(target=flood_process, daemon=True, args=(
            self.server.port, table_id, self.flooder_cookie, self.args.seconds + 15, self.args.flood_limit,
            ready, stop, results))
        proc.start()
        self.flooders.append(proc)
        if not await asyncio.to_thread(ready.wait, 30):
            raise RuntimeError("the flooder did not connect within 30 s")
        await asyncio.sleep(0.5)  # the flood in full swing before the measuring starts
        return proc, stop, results

    async def end_flood(self, load: tuple[Any, Any, Any]) -> None:
        """Stop the flooder; its counts go into ``self.flood``."""
        proc, stop, results = load
        stop.set()
        tally = await asyncio.to_thread(results.get, True, 30)
        await asyncio.to_thread(proc.join, 10)
        self.stop_flooders()
        for key, value in tally.items():
            self.flood[key] = self.flood.get(key, 0) + value
        self.flood["seconds"] = self.flood.get("seconds", 0.0) + self.args.seconds + 0.5
        await asyncio.sleep(1.0)  # the server finishes with the last connection

    # -- b: bots-only tables -------------------------------------------------------------------
    async def start_bots(self) -> tuple[list[str], list[Socket], list[asyncio.Task[None]]]:
        """``--bot-tables`` tables of two expert bots, ``--bots-per-person`` per new person, each watched."""
        args = self.args
        tables: list[str] = []
        watchers: list[Socket] = []
        tasks: list[asyncio.Task[None]] = []
        cookie = ""
        for number in range(args.bot_tables):
            if number % args.bots_per_person == 0:
                cookie = await new_person(self.http)
                self.bots["persons"] += 1
            table_id = await create_table(self.http, cookie, args.game, [
                {"kind": "bot", "level": "expert", "name": "Expert A"},
                {"kind": "bot", "level": "expert", "name": "Expert B"}])
            tables.append(table_id)
            watcher = await Socket.open(self.server, table_id, None)
            watchers.append(watcher)
            tasks.append(asyncio.create_task(self.watch(watcher)))
        self.bots["tables"] += len(tables)
        return tables, watchers, tasks

    async def watch(self, watcher: Socket) -> None:
        """A spectator: counts the table's changes (and keeps it from ending as idle)."""
        with contextlib.suppress(ConnectionClosed):
            async for raw in watcher.ws:
                if '"type":"state"' in raw:
                    self.bots["changes"] += 1

    async def end_bots(self, load: tuple[list[str], list[Socket], list[asyncio.Task[None]]]) -> None:
        """The spectators leave; wait until the server ended every table as idle and its niced worker is idle."""
        tables, watchers, tasks = load
        start = time.monotonic()
        for watcher in watchers:
            await watcher.close()
        for task in tasks:
            task.cancel()
        cpu_before = self.server.cpu()["niced"]
        deadline = time.monotonic() + 60
        live = list(tables)
        while live and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            statuses = [(await self.http.get(f"/api/tables/{t}")).json().get("status") for t in live]
            live = [t for t, s in zip(live, statuses) if s in ("playing", "round_over")]
        last = self.server.cpu()["niced"]
        while time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            now = self.server.cpu()["niced"]
            if now == last:
                break
            last = now
        self.bots["settle"] += time.monotonic() - start
        self.bots["after_cpu"] += last - cpu_before  # the niced worker finishing the moves it had begun


def percentile(values: list[float], share: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(bench: Bench, started: float) -> None:
    args = bench.args
    rows = []
    for kind, name, unit, scale, digits in (
        ("ping", f"a. ping round trip, flood on another table ({args.ping_rate:g}/s)", "ms", 1000.0, 1),
        ("reply", f"b. medium bot's reply, {args.bot_tables} bots-only expert tables", "s", 1.0, 3),
    ):
        quiet, abused = bench.results[(kind, False)], bench.results[(kind, True)]
        q50, q99 = percentile(quiet.samples, 0.5) * scale, percentile(quiet.samples, 0.99) * scale
        a50, a99 = percentile(abused.samples, 0.5) * scale, percentile(abused.samples, 0.99) * scale
        rows.append((f"{name} [{unit}]", f"{q50:.{digits}f} / {q99:.{digits}f}", f"{a50:.{digits}f} / {a99:.{digits}f}",
                     f"{a99 / q99:.2f}×" if q99 > 0 else "-", f"{len(quiet.samples)} / {len(abused.samples)}"))
    head = ("measure", "quiet p50 / p99", "under abuse p50 / p99", "p99 ratio", "samples")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print(f"parlour serve under abuse ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores; "
          f"{args.game}, bot delay {args.bot_delay:g} s; {args.rounds} round(s) of 4 phases of {args.seconds:g} s; "
          f"{time.monotonic() - started:.0f} s in all; load average {bench.load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after)")
    for row in [head, *rows]:
        print("  " + "  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                               for i, (cell, width) in enumerate(zip(row, widths))))
    print("  aims (issue 16): p99 under abuse at most 1.5× the quiet p99; pings under 100 ms")

    pings = bench.results[("ping", True)].samples
    if pings:
        print(f"  pings under flood: p90 {percentile(pings, 0.9) * 1000:.1f} ms, max {max(pings) * 1000:.1f} ms, "
              f"{sum(p > 0.1 for p in pings)} of {len(pings)} over 100 ms, {sum(p > 0.01 for p in pings)} over 10 ms")
    flood = bench.flood
    seconds = flood.get("seconds", 0.0) or math.nan
    lost = bench.results[("ping", False)].lost + bench.results[("ping", True)].lost
    print(f"  flood: {flood.get('sent', 0):,.0f} messages out ({flood.get('sent', 0) / seconds:,.0f}/s) over "
          f"{flood.get('connections', 0):,.0f} connections; closed by the server (1008) "
          f"{flood.get('closed_1008', 0):,.0f}, otherwise {flood.get('closed_other', 0):,.0f}, refused "
          f"{flood.get('refused', 0):,.0f}; {flood.get('received', 0):,.0f} answers back, "
          f"{flood.get('rate_limited', 0):,.0f} of them rate_limited; pings without pong {lost}")
    errors = {}
    for player in bench.players:
        for code, count in player.errors.items():
            errors[code] = errors.get(code, 0) + count
    print(f"  bots-only: {bench.bots['tables']} tables by {bench.bots['persons']} persons, "
          f"{bench.bots['changes']} changes (moves, deals) seen by their spectators; after the phases, "
          f"{bench.bots['settle']:.1f} s waiting for them to end ({bench.bots['after_cpu']:.1f} CPU s of the niced "
          f"worker); players' tables {sum(p.tables for p in bench.players)}, errors "
          + (", ".join(f"{c} {n}" for c, n in sorted(errors.items())) or "none"))
    print("  CPU, share of one core (server loop / people's bot pool / niced bots-only worker / flooder):")
    for kind, name in (("ping", "a"), ("reply", "b")):
        for abuse in (False, True):
            result = bench.results[(kind, abuse)]
            share = [result.cpu.get(part, 0.0) / result.seconds * 100 if result.seconds else math.nan
                     for part in ("server", "pool", "niced", "flooder")]
            print(f"    {name} {'under abuse' if abuse else 'quiet      '}  " + " / ".join(f"{s:3.0f}%" for s in share))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase (default 15)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of quiet/abuse phases for each measure, the order swapped each round (2)")
    parser.add_argument("--game", default="twenty", help="a two-player game id (default twenty)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds the server's bots wait before moving (the real default, 0.6)")
    parser.add_argument("--ping-rate", type=float, default=5.0, help="pings a second (default 5)")
    parser.add_argument("--players", type=int, default=6,
                        help="people playing a medium bot in the bot-reply phases, each at a table (default 6)")
    parser.add_argument("--think", type=float, default=0.3, help="their average think time in seconds (0.3)")
    parser.add_argument("--bot-tables", type=int, default=10,
                        help="bots-only tables of two expert bots in an abuse phase (default 10)")
    parser.add_argument("--bots-per-person", type=int, default=2,
                        help="bots-only tables each person makes, the server's --max-bot-tables (default 2)")
    parser.add_argument("--flood-limit", type=int, default=5_000_000,
                        help="at most this many messages (and a tenth as many connections) per flood phase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.seconds <= 0 or args.rounds < 1 or args.players < 1 or args.bot_tables < 1 or args.bots_per_person < 1:
        parser.error("--seconds, --rounds, --players, --bot-tables and --bots-per-person must be positive")
    if args.seconds > 600 or args.bot_tables > 100 or args.players > 50 or args.flood_limit > 50_000_000:
        parser.error("keep it bounded: --seconds ≤ 600, --bot-tables ≤ 100, --players ≤ 50, --flood-limit ≤ 5e7")
    if args.ping_rate <= 0 or args.ping_rate > 20:
        parser.error("--ping-rate must be above 0 and at most 20 (the server's message rate)")

    folder = Path(tempfile.mkdtemp(prefix="parlour-web-abuse-"))
    server = Server(folder, args.bot_delay, args.bots_per_person)
    bench = Bench(args, server, folder)
    started = time.monotonic()
    failed = True
    try:
        server.start()
        known = {g["id"]: g["players"] for g in httpx.get(f"{server.url}/api/games", trust_env=False).json()}
        if known.get(args.game) != 2:
            raise SystemExit(f"--game must be a two-player game: {sorted(g for g, n in known.items() if n == 2)}")
        print(f"server: {' '.join(server.command[1:])}", file=sys.stderr)
        asyncio.run(bench.run())
        if not server.alive():
            raise SystemExit(f"the server died:\n{server.tail()}")
        failed = False
    except KeyboardInterrupt:
        print("\ninterrupted: stopping the flooder and the server", file=sys.stderr)
    finally:
        bench.stop_flooders()
        server.stop()
        if failed:
            print(f"server log: {server.log}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    if failed:
        sys.exit(1)
    report(bench, started)


if __name__ == "__main__":
    main()
