"""The victims of ``benchmarks/web_abuse.py``, all from 127.0.0.1: people playing a medium bot (timing its
replies), a tab pinging its table, and a new person who must be served.  ``server`` is any object with ``url``
and ``ws_url(table_id)`` (``web_abuse.Server``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

VICTIM = "127.0.0.1"
"""Where the victims and the new person come from (the abuser: ``attacks.ABUSER``)."""
NEW_PERSON_SECONDS = 60.0
"""A new person not served within this long was not served."""


def victim_http(server: Any, timeout: float = 30.0) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=timeout, trust_env=False,
                             transport=httpx.AsyncHTTPTransport(local_address=VICTIM))


def refusal(answer: httpx.Response) -> str:
    """An error answer in a line: its status and the ``error`` of its JSON body (else the start of the body)."""
    try:
        text = str(answer.json()["error"])
    except (ValueError, KeyError, TypeError):
        text = answer.text
    return f"{answer.status_code} {text[:160]}"


async def new_person(http: httpx.AsyncClient) -> str:
    """A new browser: its first ``GET /`` makes its identity; returns the ``Cookie`` header it sends."""
    http.cookies.clear()
    answer = await http.get("/")
    if answer.status_code != 200:
        raise RuntimeError(refusal(answer))
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
        raise RuntimeError(refusal(answer))
    return str(answer.json()["table_id"])


class Socket:
    """One WebSocket to a table, as a browser tab: the cookie with the handshake, then ``hello``."""

    def __init__(self, ws: ClientConnection, table_id: str) -> None:
        self.ws = ws
        self.table_id = table_id
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None

    @classmethod
    async def open(cls, server: Any, table_id: str, cookie: str | None) -> Socket:
        ws = await connect(server.ws_url(table_id), proxy=None, max_size=None, compression=None, open_timeout=30,
                           close_timeout=2, local_addr=(VICTIM, 0),
                           additional_headers={"Cookie": cookie} if cookie else None)
        sock = cls(ws, table_id)
        try:
            await ws.send(json.dumps({"type": "hello"}))
            welcome = await sock.until("welcome", 30)
            sock.seat = welcome["seat"]
            await sock.until("state", 30)
        except BaseException:
            await sock.close()
            raise
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
            if message.get("type") == "error" and kind in ("welcome", "state"):
                raise RuntimeError(f"error {message.get('code')}: {message.get('message')}")

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

    server: Any
    http: httpx.AsyncClient
    game: str
    rng: random.Random
    cookie: str = ""
    sock: Socket | None = None
    tables: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def sit(self) -> None:
        """A new table against a medium bot, and a connection to it."""
        if not self.cookie:
            self.cookie = await new_person(self.http)
        if self.sock is not None:
            await self.sock.close()
            self.sock = None
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
                self.error(str(message["code"]))
                return None
            if message.get("type") == "state" and message["version"] > version:
                return message

    async def play(self, until: float, think: float, samples: list[float]) -> None:
        """Move whenever it is this person's turn (after ``think`` seconds on average) until ``until``;
        for every move after which the bot is to move, the time from sending it to the bot's move.  A new
        table when the match is over; a refused one (or a closed connection) is counted and tried again
        after a while."""
        while time.monotonic() < until:
            try:
                await self._play(until, think, samples)
            except (RuntimeError, TimeoutError, OSError, InvalidHandshake, ConnectionClosed) as exc:
                self.error(f"{type(exc).__name__}: {str(exc)[:80]}")
                if self.sock is not None:
                    await self.sock.close()
                    self.sock = None
                await asyncio.sleep(min(3.0, max(0.0, until - time.monotonic())))

    async def _play(self, until: float, think: float, samples: list[float]) -> None:
        while True:
            if self.sock is None:
                await self.sit()
            assert self.sock is not None and self.sock.state is not None
            state = self.sock.state
            version = state["version"]
            if time.monotonic() >= until:
                return
            if state["status"] in ("finished", "abandoned"):
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
                    elif reply is None:
                        self.error("no bot reply within 60 s")
            else:  # the bot moves first
                await self.changed(version, max(0.0, until - time.monotonic()))


async def serve_new_person(server: Any, rng: random.Random) -> dict[str, Any]:
    """A new person: a client with no cookie ``GET /``s, starts a table against an easy bot, opens its
    WebSocket, gets its state and makes one move.  ``{served, seconds, step, detail}``."""
    start = time.monotonic()
    out: dict[str, Any] = {"served": False, "seconds": None, "step": "GET /", "detail": ""}
    sock: Socket | None = None
    try:
        async with victim_http(server, NEW_PERSON_SECONDS) as http:
            cookie = await new_person(http)
            out["step"] = "POST /api/tables"
            table_id = await create_table(http, cookie, "twenty", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
            out["step"] = "WebSocket"
            sock = await Socket.open(server, table_id, cookie)
            out["step"] = "its turn"
            deadline = start + NEW_PERSON_SECONDS
            while sock.state is None or not sock.state["legal"]:
                if await sock.next(deadline - time.monotonic()) is None:
                    raise TimeoutError("no turn of its own")
            out["step"] = "a move"
            version = sock.state["version"]
            await sock.send({"type": "move", "move": rng.choice(sock.state["legal"]), "version": version})
            while True:
                message = await sock.next(deadline - time.monotonic())
                if message is None:
                    raise TimeoutError("the move was not taken")
                if message.get("type") == "error":
                    raise RuntimeError(f"error {message.get('code')}: {message.get('message')}")
                if message.get("type") == "state" and message["version"] > version:
                    break
        out.update(served=True, step="", seconds=time.monotonic() - start)
    except (RuntimeError, TimeoutError, OSError, InvalidHandshake, ConnectionClosed, httpx.HTTPError) as exc:
        out["detail"] = (str(exc) if isinstance(exc, RuntimeError) else f"{type(exc).__name__}: {exc}")[:160]
        out["seconds"] = time.monotonic() - start
    finally:
        if sock is not None:
            await sock.close()
    return out
