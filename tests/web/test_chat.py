"""Table chat and presence over real WebSockets to a real server process: what one person says
reaches everyone at the table (two players and a spectator), is stored with the table and sent
again to a newcomer after the server is killed and started again; refusals (empty, too long,
control characters, too fast: per connection, identity and address) come in plain words; the store
keeps only the newest messages of a table; "Bea joined", "Bea left" and the number of people
watching are told to the table; a database of the previous release gets the chat table."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from conftest import export_release, newest_revision
from parlour.web.limits import Limits
from parlour.web.store import VERSION_TABLE, ChatRow, SeatRow, TableRow, TableStore, now

from .conftest import Client, Person, ServerProcess, play_to_end
from .test_migrations import PreviousServer

PREVIOUS_RELEASE = "6754b7b"
"""The last commit before table chat (its schema is at revision 0005)."""
LIMITS = Limits()


def three_at_a_table(server: ServerProcess) -> tuple[str, list[Person], Person]:
    """A Twenty table of two people (Ann hosts, Bea accepts her invitation) and a spectator, Cy."""
    ann, cy = server.person("Ann"), server.person("Cy")
    table = server.create_table("twenty", host=ann, seats=[{"kind": "me"}, {"kind": "friend"}])
    bea: Person = table["seats"][1]["person"]
    assert bea.put("/api/me", json={"name": "Bea"}).status_code == 200
    return table["table_id"], [ann, bea], cy


def said(client: Client, text: str) -> dict[str, Any]:
    """The ``chat`` message of ``text`` as it reaches ``client``."""
    return client.recv_until("chat", lambda m: m["text"] == text)


def refusal(client: Client, text: Any) -> dict[str, Any]:
    client.send({"type": "chat", "text": text})
    error = client.recv_until("error")
    assert client.ping() == [], "nothing else happened"
    return error


def test_what_is_said_reaches_everyone_and_is_kept_through_a_crash(server: ServerProcess) -> None:
    table_id, (ann, bea), cy = three_at_a_table(server)
    players = [Client(server, table_id, p) for p in (ann, bea)]
    watcher = Client(server, table_id, cy)
    assert watcher.seat is None and [c.seat for c in players] == [0, 1]
    everyone = [*players, watcher]

    players[0].send({"type": "chat", "text": "  Good luck, <b>Bea</b>!  "})
    for client in everyone:
        line = said(client, "Good luck, <b>Bea</b>!")
        assert line["seat"] == 0 and line["name"] == "Ann" and line["spectator"] is False
        assert line["at"].endswith("Z") and line["at"][:4].isdigit()
    watcher.send({"type": "chat", "text": "I am only watching"})
    for client in everyone:
        line = said(client, "I am only watching")
        assert (line["seat"], line["name"], line["spectator"]) == (None, "Cy", True)
    # a version is not needed, and one sent is ignored; the table does not change
    players[1].send({"type": "chat", "text": "Thanks 🙂", "version": 999})
    assert said(players[0], "Thanks 🙂")["name"] == "Bea"
    assert server.table(table_id)["version"] == 0

    server.kill()
    server.start()
    with Client(server, table_id, server.person("Di")) as late:
        assert late.welcome is not None
        assert [(line["name"], line["spectator"], line["text"]) for line in late.welcome["chat"]] == [
            ("Ann", False, "Good luck, <b>Bea</b>!"), ("Cy", True, "I am only watching"), ("Bea", False, "Thanks 🙂")]
    for client in everyone:
        client.close()


def test_chat_goes_on_after_the_match_and_the_game_is_not_disturbed(server: ServerProcess) -> None:
    table_id, people, cy = three_at_a_table(server)
    players = [Client(server, table_id, p) for p in people]
    watcher = Client(server, table_id, cy)
    last = play_to_end(players, random.Random(34), watchers=(watcher,))
    assert last["status"] == "finished"
    players[1].send({"type": "chat", "text": "Well played"})
    assert said(watcher, "Well played")["seat"] == 1
    for client in (*players, watcher):
        client.close()


def test_refusals_come_in_plain_words_and_keep_the_connection(server: ServerProcess) -> None:
    table_id, (ann, _bea), cy = three_at_a_table(server)
    with Client(server, table_id, ann) as client:
        empty = refusal(client, "   ")
        assert (empty["code"], empty["message"]) == ("not_allowed", "Your message is empty: type something to say")
        long = refusal(client, "x" * (LIMITS.chat_length + 1))
        assert long["code"] == "not_allowed"
        assert long["message"] == f"A message is at most {LIMITS.chat_length} characters (yours has 301)"
        longest = "y" * LIMITS.chat_length
        client.send({"type": "chat", "text": f"  {longest}  "})
        said(client, longest)
    with Client(server, table_id, ann) as client:
        bell = refusal(client, "ring\u0007")
        assert bell["code"] == "not_allowed" and "control characters (U+0007)" in bell["message"]
        flipped = refusal(client, "abc\u202edef")
        assert flipped["code"] == "not_allowed" and "direction overrides (U+202E)" in flipped["message"]
        assert refusal(client, 42)["code"] == "malformed"
        assert refusal(client, None)["code"] == "malformed"
    with Client(server, table_id, cy, hello=False) as stranger:
        stranger.send({"type": "chat", "text": "hi"})
        assert stranger.recv_until("error")["code"] == "hello_required"


def burst(client: Client, texts: list[str]) -> list[dict[str, Any]]:
    """Send these chat messages at once; the answer to each: its ``chat`` or an ``error``."""
    for line in texts:
        client.send({"type": "chat", "text": line})
    answers: list[dict[str, Any]] = []
    while len(answers) < len(texts):
        message = client.recv()
        if message["type"] == "error" or (message["type"] == "chat" and message["text"] in texts):
            answers.append(message)
    return answers


def test_a_connection_and_an_identity_that_chat_too_fast_are_refused(server: ServerProcess) -> None:
    """The budgets refill slowly (a message every few seconds), so a burst sent at once is refused
    after the burst allowed, whatever the machine's speed."""
    table_id, (ann, bea), cy = three_at_a_table(server)
    # One connection: its own burst, then refusals that say when to go on.
    with Client(server, table_id, bea) as client:
        answers = burst(client, [f"line {n}" for n in range(LIMITS.socket_chat_burst + 3)])
        assert [a["type"] for a in answers[:LIMITS.socket_chat_burst]] == ["chat"] * LIMITS.socket_chat_burst
        refused = [a for a in answers if a["type"] == "error"]
        assert refused and all(e["code"] == "rate_limited" for e in refused)
        assert refused[0]["message"].startswith("You are sending chat messages too fast: say the next in ")
        assert client.ping() == []
    # One identity in two tabs: the second tab is refused within its own burst, the identity's being spent.
    assert LIMITS.socket_chat_burst < LIMITS.chat_burst < 2 * LIMITS.socket_chat_burst
    tabs = [Client(server, table_id, cy), Client(server, table_id, cy)]
    first = burst(tabs[0], [f"tab 1 line {n}" for n in range(LIMITS.socket_chat_burst)])
    assert all(a["type"] == "chat" for a in first)
    second = burst(tabs[1], [f"tab 2 line {n}" for n in range(LIMITS.socket_chat_burst)])
    assert second[0]["type"] == "chat"
    assert [a["code"] for a in second if a["type"] == "error"][:1] == ["rate_limited"]
    for tab in tabs:
        tab.close()
    # Ann was never refused: the budgets are each person's.
    with Client(server, table_id, ann) as client:
        client.send({"type": "chat", "text": "still here"})
        said(client, "still here")


