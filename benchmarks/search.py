"""IS-MCTS speed: search iterations per second on one core, in mid-round
positions of each game (random rollouts, and heuristic rollouts).

    python benchmarks/search.py [--iterations 1000] [--positions 5] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour import games
from parlour.bots.ismcts import ISMCTSBot
from parlour.game import State


def mid_round_positions(game_id: str, count: int, seed: int = 0) -> list[State]:
    """Positions about half-way through a first round, reached by random play."""
    game = games.get(game_id)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_match(seed=rng.randrange(10**9))
        length = 0
        probe = state.copy()
        while probe.current_player() is not None:
            probe.apply(rng.choice(probe.legal_moves()))
            length += 1
        for _ in range(length // 2):
            state.apply(rng.choice(state.legal_moves()))
        if state.current_player() is not None and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def iterations_per_second(game_id: str, rollout: str, iterations: int, positions: int) -> float:
    """Median iterations (simulations) per second over ``positions`` mid-round positions."""
    rates = []
    for state in mid_round_positions(game_id, positions):
        seat = state.current_player()
        assert seat is not None
        bot = ISMCTSBot(iterations=iterations, rollout=rollout)
        start = time.perf_counter()
        estimates = bot.analyse(state.observation(seat), state.legal_moves(), random.Random(0))
        simulations = sum(e.visits for e in estimates)  # sequential halving rounds the budget per move
        rates.append(simulations / (time.perf_counter() - start))
    return statistics.median(rates)


def hard_seconds(game_id: str, positions: int) -> tuple[float, float]:
    """Median and worst seconds a ``hard`` decision takes, at round starts and mid-round."""
    from parlour import bots

    game = games.get(game_id)
    states = [game.new_match(seed=seed) for seed in range(positions)] + mid_round_positions(game_id, positions)
    times = []
    for state in states:
        seat = state.current_player()
        assert seat is not None
        start = time.perf_counter()
        bots.make("hard").choose(state.observation(seat), state.legal_moves(), random.Random(0))
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--iterations", type=int, default=1000, help="iterations per search")
    parser.add_argument("--positions", type=int, default=5, help="mid-round positions per game")
    args = parser.parse_args()
    print(f"{'game':<14} {'random rollouts':>16} {'heuristic rollouts':>19}   (iterations/s, median, one core)"
          f"   {'hard: median s':>15} {'worst s':>8}")
    for game_id in args.games:
        fast = iterations_per_second(game_id, "random", args.iterations, args.positions)
        smart = iterations_per_second(game_id, "heuristic", max(args.iterations // 4, 50), args.positions)
        median, worst = hard_seconds(game_id, args.positions)
        print(f"{game_id:<14} {fast:>16.0f} {smart:>19.0f}   {median:>15.2f} {worst:>8.2f}")


if __name__ == "__main__":
    main()
