"""Hold under abuse: what an anonymous script does to a real ``parlour serve``, and what a person still gets.

Every test runs a server process of its own and attacks it as a script would: from another loopback
address than the people it must not hurt (127.0.0.2 and up: the server counts its limits per client
address, and a script cannot choose its address), dropping its cookie whenever that helps it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import DATA, Client, Person, ServerProcess
from .test_security import closed_within, create, created, one_line_error, summary_of, wait_for

FRIENDS = [{"kind": "me"}, {"kind": "friend"}]
WITH_OPEN_SEAT = [{"kind": "me"}, {"kind": "open"}]
AGAINST_A_BOT = [{"kind": "me"}, {"kind": "bot", "level": "medium"}]


def own_server(tmp_path: Path, db_url: str | None, *extra: str, bot_delay: float = 0.05) -> ServerProcess:
    url = db_url or f"sqlite:///{tmp_path / 'abuse.db'}"
    return ServerProcess(url, bot_delay=bot_delay, log_path=tmp_path / "server.log", extra=extra).start()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str | None:
    """None (a SQLite file of the test's own), or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url


def cookieless(server: ServerProcess, address: str) -> httpx.Client:
    """A script's HTTP client from ``address`` that never keeps a cookie: a new identity every request."""
    return httpx.Client(base_url=server.url, trust_env=False, timeout=30.0,
                        transport=httpx.HTTPTransport(local_address=address), cookies=None)


def flood_tables(server: ServerProcess, address: str, most: int = 500) -> tuple[int, str]:
    """Create tables without a cookie from ``address`` until refused; how many were made, and the refusal."""
    with cookieless(server, address) as script:
        for made in range(most):
            script.cookies.clear()
            answer = script.post("/api/tables", json={"game": "twenty", "seats": WITH_OPEN_SEAT})
            if answer.status_code != 200:
                return made, one_line_error(answer, 429)
    raise AssertionError(f"{most} tables made from {address} without being refused")


def play_one_move_against_a_bot(person: Person, server: ServerProcess) -> None:
    """``person`` starts a table against a medium bot, makes a move and sees the bot answer."""
    table = created(person, AGAINST_A_BOT)
    with Client(server, table["table_id"], person) as client:
        state = client.state
        assert state is not None
        if not state["legal"]:  # the bot leads: its move comes first
            state = client.recv_until("state", lambda m: bool(m["legal"]), timeout=30)
        client.send({"type": "move", "move": state["legal"][0], "version": state["version"]})
        client.recv_until("state", lambda m: m["version"] >= state["version"] + 2, timeout=30)


# -- 1. a script fills the server ---------------------------------------------------------------------

def test_a_cookieless_flood_never_keeps_a_person_from_playing(tmp_path: Path, db_url: str | None) -> None:
    server = own_server(tmp_path, db_url, "--max-waiting", "20", "--first-move-minutes", "0.05",
                        "--max-address-open", "12")
    made, refusal = flood_tables(server, "127.0.0.2")
    assert made >= 12 and "Your address" in refusal, (made, refusal)  # more if some ended meanwhile
    # more addresses (a botnet): tables nobody moved at make room for each other; nobody is refused
    for address in ("127.0.0.3", "127.0.0.4"):
        made, refusal = flood_tables(server, address)
        assert made >= 12 and "Your address" in refusal, (made, refusal)  # more if some ended meanwhile
    live = [t for t in lobby(server) if t["status"] == "playing"]
    assert len(live) <= 20, len(live)
    # a spectator on a flood table does not keep it alive
    with cookieless(server, "127.0.0.5") as script:
        answer = script.post("/api/tables", json={"game": "twenty", "seats": WITH_OPEN_SEAT})
        assert answer.status_code == 200, answer.text
        watched = answer.json()["table_id"]
    with Client(server, watched, None, address="127.0.0.6") as spectator:
        assert spectator.seat is None
        wait_for(lambda: summary_of(None, server, watched)["status"] == "abandoned",
                 "a table only a spectator is at ends (no first move within 3 s)", timeout=30)
    # a fresh browser from another address starts a table and plays, also after a restart
    play_one_move_against_a_bot(server.person("Fresh"), server)
    server.restart()
    play_one_move_against_a_bot(server.person("After restart"), server)
    assert "Traceback" not in server.output(2000)


def lobby(server: ServerProcess) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = []
    page = 1
    while True:
        answer = server.get("/api/tables", params={"page": page, "per_page": 50}).json()
        tables += answer["tables"]
        if page >= answer["pages"]:
            return tables
        page += 1


def test_new_identities_and_sockets_are_limited_per_address(tmp_path: Path) -> None:
    server = own_server(tmp_path, None, "--new-players-per-hour", "10", "--max-sockets", "3",
                        "--max-spectators", "2", "--sockets-per-minute", "8")
    with cookieless(server, "127.0.0.2") as script:
        answers = []
        for _ in range(15):
            script.cookies.clear()
            answers.append(script.post("/api/tables", json={"game": "twenty", "seats": FRIENDS}))
    codes = [a.status_code for a in answers]
    assert codes[:2] == [200, 200] and codes[-1] == 429, codes  # bursts of a fifth of the hour's 10
    assert "new visitors from your address" in one_line_error(answers[-1], 429)
    assert server.person("Someone else").get("/api/me").status_code == 200  # another address is served
    table = server.create_table("twenty", seats=WITH_OPEN_SEAT)
    table_id = table["table_id"]
    # two spectators from one address, then a third is refused; sitting at a seat is not watching
    watchers = [Client(server, table_id, None, address="127.0.0.3") for _ in range(2)]
    third = Client(server, table_id, None, address="127.0.0.3", hello=False)
    third.send({"type": "hello"})
    assert third.recv_until("error")["code"] == "too_many"
    # three sockets at once from one address: the fourth is turned away with a reason
    fourth = Client(server, table_id, None, address="127.0.0.3", hello=False)
    assert fourth.recv_until("error")["code"] == "too_many"
    closed_within(fourth, 60)  # the server drops the TCP connection at the end of its closing handshake
    for client in [*watchers, third]:
        client.close()
    # sessions a minute: 8 in all from the address (bursts of 4) ...
    refused = 0
    for _ in range(8):
        client = Client(server, table_id, None, address="127.0.0.3", hello=False)
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            if client.recv(timeout=0.5).get("code") == "too_many":
                refused += 1
        client.close()
    assert refused >= 1, "sessions a minute are limited"
    # ... while another address connects as it likes
    with Client(server, table_id, table["seats"][0]["person"]) as host:
        assert host.seat == 0


# -- 2. bots and hints are fair ------------------------------------------------------------------------

def bot_reply_seconds(client: Client, moves: int) -> list[float]:
    """Make ``moves`` moves against a bot and time each bot reply (the round's end deals anew)."""
    seconds = []
    for _ in range(moves):
        state = client.state
        assert state is not None
        if state["status"] != "playing":
            client.send({"type": "next_round", "version": state["version"]})
            state = client.recv_until("state", lambda m: m["status"] == "playing" and bool(m["legal"]), timeout=60)
        elif not state["legal"]:
            state = client.recv_until("state", lambda m: bool(m["legal"]) or m["status"] != "playing", timeout=60)
            continue
        started = time.monotonic()
        client.send({"type": "move", "move": state["legal"][0], "version": state["version"]})
        answered = state["version"] + 2
        client.recv_until("state", lambda m, v=answered: m["version"] >= v or m["status"] != "playing", timeout=60)
        seconds.append(time.monotonic() - started)
    return seconds


def open_seat_to_move(server: ServerProcess, table_id: str) -> int:
    """Watch the table until its seat 0 is to move (where the bot leads, after the bot's first move);
    the version then."""
    with Client(server, table_id, None, address="127.0.0.9") as watcher:
        state = watcher.state
        assert state is not None
        if state["view"]["to_move"] != 0:
            state = watcher.recv_until("state", lambda m: m["view"]["to_move"] == 0, timeout=120)
        version: int = state["version"]
        return version


def test_one_players_timers_and_hints_do_not_starve_another_players_bot(tmp_path: Path, db_url: str | None) -> None:
    server = own_server(tmp_path, db_url, "--message-rate", "1000", "--max-open", "20")
    spammer = server.person("Spammer")
    # eight tables of an open seat against an expert bot with a 5 s timer: nobody sits at the open seat,
    # so no timer plays for it and the expert never thinks
    idle = [created(spammer, [{"kind": "open"}, {"kind": "bot", "level": "expert"}], turn_seconds=5)
            for _ in range(8)]
    versions = {t["table_id"]: open_seat_to_move(server, t["table_id"]) for t in idle}
    assert all(v <= 1 for v in versions.values()), versions
    # eight tabs of one table against a bot asking for hints over and over
    table = created(spammer, [{"kind": "me"}, {"kind": "bot", "level": "hard"}], game="minus-twenty")
    tabs = [Client(server, table["table_id"], spammer) for _ in range(8)]
    stop = threading.Event()
    hints: list[dict[str, Any]] = []

    def ask(tab: Client) -> None:
        while not stop.is_set():
            state = tab.state
            if state is None or not state["can_hint"]:
                with contextlib.suppress(TimeoutError):
                    tab.recv(timeout=0.5)
                continue
            tab.send({"type": "hint", "version": state["version"]})
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                answer = tab.recv_until("hint", timeout=30)
                hints.append(answer)

    threads = [threading.Thread(target=ask, args=(tab,), daemon=True) for tab in tabs]
    for thread in threads:
        thread.start()
    victim = server.person("Victim")
    game = created(victim, AGAINST_A_BOT)
    try:
        with Client(server, game["table_id"], victim) as client:
            replies = bot_reply_seconds(client, 12)
        # a hint is a search of the hard level: on a busy machine the first may come after the victim's moves
        wait_for(lambda: hints, "a hint is answered", timeout=180)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        for tab in tabs:
            tab.close()
    # A medium bot answers in well under a second on an idle machine; before the workers were shared
    # fairly it took 11-29 s.  Ten seconds holds on a machine twice as busy as CI's.
    assert max(replies) < 10, replies
    assert hints, "the hints were answered"
    by_version: dict[int, list[Any]] = {}
    for hint in hints:
        by_version.setdefault(hint["version"], []).append(hint["moves"])
    for version, answers in by_version.items():
        assert all(a == answers[0] for a in answers), f"one hint per version and seat ({version})"
    for table_id, version in versions.items():  # well over 5 s later
        assert summary_of(None, server, table_id)["version"] == version, "no timer plays an untaken seat"


def test_a_seat_taken_later_gets_its_timer(tmp_path: Path) -> None:
    server = own_server(tmp_path, None, "--message-rate", "1000")
    host = server.person("Host")
    table = created(host, [{"kind": "open"}, {"kind": "bot", "level": "easy"}], turn_seconds=5)
    version = open_seat_to_move(server, table["table_id"])  # where the bot leads, after its first move
    time.sleep(6)
    assert summary_of(None, server, table["table_id"])["version"] == version, "nobody's seat, nobody's timer"
    joiner = server.person("Joiner")
    assert joiner.post(f"/api/tables/{table['table_id']}/join", json={"seat": 0}).status_code == 200
    # the joiner never moves: the timer plays for them
    wait_for(lambda: summary_of(None, server, table["table_id"])["version"] > version,
             "the timer plays the taken seat", timeout=30)


# -- 3. floods are closed ---------------------------------------------------------------------------------

def test_a_paced_flood_is_closed_whatever_is_interleaved(tmp_path: Path) -> None:
    server = own_server(tmp_path, None)  # the default message rate: 20 a second, bursts of 40
    table = server.create_table("twenty", seats=FRIENDS)
    flooder = Client(server, table["table_id"], table["seats"][0]["person"])
    calm = Client(server, table["table_id"], table["seats"][1]["person"])
    started = time.monotonic()
    accepted = 0
    closed = False
    while time.monotonic() - started < 40 and not closed:  # over 100 a second: some get through, most not
        try:
            for _ in range(3):
                flooder.send({"type": "ping"})
            while True:
                message = flooder.recv(timeout=0.001)
                accepted += message["type"] == "pong"
        except TimeoutError:
            pass
        except ConnectionClosed:
            closed = True
        time.sleep(0.02)
    if not closed:
        closed_within(flooder, 10)
    assert accepted > 40, "pongs between the refusals: the refusals were never in a row"
    assert time.monotonic() - started < 40, "closed while interleaving"
    assert [m["type"] for m in calm.ping(timeout=5)] in ([], ["seats", "presence"])  # the seat is empty now
    calm.close()


def test_a_byte_flood_is_closed(tmp_path: Path) -> None:
    server = own_server(tmp_path, None)
    table = server.create_table("twenty", seats=FRIENDS)
    flooder = Client(server, table["table_id"], table["seats"][0]["person"])
    frame = "x" * (1024 * 1024 - 100)  # under the largest frame, over the largest message
    sent = 0
    with contextlib.suppress(ConnectionClosed):
        for _ in range(50):
            flooder.send_raw(frame)
            sent += 1
    closed_within(flooder, 20)
    codes = [f.get("code") for f in flooder.frames if f["type"] == "error"]
    assert "rate_limited" in codes and sent < 50, (codes, sent)
    with Client(server, table["table_id"], table["seats"][1]["person"]) as calm:
        assert calm.ping(timeout=5) == []


# -- 4. names -----------------------------------------------------------------------------------------

def test_names_are_checked_once_in_one_place(tmp_path: Path, db_url: str | None) -> None:
    server = own_server(tmp_path, db_url, "--message-rate", "1000")
    ann = server.person("Ann")
    for bad, says in (("Eve\u0000", "U+0000"), ("\u202eevE", "U+202E"), ("\u200b\u200b", "U+200B"),
                      ("\u0007bell", "U+0007")):
        assert says in one_line_error(ann.put("/api/me", json={"name": bad}), 400)
        assert says in one_line_error(create(ann, [{"kind": "me"}, {"kind": "bot", "level": "easy",
                                                                    "name": bad}]), 400)
    surrogate = b'{"name": "Eve\\ud800"}'
    assert "Unicode" in one_line_error(ann.put("/api/me", content=surrogate), 400)
    table = created(ann, WITH_OPEN_SEAT)
    answer = server.person().post(f"/api/tables/{table['table_id']}/join", content=b'{"seat": 1, "name": "\\udfff"}')
    assert "Unicode" in one_line_error(answer, 400)
    nul = server.person().post(f"/api/tables/{table['table_id']}/join", json={"seat": 1, "name": "A\u0000"})
    assert "U+0000" in one_line_error(nul, 400)
    # a duplicate name gets a number; a bot gives way to a person; 40 characters stay 40
    long = "L" * 40
    two = created(ann, [{"kind": "bot", "level": "easy", "name": long}, {"kind": "bot", "level": "easy", "name": long}])
    names = [s["name"] for s in two["seats"]]
    assert names[0] != names[1] and all(len(n) <= 40 for n in names), names
    table = created(ann, [{"kind": "me"}, {"kind": "bot", "level": "easy", "name": "ann"}, {"kind": "open"}],
                    game="progression")
    names = [s["name"] for s in table["seats"]]
    assert names[0] == "Ann" and names[1] != "ann" and names[1].startswith("ann"), names
    bob = server.person()
    assert bob.post(f"/api/tables/{table['table_id']}/join", json={"seat": 2, "name": "ANN"}).status_code == 200
    names = [s["name"] for s in summary_of(None, server, table["table_id"])["seats"]]
    assert len({n.casefold() for n in names}) == 3, names
    # a hello with a token that is not valid Unicode or not a link: a clear error, no traceback
    with Client(server, table["table_id"], ann, hello=False) as client:
        client.send_raw('{"type": "hello", "token": "\\ud800"}')
        assert client.recv_until("error")["code"] == "malformed"
    assert "Traceback" not in server.output(2000)


# -- 5. hosts and origins -----------------------------------------------------------------------------------

def test_only_known_host_names_are_answered(tmp_path: Path) -> None:
    server = own_server(tmp_path, None, "--allowed-host", "cards.example.org")
    with httpx.Client(base_url=server.url, trust_env=False) as client:
        for host in ("evil.example", "rebind.attacker.test:80", "cards.example.org.evil"):
            answer = client.get("/api/games", headers={"Host": host})
            assert answer.status_code == 400, (host, answer.status_code)
            assert "host" in answer.json()["error"]
            assert "content-security-policy" in answer.headers
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "cards.example.org"):
            assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
        # the scheme is part of the origin: an https page of the same host is another site
        answer = client.put("/api/me", json={"name": "X"}, headers={"Origin": f"https://127.0.0.1:{server.port}"})
        assert answer.status_code == 403
    with pytest.raises(Exception):  # noqa: B017 (the handshake is refused, however the library words it)
        Client(server, "x", None, origin="http://evil.example")
    assert json.loads(server.get("/api/me").text) == {"name": None, "account": None, "page": None}


