"""Abuse of ``parlour serve``: what each kind of abuse costs the people at other tables, scenario by scenario.

Each scenario starts a fresh ``parlour serve`` process on 127.0.0.1 (SQLite in a
temporary directory, the server's DEFAULT limits: only ``--host``, ``--port``,
``--db``, ``--bot-delay`` and, where a scenario needs tables to end between its
phases, ``--idle-minutes 0.05`` are given, options every version knows).  The
victims come from 127.0.0.1: ``--players`` people, each at a table against a
``medium`` bot, move (after ``--think`` seconds on average) and time until the
bot's move arrives; a second tab of the first one pings its table
``--ping-rate`` times a second and times each ``pong``; and twice a phase (at
30% and 75% of it) a new person (a client with no cookie) ``GET /``s, starts a
table against an easy bot, opens its WebSocket, gets its state and makes one
move, within 60 s.  The abuser comes
from another address, 127.0.0.2, as a real attacker would, in a process of its
own (so that it takes nothing from the measuring clients):

flood    a socket of the abuser's own table sends hello, ping and junk as fast
         as it takes them, reconnecting whenever the server closes it
bots     ``--bot-tables`` bots-only tables of two expert bots, by identities of
         ``--bots-per-person`` tables each, every one watched by a spectator
tables   the cookieless table flood: ``POST /api/tables`` with no cookie each
         time (``me`` + ``open``), 4 at once, until ``--flood-tables`` or 50
         refusals in a row
replay   the replay bomb: ``--replay-clients`` clients post a valid record of
         ``--replay-rounds`` rounds of ``--replay-game`` (random legal moves;
         the issue's ~300 kB record, built past the rounds cap of an engine
         that has one) to ``/api/replay`` again and again, each reading the
         answer to its end, ``--replay-limit`` requests at most
starve   timer and hint starvation: one identity makes ``--starve-tables``
         tables of an untaken open seat against an expert bot with a 5-second
         turn timer (the released server's timer plays the open seat with a
         bot), watched so that they go on, plus ``--starve-tabs`` tabs of its seat at a table against
         a bot asking for a hint over and over
paced    ``--paced-sockets`` tabs each sending ``--paced-rate`` pings and junk a
         second (just over the server's rate), and ``--bytes-sockets`` tabs
         sending 1 MB frames back to back (``--bytes-cap`` MB at most); a
         socket the server closes opens again after 0.5 s
swarm    ``--swarm`` spectators (no cookie) on the victim's table

Quiet and abuse phases of ``--seconds`` each alternate (``--rounds`` times, the
order swapped every round), on the same server and victims' connections.
After an abuse phase the abuser stops and the next phase waits (at most 60 s)
until the server is idle again and the abuser's bots-only or timer tables have
ended as idle (or cost nothing for 3 s).  Per scenario it prints one row, each figure beside the same without the
abuse: ping p50/p99, the victims' bot reply p50/p99, the server's peak RSS
(``VmHWM`` of the server process from /proc, plus the largest sum of its child
processes' RSS, sampled every 0.2 s), whether a new person was served, and the
abuse's own counts; then the CPU each part used, and at the end a Markdown
table of every scenario.  The aims (issue 31): pings' p99 at most 1.5× the
quiet p99 and under 100 ms, the victim's bot at most 1.5× quiet, peak RSS under
500 MB, a new person always served.

    .venv/bin/python benchmarks/web_abuse.py                       # every scenario, about 8 minutes
    .venv/bin/python benchmarks/web_abuse.py --seconds 5 --rounds 1  # a quick look
    .venv/bin/python benchmarks/web_abuse.py --scenario replay,swarm --json /tmp/abuse.json
    git -C /work/main worktree add /tmp/parlour-before bbc6bfb     # the released server ...
    .venv/bin/python benchmarks/web_abuse.py --source /tmp/parlour-before   # ... measured the same way

``--source DIR`` runs the server from another checkout's ``DIR/src``
(``PYTHONPATH``, in a temporary working directory): the same benchmark
measures "before".  Every load is bounded (the phase's length; the counts
above; per flood phase ``--flood-limit`` messages and a tenth as many
connections) and goes only to the servers this script started on loopback;
each server, abuser and connection is stopped at the end, also on Ctrl-C or
an error.  Progress goes to stderr, the figures to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from _abuse import attacks
from _abuse.clients import Player, Socket, ping_phase, serve_new_person, victim_http
from _abuse.figures import AIM_PING, AIM_RATIO, AIM_RSS, aims, cells, describe, markdown, merge, report, stats
from websockets.exceptions import ConnectionClosed, InvalidHandshake

HOST = "127.0.0.1"
"""The only address anything here talks to: the server this script starts."""
IDLE_MINUTES = 0.05
"""Scenarios whose abuse leaves tables playing by themselves (bots-only, turn timers) have the server end
a table nobody is at after 3 s: how their abuse ends before the next quiet phase."""
TICK = os.sysconf("SC_CLK_TCK")
SCENARIOS = ("flood", "bots", "tables", "replay", "starve", "paced", "swarm")
NEEDS_IDLE = ("bots", "starve")
SETTLE_SECONDS = 60.0
"""After an abuse phase, the next phase waits at most this long for the server to be idle again."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


