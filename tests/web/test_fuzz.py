"""Hundreds of malformed and hostile WebSocket messages against a real server
process: every one gets a typed ``error``, the connection still answers
``ping``, the game does not change, the server stays up, and no answer shows
a card from another seat's hand."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed

from .conftest import KNOWN_CODES, Client, ServerProcess, cards_in, play_to_end

MESSAGES_PER_PHASE = 400
SEED = 20_240_617


@dataclass
class Hostile:
    """One hostile message: what to send, to whom, and which error codes are right."""

    who: str  # "mover", "waiter", "spectator" or "stranger" (no hello yet)
    payload: str | bytes
    codes: set[str]
    may_close: bool = False


class Table:
    """A Twenty table between two people, watched by a spectator, and a stranger's connection."""

    def __init__(self, server: ServerProcess, foreign_links: list[str]) -> None:
        self.server = server
        created = server.create_table("twenty")
        self.id = created["table_id"]
        self.people = [s["person"] for s in created["seats"]]
        self.foreign_links = foreign_links
        """Invitation codes of another table (already accepted there)."""
        self.seated = [Client(server, self.id, p) for p in self.people]
        self.watcher = Client(server, self.id, server.person("Watcher"))
        self.stranger = Client(server, self.id, hello=False)

    @property
    def version(self) -> int:
        state = self.seated[0].state
        assert state is not None
        return int(state["version"])

    def conn(self, who: str) -> Client:
        mover = next(c for c in self.seated if c.state and c.state["legal"])
        return {"mover": mover, "waiter": next(c for c in self.seated if c is not mover),
                "spectator": self.watcher, "stranger": self.stranger}[who]

    def reopen(self, who: str) -> None:
        """A new connection in place of one the server closed."""
        old = self.conn(who)
        old.close()
        fresh = Client(self.server, self.id, old.person, hello=who != "stranger")
        if who == "stranger":
            self.stranger = fresh
        elif who == "spectator":
            self.watcher = fresh
        else:
            self.seated[self.seated.index(old)] = fresh

    def hand(self, seat: int) -> set[str]:
        state = self.seated[seat].state
        assert state is not None
        return set(state["view"]["hand"])

    def forbidden(self, who: str) -> set[str]:
        """Cards in the hands ``who`` must not see."""
        if who in ("spectator", "stranger"):
            return self.hand(0) | self.hand(1)
        seat = self.conn(who).seat
        assert seat is not None
        return self.hand(1 - seat)

    def close(self) -> None:
        for client in (*self.seated, self.watcher, self.stranger):
            client.close()


def random_text(rng: random.Random, size: int) -> str:
    alphabet = string.printable + "äß€😀\u0000\u202e{}[]\":,"
    return "".join(rng.choice(alphabet) for _ in range(size))


def nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