# -- 6. replays cost what they are worth ------------------------------------------------------------------

def peak_rss_mb(pid: int) -> float:
    """The peak resident memory (VmHWM) of process ``pid`` and of each of its children, added up (MB)."""
    def hwm(of: int) -> float:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{of}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                children.append(int(stat.parent.name))
    return hwm(pid) + sum(hwm(child) for child in children)


def test_a_replay_bomb_neither_freezes_nor_fills_the_server(tmp_path: Path, db_url: str | None) -> None:
    from .test_replay_limits import capped_record

    server = own_server(tmp_path, db_url)
    data = capped_record()  # the longest match the rules allow: 100 rounds of Minus Twenty, about 400 kB
    bomb = json.dumps(data).encode()
    longer = dict(data, rounds=data["rounds"] + data["rounds"][:20])
    refused = httpx.post(f"{server.url}/api/replay", content=json.dumps(longer).encode(), timeout=30)
    assert one_line_error(refused, 422) == "A record holds at most 100 rounds; this one has 120"
    total = httpx.post(f"{server.url}/api/replay", content=bomb, params={"count": 1}, timeout=60).json()["total"]
    assert total > 10_000
    table = server.create_table("twenty", seats=FRIENDS)
    victim = Client(server, table["table_id"], table["seats"][0]["person"])
    stop = threading.Event()
    answers: list[int] = []

    def bomber(address: str) -> None:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=60,
                          transport=httpx.HTTPTransport(local_address=address)) as script:
            for number in range(40):
                if stop.is_set():
                    return
                other = json.dumps(dict(data, meta={"n": number})).encode() if number % 2 else bomb  # a new one
                answer = script.post("/api/replay", content=other, params={"offset": (number * 7919) % total})
                answers.append(answer.status_code)

    bombers = [threading.Thread(target=bomber, args=(f"127.0.0.{n}",), daemon=True) for n in (2, 3, 4)]
    for thread in bombers:
        thread.start()
    pings = []
    started = time.monotonic()
    while any(t.is_alive() for t in bombers) and time.monotonic() - started < 60:
        before = time.monotonic()
        assert [m["type"] for m in victim.ping(timeout=10)] == []
        pings.append(time.monotonic() - before)
        time.sleep(0.05)
    stop.set()
    for thread in bombers:
        thread.join(timeout=60)
    victim.close()
    assert 200 in answers and set(answers) <= {200, 429, 503}, sorted(set(answers))
    # One address cannot ask for replays without end: 30 new records one after the other spend a budget of
    # 20 a minute in bursts of 10, unless each took 3 s to work out (a small record takes milliseconds).
    small = json.loads((DATA / "twenty-illustrative.json").read_text())
    with httpx.Client(base_url=server.url, trust_env=False, timeout=60,
                      transport=httpx.HTTPTransport(local_address="127.0.0.7")) as script:
        codes = [script.post("/api/replay", json=dict(small, meta={"n": n})).status_code for n in range(30)]
    assert 429 in codes and set(codes) <= {200, 429}, codes
    # The event loop never waits for a replay: it used to freeze for 5.5 s.  (A ping takes a few ms;
    # a second allows for a machine twice as busy as CI's.)
    assert max(pings) < 1.0, sorted(pings)[-5:]
    # It used to reach 1.1 GB: a page of steps is at most a couple of MB, whatever the record.
    assert peak_rss_mb(server.proc.pid) < 500  # type: ignore[union-attr]
    assert "Traceback" not in server.output(2000)


