"""A database made by the previous release opens and goes on after the upgrade.

The previous release is run for real: its source tree is exported from git
(commit ``3932b9d``: tables made with ``create_all``, seats with the SHA-256
digest of a secret token, ``hello {token}`` to take a seat) and served as a
real process on a fresh SQLite or PostgreSQL database; a table is started and
played a little through its API.  The new server then opens the same
database: the schema is upgraded by Alembic, the table is there at the same
version, and the old seat links still take their seats (the first identity to
bring one gets it) and play to the end.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from conftest import export_release, newest_revision
from parlour import games
from parlour import record as records
from parlour.web.store import VERSION_TABLE, Base, SeatRow, TableRow, TableStore, digest

from .conftest import Client, Person, ServerProcess, play_to_end
from .test_review import finished_table, wait_for_review

PREVIOUS_RELEASE = "3932b9d"
"""The last commit of the first release of ``parlour serve`` (seat tokens, no migrations)."""
FAST_CLIENTS = ("--message-rate", "1000")
"""Test clients move far faster than people."""


@pytest.fixture(scope="module")
def previous_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The previous release's source tree (``src/``), exported from git."""
    folder = export_release(PREVIOUS_RELEASE, tmp_path_factory.mktemp("previous-release"))
    assert (folder / "src" / "parlour" / "web" / "store.py").exists()
    return folder


class PreviousServer(ServerProcess):
    """``python -m parlour serve`` of the previous release (its own source tree first on the path)."""

    def __init__(self, tree: Path, db_url: str, log_path: Path) -> None:
        super().__init__(db_url, log_path=log_path)
        self.tree = tree
        self.cwd = tree

    def environment(self) -> dict[str, str]:
        return dict(super().environment(), PYTHONPATH=str(self.tree / "src"))


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    """A fresh database: SQLite, then PostgreSQL."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


def schema(url: str) -> dict[str, Any]:
    """The web tables' columns and Alembic's revision, read straight from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            found = inspect(connection)
            names = set(found.get_table_names())
            columns = {name: {c["name"] for c in found.get_columns(name)} for name in names if name.startswith("web_")}
            revision = (connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
                        if VERSION_TABLE in names else None)
        return {"columns": columns, "revision": revision}
    finally:
        engine.dispose()


def newest_columns() -> dict[str, set[str]]:
    return {name: {c.name for c in table.columns} for name, table in Base.metadata.tables.items()}


def old_table(old: ServerProcess, seats: list[dict[str, Any]]) -> dict[str, Any]:
    answer = old.post("/api/tables", json={"game": "twenty", "options": {}, "seats": seats})
    assert answer.status_code == 200, answer.text
    table: dict[str, Any] = answer.json()
    return table


def summary_names(server: ServerProcess, table_id: str) -> list[str]:
    return [s["name"] for s in server.table(table_id)["seats"]]


