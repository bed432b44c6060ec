"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

One game-agnostic search over :meth:`~parlour.game.Game.determinize` (by way of
:meth:`~parlour.game.Game.sampler`): each
iteration samples a full state consistent with the bot's observation, walks
the tree by UCB over the moves available in that sample (counting
availability, so moves that are often unavailable are not under-explored),
adds one node, plays the round out with a rollout policy and backs up every
seat's result.  Each node is judged from the point of view of the seat that
made its move, so it works for two or three players, each maximising its
own result: the round score minus the mean of the others' round scores.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from parlour import games
from parlour.bots import Bot, Budget, MoveEstimate
from parlour.game import Move, Observation, State

RolloutPolicy = Callable[[State, random.Random], Move]
Evaluation = Callable[[State], Sequence[float]]

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = 0.7
"""UCB's exploration constant, on rewards scaled by their spread."""


class Node:
    """A move in the tree, with its statistics from the mover's point of view."""

    __slots__ = ("avail", "children", "move", "player", "total", "total_sq", "visits")

    def __init__(self, move: Move | None, player: int | None) -> None:
        self.move = move
        self.player = player
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.total_sq = 0.0


def random_rollout(state: State, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


def round_rewards(scores: Sequence[float]) -> list[float]:
    """Each seat's round score minus the mean of the others' scores."""
    total = sum(scores)
    others = len(scores) - 1
    return [s - (total - s) / others for s in scores]


class ISMCTSBot(Bot):
    """Single-observer IS-MCTS with UCB selection and policy rollouts."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "random",
        exploration: float | None = None,
        depth: int | None = None,
        level: str | None = None,
    ) -> None:
        """``depth``: moves per rollout (default: the game's own choice, else to the round's end);
        ``level``: take the iterations of that level for each game (see ``LEVEL_ITERATIONS``)."""
        from parlour.bots import LEVEL_ITERATIONS

        if level is not None and level not in LEVEL_ITERATIONS:
            raise ValueError(f"level must be one of {', '.join(LEVEL_ITERATIONS)}, not {level!r}")
        self.level = level
        if iterations is None and seconds is None and level is None:
            iterations = DEFAULT_ITERATIONS
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', not {rollout!r}")
        self.budget = Budget(iterations, seconds)
        self.rollout = rollout
        self.exploration = exploration
        self.depth = depth

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The most visited move after the search."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(observation, legal, rng, budget)[0].move

    def analyse(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> list[MoveEstimate]:
        """Search, then every legal move with its estimate, most visited first."""
        root = self._search(observation, legal, rng, budget or self.budget_for(observation["game"]))
        estimates = []
        for move in legal:
            child = root.children.get(move)
            if child is None or child.visits == 0:
                estimates.append(MoveEstimate(move, 0.0, math.inf, 0, 0.0))
                continue
            mean = child.total / child.visits
            var = max(child.total_sq / child.visits - mean * mean, 0.0)
            margin = 1.96 * math.sqrt(var / child.visits) if child.visits > 1 else math.inf
            estimates.append(MoveEstimate(move, mean, margin, child.visits, child.visits / max(root.visits, 1)))
        estimates.sort(key=lambda e: (-e.visits, -e.value, str(e.move)))
        return estimates

    def budget_for(self, game_id: str) -> Budget:
        """The budget of one decision in ``game_id``."""
        if self.level is None:
            return self.budget
        from parlour.bots import LEVEL_ITERATIONS

        table = LEVEL_ITERATIONS[self.level]
        return Budget(table.get(game_id, DEFAULT_ITERATIONS), self.budget.seconds)

    def describe(self) -> str:
        if self.level is not None:
            return f"{self.name} (IS-MCTS, {self.level} budget, {self.rollout} rollouts)"
        return f"{self.name} (IS-MCTS {self.budget}, {self.rollout} rollouts)"

    def _exploration(self, game_id: str) -> float:
        """The UCB exploration constant: as given, else the game's ``EXPLORATION``, else 0.7."""
        if self.exploration is not None:
            return self.exploration
        from parlour.bots.heuristic import advice

        try:
            return float(getattr(advice(game_id), "EXPLORATION", DEFAULT_EXPLORATION))
        except ValueError:
            return DEFAULT_EXPLORATION

    def _policy(self, game_id: str) -> tuple[RolloutPolicy, int | None, Evaluation | None]:
        """The rollout policy, how many moves a rollout plays (None: to the round's end),
        and how a rollout cut short is judged.

        A game's heuristic module may name a ``ROLLOUT_DEPTH`` and an
        ``evaluate(state)`` (each seat's expected round score): judged that
        way, short rollouts are far less noisy than whole rounds.  Without
        ``evaluate``, a cut-short rollout is judged by the scores so far
        (right for Twenty, which scores as it goes).
        """
        from parlour.bots.heuristic import advice

        try:
            knowledge = advice(game_id)
        except ValueError:
            knowledge = None
        depth = self.depth if self.depth is not None else getattr(knowledge, "ROLLOUT_DEPTH", None)
        evaluate: Evaluation | None = getattr(knowledge, "evaluate", None)
        if self.rollout == "random":
            return random_rollout, depth, evaluate
        if knowledge is None:
            raise ValueError(f"no heuristic rollouts for {game_id!r}")
        policy: RolloutPolicy = knowledge.rollout
        return policy, depth, evaluate

    def _search(self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget) -> Node:
        game = games.get(observation["game"])
        policy, depth, evaluate = self._policy(game.id)
        seat = observation["seat"]
        root = Node(None, None)
        allowed = set(legal)
        iterations = budget.iterations
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
        c = self._exploration(game.id)
        sample = game.sampler(observation)
        # Rewards are in points; UCB needs them on a unit scale: track their spread.
        count, mean, m2 = 0, 0.0, 0.0
        scale = 10.0
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline and done > 0:
                break
            done += 1
            state = sample(rng)
            node = root
            path = [root]
            while True:
                player = state.current_player()
                if player is None:
                    break
                moves = state.legal_moves() if node is not root else [m for m in state.legal_moves() if m in allowed]
                children = node.children
                untried = [m for m in moves if m not in children]
                for m in moves:
                    child = children.get(m)
                    if child is not None:
                        child.avail += 1
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = Node(move, player)
                    children[move] = child
                    state.apply(move)
                    path.append(child)
                    break
                best: Node | None = None
                best_value = -math.inf
                for m in moves:
                    child = children[m]
                    value = child.total / child.visits / scale + c * math.sqrt(math.log(child.avail) / child.visits)
                    if value > best_value:
                        best, best_value = child, value
                assert best is not None and best.move is not None
                state.apply(best.move)
                path.append(best)
                node = best
            left = depth if depth is not None else -1
            while left != 0 and state.current_player() is not None:
                state.apply(policy(state, rng))
                left -= 1
            if evaluate is not None and state.current_player() is not None:
                rewards = round_rewards(evaluate(state))
            else:
                rewards = round_rewards(state.scores)
            for visited in path[1:]:
                reward = rewards[visited.player]  # type: ignore[index]
                visited.visits += 1
                visited.total += reward
                visited.total_sq += reward * reward
            root.visits += 1
            mine = rewards[seat]
            count += 1
            delta = mine - mean
            mean += delta / count
            m2 += delta * (mine - mean)
            if count >= 10:
                scale = max(math.sqrt(m2 / (count - 1)), 1.0)
        return root