# -- 7. the address a limit counts --------------------------------------------------------------------------

def test_a_forwarded_address_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    """X-Forwarded-For from anyone but a proxy named with --trust-proxy changes nothing: a script cannot
    choose the address its limits are counted under.  From the named proxy, each forwarded address
    counts on its own."""
    def make(server: ServerProcess, forwarded: str) -> httpx.Response:
        with cookieless(server, "127.0.0.2") as script:
            return script.post("/api/tables", json={"game": "twenty", "seats": WITH_OPEN_SEAT},
                               headers={"X-Forwarded-For": forwarded})

    plain = own_server(tmp_path, None, "--max-address-open", "2")
    assert [make(plain, f"203.0.113.{n}").status_code for n in range(3)] == [200, 200, 429]
    plain.stop()
    proxied = ServerProcess(f"sqlite:///{tmp_path / 'proxied.db'}", log_path=tmp_path / "proxied.log",
                            extra=("--max-address-open", "2", "--trust-proxy", "127.0.0.2")).start()
    assert [make(proxied, f"203.0.113.{n}").status_code for n in range(3)] == [200, 200, 200]
    assert [make(proxied, "198.51.100.7").status_code for _ in range(3)] == [200, 200, 429]


def test_tables_started_in_the_last_hour_are_counted_across_a_restart(tmp_path: Path) -> None:
    server = own_server(tmp_path, None, "--max-address-per-hour", "3")
    assert flood_tables(server, "127.0.0.2")[0] == 3
    server.restart()
    made, refusal = flood_tables(server, "127.0.0.2")
    assert made == 0 and "Your address started 3 tables in the last hour" in refusal, refusal
    play_one_move_against_a_bot(server.person("Someone else"), server)  # another address is not counted


