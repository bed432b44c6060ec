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
import json
import logging
import os
import secrets
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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
from parlour.web.store import TableStore
from parlour.web.tables import (
    Connection,
    Limits,
    ProtocolError,
    TableError,
    TableManager,
    TokenBucket,
    error,
    parse_message,
)

log = logging.getLogger("parlour.web")
STATIC = Path(str(files("parlour.web").joinpath("static")))
MAX_MESSAGE = 16 * 1024
"""The largest client message answered (bigger ones get ``too_large``)."""
MAX_FRAME = 1024 * 1024
"""uvicorn closes a connection whose frame is bigger than this."""
MAX_RECORD = 5 * 1024 * 1024
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
            "minimum": option.minimum, "maximum": option.maximum, "nullable": option.nullable}


def same_origin(origin: str | None, host: str | None, allowed: frozenset[str] = frozenset()) -> bool:
    """Whether a request's ``Origin`` header is this server's own (or one it was told to allow).
    Requests without an ``Origin`` (not from a browser page) are allowed."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return origin != "null" and host is not None and urlsplit(origin).netloc.lower() == host.lower()


class Guard:
    """ASGI middleware: security headers on every answer; state-changing requests and WebSocket
    handshakes from a foreign ``Origin`` refused with 403."""

    def __init__(self, app: ASGIApp, allowed_origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.allowed = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        changing = scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD", "OPTIONS")
        if changing and not same_origin(headers.get("origin"), headers.get("host"), self.allowed):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": "foreign origin"})
                return
            body = json.dumps({"error": "requests from another site's pages are refused"}).encode()
            await send({"type": "http.response.start", "status": 403, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
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


def player_of(request: Request | WebSocket, make: bool = True) -> str | None:
    """The player id in the session cookie (made on the first visit when ``make``)."""
    player = request.session.get("player")
    if isinstance(player, str) and 8 <= len(player) <= 32:
        return player
    if not make:
        return None
    player = secrets.token_urlsafe(16)
    request.session["player"] = player
    return player


def create_app(db: str = "sqlite:///parlour.db", bot_delay: float = 0.6, announce: str | None = None,
               limits: Limits | None = None, secret_key: str | None = None, https_only: bool = False,
               allowed_origins: frozenset[str] = frozenset()) -> FastAPI:
    """The web app over the database ``db``; bots wait ``bot_delay`` seconds before moving.

    ``secret_key`` signs the session cookies (default: ``$PARLOUR_SECRET_KEY``, else a key kept in
    the database, so that identities survive a restart)."""
    holder: dict[str, TableManager] = {}
    limits = limits or Limits()
    store = TableStore(db)
    key = secret_key or os.environ.get("PARLOUR_SECRET_KEY") or store.secret("session_key")

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager = TableManager(store, bot_delay=bot_delay, limits=limits)
        await manager.start()
        holder["manager"] = manager
        # Everything made so far (modules, the live tables) lives as long as the server: the garbage
        # collector stops walking it again and again.  A move makes thousands of short-lived objects
        # (its messages): the collector runs after 20,000 new ones rather than 700, and looks at the
        # older generations less often.  Under load the two save a tenth of a move's CPU time.
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        if announce:
            print(announce, flush=True)
        yield
        await manager.stop()

    # The API is described at /openapi.json; no docs page, whose script would come from a CDN (CSP forbids it).
    app = FastAPI(title="parlour", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(SessionMiddleware, secret_key=key, session_cookie=SESSION_COOKIE,
                       max_age=SESSION_DAYS * 24 * 3600, same_site="lax", https_only=https_only)
    app.add_middleware(Guard, allowed_origins=allowed_origins)

    def manager() -> TableManager:
        return holder["manager"]

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def body(request: Request, limit: int = 64 * 1024) -> Any:
        raw = await request.body()
        if len(raw) > limit:
            raise TableError(f"the request is larger than {limit // 1024} kB", 413)
        try:
            return json.loads(raw)
        except RecursionError:
            raise TableError("the request body is JSON nested too deeply") from None
        except ValueError:
            raise TableError("the request body must be JSON") from None

    # -- pages ---------------------------------------------------------------------
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/replay", include_in_schema=False)
    @app.get("/table/{table_id}", include_in_schema=False)
    async def page(request: Request, table_id: str | None = None) -> FileResponse:
        player_of(request)  # the identity is made on the first visit
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API -------------------------------------------------------------------------
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

    @app.get("/api/levels")
    async def levels() -> list[dict[str, str]]:
        return [{"name": level.name, "description": level.description} for level in bot_levels.LEVELS]

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        """Who you are here: the name you chose (null until you choose one)."""
        return {"name": await manager().player_name(player_of(request))}

    @app.put("/api/me")
    async def rename(request: Request) -> dict[str, Any]:
        """Choose your name (your seats at tables being played take it too)."""
        player = player_of(request)
        assert player is not None
        return await manager().rename(player, await body(request))

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        player = player_of(request)
        assert player is not None
        return await manager().create(await body(request), player)

    @app.get("/api/tables")
    async def lobby(page: int = 1, per_page: int = 20) -> dict[str, Any]:
        """Tables being played with a free seat, newest first, a page at a time."""
        return manager().lobby(page, per_page)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        player = player_of(request)
        assert player is not None
        return await manager().join(table_id, await body(request), player)

    @app.post("/api/tables/{table_id}/accept")
    async def accept(table_id: str, request: Request) -> dict[str, Any]:
        """Accept an invitation: the first player to accept takes the seat for good."""
        player = player_of(request)
        assert player is not None
        return await manager().accept(table_id, await body(request), player)

    @app.post("/api/tables/{table_id}/seats/{seat}/reopen")
    async def reopen(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """The host takes back a seat whose player left, with a new invitation."""
        player = player_of(request)
        assert player is not None
        return await manager().reopen(table_id, seat, player)

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        return (await manager().get(table_id)).summary(player_of(request, make=False))

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> Response:
        data = await manager().record(table_id)
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="parlour-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request) -> dict[str, Any]:
        return await manager().replay(table_id, player_of(request, make=False))

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Any:
        data = await body(request, MAX_RECORD)
        try:
            from parlour.web.views import record_steps

            steps = await asyncio.to_thread(record_steps, data)
        except record.RecordError as exc:
            return JSONResponse({"error": str(exc), "round": exc.round, "move": exc.move}, status_code=422)
        return {"steps": steps, "full": True}

    # -- WebSocket -------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        conn = Connection(player_of(websocket, make=False),
                          TokenBucket(limits.messages_per_second, limits.message_burst))
        writer = asyncio.create_task(_write(websocket, conn))
        try:
            await _read(websocket, conn, table_id, manager(), limits.flood_strikes)
        except WebSocketDisconnect:
            pass
        finally:
            manager().leave(conn)
            writer.cancel()

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


async def _close(websocket: WebSocket, conn: Connection, code: str, message: str) -> None:
    conn.send(error(code, message, conn.table.version if conn.table is not None else None))
    await asyncio.sleep(0.1)  # let the writer send it (uvicorn reads nothing meanwhile: its queue is full)
    await websocket.close(code=POLICY_VIOLATION)


async def _read(websocket: WebSocket, conn: Connection, table_id: str, manager: TableManager,
                flood_strikes: int) -> None:
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
        if not conn.bucket.allow():
            conn.strikes += 1
            if conn.strikes >= flood_strikes:
                await _close(websocket, conn, "rate_limited", "too many messages: the connection is closed")
                return
            conn.send(error("rate_limited", "too many messages: slow down", version))
            continue
        conn.strikes = 0
        text = raw.get("text")
        if text is None:
            conn.send(error("malformed", "messages are JSON text, not binary", version))
            continue
        if len(text) > MAX_MESSAGE:
            conn.send(error("too_large", f"a message is at most {MAX_MESSAGE // 1024} kB", version))
            continue
        try:
            message = parse_message(text)
            if conn.table is None and message["type"] not in ("hello", "ping"):
                raise ProtocolError("hello_required", "say hello first: {\"type\": \"hello\"}")
            if message["type"] == "hello":
                await manager.hello(conn, table_id, message)
            elif message["type"] == "ping" and conn.table is None:
                conn.send({"type": "pong"})
            else:
                await manager.handle(conn, message)
        except ProtocolError as exc:
            conn.send(error(exc.code, str(exc), conn.table.version if conn.table is not None else None))
        except TableError as exc:
            if exc.status == 404 and conn.table is None:
                await _close(websocket, conn, "not_found", str(exc))
                return
            conn.send(error("not_found" if exc.status == 404 else "not_allowed", str(exc), version))
        except Exception:  # a bug of ours: say so, keep the connection and the game
            log.exception("while handling a message at table %s", table_id)
            conn.send(error("internal", "the server could not handle that message", version))


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
          allowed_origins: frozenset[str] = frozenset()) -> None:
    """Run the server until interrupted."""
    import uvicorn

    shown = "localhost" if host in ("0.0.0.0", "::") else host
    app = create_app(db, bot_delay, announce=f"parlour serve: http://{shown}:{port}/", limits=limits,
                     https_only=https_only, allowed_origins=allowed_origins)
    uvicorn.run(app, host=host, port=port, ws=_firm_websockets(), ws_max_size=MAX_FRAME, log_level="warning",
                access_log=False)
    sys.stdout.flush()
