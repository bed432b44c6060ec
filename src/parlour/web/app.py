"""The ASGI app: pages, the JSON API and the WebSocket endpoint (thin: the
table manager decides).  ``create_app(db, bot_delay)`` builds it; ``serve``
runs it on uvicorn.

Who a request comes from is the player id in a signed session cookie
(Starlette's ``SessionMiddleware``, itsdangerous): HttpOnly, SameSite=Lax,
made on the first visit.  Every answer carries a strict
Content-Security-Policy, and state-changing requests and WebSocket handshakes
from another site's ``Origin`` are refused.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import json
import logging
import math
import os
import re
import secrets
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour import games, record
from parlour.bots import levels as bot_levels
from parlour.narrate import sentence
from parlour.web import lessons, openapi, replays
from parlour.web.accounts import Accounts, TooManyAttempts
from parlour.web.limits import KeyedBuckets, Limits, address_of, retry_text
from parlour.web.manager import TableManager
from parlour.web.metrics import CONTENT_TYPE, LOOPBACK, Metrics
from parlour.web.mygames import MyGames
from parlour.web.players import Players
from parlour.web.protocol import Error, ErrorCode, Hello, Ping, Pong, ProtocolError, encode, parse, valid_unicode
from parlour.web.reviews import Reviews
from parlour.web.store import TableStore
from parlour.web.tables import Connection, TableError

log = logging.getLogger("parlour.web")
STATIC = Path(str(files("parlour.web").joinpath("static")))
MAX_MESSAGE = 16 * 1024
"""The largest client message answered (bigger ones get ``too_large``)."""
MAX_FRAME = 1024 * 1024
"""uvicorn closes a connection whose frame is bigger than this."""
HELLO_SECONDS = 10
"""A connection must say a valid ``hello`` this soon after it opens."""
POLICY_VIOLATION = 1008
"""The close code of a connection the server shuts out (no hello in time, a flood, a foreign origin)."""
SESSION_COOKIE = "parlour_session"
SESSION_DAYS = 400
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
]

def _option(option: Any) -> dict[str, Any]:
    kind = {int: "int", bool: "bool", str: "str"}.get(option.kind, "str")
    return {"name": option.name, "default": option.default, "help": option.help, "kind": kind,
            "minimum": option.minimum, "maximum": option.maximum, "nullable": option.nullable,
            "designer": option.designer}


def same_origin(origin: str | None, host: str | None, allowed: frozenset[str] = frozenset(),
                scheme: str = "http") -> bool:
    """Whether a request's ``Origin`` header is this server's own (the same scheme, host and port as the
    request itself, whose scheme is ``scheme``) or one it was told to allow.  Requests without an
    ``Origin`` (not from a browser page) are allowed."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    if origin == "null" or host is None:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:  # not a URL at all ("http://["): no site's own
        return False
    return parts.scheme.lower() == scheme and parts.netloc.lower() == host.lower()


LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


@dataclass(frozen=True)
class Hosts:
    """The host names a request may be addressed to (its ``Host`` header), against DNS rebinding: a page
    of another site whose name an attacker points at this server's address is refused.

    Always the localhost forms and the address the server listens on; ``names`` given with
    ``--allowed-host`` (``*.example.org`` for its subdomains, ``*`` for any); when listening on every
    interface, any IP address too (a rebinding page's Host is a name, never an address)."""

    names: frozenset[str] = LOCAL_HOSTS
    any_address: bool = False

    @classmethod
    def for_server(cls, listen: str, allowed: Sequence[str] = ()) -> Hosts:
        wildcard = listen in ("0.0.0.0", "::", "")
        names = set(LOCAL_HOSTS) | {h.strip().lower().strip("[]") for h in allowed if h.strip()}
        if not wildcard:
            names.add(listen.lower().strip("[]"))
        return cls(frozenset(names), wildcard)

    def allows(self, header: str | None) -> bool:
        if header is None:
            return False
        host = header.strip().lower()
        if host.startswith("["):
            host = host[1:host.find("]")] if "]" in host else host
        elif host.count(":") == 1:
            host = host.split(":")[0]
        if "*" in self.names or host in self.names:
            return True
        if any(n.startswith("*.") and host.endswith(n[1:]) for n in self.names):
            return True
        if self.any_address:
            try:
                ipaddress.ip_address(host)
            except ValueError:
                return False
            return True
        return False


