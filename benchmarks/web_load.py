"""Load on ``parlour serve``: many tables played at once over real WebSockets.

Starts a server process on 127.0.0.1 (SQLite in a temporary directory unless
``--db``; its table limits raised to fit ``--tables``) and creates ``--tables``
tables of a two-player game as people do: each table's host (a browser with
its own session cookie) asks for a ``me`` and a ``friend`` seat, and another
person accepts the invitation (``POST /api/tables/{id}/accept``); with
``--bot LEVEL`` the second seat is a bot instead (``--bot-delay``, 0.6 s by
default, like the server), and only the person's moves are timed.  Every
person's seat is driven by its own WebSocket client, which sends its cookie
with the handshake and says ``{"type": "hello"}`` (asyncio, in one process, or
split over ``--procs`` processes).  A seat plays a random legal move as soon
as its ``state`` says it is to move, after a think time of ``--think`` seconds on average (0.6 by
default, like the server's own bots; ``--think 0`` hammers the server as
fast as it answers, which measures its saturation throughput, where latency
is queueing: tables ÷ moves/s); seat 0 deals the next round.  For every move the round trip from
sending ``move`` to receiving the ``state`` with the new version is measured.

    .venv/bin/python benchmarks/web_load.py                    # 100 tables of twenty, whole matches
    .venv/bin/python benchmarks/web_load.py --tables 20 --game minus-twenty --seconds 30
    .venv/bin/python benchmarks/web_load.py --moves-per-table 40 --procs 2
    .venv/bin/python benchmarks/web_load.py --tables 50 --bot medium --seconds 30

It always stops by itself: after every table's match (or ``--moves-per-table``
moves) or ``--seconds``, whichever comes first.  Only loopback addresses are used.
Besides moves/s and latencies it prints the server process's CPU time per move
(user + system, all its threads, from ``/proc``): the figure a machine shared
with other work blurs least.

Several server processes on one PostgreSQL database (``--servers N``: a throw-away PostgreSQL is started
unless ``--db`` names one): the tables are made at the processes in turn and each table's seats are
connected to different processes (seat ``j`` of the ``k``-th table at process ``k + j``), so every
move crosses processes, or with ``--spread tables`` both at the process the table was made at (a
table then lives at one process: how far the site grows with its processes); the same load is run
against one process and against N, side by side, and the server CPU is summed over the processes:

    .venv/bin/python benchmarks/web_load.py --servers 2 --think 0 --seconds 20      # saturation
    .venv/bin/python benchmarks/web_load.py --servers 2 --tables 500 --seconds 60     # p99 at 500 tables

Side by side with another version of parlour (a checkout's ``src`` directory):
the server is started from each version's ``src`` in turn (``PYTHONPATH``), the
same load is run against it, and the medians and their ratios are printed:

    .venv/bin/python benchmarks/web_load.py --think 0 --game minus-twenty --seconds 20 --against /tmp/old/src
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from side_by_side import HERE, against_path
from websockets.asyncio.client import connect

from parlour.throwaway_postgres import free_port

HOST = "127.0.0.1"


CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
"""The cgroup (v1) CPU controller, whose quota ``--server-cpu`` sets for each server process."""


class CpuCap:
    """A CPU quota of ``share`` of one core for each process put in it (a cgroup of its own a process):
    several server processes measured as if each had a core of its own, a slower one, beside the
    database and the load generator.  Needs root and cgroup v1's ``cpu`` controller."""

    made = itertools.count()

    def __init__(self, share: float) -> None:
        self.share = share
        self.groups: list[Path] = []
        if not (CGROUP_CPU / "cpu.cfs_quota_us").exists() or not os.access(CGROUP_CPU, os.W_OK):
            raise SystemExit(f"--server-cpu needs a writable cgroup CPU controller at {CGROUP_CPU} (as root)")

    def put(self, pid: int) -> None:
        """Hold process ``pid`` (its threads, and the processes it starts later) to its quota."""
        group = CGROUP_CPU / f"parlour-web-load-{os.getpid()}-{next(CpuCap.made)}"
        group.mkdir()
        self.groups.append(group)
        period = int((group / "cpu.cfs_period_us").read_text())
        (group / "cpu.cfs_quota_us").write_text(str(max(1000, int(self.share * period))))
        (group / "cgroup.procs").write_text(str(pid))

    def close(self) -> None:
        """Remove the groups once their processes (the servers' workers too) have ended."""
        deadline = time.monotonic() + 10
        for group in self.groups:
            while True:
                try:
                    group.rmdir()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        print(f"could not remove {group}: a process is still in it", file=sys.stderr)
                        break
                    time.sleep(0.1)
        self.groups.clear()