def test_an_address_that_chats_too_fast_under_many_identities_is_refused(server: ServerProcess) -> None:
    """Identities cost nothing to make: an address has a chat budget of its own, for all of them."""
    table_id, _people, _cy = three_at_a_table(server)
    voices = [Client(server, table_id, server.person(f"Voice {n}", address="127.0.0.7")) for n in range(6)]
    assert 6 * LIMITS.socket_chat_burst > LIMITS.address_chat_burst + 5
    answers = [a for n, voice in enumerate(voices)
               for a in burst(voice, [f"voice {n} line {m}" for m in range(LIMITS.socket_chat_burst)])]
    refused = [a for a in answers if a["type"] == "error"]
    assert refused and all(e["code"] == "rate_limited" for e in refused)
    for voice in voices:
        voice.close()
    with Client(server, table_id, server.person("Elsewhere", address="127.0.0.8")) as other:
        other.send({"type": "chat", "text": "another address"})
        said(other, "another address")


def test_the_store_keeps_only_the_newest_messages_of_each_table(sqlite_url: str) -> None:
    store = TableStore(sqlite_url)
    try:
        for table_id in ("t1", "t2"):
            store.add_table(TableRow(id=table_id, game="twenty", options={}, seed=1, turn_seconds=None, version=0,
                                     status="playing"),
                            [SeatRow(table_id=table_id, seat=0, kind="me", level=None, name="Ann", owner="p1")])
        for n in range(12):
            store.add_chat(ChatRow(table_id="t1", seat=0, name="Ann", spectator=False, text=f"m{n}", said=now()),
                           keep=5)
        store.add_chat(ChatRow(table_id="t2", seat=None, name="Cy", spectator=True, text="other", said=now()), 5)
        assert [r.text for r in store.chat("t1", 50)] == ["m7", "m8", "m9", "m10", "m11"]
        assert [r.text for r in store.chat("t1", 2)] == ["m10", "m11"]
        assert [r.text for r in store.chat("t2", 50)] == ["other"]
    finally:
        store.close()


