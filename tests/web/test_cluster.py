"""Several ``parlour serve`` processes on one real PostgreSQL database (:mod:`parlour.web.cluster`):
people connected to different processes play one table, a spectator on a third sees every move and
no hidden card, a process killed mid-round loses nothing, two processes never both take a move at one
version; and SQLite refuses a second process."""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour import record as records
from parlour import review

from .conftest import FAST_CLIENTS, ROOT, Client, Person, ServerProcess, play_to_end, states_by_version
from .test_review import DATA, wait_until_done
from .test_ws import check_frames, record_of


def processes(postgres_url: str, tmp_path: Path, count: int) -> list[ServerProcess]:
    """``count`` server processes on the one database, started one after the other."""
    return [ServerProcess(postgres_url, log_path=tmp_path / f"serve-{n + 1}.log", extra=FAST_CLIENTS).start()
            for n in range(count)]


def test_people_on_two_processes_play_to_the_end_and_a_spectator_on_a_third_sees_it_all(
        postgres_url: str, tmp_path: Path) -> None:
    first, second, third = processes(postgres_url, tmp_path, 3)
    table = first.create_table("twenty", rated=True)
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    seated = [Client(first, table_id, host), Client(second, table_id, friend)]
    assert [c.welcome["seat"] for c in seated if c.welcome] == [0, 1]
    watcher = Client(third, table_id, None)
    last = play_to_end(seated, random.Random(37), watchers=(watcher,))
    assert last["status"] == "finished"

    data = record_of(third, table_id)
    assert data == record_of(first, table_id) == record_of(second, table_id)
    final = records.replay(records.from_data(data))
    assert final.totals == last["summary"]["totals"]
    states = states_by_version(data)
    assert len(states) == last["version"] + 1
    assert check_frames(seated[0], states, 0) > 50
    assert check_frames(seated[1], states, 1) > 50
    assert check_frames(watcher, states, None) > 50
    assert third.table(table_id)["status"] == "finished"

    def rated(state: dict[str, Any]) -> bool:
        return all(seat["rating"] is not None for seat in state["seats"])

    for client in (*seated, watcher):  # rated at the process that took the last move, told to the others
        if not rated(client.state or {"seats": [{"rating": None}]}):
            client.recv_until("state", rated, timeout=10)
    # The processes took each other's moves from the notifications, without reading the database again.
    for process in (first, second, third):
        told = re.search(r'parlour_moves_followed_total\{how="told"\} (\d+)', process.get("/metrics").text)
        assert told is not None and int(told.group(1)) > last["version"] // (2 if process is third else 4)


def test_a_process_killed_mid_round_loses_nothing_and_its_bots_go_on_elsewhere(
        postgres_url: str, tmp_path: Path) -> None:
    """The table's owner (where it was made: its bot moves there) is killed with SIGKILL in the middle of
    a round; the person, connected to the other process, goes on playing, the bot moves again (the other
    process has taken the table over), and a person who was connected to the dead process comes back
    at the other one and finds everything."""
    first, second = processes(postgres_url, tmp_path, 2)
    table = first.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    table_id = table["table_id"]
    person = table["seats"][0]["person"]
    owner, other = sorted((first, second), key=lambda proc: -proc.get("/healthz").json()["tables"]["owned"])
    assert owner.get("/healthz").json()["tables"]["owned"] == 1 and other.get("/healthz").json()["tables"]["owned"] == 0
    rng = random.Random(7)
    with Client(other, table_id, person) as player, Client(owner, table_id, person) as tab:
        middle = play_to_end([player], rng, stop_at=12)
        assert middle["status"] == "playing" and middle["version"] >= 12
        tab.wait_version(middle["version"])
        owner.kill()
        killed_at = time.monotonic()
        last = play_to_end([player], rng, timeout=30)
        assert last["status"] == "finished"
        took_over = time.monotonic() - killed_at
    data = record_of(other, table_id)
    moves = sum(len(r["moves"]) for r in data["rounds"]) + len(data["rounds"]) - 1
    assert moves == last["version"]  # every change kept, none twice
    states = states_by_version(data)
    assert check_frames(player, states, 0) > 20
    assert took_over < 60
    with Client(other, table_id, person) as back:  # the tab of the dead process, reconnected
        assert back.welcome is not None and back.welcome["seat"] == 0
        assert back.state is not None and back.state["version"] == last["version"]


