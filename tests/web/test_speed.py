"""The server's shared work, in process (a :class:`TableManager` over SQLite, connections
without sockets): each ``state`` is built and turned into JSON once per version and viewer,
every connection of a viewer gets that one text and no other viewer's; the round's moves in
words are encoded as they are said, and the text equals the whole message encoded afresh; a
batch of moves from many tables is stored in one transaction and every acknowledged move is
there after a restart.  Tables are made with fixed seeds, so every run plays the same moves."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from parlour import games, narrate
from parlour.web import views
from parlour.web.manager import TableManager
from parlour.web.store import MoveWrite, SeatRow, TableRow, TableStore, now
from parlour.web.tables import Connection, Table

GAMES = [("minus-twenty", 2), ("twenty", 2), ("silver-bars", 2), ("progression", 3)]


def encode(value: Any) -> str:
    """A message as JSON, encoded whole (what the server sent before it kept texts)."""
    return json.dumps(value, separators=(",", ":"))


def player(seat: int) -> str:
    """The player id (as in a session cookie) of a seat's person."""
    return f"player-of-seat-{seat}"


def run(test: Callable[[TableManager, TableStore], Awaitable[None]], db: Path,
        tables: Callable[[TableStore], None] | None = None) -> None:
    """Run ``test`` with a manager over the SQLite database ``db`` (bots think in a thread), started
    (as a server is) once ``tables`` has stored the tables it makes."""

    async def main() -> None:
        store = TableStore(f"sqlite:///{db}")
        if tables is not None:
            tables(store)
        pool = ThreadPoolExecutor(max_workers=1)
        manager = TableManager(store, bot_delay=0.0, executor=pool, background=pool)
        await manager.start()
        try:
            await test(manager, store)
        finally:
            await manager.stop()
            pool.shutdown()

    asyncio.run(main())


def add_table(store: TableStore, table_id: str, game_id: str, seed: int, kinds: list[str]) -> None:
    """A stored table with a fixed seed: a person's seat for every ``friend`` in ``kinds``, else an easy bot."""
    game = games.get(game_id)
    row = TableRow(id=table_id, game=game.id, options=game.check_options({}), seed=seed, turn_seconds=None,
                   version=0, status="playing", created=now(), host=player(0), active=now())
    seats = [SeatRow(table_id=table_id, seat=n, kind=kind, level="easy" if kind == "bot" else None,
                     name=f"Seat {n + 1}", owner=player(n) if kind != "bot" else None, token_digest=None)
             for n, kind in enumerate(kinds)]
    store.add_table(row, seats)


async def connect(manager: TableManager, table_id: str, who: str | None) -> Connection:
    conn = Connection(who)
    await manager.hello(conn, table_id, {"type": "hello"})
    return conn


def drain(conn: Connection) -> list[str]:
    """Every text sent to ``conn`` since last time."""
    texts = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        assert text is not None
        texts.append(text)
    return texts


def expected_view(table: Table, viewer: int | None) -> Any:
    """What ``viewer`` may see now, worked out from scratch (as JSON gives it back)."""
    view = table.state.observation(viewer) if viewer is not None else views.public_view(table.state)
    return json.loads(encode(view))


