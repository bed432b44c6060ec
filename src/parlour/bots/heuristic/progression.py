"""Progression, as a sound club player plays it.

* Judge each suit by what it can become: the private stack plus the cards
  in hand that can still go on it in rising order.  A stack scores only
  above 12, and face cards multiply — so commit to suits that can pass 12,
  and never start a suit whose best outcome is negative (a lone face costs
  20).
* Play cards onto a committed suit from the bottom up: never bury a lower
  card of your own under a higher one.
* Feed the public stacks with what nobody needs: when a card must go,
  choose one that does not help the players who draw next (a card above an
  opponent's stack floor in a suit they have started is a gift).
* Draw from a public stack when its top card improves one of your suits by
  more than an unknown card from the draw pile would, on average.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.heuristic import best_draw, by_suit
from parlour.cards import SUITS, Card
from parlour.game import Move, Observation, State
from parlour.games.progression import PLAYERS, VALUE, ProgressionState, stack_score

DRAW_PILE_WORTH = 2.5
"""What an unknown card from the draw pile adds to a hand, on average, in points."""
TEMPO = 1.0
"""What playing a card onto a committed stack now (rather than later) is worth."""
GIFT_WEIGHTS = (1.0, 0.5)
"""How much a card's use to the next player and the one after counts against feeding it."""


def outlook(stack: Sequence[Card], hand: Sequence[Card]) -> int:
    """The best a suit can become: its stack plus the hand's cards that still fit, in rising order.

    An unstarted suit is an option, not a debt: it counts no less than 0.
    """
    floor = max((VALUE[c] for c in stack), default=0)
    fitting = sorted((c for c in hand if VALUE[c] >= floor), key=lambda c: VALUE[c])
    if not stack:
        return max(0, stack_score(fitting)) if fitting else 0
    return stack_score([*stack, *fitting])


def gift(card: Card, others: Sequence[Sequence[Sequence[Card]]]) -> float:
    """How much a card on a public stack would help the next players (nearest first)."""
    suit = card & 3
    value = VALUE[card]
    total = 0.0
    for weight, stacks in zip(GIFT_WEIGHTS, others):
        stack = stacks[suit]
        if not stack:
            continue
        floor = max(VALUE[c] for c in stack)
        if value == 0 and floor == 0:
            total += weight * 4.0  # another multiplier for a stack of faces
        elif value >= floor and value > 0:
            total += weight * value
    return total


def best_play(stacks: Sequence[Sequence[Card]], hand: Sequence[Card],
              others: Sequence[Sequence[Sequence[Card]]], legal: Sequence[Move]) -> Move:
    """The advised ``play`` or ``public`` move (only the card's own suit changes)."""
    suits = by_suit(hand)
    before = [outlook(stacks[s], suits[s]) for s in range(4)]
    best, best_score = legal[0], -1e9
    for move in legal:
        card: Card = move.args[0]  # type: ignore[assignment]
        suit = card & 3
        rest = [c for c in suits[suit] if c != card]
        score: float
        if move.verb == "play":
            after = outlook([*stacks[suit], card], rest)
            score = after - before[suit]
            if after > 0:
                score += TEMPO - VALUE[card] / 20
        else:
            score = outlook(stacks[suit], rest) - before[suit] - gift(card, others)
        if score > best_score:
            best, best_score = move, score
    return best


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    hand = [Card.parse(c) for c in observation["hand"]]
    stacks = [[[Card.parse(c) for c in p[s]] for s in SUITS] for p in observation["private_stacks"]]
    if observation["phase"] == "draw":
        tops = {s: (Card.parse(p[-1]) if p else None) for s, p in observation["public_stacks"].items()}
        return best_draw(stacks[seat], hand, tops, legal, outlook, DRAW_PILE_WORTH)
    others = [stacks[(seat + k) % PLAYERS] for k in range(1, PLAYERS)]
    return best_play(stacks[seat], hand, others, legal)


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, ProgressionState)
    seat = state.to_move
    legal = state.legal_moves()
    hand = state.hands[seat]
    if state.drawing:
        tops = {s: (p[-1] if p else None) for s, p in zip(SUITS, state.public)}
        return best_draw(state.private[seat], hand, tops, legal, outlook, DRAW_PILE_WORTH)
    others = [state.private[(seat + k) % PLAYERS] for k in range(1, PLAYERS)]
    return best_play(state.private[seat], hand, others, legal)


ROLLOUT_DEPTH = 18
"""Search rollouts play three turns of each seat, then :func:`evaluate` judges
the position: a whole round played out by the advice is far noisier."""


def evaluate(state: State) -> list[float]:
    """Each seat's expected round score: the outlook of its stacks with the cards it holds."""
    assert isinstance(state, ProgressionState)
    values = []
    for seat in range(PLAYERS):
        suits = by_suit(state.hands[seat])
        values.append(float(sum(outlook(state.private[seat][s], suits[s]) for s in range(4))))
    return values