def test_a_database_of_the_previous_release_is_upgraded_and_its_table_goes_on(
    previous_release: Path, db_url: str, tmp_path: Path
) -> None:
    old = PreviousServer(previous_release, db_url, tmp_path / "previous.log").start()
    table = old_table(old, [{"kind": "friend", "name": "Ann"}, {"kind": "friend", "name": "Ben"}])
    table_id = table["table_id"]
    tokens = [s.get("token") for s in table["seats"]]
    assert all(tokens) and tokens[0] != tokens[1], f"not the previous release's API: {table}"
    assert isinstance(old.get("/api/tables").json(), list), "the previous release's lobby is a plain list"
    clients = [Client(old, table_id, None, hello=False) for _ in tokens]
    for client, token in zip(clients, tokens):
        assert client.hello(token)["seat"] == tokens.index(token)
    before = play_to_end(clients, random.Random(1605), stop_at=7)
    assert before["version"] == 7 and before["status"] == "playing"
    moves_before = [f["last"]["move"] for f in clients[0].frames if f["type"] == "state" and f["last"]]
    assert len(moves_before) == 7
    for client in clients:
        client.close()
    old.stop()
    old_schema = schema(db_url)
    assert old_schema["revision"] is None and "owner" not in old_schema["columns"]["web_seats"], old_schema

    server = ServerProcess(db_url, log_path=tmp_path / "server.log", extra=FAST_CLIENTS).start()
    upgraded = schema(db_url)
    assert upgraded["revision"] == [newest_revision("parlour.web")]
    for name, columns in newest_columns().items():
        assert columns <= upgraded["columns"].get(name, set()), (name, columns, upgraded["columns"].get(name))
    summary = server.table(table_id)
    assert (summary["version"], summary["status"]) == (7, "playing")
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Ben"]

    # new identities bring the old links: the first to bring one has that seat for good
    ann, ben, mallory = server.person(), server.person(), server.person("Mallory")
    seated = [Client(server, table_id, p, hello=False) for p in (ann, ben)]
    for client, token in zip(seated, tokens):
        welcome = client.hello(token)
        assert welcome["role"] == "player" and welcome["seat"] == tokens.index(token)
        assert client.state is not None and client.state["version"] == 7
    assert seated[0].state is not None
    after = dict(seated[0].state["view"])
    # The new release knows more rule options: the old ones as they were, the new at their defaults.
    options = after.pop("options")
    assert before["view"]["options"].items() <= options.items()
    assert games.get("twenty").check_options(before["view"]["options"]) == options
    assert after == {k: v for k, v in before["view"].items() if k != "options"}, "the same cards as before"
    with Client(server, table_id, mallory, hello=False) as thief:
        thief.send({"type": "hello", "token": tokens[0]})
        assert thief.recv_until("error")["code"] == "unauthorized"
        thief.send({"type": "move", "move": "play 2C", "version": 7})
        assert thief.recv_until("error")["code"] in ("hello_required", "unauthorized")
    with Client(server, table_id, ann) as again:  # the cookie alone holds the seat now
        assert again.seat == 0
    assert [s["taken"] for s in server.table(table_id)["seats"]] == [True, True]
    assert summary_names(server, table_id) == ["Ann", "Ben"]

    last = play_to_end(seated, random.Random(1606))
    assert last["status"] == "finished"
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["rounds"][0]["moves"][:7] == moves_before
    final = records.replay(records.from_data(data))
    assert final.is_match_over() and final.totals == last["summary"]["totals"]
    for client in seated:
        client.close()
    # and it is all still there after another restart (the upgrade is done once)
    server.restart()
    assert schema(db_url)["revision"] == [newest_revision("parlour.web")]
    assert server.table(table_id)["status"] == "finished"
    assert "Traceback" not in server.output(), server.output()


def test_an_open_seat_taken_in_the_previous_release_stays_taken(previous_release: Path, sqlite_url: str,
                                                                 tmp_path: Path) -> None:
    old = PreviousServer(previous_release, sqlite_url, tmp_path / "previous.log").start()
    table = old_table(old, [{"kind": "friend", "name": "Cy"}, {"kind": "open"}])
    table_id = table["table_id"]
    joined = old.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Di"})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    free = old_table(old, [{"kind": "friend", "name": "Ed"}, {"kind": "open"}])
    old.stop()

    server = ServerProcess(sqlite_url, log_path=tmp_path / "server.log", extra=FAST_CLIENTS).start()
    lobby = [t["table_id"] for t in server.get("/api/tables").json()["tables"]]
    assert free["table_id"] in lobby, "an open seat nobody took is still offered"
    taken = server.table(table_id)["seats"][1]
    assert taken["name"] == "Di"
    assert table_id not in lobby, f"Di's seat is offered in the lobby: {taken}"
    stranger = server.person("Eve")
    refused = stranger.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert refused.status_code == 409, f"another person took Di's seat: {refused.status_code} {refused.text}"
    di = server.person()
    with Client(server, table_id, di, hello=False) as client:
        assert client.hello(token)["seat"] == 1


# -- the store on its own ----------------------------------------------------------------------