def check_sent(manager: TableManager, table: Table, sent: dict[int | None, list[list[str]]]) -> None:
    """Each connection got one ``state`` of the table's version: its own viewer's, the same text as
    the viewer's other connections, equal to its message encoded whole, made from scratch."""
    texts: dict[int | None, str] = {}
    for viewer, per_connection in sent.items():
        assert all(len(got) == 1 for got in per_connection), (viewer, [len(g) for g in per_connection])
        first = per_connection[0][0]
        assert all(got[0] is first for got in per_connection), "a viewer's connections share one text"
        message = json.loads(first)
        assert message["type"] == "state" and message["version"] == table.version
        assert message["view"] == expected_view(table, viewer)
        assert message["view"]["seat"] == viewer
        if viewer is None:
            assert not message["view"].get("hand") and message["legal"] == []  # hidden, or empty for all
        else:
            assert message["view"]["hand"] == expected_view(table, viewer)["hand"]
        assert message["moves"] == json.loads(encode(narrate.move_log(table.state, viewer)))
        assert message["seats"] == table.public_seats()
        assert first == encode(manager.message(table, viewer))
        texts[viewer] = first
    assert len(set(texts.values())) == len(texts), "no two viewers get the same text"


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_connection_gets_its_own_viewers_state_shared_with_its_viewers_other_tabs(
        game_id: str, players: int, tmp_path: Path) -> None:
    """Two tabs for every seat and two spectators, 300 changes of a seeded match: after each, every
    tab gets exactly its seat's view (spectators the public view), one text per viewer."""

    async def test(manager: TableManager, _store: TableStore) -> None:
        table = await manager.get("shared")
        tabs: dict[int | None, list[Connection]] = {
            seat: [await connect(manager, "shared", player(seat)) for _ in range(2)] for seat in range(players)}
        tabs[None] = [await connect(manager, "shared", None), await connect(manager, "shared", "a-stranger")]
        for conn in (c for group in tabs.values() for c in group):
            drain(conn)
        rng = random.Random(game_id)
        for _ in range(300):
            seat = table.state.current_player()
            if seat is None:
                if table.status == "finished":
                    break
                await manager.handle(tabs[0][0], {"type": "next_round", "version": table.version})
            else:
                move = rng.choice(manager.message(table, seat)["legal"])
                await manager.handle(tabs[seat][rng.randrange(2)],
                                     {"type": "move", "move": move, "version": table.version})
            check_sent(manager, table, {viewer: [drain(c) for c in group] for viewer, group in tabs.items()})
        assert table.version >= 100  # a whole match of twenty, or 300 changes

    run(test, tmp_path / "web.db",
        lambda store: add_table(store, "shared", game_id, seed=19, kinds=["friend"] * players))


def test_who_is_connected_changes_the_shared_text_too(tmp_path: Path) -> None:
    """When a seat's last tab leaves, the others are told, and a tab that comes later gets a
    state that says so (the text kept for its viewer is made again)."""

    async def test(manager: TableManager, _store: TableStore) -> None:
        table = await manager.get("presence")
        first = [await connect(manager, "presence", player(0)) for _ in range(2)]
        other = await connect(manager, "presence", player(1))
        watcher = await connect(manager, "presence", None)
        for conn in (*first, other, watcher):
            drain(conn)
        manager.leave(first[0])
        assert drain(other) == [] and drain(watcher) == []  # seat 0 is still there in its other tab
        manager.leave(first[1])
        told = [json.loads(text) for text in drain(other)]
        assert told == [{"type": "seats", "seats": table.public_seats()},
                        {"type": "presence", "seat": 0, "joined": False, "text": f"{table.seats[0].name} left",
                         "spectators": 1}]
        assert not told[0]["seats"][0]["connected"]
        late = await connect(manager, "presence", "another-stranger")
        welcome, state = (json.loads(text) for text in drain(late))
        assert welcome["type"] == "welcome" and state["type"] == "state"
        assert state["seats"] == table.public_seats() and not state["seats"][0]["connected"]
        assert drain(late) == []

    run(test, tmp_path / "web.db", lambda store: add_table(store, "presence", "minus-twenty", seed=3,
                                                           kinds=["friend", "friend"]))


def test_the_round_told_in_words_stays_right_through_undos_and_bot_moves(tmp_path: Path) -> None:
    """Against a bot, with undos now and then: every state's moves in words (encoded as each move is
    said, rebuilt after an undo) equal the round told afresh, and the text equals the message."""

    async def test(manager: TableManager, _store: TableStore) -> None:
        table = await manager.get("undo")
        tab = await connect(manager, "undo", player(0))
        rng = random.Random(4)
        undos = 0
        for _ in range(120):
            while table.state.current_player() == 1 or table.lock.locked():
                await asyncio.sleep(0.001)  # the bot moves by itself
            if table.state.current_player() is None:
                if table.status == "finished":
                    break
                await manager.handle(tab, {"type": "next_round", "version": table.version})
                continue
            message = manager.message(table, 0)
            if message["can_undo"] and rng.random() < 0.2:
                await manager.handle(tab, {"type": "undo", "version": table.version})
                undos += 1
            else:
                await manager.handle(tab, {"type": "move", "move": rng.choice(message["legal"]),
                                           "version": table.version})
            sent = drain(tab)[-1]
            assert sent == encode(manager.message(table, 0))
            assert json.loads(sent)["moves"] == json.loads(encode(narrate.move_log(table.state, 0)))
        assert undos >= 5

    run(test, tmp_path / "web.db", lambda store: add_table(store, "undo", "minus-twenty", seed=11,
                                                           kinds=["friend", "bot"]))