def test_two_processes_never_both_take_a_move_at_one_version(postgres_url: str, tmp_path: Path) -> None:
    """The same person's two tabs, on two processes, send a move at the same version at once, turn after
    turn: exactly one is taken each time (the other is told the table is stale), and the table never
    skips or repeats a version."""
    first, second = processes(postgres_url, tmp_path, 2)
    table = first.create_table("twenty")
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    rng = random.Random(3)
    tabs = [Client(first, table_id, host), Client(second, table_id, host)]
    other = Client(second, table_id, friend)
    races = 0
    for _ in range(24):
        version = max(c.state["version"] for c in (*tabs, other) if c.state)
        for c in (*tabs, other):
            c.wait_version(version)
        if tabs[0].state and tabs[0].state["legal"]:
            legal = tabs[0].state["legal"]
            seen = [len(tab.frames) for tab in tabs]
            for tab, move in zip(tabs, (legal[0], legal[-1])):
                tab.send({"type": "move", "move": move, "version": version})
            for tab in tabs:
                tab.wait_version(version + 1)
                tab.ping()  # an answer to its move comes before the pong
            stale = [f for tab, start in zip(tabs, seen) for f in tab.frames[start:]
                     if f.get("type") == "error" and f.get("code") == "stale"]
            assert len(stale) == 1, stale  # one move taken, the other refused
            races += 1
        elif other.state and other.state["legal"]:
            other.send({"type": "move", "move": rng.choice(other.state["legal"]), "version": version})
        elif tabs[0].state and tabs[0].state["status"] == "round_over":
            tabs[0].send({"type": "next_round", "version": version})
        for c in (*tabs, other):
            assert c.wait_version(version + 1)["version"] == version + 1
    last = play_to_end([tabs[0], other], rng, watchers=(tabs[1],))
    data = record_of(first, table_id)
    assert sum(len(r["moves"]) for r in data["rounds"]) + len(data["rounds"]) - 1 == last["version"]
    assert check_frames(tabs[1], states_by_version(data), 0) > 30  # every version once, in order
    assert races >= 8
    for c in (*tabs, other):
        c.close()


def test_a_second_process_on_one_sqlite_database_is_refused_with_one_line(sqlite_url: str, tmp_path: Path) -> None:
    ServerProcess(sqlite_url, log_path=tmp_path / "first.log").start()
    second = ServerProcess(sqlite_url, log_path=tmp_path / "second.log")
    with pytest.raises(RuntimeError):
        second.start(timeout=20)
    said = [line for line in second.output().splitlines() if line.startswith("parlour serve:")]
    assert len(said) == 1 and "in use by another parlour serve" in said[0] and "PostgreSQL" in said[0], \
        second.output()
    assert "Traceback" not in second.output()


def test_each_process_says_how_it_is_and_counts_for_prometheus(postgres_url: str, tmp_path: Path) -> None:
    """``/healthz`` of each process (several, hearing each other) and its ``/metrics``: the moves it made,
    by whom, its tables and connections; ``/metrics`` is for the addresses ``--metrics-from`` names."""
    first, second = processes(postgres_url, tmp_path, 2)
    for proc in (first, second):
        health = proc.get("/healthz")
        assert health.status_code == 200, health.text
        found = health.json()
        assert found["status"] == "ok" and found["processes"] == "several" and found["notifications"] is True
    table = first.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    owner, other = sorted((first, second), key=lambda proc: -proc.get("/healthz").json()["tables"]["owned"])
    with Client(other, table["table_id"], table["seats"][0]["person"]) as player:
        last = play_to_end([player], random.Random(2), stop_at=10)
        text = other.get("/metrics").text
        assert 'parlour_moves_total{by="person"}' in text and "parlour_connections 1.0" in text
        assert "parlour_tables_owned 0.0" in text and "parlour_tables_owned 1.0" in owner.get("/metrics").text
        assert 'parlour_moves_total{by="bot"}' in owner.get("/metrics").text  # its bot moves at its owner
        assert "parlour_move_seconds_count" in text
        assert other.get("/healthz").json()["tables"] == {"held": 1, "owned": 0}
        assert last["version"] >= 10
    closed = ServerProcess(postgres_url, log_path=tmp_path / "closed.log",
                           extra=(*FAST_CLIENTS, "--metrics-from", "10.0.0.0/8")).start()
    assert closed.get("/metrics").status_code == 404
    assert closed.get("/healthz").status_code == 200


