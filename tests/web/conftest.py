"""Fixtures for the web tests: a real ``parlour serve`` process on loopback,
SQLite and PostgreSQL databases, and a small synchronous WebSocket client.

The server always runs as a separate process (``python -m parlour serve``),
so the tests see exactly what a browser sees, and persistence tests can kill
it with SIGKILL and start it again on the same port and database.

PostgreSQL: ``postgres_url`` starts a throw-away server of its own with
``initdb``/``pg_ctl`` from ``/usr/lib/postgresql/*/bin`` (as the ``postgres``
OS user when running as root) and gives every test a fresh database.  The
binaries come from ``scripts/test-setup.sh``; without them the tests fail,
they never skip.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import ClientConnection, connect

from parlour import record as records
from parlour.game import State
from parlour.throwaway_postgres import PostgresServer, free_port

# One module whatever name a test imports it by (``from .conftest import …`` or
# ``from tests.web.conftest import …``), so that there is one ServerProcess class.
for _alias in ("web.conftest", "tests.web.conftest"):
    sys.modules.setdefault(_alias, sys.modules[__name__])

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
START_TIMEOUT = 30.0
KNOWN_CODES = {
    "malformed", "too_large", "unauthorized", "hello_required", "stale", "not_your_turn",
    "syntax", "illegal", "ambiguous", "not_allowed", "not_found", "rate_limited", "too_many",
}


class ServerProcess:
    """``python -m parlour serve`` as a real subprocess on 127.0.0.1.

    ``start()`` waits until ``GET /api/games`` answers; ``kill()`` is SIGKILL
    (a crash), ``stop()`` a polite SIGTERM; ``restart()`` starts it again on
    the same port and database.  Everything it prints goes to ``log_path``
    (shown by pytest when a test fails).
    """

    instances: list[ServerProcess] = []  # noqa: RUF012 (every server of the running test)

    def __init__(
        self, db_url: str, port: int | None = None, bot_delay: float = 0.05, log_path: Path | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.extra = extra
        """More ``parlour serve`` options (limits)."""
        self.people: list[Person] = []
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="parlour-serve-", suffix=".log")
            os.close(fd)
            log_path = Path(name)
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        ServerProcess.instances.append(self)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no trailing slash)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:PORT`` (no trailing slash); tables are at ``/ws/tables/{id}``."""
        return f"ws://127.0.0.1:{self.port}"

    def table_ws_url(self, table_id: str) -> str:
        """The WebSocket address of one table."""
        return f"{self.ws_url}/ws/tables/{table_id}"

    def command(self) -> list[str]:
        """The command line that starts the server."""
        return [
            sys.executable, "-m", "parlour", "serve", "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.extra,
        ]

    def start(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        """Spawn the server and wait until it answers; raise with its output if it dies or hangs."""
        if self.alive():
            raise RuntimeError("the server is already running")
        self.starts += 1
        env = self.environment()
        with open(self.log_path, "ab") as log:
            log.write(f"--- start #{self.starts}: {' '.join(self.command())}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.cwd, env=env
            )
        deadline = time.monotonic() + timeout
        with httpx.Client(trust_env=False, timeout=2.0) as client:
            while True:
                code = self.proc.poll()
                if code is not None:
                    raise RuntimeError(f"parlour serve exited with code {code} while starting:\n{self.output()}")
                try:
                    if client.get(f"{self.url}/api/games").status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(
                        f"parlour serve did not answer GET /api/games within {timeout:.0f} s:\n{self.output()}"
                    )
                time.sleep(0.1)

    cwd: Path = ROOT
    """Where the server runs."""

    def environment(self) -> dict[str, str]:
        """The server's environment variables."""
        return dict(os.environ, PYTHONUNBUFFERED="1")

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash or power cut would, and wait for it to go."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def close_people(self) -> None:
        """Close the HTTP clients of every person made for this server."""
        for person in self.people:
            person.close()
        self.people.clear()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it has not gone within ``timeout``."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        """Start again on the same port and database (stopping it first if it still runs)."""
        self.stop()
        return self.start(timeout)

    def output(self, tail: int = 200) -> str:
        """The last ``tail`` lines the server printed."""
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-tail:])

    # -- HTTP conveniences -----------------------------------------------------
    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """``GET`` a path of this server."""
        with httpx.Client(trust_env=False, timeout=30.0) as client:
            return client.get(self.url + path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """``POST`` to a path of this server (``json=…`` or ``content=…``)."""
        with httpx.Client(trust_env=False, timeout=30.0) as client:
            return client.post(self.url + path, **kwargs)

    def person(self, name: str | None = None, address: str | None = None) -> Person:
        """A new browser: its own identity (session cookie), with ``name`` chosen if given, at ``address``
        (a loopback address: 127.0.0.1 by default)."""
        person = Person(self, name, address)
        self.people.append(person)
        return person

    def create_table(
        self, game: str = "twenty", seats: list[dict[str, Any]] | None = None, options: dict[str, Any] | None = None,
        host: Person | None = None, **extra: Any,
    ) -> dict[str, Any]:
        """``POST /api/tables`` by ``host`` (a new person by default), with a ``me`` and a ``friend`` seat by
        default; every ``friend`` invitation is accepted by a new person.  Each person's seat in the answer
        gets ``"person"``: the :class:`Person` who holds it; the answer gets ``"host"``."""
        host = host or self.person("Host")
        body = {"game": game, "options": options or {}, "seats": seats or [{"kind": "me"}, {"kind": "friend"}]}
        body.update(extra)
        answer = host.post("/api/tables", json=body)
        assert answer.status_code in (200, 201), (answer.status_code, answer.text)
        table: dict[str, Any] = answer.json()
        invites = {i["seat"]: i["url"] for i in table["invites"]}
        for seat in table["seats"]:
            if seat["kind"] == "me":
                seat["person"] = host
            elif seat["kind"] == "friend":
                friend = self.person(f"Friend {seat['seat'] + 1}")
                got = friend.accept(invites[seat["seat"]])
                assert got.status_code == 200, got.text
                seat["person"] = friend
        table["host"] = host
        return table

    def table(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}``."""
        answer = self.get(f"/api/tables/{table_id}")
        assert answer.status_code == 200, (answer.status_code, answer.text)
        summary: dict[str, Any] = answer.json()
        return summary


class Person:
    """One browser as the server sees it: an HTTP client that keeps the session cookie (the player's
    identity) and hands it to its WebSocket connections."""

    def __init__(self, server: ServerProcess, name: str | None = None, address: str | None = None) -> None:
        self.server = server
        self.address = address
        """The loopback address its connections come from (127.0.0.1 unless given): another address is
        another client as far as the server's limits per address go."""
        transport = httpx.HTTPTransport(local_address=address) if address else None
        self.http = httpx.Client(base_url=server.url, trust_env=False, timeout=30.0, transport=transport)
        first = self.http.get("/")
        assert first.status_code == 200 and "parlour_session" in self.http.cookies, first.headers
        if name:
            named = self.put("/api/me", json={"name": name})
            assert named.status_code == 200, named.text

    @property
    def cookie(self) -> str:
        """The ``Cookie`` header a browser would send."""
        return "; ".join(f"{key}={value}" for key, value in self.http.cookies.items())

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.get(path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.post(path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.put(path, **kwargs)

    def accept(self, url: str, name: str | None = None) -> httpx.Response:
        """Open an invitation link (``/table/ID#invite=CODE``) and take its seat."""
        path, _, fragment = url.partition("#invite=")
        table_id = path.rstrip("/").rsplit("/", 1)[-1]
        body: dict[str, Any] = {"invite": fragment}
        if name:
            body["name"] = name
        return self.post(f"/api/tables/{table_id}/accept", json=body)

    def close(self) -> None:
        self.http.close()


# -- fixtures -------------------------------------------------------------------

@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'parlour.db'}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session (stopped at its end)."""
    try:
        server = PostgresServer()
    except FileNotFoundError as missing:
        pytest.fail(str(missing), pytrace=False)
    try:
        server.start()
    except Exception:
        server.stop()
        raise
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh database on the session's PostgreSQL server."""
    return postgres_server.create_database()


FAST_CLIENTS = ("--message-rate", "1000", "--kb-rate", "100000", "--replays-per-minute", "100000",
                "--health-checks-per-minute", "100000")
"""Test clients play far faster than people: the ``server`` fixtures let a connection send 1,000
messages and 100 MB a second, and an address ask for any number of replays (the rate limits themselves
are tested on servers with the defaults)."""


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A running server on a fresh SQLite database (stopped after the test)."""
    proc = ServerProcess(sqlite_url, log_path=tmp_path / "server.log", extra=FAST_CLIENTS).start()
    yield proc
    proc.stop()


@pytest.fixture
def pg_server(postgres_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A running server on a fresh PostgreSQL database (stopped after the test)."""
    proc = ServerProcess(postgres_url, log_path=tmp_path / "server-pg.log", extra=FAST_CLIENTS).start()
    yield proc
    proc.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def any_server(request: pytest.FixtureRequest) -> ServerProcess:
    """The test twice: on SQLite (``server``) and on PostgreSQL (``pg_server``)."""
    name = "server" if request.param == "sqlite" else "pg_server"
    proc: ServerProcess = request.getfixturevalue(name)
    return proc


@pytest.fixture(autouse=True)
def _servers_of_the_test() -> Iterator[None]:
    """Stop every server a test started, even one it made by hand."""
    ServerProcess.instances.clear()
    yield
    for proc in ServerProcess.instances:
        proc.stop()
        proc.close_people()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failing test shows the output of the servers it ran."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when in ("setup", "call"):
        servers = list(ServerProcess.instances)
        funcargs = getattr(item, "funcargs", {})
        servers += [v for v in funcargs.values() if isinstance(v, ServerProcess) and v not in servers]
        for index, proc in enumerate(servers):
            report.sections.append((f"parlour serve #{index + 1} ({proc.log_path})", proc.output()))


# -- WebSocket client ---------------------------------------------------------

_DIRECT = {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {}
"""websockets ≥ 17 asks for ``legacy=True`` to use ``connect()`` without ``with``."""


class Client:
    """A synchronous WebSocket connection to one table, as a browser tab.

    ``Client(server, table_id, person)`` opens it with the person's cookie
    (``None``: a browser that never visited), says ``hello`` and waits for
    ``welcome`` and the first ``state`` (``hello=False`` skips that).  Every
    frame received is kept in :attr:`frames`; the newest ``state`` is
    :attr:`state`.
    """

    def __init__(
        self, server: ServerProcess, table_id: str, person: Person | None = None, *, hello: bool = True,
        timeout: float = 10.0, origin: str | None = None, address: str | None = None,
    ) -> None:
        self.server = server
        self.table_id = table_id
        self.person = person
        self.timeout = timeout
        headers = {"Cookie": person.cookie} if person is not None else {}
        address = address or getattr(person, "address", None)
        source = {"source_address": (address, 0)} if address else {}
        self.ws: ClientConnection = connect(
            server.table_ws_url(table_id), open_timeout=timeout, proxy=None, max_size=None, compression=None,
            additional_headers=headers, origin=origin, **_DIRECT, **source,  # type: ignore[arg-type]
        )
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str | bytes] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        if hello:
            self.hello()

    def hello(self, token: str | None = None) -> dict[str, Any]:
        """Take the person's seat (or watch); waits for ``welcome`` and the first ``state``.
        ``token``: a seat's secret link of the first release."""
        self.send({"type": "hello", "token": token} if token else {"type": "hello"})
        self.welcome = self.recv_until("welcome")
        self.recv_until("state")
        return self.welcome

    @property
    def seat(self) -> int | None:
        return None if self.welcome is None else self.welcome.get("seat")

    def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message."""
        self.ws.send(json.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        """Send any text (a text frame) or bytes (a binary frame)."""
        self.ws.send(data)

    def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message, decoded (``TimeoutError`` when none comes)."""
        raw = self.ws.recv(timeout=self.timeout if timeout is None else timeout)
        self.raw.append(raw)
        message = json.loads(raw)
        assert isinstance(message, dict), f"server sent a non-object: {raw!r:.200}"
        self.frames.append(message)
        if message.get("type") == "state":
            self.state = message
        elif message.get("type") == "seats" and self.state is not None:
            self.state["seats"] = message["seats"]
        return message

    def recv_until(
        self, kind: str, predicate: Callable[[dict[str, Any]], bool] | None = None, timeout: float | None = None
    ) -> dict[str, Any]:
        """Read until a message of type ``kind`` (and matching ``predicate``) comes; return it."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        seen: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind!r} message came; saw {seen[-10:]}")
            message = self.recv(left)
            if message.get("type") == kind and (predicate is None or predicate(message)):
                return message
            seen.append(json.dumps(message)[:300])

    def wait_version(self, version: int, timeout: float | None = None) -> dict[str, Any]:
        """Read until a ``state`` with at least ``version``."""
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return self.recv_until("state", lambda m: m["version"] >= version, timeout)

    def ping(self, timeout: float | None = None) -> list[dict[str, Any]]:
        """Send ``ping``; return everything that came before the ``pong``."""
        start = len(self.frames)
        self.send({"type": "ping"})
        self.recv_until("pong", timeout=timeout)
        return self.frames[start:-1]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- playing and checking ---------------------------------------------------

def play_to_end(
    clients: list[Client], rng: random.Random, *, max_changes: int = 2000, stop_at: int | None = None,
    timeout: float = 30.0, watchers: tuple[Client, ...] = (),
) -> dict[str, Any]:
    """Drive a table with these seated clients: random legal moves, ``next_round`` at round ends.

    Other seats (bots) move by themselves; ``watchers`` (spectators) read
    along.  Stops when the match is finished (or at version ``stop_at``);
    returns the last state every client agrees on.
    """
    for _ in range(max_changes):
        version = max(c.state["version"] for c in clients if c.state is not None)
        for c in (*clients, *watchers):
            c.wait_version(version, timeout)
        states = [c.state for c in clients]
        assert all(s is not None and s["version"] == version for s in states), "clients disagree on the version"
        first = states[0]
        assert first is not None
        if first["status"] == "finished" or (stop_at is not None and version >= stop_at):
            return first
        mover = next((c for c in clients if c.state and c.state["legal"]), None)
        if first["status"] == "round_over":
            clients[0].send({"type": "next_round", "version": version})
        elif mover is not None:
            assert mover.state is not None
            mover.send({"type": "move", "move": rng.choice(mover.state["legal"]), "version": version})
        # else: a bot is to move
        for c in (*clients, *watchers):
            got = c.recv_until("state", lambda m, v=version: m["version"] > v, timeout)
            assert got["version"] == version + 1, f"version jumped from {version} to {got['version']}"
    raise AssertionError(f"no end after {max_changes} changes")


def states_by_version(record_data: dict[str, Any]) -> list[State]:
    """The table's state at every version (0: the first deal; +1 a move or a new round), from its record.

    Valid when nothing was undone.
    """
    rec = records.from_data(record_data)
    game = rec.game
    result: list[State] = []
    state: State | None = None
    for rnd in rec.rounds:
        if state is None:
            state = game.new_match(options=rec.options, first=rec.first, names=rec.players, deal=rnd.deal)
        else:
            state.next_round(rnd.deal)
        result.append(state.copy())
        for text in rnd.moves:
            state.apply(state.parse_move(text))
            result.append(state.copy())
    return result


def hidden_cards(state: State, seat: int | None) -> set[str]:
    """Cards ``seat`` must not see now (a spectator: ``None``): other hands and the stock."""
    hidden: set[str] = set()
    for zone, cards in state.zones().items():
        own = seat is not None and zone == f"hand {seat}"
        if (zone.startswith("hand") and not own) or zone.startswith("stock") or zone.startswith("deck"):
            hidden.update(str(c) for c in cards)
    return hidden


_NOT_TEXT = {"table_id", "url", "spectate_url", "token", "person", "host"}
"""Random identifiers, which may hold a card-like word by chance."""
_CARD = re.compile(r"^(?:[A2-9TJQK][CDHS]|10[CDHS]|JK)$")
_SHOWN_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[A2-9JQK])([♣♦♥♠])")
"""A card as the narrator writes it (9♣, 10♣): errors and the log name cards so."""
_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value (in strings, as whole words; not in table ids)."""
    found: set[str] = set()
    if isinstance(value, str):
        for word in re.split(r"[^0-9A-Za-z]+", value):
            if _CARD.match(word):
                found.add(word)
        for rank, suit in _SHOWN_CARD.findall(value):
            found.add(("T" if rank == "10" else rank) + _SUIT_LETTER[suit])
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _NOT_TEXT:
                found |= cards_in(key) | cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def jsonable(value: Any) -> Any:
    """``value`` as it looks after a JSON round trip."""
    return json.loads(json.dumps(value))


def assert_public(view: Any, observations: list[Any], path: str = "view") -> None:
    """Nothing in ``view`` that is not the same in every seat's observation (``None`` hides anything)."""
    if view is None:
        return
    if isinstance(view, dict):
        assert all(isinstance(o, dict) for o in observations), f"{path}: an object where a seat sees {observations!r}"
        for key, item in view.items():
            assert all(key in o for o in observations), f"{path}.{key}: not in every seat's observation"
            assert_public(item, [o[key] for o in observations], f"{path}.{key}")
    elif isinstance(view, list):
        assert all(isinstance(o, list) and len(o) == len(view) for o in observations), (
            f"{path}: {view!r} but the seats see {observations!r}"
        )
        for index, item in enumerate(view):
            assert_public(item, [o[index] for o in observations], f"{path}[{index}]")
    else:
        assert all(o == view for o in observations), f"{path}: {view!r} but the seats see {observations!r}"


def load_record(name: str) -> dict[str, Any]:
    """A golden record of tests/data as JSON data."""
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


# -- the browser of every browser test ------------------------------------------------------
CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium: Playwright downloads nothing."""
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless (nothing is downloaded), one for a test module."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/test-setup.sh"
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()