def start_server(db: str, port: int, log: Path, tables: int, bot_delay: float,
                 src: Path | None = None, cap: CpuCap | None = None) -> subprocess.Popen[bytes]:
    """``python -m parlour serve`` on loopback (parlour from ``src`` when given), with limits that let
    one run make ``tables`` tables, held to ``cap``'s CPU quota if given; returns once ``GET /api/games``
    answers."""
    room = str(max(tables, 1000))
    command = [sys.executable, "-m", "parlour", "serve", "--host", HOST, "--port", str(port), "--db", db,
               "--bot-delay", str(bot_delay), "--max-open", room, "--max-per-hour", room, "--max-tables", room,
               "--max-address-open", room, "--max-address-per-hour", room, "--max-waiting", room,
               "--new-players-per-hour", str(20 * int(room)), "--max-sockets", str(4 * int(room)),
               "--sockets-per-minute", str(4 * int(room))]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    with open(log, "ab") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    if cap is not None:
        cap.put(proc.pid)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"parlour serve exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"http://{HOST}:{port}/api/games", timeout=1, trust_env=False).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"parlour serve did not start within 30 s:\n{log.read_text()[-3000:]}")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system, every thread) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[int, int]:
    """The machine's (busy, all) CPU time so far, every core, in clock ticks (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle and waiting for I/O
    return sum(values) - idle, sum(values)


def new_person(http: httpx.Client) -> str:
    """A new browser: its first ``GET /`` makes its identity; the ``Cookie`` header it then sends."""
    http.cookies.clear()
    answer = http.get("/")
    answer.raise_for_status()
    if "parlour_session" not in http.cookies:
        raise SystemExit("GET / set no parlour_session cookie: is this the new server?")
    return "; ".join(f"{key}={value}" for key, value in http.cookies.items())


def create_table(http: httpx.Client, game: str, bot: str | None) -> dict[str, Any]:
    """A table as people make one: a host asks for ``me`` + ``friend`` (a second person accepts the
    invitation) or ``me`` + a bot.  Returns ``{table_id, seats: [{seat, cookie}]}`` for the people's seats."""
    host = new_person(http)
    second = {"kind": "bot", "level": bot} if bot else {"kind": "friend"}
    answer = http.post("/api/tables", json={"game": game, "options": {}, "seats": [{"kind": "me"}, second]},
                       headers={"Cookie": host})
    answer.raise_for_status()
    table = answer.json()
    seats = [{"seat": table["you"]["seat"], "cookie": host}]
    for invite in table["invites"]:
        friend = new_person(http)
        code = invite["url"].partition("#invite=")[2]
        accepted = http.post(f"/api/tables/{table['table_id']}/accept", json={"invite": code},
                             headers={"Cookie": friend})
        accepted.raise_for_status()
        seats.append({"seat": accepted.json()["seat"], "cookie": friend})
    return {"table_id": table["table_id"], "seats": seats}


@dataclass
class Tally:
    """What one process measured."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    failures: list[str] = field(default_factory=list)
    cpu: float = 0.0
    """The CPU seconds the process spent driving its seats."""


async def drive_seat(url: str, cookie: str, seat: int, table: dict[str, Any], tally: Tally, rng: random.Random,
                     deadline: float, moves_per_table: int | None, think: float) -> None:
    """One seat: hello, then move whenever it is to move, until the end, the move budget or the deadline."""
    async with connect(url, proxy=None, max_size=None, compression=None, open_timeout=30,
                       additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        sent_at: float | None = None
        sent_version = -1
        acted = -1
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                return
            kind = message.get("type")
            if kind == "welcome" and message["seat"] != seat:
                raise RuntimeError(f"the cookie of seat {seat} was welcomed as {message['seat']}")
            if kind == "error":
                tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
                sent_at = None
                acted = -1  # try again on the current state
                continue
            if kind != "state":
                continue
            version = message["version"]
            if sent_at is not None and version > sent_version:
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.moves += 1
                table["moves"] += 1
                sent_at = None
            if message["status"] == "finished":
                if seat == 0:
                    tally.finished += 1
                return
            if moves_per_table is not None and table["moves"] >= moves_per_table:
                return
            if version <= acted:
                continue
            if message["legal"]:
                acted = sent_version = version
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"]), "version": version}))
            elif message["status"] == "round_over" and seat == 0:
                acted = version
                await ws.send(json.dumps({"type": "next_round", "version": version}))


async def drive(tables: list[dict[str, Any]], seed: int, seconds: float,
                moves_per_table: int | None, think: float) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    tasks = []
    for number, table in enumerate(tables):
        shared = {"moves": 0}
        for seat in table["seats"]:
            url = f"ws://{HOST}:{seat['port']}/ws/tables/{table['table_id']}"
            rng = random.Random(f"{seed}:{number}:{seat['seat']}")
            tasks.append(drive_seat(url, seat["cookie"], seat["seat"], shared, tally, rng, deadline, moves_per_table,
                                    think))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.failures = [repr(r) for r in results if isinstance(r, BaseException)]
    return tally


def drive_in_process(args: tuple[list[dict[str, Any]], int, float, int | None, float]) -> Tally:
    start = time.process_time()
    tally = asyncio.run(drive(*args))
    tally.cpu = time.process_time() - start
    return tally


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Run:
    """One run's figures, and its report."""

    moves_per_second: float
    p50: float
    p90: float
    p99: float
    cpu_per_move: float
    """The server's CPU seconds per move."""
    rows: list[tuple[str, str]]
    ok: bool
    log: Path
    machine_busy: float
    """The share of the machine's CPU time (every core) that was busy while the tables played: near 1,
    the machine is the limit, whatever the server processes could do on cores of their own."""


