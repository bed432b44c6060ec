"""Engine speed: random-playout matches/s and moves/s per game, on one core.

Drives every game only through the public contract (``legal_moves``,
``apply``, ``next_round``) and prints the median of several runs.

    python benchmarks/engine.py [--seconds 2] [--runs 5] [GAME ...]

Side by side with another version of parlour (a checkout's ``src`` directory,
e.g. from ``git worktree add /tmp/old main~5``): the same seeded matches are
played by each version in turn, in fresh processes, several times, timed by
CPU time (so a busy machine blurs less), and the ratio of the medians printed:

    python benchmarks/engine.py --against /tmp/old/src [--pairs 8] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from side_by_side import against_path, alternate

from parlour import games
from parlour.game import Game, Move


def random_match(game: Game, seed: float, choice: Callable[[list[Move]], Move]) -> int:
    """Play one match of random moves through the contract; the number of moves made."""
    state = game.new_match(rng=random.Random(seed))
    moves = 0
    while True:
        legal = state.legal_moves()
        if not legal:
            if state.is_match_over():
                return moves
            state.next_round()
            continue
        state.apply(choice(legal))
        moves += 1


def playout_run(game_id: str, seconds: float, seed: int) -> tuple[float, float]:
    """Play random matches for about ``seconds``; return (matches/s, moves/s)."""
    game = games.get(game_id)
    rng = random.Random(seed)
    matches = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        moves += random_match(game, rng.random(), rng.choice)
        matches += 1
    elapsed = time.perf_counter() - start
    return matches / elapsed, moves / elapsed


def cpu_rate(game_id: str, matches: int) -> float:
    """Moves/s of CPU time over ``matches`` seeded random matches (best of 5 passes)."""
    game = games.get(game_id)
    best = float("inf")
    for _ in range(5):
        rng = random.Random(7)
        start = time.process_time()
        moves = sum(random_match(game, number, rng.choice) for number in range(matches))
        best = min(best, time.process_time() - start)
    return moves / best


def main() -> None:
    if sys.argv[1:2] == ["--cpu-rate"]:  # one side of a side-by-side run, in its own process
        print(cpu_rate(sys.argv[2], int(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per game (the median is printed)")
    parser.add_argument("--against", type=Path, help="another version's src directory, to compare with")
    parser.add_argument("--pairs", type=int, default=8, help="alternating runs of each version (with --against)")
    parser.add_argument("--matches", type=int, default=150, help="matches in one timed pass (with --against)")
    args = parser.parse_args()
    if args.against is not None:
        against = against_path(parser, args.against)
        print(f"{'game':<14} {'this':>10} {'other':>10} {'ratio':>7}   (CPU moves/s, median of {args.pairs} "
              f"alternating runs, best of 5 passes of {args.matches} matches)")
        for game_id in args.games:
            [this], [other] = alternate(__file__, ["--cpu-rate", game_id, str(args.matches)], against, args.pairs)
            print(f"{game_id:<14} {this:>10.0f} {other:>10.0f} {this / other:>6.3f}x", flush=True)
        return
    print(f"{'game':<14} {'matches/s':>10} {'moves/s':>10}   (median of {args.runs} runs of {args.seconds}s, one core)")
    for game_id in args.games:
        results = [playout_run(game_id, args.seconds, seed) for seed in range(args.runs)]
        matches = statistics.median(r[0] for r in results)
        moves = statistics.median(r[1] for r in results)
        print(f"{game_id:<14} {matches:>10.1f} {moves:>10.0f}")


if __name__ == "__main__":
    main()
