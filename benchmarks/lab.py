"""Lab throughput: matches/s with random bots at --jobs 1 and --jobs 2, into a
fresh SQLite database each time (the whole pipeline: play, record, store).

    python benchmarks/lab.py [--game minus-twenty] [--matches 2000]

Aim: 2 jobs at least 1.8 × one job.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from parlour.lab import plan, runner
from parlour.store import Store


def rate(game: str, matches: int, jobs: int) -> float:
    """Matches per second for one run of ``matches`` random matches with ``jobs`` workers."""
    spec = plan.make_spec(game=game, players=["random"] * (3 if game == "progression" else 2), matches=matches)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "lab.sqlite")
        start = time.perf_counter()
        runner.run([spec], store, jobs=jobs)
        elapsed = time.perf_counter() - start
        store.close()
    return matches / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="minus-twenty")
    parser.add_argument("--matches", type=int, default=2000)
    args = parser.parse_args()
    one = rate(args.game, args.matches, 1)
    two = rate(args.game, args.matches, 2)
    print(f"{args.game}, {args.matches} random matches into SQLite:")
    print(f"  --jobs 1: {one:8.1f} matches/s")
    print(f"  --jobs 2: {two:8.1f} matches/s   ({two / one:.2f} × one job; aim ≥ 1.8)")


if __name__ == "__main__":
    main()
