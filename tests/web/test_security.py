"""``parlour serve`` open to the public (issue 16), against real server processes:
identities in a signed cookie, seats that belong to people, invitations,
spectators, message-rate limits, table limits, abandoned tables, lobby pages,
and the security headers and ``Origin`` checks."""

from __future__ import annotations

import base64
import contextlib
import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .conftest import Client, Person, ServerProcess, cards_in, play_to_end

FRIENDS = [{"kind": "me"}, {"kind": "friend"}]
WITH_OPEN_SEAT = [{"kind": "me"}, {"kind": "open"}]
BOTS_ONLY = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
EVIL = "http://evil.example"


# -- helpers ------------------------------------------------------------------------------------

def one_line_error(answer: httpx.Response, status: int) -> str:
    """The ``error`` of a JSON error answer with this status, checked to be one clear line."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    body = answer.json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str), body
    text: str = body["error"]
    assert text.strip() and "\n" not in text and len(text) < 300 and "Traceback" not in text, text
    return text


def session_payload(cookie: str) -> dict[str, Any]:
    """What a ``parlour_session`` cookie holds (signed, not encrypted: base64 JSON, timestamp, signature)."""
    payload = cookie.split(".", 1)[0]
    data: dict[str, Any] = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))
    return data


def player_id(person: Person) -> str:
    """The player id in a person's session cookie."""
    player: str = session_payload(person.http.cookies["parlour_session"])["player"]
    return player


def invite_code(url: str) -> str:
    _path, _, code = url.partition("#invite=")
    assert code, url
    return code


def wait_for(check: Callable[[], Any], what: str, timeout: float = 20.0, pause: float = 0.1) -> Any:
    """Poll ``check`` until it returns something true (that value), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(pause)


def create(person: Person, seats: list[dict[str, Any]], game: str = "twenty", **extra: Any) -> httpx.Response:
    return person.post("/api/tables", json={"game": game, "seats": seats, **extra})


def created(person: Person, seats: list[dict[str, Any]], game: str = "twenty", **extra: Any) -> dict[str, Any]:
    answer = create(person, seats, game, **extra)
    assert answer.status_code == 200, answer.text
    table: dict[str, Any] = answer.json()
    return table


def summary_of(person: Person | None, server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer = (person.get if person is not None else server.get)(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def lobby_ids(server: ServerProcess, **params: Any) -> list[str]:
    answer = server.get("/api/tables", params=params)
    assert answer.status_code == 200, answer.text
    return [t["table_id"] for t in answer.json()["tables"]]


def mover_of(clients: list[Client]) -> Client:
    mover = next((c for c in clients if c.state and c.state["legal"]), None)
    assert mover is not None, "nobody is to move"
    return mover


def expect_error(client: Client, message: dict[str, Any], code: str) -> dict[str, Any]:
    client.send(message)
    error = client.recv_until("error")
    assert error["code"] == code, error
    return error


def closed_within(client: Client, timeout: float) -> ConnectionClosed:
    """Read until the server closes ``client`` (every frame is kept); fail if it is still open after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the connection is still open after {timeout:.0f} s")
        try:
            client.recv(left)
        except ConnectionClosed as exc:
            return exc
        except TimeoutError:
            continue


def limited_server(tmp_path: Path, *extra: str, bot_delay: float = 0.05) -> ServerProcess:
    """A server of this test's own with these ``parlour serve`` options (and the default message rate)."""
    return ServerProcess(f"sqlite:///{tmp_path / 'limits.db'}", bot_delay=bot_delay, log_path=tmp_path / "server.log",
                         extra=extra).start()


# -- 1. identity ----------------------------------------------------------------------------------

def test_the_first_visit_sets_an_httponly_samesite_lax_session_cookie(server: ServerProcess) -> None:
    for path in ("/", "/api/me", "/table/abc"):
        with httpx.Client(base_url=server.url, trust_env=False) as browser:
            answer = browser.get(path)
            assert answer.status_code == 200
            cookies = [c for c in answer.headers.get_list("set-cookie") if c.startswith("parlour_session=")]
            assert len(cookies) == 1, (path, answer.headers.get_list("set-cookie"))
            attributes = [a.strip().lower() for a in cookies[0].split(";")[1:]]
            assert "httponly" in attributes, cookies
            assert "samesite=lax" in attributes, cookies
            assert "path=/" in attributes, cookies
            assert "secure" not in attributes, "no --https-only: the cookie works over plain http"
            player = session_payload(browser.cookies["parlour_session"])["player"]
            assert isinstance(player, str) and len(player) >= 16
            # the identity stays the same on the next requests
            browser.get("/api/me")
            assert session_payload(browser.cookies["parlour_session"])["player"] == player