def test_what_is_said_at_a_table_reaches_every_process(postgres_url: str, tmp_path: Path) -> None:
    first, second, third = processes(postgres_url, tmp_path, 3)
    table = first.create_table("twenty", rated=True)
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    with Client(first, table_id, host) as ada, Client(second, table_id, friend) as bea, \
            Client(third, table_id, None) as watcher:
        ada.send({"type": "chat", "text": "Good luck!"})
        for client in (ada, bea, watcher):
            line = client.recv_until("chat", lambda m: m["text"] == "Good luck!")
            assert line["seat"] == 0 and line["spectator"] is False
        bea.send({"type": "chat", "text": "Thanks"})
        for client in (ada, bea, watcher):  # each line once
            assert client.recv_until("chat", lambda m: m["text"] == "Thanks")["seat"] == 1
            client.ping()
            assert [f["text"] for f in client.frames if f.get("type") == "chat"] == ["Good luck!", "Thanks"]
    with Client(third, table_id, friend) as again:  # and a connection made later reads them all
        assert [line["text"] for line in again.welcome["chat"]] == ["Good luck!", "Thanks"]


def test_who_is_at_the_table_is_known_at_every_process(postgres_url: str, tmp_path: Path) -> None:
    """A person connected to one process sees the other player come and go at another process, and
    the spectators of a third; the host cannot re-open the seat of a person who is at the table there."""
    first, second, third = processes(postgres_url, tmp_path, 3)
    table = first.create_table("twenty", rated=True)
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    with Client(first, table_id, host) as ada:
        bea = Client(second, table_id, friend)
        came = ada.recv_until("presence", lambda m: m["seat"] == 1 and m["joined"])
        assert came["text"].endswith("joined")
        assert ada.state is not None and ada.state["seats"][1]["connected"]  # told just before
        refused = host.post(f"/api/tables/{table_id}/seats/1/reopen")
        assert refused.status_code == 409 and "at the table right now" in refused.json()["error"]
        with Client(third, table_id, None):
            assert ada.recv_until("presence", lambda m: m["spectators"] == 1)["seat"] is None
        ada.recv_until("presence", lambda m: m["spectators"] == 0)
        bea.close()
        gone = ada.recv_until("presence", lambda m: m["seat"] == 1 and not m["joined"])
        assert gone["text"].endswith("left")
        assert not ada.state["seats"][1]["connected"]
        assert host.post(f"/api/tables/{table_id}/seats/1/reopen").status_code == 200


def test_a_client_has_one_budget_whichever_processes_it_connects_to(postgres_url: str, tmp_path: Path) -> None:
    """Sockets and spectators held from one address, and the chat an identity may say, are counted over
    every process together: a client spreading its connections over two processes gets no more."""
    limits = (*FAST_CLIENTS, "--max-sockets", "3", "--max-spectators", "2")
    first, second = (ServerProcess(postgres_url, log_path=tmp_path / f"limited-{n}.log", extra=limits).start()
                     for n in (1, 2))
    table_id = first.create_table("twenty")["table_id"]
    watchers = [Client(first, table_id, None, address="127.0.0.3"),
                Client(second, table_id, None, address="127.0.0.3")]
    third = Client(second, table_id, None, address="127.0.0.3", hello=False)  # the third socket: not watching
    third.send({"type": "hello"})
    assert third.recv_until("error")["code"] == "too_many"  # a third spectator, on either process
    fourth = Client(first, table_id, None, address="127.0.0.3", hello=False)
    assert fourth.recv_until("error")["code"] == "too_many"  # a fourth socket
    assert "3 connections from your address" in fourth.frames[-1]["message"]
    for client in (*watchers, third, fourth):
        client.close()
    deadline = time.monotonic() + 10  # given back: the address may connect again, at either process
    while True:
        again = Client(second, table_id, None, address="127.0.0.3", hello=False)
        again.send({"type": "hello"})
        first_answer = again.recv()
        again.close()
        if first_answer["type"] == "welcome":
            break
        assert time.monotonic() < deadline, first_answer
        time.sleep(0.2)


