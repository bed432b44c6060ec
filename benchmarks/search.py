"""IS-MCTS speed: search iterations per second on one core, in mid-round
positions of each game (random rollouts, and heuristic rollouts).

    python benchmarks/search.py [--iterations 1000] [--positions 5] [GAME ...]

Side by side with another version of parlour (a checkout's ``src`` directory):
each version searches the same positions in turn, in fresh processes, timed by
CPU time, and the ratio of the medians is printed:

    python benchmarks/search.py --against /tmp/old/src [--pairs 5] [--hard] [GAME ...]

With ``--hard``, each version also times a ``hard`` decision (CPU seconds, median
and worst over round starts and mid-round positions) with the budget its own
registry gives ``hard``: a faster search may search more in the same time.

``hard`` with and without the batched rollouts (issue 36), side by side in one process:

    python benchmarks/search.py --batched [--positions 5] [--batched-spec SPEC] [GAME ...]

prints, for ``hard`` unbatched (one Python rollout a simulation, with the iterations it had before
the game's rollouts were batched), ``hard`` as the game's registry entry has it (batched where
``GameEntry.leaf`` says: each sample's leaves rolled out together, ``leaf`` times each, compiled
where numba and the game's plug-in are installed) and ``SPEC`` if given, the simulations (trips
through the tree) and rollouts a CPU-second, the CPU seconds of a decision (median and worst
over round starts and mid-round positions), and the ratio of the CPU seconds.  The compiled
functions are compiled (or loaded from numba's cache) before anything is timed.

Where a batched ``hard`` decision spends its CPU time (``cProfile``: the compiled rollouts, loading
the leaves into the engine, the tree walk, the rest):

    python benchmarks/search.py --profile [--positions 5] [GAME ...]
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
from parlour.bots.ismcts import ISMCTSBot
from parlour.bots.levels import level_iterations
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


def iterations_per_second(game_id: str, rollout: str, iterations: int, positions: int,
                          clock: Callable[[], float] = time.perf_counter) -> float:
    """Median iterations (simulations) per second over ``positions`` mid-round positions."""
    rates = []
    for state in mid_round_positions(game_id, positions):
        seat = state.current_player()
        assert seat is not None
        bot = ISMCTSBot(iterations=iterations, rollout=rollout)
        start = clock()
        estimates = bot.analyse(state.observation(seat), state.legal_moves(), random.Random(0))
        simulations = sum(e.visits for e in estimates)  # sequential halving rounds the budget per move
        rates.append(simulations / (clock() - start))
    return statistics.median(rates)


def hard_seconds(game_id: str, positions: int,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """Median and worst seconds a ``hard`` decision takes, at round starts and mid-round
    (with the iterations the game's registry entry gives ``hard`` in this version)."""
    from parlour import bots

    game = games.get(game_id)
    states = [game.new_match(seed=seed) for seed in range(positions)] + mid_round_positions(game_id, positions)
    times = []
    for state in states:
        seat = state.current_player()
        assert seat is not None
        start = clock()
        bots.make("hard").choose(state.observation(seat), state.legal_moves(), random.Random(0))
        times.append(clock() - start)
    return statistics.median(times), max(times)


UNBATCHED_HARD_ITERATIONS = {"minus-twenty": 1850, "progression": 2400, "silver-bars": 850}
"""``hard``'s iterations in a game before its registry entry batched its rollouts (``GameEntry.leaf``;
one Python rollout a simulation): what the batched ``hard`` is measured against."""


def unbatched_hard(game_id: str) -> str:
    """``hard`` with one rollout a simulation: as before the game's rollouts were batched."""
    iterations = UNBATCHED_HARD_ITERATIONS.get(game_id, level_iterations("hard", game_id))
    return f"ismcts:iterations={iterations},rollout=heuristic,leaf=0"


def decision_costs(game_id: str, spec: str, positions: int) -> tuple[float, float, float, float]:
    """``spec``'s simulations and rollouts a CPU-second, and the median and worst CPU seconds of
    a decision, at ``positions`` round starts and as many mid-round positions (the same as
    :func:`hard_seconds`'), each searched with the seed 0."""
    from parlour import bots

    game = games.get(game_id)
    states = [game.new_match(seed=seed) for seed in range(positions)] + mid_round_positions(game_id, positions)
    times, simulations, rollouts = [], 0, 0
    for state in states:
        seat = state.current_player()
        assert seat is not None
        bot = bots.make(spec)
        assert isinstance(bot, ISMCTSBot)
        start = time.process_time()
        estimates = bot.analyse(state.observation(seat), state.legal_moves(), random.Random(0))
        times.append(time.process_time() - start)
        visits = sum(e.visits for e in estimates)
        simulations += visits
        rollouts += visits * (bot.leaf_for(game_id) or 1)
    spent = sum(times)
    return simulations / spent, rollouts / spent, statistics.median(times), max(times)


def batched_side_by_side(game_ids: list[str], positions: int, batched: str | None) -> None:
    """Print :func:`decision_costs` of ``hard`` unbatched (:func:`unbatched_hard`), of ``hard``
    as the game's entry has it, and of ``batched`` if given, with each one's speed-up."""
    from parlour import batch, bots

    print("unbatched: ismcts:iterations=N,rollout=heuristic,leaf=0  (N: hard's before the game's rollouts were "
          "batched)\nhard:      ismcts:level=hard,"
          "rollout=heuristic  (batched where GameEntry.leaf says)\n" + (f"batched:   {batched}\n" if batched else "")
          + f"numba: {'yes' if batch.available() else 'no'}")
    print(f"{'game':<14} {'search':<10} {'plug-in':<9} {'sims/s':>8} {'rollouts/s':>11} {'median s':>9} "
          f"{'worst s':>8} {'speed-up':>9}   (CPU, one core)")
    for game_id in game_ids:
        specs = [("unbatched", unbatched_hard(game_id)), ("hard", "ismcts:level=hard,rollout=heuristic")]
        specs += [("batched", batched)] if batched else []
        old = None
        for name, spec in specs:
            bot = bots.make(spec)
            assert isinstance(bot, ISMCTSBot)
            kind = "python"
            if bot.leaf_for(game_id):
                try:
                    plugin = bot._plugin(game_id)
                except ValueError as refused:
                    print(f"{game_id:<14} {name:<10} {refused}", flush=True)
                    continue
                kind = "compiled" if plugin.compiled else "python"
                plugin.run([games.get(game_id).new_match(seed=0)], 0, 0, 1, 1)  # compile (or load) before timing
            sims, rollouts, median, worst = cost = decision_costs(game_id, spec, positions)
            old = old or cost
            speed = f"{old[2] / median:>8.1f}x" if name != "unbatched" else ""
            print(f"{game_id:<14} {name:<10} {kind:<9} {sims:>8.0f} {rollouts:>11.0f} {median:>9.3f} {worst:>8.3f} "
                  f"{speed:>9}", flush=True)


def where_the_time_goes(game_ids: list[str], positions: int) -> None:
    """Print, for ``hard`` as the game's entry has it, the shares of a decision's CPU time spent
    rolling out (the plug-in's compiled call), loading the leaves (the plug-in's rows), walking the
    tree (``ISMCTSBot._descend``, the advice as its prior) and the rest (sampling, book-keeping):
    ``cProfile`` over :func:`decision_costs`' positions."""
    import cProfile
    import pstats

    from parlour import bots

    print(f"{'game':<14} {'rollouts':>9} {'loading':>8} {'tree':>6} {'rest':>6}   (share of hard's CPU, cProfile)")
    for game_id in game_ids:
        bot = bots.make("ismcts:level=hard,rollout=heuristic")
        assert isinstance(bot, ISMCTSBot)
        if not bot.leaf_for(game_id):
            print(f"{game_id:<14} hard is not batched here")
            continue
        plugin = bot._plugin(game_id)
        plugin.run([games.get(game_id).new_match(seed=0)], 0, 0, 1, 1)  # compile (or load) first
        profile = cProfile.Profile()
        profile.runcall(decision_costs, game_id, "ismcts:level=hard,rollout=heuristic", positions)
        stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        total = sum(tt for (_, _, name), (_, _, tt, _, _) in stats.items())

        roll, rows, tree = (sum(ct for (_, _, found), (_, _, _, ct, _) in stats.items() if found == name)
                            for name in ("roll", "rows", "_descend"))
        print(f"{game_id:<14} {roll / total:>8.0%} {rows / total:>8.0%} {tree / total:>6.0%} "
              f"{1 - (roll + rows + tree) / total:>6.0%}", flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--cpu-rates"]:  # one side of a side-by-side run, in its own process
        game_id, iterations, positions = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        print(iterations_per_second(game_id, "random", iterations, positions, time.process_time),
              iterations_per_second(game_id, "heuristic", max(iterations // 4, 50), positions, time.process_time),
              *(hard_seconds(game_id, positions, time.process_time) if "--hard" in sys.argv else ()))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--iterations", type=int, default=1000, help="iterations per search")
    parser.add_argument("--positions", type=int, default=5, help="mid-round positions per game")
    parser.add_argument("--against", type=Path, help="another version's src directory, to compare with")
    parser.add_argument("--pairs", type=int, default=5, help="alternating runs of each version (with --against)")
    parser.add_argument("--hard", action="store_true",
                        help="with --against: also the CPU seconds of a hard decision in each version (its own budget)")
    parser.add_argument("--batched", action="store_true",
                        help="hard with and without the batched rollouts, side by side (see above)")
    parser.add_argument("--profile", action="store_true",
                        help="where a batched hard decision's CPU time goes: rollouts, loading leaves, tree, rest")
    parser.add_argument("--batched-spec", help="with --batched: another search to compare too (e.g. "
                        "ismcts:iterations=3200,rollout=heuristic,leaf=32)")
    args = parser.parse_args()
    if args.profile:
        where_the_time_goes(args.games, args.positions)
        return
    if args.batched:
        batched_side_by_side(args.games, args.positions, args.batched_spec)
        return
    if args.against is not None:
        against = against_path(parser, args.against)
        print(f"{'game':<14} {'rollouts':<10} {'this':>8} {'other':>8} {'ratio':>7}   (CPU iterations/s, median "
              f"of {args.pairs} alternating runs)")
        for game_id in args.games:
            here, other = alternate(__file__, ["--cpu-rates", game_id, str(args.iterations), str(args.positions),
                                               *(["--hard"] if args.hard else [])], against, args.pairs)
            for rollout, this, that in zip(("random", "heuristic"), here, other):
                print(f"{game_id:<14} {rollout:<10} {this:>8.0f} {that:>8.0f} {this / that:>6.3f}x", flush=True)
            for what, this, that in zip(("hard s", "hard max"), here[2:], other[2:]):
                print(f"{game_id:<14} {what:<10} {this:>8.3f} {that:>8.3f} {this / that:>6.3f}x", flush=True)
        return
    print(f"{'game':<14} {'random rollouts':>16} {'heuristic rollouts':>19}   (iterations/s, median, one core)"
          f"   {'hard: median s':>15} {'worst s':>8}")
    for game_id in args.games:
        fast = iterations_per_second(game_id, "random", args.iterations, args.positions)
        smart = iterations_per_second(game_id, "heuristic", max(args.iterations // 4, 50), args.positions)
        median, worst = hard_seconds(game_id, args.positions)
        print(f"{game_id:<14} {fast:>16.0f} {smart:>19.0f}   {median:>15.2f} {worst:>8.2f}")


if __name__ == "__main__":
    main()
