"""Heuristic bots: each game's advice of a sound club player, as code.

Each game's advice is an :class:`Advice` (its module's ``ADVICE``, named by
the game's registry entry): ``choose(observation, legal, rng)`` (the bot),
``rollout(state, rng)`` (the same advice as a fast rollout policy for search:
it reads a sampled state, but only the parts the mover could know), and what
a search needs to cut rollouts short.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour import games
from parlour.bots import Bot, Budget
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
              legal: Sequence[Move], outlook: Outlook, draw_worth: float) -> Move:
    """The advised ``draw`` or ``take S`` in Minus Twenty and Progression: take the top
    card of a pile when it improves its suit's outlook by more than an unknown
    card from the draw pile (``draw_worth``) would."""
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
        if score > best_score:
            best, best_score = move, score
    return best


class HeuristicBot(Bot):
    """Plays each game by its heuristic; ``noise`` is the chance of a random move instead."""

    name = "heuristic"

    def __init__(self, noise: float = 0.0) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be between 0 and 1, not {noise}")
        self.noise = noise

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The game's advice (or, with probability ``noise``, any legal move)."""
        if len(legal) == 1:
            return legal[0]
        if self.noise and rng.random() < self.noise:
            return rng.choice(legal)
        return advice(observation["game"]).choose(observation, legal, rng)

    def describe(self) -> str:
        return f"{self.name} (noise {self.noise:g})" if self.noise else self.name
