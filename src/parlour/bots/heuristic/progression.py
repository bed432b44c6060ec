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
* Count the turns left (the draw pile divided by three): a card you will
  never get to play is worth nothing, and a stack that cannot pass 12 in
  the turns you have left scores nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.heuristic import Advice, best_draw, by_suit
from parlour.cards import SUITS, Card
from parlour.game import Move, Observation, State
from parlour.games.progression import (
    FACE_PENALTY,
    PLAYERS,
    THRESHOLD,
    VALUE,
    ProgressionState,
    stack_score,
)

DRAW_PILE_WORTH = 2.5
"""What an unknown card from the draw pile adds to a hand, on average, in points."""
TEMPO = 1.0
"""What playing a card onto a committed stack now (rather than later) is worth."""
GIFT_WEIGHTS = (1.0, 0.5)
"""How much a card's use to the next player and the one after counts against feeding it."""


Summary = tuple[int, int, int, int]
"""A stack in figures: (its floor, the total of its numbers, its face cards, its cards)."""


def summary(stack: Sequence[Card]) -> Summary:
    """A stack in figures, which is all its outlook needs."""
    floor = total = faces = 0
    for card in stack:
        value = VALUE[card]
        total += value
        if value > floor:
            floor = value
        elif value == 0:
            faces += 1
    return floor, total, faces, len(stack)


def outlook(suit: int, stack: Sequence[Card], hand: Sequence[Card]) -> int:
    """The best a suit can become: its stack plus the hand's cards that still fit, in rising order.

    An unstarted suit is an option, not a debt: it counts no less than 0.
    """
    return outlook_of(summary(stack), hand)


def outlook_of(stack: Summary, hand: Sequence[Card]) -> int:
    """:func:`outlook` of a stack given in figures."""
    floor, total, faces, count = stack
    for card in hand:
        value = VALUE[card]
        if value >= floor:
            total += value
            faces += value == 0
    if total == 0:
        score = -FACE_PENALTY * (faces + 1) if faces else 0
    else:
        score = (total - THRESHOLD) * (faces + 1) if total > THRESHOLD else 0
    return score if count or score > 0 else 0


def gift(card: Card, others: Sequence[Sequence[Sequence[Card]]]) -> float:
    """How much a card on a public stack would help the next players (nearest first)."""
    return gift_to(card, [summary(stacks[card & 3]) for stacks in others])


def gift_to(card: Card, stacks: Sequence[Summary]) -> float:
    """:func:`gift`, given the next players' stacks of the card's suit in figures."""
    value = VALUE[card]
    total = 0.0
    for weight, stack in zip(GIFT_WEIGHTS, stacks):
        if not stack[3]:
            continue
        floor = stack[0]
        if value == 0 and floor == 0:
            total += weight * 4.0  # another multiplier for a stack of faces
        elif value >= floor and value > 0:
            total += weight * value
    return total


def best_play(stacks: Sequence[Sequence[Card]], hand: Sequence[Card],
              others: Sequence[Sequence[Sequence[Card]]], legal: Sequence[Move]) -> Move:
    """The advised ``play`` or ``public`` move (only the card's own suit changes)."""
    suits = by_suit(hand)
    mine = [summary(stack) for stack in stacks]
    before = [outlook_of(mine[s], suits[s]) for s in range(4)]
    theirs: dict[int, list[Summary]] = {}
    best, best_score = legal[0], -1e9
    last: Card | None = None
    rest: list[Card] = []
    for move in legal:
        card: Card = move.args[0]  # type: ignore[assignment]
        suit = card & 3
        if card is not last:  # a card's two moves come together
            rest = [c for c in suits[suit] if c != card]
            last = card
        score: float
        if move.verb == "play":
            floor, total, faces, count = mine[suit]
            value = VALUE[card]
            after = outlook_of((max(floor, value), total + value, faces + (value == 0), count + 1), rest)
            score = after - before[suit]
            if after > 0:
                score += TEMPO - value / 20
        else:
            next_stacks = theirs.get(suit)
            if next_stacks is None:
                next_stacks = theirs[suit] = [summary(p[suit]) for p in others]
            score = outlook_of(mine[suit], rest) - before[suit] - gift_to(card, next_stacks)
        if score > best_score:
            best, best_score = move, score
    return best


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    hand = [Card.parse(c) for c in observation["hand"]]
    stacks = [[[Card.parse(c) for c in p[s]] for s in SUITS] for p in observation["private_stacks"]]
    if observation["step"] == "draw":
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


FUTURE_WEIGHT = 1.0
"""How much of what the draw pile still holds for your started stacks to count."""


def plays_left(state: ProgressionState) -> tuple[list[int], list[int]]:
    """Cards each seat can still play, and how many of its draws come in time to be played.

    Count the turns: each turn takes one card from the draw pile and the
    round ends with the last one, so with 9 cards left each of you plays
    three more cards, whatever your hand holds (taking from a public stack
    only buys time).
    """
    stock = len(state.stock) - state.stock_pos
    mover = state.to_move
    start = 1 if state.drawing else 0
    plays = [0] * PLAYERS
    for turn in range(start, stock):
        plays[(mover + turn) % PLAYERS] += 1
    usable = [max(n - 1, 0) for n in plays]
    if state.drawing:
        usable[mover] = plays[mover]
    return plays, usable


