"""Training-opponent speed: Gymnasium env steps/s with the learner playing random legal
moves and the opponent bot moving inside the env, side by side for several opponents.

    python benchmarks/sparring.py [--opponents medium,sparring,hard] [--seconds 3] [--hard-seconds 10] [GAME ...]

Each (game, opponent) is stepped for about ``--seconds`` (``--hard-seconds`` for ``hard``,
which is slow), new matches seeded from ``--seed``; the opponents of a game take turns
(round-robin over ``--passes`` passes) so that a change in the machine's load falls on all
of them alike.  Both wall-clock steps/s and steps per CPU-second of this process are
printed: on a shared machine the CPU figure is the one that does not depend on the others'
load.
"""

from __future__ import annotations

import argparse
import random
import time

from parlour.envs.gymnasium import ParlourEnv

GAMES = ("minus-twenty", "progression", "twenty", "silver-bars")


def step_for(env: ParlourEnv, seconds: float, rng: random.Random) -> tuple[int, float, float]:
    """Step ``env`` with random legal actions for about ``seconds`` (at least one step):
    (steps, wall seconds, CPU seconds)."""
    wall, cpu = time.perf_counter(), time.process_time()
    _obs, info = env.reset(seed=rng.randrange(2**31))
    steps = 0
    while steps == 0 or time.perf_counter() - wall < seconds:
        legal = info["action_mask"].nonzero()[0]
        _obs, _reward, terminated, _truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if terminated:
            _obs, info = env.reset(seed=rng.randrange(2**31))
    return steps, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help="games (all four by default)")
    parser.add_argument("--opponents", default="medium,sparring,hard", help="opponent bot specs, ';'- or ','-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per opponent and pass (3)")
    parser.add_argument("--hard-seconds", type=float, default=10.0, help="seconds per pass for hard and expert (10)")
    parser.add_argument("--passes", type=int, default=2, help="round-robin passes (2)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    opponents = [o.strip() for o in args.opponents.replace(";", ",").split(",") if o.strip()]
    print(f"{'game':14} {'opponent':10} {'steps':>7} {'steps/s (wall)':>15} {'steps/CPU-s':>12}")
    for game_id in args.games:
        envs = {o: ParlourEnv(game_id, opponent=o) for o in opponents}
        totals = {o: [0, 0.0, 0.0] for o in opponents}
        rng = random.Random(args.seed)
        for _ in range(args.passes):
            for opponent in opponents:
                seconds = args.hard_seconds if opponent in ("hard", "expert") else args.seconds
                steps, wall, cpu = step_for(envs[opponent], seconds, rng)
                total = totals[opponent]
                total[0] += steps
                total[1] += wall
                total[2] += cpu
        for opponent, (steps, wall, cpu) in totals.items():
            rates = f"{steps / wall:15.0f} {steps / max(cpu, 1e-9):12.0f}"
            print(f"{game_id:14} {opponent:10} {steps:7d} {rates}", flush=True)


if __name__ == "__main__":
    main()
