"""parlour's IS-MCTS against OpenSpiel's Python IS-MCTS, on duplicate deals.

    python benchmarks/vs_openspiel.py [--games twenty,silver-bars] [--deals 20] [--seconds 0.2] [--jobs 2] [--matches]

Both bots get the same wall-clock seconds per move and search until they are
spent (checked after every simulation; a move with one legal choice is made at
once by both):

* **ours**: :class:`parlour.bots.ismcts.ISMCTSBot` with heuristic rollouts and
  ``seconds=S`` (its iterations unbounded), given the seat's observation;
* **OpenSpiel's**: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with
  ``RandomRolloutEvaluator(n_rollouts=1)``, unlimited world samples
  (each simulation resamples with our ``resample_from_infostate``) and the
  most visited move, on ``parlour.envs.openspiel``'s game.  Its
  ``run_search`` is wrapped to simulate until the deadline instead of for a
  fixed ``max_simulations``.  Its rewards are in points, so its UCT constant
  is 0.7 × the standard deviation of the round-score difference in random
  play (measured on 200 random rounds per game before the tournament) —
  the same exploration ours uses on rewards scaled by their spread.

Every deal is played twice, once in each seating, with the same cards: the
chance nodes of the OpenSpiel state are resolved from a deck shuffled from
the deal's seed (the deal's cards in order, then the stock in the order it is
drawn), and the same seat starts.  By default each game is a single round
(the first); ``--matches`` plays whole matches.  A win counts 1, a draw ½; the
interval is Wilson's 95% interval over all games played (both seatings of a
deal are not independent, so it is a little optimistic), and the mean score
difference has its 95% margin over deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from parlour import games
from parlour.bots.ismcts import ISMCTSBot
from parlour.envs import openspiel as pos
from parlour.lab.arena import deal_seed
from parlour.lab.stats import mean_and_margin, wilson_interval

TWO_PLAYER = [g for g in games.GAME_IDS if games.get(g).players == 2]
EXPLORATION = 0.7


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot, simulating until a deadline instead of a fixed count."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, seconds: float, random_state: Any) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations=1, random_state=random_state)
        self.seconds = seconds
        self.simulations: list[int] = []

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done == 0 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations.append(done)
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


def spread(game_id: str, rounds: int = 200, seed: int = 0) -> float:
    """The standard deviation of a round's score difference (seat 0 − seat 1) in random play."""
    game = games.get(game_id)
    rng = random.Random(seed)
    diffs = []
    for _ in range(rounds):
        state = game.new_match(seed=rng.getrandbits(32))
        while state.current_player() is not None:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        diffs.append(state.scores[0] - state.scores[1])
    return max(statistics.pstdev(diffs), 1.0)


def _deck(game: pos.ParlourGame, dseed: int, round_number: int) -> list[int]:
    """The chance outcome ids of a round, in order: the deal, then the stock as drawn."""
    cards = sorted(game.spec.deck.elements())
    random.Random(f"vs-openspiel:{dseed}:{round_number}").shuffle(cards)
    return [game.spec.card_index[c] for c in cards]


def play(game_id: str, dseed: int, ours_seat: int, seconds: float, uct_c: float,
         matches: bool) -> tuple[list[float], list[int], list[int]]:
    """One game from a deal with ours in ``ours_seat``: (returns, our searches' iterations, theirs)."""
    first = random.Random(dseed).randrange(2)
    game = pos.load(game_id, rounds_only=not matches, first=first)
    nrs = np.random.RandomState(dseed % 2**32)
    theirs = TimedISMCTSBot(game, mcts.RandomRolloutEvaluator(1, nrs), uct_c, seconds, nrs)
    ours = ISMCTSBot(seconds=seconds, rollout="heuristic")
    rng = random.Random(f"vs-openspiel-ours:{dseed}:{ours_seat}")
    ours_iterations: list[int] = []
    index = game.spec.space.index
    state = game.new_initial_state()
    round_number, deck = -1, []
    while not state.is_terminal():
        w = state._w
        if state.is_chance_node():
            if w.dealt is not None:
                if not w.dealt:
                    round_number += 1
                    deck = _deck(game, dseed, round_number)
                state.apply_action(deck[len(w.dealt)])
            else:
                state.apply_action(deck[len(game.spec.slots) + w.engine.stock_pos + w.filled])
            continue
        seat = state.current_player()
        if seat == ours_seat:
            engine = state.engine
            legal = engine.legal_moves()
            if len(legal) == 1:
                move = legal[0]
            else:
                estimates = ours.analyse(engine.observation(seat), legal, rng)
                move = estimates[0].move
                ours_iterations.append(sum(e.visits for e in estimates))
            state.apply_action(index[move])
        else:
            state.apply_action(int(theirs.step(state)))
    return state.returns(), ours_iterations, theirs.simulations