def _capped(total: float, faces: int) -> float:
    """A stack's score for a total that may be a fraction (an expectation)."""
    return max(total - THRESHOLD, 0.0) * (faces + 1)


def prospects(stack: Sequence[Card], hand: Sequence[Card], limit: int) -> list[tuple[int, int, int]]:
    """The best a suit can become with at most ``j`` of the hand's fitting cards played, for each ``j``:
    (score, total, faces).

    Short of time, play the big cards: with two turns left, a 9 and a 10 are
    worth more than a 2, 3 and 4 you will never reach.
    """
    total = sum(VALUE[c] for c in stack)
    faces = sum(1 for c in stack if VALUE[c] == 0)
    floor = max((VALUE[c] for c in stack), default=0)
    cards = [c for c in hand if VALUE[c] >= floor]
    spare_faces = sum(1 for c in cards if VALUE[c] == 0)
    numbers = sorted((VALUE[c] for c in cards if VALUE[c]), reverse=True)
    now = stack_score(stack) if stack else 0
    best = [(now, total, faces)]
    for j in range(1, min(len(cards), limit) + 1):
        top = best[-1]
        for i in range(min(spare_faces, j) + 1):
            n = j - i
            if n > len(numbers):
                continue
            t, f = total + sum(numbers[:n]), faces + i
            if t == 0:
                score = -FACE_PENALTY * (f + 1)
            else:
                score = max(t - THRESHOLD, 0) * (f + 1)
            if score > top[0]:
                top = (score, t, f)
        best.append(top)
    return best


def _plan(options: Sequence[Sequence[tuple[int, int, int]]], limit: int) -> tuple[int, int, list[int]]:
    """The best score of all suits with at most ``limit`` cards played: (score, cards, cards per suit)."""
    firsts = []
    for option in options:
        best = option[-1][0]
        firsts.append(next(j for j, o in enumerate(option) if o[0] == best))
    if sum(firsts) <= limit:  # time enough for every good card
        return sum(o[-1][0] for o in options), sum(firsts), firsts
    table: list[tuple[int, list[int]]] = [(0, [])]
    for option in options:
        merged: list[tuple[int, list[int]]] = []
        for a, (base, counts) in enumerate(table):
            for j in range(min(len(option), limit + 1 - a)):
                k = a + j
                if k == len(merged):
                    merged.append((base + option[j][0], [*counts, j]))
                elif base + option[j][0] > merged[k][0]:
                    merged[k] = (base + option[j][0], [*counts, j])
        table = merged
    cards = max(range(len(table)), key=lambda k: table[k][0])
    return table[cards][0], cards, table[cards][1]


def evaluate(state: State) -> list[float]:
    """Each seat's expected round score, counting the turns left.

    * Only as many cards as you have turns left can still be played: pick
      the best of them, suit by suit; the rest of your hand is worth nothing.
    * A stack you have started gains from the higher cards of its suit still
      in the draw pile, each as likely to reach you in time as your turns
      allow; they count only above the 12 the stack must pass.
    """
    assert isinstance(state, ProgressionState)
    plays, usable = plays_left(state)
    stock = state.stock[state.stock_pos:]
    values = []
    for seat in range(PLAYERS):
        stacks = state.private[seat]
        suits = by_suit(state.hands[seat])
        limit = plays[seat]
        options = [prospects(stacks[s], suits[s], limit) for s in range(4)]
        best, cards, counts = _plan(options, limit)
        value = float(best)
        spare = limit - cards
        if stock and usable[seat] and spare > 0 and FUTURE_WEIGHT:
            chance = usable[seat] / len(stock)
            floors = state.floors[seat]
            pips = [0.0, 0.0, 0.0, 0.0]
            expected = 0.0
            for card in stock:
                suit = card & 3
                if VALUE[card] >= floors[suit] and VALUE[card] and stacks[suit]:
                    pips[suit] += VALUE[card]
                    expected += 1
            expected *= chance
            share = FUTURE_WEIGHT * chance * min(1.0, spare / expected) if expected else 0.0
            for s in range(4):
                if pips[s]:
                    _, total, faces = options[s][counts[s]]
                    value += _capped(total + share * pips[s], faces) - _capped(total, faces)
        values.append(value)
    return values


START = "stack"
"""What :func:`starts` counts, in the game's own word."""


def starts(state: State, seat: int) -> int:
    """How many private stacks ``seat`` has started this round (a measure of the advice)."""
    assert isinstance(state, ProgressionState)
    return sum(1 for stack in state.private[seat] if stack)


ADVICE = Advice(choose=choose, rollout=rollout, evaluate=evaluate, rollout_depth=ROLLOUT_DEPTH,
                starts=starts, start=START)
"""This game's advice, as its registry entry names it."""
