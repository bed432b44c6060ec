"""Play again at the end of a match, on a real server over real WebSockets: when both people accept, a new
table starts with the same players, options and bots, seats rotated, and every connection of the old
table is sent its address; one who declines (or leaves) holds it back, and the others are told."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from .conftest import Client, ServerProcess, play_to_end

SHORT = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}
"""A match of Twenty that is over in a few moves."""


def finished_table(server: ServerProcess, seats: list[dict[str, Any]] | None = None,
                   seed: int = 1) -> tuple[dict[str, Any], list[Client]]:
    """A table of two people (and any bots) played to its end, with each person's client."""
    table = server.create_table("twenty", seats=seats, options=SHORT, turn_seconds=600)
    people = [s["person"] for s in table["seats"] if "person" in s]
    clients = [Client(server, table["table_id"], p) for p in people]
    last = play_to_end(clients, random.Random(seed))
    assert last["status"] == "finished"
    return table, clients


def answer(client: Client, accept: bool) -> None:
    assert client.state is not None
    client.send({"type": "play_again", "accept": accept, "version": client.state["version"]})


def test_both_accept_and_a_new_table_starts_with_seats_rotated(server: ServerProcess) -> None:
    table, (ada, bea) = finished_table(server)
    watcher = Client(server, table["table_id"], server.person("Cy"))
    assert watcher.seat is None
    answer(ada, True)
    votes = bea.recv_until("play_again")
    assert votes["accepted"] == [ada.seat] and votes["waiting"] == [bea.seat] and votes["table"] is None
    watcher.send({"type": "play_again", "accept": True, "version": table["version"]})
    assert watcher.recv_until("error")["code"] == "unauthorized"  # spectators do not vote
    answer(bea, True)
    told = [c.recv_until("new_table") for c in (ada, bea, watcher)]
    new_id = told[0]["table_id"]
    assert {t["table_id"] for t in told} == {new_id} and told[0]["url"] == f"/table/{new_id}"
    assert new_id != table["table_id"]
    new = server.table(new_id)
    assert new["options"] == server.table(table["table_id"])["options"]
    assert new["turn_seconds"] == 600 and new["status"] == "playing"
    old_seats = server.table(table["table_id"])["seats"]
    assert [s["name"] for s in new["seats"]] == [old_seats[1]["name"], old_seats[0]["name"]]
    # the people's seats are theirs at once (no invitation), each one place on
    with Client(server, new_id, ada.person) as ada2, Client(server, new_id, bea.person) as bea2:
        assert (ada2.seat, bea2.seat) == ((ada.seat + 1) % 2, (bea.seat + 1) % 2)  # type: ignore[operator]
    assert new["invites"] == []
    # a second answer at the old table changes nothing
    answer(ada, True)
    assert "started already" in ada.recv_until("error")["message"]


def test_one_declines_and_no_table_starts(server: ServerProcess) -> None:
    _table, (ada, bea) = finished_table(server, seed=2)
    answer(ada, True)
    bea.recv_until("play_again")
    answer(bea, False)
    votes = ada.recv_until("play_again", lambda m: m["declined"] == [bea.seat])
    assert votes["accepted"] == [ada.seat] and votes["table"] is None
    assert not any(f["type"] == "new_table" for f in ada.ping() + bea.ping())


def test_one_who_leaves_holds_it_back_until_back(server: ServerProcess) -> None:
    table, (ada, bea) = finished_table(server, seed=3)
    bea_person = bea.person
    bea.close()
    assert ada.recv_until("play_again")["left"] == [bea.seat]
    answer(ada, True)
    assert ada.recv_until("play_again")["accepted"] == [ada.seat]
    assert not any(f["type"] == "new_table" for f in ada.ping())
    back = Client(server, table["table_id"], bea_person)
    votes = ada.recv_until("play_again", lambda m: m["left"] == [])
    assert votes["waiting"] == [back.seat]
    answer(back, True)
    assert ada.recv_until("new_table")["table_id"] == back.recv_until("new_table")["table_id"]


def test_bots_rotate_with_their_seats_and_play_again_is_only_at_the_end(server: ServerProcess) -> None:
    host = server.person("Ann")
    small = {"suits": 1, "numbers": 4, "faces": 2, "hand_size": 1, "stall_limit": 3, "rounds": 1}
    answer_ = host.post("/api/tables", json={"game": "progression", "options": small,
                                             "seats": [{"kind": "me"}, {"kind": "bot", "level": "medium"},
                                                       {"kind": "bot", "level": "easy"}]})
    assert answer_.status_code in (200, 201), answer_.text
    table_id = answer_.json()["table_id"]
    with Client(server, table_id, host) as ann:
        answer(ann, True)
        assert ann.recv_until("error")["code"] == "not_allowed"
        last = play_to_end([ann], random.Random(4), timeout=60)
        assert last["status"] == "finished"
        ann.send({"type": "play_again", "accept": True, "version": last["version"]})
        new_id = ann.recv_until("new_table")["table_id"]
    new = server.table(new_id)
    assert [(s["kind"], s["level"]) for s in new["seats"]] == [("bot", "easy"), ("me", None), ("bot", "medium")]
    assert new["options"]["rounds"] == 1


def test_the_new_table_counts_against_the_limits(sqlite_url: str, tmp_path: Path) -> None:
    """The host may start one table an hour here: the new table is refused, in words, and the last to
    accept may try again; nothing starts."""
    server = ServerProcess(sqlite_url, log_path=tmp_path / "server.log",
                           extra=("--max-per-hour", "1", "--message-rate", "1000")).start()
    _table, (ada, bea) = finished_table(server, seed=5)
    answer(ada, True)
    answer(bea, True)
    refused = bea.recv_until("error")
    assert refused["code"] == "not_allowed" and "in the last hour (the limit is 1)" in refused["message"]
    votes = ada.recv_until("play_again", lambda m: m["waiting"] == [bea.seat])
    assert votes["accepted"] == [ada.seat] and votes["table"] is None
    assert not any(f["type"] == "new_table" for f in ada.frames + bea.frames)


def test_the_old_table_still_points_to_the_new_one_after_a_restart(server: ServerProcess) -> None:
    table, (ada, bea) = finished_table(server, seed=6)
    answer(ada, True)
    answer(bea, True)
    new_id = ada.recv_until("new_table")["table_id"]
    ada.close()
    bea.close()
    server.kill()
    server.restart()
    with Client(server, table["table_id"], ada.person) as back:
        votes = back.recv_until("play_again")
        assert votes["table"] == new_id and votes["accepted"] == sorted([ada.seat, bea.seat])  # type: ignore[type-var]
    assert server.table(new_id)["status"] == "playing"