def run(args: argparse.Namespace, src: Path | None = None, servers: int = 1, db: str | None = None) -> Run:
    """Start ``servers`` server processes on one database (parlour from ``src``, else the installed one;
    ``db``, else SQLite in a temporary directory), create the tables, play, stop."""
    folder = Path(tempfile.mkdtemp(prefix="parlour-web-load-"))
    db = db or args.db or f"sqlite:///{folder / 'parlour.db'}"
    ports = [free_port() for _ in range(servers)]
    log = folder / "server.log"
    procs: list[subprocess.Popen[bytes]] = []
    cap = CpuCap(args.server_cpu) if getattr(args, "server_cpu", None) else None
    try:
        for port in ports:
            procs.append(start_server(db, port, log, args.tables, args.bot_delay, src, cap))
        clients = [httpx.Client(base_url=f"http://{HOST}:{port}", timeout=30, trust_env=False) for port in ports]
        try:
            games = {g["id"]: g for g in clients[0].get("/api/games").json()}
            if games.get(args.game, {}).get("players") != 2:
                raise SystemExit(f"--game must be a two-player game: {[g for g in games if games[g]['players'] == 2]}")
            start = time.perf_counter()
            tables = []
            for number in range(args.tables):  # made at the processes in turn; seat j at process k + j
                table = create_table(clients[number % servers], args.game, args.bot)
                for seat in table["seats"]:
                    apart = seat["seat"] if args.spread == "seats" else 0
                    seat["port"] = ports[(number + apart) % servers]
                tables.append(table)
            created = time.perf_counter() - start
        finally:
            for client in clients:
                client.close()

        start = time.perf_counter()
        cpu_start = sum(cpu_seconds(proc.pid) for proc in procs)
        machine_start = machine_times()
        if args.procs == 1:
            tallies = [drive_in_process((tables, args.seed, args.seconds, args.moves_per_table, args.think))]
        else:
            halves = [tables[0::2], tables[1::2]]
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                tallies = pool.map(drive_in_process, [
                    (half, args.seed + i, args.seconds, args.moves_per_table, args.think)
                    for i, half in enumerate(halves)
                ])
        wall = time.perf_counter() - start
        machine_end = machine_times()
        alive = all(proc.poll() is None for proc in procs)
        cpu = sum(cpu_seconds(proc.pid) for proc in procs) - cpu_start if alive else float("nan")
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(15)
        if cap is not None:
            cap.close()

    latencies = [x for t in tallies for x in t.latencies]
    moves = sum(t.moves for t in tallies)
    errors: dict[str, int] = {}
    for t in tallies:
        for code, count in t.errors.items():
            errors[code] = errors.get(code, 0) + count
    failures = [f for t in tallies for f in t.failures]
    finished = sum(t.finished for t in tallies)
    ms = 1000.0
    clients = sum(len(t["seats"]) for t in tables)
    cpu_per_move = cpu / moves if moves else float("nan")
    rows = [
        ("game, tables, clients", f"{args.game}, {args.tables}, {clients} in {args.procs} process(es)"
                                  + (f", each against a {args.bot} bot ({args.bot_delay:g} s delay)" if args.bot
                                     else "")),
        ("think time", f"{args.think:g} s on average"),
        ("database", f"{db.split('://')[0].split('+')[0]}, {servers} server process(es)"
                     + (" (temp dir)" if db.startswith("sqlite") and args.db is None else "")),
        ("tables created", f"{args.tables} in {created:.2f} s ({args.tables / created:.0f}/s)"),
        ("matches finished", f"{finished} of {args.tables}"),
        ("moves", f"{moves} in {wall:.2f} s"),
        ("moves/s", f"{moves / wall:.0f}"),
        ("latency p50", f"{percentile(latencies, 0.50) * ms:.1f} ms"),
        ("latency p90", f"{percentile(latencies, 0.90) * ms:.1f} ms"),
        ("latency p99", f"{percentile(latencies, 0.99) * ms:.1f} ms"),
        ("latency max", f"{max(latencies, default=float('nan')) * ms:.1f} ms"),
        ("latency mean", f"{(statistics.fmean(latencies) if latencies else float('nan')) * ms:.1f} ms"),
        ("server CPU", f"{cpu:.2f} s, {cpu_per_move * ms:.3f} ms a move" + (" (all processes)" if servers > 1 else "")
                       + (" (bots think in worker processes, not counted)" if args.bot else "")),
        ("clients' CPU", f"{sum(t.cpu for t in tallies):.2f} s (the load generator shares the machine)"),
        ("errors", ", ".join(f"{c} {n}" for c, n in sorted(errors.items())) or "none"),
        ("client failures", str(len(failures)) + (f" (first: {failures[0][:200]})" if failures else "")),
        ("server", "alive to the end" if alive else f"DIED (log: {log})"),
    ]
    busy = (machine_end[0] - machine_start[0]) / max(1, machine_end[1] - machine_start[1])
    rows.append(("machine busy", f"{busy:.0%} of {os.cpu_count()} cores (server, database, load generator)"))
    return Run(moves / wall, percentile(latencies, 0.50) * ms, percentile(latencies, 0.90) * ms,
               percentile(latencies, 0.99) * ms, cpu_per_move * ms, rows, alive and not failures, log, busy)


