"""Engine speed: random-playout matches/s and moves/s per game, on one core.

Drives every game only through the public contract (``legal_moves``,
``apply``, ``next_round``) and prints the median of several runs.

    python benchmarks/engine.py [--seconds 2] [--runs 5] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour import games


def playout_run(game_id: str, seconds: float, seed: int) -> tuple[float, float]:
    """Play random matches for about ``seconds``; return (matches/s, moves/s)."""
    game = games.get(game_id)
    rng = random.Random(seed)
    matches = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_match(rng=random.Random(rng.random()))
        choice = rng.choice
        while True:
            legal = state.legal_moves()
            if not legal:
                if state.is_match_over():
                    break
                state.next_round()
                continue
            state.apply(choice(legal))
            moves += 1
        matches += 1
    elapsed = time.perf_counter() - start
    return matches / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per game (the median is printed)")
    args = parser.parse_args()
    print(f"{'game':<14} {'matches/s':>10} {'moves/s':>10}   (median of {args.runs} runs of {args.seconds}s, one core)")
    for game_id in args.games:
        results = [playout_run(game_id, args.seconds, seed) for seed in range(args.runs)]
        matches = statistics.median(r[0] for r in results)
        moves = statistics.median(r[1] for r in results)
        print(f"{game_id:<14} {matches:>10.1f} {moves:>10.0f}")


if __name__ == "__main__":
    main()
