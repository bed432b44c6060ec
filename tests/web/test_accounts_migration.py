"""A database of the release before accounts (commit ``6754b7b``, schema 0005) upgrades in place: the
previous release is run for real and a guest plays a short match to its end there; the new server then
opens the same database (migration 0006 adds the accounts), the guest's cookie still names them, they
register, and a second browser that signs in finds the old match in My games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import export_release, newest_revision

from .conftest import Client, ServerProcess, play_to_end
from .test_migrations import PreviousServer, schema

BEFORE_ACCOUNTS = "6754b7b"
"""The last commit before accounts (web schema 0005)."""
SHORT = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}


@pytest.fixture(scope="module")
def before_accounts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The release before accounts (``src/``), exported from git."""
    folder = export_release(BEFORE_ACCOUNTS, tmp_path_factory.mktemp("before-accounts"))
    assert not (folder / "src" / "parlour" / "web" / "accounts.py").exists()
    return folder


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


def test_a_database_from_before_accounts_upgrades_and_its_matches_follow_the_account(
        before_accounts: Path, db_url: str, tmp_path: Path) -> None:
    old = PreviousServer(before_accounts, db_url, tmp_path / "previous.log").start()
    ada = old.person("Ada")
    table = ada.post("/api/tables", json={"game": "twenty", "options": SHORT,
                                          "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]})
    assert table.status_code == 200, table.text
    table_id = table.json()["table_id"]
    with Client(old, table_id, ada) as client:
        final = play_to_end([client], random.Random(7))
    assert final["status"] == "finished"
    old.stop()
    assert schema(db_url)["revision"] == ["0005"]
    assert "web_accounts" not in schema(db_url)["columns"]

    new = ServerProcess(db_url, port=old.port, log_path=tmp_path / "new.log").start()
    assert schema(db_url)["revision"] == [newest_revision("parlour.web")]
    assert schema(db_url)["columns"]["web_accounts"] == {"username_key", "username", "password_hash", "player",
                                                         "created"}
    # The same browser on the same port: its cookie is signed with the key kept in the database.
    assert ada.get("/api/me").json() == {"name": "Ada", "account": None, "page": None}
    assert ada.post("/api/account/register", json={"username": "ada", "password": "a long password"}).status_code \
        == 200
    elsewhere = new.person()
    signed = elsewhere.post("/api/account/signin", json={"username": "ADA", "password": "a long password"})
    assert signed.status_code == 200, signed.text
    (line,) = elsewhere.get("/api/me/games").json()["matches"]
    assert line["table_id"] == table_id and line["name"] == "Ada"
    assert line["total"] == final["summary"]["totals"][0]
    assert line["opponents"][0]["bot"] == "easy"