def print_rows(rows: list[tuple[str, str]]) -> None:
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")


def side_by_side(args: argparse.Namespace, against: Path) -> None:
    """Run the load ``args.pairs`` times against this version's server and the one at ``against``, in
    turns; print every run and the medians with their ratios."""
    figures: dict[Path, list[Run]] = {HERE: [], against: []}
    names = {HERE: "this", against: "other"}
    print(f"parlour serve under load, side by side ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores): "
          f"{args.game}, {args.tables} tables, think {args.think:g} s, {args.seconds:g} s a run")
    print(f"  {'run':<8} {'moves/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'CPU ms/move':>12}")
    for number in range(args.pairs):
        for src in (HERE, against):
            result = run(args, src)
            figures[src].append(result)
            print(f"  {names[src]:<5} {number + 1:>2} {result.moves_per_second:>9.0f} {result.p50:>8.1f} "
                  f"{result.p90:>8.1f} {result.p99:>8.1f} {result.cpu_per_move:>12.3f}"
                  + ("" if result.ok else f"   FAILED (log: {result.log})"), flush=True)
    print(f"  medians of {args.pairs} runs each:")
    print(f"  {'':<8} {'moves/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'CPU ms/move':>12}")
    medians = {src: [statistics.median(getattr(r, key) for r in runs)
                     for key in ("moves_per_second", "p50", "p90", "p99", "cpu_per_move")]
               for src, runs in figures.items()}
    for src in (HERE, against):
        print(f"  {names[src]:<8} " + " ".join(f"{v:>{w}.{d}f}" for v, w, d in
                                              zip(medians[src], (9, 8, 8, 8, 12), (0, 1, 1, 1, 3))))
    ratios = [a / b if b else float("nan") for a, b in zip(medians[HERE], medians[against])]
    print(f"  {'ratio':<8} " + " ".join(f"{v:>{w - 1}.2f}x" for v, w in zip(ratios, (9, 8, 8, 8, 12))))
    if not all(r.ok for runs in figures.values() for r in runs):
        sys.exit(1)