def test_the_table_is_told_who_joined_who_left_and_how_many_watch(server: ServerProcess) -> None:
    table_id, (ann, bea), cy = three_at_a_table(server)
    host = Client(server, table_id, ann)
    assert host.welcome is not None and host.welcome["spectators"] == 0 and host.welcome["chat"] == []
    friend = Client(server, table_id, bea)
    joined = host.recv_until("presence")
    assert joined == {"type": "presence", "seat": 1, "joined": True, "text": "Bea joined", "spectators": 0}
    watcher = Client(server, table_id, cy)
    assert host.recv_until("presence") == {"type": "presence", "seat": None, "joined": True, "text": None,
                                           "spectators": 1}
    assert watcher.welcome is not None and watcher.welcome["spectators"] == 1
    # the same spectator in a second tab is still one person watching: nothing is said
    second_tab = Client(server, table_id, cy)
    assert [f for f in host.ping() if f["type"] == "presence"] == []
    assert friend.recv_until("presence")["spectators"] == 1
    second_tab.close()
    watcher.close()
    assert host.recv_until("presence") == {"type": "presence", "seat": None, "joined": False, "text": None,
                                           "spectators": 0}
    friend.close()
    assert host.recv_until("presence") == {"type": "presence", "seat": 1, "joined": False, "text": "Bea left",
                                           "spectators": 0}
    host.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_database_of_the_previous_release_gets_the_chat(database: str, tmp_path: Path,
                                                          request: pytest.FixtureRequest) -> None:
    db_url: str = request.getfixturevalue("sqlite_url" if database == "sqlite" else "postgres_url")
    tree = export_release(PREVIOUS_RELEASE, tmp_path / "previous")
    old = PreviousServer(tree, db_url, tmp_path / "previous.log").start()
    table_id, people, _cy = three_at_a_table(old)
    players = [Client(old, table_id, p) for p in people]
    play_to_end(players, random.Random(8), stop_at=3)
    for client in players:
        client.close()
    old.stop()
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            assert "web_chat" not in inspect(connection).get_table_names()
    finally:
        engine.dispose()

    server = ServerProcess(db_url, port=old.port, log_path=tmp_path / "server.log").start()
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            found = inspect(connection)
            assert {c["name"] for c in found.get_columns("web_chat")} == {
                "id", "table_id", "seat", "name", "spectator", "text", "said"}
            assert [i["column_names"] for i in found.get_indexes("web_chat")] == [["table_id", "id"]]
            revision = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
            assert revision == [newest_revision("parlour.web")]
    finally:
        engine.dispose()
    seated = [Client(server, table_id, p) for p in people]  # the same browsers come back
    assert [c.seat for c in seated] == [0, 1]
    assert seated[0].state is not None and seated[0].state["version"] == 3
    seated[0].send({"type": "chat", "text": "We carry on"})
    assert said(seated[1], "We carry on")["name"] == "Ann"
    for client in seated:
        client.close()
    server.restart()
    with Client(server, table_id, people[1]) as back:
        assert back.welcome is not None and [line["text"] for line in back.welcome["chat"]] == ["We carry on"]