# -- the server process ---------------------------------------------------------------------
def _die_with_parent() -> None:
    """In the server's process before it starts: SIGTERM when this script goes (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    """``python -m parlour serve`` on loopback with its default limits, its log and database in ``folder``;
    parlour from ``source/src`` when given (else the one this script's Python imports)."""

    def __init__(self, folder: Path, bot_delay: float, idle_minutes: float | None, source: Path | None) -> None:
        self.port = free_port()
        self.folder = folder
        self.log = folder / "server.log"
        self.command = [
            sys.executable, "-m", "parlour", "serve", "--host", HOST, "--port", str(self.port),
            "--db", f"sqlite:///{folder / 'parlour.db'}", "--bot-delay", str(bot_delay),
        ]
        if idle_minutes is not None:
            self.command += ["--idle-minutes", str(idle_minutes)]
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env.pop("PYTHONPATH", None)
        if source is not None:
            self.env["PYTHONPATH"] = str(source / "src")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/tables/{table_id}"

    def start(self) -> None:
        """Start it in a session of its own, so that Ctrl-C reaches only this script, which then stops it
        (and it gets SIGTERM should this script die without doing so)."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=self.env, cwd=self.folder, start_new_session=True,
                                         preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"parlour serve exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1, trust_env=False).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"parlour serve did not start within 30 s:\n{self.tail()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 15 s (its bot workers die with it)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no log)"

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of the server's event loop, its people's bot pool and its niced bots-only worker."""
        out = {"server": 0.0, "pool": 0.0, "niced": 0.0}
        if self.proc is None:
            return out
        found = proc_stat(self.proc.pid)
        if found is not None:
            out["server"] += found[2]
        for child in children(self.proc.pid):
            found = proc_stat(child)
            if found is not None:
                out["niced" if found[1] > 0 else "pool"] += found[2]
        return out

    def memory(self) -> tuple[int, int, int]:
        """The server process's VmRSS and VmHWM, and the sum of its children's VmRSS (kB)."""
        if self.proc is None:
            return 0, 0, 0
        rss, hwm = status_kb(self.proc.pid, "VmRSS"), status_kb(self.proc.pid, "VmHWM")
        return rss, hwm, sum(status_kb(child, "VmRSS") for child in children(self.proc.pid))


def proc_stat(pid: int) -> tuple[int, int, float] | None:
    """A process's parent, nice value and CPU seconds so far (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[16]), (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (its bot workers, multiprocessing's resource tracker)."""
    found: list[int] = []
    try:
        for task in os.scandir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"{task.path}/children") as listing:
                found += [int(p) for p in listing.read().split()]
    except OSError:
        return []
    return found


def status_kb(pid: int, key: str) -> int:
    """A ``kB`` line of /proc/PID/status (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class Memory(threading.Thread):
    """Samples the server's memory every 0.2 s, keeping the largest figures under the current ``label``
    (``quiet`` or ``abuse``); runs in a thread, so that it samples even when the clients' loop is busy."""

    def __init__(self, server: Server) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.label = "quiet"
        self.peak: dict[str, dict[str, int]] = {k: {"rss": 0, "children": 0, "total": 0} for k in ("quiet", "abuse")}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.2):
            rss, _hwm, kids = self.server.memory()
            peak = self.peak[self.label]
            peak["rss"], peak["children"] = max(peak["rss"], rss), max(peak["children"], kids)
            peak["total"] = max(peak["total"], rss + kids)


