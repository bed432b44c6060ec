"""The compiled, batched engines (``parlour.batch``, extra ``parlour[fast]``): decisions per second
on one core, beside the numba yardstick in the same run.

For each game with a batched engine it prints:

* ``play_random``: decisions/s of the engine's own compiled loop of random legal games (one call);
* ``step`` at batch sizes 1, 64 and 1024: decisions/s of the Python-facing API a trainer uses
  (``legal_mask`` → a random legal action per game with numpy → ``step``), games reset as they end;
* ``observe`` on top of ``step`` at batch 1024;
* the Gymnasium ``VectorEnv`` (:mod:`parlour.batch.vector`) at 1024 matches: the learner's steps/s,
  the opponents' moves, the masks and the observation encoding included (one compiled call a
  step), twice: with a learner drawing a random legal action with numpy (``vector env 1024``,
  the figure a trainer's own choice adds to), and with one taking its first legal action
  (``… first legal``: about the env's own cost);
* the first calls' time, measured apart, so that it never counts in the rates: compilation the first
  time, then loading numba's cache from disk (``cache=True``).

The yardstick ``../shared/yardsticks/lc_numba.py`` (a Lost-Cities-like game in numba, two decisions
a turn) is timed in the same run; the ratio to it is what to compare across machines.

    python benchmarks/batch.py [--seconds 2] [GAME ...]

Pin the process to one core for figures of one core (``taskset -c 0 python benchmarks/batch.py``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from parlour import batch
from parlour.batch.vector import BatchVectorEnv

YARDSTICK = Path(__file__).resolve().parents[2] / "shared" / "yardsticks" / "lc_numba.py"


def _yardstick() -> Any:
    spec = importlib.util.spec_from_file_location("lc_numba", YARDSTICK)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no yardstick at {YARDSTICK} (../shared must be beside the project)")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _timed(run: Any, seconds: float) -> tuple[float, float]:
    """(work done, seconds taken): call ``run()`` (it returns work done) until ``seconds`` pass."""
    done = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += run()
    return done, time.perf_counter() - start


def yardstick_rate(seconds: float) -> tuple[float, float]:
    """(decisions/s, compile seconds) of lc_numba."""
    module = _yardstick()
    start = time.perf_counter()
    module.play_games(1, 0)
    compile_time = time.perf_counter() - start
    seed = [1]

    def run() -> float:
        seed[0] += 1
        turns, _ = module.play_games(200, seed[0])
        return 2.0 * turns

    done, took = _timed(run, seconds)
    return done / took, compile_time


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal action per row of ``mask`` (every row has one)."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys[~mask] = -1.0
    actions: np.ndarray = keys.argmax(axis=1)
    return actions


def engine_rates(game_id: str, seconds: float) -> dict[str, float]:
    """Every figure of one game's engine (see the module docstring)."""
    start = time.perf_counter()
    first = batch.engine(game_id, 1, seed=0)
    first.legal_mask()
    first.step(random_actions(first.legal_mask(), np.random.default_rng(0)))
    play_random = importlib.import_module(batch.ENGINES[game_id][0]).play_random
    play_random(1, 0)
    found: dict[str, float] = {"compile": time.perf_counter() - start}
    seed = [0]

    def loop() -> float:
        seed[0] += 1
        decisions, _ = play_random(100, seed[0])
        return float(decisions)

    done, took = _timed(loop, seconds)
    found["play_random"] = done / took
    for size in (1, 64, 1024):
        engine = batch.engine(game_id, size, seed=size)
        rng = np.random.default_rng(size)

        def step(engine: Any = engine, rng: np.random.Generator = rng, size: int = size) -> float:
            for _ in range(20):
                engine.step(random_actions(engine.legal_mask(), rng))
            return 20.0 * size

        done, took = _timed(step, seconds)
        found[f"step {size}"] = done / took
    engine = batch.engine(game_id, 1024, seed=7)
    rng = np.random.default_rng(7)

    def observe() -> float:
        for _ in range(20):
            engine.step(random_actions(engine.legal_mask(), rng))
            engine.observe(engine.to_move())
        return 20.0 * 1024

    done, took = _timed(observe, seconds)
    found["step+observe 1024"] = done / took
    for name, choose in (("vector env 1024", random_actions),
                         ("vector env 1024 first legal", lambda mask, rng: mask.argmax(axis=1))):
        env = BatchVectorEnv(game_id, 1024, seed=9)
        env.reset()
        rng = np.random.default_rng(9)

        def vector(env: BatchVectorEnv = env, rng: np.random.Generator = rng, choose: Any = choose) -> float:
            for _ in range(20):
                env.step(choose(env.action_masks(), rng))
            return 20.0 * 1024

        done, took = _timed(vector, seconds)
        found[name] = done / took
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game with a batched engine)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a figure is timed over")
    args = parser.parse_args(argv)
    if not batch.available():
        print("numba is not installed: pip install 'parlour[fast]'", file=sys.stderr)
        return 2
    chosen = args.games or batch.ids()
    unknown = [game for game in chosen if game not in batch.ids()]
    if unknown:
        print(f"no batched engine for {', '.join(unknown)} (there is one for {', '.join(batch.ids())})",
              file=sys.stderr)
        return 2
    yard, yard_compile = yardstick_rate(args.seconds)
    print(f"{'lc_numba (yardstick)':24} {yard / 1e6:8.2f} M decisions/s   compile {yard_compile:5.2f} s")
    for game_id in chosen:
        rates = engine_rates(game_id, args.seconds)
        print(f"{game_id:24} {rates['play_random'] / 1e6:8.2f} M decisions/s   "
              f"{rates['play_random'] / yard:5.2f}x the yardstick   first call {rates['compile']:5.2f} s")
        for key, value in rates.items():
            if key not in ("compile", "play_random"):
                unit = "learner steps/s" if key.startswith("vector") else "decisions/s"
                print(f"  {key:28} {value / 1e6:8.3f} M {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