def test_an_empty_database_gets_the_newest_schema_and_opening_it_again_is_harmless(db_url: str) -> None:
    store = TableStore(db_url)
    try:
        made = schema(db_url)
        assert made["revision"] == [newest_revision("parlour.web")]
        assert {k: v for k, v in made["columns"].items() if k != VERSION_TABLE} == newest_columns()
        key = store.secret("session_key")
        store.add_table(
            TableRow(id="t1", game="twenty", options={}, seed=5, turn_seconds=None, version=0, status="playing",
                     host="p1"),
            [SeatRow(table_id="t1", seat=0, kind="me", level=None, name="Ann", owner="p1"),
             SeatRow(table_id="t1", seat=1, kind="friend", level=None, name="Player 2", invite="code",
                     token_digest=digest("code"))],
        )
    finally:
        store.close()
    for _ in range(2):
        again = TableStore(db_url)
        try:
            assert schema(db_url) == made
            assert again.secret("session_key") == key
            loaded = again.load("t1")
            assert loaded is not None
            row, seats, moves = loaded
            assert (row.host, [s.owner for s in seats], [s.invite for s in seats], moves) == ("p1", ["p1", None],
                                                                                             [None, "code"], [])
        finally:
            again.close()


def test_the_store_upgrades_a_first_release_schema_in_place(previous_release: Path, db_url: str) -> None:
    """The previous release's own ``create_all`` (run in its own interpreter), then the new store."""
    script = ("import sys; from parlour.web.store import TableStore, TableRow, SeatRow, digest; "
              "s = TableStore(sys.argv[1]); "
              "s.add_table(TableRow(id='old', game='twenty', options={}, seed=9, turn_seconds=None, version=0, "
              "status='playing'), [SeatRow(table_id='old', seat=0, kind='friend', level=None, name='Ann', "
              "token_digest=digest('secret'))]); s.close()")
    env = dict(os.environ, PYTHONPATH=str(previous_release / "src"))
    done = subprocess.run([sys.executable, "-c", script, db_url], cwd=previous_release, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert schema(db_url)["revision"] is None
    store = TableStore(db_url)
    try:
        assert schema(db_url)["revision"] == [newest_revision("parlour.web")]
        loaded = store.load("old")
        assert loaded is not None
        row, seats, _moves = loaded
        assert row.host is None and seats[0].owner is None and seats[0].token_digest == digest("secret")
        assert [r.id for r, _s, _m in store.live(row.updated.replace(year=2000))] == ["old"]
    finally:
        store.close()



def same_browser(server: ServerProcess, person: Person) -> Person:
    """``person``'s browser (its session cookie) at another server on the same database."""
    again = server.person()
    again.http.cookies.clear()
    again.http.cookies.update(person.http.cookies)
    return again


LAST_RELEASE = "f4f1c7a"
"""The last commit of the release before this one (issue 32's: reviews kept with their matches, migration 0004)."""


def test_a_database_of_the_last_release_keeps_its_players_matches_and_reviews(sqlite_url: str, tmp_path: Path,
                                                                              tmp_path_factory: pytest.TempPathFactory
                                                                              ) -> None:
    tree = export_release(LAST_RELEASE, tmp_path_factory.mktemp("last-release"))
    old = PreviousServer(tree, sqlite_url, tmp_path / "last.log").start()
    table_id, ann = finished_table(old)
    assert ann.post(f"/api/tables/{table_id}/review").status_code == 200
    reviewed = wait_for_review(ann, table_id)[-1]
    mine = ann.get("/api/me").json()
    old.stop()
    assert schema(sqlite_url)["revision"] == ["0004"]

    server = ServerProcess(sqlite_url, log_path=tmp_path / "server.log", extra=FAST_CLIENTS).start()
    assert schema(sqlite_url)["revision"] == [newest_revision("parlour.web")]
    ann = same_browser(server, ann)
    assert ann.get("/api/me").json().items() >= mine.items()
    assert ann.get(f"/api/tables/{table_id}/review").json() == reviewed
    assert server.table(table_id)["status"] == "finished"
    # and it goes on: a new match of the same player, and its review
    again, _ = finished_table(server, ann)
    assert again != table_id and ann.post(f"/api/tables/{again}/review").status_code == 200
    assert wait_for_review(ann, again)[-1]["review"]["player"] == "Ann"
    assert "Traceback" not in server.output(), server.output()
