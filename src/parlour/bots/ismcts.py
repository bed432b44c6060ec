"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012),
with sequential halving at the root.

One game-agnostic search over :meth:`~parlour.game.Game.determinize` (by way of
:meth:`~parlour.game.Game.sampler`).  Every simulation samples a full state
consistent with the bot's observation, makes one of the bot's legal moves,
walks that move's tree (one tree over information sets: nodes are move
sequences, shared by every sample in which they are legal), adds one node,
plays on with a rollout policy and backs up every seat's result.  Each node is
judged from the point of view of the seat that made its move, so the search
works for two or three players, each maximising its own result: its round
score minus the mean of the others' round scores.

Two refinements make the most of a small budget:

* **The root's moves are compared on the same samples.**  The budget is
  spent in rounds of *sequential halving* (Karnin, Koren & Somekh 2013, as
  in SHOT and Gumbel MuZero): each round deals fresh samples and plays every
  move still in the running on each of them, with the same rollout seed, then
  keeps the better half.  Comparing moves on common cards cancels most of the
  luck of the sample, so close moves are told apart with far fewer
  simulations.
* **Below the root the tree follows the rollout policy until it learns
  better.**  Selection is PUCT (Rosin 2011; Silver et al. 2017) with the
  policy's move as the prior: a seat plays what the policy advises until the
  statistics show that another move does better for it.  Without the prior,
  the first visits of every node would try moves at random, and a
  one-second search would judge each of its moves against random replies.

Where the game takes part (``GameEntry.inference``), the samples do not guess
the others' hidden cards uniformly: :mod:`parlour.bots.infer` draws them by how
well they explain the moves the others made this round.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import parlour.bots.infer as infer  # a module: tests/test_infer.py replaces its sampler there
from parlour import games
from parlour.bots.base import Bot, Budget, Evaluation, MoveEstimate, RolloutPolicy
from parlour.bots.heuristic import Advice, advice
from parlour.bots.levels import SEARCH_LEVELS, level_iterations
from parlour.game import Move, Observation, State

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = 1.0
"""PUCT's exploration constant below the root, on rewards scaled by their spread."""
DEFAULT_PRIOR = 0.7
"""The prior weight of the rollout policy's move below the root (the other moves share the rest)."""


class Node:
    """A move in the tree, with its statistics from the mover's point of view."""

    __slots__ = ("children", "move", "player", "total", "total_sq", "visits")

    def __init__(self, move: Move | None, player: int | None) -> None:
        self.move = move
        self.player = player
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.total_sq = 0.0

    @property
    def mean(self) -> float:
        """The mover's average result through this node."""
        return self.total / self.visits if self.visits else 0.0


