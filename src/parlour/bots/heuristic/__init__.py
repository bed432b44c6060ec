"""Heuristic bots: each game's advice of a sound club player, as code.

The advice for each game lives in ``parlour.bots.heuristic.<module>``, which
offers ``choose(observation, legal, rng)`` (the bot) and
``rollout(state, rng)`` (the same advice as a fast rollout policy for
search: it reads a sampled state, but only the parts the mover could know).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from types import ModuleType

from parlour.bots import Bot, Budget
from parlour.cards import Card
from parlour.game import Move, Observation, State
from parlour.games import module_name


def advice(game_id: str) -> ModuleType:
    """The module holding ``game_id``'s heuristic."""
    try:
        return importlib.import_module(f"parlour.bots.heuristic.{module_name(game_id)}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no heuristic bot for {game_id!r} yet") from None


def rollout_policy(game_id: str) -> Callable[[State, random.Random], Move]:
    """The game's heuristic as a rollout policy over sampled states."""
    policy: Callable[[State, random.Random], Move] = advice(game_id).rollout
    return policy


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
        move: Move = advice(observation["game"]).choose(observation, legal, rng)
        return move

    def describe(self) -> str:
        return f"{self.name} (noise {self.noise:g})" if self.noise else self.name
