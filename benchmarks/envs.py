"""PettingZoo environment speed: steps/s per game on one core, random masked actions.

The loop is what a self-play trainer does: ``env.last()`` (which encodes the
observation and the action mask), a random legal index from the mask,
``env.step``; a new match when the episode ends.  For comparison it also
times the engine alone (``legal_moves`` + ``apply``) and the encoding alone.

    python benchmarks/envs.py [--seconds 2] [--runs 3] [GAME ...]

Side by side with another version of parlour (a checkout's ``src`` directory,
e.g. ``/tmp/old/src``): the same seeded episodes are stepped by each version in
turn, in fresh processes, several times, timed by CPU time (best of 5 passes
of ``--steps`` steps), and the ratio of the medians printed:

    python benchmarks/envs.py --against /tmp/old/src [--pairs 8] [--steps 20000] [--matches 30] [GAME ...]

Beside the env's steps/s it prints what ``encode_state`` and ``mask`` cost a move in each
version (the engine's own time taken out), so that a faster engine in one version does not
hide or inflate the encoding's share.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from side_by_side import against_path, alternate

from parlour import games
from parlour.envs.pettingzoo import env as make_env
from parlour.envs.spaces import space


def env_steps(env: object, steps: int, rng: random.Random) -> None:
    """Step ``env`` (reset) ``steps`` times with random legal actions, a new match when one ends."""
    last, step, reset = env.last, env.step, env.reset  # type: ignore[attr-defined]
    done = 0
    while done < steps:
        obs, _reward, terminated, truncated, _info = last()
        if terminated or truncated:
            reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        step(legal[rng.randrange(len(legal))])
        done += 1


def env_run(game_id: str, seconds: float, seed: int) -> float:
    """Step the PettingZoo env with random legal actions for about ``seconds``; return steps/s."""
    env = make_env(game_id)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env_steps(env, 1000, rng)
        steps += 1000
    return steps / (time.perf_counter() - start)


def cpu_rate(game_id: str, steps: int) -> float:
    """Env steps/s of CPU time over ``steps`` seeded steps (best of 5 passes, each from the same seed)."""
    best = float("inf")
    for _ in range(5):
        env = make_env(game_id)
        env.reset(seed=7)
        rng = random.Random(7)
        start = time.process_time()
        env_steps(env, steps, rng)
        best = min(best, time.process_time() - start)
    return steps / best


def encode_cost(game_id: str, matches: int) -> float:
    """Microseconds of CPU time that ``encode_state`` (the seat to move's) and ``mask`` add to a
    move: the same seeded random matches played through the engine with and without them
    (best of 5 passes each)."""
    game = games.get(game_id)
    sp = space(game_id)
    best = {False: float("inf"), True: float("inf")}
    moves = 0
    for _ in range(5):
        for encode in (False, True):
            rng = random.Random(7)
            moves = 0
            start = time.process_time()
            for number in range(matches):
                state = game.new_match(seed=number)
                while True:
                    legal = state.legal_moves()
                    if not legal:
                        if state.is_match_over():
                            break
                        state.next_round()
                        continue
                    if encode:
                        sp.encode_state(state, state.current_player())  # type: ignore[arg-type]
                        sp.mask(legal)
                    state.apply(legal[rng.randrange(len(legal))])
                    moves += 1
            best[encode] = min(best[encode], time.process_time() - start)
    return (best[True] - best[False]) / moves * 1e6


def engine_run(game_id: str, seconds: float, seed: int) -> tuple[float, float]:
    """The engine alone (moves/s), and the engine with ``encode_state`` + ``mask`` each move (moves/s)."""
    game = games.get(game_id)
    sp = space(game_id)
    results = []
    for encode in (False, True):
        rng = random.Random(seed)
        moves = 0
        start = time.perf_counter()
        deadline = start + seconds / 2
        while time.perf_counter() < deadline:
            state = game.new_match(seed=rng.getrandbits(32))
            while True:
                legal = state.legal_moves()
                if not legal:
                    if state.is_match_over():
                        break
                    state.next_round()
                    continue
                if encode:
                    sp.encode_state(state, state.current_player() or 0)
                    sp.mask(legal)
                state.apply(legal[rng.randrange(len(legal))])
                moves += 1
        results.append(moves / (time.perf_counter() - start))
    return results[0], results[1]


def main() -> None:
    if sys.argv[1:2] == ["--cpu-rate"]:  # one side of a side-by-side run, in its own process
        print(cpu_rate(sys.argv[2], int(sys.argv[3])), encode_cost(sys.argv[2], int(sys.argv[4])))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per game (the median is printed)")
    parser.add_argument("--against", type=Path, help="another version's src directory, to compare with")
    parser.add_argument("--pairs", type=int, default=8, help="alternating runs of each version (with --against)")
    parser.add_argument("--steps", type=int, default=20000, help="env steps in one timed pass (with --against)")
    parser.add_argument("--matches", type=int, default=30,
                        help="matches in one timed pass of the encoding's cost (with --against)")
    args = parser.parse_args()
    if args.against is not None:
        against = against_path(parser, args.against)
        print(f"{'':<14} {'env steps/s':^29}   {'encode+mask µs/move':^29}")
        print(f"{'game':<14} {'this':>9} {'other':>9} {'ratio':>9}   {'this':>9} {'other':>9} {'speed-up':>9}")
        for game_id in args.games:
            this, other = alternate(__file__, ["--cpu-rate", game_id, str(args.steps), str(args.matches)],
                                    against, args.pairs)
            print(f"{game_id:<14} {this[0]:>9.0f} {other[0]:>9.0f} {this[0] / other[0]:>8.3f}x   "
                  f"{this[1]:>9.2f} {other[1]:>9.2f} {other[1] / this[1]:>8.2f}x", flush=True)
        print(f"(CPU time; medians of {args.pairs} alternating runs in fresh processes; env: best of 5 passes of "
              f"{args.steps} steps; encode+mask: CPU time {args.matches} seeded random matches take with "
              f"encode_state and mask at every move less without, best of 5 passes each)")
        return
    print(f"{'game':<14} {'env steps/s':>12} {'engine moves/s':>15} {'+encode+mask':>13} "
          f"{'µs/step':>8}   (median of {args.runs} runs of {args.seconds}s, one core)")
    for game_id in args.games:
        steps = statistics.median(env_run(game_id, args.seconds, seed) for seed in range(args.runs))
        engine = [engine_run(game_id, args.seconds, seed) for seed in range(args.runs)]
        bare = statistics.median(e[0] for e in engine)
        encoded = statistics.median(e[1] for e in engine)
        print(f"{game_id:<14} {steps:>12.0f} {bare:>15.0f} {encoded:>13.0f} {1e6 / steps:>8.1f}")


if __name__ == "__main__":
    main()
