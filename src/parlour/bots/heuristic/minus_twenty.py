"""Minus Twenty, as a sound club player plays it (Lost Cities advice).

* Judge each suit by what its meld can become: the meld plus the cards in
  hand that can still go on it in rising order.  A meld starts 20 points in
  debt, so start one only with enough points behind it, and invest (J, Q, K)
  only in a strong suit: an investment multiplies losses as well as gains.
* Play a suit from the bottom up: never skip past your own lower cards.
* Never discard what the opponent's melds need: a number above the top of
  an opponent's meld of that suit is a gift, and so is an investment card
  for a suit they have invested in but not yet numbered.
* Take from a discard pile when the card helps one of your suits more than
  an unknown card from the draw pile would, on average.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.heuristic import Advice, best_draw, by_suit
from parlour.cards import SUITS, Card
from parlour.game import Move, Observation, State
from parlour.games.minus_twenty import BONUS, BONUS_CARDS, MINUS, VALUE, MinusTwentyState

START_POINTS = 18
"""A new meld needs at least this many points of its suit in hand (a number card)."""
INVEST_POINTS = 26
"""An investment card needs at least this many points of its suit in hand."""
DRAW_PILE_WORTH = 1.5
"""What an unknown card from the draw pile adds to a hand, on average."""
TEMPO = 1.0
"""What playing onto a promising meld now (rather than later) is worth."""


def fitting(meld: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
    """The hand's cards (of the meld's suit) that can still go on the meld, in playing order."""
    top = max((VALUE[c] for c in meld), default=0)
    numbers = sorted((c for c in hand if VALUE[c] > top), key=lambda c: VALUE[c])
    if top:
        return numbers
    return [c for c in hand if VALUE[c] == 0] + numbers


Summary = tuple[int, int, int, int]
"""A meld in figures: (sum of its numbers, investment cards, cards, top number)."""


def summary(meld: Sequence[Card]) -> Summary:
    """A meld in figures, which is all its outlook needs."""
    numbers = investments = top = 0
    for card in meld:
        value = VALUE[card]
        if value:
            numbers += value
            if value > top:
                top = value
        else:
            investments += 1
    return numbers, investments, len(meld), top


def outlook_of(meld: Summary, hand: Sequence[Card]) -> int:
    """:func:`outlook` of a meld given in figures: the same advice, quicker."""
    numbers, investments, count, top = meld
    for card in hand:
        value = VALUE[card]
        if value > top:
            numbers += value
            count += 1
        elif not value and not top:
            investments += 1
            count += 1
    if not meld[2]:
        if numbers < (INVEST_POINTS if investments else START_POINTS):
            return 0
        score = (numbers - MINUS) * (1 + investments) + (BONUS if count >= BONUS_CARDS else 0)
        return score if score > 0 else 0
    return (numbers - MINUS) * (1 + investments) + (BONUS if count >= BONUS_CARDS else 0)


def outlook(meld: Sequence[Card], hand: Sequence[Card]) -> int:
    """The best a suit's meld can become with the cards in hand; an unstarted suit counts at least 0."""
    return outlook_of(summary(meld), hand)


def gift(card: Card, theirs: Sequence[Sequence[Card]]) -> float:
    """How much a discarded card would help the opponent's melds."""
    return gift_to(card, summary(theirs[card & 3]))


def gift_to(card: Card, meld: Summary) -> float:
    """:func:`gift` to an opponent's meld given in figures."""
    if not meld[2]:
        return 0.5
    top = meld[3]
    value = VALUE[card]
    if value == 0:
        return 4.0 if top == 0 else 0.0
    return float(value) if value > top else 0.0


def best_play(mine: Sequence[Sequence[Card]], theirs: Sequence[Sequence[Card]], hand: Sequence[Card],
              legal: Sequence[Move]) -> Move:
    """The advised ``play`` or ``discard`` move (only the card's own suit changes)."""
    suits = by_suit(hand)
    melds = [summary(m) for m in mine]
    before = [outlook_of(melds[s], suits[s]) for s in range(4)]
    best, best_score = legal[0], -1e9
    last: Card | None = None
    rest: list[Card] = []
    for move in legal:
        card: Card = move.args[0]  # type: ignore[assignment]
        suit = card & 3
        if card is not last:  # a card's play and discard come together
            rest = [c for c in suits[suit] if c != card]
            last = card
        score: float
        if move.verb == "play":
            numbers, investments, count, top = melds[suit]
            value = VALUE[card]
            after = outlook_of((numbers + value, investments + (not value), count + 1, max(top, value)), rest)
            score = after - before[suit]
            if after > -20:
                score += TEMPO - value / 40
        else:
            score = outlook_of(melds[suit], rest) - before[suit] - gift_to(card, summary(theirs[suit]))
        if score > best_score:
            best, best_score = move, score
    return best


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    hand = [Card.parse(c) for c in observation["hand"]]
    melds = [[[Card.parse(c) for c in m[s]] for s in SUITS] for m in observation["melds"]]
    if observation["step"] == "draw":
        tops = {s: (Card.parse(p[-1]) if p else None) for s, p in observation["discard_piles"].items()}
        return best_draw(melds[seat], hand, tops, legal, outlook, DRAW_PILE_WORTH)
    return best_play(melds[seat], melds[1 - seat], hand, legal)


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, MinusTwentyState)
    seat = state.to_move
    legal = state.legal_moves()
    if state.drawing:
        tops = {s: (p[-1] if p else None) for s, p in zip(SUITS, state.discard_piles)}
        return best_draw(state.melds[seat], state.hands[seat], tops, legal, outlook, DRAW_PILE_WORTH)
    return best_play(state.melds[seat], state.melds[1 - seat], state.hands[seat], legal)


