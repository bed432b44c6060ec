"""The WebSocket messages as models: what :func:`parse` makes of a client's text (and the error, in
the documented order, when it is wrong), and the text :func:`encode` makes of the server's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.web.protocol import (
    AskHint,
    Error,
    Hello,
    Hints,
    MakeMove,
    Narration,
    NextRound,
    Ping,
    Pong,
    ProtocolError,
    Resolve,
    Resolved,
    Say,
    Seats,
    Shown,
    TableState,
    Undo,
    Welcome,
    encode,
    parse,
)


def test_every_client_message_is_read_as_its_model() -> None:
    assert parse('{"type": "hello"}') == Hello(type="hello")
    assert parse('{"type": "hello", "token": "abc", "extra": 1}') == Hello(type="hello", token="abc")
    assert parse('{"type": "ping"}') == Ping(type="ping")
    assert parse('{"type": "move", "move": "play 7H", "version": 3}') == MakeMove(type="move", move="play 7H",
                                                                                  version=3)
    assert parse({"type": "next_round", "version": 0}) == NextRound(type="next_round", version=0)
    assert parse({"type": "undo", "version": 2}) == Undo(type="undo", version=2)
    assert parse({"type": "hint", "version": 2}) == AskHint(type="hint", version=2)
    assert parse({"type": "resolve", "text": "7h", "version": 5}) == Resolve(type="resolve", text="7h", version=5)


WRONG: list[tuple[str, dict[str, bool], str, str]] = [
    ("[1]", {}, "malformed", "a message is a JSON object with a 'type'"),
    ("{", {}, "malformed", "a message is one JSON object"),
    ('{"type": 1}', {}, "malformed", "a message is a JSON object with a 'type'"),
    ('{"type": "ping", "x": "\\ud800"}', {}, "malformed",
     "a message holds text that is not valid Unicode (a lone surrogate)"),
    ('{"type": "move", "move": 7}', {"greeted": False}, "hello_required", "say hello first: {\"type\": \"hello\"}"),
    ('{"type": "shuffle"}', {"greeted": False}, "hello_required", "say hello first: {\"type\": \"hello\"}"),
    ('{"type": "hello", "token": 5}', {"greeted": False}, "malformed", "token must be a string or null"),
    ('{"type": "move", "move": 7}', {"seated": False}, "malformed",
     "a move message needs the version it was made against"),
    ('{"type": "shuffle", "version": true}', {}, "malformed",
     "a shuffle message needs the version it was made against"),
    ('{"type": "shuffle", "version": 1}', {"seated": False}, "unauthorized", "spectators cannot act at the table"),
    ('{"type": "move", "move": 7, "version": 1}', {"seated": False}, "unauthorized",
     "spectators cannot act at the table"),
    ('{"type": "shuffle", "version": 1}', {}, "malformed", "unknown message type 'shuffle'"),
    ('{"type": "move", "move": 7, "version": 1}', {}, "malformed",
     "move must be a move in notation, like 'play <card>'"),
    ('{"type": "move", "move": "' + "7" * 61 + '", "version": 1}', {}, "malformed",
     "move must be a move in notation, like 'play <card>'"),
    ('{"type": "resolve", "text": ["7h"], "version": 1}', {}, "malformed",
     "text must be what was typed, at most 60 characters, like '7h'"),
    ('{"type": "resolve", "version": 1.0, "text": "7h"}', {}, "malformed",
     "a resolve message needs the version it was made against"),
    ('{"type": "chat", "text": "hi"}', {"greeted": False}, "hello_required", "say hello first: {\"type\": \"hello\"}"),
    ('{"type": "chat", "text": 5}', {"seated": False}, "malformed", "text must be what you say, as text"),
    ('{"type": "chat"}', {}, "malformed", "text must be what you say, as text"),
]


def test_anyone_greeted_may_chat_without_a_version() -> None:
    """Chat changes no state: no version, and a spectator's is read like a player's."""
    assert parse('{"type": "chat", "text": "hi"}', seated=False) == Say(type="chat", text="hi")
    assert parse({"type": "chat", "text": "<b>hi</b>", "version": "x"}) == Say(type="chat", text="<b>hi</b>")


@pytest.mark.parametrize(("text", "who", "code", "message"), WRONG)
def test_a_wrong_message_gets_the_first_error_that_applies(text: str, who: dict[str, bool], code: str,
                                                          message: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        parse(text, **who)
    assert (raised.value.code, str(raised.value)) == (code, message)


def test_a_server_message_is_its_fields_in_order_as_compact_ascii_json() -> None:
    seats: list[Any] = [{"seat": 0, "kind": "me", "level": None, "name": "Zoë", "taken": True, "connected": True}]
    messages = [
        Pong(), Error(code="stale", message="the table is at version 2, not 1", version=2),
        Error(code="hello_required", message="say hello first"), Resolved(text="8s", move="play 8S"),
        Seats(seats=seats), Welcome(seat=None, role="spectator", table={"table_id": "x", "name": "Twenty ♠"}),
        Hints(version=4, moves=[{"move": "play 9C", "value": 2.7, "margin": None, "share": 0.34,
                                 "text": "You play 9♣: your only move", "outlook": "your only move"}]),
    ]
    for message in messages:
        text = encode(message)
        assert text == json.dumps(message.__dict__, separators=(",", ":")) and text.isascii()
        assert next(iter(json.loads(text))) == "type"
    with pytest.raises(ValueError):
        Error(code="no such code", message="x")  # type: ignore[arg-type]


def test_a_state_with_its_moves_encoded_as_said_is_the_same_text_as_encoded_whole() -> None:
    said = [{"seat": 0, "move": "play 7H", "text": "You play 7♥"}, {"seat": 1, "move": "draw", "text": "Bea draws"}]
    narration = Narration(said)
    state = TableState(version=2, view={"seat": 0, "hand": ["7H"]}, legal=["play 7H"], seats=[], status="playing",
                       deadline=1.5, can_undo=False, can_hint=True, last={"seat": 1, "move": "draw"}, log=[],
                       values={"tally": 3}, summary=None, moves=list(narration.entries), layout={"name": "Twenty"})
    shown = Shown(state, {"moves": narration.json()})
    assert shown.text == json.dumps(state.__dict__, separators=(",", ":"))
    shown.reseat([{"seat": 0, "kind": "me", "level": None, "name": "A", "taken": True, "connected": False}])
    assert json.loads(shown.text)["seats"][0]["connected"] is False