def test_a_batch_of_moves_from_many_tables_is_stored_in_order(tmp_path: Path) -> None:
    """One commit for several tables' moves: each table keeps its moves in order, its newest version
    and status, and the time a person was last at it (a bot's move does not count)."""
    store = TableStore(f"sqlite:///{tmp_path / 'web.db'}")
    for name in ("a", "b", "c"):
        add_table(store, name, "twenty", seed=1, kinds=["friend", "bot"])
    with store.session() as session:  # no person has been at b or c yet
        for name in ("b", "c"):
            session.get(TableRow, name).active = None  # type: ignore[union-attr]
    store.add_moves([MoveWrite("a", 0, 0, "play 2H", 1, "playing", True),
                     MoveWrite("b", 0, 1, "play 3S", 1, "playing", False),
                     MoveWrite("a", 1, 1, "play 4D", 2, "round_over", False)])
    store.add_moves([MoveWrite("c", 0, None, "next round", 1, "playing", False),
                     MoveWrite("b", 1, 0, "play 5C", 2, "finished", True)])
    found = {name: store.load(name) for name in ("a", "b", "c")}
    moves = {name: [(m.seq, m.seat, m.move) for m in loaded[2]] for name, loaded in found.items() if loaded}
    assert moves == {"a": [(0, 0, "play 2H"), (1, 1, "play 4D")], "b": [(0, 1, "play 3S"), (1, 0, "play 5C")],
                     "c": [(0, None, "next round")]}
    rows = {name: loaded[0] for name, loaded in found.items() if loaded}
    assert [(rows[n].version, rows[n].status) for n in "abc"] == [(2, "round_over"), (2, "finished"), (1, "playing")]
    assert rows["a"].active is not None and rows["b"].active is not None and rows["c"].active is None
    assert all(rows[n].updated >= rows[n].created for n in "abc")
    store.close()


def test_every_move_a_player_was_sent_is_there_after_a_restart(tmp_path: Path) -> None:
    """Every change whose state went out is already committed (another connection to the database
    reads it while the server still runs, as after a kill), and a new server on the database
    shows each seat the same state."""
    db = tmp_path / "web.db"
    seen: dict[int, Any] = {}

    async def first(manager: TableManager, _store: TableStore) -> None:
        table = await manager.get("kept")
        tabs = [await connect(manager, "kept", player(seat)) for seat in range(2)]
        rng = random.Random(8)
        for _ in range(90):
            seat = table.state.current_player()
            if seat is None:
                await manager.handle(tabs[0], {"type": "next_round", "version": table.version})
            else:
                move = rng.choice(manager.message(table, seat)["legal"])
                await manager.handle(tabs[seat], {"type": "move", "move": move, "version": table.version})
            sent = json.loads(drain(tabs[0])[-1])
            other = TableStore(f"sqlite:///{db}")
            loaded = other.load("kept")
            other.close()
            assert loaded is not None and loaded[0].version == sent["version"] == len(loaded[2])
            assert [m.move for m in loaded[2]] == [change for _seat, change in table.changes]
        for seat, tab in enumerate(tabs):
            seen[seat] = json.loads(drain(tab)[-1]) if seat else sent

    async def second(manager: TableManager, _store: TableStore) -> None:
        table = await manager.get("kept")
        assert table.version == 90 == seen[0]["version"]
        for seat in range(2):
            tab = await connect(manager, "kept", player(seat))
            state = json.loads(drain(tab)[-1])
            for key in ("version", "view", "legal", "status", "log", "values", "moves", "layout"):
                assert state[key] == seen[seat][key], key

    run(first, db, lambda store: add_table(store, "kept", "silver-bars", seed=8, kinds=["friend", "friend"]))
    run(second, db)