# -- the benchmark ------------------------------------------------------------------------------
@dataclass
class Condition:
    """What one kind of phase (quiet, or under abuse) measured, over all its rounds."""

    pings: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    lost: int = 0
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    newcomers: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Abuse:
    """A running abuser process."""

    proc: multiprocessing.process.BaseProcess
    stop: Any
    results: Any


class Bench:
    """One scenario on one server: the victims, the phases, the abuser."""

    def __init__(self, args: argparse.Namespace, scenario: str, server: Server, record: Path | None) -> None:
        self.args = args
        self.scenario = scenario
        self.server = server
        self.record = record
        self.conditions = {False: Condition(), True: Condition()}
        self.tallies: list[dict[str, Any]] = []
        self.settles: list[dict[str, float]] = []
        self.hwm_quiet = 0
        self.memory = Memory(server)
        self.abusers: list[multiprocessing.process.BaseProcess] = []
        """Abuser processes alive (stopped in ``finally`` whatever happens)."""
        self.rng = random.Random(f"{args.seed}:{scenario}")

    def stop_abusers(self) -> None:
        for proc in self.abusers:
            if proc.is_alive():
                proc.terminate()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        self.abusers.clear()

    async def run(self) -> None:
        args = self.args
        self.memory.start()
        async with victim_http(self.server) as http:
            self.http = http
            self.players = [Player(self.server, http, args.game, random.Random(f"{args.seed}:{n}"))
                            for n in range(args.players)]
            try:
                for player in self.players:
                    await player.sit()
                first = self.players[0]
                assert first.sock is not None
                self.pinger = await Socket.open(self.server, first.sock.table_id, first.cookie)
                # Warm-up (not measured): the people's bot pool starts its workers, the pinger its connection.
                await asyncio.gather(ping_phase(self.pinger, 1.0, args.ping_rate, []),
                                     *(p.play(time.monotonic() + 3.0, args.think, []) for p in self.players))
                for number in range(args.rounds):
                    for abuse in ((False, True) if number % 2 == 0 else (True, False)):
                        await self.phase(abuse, number)
                        if not self.server.alive():
                            raise RuntimeError(f"the server died:\n{self.server.tail()}")
            finally:
                self.memory.done.set()
                await self.pinger_close()
                for player in self.players:
                    if player.sock is not None:
                        await player.sock.close()

    async def pinger_close(self) -> None:
        if getattr(self, "pinger", None) is not None:
            await self.pinger.close()

    async def phase(self, abuse: bool, number: int) -> None:
        args = self.args
        label = f"{self.scenario}: round {number + 1}/{args.rounds}, {'abuse' if abuse else 'quiet'}"
        print(f"  {label} ...", end="", flush=True, file=sys.stderr)
        result = self.conditions[abuse]
        load = await self.start_abuse() if abuse else None
        self.memory.label = "abuse" if abuse else "quiet"
        before_cpu, before = self.cpu(load), time.monotonic()
        pings, replies = len(result.pings), len(result.replies)
        until = before + args.seconds

        async def newcomers() -> None:
            for share in (0.3, 0.75):
                await asyncio.sleep(max(0.0, before + share * args.seconds - time.monotonic()))
                result.newcomers.append(await serve_new_person(self.server, self.rng))

        # (on an error or Ctrl-C, main() stops the abuser and the server: nothing to wind down here)
        lost, *_ = await asyncio.gather(self.ping(args.seconds, result.pings), newcomers(),
                                        *(p.play(until, args.think, result.replies) for p in self.players))
        result.lost += int(lost or 0)
        after_cpu, elapsed = self.cpu(load), time.monotonic() - before
        result.seconds += elapsed
        for part in after_cpu:
            result.cpu[part] = result.cpu.get(part, 0.0) + after_cpu[part] - before_cpu.get(part, 0.0)
        note = ""
        if load is not None:
            tally = await self.end_abuse(load)
            self.tallies.append(tally)
            settle = await self.settle([str(t) for t in tally.get("tables", [])])
            self.settles.append(settle)
            note = f", {settle['seconds']:.0f} s to settle"
            if "error" in tally:
                note += f"; abuser: {tally['error']}"
        elif not self.hwm_quiet:
            self.hwm_quiet = self.server.memory()[1]  # the first phase is quiet: nothing abused the server yet
        self.memory.label = "quiet"
        served = sum(n["served"] for n in result.newcomers[-2:])
        print(f" {len(result.pings) - pings} pings, {len(result.replies) - replies} bot replies, new person "
              f"served {served}/2{note}", file=sys.stderr, flush=True)

    async def ping(self, seconds: float, samples: list[float]) -> int:
        """The ping loop of the victim's second tab; a tab the server closed is opened again."""
        try:
            return await ping_phase(self.pinger, seconds, self.args.ping_rate, samples)
        except (ConnectionClosed, OSError) as exc:
            self.players[0].error(f"ping tab closed: {type(exc).__name__}")
            with contextlib.suppress(Exception):
                self.pinger = await Socket.open(self.server, self.pinger.table_id, self.players[0].cookie)
            return 0

    def cpu(self, load: Abuse | None) -> dict[str, float]:
        """CPU seconds so far of the server's parts and of the abuser (during an abuse phase)."""
        out = self.server.cpu()
        if load is not None and load.proc.pid is not None:
            found = proc_stat(load.proc.pid)
            out["abuser"] = found[2] if found is not None else 0.0
        return out

    def config(self) -> dict[str, Any]:
        """What the abuser process is told."""
        args = self.args
        first = self.players[0]
        return {
            "port": self.server.port, "seconds": args.seconds + 60, "game": args.game,
            "flood_limit": args.flood_limit, "bot_tables": args.bot_tables, "bots_per_person": args.bots_per_person,
            "flood_tables": args.flood_tables, "flood_workers": 4, "record": str(self.record),
            "replay_limit": args.replay_limit, "replay_clients": args.replay_clients,
            "starve_tables": args.starve_tables, "starve_tabs": args.starve_tabs,
            "paced_sockets": args.paced_sockets, "paced_rate": args.paced_rate, "bytes_sockets": args.bytes_sockets,
            "bytes_cap": args.bytes_cap * 1_000_000, "swarm": args.swarm,
            "table_id": first.sock.table_id if first.sock is not None else self.pinger.table_id,
        }

    async def start_abuse(self) -> Abuse:
        """The abuser process, once it has begun (and half a second more, for the abuse to be in full swing)."""
        context = multiprocessing.get_context("spawn")
        ready, stop, results = context.Event(), context.Event(), context.Queue()
        proc = context.Process(target=attacks.run, daemon=True,
                               args=(self.scenario, self.config(), ready, stop, results))
        proc.start()
        self.abusers.append(proc)
        if not await asyncio.to_thread(ready.wait, 60):
            raise RuntimeError("the abuser did not begin within 60 s")
        await asyncio.sleep(0.5)
        return Abuse(proc, stop, results)

    async def end_abuse(self, load: Abuse) -> dict[str, Any]:
        """Stop the abuser; its tally."""
        load.stop.set()
        try:
            tally: dict[str, Any] = await asyncio.to_thread(load.results.get, True, 60)
        except Exception as exc:
            tally = {"error": f"no tally from the abuser: {type(exc).__name__}"}
        await asyncio.to_thread(load.proc.join, 10)
        self.stop_abusers()
        return tally

    async def settle(self, tables: list[str]) -> dict[str, float]:
        """Wait (at most ``SETTLE_SECONDS``) until the server and its workers use under a tenth of a core, and
        ``tables`` (bots-only or timer tables the abuse left) have ended as idle, or have cost nothing for 3 s:
        what the abuse set going is over before the next phase.  How long it took, how many of ``tables``
        still play, and the share of a core the server still used in the last second."""
        start = time.monotonic()
        deadline = start + SETTLE_SECONDS
        live = list(tables)
        last, busy, idle_for = sum(self.server.cpu().values()), math.nan, 0
        while time.monotonic() < deadline:
            await asyncio.sleep(1.0)
            still = []
            for table in live:
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    answer = await self.http.get(f"/api/tables/{table}")
                    if answer.json().get("status") in ("playing", "round_over"):
                        still.append(table)
            live = still
            now = sum(self.server.cpu().values())
            busy, last = now - last, now
            idle_for = idle_for + 1 if busy < 0.1 else 0
            if (idle_for and not live) or idle_for >= 3:
                break
        return {"seconds": time.monotonic() - start, "live": len(live), "busy": busy}

    # -- the figures -----------------------------------------------------------------------
    def outcome(self) -> dict[str, Any]:
        quiet, abused = self.conditions[False], self.conditions[True]
        hwm = self.server.memory()[1]
        peak = self.memory.peak
        errors: dict[str, int] = {}
        for player in self.players:
            for code, count in player.errors.items():
                errors[code] = errors.get(code, 0) + count
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "ping_ms": {"quiet": stats(quiet.pings, 1000), "abuse": stats(abused.pings, 1000)},
            "reply_s": {"quiet": stats(quiet.replies, 1), "abuse": stats(abused.replies, 1)},
            "pings_lost": {"quiet": quiet.lost, "abuse": abused.lost},
            "rss_mb": {
                "quiet": (self.hwm_quiet + peak["quiet"]["children"]) / 1024,
                "abuse": (hwm + max(peak["quiet"]["children"], peak["abuse"]["children"])) / 1024,
                "server_hwm_quiet": self.hwm_quiet / 1024, "server_hwm_end": hwm / 1024,
                "children_max_quiet": peak["quiet"]["children"] / 1024,
                "children_max_abuse": peak["abuse"]["children"] / 1024,
                "sampled_total_max_quiet": peak["quiet"]["total"] / 1024,
                "sampled_total_max_abuse": peak["abuse"]["total"] / 1024,
            },
            "new_person": {"quiet": quiet.newcomers, "abuse": abused.newcomers},
            "cpu_share": {kind: {part: (c.cpu.get(part, 0.0) / c.seconds if c.seconds else math.nan)
                                 for part in ("server", "pool", "niced", "abuser")}
                          for kind, c in (("quiet", quiet), ("abuse", abused))},
            "settle": self.settles,
            "victim_errors": errors,
            "victim_tables": sum(p.tables for p in self.players),
            "abuse": merge(self.tallies),
            "abuse_phases": [{k: v for k, v in t.items() if not isinstance(v, list)} for t in self.tallies],
        }
        out["abuse_summary"] = describe(self.scenario, out["abuse"], self.tallies)
        out["aims"] = aims(out)
        return out