def test_a_seat_asks_for_hints_within_its_budget(tmp_path: Path) -> None:
    """The same position's hint again costs nothing; a new position's hint spends the seat's budget,
    shared by all its tabs, and over it the answer says when to ask again."""
    server = own_server(tmp_path, None, "--hints-per-minute", "1")
    person = server.person("Ann")
    table = created(person, [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    tabs = [Client(server, table["table_id"], person) for _ in range(2)]
    state = tabs[0].state
    assert state is not None
    if not state["can_hint"]:
        state = tabs[0].recv_until("state", lambda m: m["can_hint"], timeout=30)
    for tab in tabs:  # one hint, twice: the budget of one a minute is spent once
        tab.send({"type": "hint", "version": state["version"]})
        assert tab.recv_until("hint", timeout=60)["version"] == state["version"]
    tabs[0].send({"type": "move", "move": state["legal"][0], "version": state["version"]})
    state = tabs[1].recv_until("state", lambda m: m["can_hint"], timeout=30)  # a Twenty round lasts 20 moves
    tabs[1].send({"type": "hint", "version": state["version"]})
    refused = tabs[1].recv_until("error", timeout=30)
    assert refused["code"] == "rate_limited" and "ask again in" in refused["message"], refused
    for tab in tabs:
        tab.close()


def test_health_checks_are_limited_per_address(tmp_path: Path) -> None:
    """``GET /healthz`` asks the database (at most once a second, whoever asks): an address gets its
    bursts and then a one-line 429, another address is answered."""
    server = own_server(tmp_path, None, "--health-checks-per-minute", "6")  # bursts of 3, then one in 10 s
    start = time.monotonic()
    with cookieless(server, "127.0.0.7") as probe:
        answers = [probe.get("/healthz") for _ in range(12)]
    elapsed = time.monotonic() - start
    codes = [a.status_code for a in answers]
    assert codes[:3] == [200, 200, 200] and 429 in codes, codes
    assert codes.count(200) <= 3 + 1 + elapsed / 10, codes  # the burst, and what refilled meanwhile
    assert "Too many health checks from your address" in one_line_error(answers[codes.index(429)], 429)
    with cookieless(server, "127.0.0.8") as other:
        assert other.get("/healthz").json()["status"] == "ok"
