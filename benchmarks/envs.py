"""PettingZoo environment speed: steps/s per game on one core, random masked actions.

The loop is what a self-play trainer does: ``env.last()`` (which encodes the
observation and the action mask), a random legal index from the mask,
``env.step``; a new match when the episode ends.  For comparison it also
times the engine alone (``legal_moves`` + ``apply``) and the encoding alone.

    python benchmarks/envs.py [--seconds 2] [--runs 3] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour import games
from parlour.envs.pettingzoo import env as make_env
from parlour.envs.spaces import space


def env_run(game_id: str, seconds: float, seed: int) -> float:
    """Step the PettingZoo env with random legal actions for about ``seconds``; return steps/s."""
    env = make_env(game_id)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(legal[rng.randrange(len(legal))])
            steps += 1
        if time.perf_counter() > deadline:
            break
    return steps / (time.perf_counter() - start)


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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per game (the median is printed)")
    args = parser.parse_args()
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