def several(args: argparse.Namespace) -> None:
    """The same load against one server process and against ``args.servers`` on one PostgreSQL database
    (a throw-away one unless ``--db``), ``args.pairs`` times in turns; every run and the medians with
    their ratios."""
    from parlour.throwaway_postgres import PostgresServer

    postgres = None
    if args.db is None:
        postgres = PostgresServer()
        postgres.start()
    try:
        counts = (1, args.servers)
        figures: dict[int, list[Run]] = {n: [] for n in counts}
        print(f"parlour serve on several processes ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
              f"PostgreSQL; the load generator shares the machine): {args.game}, {args.tables} tables, "
              f"think {args.think:g} s, {args.seconds:g} s a run, "
              + ("each table's seats at different processes" if args.spread == "seats"
                 else "each table at one process")
              + (f"; each server process held to {args.server_cpu:g} of a core" if args.server_cpu else ""))
        print(f"  {'processes':<12} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/move':>12} "
              f"{'machine busy':>13}")
        for _ in range(args.pairs):
            for n in counts:
                db = args.db if postgres is None else postgres.create_database()
                result = run(args, servers=n, db=db)
                figures[n].append(result)
                print(f"  {n:<12} {result.moves_per_second:>9.0f} {result.p50:>8.1f} {result.p99:>8.1f} "
                      f"{result.cpu_per_move:>12.3f} {result.machine_busy:>13.0%}"
                      + ("" if result.ok else f"   FAILED (log: {result.log})"), flush=True)
        keys = ("moves_per_second", "p50", "p99", "cpu_per_move", "machine_busy")
        medians = {n: [statistics.median(getattr(r, key) for r in runs) for key in keys] for n, runs in figures.items()}
        print(f"  medians of {args.pairs} runs each:")
        for n in counts:
            shown = [f"{v:>{w}.{d}f}" for v, w, d in zip(medians[n], (9, 8, 8, 12), (0, 1, 1, 3))]
            print(f"  {n:<12} " + " ".join(shown) + f" {medians[n][4]:>13.0%}")
        ratios = [a / b if b else float("nan") for a, b in zip(medians[args.servers], medians[1])]
        print(f"  {'ratio':<12} " + " ".join(f"{v:>{w - 1}.2f}x" for v, w in zip(ratios, (9, 8, 8, 12))))
        one, busy = medians[1][0], medians[1][4]
        if busy > 0 and not args.server_cpu and args.think == 0:  # saturated: a move costs what it did with one
            print(f"  ceiling here: with one process the machine (the server, PostgreSQL and the load generator on "
                  f"{os.cpu_count()} cores) was {busy:.0%} busy, so no number of processes can play more than about "
                  f"{one / busy:.0f} moves/s on it ({1 / busy:.2f}x one process)")
        if not all(r.ok for runs in figures.values() for r in runs):
            sys.exit(1)
    finally:
        if postgres is not None:
            postgres.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once (default 100)")
    parser.add_argument("--game", default="twenty", help="a two-player game id (default twenty)")
    parser.add_argument("--moves-per-table", type=int, default=None,
                        help="stop a table after this many moves (default: play the whole match)")
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long at the latest (120)")
    parser.add_argument("--procs", type=int, default=1, choices=(1, 2), help="client processes (1 or 2)")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary directory)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.6,
                        help="average seconds a seat thinks before it moves (0: as fast as the server answers)")
    parser.add_argument("--bot", default=None, choices=("easy", "medium", "hard", "expert"),
                        help="the second seat is a bot of this level, not a friend who accepts an invitation")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds the server's bots wait before they move (0.6, the server's default)")
    parser.add_argument("--against", type=Path, help="another version's src directory, to compare with")
    parser.add_argument("--pairs", type=int, default=3,
                        help="alternating runs of each version (with --against) or process count (with --servers)")
    parser.add_argument("--spread", choices=("seats", "tables"), default="seats",
                        help="with --servers: each table's seats at different processes (every move crosses "
                             "processes), or each table at one process")
    parser.add_argument("--server-cpu", type=float, default=None, metavar="SHARE",
                        help="hold each server process to this share of one core (a cgroup CPU quota; as root): "
                             "with --servers, processes measured as if each had a core of its own")
    parser.add_argument("--servers", type=int, default=1,
                        help="N > 1: the load against one process and against N on one PostgreSQL, side by side")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    if args.server_cpu is not None and not 0.05 <= args.server_cpu <= os.cpu_count():
        parser.error("--server-cpu is a share of one core, from 0.05")
    if args.against is not None and args.db is not None:
        parser.error("--against runs each server on a fresh SQLite database: leave out --db")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * args.tables + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    if args.servers > 1 and args.against is not None:
        parser.error("--servers and --against go one at a time")
    if args.servers > 1:
        several(args)
        return
    if args.against is not None:
        side_by_side(args, against_path(parser, args.against))
        return
    result = run(args)
    print(f"parlour serve under load ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores)")
    print_rows(result.rows)
    if not result.ok:
        print(f"  server log: {result.log}")
        sys.exit(1)


if __name__ == "__main__":
    main()