def test_a_person_chooses_and_changes_a_name(server: ServerProcess) -> None:
    alice, other = server.person(), server.person()
    assert alice.get("/api/me").json() == {"name": None, "account": None, "page": None}
    named = alice.put("/api/me", json={"name": "  Alice   Liddell "})
    assert named.status_code == 200 and named.json() == {"name": "Alice Liddell"}
    assert alice.get("/api/me").json() == {"name": "Alice Liddell", "account": None, "page": None}
    assert other.get("/api/me").json() == {"name": None, "account": None, "page": None}, \
        "each browser is its own identity"
    for bad in ({"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": 7}, {}, [1]):
        one_line_error(alice.put("/api/me", json=bad), 400)
    one_line_error(alice.put("/api/me", content=b"{not json"), 400)
    assert alice.get("/api/me").json() == {"name": "Alice Liddell", "account": None, "page": None}, \
        "a refused name changes nothing"
    assert alice.put("/api/me", json={"name": "y" * 40}).json() == {"name": "y" * 40}
    # the seats of a table being played take the new name
    table = created(alice, [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    assert table["seats"][0]["name"] == "y" * 40
    assert alice.put("/api/me", json={"name": "Alice"}).json() == {"name": "Alice"}
    assert summary_of(None, server, table["table_id"])["seats"][0]["name"] == "Alice"


def test_a_tampered_cookie_is_a_new_identity(server: ServerProcess) -> None:
    alice = server.person("Alice")
    table = created(alice, FRIENDS)
    cookie = alice.http.cookies["parlour_session"]
    payload, _, signed = cookie.partition(".")
    stamp, _, signature = signed.partition(".")
    middle = len(signature) // 2  # a character in the middle carries six bits of the signature
    broken = f"{stamp}.{signature[:middle]}{'A' if signature[middle] != 'A' else 'B'}{signature[middle + 1:]}"
    mallory = server.person("Mallory")
    own = mallory.http.cookies["parlour_session"]
    forged_payload = base64.b64encode(json.dumps({"player": player_id(alice)}).encode()).decode()
    forgeries = [
        forged_payload + "." + own.partition(".")[2],  # Alice's id with Mallory's signature
        payload + "." + broken,  # a broken signature
        forged_payload,  # no signature at all
    ]
    for forged in forgeries:
        with httpx.Client(base_url=server.url, trust_env=False) as browser:
            browser.cookies.set("parlour_session", forged, domain="127.0.0.1")
            answer = browser.get("/api/me")
            assert answer.status_code == 200 and answer.json() == {"name": None, "account": None, "page": None}, forged
            fresh = browser.cookies["parlour_session"]
            assert fresh != forged and session_payload(fresh)["player"] != player_id(alice), "a new identity"
            mine = browser.get(f"/api/tables/{table['table_id']}").json()
            assert mine["you"] == {"seat": None, "host": False} and mine["invites"] == []
            one_line_error(browser.post(f"/api/tables/{table['table_id']}/seats/1/reopen"), 403)
        # on the WebSocket the forged cookie is a spectator, not Alice
        forger = cast(Person, SimpleNamespace(cookie=f"parlour_session={forged}"))
        with Client(server, table["table_id"], forger) as tab:
            assert tab.welcome is not None and tab.seat is None and tab.welcome["role"] == "spectator"
    assert alice.get("/api/me").json() == {"name": "Alice", "account": None, "page": None}


def test_the_session_survives_a_restart(any_server: ServerProcess) -> None:
    server = any_server
    alice = server.person("Alice")
    table = server.create_table("twenty", seats=FRIENDS, host=alice)
    bob = table["seats"][1]["person"]
    server.restart()
    assert alice.get("/api/me").json() == {"name": "Alice", "account": None, "page": None}, \
        "the key that signs cookies is kept in the database"
    assert summary_of(alice, server, table["table_id"])["you"] == {"seat": 0, "host": True}
    with Client(server, table["table_id"], alice) as a, Client(server, table["table_id"], bob) as b:
        assert (a.seat, b.seat) == (0, 1)
        assert a.welcome is not None and a.welcome["role"] == "player"


# -- 2. seats belong to people ----------------------------------------------------------------

def test_an_invitation_is_one_persons_seat_and_everyone_else_watches(server: ServerProcess) -> None:
    alice = server.person("Alice")
    answer = created(alice, FRIENDS)
    table_id = answer["table_id"]
    assert [i["seat"] for i in answer["invites"]] == [1]
    invite = answer["invites"][0]["url"]
    code = invite_code(invite)
    assert invite == f"/table/{table_id}#invite={code}"
    assert summary_of(alice, server, table_id)["invites"] == answer["invites"], "the host sees the invitation"

    bob = server.person()
    assert bob.accept(invite, name="Bob").json() == {"seat": 1}
    again = bob.accept(invite)
    assert again.status_code == 200 and again.json() == {"seat": 1}, "accepting again is harmless"
    carol = server.person("Carol")
    for body_name in (None, "Carol"):
        text = one_line_error(carol.accept(invite, name=body_name), 409)
        assert "Bob" in text and ("watch" in text or "spectator" in text), text
    one_line_error(carol.accept(f"/table/{table_id}#invite=not-{code}"), 404)
    assert summary_of(carol, server, table_id)["you"] == {"seat": None, "host": False}
    hosted = summary_of(alice, server, table_id)
    assert hosted["invites"] == [] and hosted["seats"][1]["name"] == "Bob" and hosted["seats"][1]["taken"]

    # what the host is told after acceptance: never the invitation again, never Bob's identity
    bob_secrets = [code, player_id(bob), bob.http.cookies["parlour_session"]]
    to_alice = [alice.get(p).text for p in (f"/api/tables/{table_id}", "/api/tables", "/api/me",
                                             f"/api/tables/{table_id}/replay")]
    assert not [s for s in bob_secrets for text in to_alice if s in text]

    a = Client(server, table_id, alice)
    b = Client(server, table_id, bob)
    c = Client(server, table_id, carol)
    assert (a.seat, b.seat) == (0, 1)
    assert c.welcome is not None and c.welcome["role"] == "spectator" and c.welcome["seat"] is None
    assert c.welcome["table"]["you"] == {"seat": None, "host": False} and c.welcome["table"]["invites"] == []
    seated = [a, b]

    def carol_is_refused() -> None:
        mover = mover_of(seated)
        assert mover.state is not None
        version = mover.state["version"]
        expect_error(c, {"type": "move", "move": mover.state["legal"][0], "version": version}, "unauthorized")
        for kind in ("next_round", "undo", "hint"):
            expect_error(c, {"type": kind, "version": version}, "unauthorized")
        # the used invitation is no seat's secret link either
        expect_error(c, {"type": "hello", "token": code}, "unauthorized")
        assert server.table(table_id)["version"] == version

    carol_is_refused()
    play_to_end(seated, random.Random(1616), stop_at=31, watchers=(c,))
    carol_is_refused()
    last = play_to_end(seated, random.Random(1617), watchers=(c,))
    assert last["status"] == "finished"
    expect_error(c, {"type": "move", "move": "play 2C", "version": last["version"]}, "unauthorized")

    # no frame Carol got names a card that was in a hand at that version
    hands: dict[int, set[str]] = {}
    for client in seated:
        for frame in client.frames:
            if frame["type"] == "state":
                hands.setdefault(frame["version"], set()).update(frame["view"]["hand"] or [])
    assert len(hands) == last["version"] + 1 and sum(len(h) for h in hands.values()) > 300
    version = c.welcome["table"]["version"]
    checked = 0
    for frame in c.frames:
        if frame["type"] == "welcome":
            version = frame["table"]["version"]
        elif isinstance(frame.get("version"), int):
            version = frame["version"]
        leaked = cards_in(frame) & hands[version]
        assert not leaked, f"Carol saw {sorted(leaked)} of a hand at version {version}: {frame}"
        if frame["type"] == "state":
            assert not frame["view"]["hand"] and frame["legal"] == []
            checked += 1
    assert checked >= last["version"]
    # nothing Alice was sent over her WebSocket holds Bob's secrets either
    assert not [s for s in bob_secrets for raw in a.raw if s in str(raw)]
    for client in (a, b, c):
        client.close()


def test_a_person_holds_at_most_one_seat_at_a_table(server: ServerProcess) -> None:
    alice = server.person("Alice")
    table = created(alice, [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}], game="progression")
    table_id = table["table_id"]
    invites = {i["seat"]: i["url"] for i in table["invites"]}
    assert sorted(invites) == [1, 2]
    one_line_error(alice.accept(invites[1]), 409)
    bob = server.person("Bob")
    assert bob.accept(invites[1]).json() == {"seat": 1}
    text = one_line_error(bob.accept(invites[2]), 409)
    assert "seat 2" in text, text
    carol = server.person("Carol")
    assert carol.accept(invites[2]).json() == {"seat": 2}
    assert "Carol" in one_line_error(bob.accept(invites[2]), 409)
    assert [s["name"] for s in server.table(table_id)["seats"]] == ["Alice", "Bob", "Carol"]
    # an open seat neither
    other = created(alice, WITH_OPEN_SEAT)
    one_line_error(alice.post(f"/api/tables/{other['table_id']}/join", json={"seat": 1}), 409)
    assert bob.post(f"/api/tables/{other['table_id']}/join", json={"seat": 1}).json() == {"seat": 1}
    assert [s["taken"] for s in server.table(other["table_id"])["seats"]] == [True, True]


def test_the_host_reopens_a_seat_whose_player_left(server: ServerProcess) -> None:
    alice = server.person("Alice")
    table = server.create_table("twenty", seats=FRIENDS, host=alice)
    table_id = table["table_id"]
    bob: Person = table["seats"][1]["person"]
    reopen = f"/api/tables/{table_id}/seats/1/reopen"

    b = Client(server, table_id, bob)
    a = Client(server, table_id, alice)
    assert (a.seat, b.seat) == (0, 1)
    # the same person on a new connection (another tab) has the same seat
    with Client(server, table_id, bob) as tab:
        assert tab.seat == 1 and tab.welcome is not None and tab.welcome["role"] == "player"
    play_to_end([a, b], random.Random(7), stop_at=3)
    text = one_line_error(alice.post(reopen), 409)
    assert bob.get("/api/me").json()["name"] in text, text
    for stranger in (bob, server.person("Carol")):
        one_line_error(stranger.post(reopen), 403)
    one_line_error(server.post(reopen), 403)
    one_line_error(alice.post(f"/api/tables/{table_id}/seats/0/reopen"), 409)
    one_line_error(alice.post(f"/api/tables/{table_id}/seats/9/reopen"), 404)
    bots = created(alice, [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    one_line_error(alice.post(f"/api/tables/{bots['table_id']}/seats/1/reopen"), 409)

    # Bob reconnects: still his seat
    b.close()
    b = Client(server, table_id, bob)
    assert b.seat == 1
    b.close()
    wait_for(lambda: not server.table(table_id)["seats"][1]["connected"], "the server noticed Bob left", 10)
    answer = alice.post(reopen)
    assert answer.status_code == 200, answer.text
    url = answer.json()["url"]
    assert answer.json()["seat"] == 1 and url.startswith(f"/table/{table_id}#invite=")
    hosted = summary_of(alice, server, table_id)
    assert hosted["invites"] == [{"seat": 1, "url": url}]
    assert hosted["seats"][1]["taken"] is False and hosted["seats"][1]["kind"] == "friend"
    assert summary_of(bob, server, table_id)["you"] == {"seat": None, "host": False}

    # Bob only watches now; his moves are refused
    b = Client(server, table_id, bob)
    assert b.welcome is not None and b.seat is None and b.welcome["role"] == "spectator"
    assert a.state is not None
    expect_error(b, {"type": "move", "move": "play 2C", "version": a.state["version"]}, "unauthorized")
    # Dave takes the new invitation and plays
    dave = server.person("Dave")
    assert dave.accept(url).json() == {"seat": 1}
    assert "Dave" in one_line_error(server.person().accept(url), 409)
    assert summary_of(alice, server, table_id)["invites"] == []
    assert server.table(table_id)["seats"][1]["name"] == "Dave"
    d = Client(server, table_id, dave)
    assert d.seat == 1 and d.welcome is not None and d.welcome["role"] == "player"
    version = server.table(table_id)["version"]
    last = play_to_end([a, d], random.Random(8), stop_at=version + 6, watchers=(b,))
    assert last["version"] == version + 6
    one_line_error(bob.accept(url), 409)
    for client in (a, b, d):
        client.close()


# -- 3. message rate --------------------------------------------------------------------------

def test_a_flood_of_messages_is_refused_and_closed_while_other_tables_play_on(tmp_path: Path) -> None:
    server = limited_server(tmp_path)  # the default message rate: 20 a second, bursts of 40
    flooded = server.create_table("twenty", seats=FRIENDS)
    other = server.create_table("twenty", seats=FRIENDS)
    flooder = Client(server, flooded["table_id"], flooded["seats"][0]["person"])
    calm = Client(server, other["table_id"], other["seats"][0]["person"])
    version = server.table(flooded["table_id"])["version"]
    junk = [json.dumps({"type": "ping"}), "junk", json.dumps({"type": "move", "move": "play 2C", "version": -1})]
    sent = [0]

    def flood() -> None:
        for index in range(10_000):
            try:
                flooder.ws.send(junk[index % len(junk)])
            except ConnectionClosed:
                return
            sent[0] += 1

    thread = threading.Thread(target=flood, daemon=True)
    started = time.monotonic()
    thread.start()
    while thread.is_alive() and time.monotonic() - started < 60:
        assert calm.ping(timeout=5) == [], "another table's connection is answered meanwhile"
        time.sleep(0.1)  # the calm client keeps well under its own rate limit
    thread.join(timeout=60)
    assert not thread.is_alive(), "sending stalled"
    closed = closed_within(flooder, 20)
    codes = [f.get("code") for f in flooder.frames if f["type"] == "error"]
    assert "rate_limited" in codes, codes[-5:]
    assert "internal" not in codes
    assert closed.rcvd is None or closed.rcvd.code == 1008, closed
    assert sent[0] > 40, "the server took at least a burst"
    assert calm.ping(timeout=5) == []
    assert server.table(flooded["table_id"])["version"] == version
    assert server.table(other["table_id"])["version"] == 0
    calm.close()


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    server = limited_server(tmp_path)
    table = server.create_table("twenty", seats=FRIENDS)
    table_id = table["table_id"]
    silent = Client(server, table_id, server.person(), hello=False)
    polite = Client(server, table_id, table["seats"][0]["person"])
    # a hello that is not valid does not stop the clock
    expect_error(silent, {"type": "hello", "token": 12345}, "malformed")
    deadline = time.monotonic() + 20
    closed: ConnectionClosed | None = None
    while closed is None and time.monotonic() < deadline:
        try:
            silent.send({"type": "ping"})
            silent.recv_until("pong", timeout=1)
            time.sleep(0.4)
        except ConnectionClosed as exc:
            closed = exc
        except TimeoutError:
            pass
    assert closed is not None, "a connection that only pings is still open after 20 s"
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while True:  # what came before the close (a send may notice the close before it is read)
            silent.recv(timeout=1)
    errors = [f for f in silent.frames if f["type"] == "error"]
    assert errors[-1]["code"] == "hello_required", errors
    assert [f for f in silent.frames if f["type"] == "pong"], "pings are answered before hello"
    assert not [f for f in silent.frames if f["type"] in ("welcome", "state")]
    assert polite.ping(timeout=5) == [], "a connection that said hello stays open"
    polite.close()


# -- 4. limits --------------------------------------------------------------------------------

def test_limits_on_open_and_bots_only_tables(tmp_path: Path) -> None:
    # bots move slowly here, so that no bots-only table is over before the test is
    server = limited_server(tmp_path, "--max-open", "2", "--max-bot-tables", "1", bot_delay=5.0)
    pat = server.person("Pat")
    created(pat, FRIENDS)
    created(pat, WITH_OPEN_SEAT)
    text = one_line_error(create(pat, FRIENDS), 429)
    assert "2" in text and "limit" in text, text
    one_line_error(create(pat, [{"kind": "me"}, {"kind": "bot", "level": "easy"}]), 429)
    created(server.person(), FRIENDS)  # someone else still can

    quinn = server.person("Quinn")
    created(quinn, BOTS_ONLY)
    text = one_line_error(create(quinn, BOTS_ONLY), 429)
    assert "bots only" in text, text
    created(quinn, [{"kind": "me"}, {"kind": "bot", "level": "easy"}])  # a table with a person is fine
    assert "limit" in one_line_error(create(quinn, FRIENDS), 429)
    created(server.person(), BOTS_ONLY)
    # refused tables were not made
    assert len(lobby_ids(server)) == 1


def test_limits_per_hour_and_for_the_whole_server(tmp_path: Path) -> None:
    server = limited_server(tmp_path, "--max-per-hour", "3", "--max-tables", "2", "--max-waiting", "2")
    pat = server.person("Pat")
    for _ in range(3):
        created(pat, FRIENDS)
    text = one_line_error(create(pat, FRIENDS), 429)
    assert "hour" in text and "3" in text, text
    # The server's cap counts tables people play: two people move at a table each, and it is full.
    for name in ("Ann", "Bo"):
        person = server.person(name)
        table = created(person, [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        with Client(server, table["table_id"], person) as client:
            client.wait_version(0)
            state = client.recv_until("state", lambda m: bool(m["legal"]), timeout=10) \
                if not client.state or not client.state["legal"] else client.state
            client.send({"type": "move", "move": state["legal"][0], "version": state["version"]})
            client.wait_version(state["version"] + 1)
    text = one_line_error(create(server.person(), FRIENDS), 429)
    assert "full" in text and "2 tables are being played" in text, text
    one_line_error(create(server.person(), BOTS_ONLY), 429)


def test_tables_nobody_plays_make_room_for_new_ones(tmp_path: Path) -> None:
    """Tables nobody has moved at share a cap of their own: a new one ends the oldest that nobody sits at."""
    server = limited_server(tmp_path, "--max-waiting", "2")
    keeper = server.person("Keeper")
    kept = created(keeper, WITH_OPEN_SEAT)
    with Client(server, kept["table_id"], keeper):  # sitting at it: it is never the one to go
        first = created(server.person(), WITH_OPEN_SEAT)
        second = created(server.person(), WITH_OPEN_SEAT)  # the oldest unattended (first) ends for it
        assert summary_of(None, server, first["table_id"])["status"] == "abandoned"
        third = created(server.person(), WITH_OPEN_SEAT)
        assert summary_of(None, server, second["table_id"])["status"] == "abandoned"
        assert summary_of(None, server, third["table_id"])["status"] == "playing"
        assert summary_of(None, server, kept["table_id"])["status"] == "playing"


# -- 5. abandoned tables ----------------------------------------------------------------------

def test_a_table_nobody_is_at_ends_as_abandoned(tmp_path: Path) -> None:
    # 3 s of idle time: long enough for a test to connect to a table it has just made
    server = limited_server(tmp_path, "--idle-minutes", "0.05", "--first-move-minutes", "0.05")
    alice = server.person("Alice")
    idle = server.create_table("twenty", seats=WITH_OPEN_SEAT, host=alice)
    kept = server.create_table("twenty", seats=WITH_OPEN_SEAT)
    with Client(server, kept["table_id"], kept["seats"][0]["person"]) as keeper:
        started = time.monotonic()
        wait_for(lambda: server.table(idle["table_id"])["status"] == "abandoned", "the idle table is abandoned")
        assert idle["table_id"] not in lobby_ids(server)
        # connected the whole time, for longer than the idle time: not abandoned
        wait_for(lambda: time.monotonic() - started > 3.5, "", 10)
        assert server.table(kept["table_id"])["status"] == "playing"
        assert kept["table_id"] in lobby_ids(server)
        assert keeper.ping(timeout=5) == []

    def moves_are_refused() -> None:
        with Client(server, idle["table_id"], alice) as client:
            assert client.seat == 0 and client.state is not None and client.state["status"] == "abandoned"
            version = client.state["version"]
            move = client.state["legal"][0] if client.state["legal"] else "play 2C"
            expect_error(client, {"type": "move", "move": move, "version": version}, "not_allowed")
            expect_error(client, {"type": "next_round", "version": version}, "not_allowed")
        one_line_error(server.person().post(f"/api/tables/{idle['table_id']}/join", json={"seat": 1}), 409)
        summary = server.table(idle["table_id"])
        assert summary["status"] == "abandoned" and summary["version"] == version

    moves_are_refused()
    # once its last player has gone, the other table goes the same way
    wait_for(lambda: server.table(kept["table_id"])["status"] == "abandoned", "the table left alone is abandoned")
    assert lobby_ids(server) == []
    server.restart()
    assert server.table(idle["table_id"])["status"] == "abandoned"
    assert lobby_ids(server) == []
    moves_are_refused()
    assert server.table(idle["table_id"])["status"] == "abandoned"


# -- 6. lobby pages ---------------------------------------------------------------------------

def test_the_lobby_comes_in_pages_newest_first(server: ServerProcess) -> None:
    hosts = [server.person(f"Host {n}") for n in range(5)]
    made: list[str] = []
    for index in range(25):
        made.append(created(hosts[index % 5], WITH_OPEN_SEAT, game="twenty")["table_id"])
    full = created(hosts[0], FRIENDS)  # no open seat
    joined = created(hosts[1], WITH_OPEN_SEAT)
    assert server.person().post(f"/api/tables/{joined['table_id']}/join", json={"seat": 1}).status_code == 200
    newest_first = made[::-1]

    first = server.get("/api/tables").json()
    assert (first["page"], first["pages"], first["total"]) == (1, 2, 25)
    assert [t["table_id"] for t in first["tables"]] == newest_first[:20]
    second = server.get("/api/tables", params={"page": 2}).json()
    assert (second["page"], second["pages"], second["total"]) == (2, 2, 25)
    assert [t["table_id"] for t in second["tables"]] == newest_first[20:]
    created_at = [t["created"] for t in first["tables"] + second["tables"]]
    assert created_at == sorted(created_at, reverse=True)
    assert full["table_id"] not in created_at and joined["table_id"] not in lobby_ids(server)
    small = server.get("/api/tables", params={"page": 3, "per_page": 10}).json()
    assert (small["pages"], small["total"]) == (3, 25)
    assert [t["table_id"] for t in small["tables"]] == newest_first[20:]
    assert len(server.get("/api/tables", params={"per_page": 1000}).json()["tables"]) == 25, "at most 50"
    assert len(server.get("/api/tables", params={"per_page": 50}).json()["tables"]) == 25


def lobby_order_after_restart(server: ServerProcess) -> None:
    tables = [server.create_table("twenty", seats=WITH_OPEN_SEAT) for _ in range(4)]
    # people come and go at the older tables (their rows are written again)
    for table in tables[:2]:
        with Client(server, table["table_id"], table["seats"][0]["person"]) as client:
            mover = client.state
            if mover is not None and mover["legal"]:
                client.send({"type": "move", "move": mover["legal"][0], "version": mover["version"]})
                client.wait_version(mover["version"] + 1)
    made = [t["table_id"] for t in tables]
    assert [made.index(t) for t in lobby_ids(server)] == [3, 2, 1, 0]
    server.restart()
    order = [made.index(t) for t in lobby_ids(server)]
    assert order == [3, 2, 1, 0], f"after a restart the lobby shows the tables made {order} (0: the first made)"


def test_the_lobby_stays_newest_first_after_a_restart(server: ServerProcess) -> None:
    lobby_order_after_restart(server)


def test_the_lobby_stays_newest_first_after_a_restart_on_postgres(pg_server: ServerProcess) -> None:
    lobby_order_after_restart(pg_server)


# -- 7. headers and origins -------------------------------------------------------------------

def check_headers(answer: httpx.Response, what: str) -> None:
    headers = answer.headers
    csp = headers.get("content-security-policy")
    assert csp, f"{what}: no Content-Security-Policy"
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert "'unsafe-inline'" not in directives.get("script-src", ["'unsafe-inline'"]), (what, csp)
    assert "'unsafe-eval'" not in directives["script-src"], (what, csp)
    assert directives.get("frame-ancestors") == ["'none'"], (what, csp)
    assert directives.get("object-src") == ["'none'"], (what, csp)
    assert headers.get("x-frame-options") == "DENY", what
    assert headers.get("referrer-policy") == "same-origin", what
    assert headers.get("x-content-type-options") == "nosniff", what


def test_every_answer_carries_the_security_headers(server: ServerProcess) -> None:
    person = server.person("Pat")
    table = created(person, FRIENDS)
    table_id = table["table_id"]
    for path in ("/", "/replay", f"/table/{table_id}", "/static/app.js", "/static/style.css", "/api/games",
                 "/api/games/twenty/rules", "/api/levels", "/api/me", "/api/tables", f"/api/tables/{table_id}",
                 "/api/tables/nope", f"/api/tables/{table_id}/record", "/static/nope.js", "/no/such/page"):
        check_headers(person.get(path), path)
    check_headers(person.post("/api/tables", json={"game": "chess"}), "POST /api/tables (400)")
    check_headers(person.put("/api/me", json={"name": "Pat"}), "PUT /api/me")
    check_headers(person.post("/api/tables", json={}, headers={"Origin": EVIL}), "POST from another site (403)")
    page = person.get("/").text
    assert "<script>" not in page and " onclick=" not in page and ' style="' not in page, "the CSP allows none of these"


def test_state_changing_requests_from_another_site_are_refused(server: ServerProcess) -> None:
    pat = server.person("Pat")
    own = server.url
    body = {"game": "twenty", "seats": FRIENDS}
    for origin in (EVIL, "null", f"http://127.0.0.1:{server.port + 1}", f"https://127.0.0.1:{server.port}x"):
        one_line_error(pat.post("/api/tables", json=body, headers={"Origin": origin}), 403)
    assert lobby_ids(server) == [] and pat.get("/api/tables").status_code == 200
    answer = pat.post("/api/tables", json=body, headers={"Origin": own})
    assert answer.status_code == 200, answer.text
    table = answer.json()
    one_line_error(pat.put("/api/me", json={"name": "Evil"}, headers={"Origin": EVIL}), 403)
    assert pat.get("/api/me").json() == {"name": "Pat", "account": None, "page": None}
    bob = server.person()
    one_line_error(bob.post(f"/api/tables/{table['table_id']}/accept",
                            json={"invite": invite_code(table["invites"][0]["url"])}, headers={"Origin": EVIL}), 403)
    assert summary_of(pat, server, table["table_id"])["invites"] == table["invites"], "nothing was accepted"
    # reading is not changing: a foreign page may read public data (the browser keeps it from the page)
    assert pat.get("/api/games", headers={"Origin": EVIL}).status_code == 200
    assert pat.put("/api/me", json={"name": "Pat Two"}, headers={"Origin": own}).status_code == 200


def test_websocket_handshakes_from_another_site_are_refused(server: ServerProcess) -> None:
    table = server.create_table("twenty", seats=FRIENDS)
    table_id = table["table_id"]
    alice = table["seats"][0]["person"]
    for origin in (EVIL, "null", f"http://127.0.0.1:{server.port + 1}"):
        with pytest.raises((InvalidHandshake, ConnectionClosed, TimeoutError)):
            client = Client(server, table_id, alice, origin=origin, hello=False, timeout=5)
            try:
                client.hello()
            finally:
                client.close()
    with Client(server, table_id, alice, origin=server.url) as client:
        assert client.seat == 0
    with Client(server, table_id, alice) as client:  # no Origin: not a browser page
        assert client.seat == 0


def test_allow_origin_lets_one_more_site_in(tmp_path: Path) -> None:
    server = limited_server(tmp_path, "--allow-origin", "https://ok.example")
    pat = server.person("Pat")
    body = {"game": "twenty", "seats": FRIENDS}
    answer = pat.post("/api/tables", json=body, headers={"Origin": "https://ok.example"})
    assert answer.status_code == 200, answer.text
    one_line_error(pat.post("/api/tables", json=body, headers={"Origin": EVIL}), 403)
    one_line_error(pat.post("/api/tables", json=body, headers={"Origin": "http://ok.example"}), 403)
    table_id = answer.json()["table_id"]
    with Client(server, table_id, pat, origin="https://ok.example") as client:
        assert client.seat == 0
    with pytest.raises((InvalidHandshake, ConnectionClosed, TimeoutError)):
        Client(server, table_id, pat, origin=EVIL, timeout=5).close()