def hostile_messages(rng: random.Random, table: Table) -> list[Callable[[], Hostile]]:
    """Makers of hostile messages (called when sent: they use the table's current version)."""
    v = lambda: table.version  # noqa: E731
    stale_codes = {"stale", "not_your_turn"}

    def to_anyone(payload: str | bytes, codes: set[str], may_close: bool = False) -> Callable[[], Hostile]:
        who = rng.choice(["mover", "waiter", "spectator", "stranger"])
        return lambda: Hostile(who, payload, codes, may_close)

    def not_json() -> Callable[[], Hostile]:
        text = rng.choice([
            random_text(rng, rng.randint(1, 200)), "{", "}", "{'type': 'ping'}", "undefined", "NaN", "{\"type\":",
            "type=ping", "\u0000", " ", "\ufeff{}", "{\"type\": \"ping\"} trailing",
        ])
        try:
            json.loads(text)
            text = "{" + text
        except ValueError:
            pass
        return to_anyone(text, {"malformed"})

    def not_an_object() -> Callable[[], Hostile]:
        value = rng.choice([[], [1, 2], ["move"], [{"type": "ping"}], 0, -1, 3.5, 1e308, "ping", True, None,
                            "{\"type\": \"ping\"}"])
        return to_anyone(json.dumps(value), {"malformed"})

    def bad_type_field() -> Callable[[], Hostile]:
        value = rng.choice([None, 1, 0, True, [], ["move"], {"type": "move"}, 2.5])
        return to_anyone(json.dumps({"type": value, "version": 0}), {"malformed"})

    def unknown_type() -> Callable[[], Hostile]:
        kind = rng.choice(["shuffle", "MOVE", "Move", "", " move", "__proto__", "constructor", "welcome", "state",
                           "error", "pong", "hello ", random_text(rng, 8)])
        who = rng.choice(["mover", "waiter", "spectator"])
        codes = {"malformed", "unauthorized"} if who == "spectator" else {"malformed"}
        return lambda: Hostile(who, json.dumps({"type": kind, "version": v()}), codes)

    def wrong_field_types() -> Callable[[], Hostile]:
        who = rng.choice(["mover", "waiter"])
        case = rng.randrange(4)
        if case == 0:
            return lambda: Hostile(who, json.dumps({"type": "move", "move": rng.choice(
                [None, 7, ["play", "7H"], {"card": "7H"}, True]), "version": v()}), {"malformed"})
        if case == 1:
            return lambda: Hostile(who, json.dumps({"type": "move", "move": "play 7H", "version": rng.choice(
                [None, "0", str(v()), 1.5, float(v()) + 0.5, [v()], {"v": 0}, True, False])}), {"malformed"})
        if case == 2:
            return lambda: Hostile(who, json.dumps({"type": rng.choice(["next_round", "undo", "hint"]),
                                                    "version": rng.choice(["x", None, [], 2.5])}), {"malformed"})
        return lambda: Hostile(who, json.dumps({"type": "move", "move": "play 7H"}), {"malformed"})

    def huge() -> Callable[[], Hostile]:
        size = rng.choice([16 * 1024 + 1, 17_000, 40_000, 200_000, 1_000_000, 1_100_000])
        padding = "x" * size
        payload: str = rng.choice([
            json.dumps({"type": "ping", "pad": padding}),
            json.dumps({"type": "move", "move": padding, "version": 0}),
            padding,
        ])
        return to_anyone(payload, {"too_large"}, may_close=len(payload) > 1_000_000)

    def deeply_nested() -> Callable[[], Hostile]:
        depth = rng.choice([100, 1000, 3000, 5000, 8000])
        if rng.random() < 0.5:
            payload = nested(depth)
        else:
            payload = json.dumps({"type": "move", "version": 0})[:-1] + ', "move": ' + nested(depth // 2) + "}"
        return to_anyone(payload, {"malformed"} if len(payload) <= 16 * 1024 else {"too_large"})

    def random_bytes() -> Callable[[], Hostile]:
        data = rng.randbytes(rng.randint(0, 300))
        if rng.random() < 0.3:
            data = json.dumps({"type": "ping"}).encode()
        return to_anyone(data, {"malformed"})

    def foreign_token() -> Callable[[], Hostile]:
        # a made-up or foreign link claims nothing for someone without a seat (people keep their own seat)
        token = rng.choice([*table.foreign_links, "x" * 32, random_text(rng, 20), "-" * 24])
        who = rng.choice(["spectator", "stranger"])
        return lambda: Hostile(who, json.dumps({"type": "hello", "token": token}), {"unauthorized"})

    def token_of_wrong_type() -> Callable[[], Hostile]:
        token = rng.choice([1, ["x"], {"token": "x"}, True])
        return to_anyone(json.dumps({"type": "hello", "token": token}), {"malformed", "unauthorized"})

    def wrong_version() -> Callable[[], Hostile]:
        who = rng.choice(["mover", "waiter"])
        delta = rng.choice([-1, 1, 2, 1000, -1000, 2**53])

        def make() -> Hostile:
            conn = table.conn("mover")
            assert conn.state is not None
            move = rng.choice(conn.state["legal"])
            return Hostile(who, json.dumps({"type": "move", "move": move, "version": v() + delta}),
                           {"stale"} if who == "mover" else stale_codes)
        return make

    def out_of_turn() -> Callable[[], Hostile]:
        def make() -> Hostile:
            conn = table.conn("mover")
            assert conn.state is not None
            move = rng.choice(conn.state["legal"])
            return Hostile("waiter", json.dumps({"type": "move", "move": move, "version": v()}), {"not_your_turn"})
        return make

    def bad_move() -> Callable[[], Hostile]:
        def make() -> Hostile:
            waiter = table.conn("waiter")
            assert waiter.state is not None
            text, codes = rng.choice([
                (f"play {rng.choice(waiter.state['view']['hand'])}", {"illegal"}),
                (f"play {rng.choice(list(table.forbidden('mover')))}", {"illegal"}),
                ("play JK", {"illegal", "syntax"}),
                ("play", {"syntax"}),
                ("take C", {"syntax"}),
                ("play 7H 8H", {"syntax"}),
                (random_text(rng, rng.randint(0, 60)), {"syntax", "illegal", "malformed"}),
                ("play " + "7" * 70, {"syntax", "malformed"}),
            ])
            return Hostile("mover", json.dumps({"type": "move", "move": text, "version": v()}), codes)
        return make

    def not_offered() -> Callable[[], Hostile]:
        who = rng.choice(["mover", "waiter", "spectator"])
        kind = rng.choice(["next_round", "undo", "hint"])
        codes = {"unauthorized", "not_allowed"} if who == "spectator" else {"not_allowed"}
        return lambda: Hostile(who, json.dumps({"type": kind, "version": v()}), codes)

    def spectator_acts() -> Callable[[], Hostile]:
        def make() -> Hostile:
            conn = table.conn("mover")
            assert conn.state is not None
            return Hostile("spectator", json.dumps({"type": "move", "move": conn.state["legal"][0],
                                                    "version": v(), "token": "x" * 32}), {"unauthorized"})
        return make

    def before_hello() -> Callable[[], Hostile]:
        kind = rng.choice(["move", "next_round", "undo", "hint"])
        return lambda: Hostile("stranger", json.dumps({"type": kind, "move": "play 7H", "version": v()}),
                               {"hello_required"})

    def bad_chat() -> Callable[[], Hostile]:
        text = rng.choice(["", "   ", "\t", "x" * 301, "a\u0000b", "bell\u0007", "\u202eflipped", "two\nlines",
                           None, 7, ["hi"], {"text": "hi"}, True])
        who = rng.choice(["mover", "waiter", "spectator"])
        return lambda: Hostile(who, json.dumps({"type": "chat", "text": text}), {"malformed", "not_allowed"})

    makers = [not_json, not_an_object, bad_type_field, unknown_type, wrong_field_types, huge, deeply_nested,
              random_bytes, foreign_token, token_of_wrong_type, wrong_version, out_of_turn, bad_move, not_offered,
              spectator_acts, before_hello, bad_chat]
    return [rng.choice(makers)() for _ in range(MESSAGES_PER_PHASE)]


def is_message(payload: str | bytes) -> bool:
    """Whether the server would read ``payload`` as a message (a JSON object with a text ``type``)."""
    try:
        data = json.loads(payload) if isinstance(payload, str) else None
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"] not in ("hello", "ping")


def send_and_check(table: Table, hostile: Hostile, version: int) -> str:
    """Send one hostile message; check the answer; return how it ended ("error" or "closed")."""
    conn = table.conn(hostile.who)
    forbidden = table.forbidden(hostile.who)
    sent_cards = cards_in(hostile.payload) if isinstance(hostile.payload, str) and len(hostile.payload) < 20_000 \
        else set()
    start = len(conn.frames)
    try:
        conn.send_raw(hostile.payload)
        got = conn.ping(timeout=10)
    except (ConnectionClosed, TimeoutError) as exc:
        assert hostile.may_close, f"{hostile.who}: {str(hostile.payload)[:200]!r} -> {exc!r}"
        table.reopen(hostile.who)
        table.conn(hostile.who).ping()  # a new connection works
        return "closed"
    what = f"{hostile.who}: {str(hostile.payload)[:200]!r} -> {json.dumps(got)[:600]}"
    errors = [f for f in got if f["type"] == "error"]
    assert errors, f"no error came back; {what}"
    for frame in got:
        assert frame["type"] in ("error", "state", "seats", "presence"), what
        if frame["type"] == "state":  # a (dis)connection elsewhere is broadcast: the same version
            assert frame["version"] == version, what
        leaked = cards_in(frame) & forbidden - sent_cards
        assert not leaked, f"cards of another seat's hand {sorted(leaked)}; {what}"
    for error in errors:
        assert error["code"] in KNOWN_CODES, what
        assert isinstance(error["message"], str) and error["message"] and "Traceback" not in error["message"], what
        assert error["version"] in (version, None), what
    codes = set(hostile.codes)
    if hostile.who == "stranger" and is_message(hostile.payload):
        codes.add("hello_required")  # a well-formed message before hello
    if hostile.who == "spectator" and is_message(hostile.payload):
        codes.add("unauthorized")  # spectators cannot act, whatever else is wrong with the message
    assert errors[0]["code"] in codes, what
    assert len(conn.frames) > start
    return "error"


def fuzz_phase(table: Table, rng: random.Random) -> dict[str, int]:
    version = table.version
    outcomes: dict[str, int] = {}
    for index, make in enumerate(hostile_messages(rng, table)):
        hostile = make()
        result = send_and_check(table, hostile, version)
        outcomes[result] = outcomes.get(result, 0) + 1
        if index % 40 == 0:
            assert table.server.alive(), table.server.output()
            assert table.server.table(table.id)["version"] == version
    assert table.server.alive(), table.server.output()
    assert table.server.table(table.id)["version"] == version
    for conn in (*table.seated, table.watcher):
        conn.ping()
        assert conn.state is not None and conn.state["version"] == version
    return outcomes


def invite_codes(table: dict[str, Any]) -> list[str]:
    return [i["url"].split("#invite=")[1] for i in table["invites"]]


def test_hostile_messages_change_nothing(server: ServerProcess) -> None:
    rng = random.Random(SEED)
    other = server.create_table("twenty", seats=[{"kind": "friend"}, {"kind": "friend"}])
    table = Table(server, invite_codes(other))
    totals: dict[str, int] = {}
    for phase in range(2):
        for key, count in fuzz_phase(table, rng).items():
            totals[key] = totals.get(key, 0) + count
        # the table still plays: a few real moves, then fuzz again at the new version
        play_to_end(table.seated, rng, stop_at=table.version + 7 + phase, watchers=(table.watcher,))
    assert totals.get("error", 0) >= 2 * MESSAGES_PER_PHASE - 60
    print(f"{totals=}")
    # the match still finishes, and the other table was never touched
    last = play_to_end(table.seated, rng, watchers=(table.watcher,))
    assert last["status"] == "finished"
    assert server.table(other["table_id"])["version"] == 0
    assert server.alive()
    assert "Traceback" not in server.output(), server.output()
    table.close()


def test_oversized_frames_are_refused_and_new_connections_work(server: ServerProcess) -> None:
    other = server.create_table("twenty", seats=[{"kind": "friend"}, {"kind": "friend"}])
    table = Table(server, invite_codes(other))
    version = table.version
    for who, size in (("mover", 16 * 1024 + 1), ("spectator", 1_000_000), ("waiter", 1_500_000),
                      ("stranger", 4_000_000)):
        result = send_and_check(table, Hostile(who, "x" * size, {"too_large"}, may_close=size > 1_048_576), version)
        assert result == "error" or size > 1_048_576
    assert server.alive() and server.table(table.id)["version"] == version
    for conn in (*table.seated, table.watcher):
        conn.ping()
    table.close()
