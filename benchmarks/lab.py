"""Lab throughput: stored matches/s with random bots at --jobs 1 and --jobs 2, into a
fresh SQLite database each time (the whole pipeline: play, record, store), beside the
bare engine's matches/s for the same random play in the same run.

    python benchmarks/lab.py [--game minus-twenty] [--matches 12000] [--runs 3]

Then it times the whole designers' report (HTML with every plot, the measures of play
read from a replayed sample of records) for ``--report-matches`` stored matches
(1,000 by default, duplicate deals of the medium bots with playtest noise).

The engine's figure is random matches played through the contract alone (as
``benchmarks/engine.py`` plays them), on one core.  Where numba is installed the lab plays random
bots on the batched engines (``parlour.batch.arena``: the decisions compiled, the rules engine
replaying them for the records and events), and a fourth run a round times the lab at one job
with them turned off (``PARLOUR_BATCH=off``), to print what they give side by side.  Aims: the lab at one job at
least 40% of the engine, and two jobs at least 1.8 x one job.  Runs alternate
(engine, one job, two jobs) and the median of each is printed, so a slow spell
of a busy machine falls on all three.  The default run is long enough (about six
seconds at two jobs) that starting the workers and waiting for the last unit of work
are a small part of it; ``--matches 4000`` shows them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from engine import random_match

from parlour import batch, games
from parlour.lab import plan, report, runner
from parlour.store import Store


def players(game: str) -> list[str]:
    """One random bot a seat."""
    return ["random"] * games.get(game).players


def lab_rate(game: str, matches: int, jobs: int, seed: int, batched: bool = True) -> float:
    """Stored matches per second for one run of ``matches`` random matches with ``jobs`` workers
    (``batched=False``: with the batched engines turned off)."""
    spec = plan.make_spec(game=game, players=players(game), matches=matches, seed=seed)
    before = os.environ.get(batch.OFF)
    if not batched:
        os.environ[batch.OFF] = "off"
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "lab.sqlite")
            start = time.perf_counter()
            runner.run([spec], store, jobs=jobs)
            elapsed = time.perf_counter() - start
            store.close()
    finally:
        if before is None:
            os.environ.pop(batch.OFF, None)
        else:
            os.environ[batch.OFF] = before
    return matches / elapsed


def engine_rate(game: str, matches: int, seed: int) -> float:
    """Random matches per second through the contract alone, nothing recorded or stored."""
    engine = games.get(game)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(matches):
        random_match(engine, rng.random(), rng.choice)
    return matches / (time.perf_counter() - start)


def report_seconds(game: str, matches: int) -> tuple[float, int]:
    """Seconds the full HTML report takes for ``matches`` stored matches of ``game`` (medium bots,
    duplicate deals, 5% slips), and how many matches its measures of play replayed."""
    seats = games.get(game).players
    spec = plan.make_spec(game=game, players=["medium"] * seats, deals=max(1, matches // seats), seed=1, noise=0.05)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "lab.sqlite")
        runner.run([spec], store, jobs=2)
        start = time.perf_counter()
        report.write(store, None, Path(folder) / "report")
        elapsed = time.perf_counter() - start
        sample = report.Settings().sample
        store.close()
    return elapsed, min(sample, spec.total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="minus-twenty", choices=games.ids())
    parser.add_argument("--matches", type=int, default=12000, help="matches in one run")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs (the median is printed)")
    parser.add_argument("--report-matches", type=int, default=1000,
                        help="stored matches the report is timed on (0: do not time it)")
    args = parser.parse_args()
    on = runner.on_batched_engine(plan.make_spec(game=args.game, players=players(args.game), matches=1))
    if on:
        from parlour.batch import arena

        arena.warm()  # compiled (or loaded) before any run is timed
    figures: dict[str, list[float]] = {"engine": [], "one": [], "two": [], "off": []}
    for run in range(args.runs):
        figures["engine"].append(engine_rate(args.game, args.matches, run))
        figures["one"].append(lab_rate(args.game, args.matches, 1, run))
        figures["two"].append(lab_rate(args.game, args.matches, 2, run))
        if on:
            figures["off"].append(lab_rate(args.game, args.matches, 1, run, batched=False))
    engine, one, two = (statistics.median(figures[k]) for k in ("engine", "one", "two"))
    print(f"{args.game}, {args.matches} random matches, median of {args.runs} alternating runs:")
    print(f"  bare engine: {engine:8.1f} matches/s   (one core, nothing stored)")
    print(f"  lab, 1 job:  {one:8.1f} matches/s   ({one / engine:.0%} of the engine; aim ≥ 40%)")
    print(f"  lab, 2 jobs: {two:8.1f} matches/s   ({two / one:.2f} × one job; aim ≥ 1.8)")
    if on:
        off = statistics.median(figures["off"])
        print(f"  lab, 1 job, batched engine off: {off:8.1f} matches/s   "
              f"(the batched lab plays {one / off:.2f} × as many)")
    else:
        print("  (random bots played by the rules engine: numba is not installed, or PARLOUR_BATCH=off)")
    if args.report_matches:
        seconds, replayed = report_seconds(args.game, args.report_matches)
        print(f"  the full report for {args.report_matches} matches: {seconds:.1f} s "
              f"(HTML and plots; {replayed} of them replayed for the measures of play)")


if __name__ == "__main__":
    main()