ROLLOUT_DEPTH = 12
"""Search rollouts play six turns, then :func:`evaluate` judges the position:
a whole round played out by the advice is far noisier than its outlook."""


FUTURE_WEIGHT = 1.0
"""How much of what the draw pile still holds for your melds to count: the
higher cards of a started suit will come to you about as often as your
turns allow."""


def plays_left(state: MinusTwentyState) -> tuple[list[int], list[int]]:
    """Cards each seat can still put down, and how many of its draws come in time to be put down.

    Count your turns: the round ends with the last card of the draw pile, so
    with 10 cards left you play five more cards, whatever your hand holds
    (taking from a discard pile only buys time).
    """
    stock = len(state.stock) - state.stock_pos
    mover = state.to_move
    plays = [0, 0]
    usable = [0, 0]
    if state.drawing:
        plays[mover], plays[1 - mover] = (stock - 1) // 2, stock // 2
        usable[mover], usable[1 - mover] = plays[mover], max(plays[1 - mover] - 1, 0)
    else:
        plays[mover], plays[1 - mover] = (stock + 1) // 2, stock // 2
        usable[mover], usable[1 - mover] = max(plays[mover] - 1, 0), max(plays[1 - mover] - 1, 0)
    return plays, usable


def prospects(meld: Sequence[Card], hand: Sequence[Card], limit: int) -> list[int]:
    """What a suit's meld scores with the best ``j`` of the hand's fitting cards put down, for each ``j``.

    Put down the high cards first when time is short: with two turns left,
    9 and 10 are worth more than 2, 3 and 4 that you will never reach.
    """
    return prospects_of(summary(meld), hand, limit)


def prospects_of(meld: Summary, hand: Sequence[Card], limit: int) -> list[int]:
    """:func:`prospects` of a meld given in figures."""
    numbers, investments, count, top = meld
    values = sorted((VALUE[c] for c in hand if VALUE[c] > top), reverse=True)
    extra_investments = 0 if top else sum(1 for c in hand if not VALUE[c])
    best = [((numbers - MINUS) * (1 + investments) + (BONUS if count >= BONUS_CARDS else 0)) if count else 0]
    sums = [numbers]
    for value in values:
        sums.append(sums[-1] + value)
    for j in range(1, min(len(values) + extra_investments, limit) + 1):
        top_score = -10**9
        for i in range(min(extra_investments, j) + 1):
            n = j - i
            if n >= len(sums):
                continue
            score = (sums[n] - MINUS) * (1 + investments + i)
            if count + j >= BONUS_CARDS:
                score += BONUS
            if score > top_score:
                top_score = score
        best.append(max(top_score, best[-1]))  # you need not put down every card you could
    return best


def evaluate(state: State) -> list[float]:
    """Each seat's expected round score, counting the turns left.

    * Only as many cards as you have turns left can still go down: pick the
      best of them, suit by suit; the rest of your hand is worth nothing.
    * A meld you have started is worth what it scores now plus its best cards
      in hand, and each higher card of its suit still in the draw pile is
      worth its pips times the meld's multiplier, times the chance that you
      draw it while there is still a turn to put it down.
    """
    assert isinstance(state, MinusTwentyState)
    plays, usable = plays_left(state)
    stock = state.stock[state.stock_pos:]
    values = []
    for seat in (0, 1):
        melds = [summary(m) for m in state.melds[seat]]
        suits = by_suit(state.hands[seat])
        limit = plays[seat]
        table = [0]  # table[k]: the best score of the suits so far with k cards put down
        for s in range(4):
            options = prospects_of(melds[s], suits[s], limit)
            if len(options) == 1:
                table = [base + options[0] for base in table]
                continue
            merged = [-10**9] * min(limit + 1, len(table) + len(options) - 1)
            for a, base in enumerate(table):
                for j, gain in enumerate(options[:len(merged) - a]):
                    if base + gain > merged[a + j]:
                        merged[a + j] = base + gain
            table = merged
        best = max(table)
        value = float(best)
        spare = limit - table.index(best)
        if stock and usable[seat] and spare > 0 and FUTURE_WEIGHT:
            chance = usable[seat] / len(stock)
            worth = 0.0
            expected = 0
            for card in stock:
                pips = VALUE[card]
                meld = melds[card & 3]
                if meld[2] and pips > meld[3]:
                    worth += pips * (1 + meld[1])  # times the meld's multiplier
                    expected += 1
            if expected:
                value += FUTURE_WEIGHT * chance * worth * min(1.0, spare / (expected * chance))
        values.append(value)
    return values


ADVICE = Advice(choose=choose, rollout=rollout, evaluate=evaluate, rollout_depth=ROLLOUT_DEPTH)
"""This game's advice, as its registry entry names it."""