def play_deal(game_id: str, seed: int, deal: int, seconds: float, uct_c: float,
              matches: bool) -> list[tuple[int, float, float, list[int], list[int]]]:
    """Both seatings of a deal: (deal, ours' return, ours' points for the result, iterations, simulations)."""
    dseed = deal_seed(seed, deal)
    results = []
    for ours_seat in (0, 1):
        returns, iters, sims = play(game_id, dseed, ours_seat, seconds, uct_c, matches)
        mine = returns[ours_seat]
        points = 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
        results.append((deal, mine, points, iters, sims))
    return results


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(TWO_PLAYER), help="comma-separated two-player game ids")
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per game (each played twice)")
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds per move for each bot")
    parser.add_argument("--jobs", type=int, default=1, help="deals played in parallel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--matches", action="store_true", help="whole matches instead of single rounds")
    args = parser.parse_args(argv)
    chosen = [g.strip() for g in args.games.split(",") if g.strip()]
    for game_id in chosen:
        if game_id not in TWO_PLAYER:
            parser.error(f"{game_id!r} is not a two-player game (choose from {', '.join(TWO_PLAYER)})")
    print(f"ours (parlour IS-MCTS, heuristic rollouts) vs OpenSpiel ISMCTSBot (random rollouts), "
          f"{args.seconds:g} s a move each, {args.deals} duplicate deals, "
          f"{'whole matches' if args.matches else 'single rounds'}, pyspiel {pyspiel.__version__}")
    print(f"{'game':<13} {'games':>5} {'W-D-L':>9} {'ours win rate':>14} {'95% CI':>14} "
          f"{'mean diff':>15} {'uct_c':>6} {'ours it/move':>12} {'OS sims/move':>12}")
    for game_id in chosen:
        uct_c = EXPLORATION * spread(game_id)
        work = [(game_id, args.seed, d, args.seconds, uct_c, args.matches) for d in range(args.deals)]
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                batches = list(pool.map(play_deal, *zip(*work)))
        else:
            batches = [play_deal(*w) for w in work]
        results = [r for batch in batches for r in batch]
        points = sum(r[2] for r in results)
        wins = sum(1 for r in results if r[2] == 1.0)
        draws = sum(1 for r in results if r[2] == 0.5)
        losses = len(results) - wins - draws
        low, high = wilson_interval(points, len(results))
        per_deal: dict[int, list[float]] = {}
        for r in results:
            per_deal.setdefault(r[0], []).append(r[1])
        mean, margin = mean_and_margin([sum(v) / len(v) for v in per_deal.values()])
        ours_it = [n for r in results for n in r[3]]
        their_sims = [n for r in results for n in r[4]]
        print(f"{game_id:<13} {len(results):>5} {f'{wins}-{draws}-{losses}':>9} {points / len(results):>14.1%} "
              f"{f'{low:.0%}–{high:.0%}':>14} {f'{mean:+.1f} ± {margin:.1f}':>15} {uct_c:>6.1f} "
              f"{statistics.mean(ours_it) if ours_it else 0:>12.0f} "
              f"{statistics.mean(their_sims) if their_sims else 0:>12.0f}", flush=True)


if __name__ == "__main__":
    main()
