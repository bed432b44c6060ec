"""Hints, undo, the turn timer and bots-only tables, through a real server
process and real WebSocket connections."""

from __future__ import annotations

import time
from typing import Any

import pytest

from parlour.game import NO_UNDO_PAST_A_DRAW
from parlour.narrate import estimate_text

from .conftest import Client, ServerProcess

AGAINST_BOT = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


def my_turn(client: Client, after: int = -1) -> dict[str, Any]:
    """The newest state once it is this client's turn at a version after ``after``."""
    latest = client.state
    if latest is not None and latest["legal"] and latest["version"] > after:
        return latest
    return client.recv_until("state", lambda m: bool(m["legal"]) and m["version"] > after, timeout=30)


def test_hint_gives_three_legal_moves_with_estimates(server: ServerProcess) -> None:
    table = server.create_table("minus-twenty", seats=AGAINST_BOT)
    client = Client(server, table["table_id"], table["seats"][0]["person"])
    state = my_turn(client)
    assert state["can_hint"]
    client.send({"type": "hint", "version": state["version"]})
    hint = client.recv_until("hint", timeout=30)
    assert hint["version"] == state["version"]
    assert 1 <= len(hint["moves"]) <= 3
    assert all(m["move"] in state["legal"] and isinstance(m["value"], float | int) for m in hint["moves"])
    # in words for the player who asked, with the search's figures kept beside them
    for move in hint["moves"]:
        assert move["outlook"] == estimate_text(move["value"], move["margin"], players=2), move
        assert move["text"].startswith("You ") and move["text"].endswith(": " + move["outlook"]), move
        assert "for you than your opponent" in move["outlook"] and isinstance(move["share"], float | int)


def test_a_hint_with_one_legal_move_says_it_is_your_only_move(server: ServerProcess) -> None:
    table = server.create_table("twenty", seats=AGAINST_BOT, options={"hand_size": 1, "ranks": 6})
    client = Client(server, table["table_id"], table["seats"][0]["person"])
    state = my_turn(client)
    assert len(state["legal"]) == 1
    client.send({"type": "hint", "version": state["version"]})
    hint = client.recv_until("hint", timeout=30)
    assert [m["move"] for m in hint["moves"]] == state["legal"]
    assert hint["moves"][0]["outlook"] == "your only move"
    assert hint["moves"][0]["text"].endswith(": your only move")


def test_no_hint_or_undo_between_people(server: ServerProcess) -> None:
    table = server.create_table("twenty")
    people = [s["person"] for s in table["seats"]]
    clients = [Client(server, table["table_id"], p) for p in people]
    state = next(c.state for c in clients if c.state and c.state["legal"])
    assert state is not None and not state["can_hint"] and not state["can_undo"] and state["undo_note"] is None
    mover = next(c for c in clients if c.state and c.state["legal"])
    mover.send({"type": "hint", "version": state["version"]})
    assert mover.recv_until("error")["code"] == "not_allowed"
    mover.send({"type": "undo", "version": state["version"]})
    refused = mover.recv_until("error")
    assert refused["code"] == "not_allowed" and refused["message"] == "Undo is only for a player against the computer"


def test_undo_takes_back_my_turn_and_the_bots_reply_and_is_kept(server: ServerProcess) -> None:
    table = server.create_table("twenty", seats=AGAINST_BOT)
    token = table["seats"][0]["person"]
    client = Client(server, table["table_id"], token)
    before = my_turn(client)
    assert not before["can_undo"] or before["view"]["moves"]
    client.send({"type": "move", "move": before["legal"][0], "version": before["version"]})
    after = my_turn(client, before["version"])
    assert after["view"]["moves"][: len(before["view"]["moves"])] == before["view"]["moves"]
    assert len(after["view"]["moves"]) == len(before["view"]["moves"]) + 2
    assert after["can_undo"]
    client.send({"type": "undo", "version": after["version"]})
    undone = client.recv_until("state", lambda m: m["version"] == after["version"] + 1)
    assert undone["view"]["moves"] == before["view"]["moves"]
    assert undone["view"]["hand"] == before["view"]["hand"]
    assert undone["legal"] == before["legal"]
    # The undo is in the database: a server killed and started again shows the same position.
    server.kill()
    server.restart()
    again = Client(server, table["table_id"], token)
    assert again.state is not None
    assert again.state["version"] == undone["version"]
    assert again.state["view"]["moves"] == before["view"]["moves"]


def test_undo_never_goes_past_a_draw_from_the_stock(server: ServerProcess) -> None:
    table = server.create_table("minus-twenty", seats=AGAINST_BOT)
    client = Client(server, table["table_id"], table["seats"][0]["person"])
    state = my_turn(client)
    play = next(m for m in state["legal"] if m.startswith(("play", "discard")))
    client.send({"type": "move", "move": play, "version": state["version"]})
    drawing = my_turn(client, state["version"])
    assert drawing["can_undo"], "a play not yet followed by a draw can be taken back"
    client.send({"type": "move", "move": "draw", "version": drawing["version"]})
    later = my_turn(client, drawing["version"])
    assert not later["can_undo"]
    # The page says why, and the refusal says the same: the one rule of every interface (game.undo_reach).
    assert later["undo_note"] == NO_UNDO_PAST_A_DRAW
    client.send({"type": "undo", "version": later["version"]})
    error = client.recv_until("error")
    assert error["code"] == "not_allowed" and error["message"] == NO_UNDO_PAST_A_DRAW


@pytest.mark.slow
def test_turn_timer_lets_a_bot_move_for_a_slow_seat(server: ServerProcess) -> None:
    table = server.create_table("twenty", seats=AGAINST_BOT, turn_seconds=5)
    client = Client(server, table["table_id"], table["seats"][0]["person"])
    state = my_turn(client)
    assert state["deadline"] is not None and state["deadline"] > time.time()
    moved = client.recv_until("state", lambda m: m["version"] > state["version"], timeout=15)
    assert moved["last"]["seat"] == 0
    assert moved["last"]["move"] in state["legal"]
    assert time.time() >= state["deadline"] - 0.5


@pytest.mark.slow
def test_a_table_of_bots_plays_to_the_end_by_itself(server: ServerProcess) -> None:
    table = server.create_table("twenty", seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}])
    watcher = Client(server, table["table_id"], None)
    final = watcher.recv_until("state", lambda m: m["status"] == "finished", timeout=120)
    assert final["summary"]["totals"] == final["view"]["totals"]
    assert len(final["summary"]["rounds"]) == 2
    assert server.get(f"/api/tables/{table['table_id']}/record").status_code == 200