class Guard:
    """ASGI middleware: the security headers on every answer; requests addressed to a host this server
    is not (DNS rebinding) refused with 400, state-changing requests and WebSocket handshakes from a
    foreign ``Origin`` (another scheme, host or port) with 403."""

    def __init__(self, app: ASGIApp, allowed_origins: frozenset[str] = frozenset(),
                 hosts: Hosts | None = None, https_only: bool = False) -> None:
        self.app = app
        self.allowed = allowed_origins
        self.hosts = hosts or Hosts(any_address=True, names=frozenset({"*"}))
        self.https_only = https_only

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": message[:100]})
            return
        body = json.dumps({"error": sentence(message)}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if not self.hosts.allows(headers.get("host")):
            await self._refuse(scope, send, 400, "this server does not answer to that host name "
                               "(parlour serve --allowed-host NAME lets it)")
            return
        changing = scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD", "OPTIONS")
        scheme = "https" if self.https_only or scope.get("scheme") in ("https", "wss") else "http"
        if changing and not same_origin(headers.get("origin"), headers.get("host"), self.allowed, scheme):
            await self._refuse(scope, send, 403, "requests from another site's pages are refused")
            return
        if scope["type"] == "websocket":  # no HTTP answer to add headers to: every frame goes straight out
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS:
                    out[key.decode()] = value.decode()
            await send(message)

        await self.app(scope, receive, send_with_headers)


def player_of(request: Request | WebSocket) -> str | None:
    """The player id in the session cookie, if the browser has one (:func:`identity` makes one)."""
    player = request.session.get("player")
    if isinstance(player, str) and 8 <= len(player) <= 32:
        return player
    return None


async def identity(request: Request) -> str:
    """The player a request comes from, made now if it is their first visit (within the new identities
    its address may make, counted over every server process: over that, :class:`TableError` 429)."""
    player = player_of(request)
    if player is not None:
        return player
    newcomers: KeyedBuckets | None = getattr(request.app.state, "newcomers", None)
    if newcomers is not None:
        if wait := await newcomers.spend(address_of(request.scope)):
            raise TableError(f"too many new visitors from your address: try again {retry_text(wait)}", 429)
    player = secrets.token_urlsafe(16)
    request.session["player"] = player
    return player


class AsciiJSON(JSONResponse):
    """JSON answers with every character outside ASCII escaped: text a client sent that is not valid
    Unicode (a lone surrogate) is answered as its escape instead of failing to encode."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")



def create_app(db: str = "sqlite:///parlour.db", bot_delay: float = 0.6, announce: str | None = None,
               limits: Limits | None = None, secret_key: str | None = None, https_only: bool = False,
               allowed_origins: frozenset[str] = frozenset(), hosts: Hosts | None = None,
               metrics_from: Sequence[str] = LOOPBACK) -> FastAPI:
    """The web app over the database ``db``; bots wait ``bot_delay`` seconds before moving.

    ``secret_key`` signs the session cookies (default: ``$PARLOUR_SECRET_KEY``, else a key kept in
    the database, so that identities survive a restart)."""
    holder: dict[str, TableManager] = {}
    people: dict[str, Players] = {}
    reviewers: dict[str, Reviews] = {}
    limits = limits or Limits()
    metrics = Metrics(metrics_from)
    store = TableStore(db)
    my_games = MyGames(store)
    accounts = Accounts(store, limits)
    key = secret_key or os.environ.get("PARLOUR_SECRET_KEY") or store.secret("session_key")

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager = TableManager(store, bot_delay=bot_delay, limits=limits, metrics=metrics)
        await manager.start()
        if manager.shared_limits is not None:  # several processes: the clients' budgets are counted together
            for name, budget in (("sockets_per_minute", sessions), ("lesson_steps", lesson_steps),
                                 ("health_checks", health_checks),
                                 ("newcomers", app.state.newcomers),
                                 *accounts.budgets(), ("replays", replay_service.buckets)):
                budget.share(manager.shared_limits, name)
        holder["manager"] = manager
        people["players"] = Players(store, manager.db, my_games)
        reviewers["reviews"] = Reviews(store, manager.autoplay.people_bots, manager.db, manager.get, replay_service,
                                       node=manager.cluster.node if manager.cluster.shared else None)
        manager.cluster.reviews = reviewers["reviews"].resume
        # Everything made so far (modules, the live tables) lives as long as the server: the garbage
        # collector stops walking it again and again.  A move makes thousands of short-lived objects
        # (its messages): the collector runs after 20,000 new ones rather than 700, and looks at the
        # older generations less often.  Under load the two save a tenth of a move's CPU time.
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        if announce:
            print(announce, flush=True)
        yield
        reviewers["reviews"].stop()
        await manager.stop()
        replay_service.close()

    # The API is described at /openapi.json; no docs page, whose script would come from a CDN (CSP forbids it).
    app = FastAPI(title="parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  default_response_class=AsciiJSON)
    app.state.newcomers = KeyedBuckets.per_hour(limits.new_players_per_hour)
    replay_service = replays.ReplayService(limits.replays_per_minute)
    app.add_middleware(SessionMiddleware, secret_key=key, session_cookie=SESSION_COOKIE,
                       max_age=SESSION_DAYS * 24 * 3600, same_site="lax", https_only=https_only)
    app.add_middleware(Guard, allowed_origins=allowed_origins, hosts=hosts, https_only=https_only)
    sessions = KeyedBuckets.per_minute(limits.sockets_per_minute)
    lesson_steps = KeyedBuckets.per_minute(limits.lesson_steps_per_minute)
    health_checks = KeyedBuckets.per_minute(limits.health_checks_per_minute)

    def manager() -> TableManager:
        return holder["manager"]

    @app.exception_handler(replays.ReplayRefused)
    async def replay_refused(_request: Request, exc: replays.ReplayRefused) -> JSONResponse:
        headers = {"Retry-After": "5"} if exc.status in (429, 503) else None
        return AsciiJSON({"error": sentence(str(exc))}, status_code=exc.status, headers=headers)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        if exc.status == 429:
            metrics.refused.labels(limit="http").inc()
        return AsciiJSON({"error": sentence(str(exc))}, status_code=exc.status)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        """A bug of ours (logged with its traceback): a plain answer, with the security headers, which
        answers made here (outside the Guard) would otherwise lack."""
        return AsciiJSON({"error": "The server could not handle that request"}, status_code=500,
                         headers={k.decode(): v.decode() for k, v in SECURITY_HEADERS})

    async def body(request: Request, limit: int = 64 * 1024) -> Any:
        raw = bytearray()
        async for chunk in request.stream():  # never more than the limit in memory, whatever the client sends
            raw += chunk
            if len(raw) > limit:
                raise TableError(f"the request is larger than {limit // 1024} kB", 413)
        try:
            data = json.loads(raw)
        except RecursionError:
            raise TableError("the request body is JSON nested too deeply") from None
        except ValueError:
            raise TableError("the request body must be JSON (UTF-8)") from None
        if not valid_unicode(data):
            raise TableError("the request holds text that is not valid Unicode (a lone surrogate, like \\ud800)")
        return data

    # -- pages ---------------------------------------------------------------------
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/replay", include_in_schema=False)
    @app.get("/me/games", include_in_schema=False)
    @app.get("/learn/{game_id}", include_in_schema=False)
    @app.get("/table/{table_id}", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    @app.get("/player/{handle}", include_in_schema=False)
    async def page(request: Request, table_id: str | None = None, game_id: str | None = None,
                   handle: str | None = None) -> FileResponse:
        try:
            await identity(request)  # the identity is made on the first visit
        except TableError:
            pass  # too many newcomers from this address: the page says so when it asks for something
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API -------------------------------------------------------------------------
    @app.get("/healthz", responses={429: {"description": "Too many health checks from this address"},
                                    503: {"description": "This process cannot serve now"}})
    async def healthz(request: Request) -> JSONResponse:
        """Whether this server process can serve: it reaches the database and (with several processes on
        PostgreSQL) hears the others and holds its leases.  503 when not, for a load balancer; 429 to an
        address that asks more than ``health_checks_per_minute`` times a minute."""
        if wait := await health_checks.spend(address_of(request.scope)):
            metrics.refused.labels(limit="health_checks").inc()
            raise TableError(f"too many health checks from your address: ask again {retry_text(wait)}", 429)
        found = await manager().health()
        return AsciiJSON(found, status_code=200 if found["status"] == "ok" else 503,
                         headers={"Cache-Control": "no-store"})

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        """This process's figures for Prometheus (to the addresses of ``--metrics-from`` only)."""
        if not metrics.allows(request.client.host if request.client else ""):
            return AsciiJSON({"error": "Not found"}, status_code=404)
        return Response(metrics.text(), media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [{"id": g.id, "name": g.name, "players": g.players, "summary": g.summary, "version": g.version,
                 "options": [_option(o) for o in g.options]} for g in games.all_games()]

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, str]:
        try:
            return {"markdown": games.get(game_id).rules()}
        except ValueError as exc:
            raise TableError(str(exc), 404) from None

    @app.get("/api/games/{game_id}/turn")
    async def turn(game_id: str) -> dict[str, str]:
        """How a turn of the game works, on one screen (Markdown): what the rules drawer shows first."""
        try:
            return {"markdown": games.get(game_id).turn()}
        except ValueError as exc:
            raise TableError(str(exc), 404) from None

    @app.get("/api/levels")
    async def levels() -> list[dict[str, str]]:
        return [{"name": level.name, "description": level.description} for level in bot_levels.LEVELS]

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        """Who you are here: the name you chose (null until you choose one), and the username of your
        account (null: you play as a guest)."""
        return await who(await identity(request))

    @app.put("/api/me")
    async def rename(request: Request) -> dict[str, Any]:
        """Choose your name (your seats at tables being played take it too)."""
        return await manager().seating.rename(await identity(request), await body(request))

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        return await manager().create(await body(request), await identity(request), address_of(request.scope))

    @app.get("/api/tables")
    async def lobby(page: int = 1, per_page: int = 20) -> dict[str, Any]:
        """Tables being played with a free seat, newest first, a page at a time."""
        return await manager().lobby(page, per_page)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        return await manager().seating.join(table_id, await body(request), await identity(request))

    @app.post("/api/tables/{table_id}/accept")
    async def accept(table_id: str, request: Request) -> dict[str, Any]:
        """Accept an invitation: the first player to accept takes the seat for good."""
        return await manager().seating.accept(table_id, await body(request), await identity(request))

    @app.post("/api/tables/{table_id}/seats/{seat}/reopen")
    async def reopen(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """The host takes back a seat whose player left, with a new invitation."""
        return await manager().seating.reopen(table_id, seat, await identity(request))

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        return (await manager().get(table_id)).summary(player_of(request))

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> Response:
        data = await manager().record(table_id)
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="parlour-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request) -> Response:
        """A page of the match's steps (``offset``, negative from the end, and ``count``): from the player's
        seat during play, with all cards once it is over (those pages are kept: they never change)."""
        offset, count = replays.paging(request.query_params)
        kept = replay_service.kept(table_id, offset, count)
        if kept is not None:
            return Response(kept, media_type="application/json")
        table = await manager().get(table_id)
        finished = table.status == "finished"
        viewer = None
        if not finished:
            viewer = table.seat_of(player_of(request))
            if viewer is None:
                raise TableError("during play, a replay is shown only to the players, each from their own seat", 403)
        spec = replays.TableSpec(table.game.id, dict(table.options), table.seed, tuple(s.name for s in table.seats),
                                 tuple(change for _seat, change in table.changes), finished)
        text = await replay_service.table(table_id, spec, viewer, address_of(request.scope), offset, count)
        return Response(text, media_type="application/json")

    @app.get("/api/tables/{table_id}/review")
    async def table_review(table_id: str, request: Request) -> dict[str, Any]:
        """Your seat's review of a finished match: ``none`` (not asked for), ``running`` (``done`` of
        ``total`` decisions judged), ``done`` (with the ``review``) or ``failed``.  Only a seat's player sees it."""
        return await reviewers["reviews"].status(table_id, player_of(request))

    @app.post("/api/tables/{table_id}/review")
    async def start_review(table_id: str, request: Request) -> dict[str, Any]:
        """Ask for your seat's review of a finished match (worked out in the background; asking again
        costs nothing): its status, as ``GET`` answers it."""
        return await reviewers["reviews"].start(table_id, player_of(request))

    @app.post("/api/reviews", openapi_extra={"requestBody": {
        "required": True, "description": "A parlour-record/1 record, as uploaded for a replay",
        "content": {"application/json": {"schema": {"type": "object"}}}}})
    async def start_record_review(request: Request, seat: int = 0) -> Response:
        """Ask for the review of seat ``seat`` of an uploaded record (worked out in the background, kept by
        the record's SHA-256 ``review_id``; asking again costs nothing): its status, as
        ``GET /api/reviews/{review_id}`` answers it."""
        address = address_of(request.scope)
        await replay_service.check(address)
        raw = await replays.read_upload(request.stream(), request.headers.get("content-length"))
        lane = player_of(request) or "address " + address
        try:
            return AsciiJSON(await reviewers["reviews"].start_record(raw, seat, lane, address))
        except record.RecordError as exc:
            return AsciiJSON({"error": sentence(str(exc)), "round": exc.round, "move": exc.move}, status_code=422)

    @app.get("/api/reviews/{review_id}")
    async def record_review(review_id: str, seat: int = 0) -> dict[str, Any]:
        """The review of seat ``seat`` of an uploaded record: ``none``, ``running``, ``done`` or ``failed``,
        as for a table's review, with ``steps``: the replay step of each judged decision."""
        if not re.fullmatch(r"[0-9a-f]{64}", review_id):
            raise TableError("a review id is the 64 hexadecimal digits the review was started with", 404)
        return await reviewers["reviews"].record_status(review_id, seat)

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Response:
        """A page of an uploaded record's steps, all cards shown (``offset``, ``count`` as above)."""
        offset, count = replays.paging(request.query_params)
        address = address_of(request.scope)
        await replay_service.check(address)
        raw = await replays.read_upload(request.stream(), request.headers.get("content-length"))
        try:
            text = await replay_service.upload(raw, address, offset, count)
        except record.RecordError as exc:
            return AsciiJSON({"error": sentence(str(exc)), "round": exc.round, "move": exc.move}, status_code=422)
        return Response(text, media_type="application/json")

    @app.get("/api/learn")
    async def tutorials() -> list[dict[str, str]]:
        """The games that have a guided first match (a tutorial), with its title."""
        return lessons.tutorials()

    @app.post("/api/learn/{game_id}", openapi_extra={"requestBody": {
        "required": True, "description": "The learner's answers so far",
        "content": {"application/json": {"schema": lessons.ANSWERS_SCHEMA, "example": {"answers": ["next"]}}}}})
    async def lesson(game_id: str, request: Request) -> Response:
        """A guided first match after the learner's answers so far: what has been said, the step waiting,
        the learner's view and layout, and why the last answer was refused (if it was)."""
        address = address_of(request.scope)
        if wait := await lesson_steps.spend(address):
            raise TableError("too many lesson steps from your address in the last minute: try again "
                             f"{retry_text(wait)}", 429)
        page = lessons.lesson_page(game_id, lessons.read_answers(await body(request)))
        return AsciiJSON(page)

    # -- accounts --

    async def who(player: str | None) -> dict[str, Any]:
        return {"name": await manager().seating.player_name(player), "account": await accounts.account_of(player),
                "page": await people["players"].page_of(player)}

    @app.exception_handler(TooManyAttempts)
    async def too_many_attempts(_request: Request, exc: TooManyAttempts) -> JSONResponse:
        metrics.refused.labels(limit="sign_in").inc()
        return AsciiJSON({"error": sentence(str(exc))}, status_code=429,
                         headers={"Retry-After": str(max(1, math.ceil(exc.retry_after)))})

    @app.post("/api/account/register")
    async def register(request: Request) -> dict[str, Any]:
        """Register an account that keeps your identity (your seats and games become the account's); a
        guest who never chose a name takes the username as their name.  Who you are now, as ``GET /api/me``."""
        player = await identity(request)
        username = await accounts.register(player, await body(request), address_of(request.scope))
        if await manager().seating.player_name(player) is None:
            await manager().seating.rename(player, {"name": username})
        return await who(player)

    @app.post("/api/account/signin")
    async def sign_in(request: Request) -> dict[str, Any]:
        """Sign in: this browser plays as the account's identity from now on (its seats, games and ratings).
        Who you are now, as ``GET /api/me``."""
        signed = await accounts.sign_in(await body(request), address_of(request.scope))
        request.session["player"] = signed.player
        return await who(signed.player)

    @app.post("/api/account/signout")
    async def sign_out(request: Request) -> dict[str, Any]:
        """Sign out: this browser plays as a new guest (the account keeps its games for the next sign-in)."""
        if await accounts.account_of(player_of(request)) is None:
            raise TableError("you are not signed in: a guest has no account to sign out of", 409)
        request.session.pop("player", None)
        return await who(await identity(request))

    @app.get("/api/me/games")
    async def my_matches(request: Request, page: int = 1, per_page: int = 20) -> dict[str, Any]:
        """Your matches, newest first, a page at a time: the game, the opponents, your result, the date,
        whether it was rated, and the addresses of its table, replay, review and record."""
        return await my_games.page(player_of(request), page, per_page)

    # -- ratings --
    @app.get("/api/ratings/{game_id}")
    async def leaderboard(game_id: str) -> dict[str, Any]:
        """The game's leaderboard: the best ratings (``rating`` = μ − 3σ of openskill's Plackett–Luce), and
        the bot levels' fixed ratings, measured by ``parlour lab ladder``."""
        return await people["players"].leaderboard(game_id)

    @app.get("/api/players/{handle}")
    async def player_page(handle: str) -> dict[str, Any]:
        """A player's page (``handle``: its public name, never the player's identity; a player has one once
        they have played a rated match): their name, ratings per game with their history, their newest
        finished matches."""
        return await people["players"].page(handle)

    @app.get("/api/players/{handle}/ratings.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}, "description": "The plot of the player's ratings"}})
    async def player_plot(handle: str) -> Response:
        """The player's ratings after each rated match, a line per game (PNG)."""
        return Response(await people["players"].plot(handle), media_type="image/png",
                        headers={"Cache-Control": "no-cache"})

    # -- WebSocket -------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        address = address_of(websocket.scope)
        await websocket.accept()
        if wait := await sessions.spend(address):
            metrics.refused.labels(limit="sockets_per_minute").inc()
            await _refuse(websocket, "too many connections from your address in the last minute: try again "
                          f"{retry_text(wait)}")
            return
        if not await manager().sockets.hold(address, limits.sockets):
            metrics.refused.labels(limit="sockets").inc()
            await _refuse(websocket, f"{limits.sockets} connections from your address are open already: "
                          "close one first")
            return
        conn = Connection(player_of(websocket), address=address, limits=limits)
        writer = asyncio.create_task(_write(websocket, conn))
        try:
            await _read(websocket, conn, table_id, manager(), limits.flood_strikes, metrics)
        except WebSocketDisconnect:
            pass
        finally:
            manager().closed(conn)
            await manager().sockets.release(address)
            writer.cancel()

    openapi.describe(app)
    return app


async def _write(websocket: WebSocket, conn: Connection) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            return
        try:
            await websocket.send_text(text)
        except Exception:  # the client has gone; the reader notices and cleans up
            return


async def _refuse(websocket: WebSocket, message: str) -> None:
    """Turn away a connection before it is one of the server's: a ``too_many`` error, then close."""
    await websocket.send_text(encode(Error(code="too_many", message=message)))
    await websocket.close(code=POLICY_VIOLATION)


async def _close(websocket: WebSocket, conn: Connection, code: ErrorCode, message: str) -> None:
    conn.send(Error(code=code, message=message, version=conn.table.version if conn.table is not None else None))
    await asyncio.sleep(0.1)  # let the writer send it (uvicorn reads nothing meanwhile: its queue is full)
    await websocket.close(code=POLICY_VIOLATION)


async def _read(websocket: WebSocket, conn: Connection, table_id: str, manager: TableManager,
                flood_strikes: int, metrics: Metrics) -> None:
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + HELLO_SECONDS
    while True:
        try:
            raw = await asyncio.wait_for(websocket.receive(), hello_by - loop.time()) if conn.table is None \
                else await websocket.receive()
        except TimeoutError:
            await _close(websocket, conn, "hello_required", "no hello in time: the connection is closed")
            return
        if raw["type"] == "websocket.disconnect":
            return
        version = conn.table.version if conn.table is not None else None
        size = len(raw.get("text") or "") + len(raw.get("bytes") or b"")
        if not conn.bytes.allow(size):
            metrics.refused.labels(limit="bytes").inc()
            await _close(websocket, conn, "rate_limited", "too much data: the connection is closed")
            return
        if not conn.bucket.allow():
            metrics.refused.labels(limit="messages").inc()
            if conn.strikes.add() >= flood_strikes:
                await _close(websocket, conn, "rate_limited", "too many messages: the connection is closed")
                return
            conn.send(Error(code="rate_limited", message="too many messages: slow down", version=version))
            continue
        text = raw.get("text")
        if text is None:
            conn.send(Error(code="malformed", message="messages are JSON text, not binary", version=version))
            continue
        if len(text) > MAX_MESSAGE:
            conn.send(Error(code="too_large", message=f"a message is at most {MAX_MESSAGE // 1024} kB",
                            version=version))
            continue
        try:
            message = parse(text, greeted=conn.table is not None, seated=conn.seat is not None)
            if isinstance(message, Hello):
                await manager.hello(conn, table_id, message)
            elif isinstance(message, Ping) and conn.table is None:
                conn.send(Pong())
            else:
                await manager.handle(conn, message)
        except ProtocolError as exc:
            if exc.code in ("rate_limited", "too_many"):
                metrics.refused.labels(limit=exc.code).inc()
            conn.send(Error(code=exc.code, message=str(exc),
                            version=conn.table.version if conn.table is not None else None))
        except TableError as exc:
            if exc.status == 404 and conn.table is None:
                await _close(websocket, conn, "not_found", str(exc))
                return
            conn.send(Error(code="not_found" if exc.status == 404 else "not_allowed", message=str(exc),
                            version=version))
        except Exception:  # a bug of ours: say so, keep the connection and the game
            log.exception("while handling a message at table %s", table_id)
            conn.send(Error(code="internal", message="the server could not handle that message", version=version))


def _firm_websockets() -> Any:
    """uvicorn's WebSocket protocol, except that a connection closed for a policy violation is no longer
    parsed: the polite closing handshake would parse everything a flooder has still sent before its
    close reply comes, which holds up every other connection of the event loop.  What it still sends is
    read and dropped unparsed (so the connection is not reset and what the server sent it, the error and
    the close frame, arrives), until uvicorn's close timeout ends the connection."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # another uvicorn: its own default
        return "auto"

    class FirmWebSocketProtocol(WebSocketsSansIOProtocol):
        shut_out = False

        def data_received(self, data: bytes) -> None:
            if not self.shut_out:
                super().data_received(data)

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message.get("type") == "websocket.close" and message.get("code") == POLICY_VIOLATION:
                self.shut_out = True

    return FirmWebSocketProtocol


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///parlour.db",
          bot_delay: float = 0.6, limits: Limits | None = None, https_only: bool = False,
          allowed_origins: frozenset[str] = frozenset(), allowed_hosts: Sequence[str] = (),
          trusted_proxies: Sequence[str] = (), metrics_from: Sequence[str] = LOOPBACK) -> None:
    """Run the server until interrupted.

    ``trusted_proxies``: the addresses of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (uvicorn's proxy-headers middleware); from anyone else they are
    ignored, so that a client cannot choose the address its limits are counted under."""
    import uvicorn

    from parlour.web.cluster import SqliteInUse, lock_sqlite

    try:
        lock_sqlite(db)
    except SqliteInUse as refused:
        print(f"parlour serve: {refused}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    app = create_app(db, bot_delay, announce=f"parlour serve: http://{shown}:{port}/", limits=limits,
                     https_only=https_only, allowed_origins=allowed_origins,
                     hosts=Hosts.for_server(host, allowed_hosts), metrics_from=metrics_from)
    uvicorn.run(app, host=host, port=port, ws=_firm_websockets(), ws_max_size=MAX_FRAME, log_level="warning",
                access_log=False, proxy_headers=bool(trusted_proxies),
                forwarded_allow_ips=list(trusted_proxies) if trusted_proxies else None)
    sys.stdout.flush()