def test_the_limits_on_tables_and_the_lobby_span_every_process(postgres_url: str, tmp_path: Path) -> None:
    """A player's open tables are counted over every process (the third, made at either, is refused);
    the tables nobody has moved at make room over every process; the lobby of any process lists every
    process's tables with a free seat."""
    limits = (*FAST_CLIENTS, "--max-open", "2", "--max-waiting", "2")
    first, second = (ServerProcess(postgres_url, log_path=tmp_path / f"limited-{n}.log", extra=limits).start()
                     for n in (1, 2))
    ada = first.person("Ada")
    open_seat = [{"kind": "me"}, {"kind": "open"}]
    made = [first.create_table("twenty", seats=open_seat, host=ada)["table_id"]]
    with httpx_client(second, ada) as at_second:
        answer = at_second.post("/api/tables", json={"game": "twenty", "seats": open_seat})
        assert answer.status_code == 200, answer.text
        made.append(answer.json()["table_id"])
        refused = at_second.post("/api/tables", json={"game": "twenty", "seats": open_seat})
    assert refused.status_code == 429 and "already have 2 tables" in refused.json()["error"]
    assert first.post("/api/tables", json={"game": "twenty", "seats": open_seat},
                      cookies=ada.http.cookies).status_code == 429
    for proc in (first, second):
        lobby = proc.get("/api/tables").json()
        assert lobby["total"] == 2 and {t["table_id"] for t in lobby["tables"]} == set(made)
    # both tables wait for a first move and nobody is at them: a third from someone else ends the oldest
    bea = second.person("Bea")
    third = second.create_table("twenty", seats=open_seat, host=bea)["table_id"]
    assert first.table(made[0])["status"] == "abandoned"
    deadline = time.monotonic() + 10
    while {t["table_id"] for t in first.get("/api/tables").json()["tables"]} != {made[1], third}:
        assert time.monotonic() < deadline
        time.sleep(0.2)


def httpx_client(server: ServerProcess, person: Person) -> httpx.Client:
    """``person``'s browser, at ``server`` (the same cookie, so the same identity)."""
    return httpx.Client(base_url=server.url, trust_env=False, timeout=30.0, cookies=person.http.cookies)


def test_people_on_two_processes_play_again_and_one_who_leaves_holds_it_back(
        postgres_url: str, tmp_path: Path) -> None:
    first, second = processes(postgres_url, tmp_path, 2)
    short = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}
    table = first.create_table("twenty", options=short)
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    ada, bea = Client(first, table_id, host), Client(second, table_id, friend)
    last = play_to_end([ada, bea], random.Random(4))
    assert last["status"] == "finished"
    bea.close()  # Bea's every connection has gone (at the second process): she holds the new table back
    assert ada.recv_until("play_again")["left"] == [1]
    ada.send({"type": "play_again", "accept": True, "version": last["version"]})
    assert ada.recv_until("play_again", lambda m: m["accepted"] == [0])["left"] == [1]
    back = Client(second, table_id, friend)  # back, at the second process
    assert ada.recv_until("play_again", lambda m: m["left"] == [])["waiting"] == [1]
    assert back.recv_until("play_again")["accepted"] == [0]  # the votes so far, told where she came back
    back.send({"type": "play_again", "accept": True, "version": last["version"]})
    told = [c.recv_until("new_table") for c in (ada, back)]
    assert told[0]["table_id"] == told[1]["table_id"] != table_id
    seats, old = second.table(told[0]["table_id"])["seats"], first.table(table_id)["seats"]
    assert [s["name"] for s in seats] == [old[1]["name"], old[0]["name"]] == ["Friend 2", "Host"]
    for client in (ada, back):
        client.close()