def build_record(game_id: str, rounds: int, seed: int, path: Path) -> tuple[int, str]:
    """A valid record of ``rounds`` rounds of random legal moves (the replay bomb): its size in bytes, and
    a note if this engine caps ``rounds`` below that (the match is then started past the cap, as
    ``Game.new_match`` would without it: the released server took such records)."""
    from parlour import games, record

    game = games.get(game_id)
    rng = random.Random(seed)
    note = ""
    try:
        state = game.new_match(seed=seed, options={"rounds": rounds})
    except ValueError as exc:  # OptionError: the engine here caps the rounds
        note = f" (built past this engine's cap: {exc})"
        values = game.check_options({})
        values["rounds"] = rounds
        state = game.state_class(values, rng.randrange(game.players),
                                 tuple(f"Player {i + 1}" for i in range(game.players)), rng)
        state.next_round(None)
    rng = random.Random(seed)
    while not state.is_match_over():
        if state.is_round_over():
            state.next_round()
            continue
        state.apply(rng.choice(state.legal_moves()))
    text = json.dumps(record.to_data(state))
    path.write_text(text)
    return len(text), note


def describe_source(source: Path | None) -> str:
    where = source if source is not None else Path(__file__).resolve().parents[1]
    try:
        rev = subprocess.run(["git", "-C", str(where), "describe", "--always", "--dirty"], capture_output=True,
                             text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        rev = "?"
    return f"{'--source ' + str(source) if source is not None else 'this tree'} ({rev or 'not a git checkout'})"


def run_scenario(args: argparse.Namespace, scenario: str, root: Path, record: Path | None) -> dict[str, Any]:
    folder = root / scenario
    folder.mkdir()
    server = Server(folder, args.bot_delay, IDLE_MINUTES if scenario in NEEDS_IDLE else None, args.source)
    bench = Bench(args, scenario, server, record)
    print(f"{scenario}: server {' '.join(server.command[1:])}", file=sys.stderr)
    try:
        server.start()
        known = {g["id"]: g["players"] for g in httpx.get(f"{server.url}/api/games", trust_env=False).json()}
        if known.get(args.game) != 2:
            raise SystemExit(f"--game must be a two-player game: {sorted(g for g, n in known.items() if n == 2)}")
        asyncio.run(bench.run())
        out = bench.outcome()
    except (RuntimeError, OSError, httpx.HTTPError, TimeoutError, ConnectionClosed, InvalidHandshake) as exc:
        print(f"\n{scenario} failed: {type(exc).__name__}: {exc}\nserver log: {server.log}", file=sys.stderr)
        out = {"scenario": scenario, "failed": f"{type(exc).__name__}: {str(exc)[:300]}"}
    finally:
        bench.memory.done.set()
        bench.stop_abusers()
        server.stop()
    out["command"] = server.command[1:]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--scenario", default="all",
                        help=f"all (default), or one or more of {', '.join(SCENARIOS)} (comma-separated)")
    parser.add_argument("--source", type=Path, metavar="DIR",
                        help="run the server from DIR/src (another checkout: 'before')")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the figures there")
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each phase (default 12)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of a quiet and an abuse phase, the order swapped each round (2)")
    parser.add_argument("--game", default="twenty", help="the victims' game, a two-player game id (default twenty)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds the server's bots wait before moving (the real default, 0.6)")
    parser.add_argument("--ping-rate", type=float, default=5.0, help="pings a second (default 5)")
    parser.add_argument("--players", type=int, default=3,
                        help="victims playing a medium bot, each at a table of their own (default 3)")
    parser.add_argument("--think", type=float, default=0.3, help="their average think time in seconds (0.3)")
    parser.add_argument("--flood-limit", type=int, default=5_000_000,
                        help="flood: at most this many messages (and a tenth as many connections) a phase")
    parser.add_argument("--bot-tables", type=int, default=10,
                        help="bots: bots-only tables of two expert bots an abuse phase (default 10)")
    parser.add_argument("--bots-per-person", type=int, default=2,
                        help="bots: tables each identity makes (default 2, the server's default --max-bot-tables)")
    parser.add_argument("--flood-tables", type=int, default=1200,
                        help="tables: at most this many tables a phase (default 1200)")
    parser.add_argument("--replay-game", default="minus-twenty",
                        help="replay: the bomb's game (default minus-twenty: 120 rounds make the issue's ~300 kB)")
    parser.add_argument("--replay-rounds", type=int, default=120, help="replay: the bomb's rounds (default 120)")
    parser.add_argument("--replay-clients", type=int, default=3, help="replay: concurrent clients (default 3)")
    parser.add_argument("--replay-limit", type=int, default=40, help="replay: requests a phase at most (40)")
    parser.add_argument("--starve-tables", type=int, default=8, help="starve: turn-timer tables (default 8)")
    parser.add_argument("--starve-tabs", type=int, default=8, help="starve: tabs asking for hints (default 8)")
    parser.add_argument("--paced-sockets", type=int, default=20, help="paced: message sockets (default 20)")
    parser.add_argument("--paced-rate", type=float, default=140.0,
                        help="paced: messages a second each (default 140)")
    parser.add_argument("--bytes-sockets", type=int, default=3, help="paced: sockets sending 1 MB frames (3)")
    parser.add_argument("--bytes-cap", type=int, default=2000, help="paced: MB of 1 MB frames a phase at most")
    parser.add_argument("--swarm", type=int, default=300, help="swarm: spectators (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chosen = list(SCENARIOS) if args.scenario == "all" else [s.strip() for s in args.scenario.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown or not chosen:
        parser.error(f"--scenario: unknown {', '.join(unknown) or '(none)'}; "
                     f"choose all or some of {', '.join(SCENARIOS)}")
    if args.seconds <= 0 or args.rounds < 1 or args.players < 1 or args.bot_tables < 1 or args.bots_per_person < 1:
        parser.error("--seconds, --rounds, --players, --bot-tables and --bots-per-person must be positive")
    if (args.seconds > 600 or args.rounds > 10 or args.bot_tables > 100 or args.players > 20
            or args.flood_limit > 50_000_000 or args.flood_tables > 5000 or args.replay_limit > 500
            or args.replay_clients > 10 or args.starve_tables > 30 or args.starve_tabs > 30
            or args.paced_sockets > 100 or args.paced_rate > 1000 or args.bytes_sockets > 10
            or args.bytes_cap > 10_000 or args.swarm > 2000 or args.replay_rounds > 1000):
        parser.error("keep it bounded: --seconds ≤ 600, --rounds ≤ 10, --players ≤ 20, --bot-tables ≤ 100, "
                     "--flood-limit ≤ 5e7, --flood-tables ≤ 5000, --replay-limit ≤ 500, --replay-clients ≤ 10, "
                     "--replay-rounds ≤ 1000, --starve-tables/--starve-tabs ≤ 30, --paced-sockets ≤ 100, "
                     "--paced-rate ≤ 1000, --bytes-sockets ≤ 10, --bytes-cap ≤ 10000, --swarm ≤ 2000")
    if args.ping_rate <= 0 or args.ping_rate > 20:
        parser.error("--ping-rate must be above 0 and at most 20 (the server's message rate)")
    if args.source is not None:
        args.source = args.source.resolve()
        if not (args.source / "src" / "parlour" / "web").is_dir():
            parser.error(f"--source {args.source}: no src/parlour/web there (a checkout of parlour)")

    root = Path(tempfile.mkdtemp(prefix="parlour-web-abuse-"))
    started = time.monotonic()
    load = os.getloadavg()[0]
    results: list[dict[str, Any]] = []
    record: Path | None = None
    failed = False
    print(f"parlour serve under abuse ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average "
          f"{load:.1f}; server: {describe_source(args.source)}; victims play {args.game}, {args.players} of them, "
          f"bot delay {args.bot_delay:g} s; {args.rounds} round(s) of a quiet and an abuse phase of "
          f"{args.seconds:g} s; the server's default limits)")
    try:
        if "replay" in chosen:
            record = root / "bomb.json"
            size, note = build_record(args.replay_game, args.replay_rounds, args.seed, record)
            print(f"replay bomb: a record of {args.replay_rounds} rounds of {args.replay_game}, {size / 1000:.0f} kB"
                  + note)
        for scenario in chosen:
            out = run_scenario(args, scenario, root, record)
            results.append(out)
            failed = failed or "failed" in out
            report(out, ["", *out["command"]])
    except KeyboardInterrupt:
        print("\ninterrupted: the abuser and the server are stopped", file=sys.stderr)
        failed = True
    finally:
        if not failed:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"logs kept in {root}", file=sys.stderr)
    if results:
        print(f"\n## all scenarios ({describe_source(args.source)}; {time.monotonic() - started:.0f} s in all; load "
              f"average {load:.1f} before, {os.getloadavg()[0]:.1f} after)\n")
        print(markdown([cells(out) for out in results]))
        print(f"\naims: pings' p99 under abuse ≤ {AIM_RATIO:g}× quiet and < {AIM_PING * 1000:.0f} ms; the victims' "
              f"bot reply p99 ≤ {AIM_RATIO:g}× quiet; peak RSS (server VmHWM + its children's sampled RSS) < "
              f"{AIM_RSS:.0f} MB; every new person served under abuse")
    if args.json is not None:
        args.json.write_text(json.dumps({
            "source": describe_source(args.source), "date": time.strftime("%Y-%m-%d %H:%M"),
            "cores": os.cpu_count(), "load_before": load, "args": {k: str(v) for k, v in vars(args).items()},
            "scenarios": results}, indent=1, default=str, allow_nan=True) + "\n")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
