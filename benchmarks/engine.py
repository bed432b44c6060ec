"""Engine speed: random-playout matches/s and moves/s per game, on one core.

Drives every game only through the public contract (``legal_moves``,
``apply``, ``next_round``) and prints the median of several runs.

    python benchmarks/engine.py [--seconds 2] [--runs 5] [GAME ...]

Side by side with another version of parlour (a checkout's ``src`` directory,
e.g. from ``git worktree add /tmp/old main~5``): the same seeded matches are
played by each version in turn, in fresh processes, several times, timed by
CPU time (so a busy machine blurs less), and the ratio of the medians printed:

    python benchmarks/engine.py --against /tmp/old/src [--pairs 8] [GAME ...]

Against the yardstick, a tight pure-Python Lost Cities engine
(``../shared/yardsticks/lc_fast.py``): each game's random playouts and the
yardstick's take turns in one process pinned to one core, each timed by CPU
time; the decisions/s of both and their ratio are printed (aim: every game at
least 1.0x).  Both pick a legal move with ``Random._randbelow``, as the
yardstick does, so the figure is the engine's and not ``random.choice``'s:

    python benchmarks/engine.py --yardstick [--rounds 7] [--turn 0.5] [GAME ...]
"""

from __future__ import annotations

import argparse
import os
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


YARDSTICK = Path(__file__).resolve().parents[2] / "shared" / "yardsticks" / "lc_fast.py"
"""The reference engine, beside the project (not part of parlour)."""


def load_yardstick(path: Path = YARDSTICK) -> Callable[[random.Random], tuple[list[int], int]] | None:
    """The yardstick's ``play_random_game``, or None when it is not there."""
    if not path.exists():
        return None
    import importlib.util

    spec = importlib.util.spec_from_file_location("lc_fast", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play_random_game  # type: ignore[no-any-return]


def game_decisions(game_id: str, seconds: float, rng: random.Random) -> tuple[int, float]:
    """Random rounds of ``game_id`` for about ``seconds`` of CPU time: (decisions, CPU seconds).
    A decision is one move through the contract (``legal_moves`` then ``apply``)."""
    game = games.get(game_id)
    randbelow = rng._randbelow  # type: ignore[attr-defined]
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_match(rng=rng)
        legal_moves, apply = state.legal_moves, state.apply
        while True:
            legal = legal_moves()
            if not legal:
                break
            apply(legal[randbelow(len(legal))])
            decisions += 1
    return decisions, time.process_time() - start


def yardstick_decisions(play: Callable[[random.Random], tuple[list[int], int]], seconds: float,
                        rng: random.Random) -> tuple[int, float]:
    """The yardstick's random games for about ``seconds`` of CPU time: (decisions, CPU seconds);
    each of its turns is two decisions (play or discard, then draw)."""
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        decisions += 2 * play(rng)[1]
    return decisions, time.process_time() - start


def against_yardstick(game_ids: list[str], rounds: int, seconds: float) -> None:
    """Print each game's decisions/s beside the yardstick's, measured in alternating turns."""
    play = load_yardstick()
    if play is None:
        sys.exit(f"no yardstick at {YARDSTICK}: it is kept in ../shared/yardsticks beside the project")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core for both
    print(f"{'game':<14} {'decisions/s':>12} {'yardstick':>12} {'ratio':>7}   (CPU time, {rounds} alternating "
          f"turns of {seconds:g}s each, one core; ratio of the sums)")
    ratios = []
    for game_id in game_ids:
        totals = [[0, 0.0], [0, 0.0]]
        for turn in range(rounds):
            for side, (count, spent) in enumerate((
                game_decisions(game_id, seconds, random.Random(turn)),
                yardstick_decisions(play, seconds, random.Random(turn)),
            )):
                totals[side][0] += count
                totals[side][1] += spent
        mine, theirs = (count / spent for count, spent in totals)
        ratios.append(mine / theirs)
        print(f"{game_id:<14} {mine:>12.0f} {theirs:>12.0f} {mine / theirs:>6.2f}x", flush=True)
    print(f"slowest: {min(ratios):.2f}x the yardstick (aim: every game at least 1.0x)")


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
    parser.add_argument("--yardstick", action="store_true",
                        help="measure against ../shared/yardsticks/lc_fast.py in the same process")
    parser.add_argument("--rounds", type=int, default=7, help="alternating turns per game (with --yardstick)")
    parser.add_argument("--turn", type=float, default=0.5, help="CPU seconds of one turn (with --yardstick)")
    args = parser.parse_args()
    if args.yardstick:
        against_yardstick(args.games, args.rounds, args.turn)
        return
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
