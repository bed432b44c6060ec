"""Heuristic bots: each game's advice of a sound club player, as code.

Each game's advice is an :class:`Advice` (its module's ``ADVICE``, named by
the game's registry entry): ``choose(observation, legal, rng)`` (the bot),
``rollout(state, rng)`` (the same advice as a fast rollout policy for search:
it reads a sampled state, but only the parts the mover could know), and what
a search needs to cut rollouts short.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour import games
from parlour.bots.base import Bot, Budget
from parlour.cards import Card
from parlour.game import Move, Observation, State


@dataclass(frozen=True)
class Advice:
    """A game's heuristic knowledge, as the heuristic bot plays it and a search takes it."""

    choose: Callable[[Observation, Sequence[Move], random.Random], Move]
    """The advised move for the seat of ``observation``."""
    rollout: Callable[[State, random.Random], Move]
    """The same advice over a sampled state, fast: a rollout policy for search."""
    evaluate: Callable[[State], list[float]] | None = None
    """Each seat's expected round score in a position, to judge a rollout cut short
    (``None``: judge it by the scores so far, right for a game that scores as it goes)."""
    rollout_depth: int | None = None
    """Moves a rollout plays before it is judged (``None``: to the round's end)."""
    starts: Callable[[State, int], int] | None = None
    """How many piles (melds, stacks, vaults; in Twenty, scores) a seat has started this
    round: a round with none scores nothing, so it measures the advice."""
    start: str = "pile"
    """What :attr:`starts` counts, in the game's own word."""
    values: Callable[[Observation, Sequence[Move]], list[float]] | None = None
    """What the advice makes of each legal move, in the order given (the advised move scores
    highest): for a player whose judgement wavers (``heuristic:temperature=T``)."""
    club_temperature: float = 0.0
    """The temperature at which a club player (the ``medium`` level) weighs :attr:`values`
    (0: always the advised move)."""


def advice(game_id: str) -> Advice:
    """``game_id``'s advice, as its registry entry names it."""
    found = games.entry(game_id).load_advice()
    if not isinstance(found, Advice):
        raise TypeError(f"the advice of {game_id!r} is not an Advice: {found!r}")
    return found


def by_suit(hand: Sequence[Card]) -> list[list[Card]]:
    """A hand's cards, one list a suit (C D H S)."""
    suits: list[list[Card]] = [[], [], [], []]
    for card in hand:
        suits[card & 3].append(card)
    return suits


Outlook = Callable[[int, Sequence[Card], Sequence[Card]], float]
"""What a suit's pile (meld or stack) can become with the given cards of that suit in hand:
``outlook(suit, pile, hand)``."""


def best_draw(piles: Sequence[Sequence[Card]], hand: Sequence[Card], tops: dict[str, Card | None],
              legal: Sequence[Move], outlook: Outlook, draw_worth: float,
              scores: list[float] | None = None) -> Move:
    """The advised ``draw`` or ``take S`` in Minus Twenty and Progression: take the top
    card of a pile when it improves its suit's outlook by more than an unknown
    card from the draw pile (``draw_worth``) would.  Each move's score is appended
    to ``scores`` when given."""
    suits = by_suit(hand)
    best, best_score = legal[0], -1e9
    for move in legal:
        if move.verb == "draw":
            score = draw_worth
        else:
            top = tops[move.args[0]]  # type: ignore[index]
            assert top is not None
            suit = top & 3
            score = outlook(suit, piles[suit], [*suits[suit], top]) - outlook(suit, piles[suit], suits[suit])
        if scores is not None:
            scores.append(score)
        if score > best_score:
            best, best_score = move, score
    return best


class HeuristicBot(Bot):
    """Plays each game by its heuristic; ``noise`` is the chance of a random move instead;
    ``temperature`` makes its judgement waver (see :meth:`choose`)."""

    name = "heuristic"

    def __init__(self, noise: float = 0.0, temperature: float | str = 0.0) -> None:
        """``temperature``: 0 plays the advised move; above 0, a move is chosen with chance
        proportional to ``exp(value / temperature)`` over the advice's values (in the
        game's points), so close calls can go either way and bad moves stay rare;
        ``club``: each game's own (:attr:`Advice.club_temperature`, the ``medium`` level)."""
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be between 0 and 1, not {noise}")
        if temperature != "club" and (isinstance(temperature, str) or not temperature >= 0.0):
            raise ValueError(f"temperature must be 0 or more, or 'club', not {temperature!r}")
        self.noise = noise
        self.temperature = temperature

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The game's advice (or, with probability ``noise``, any legal move)."""
        if len(legal) == 1:
            return legal[0]
        if self.noise and rng.random() < self.noise:
            return rng.choice(legal)
        knowledge = advice(observation["game"])
        temperature = knowledge.club_temperature if self.temperature == "club" else float(self.temperature)
        if not temperature:
            return knowledge.choose(observation, legal, rng)
        if knowledge.values is None:
            raise ValueError(f"the advice of {observation['game']!r} gives no move values to weigh at a temperature")
        return softmax_choice(legal, knowledge.values(observation, legal), temperature, rng)

    def probabilities(self, observation: Observation, legal: Sequence[Move]) -> list[float] | None:
        """The chance of each of ``legal`` when :meth:`choose` weighs them at a temperature
        (with ``noise`` mixed in); ``None`` when it plays the advice's one move, which the
        advice may pick with the random numbers it is given (ties)."""
        if len(legal) == 1:
            return [1.0]
        knowledge = advice(observation["game"])
        temperature = knowledge.club_temperature if self.temperature == "club" else float(self.temperature)
        if not temperature or knowledge.values is None:
            return None
        weights = softmax_weights(knowledge.values(observation, legal), temperature)
        total = sum(weights)
        return [(1.0 - self.noise) * w / total + self.noise / len(legal) for w in weights]

    def describe(self) -> str:
        settings = [f"noise {self.noise:g}"] if self.noise else []
        if self.temperature:
            settings.append(f"temperature {self.temperature}")
        return f"{self.name} ({', '.join(settings)})" if settings else self.name


def softmax_weights(values: Sequence[float], temperature: float) -> list[float]:
    """Each value's weight ``exp(value / temperature)``, scaled so that the highest is 1."""
    top = max(values)
    return [math.exp((v - top) / temperature) for v in values]


def softmax_choice(moves: Sequence[Move], values: Sequence[float], temperature: float, rng: random.Random) -> Move:
    """One of ``moves``, each with chance proportional to ``exp(value / temperature)``."""
    top = max(values)
    weights = softmax_weights(values, temperature)
    pick = rng.random() * sum(weights)
    for move, weight in zip(moves, weights):
        pick -= weight
        if pick < 0:
            return move
    return moves[values.index(top)]