def test_a_new_name_reaches_the_seats_at_every_process(postgres_url: str, tmp_path: Path) -> None:
    first, second = processes(postgres_url, tmp_path, 2)
    table = first.create_table("twenty")
    table_id = table["table_id"]
    host, friend = (seat["person"] for seat in table["seats"])
    with Client(first, table_id, host) as ada, Client(second, table_id, friend):
        with httpx_client(second, host) as at_second:  # Ada renames herself at the process she is not at
            assert at_second.put("/api/me", json={"name": "Ada"}).status_code == 200
        renamed = ada.recv_until("state", lambda m: m["seats"][0]["name"] == "Ada")
        assert renamed["seats"][1]["name"] == "Friend 2"
    assert first.table(table_id)["seats"][0]["name"] == "Ada"


def test_a_players_bots_think_at_one_process_wherever_the_tables_are_made(
        postgres_url: str, tmp_path: Path) -> None:
    """Every table of one host has its bots at one process (its owner), whichever process the host
    made it at: the fair turns of that process's bot workers hold all of a player's bots, so a player
    connected to several processes gets no more of the bots' time than one connected to one."""
    first, second = processes(postgres_url, tmp_path, 2)
    deadline = time.monotonic() + 10
    while any(proc.get("/healthz").json()["alive"] != 2 for proc in (first, second)):  # each knows the other
        assert time.monotonic() < deadline
        time.sleep(0.2)
    against_bot = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]
    owned = [(0, 0)]
    for name in ("Ada", "Bea", "Cy"):
        person = first.person(name)
        with httpx_client(second, person) as at_second:
            for at in (person.http, at_second, person.http, at_second):
                answer = at.post("/api/tables", json={"game": "twenty", "seats": against_bot})
                assert answer.status_code == 200, answer.text
        deadline = time.monotonic() + 10  # the owner takes up a table made at the other process when told
        while sum(now_owned := [proc.get("/healthz").json()["tables"]["owned"] for proc in (first, second)]) \
                < 4 * len(owned):
            assert time.monotonic() < deadline, now_owned
            time.sleep(0.1)
        owned.append((now_owned[0], now_owned[1]))
    made = [(a1 - a0, b1 - b0) for (a0, b0), (a1, b1) in itertools.pairwise(owned)]
    assert all(sorted(m) == [0, 4] for m in made), owned  # each player's four tables at one process


def test_a_review_under_way_goes_on_at_another_process_when_its_own_is_killed(
        postgres_url: str, tmp_path: Path) -> None:
    """A review is worked out by the process asked; every process shows how far it has got; killed with
    SIGKILL, its review is taken over by another and finished there."""
    first, second = processes(postgres_url, tmp_path, 2)
    table = first.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    table_id = table["table_id"]
    ann = table["seats"][0]["person"]
    with Client(first, table_id, ann) as client:
        assert play_to_end([client], random.Random(33))["status"] == "finished"
    path = f"/api/tables/{table_id}/review"
    assert ann.post(path).json()["status"] == "running"  # at the first process
    raw = (DATA / "twenty-illustrative.json").read_bytes()  # and an uploaded record's review
    uploaded = f"/api/reviews/{hashlib.sha256(raw).hexdigest()}?seat=1"
    assert ann.post("/api/reviews", params={"seat": 1}, content=raw).json()["status"] == "running"
    with httpx_client(second, ann) as at_second:
        deadline = time.monotonic() + 60
        while (seen := at_second.get(path).json())["done"] < 2:  # progress, told by the first
            assert seen["status"] == "running" and time.monotonic() < deadline, seen
            time.sleep(0.05)
        assert at_second.post(path).json()["status"] == "running"  # asking again there starts nothing
        assert at_second.get(uploaded).json()["status"] == "running"
        assert at_second.post("/api/reviews", params={"seat": 1}, content=raw).json()["status"] == "running"
        other_seat = at_second.post("/api/reviews", params={"seat": 0}, content=raw)
        assert other_seat.status_code == 429, "one uploaded record's review at a time, at every process together"
        before = at_second.get(path).json()["done"]
        first.kill()
        deadline = time.monotonic() + 180
        after = []
        while (seen := at_second.get(path).json())["status"] != "done":
            assert seen["status"] == "running" and time.monotonic() < deadline, seen
            after.append(seen["done"])
            time.sleep(0.1)
        assert seen["done"] == seen["total"] == len(seen["review"]["judgements"]) > before
        assert min(after) < before  # worked out again from the start at the second process
        done = wait_until_done(lambda: at_second.get(uploaded), 180.0)[-1]
    assert done["review"] == review.review(records.loads(raw), 1).to_data(), "taken over, worked out the same"


