"""The ASGI app: pages, the JSON API and the WebSocket endpoint (thin: the
table manager decides).  ``create_app(db, bot_delay)`` builds it; ``serve``
runs it on uvicorn."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from parlour import bots, games, record
from parlour.web.store import TableStore
from parlour.web.tables import Connection, ProtocolError, TableError, TableManager, error, parse_message

log = logging.getLogger("parlour.web")
STATIC = Path(str(files("parlour.web").joinpath("static")))
MAX_MESSAGE = 16 * 1024
"""The largest client message answered (bigger ones get ``too_large``)."""
MAX_FRAME = 1024 * 1024
"""uvicorn closes a connection whose frame is bigger than this."""
MAX_RECORD = 5 * 1024 * 1024
HELLO_SECONDS = 30

LEVEL_TEXT = {
    "easy": "the club player's advice, with a 35% chance of a random move",
    "medium": "a sound club player's advice for each game",
    "hard": "IS-MCTS search over the hidden cards; decides within a second",
    "expert": "IS-MCTS with four times the search of hard",
}


def _option(option: Any) -> dict[str, Any]:
    kind = {int: "int", bool: "bool", str: "str"}.get(option.kind, "str")
    return {"name": option.name, "default": option.default, "help": option.help, "kind": kind,
            "minimum": option.minimum, "maximum": option.maximum, "nullable": option.nullable}


def create_app(db: str = "sqlite:///parlour.db", bot_delay: float = 0.6, announce: str | None = None) -> FastAPI:
    """The web app over the database ``db``; bots wait ``bot_delay`` seconds before moving."""
    holder: dict[str, TableManager] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager = TableManager(TableStore(db), bot_delay=bot_delay)
        await manager.start()
        holder["manager"] = manager
        if announce:
            print(announce, flush=True)
        yield
        await manager.stop()

    app = FastAPI(title="parlour", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)

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
        except ValueError:
            raise TableError("the request body must be JSON") from None

    # -- pages ---------------------------------------------------------------------
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/replay", include_in_schema=False)
    @app.get("/table/{table_id}", include_in_schema=False)
    async def page(table_id: str | None = None) -> FileResponse:
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
        return [{"name": name, "description": LEVEL_TEXT.get(name, spec)} for name, spec in bots.LEVELS.items()]

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        return await manager().create(await body(request))

    @app.get("/api/tables")
    async def lobby() -> list[dict[str, Any]]:
        return manager().lobby()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        return await manager().join(table_id, await body(request))

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return (await manager().get(table_id)).summary()

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> Response:
        data = await manager().record(table_id)
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="parlour-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request) -> dict[str, Any]:
        return await manager().replay(table_id, request.headers.get("x-parlour-token"))

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
        conn = Connection()
        writer = asyncio.create_task(_write(websocket, conn))
        try:
            await _read(websocket, conn, table_id, manager())
        except WebSocketDisconnect:
            pass
        finally:
            manager().leave(conn)
            writer.cancel()

    return app


async def _write(websocket: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.outbox.get()
        if message is None:
            return
        try:
            await websocket.send_text(json.dumps(message, separators=(",", ":")))
        except Exception:  # the client has gone; the reader notices and cleans up
            return


async def _read(websocket: WebSocket, conn: Connection, table_id: str, manager: TableManager) -> None:
    while True:
        try:
            raw = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS) if conn.table is None \
                else await websocket.receive()
        except TimeoutError:
            conn.send(error("hello_required", "no hello in time: the connection is closed"))
            await asyncio.sleep(0.1)
            await websocket.close(code=1008)
            return
        if raw["type"] == "websocket.disconnect":
            return
        text = raw.get("text")
        version = conn.table.version if conn.table is not None else None
        if text is None:
            conn.send(error("malformed", "messages are JSON text, not binary", version))
            continue
        if len(text) > MAX_MESSAGE:
            conn.send(error("too_large", f"a message is at most {MAX_MESSAGE // 1024} kB", version))
            continue
        try:
            message = parse_message(text)
            if conn.table is None and message["type"] not in ("hello", "ping"):
                raise ProtocolError("hello_required", "say hello first: {\"type\": \"hello\", \"token\": …}")
            if message["type"] == "hello":
                await manager.hello(conn, table_id, message.get("token"))
            elif message["type"] == "ping" and conn.table is None:
                conn.send({"type": "pong"})
            else:
                await manager.handle(conn, message)
        except ProtocolError as exc:
            conn.send(error(exc.code, str(exc), conn.table.version if conn.table is not None else None))
        except TableError as exc:
            conn.send(error("not_found" if exc.status == 404 else "not_allowed", str(exc), version))
        except Exception:  # a bug of ours: say so, keep the connection and the game
            log.exception("while handling a message at table %s", table_id)
            conn.send(error("internal", "the server could not handle that message", version))


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///parlour.db",
          bot_delay: float = 0.6) -> None:
    """Run the server until interrupted."""
    import uvicorn

    shown = "localhost" if host in ("0.0.0.0", "::") else host
    app = create_app(db, bot_delay, announce=f"parlour serve: http://{shown}:{port}/")
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_FRAME, log_level="warning", access_log=False)
    sys.stdout.flush()
