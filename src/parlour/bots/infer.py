"""Reading the other players' hands from how they played.

A uniformly random guess at the hidden cards ignores what the other players'
moves say about them: a player who discarded 5♥ early is unlikely to have
held 3♥ and 4♥ beside it.  :func:`inferred_sampler` samples the hidden cards
instead in proportion to how well they explain the moves seen this round,
had every other player followed the game's advice (the same policy the
search plays its rollouts with), slipping to another legal move with chance
``slip``.

The sampling is a Metropolis chain over determinizations.  Its step
exchanges one card hidden in another player's hand with one card of the draw
pile nobody has drawn yet — at the round's start, so that the round's moves
replay unchanged — and keeps the exchange with the usual acceptance
probability.  The moves of the round are replayed on every proposal and the
others' decisions scored against the policy.  Weighting uniform samples
instead (importance sampling) was tried and fails: the true hand explains
the moves some ``e^20`` times better than a typical uniform guess, so a pool
of a few dozen guesses has an effective size of two or three.

The game takes part through its states' stock (:class:`~parlour.games._base.StockPile`):
``hidden_cards(seat)`` (the cards in other hands that ``seat`` cannot tell from
the draw pile's) and ``exchange(a, b)`` (swap two cards' places).  A game
without them is sampled uniformly, and so is one whose registry entry asks for
no inference (``GameEntry.inference``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from parlour.bots.base import RolloutPolicy
from parlour.game import Game, Move, Observation, State
from parlour.games._base import StockPile

SLIP = 0.1
"""The chance the opponent model gives a player of not making the advised move."""
STEPS = 600
"""Chain steps a decision (each replays the round once)."""
BURN_IN = 0.25
"""The share of the steps made before the chain's positions are used."""


def can_infer(state: State) -> bool:
    """Whether the game's states take part in inference (see the module's notes)."""
    return (isinstance(state, StockPile) and type(state).read_from_play
            and type(state).hidden_cards is not StockPile.hidden_cards)


class Chain:
    """The round of one determinization, replayable with other hidden cards.

    The cards ``seat`` cannot place are those in the others' hands at the
    round's start or drawn by them from the draw pile (*theirs*: some shown
    since, when played) and those still in the draw pile (*undrawn*).  A step
    exchanges either a card hidden in another hand now with an undrawn card
    (another hand), or two of theirs (the same hand, the cards coming in at
    other times); an exchange that makes a move impossible (a card played
    before it came in) is refused.
    """

    def __init__(self, world: State, seat: int, policy: RolloutPolicy, slip: float) -> None:
        self.seat = seat
        self.policy = policy
        self.keep = math.log(1.0 - slip)
        self.slip = math.log(slip)
        start = world.copy()
        moves: list[Move] = []
        while start.moves:
            moves.append(start.undo())
        moves.reverse()
        start.deal = None
        self.start = start
        self.moves = moves
        assert isinstance(start, StockPile) and isinstance(world, StockPile)
        mine = set(start.hands[seat])
        replay = start.copy()
        assert isinstance(replay, StockPile)
        for move in moves:
            before = replay.stock_pos
            mover = replay.current_player()
            replay.apply(move)
            if mover == seat:
                mine.update(replay.stock[before:replay.stock_pos])
        self.undrawn = world.stock_left()
        undrawn = set(self.undrawn)
        everything = [c for hand in start.hands for c in hand] + list(start.stock)
        self.theirs = [c for c in everything if c not in mine and c not in undrawn]
        self.held = world.hidden_cards(seat)
        self.world, score = self.replay(start)
        assert score is not None, "the determinization does not replay"
        self.score = score

    def replay(self, start: State) -> tuple[State, float | None]:
        """The round's moves replayed from ``start``: the position reached, and the
        log-chance of the others' decisions under the opponent model (None: the
        moves cannot be made from there)."""
        state = start.copy()
        seat, policy, keep, slip = self.seat, self.policy, self.keep, self.slip
        quiet = random.Random(0)
        total = 0.0
        for move in self.moves:
            player = state.current_player()
            if player != seat:
                legal = state.legal_moves()
                if move not in legal:
                    return state, None
                if len(legal) > 1:
                    total += keep if policy(state, quiet) == move else slip - math.log(len(legal) - 1)
            state.apply(move)
        return state, total

    def step(self, rng: random.Random) -> bool:
        """One Metropolis step; True if the exchange was kept."""
        swap_hand = rng.random() < 0.5
        if swap_hand:
            if not self.held or not self.undrawn:
                return False
            i, j = rng.randrange(len(self.held)), rng.randrange(len(self.undrawn))
            a, b = self.held[i], self.undrawn[j]
        else:
            if len(self.theirs) < 2:
                return False
            a, b = rng.sample(self.theirs, 2)
        start = self.start.copy()
        assert isinstance(start, StockPile)
        start.exchange(a, b)
        world, score = self.replay(start)
        if score is None or (score < self.score and rng.random() >= math.exp(score - self.score)):
            return False
        self.start, self.world, self.score = start, world, score
        if swap_hand:
            self.held[i], self.undrawn[j] = b, a
            self.theirs[self.theirs.index(a)] = b
        return True


def inferred_sampler(
    game: Game, observation: Observation, policy: RolloutPolicy, rng: random.Random,
    steps: int = STEPS, burn_in: float = BURN_IN, slip: float = SLIP,
) -> Callable[[random.Random], State]:
    """Worlds for the search, the others' hidden cards drawn by how well they explain
    the round's moves (a chain of ``steps`` steps, the first ``burn_in`` of them unused); each
    sample shuffles the draw pile's order afresh, as nobody has seen it."""
    seat = observation["seat"]
    world = game.determinize(observation, rng)
    if not can_infer(world) or not world.moves:
        return game.sampler(observation)
    chain = Chain(world, seat, policy, slip)
    worlds: list[State] = []
    for number in range(steps):
        chain.step(rng)
        if number >= steps * burn_in:
            worlds.append(chain.world)
    if not worlds:
        worlds.append(chain.world)
    for kept in worlds:
        kept.deal = None

    def sample(r: random.Random) -> State:
        state = r.choice(worlds).copy()
        assert isinstance(state, StockPile)
        rest = state.stock_left()
        r.shuffle(rest)
        state.stock = state.stock[: state.stock_pos] + rest
        return state

    return sample