def test_the_load_benchmark_runs_one_process_beside_two(postgres_url: str) -> None:
    """``benchmarks/web_load.py --servers 2`` on the test's PostgreSQL: both rows and their ratio."""
    bench = ROOT / "benchmarks"
    done = subprocess.run([sys.executable, "web_load.py", "--servers", "2", "--tables", "4", "--seconds", "3",
                           "--pairs", "1", "--think", "0", "--db", postgres_url],
                          cwd=bench, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:1] == ["1"] for line in lines) and any(line.split()[:1] == ["2"] for line in lines)
    assert any(line.strip().startswith("ratio") and line.count("x") == 4 for line in lines), done.stdout
    assert any(line.strip().startswith("ceiling here:") for line in lines), done.stdout
    busy = [line.split()[-1] for line in lines if line.split()[:1] in (["1"], ["2"])]
    assert busy and all(b.endswith("%") and 0 < int(b[:-1]) <= 100 for b in busy), done.stdout


@pytest.mark.skipif(not os.access("/sys/fs/cgroup/cpu", os.W_OK), reason="needs a writable cgroup v1 CPU controller")
def test_the_load_benchmark_holds_each_server_process_to_its_cpu_quota(postgres_url: str) -> None:
    """``--server-cpu``: each server process in a cgroup of its own, held to that share of a core (its CPU
    time over the run's wall time stays under it), and the groups gone after."""
    bench = ROOT / "benchmarks"
    done = subprocess.run([sys.executable, "web_load.py", "--servers", "2", "--tables", "8", "--seconds", "3",
                           "--pairs", "1", "--think", "0", "--server-cpu", "0.5", "--db", postgres_url],
                          cwd=bench, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "each server process held to 0.5 of a core" in done.stdout
    rows = [line.split() for line in done.stdout.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert [row[0] for row in rows[:2]] == ["1", "2"]
    for row in rows[:2]:
        moves_per_second, cpu_ms = float(row[1]), float(row[4])
        assert moves_per_second * cpu_ms / 1000 <= 0.5 * int(row[0]) * 1.1, row  # within its quota (and a tenth)
    assert not [g for g in os.listdir("/sys/fs/cgroup/cpu") if g.startswith("parlour-web-load-")]


def test_a_turn_timer_runs_out_at_another_process_when_the_owner_is_killed(
        postgres_url: str, tmp_path: Path) -> None:
    """A person's turn timer (5 s) at a table whose owner is killed with SIGKILL: the process that takes
    the table over starts the turn's timer again and, when it runs out, moves for the person."""
    first, second = processes(postgres_url, tmp_path, 2)
    table = first.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}], turn_seconds=5)
    table_id = table["table_id"]
    person = table["seats"][0]["person"]
    owner, other = sorted((first, second), key=lambda proc: -proc.get("/healthz").json()["tables"]["owned"])
    with Client(other, table_id, person) as player:
        state = player.state
        assert state is not None
        if not state["legal"]:  # the bot is first: wait for the person's turn
            state = player.recv_until("state", lambda m: bool(m["legal"]))
        assert state["deadline"] is not None
        version = state["version"]
        owner.kill()
        moved = player.recv_until("state", lambda m: m["version"] > version, timeout=40)
        assert moved["last"]["seat"] == 0  # the timer moved for the person, at the other process
        assert other.get("/healthz").json()["tables"]["owned"] == 1