def random_rollout(state: State, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


def round_rewards(scores: Sequence[float]) -> list[float]:
    """Each seat's round score minus the mean of the others' scores."""
    total = sum(scores)
    others = len(scores) - 1
    return [s - (total - s) / others for s in scores]


def halving_rounds(moves: int) -> int:
    """Rounds of sequential halving that bring ``moves`` candidates down to one."""
    return max(1, math.ceil(math.log2(moves))) if moves > 1 else 1


class _Spread:
    """The running spread of the root seat's rewards (Welford), to put them on a unit scale."""

    __slots__ = ("count", "m2", "mean", "scale")

    def __init__(self) -> None:
        self.count, self.mean, self.m2, self.scale = 0, 0.0, 0.0, 10.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (value - self.mean)
        if self.count >= 10:
            self.scale = max(math.sqrt(self.m2 / (self.count - 1)), 1.0)


class ISMCTSBot(Bot):
    """IS-MCTS: sequential halving over the root's moves on common samples, PUCT below."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "random",
        exploration: float | None = None,
        depth: int | None = None,
        level: str | None = None,
        prior: float = DEFAULT_PRIOR,
        infer: int | None = None,
        slip: float | None = None,
    ) -> None:
        """``iterations``: simulations per decision; ``seconds``: a time limit (with
        iterations too, a cap); ``rollout``: ``random`` or ``heuristic``;
        ``exploration``: PUCT's constant below the root; ``depth``: moves per
        rollout (default: the game's own choice, else to the round's end);
        ``level``: take the iterations of that level for each game (see
        ``level_iterations``); ``prior``: the weight of the rollout policy's
        move in the tree (with heuristic rollouts); ``infer``: chain steps a
        decision spends reading the others' hands from their moves this round
        (with heuristic rollouts: their policy is the model of how the others
        play; default: the game's own, ``GameEntry.inference``; 0: off); ``slip``:
        the chance that model gives another player of not making the advised move
        (default :data:`parlour.bots.infer.SLIP`)."""
        if level is not None and level not in SEARCH_LEVELS:
            raise ValueError(f"level must be one of {', '.join(SEARCH_LEVELS)}, not {level!r}")
        self.level = level
        if iterations is None and seconds is None and level is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', not {rollout!r}")
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be between 0 and 1, not {prior}")
        self.budget = Budget(iterations, seconds)
        self.rollout = rollout
        self.exploration = DEFAULT_EXPLORATION if exploration is None else exploration
        self.depth = depth
        self.prior = prior
        if infer is not None and infer < 0:
            raise ValueError(f"infer must be 0 or more, not {infer}")
        self.infer = infer
        if slip is not None and not 0.0 < slip < 1.0:
            raise ValueError(f"slip must be between 0 and 1 (not either), not {slip}")
        self.slip = slip

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The move that wins the sequential halving."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(observation, legal, rng, budget)[0].move

    def analyse(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> list[MoveEstimate]:
        """Search, then every legal move with its estimate: the chosen move first, then
        the others by how long they stayed in the running and by their value."""
        children, order = self._search(observation, legal, rng, budget or self.budget_for(observation["game"]))
        simulations = sum(child.visits for child in children.values())
        estimates = []
        for move in order:
            child = children[move]
            if child.visits == 0:
                estimates.append(MoveEstimate(move, 0.0, math.inf, 0, 0.0))
                continue
            mean = child.mean
            var = max(child.total_sq / child.visits - mean * mean, 0.0)
            margin = 1.96 * math.sqrt(var / child.visits) if child.visits > 1 else math.inf
            estimates.append(MoveEstimate(move, mean, margin, child.visits, child.visits / max(simulations, 1)))
        return estimates

    def budget_for(self, game_id: str) -> Budget:
        """The budget of one decision in ``game_id``."""
        if self.level is None:
            return self.budget
        return Budget(level_iterations(self.level, game_id), self.budget.seconds)

    def describe(self) -> str:
        if self.level is not None:
            return f"{self.name} (IS-MCTS, {self.level} budget, {self.rollout} rollouts)"
        return f"{self.name} (IS-MCTS {self.budget}, {self.rollout} rollouts)"

    def _policy(self, game_id: str) -> tuple[RolloutPolicy, int | None, Evaluation | None]:
        """The rollout policy, how many moves a rollout plays (None: to the round's end),
        and how a rollout cut short is judged.

        The game's :class:`~parlour.bots.heuristic.Advice` (from its registry
        entry) gives a rollout depth and an ``evaluate(state)`` (each seat's
        expected round score): judged that way, short rollouts are far less
        noisy than whole rounds.  Without ``evaluate``, a cut-short rollout is
        judged by the scores so far (right for Twenty, which scores as it goes).
        """
        knowledge: Advice | None
        try:
            knowledge = advice(game_id)
        except ValueError:
            knowledge = None
        depth = self.depth if self.depth is not None else knowledge.rollout_depth if knowledge else None
        evaluate = knowledge.evaluate if knowledge else None
        if self.rollout == "random":
            return random_rollout, depth, evaluate
        if knowledge is None:
            raise ValueError(f"no heuristic rollouts for {game_id!r}")
        return knowledge.rollout, depth, evaluate

    def _search(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget
    ) -> tuple[dict[Move, Node], list[Move]]:
        """Sequential halving over ``legal``: the root's children, and the moves from best to worst."""
        game = games.get(observation["game"])
        policy, depth, evaluate = self._policy(game.id)
        guided = self.rollout != "random"
        seat = observation["seat"]
        steps = games.entry(game.id).inference if self.infer is None else self.infer
        if steps and guided:
            sample = infer.inferred_sampler(game, observation, policy, rng, steps=steps,
                                            slip=infer.SLIP if self.slip is None else self.slip)
        else:
            sample = game.sampler(observation)
        spread = _Spread()
        children = {move: Node(move, seat) for move in legal}
        running = list(legal)
        out: list[Move] = []  # dropped moves, the latest first
        rounds = halving_rounds(len(running))
        start = time.perf_counter()
        for round_number in range(rounds):
            quota = None
            if budget.iterations is not None:
                quota = max(1, budget.iterations // (rounds * len(running)))
            deadline = None
            if budget.seconds is not None:
                deadline = start + budget.seconds * (round_number + 1) / rounds
            samples = 0
            while (quota is None or samples < quota) and (
                    deadline is None or samples == 0 or time.perf_counter() < deadline):
                world = sample(rng)
                seed = rng.getrandbits(64)
                for move in running:
                    self._simulate(world.copy(), children[move], random.Random(seed),
                                   policy, depth, evaluate, guided, spread, seat)
                samples += 1
            running.sort(key=lambda m: -children[m].mean)
            if round_number + 1 < rounds:
                keep = max(1, math.ceil(len(running) / 2))
                out = running[keep:] + out
                running = running[:keep]
        return children, running + out

    def _simulate(self, state: State, node: Node, rng: random.Random, policy: RolloutPolicy,
                  depth: int | None, evaluate: Evaluation | None, guided: bool, spread: _Spread,
                  seat: int) -> None:
        """One simulation: the root move ``node`` in the sampled ``state``, its tree, a rollout, the backup."""
        assert node.move is not None
        state.apply(node.move)
        path = [node]
        c = self.exploration
        while True:
            player = state.current_player()
            if player is None:
                break
            moves = state.legal_moves()
            children = node.children
            if len(moves) == 1:
                chosen = moves[0]
            else:
                chosen = self._select(children, moves, policy(state, rng) if guided else None, c, spread.scale)
            child = children.get(chosen)
            state.apply(chosen)
            if child is None:
                child = children[chosen] = Node(chosen, player)
                path.append(child)
                break
            path.append(child)
            node = child
        left = depth if depth is not None else -1
        current_player, apply = state.current_player, state.apply
        while left != 0 and current_player() is not None:
            apply(policy(state, rng))
            left -= 1
        if evaluate is not None and state.current_player() is not None:
            rewards = round_rewards(evaluate(state))
        else:
            rewards = round_rewards(state.scores)
        for visited in path:
            reward = rewards[visited.player]  # type: ignore[index]
            visited.visits += 1
            visited.total += reward
            visited.total_sq += reward * reward
        spread.add(rewards[seat])

    def _select(self, children: dict[Move, Node], moves: Sequence[Move], advised: Move | None,
                c: float, scale: float) -> Move:
        """PUCT over the moves legal in this sample; an unvisited move counts as the average of the visited ones."""
        visits = 0
        total = 0.0
        found = [children.get(move) for move in moves]  # each move hashed once
        for child in found:
            if child is not None:
                visits += child.visits
                total += child.total
        first_play = total / visits / scale if visits else 0.0
        root = c * math.sqrt(visits + 1)
        if advised is None:
            prior = other = 1.0 / len(moves)
        else:
            prior, other = self.prior, (1.0 - self.prior) / (len(moves) - 1)
        best, best_value = moves[0], -math.inf
        for move, child in zip(moves, found):
            weight = prior if move == advised else other
            if child is None or not child.visits:
                value = first_play + root * weight
            else:
                value = child.total / child.visits / scale + root * weight / (1 + child.visits)
            if value > best_value:
                best, best_value = move, value
        return best
