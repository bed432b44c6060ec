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

**Batched rollouts** (``leaf=K``, issue 36): for every sample, the tree is walked for each
root move still in the running first, then all the leaves reached are handed to a rollout
plug-in (:class:`LeafRollouts`, from :func:`parlour.batch.rollout.leaf_rollouts`) in one call,
which rolls each leaf out ``K`` times, each time with the cards the searching seat cannot see
dealt afresh, and gives back each leaf's average: a far less noisy value, so the search needs
fewer trips through its Python tree.  Its budget counts rollouts: ``iterations=1850,leaf=8``
walks the tree 231 times, each leaf rolled out 8 times.  Where numba is installed and the game has a compiled
plug-in, the rollouts are compiled; elsewhere the plug-in plays the very same rollouts on the
rules engine, so the decisions are the same either way.  The levels search so in a game
whose registry entry says so (``GameEntry.leaf``: Minus Twenty, Progression and 100 Silver Bars,
where the compiled rollouts make ``hard`` about twelve times faster at the same strength;
``docs/strength-batched.md``).

Where the game takes part (``GameEntry.inference``), the samples do not guess
the others' hidden cards uniformly: :mod:`parlour.bots.infer` draws them by how
well they explain the moves the others made this round.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Protocol

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


class LeafRollouts(Protocol):
    """A rollout plug-in of the batched search: a game's rollouts, many leaves in one call
    (see :mod:`parlour.batch.rollout`, which makes them)."""

    compiled: bool
    """Whether the rollouts run compiled (the results are the same either way)."""

    def run(self, leaves: Sequence[State], seat: int, seed: int, count: int,
            depth: int | None) -> list[list[float]]:
        """Each leaf's round scores by seat, averaged over ``count`` rollouts, each on the leaf
        with the cards ``seat`` cannot see dealt afresh from the stream of ``(seed, leaf's
        index, rollout's index)``, played for ``depth`` moves (None: to the round's end) and
        judged by the game's evaluation if the round goes on."""


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
        leaf: int | None = None,
        rollouts: LeafRollouts | None = None,
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
        (default :data:`parlour.bots.infer.SLIP`); ``leaf``: search in batches, each leaf
        rolled out this many times on fresh deals of the hidden cards (with heuristic
        rollouts; see the module's notes; ``iterations`` then count rollouts, so a
        simulation spends ``leaf`` of them; 0: one rollout a simulation; default: at a search
        ``level``, the game's own, ``GameEntry.leaf``, where its batched rollouts pay);
        ``rollouts``: the plug-in that rolls them out (default:
        :func:`parlour.batch.rollout.leaf_rollouts`, compiled where it can be)."""
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
        if leaf is not None and leaf < 0:
            raise ValueError(f"leaf must be 0 (no batches) or more, not {leaf}")
        if leaf and rollout != "heuristic":
            raise ValueError("leaf rollouts play the game's advice: they need rollout=heuristic")
        self.leaf = leaf
        self.rollouts = rollouts

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

    def leaf_for(self, game_id: str) -> int | None:
        """How many times a leaf is rolled out in ``game_id`` (None: one rollout a simulation,
        unbatched): ``leaf`` if given, else, at a search level with heuristic rollouts, the
        game's own (``GameEntry.leaf``), where its batched rollouts pay."""
        if self.leaf is not None or self.level is None or self.rollout != "heuristic":
            return self.leaf or None
        return games.entry(game_id).leaf or None

    def describe(self) -> str:
        rollouts = f"{self.rollout} rollouts" + (f", {self.leaf} a leaf" if self.leaf else "")
        if self.level is not None:
            return f"{self.name} (IS-MCTS, {self.level} budget, {rollouts})"
        return f"{self.name} (IS-MCTS {self.budget}, {rollouts})"

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
        leaf = self.leaf_for(game.id)
        plugin = self._plugin(game.id) if leaf else None
        children = {move: Node(move, seat) for move in legal}
        running = list(legal)
        out: list[Move] = []  # dropped moves, the latest first
        rounds = halving_rounds(len(running))
        start = time.perf_counter()
        for round_number in range(rounds):
            quota = None
            if budget.iterations is not None:  # batched, iterations count rollouts: leaf a simulation
                quota = max(1, budget.iterations // ((leaf or 1) * rounds * len(running)))
            deadline = None
            if budget.seconds is not None:
                deadline = start + budget.seconds * (round_number + 1) / rounds
            samples = 0
            while (quota is None or samples < quota) and (
                    deadline is None or samples == 0 or time.perf_counter() < deadline):
                world = sample(rng)
                seed = rng.getrandbits(64)
                if plugin is not None:
                    self._simulate_batch(world, [children[move] for move in running], seed, policy, depth, plugin,
                                         spread, seat, leaf or 1)
                else:
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

    def _plugin(self, game_id: str) -> LeafRollouts:
        """The batched search's rollout plug-in for ``game_id``."""
        if self.rollouts is not None:
            return self.rollouts
        from parlour.batch.rollout import leaf_rollouts  # no numba here: it imports the compiled plug-in only

        plugin: LeafRollouts = leaf_rollouts(game_id, advice(game_id))
        return plugin

    def _simulate_batch(self, world: State, nodes: Sequence[Node], seed: int, policy: RolloutPolicy,
                        depth: int | None, plugin: LeafRollouts, spread: _Spread, seat: int, leaf: int) -> None:
        """One simulation of each root move of ``nodes`` in the sampled ``world``: their trees
        walked in turn, their leaves rolled out together (``leaf`` times each), the backups
        in turn."""
        leaves = []
        paths = []
        for node in nodes:
            state = world.copy()
            paths.append(self._descend(state, node, random.Random(seed), policy, True, spread.scale))
            leaves.append(state)
        for path, scores in zip(paths, plugin.run(leaves, seat, seed, leaf, depth)):
            self._backup(path, round_rewards(scores), spread, seat)

    def _simulate(self, state: State, node: Node, rng: random.Random, policy: RolloutPolicy,
                  depth: int | None, evaluate: Evaluation | None, guided: bool, spread: _Spread,
                  seat: int) -> None:
        """One simulation: the root move ``node`` in the sampled ``state``, its tree, a rollout, the backup."""
        path = self._descend(state, node, rng, policy, guided, spread.scale)
        left = depth if depth is not None else -1
        current_player, apply = state.current_player, state.apply
        while left != 0 and current_player() is not None:
            apply(policy(state, rng))
            left -= 1
        if evaluate is not None and state.current_player() is not None:
            rewards = round_rewards(evaluate(state))
        else:
            rewards = round_rewards(state.scores)
        self._backup(path, rewards, spread, seat)

    def _descend(self, state: State, node: Node, rng: random.Random, policy: RolloutPolicy, guided: bool,
                 scale: float) -> list[Node]:
        """The root move ``node`` in the sampled ``state``, then down its tree by PUCT to one
        new node (or the round's end): the nodes passed through, ``state`` left at the leaf."""
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
                chosen = self._select(children, moves, policy(state, rng) if guided else None, c, scale)
            child = children.get(chosen)
            state.apply(chosen)
            if child is None:
                child = children[chosen] = Node(chosen, player)
                path.append(child)
                break
            path.append(child)
            node = child
        return path

    @staticmethod
    def _backup(path: Sequence[Node], rewards: Sequence[float], spread: _Spread, seat: int) -> None:
        """Each node of ``path`` takes its mover's reward; the spread takes ``seat``'s."""
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
