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

import functools
import random
from collections.abc import Iterable, Sequence

from parlour.bots.heuristic import Advice, best_draw
from parlour.cards import SUITS, Card
from parlour.game import Move, Observation, State
from parlour.games._base import Figures
from parlour.games.progression import (
    FACE_PENALTY,
    PLAY,
    PLAYERS,
    PUBLIC,
    SUIT_INDEX,
    THRESHOLD,
    VALUE,
    ProgressionState,
    score_of,
)

DRAW_PILE_WORTH = 2.5
"""What an unknown card from the draw pile adds to a hand, on average, in points."""
TEMPO = 1.0
"""What playing a card onto a committed stack now (rather than later) is worth."""
GIFT_WEIGHTS = (1.0, 0.5)
"""How much a card's use to the next player and the one after counts against feeding it."""


Summary = Figures
"""A stack in figures: (the total of its values, its face cards, its cards, its floor): the
game keeps each stack's (:attr:`~parlour.games._base.PlayThenDraw.figures`)."""

NUMBERS = 0b11111111100
"""The number values 2–10 as bits of a mask (bit v for value v)."""
MASK_SUM = [sum(v for v in range(11) if m >> v & 1) for m in range(1 << 11)]
"""The sum of the values in a mask."""
MASK_COUNT = [bin(m).count("1") for m in range(1 << 11)]
"""How many values a mask holds."""
AT_LEAST = [NUMBERS & ~((1 << v) - 1) for v in range(11)]
"""``AT_LEAST[v]``: the number values not lower than ``v``, as a mask."""
DESCENDING = [tuple(v for v in range(10, 1, -1) if m >> v & 1) for m in range(1 << 11)]
"""The number values in a mask, highest first."""
FACES_AT = 44
"""Where a hand's code (:func:`hand_code`) counts its face cards: 4 bits a suit from this bit."""
HAND_BIT = [1 << 11 * (c & 3) + VALUE[c] if VALUE[c] else 1 << FACES_AT + 4 * (c & 3) for c in range(52)]
"""Each card's share of :func:`hand_code`."""


def hand_code(cards: Iterable[Card]) -> int:
    """Cards (a hand, the draw pile) in one number: the number cards as bits (bit ``11 * suit
    + value``) and, from bit :data:`FACES_AT`, a count of the face cards of each suit."""
    return sum(map(HAND_BIT.__getitem__, cards))  # no card twice, so + is |


def suit_in(code: int, suit: int) -> tuple[int, int]:
    """One suit of a :func:`hand_code`: the mask of its number values, and its face cards."""
    return code >> 11 * suit & NUMBERS, code >> FACES_AT + 4 * suit & 15


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
    return total, faces, len(stack), floor


def outlook(suit: int, stack: Sequence[Card], hand: Sequence[Card]) -> int:
    """The best a suit can become: its stack plus the hand's cards that still fit, in rising order.

    An unstarted suit is an option, not a debt: it counts no less than 0.
    """
    return outlook_of(summary(stack), *suit_in(hand_code(hand), suit))


def outlook_of(stack: Summary, mask: int, spare: int) -> int:
    """:func:`outlook` of a stack given in figures, with the suit's cards in hand given as the
    mask of their number values and their face cards (``spare``)."""
    total, faces, count, floor = stack
    total += MASK_SUM[mask & AT_LEAST[floor]]  # the numbers that fit
    if not floor:  # faces fit only a stack of faces
        faces += spare
    if total == 0:
        score = -FACE_PENALTY * (faces + 1) if faces else 0
    else:
        score = (total - THRESHOLD) * (faces + 1) if total > THRESHOLD else 0
    return score if count or score > 0 else 0


def gift_to(card: Card, stacks: Sequence[Summary]) -> float:
    """:func:`gift`, given the next players' stacks of the card's suit in figures."""
    return _gift(VALUE[card], [stack[3] if stack[2] else -1 for stack in stacks])


def _gift(value: int, floors: Sequence[int]) -> float:
    """:func:`gift` of a card of ``value``, given the floors of the next players' stacks of its
    suit (-1: not started)."""
    total = 0.0
    for weight, floor in zip(GIFT_WEIGHTS, floors):
        if floor < 0:
            continue
        if value == 0 and floor == 0:
            total += weight * 4.0  # another multiplier for a stack of faces
        elif value >= floor and value > 0:
            total += weight * value
    return total


GIFTS = [[[_gift(value, (first, second)) for value in range(11)] for second in range(-1, 11)]
         for first in range(-1, 11)]
"""``GIFTS[first + 1][second + 1][value]``: :func:`_gift` with the next players' floors ``first``
and ``second`` (-1: not started)."""


CARD_FIGURES = [(c & 3, VALUE[c]) for c in range(52)]
"""By card code: its suit and its value."""


def gifts_of(stacks: Sequence[Summary]) -> list[float]:
    """:func:`gift_to` by card value, given the next players' stacks of a suit in figures."""
    first, second = stacks
    return GIFTS[first[3] + 1 if first[2] else 0][second[3] + 1 if second[2] else 0]


SuitMoves = tuple[list[float], list[int]]
"""What putting down a card of a suit does to the suit's :func:`outlook`, by the card's value:
played onto the stack (with :data:`TEMPO` for a stack worth having; only the values that
fit), and put on the public stack (before the gift to the next players)."""


@functools.lru_cache(maxsize=1 << 14)
def suit_moves(stack: Summary, mask: int, spare: int) -> SuitMoves:
    """What each card of a suit in hand (its number values as ``mask``, ``spare`` face cards)
    scores, played onto the stack or put on the public stack: the change in the suit's outlook.
    Hands and stacks recur in a search: hence the cache."""
    total, faces, count, floor = stack
    before = outlook_of(stack, mask, spare)
    played: list[float] = [0.0] * 11
    kept = [0] * 11
    for value in (*DESCENDING[mask], 0) if spare else DESCENDING[mask]:
        rest = (mask & ~(1 << value), spare) if value else (mask, spare - 1)
        kept[value] = outlook_of(stack, *rest) - before
        if value >= floor:  # it fits: the stack rises to it
            after = outlook_of((total + value, faces + (value == 0), count + 1, value), *rest)
            score: float = after - before
            if after > 0:
                score += TEMPO - value / 20
            played[value] = score
    return played, kept


@functools.lru_cache(maxsize=1 << 14)
def take_gains(stack: Summary, mask: int, spare: int) -> list[int]:
    """What taking a card of each value (0 for a face card) into the hand adds to the suit's
    outlook, the suit's cards in hand being the number values of ``mask`` and ``spare`` faces
    (a value already in hand: 0, never asked).  Hands and stacks recur in a search: hence the cache."""
    before = outlook_of(stack, mask, spare)
    gains = [outlook_of(stack, mask, spare + 1) - before] + [0] * 10
    for value in range(2, 11):
        if not mask >> value & 1:
            gains[value] = outlook_of(stack, mask | 1 << value, spare) - before
    return gains


def best_play(stacks: Sequence[Summary], code: int, others: Sequence[Sequence[Summary]],
              legal: Sequence[Move]) -> Move:
    """The advised ``play`` or ``public`` move (only the card's own suit changes), given the
    stacks in figures (the seat's, then the next players', nearest first) and the hand's
    :func:`hand_code`."""
    options: list[SuitMoves | None] = [None] * 4
    best, best_score = legal[0], -1e9
    for move in legal:
        verb, args = move
        card: Card = args[0]  # type: ignore[assignment]
        suit = card & 3
        option = options[suit]
        if option is None:
            option = options[suit] = suit_moves(stacks[suit], *suit_in(code, suit))
        score: float
        if verb == "play":
            score = option[0][VALUE[card]]
        else:
            score = option[1][VALUE[card]] - gifts_of([p[suit] for p in others])[VALUE[card]]
        if score > best_score:
            best, best_score = move, score
    return best


def best_put(state: ProgressionState, code: int) -> Move:
    """:func:`best_play` of the seat to move in a sampled state, read from its hand (whose
    :func:`hand_code` is ``code``): each card's ``play`` (when it fits its stack), then its
    ``public``, in the order of the hand, which is the order of the legal moves."""
    seat = state.to_move
    mine, floors = state.figures[seat], state.floors[seat]
    nearest, after = state.figures[(seat + 1) % PLAYERS], state.figures[(seat + 2) % PLAYERS]
    options: list[tuple[list[float], list[int], list[float]] | None] = [None] * 4
    best, best_score = None, -1e9  # every move scores more: the first is taken at least
    for card in state.hands[seat]:
        suit, value = CARD_FIGURES[card]
        option = options[suit]
        if option is None:
            option = options[suit] = (
                *suit_moves(mine[suit], code >> 11 * suit & NUMBERS, code >> FACES_AT + 4 * suit & 15),
                gifts_of((nearest[suit], after[suit])))
        played, kept, gifts = option
        if value >= floors[suit]:  # it fits its stack
            score = played[value]
            if score > best_score:
                best, best_score = PLAY[card], score
        score = kept[value] - gifts[value]
        if score > best_score:
            best, best_score = PUBLIC[card], score
    assert best is not None
    return best


def best_take(stacks: Sequence[Summary], code: int, public: Sequence[Sequence[Card]], legal: Sequence[Move]) -> Move:
    """:func:`~parlour.bots.heuristic.best_draw` with this game's outlook, given the stacks in
    figures and the hand's :func:`hand_code`: take the top card of a public stack when it raises
    its suit's outlook by more than an unknown card from the draw pile would."""
    best, best_score = legal[0], -1e9
    for move in legal:
        verb, args = move
        if verb == "draw":
            score: float = DRAW_PILE_WORTH
        else:
            suit = SUIT_INDEX[args[0]]  # type: ignore[index]
            score = take_gains(stacks[suit], code >> 11 * suit & NUMBERS, code >> FACES_AT + 4 * suit & 15)[
                VALUE[public[suit][-1]]]
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
    figures = [[summary(stack) for stack in p] for p in stacks]
    others = [figures[(seat + k) % PLAYERS] for k in range(1, PLAYERS)]
    return best_play(figures[seat], hand_code(hand), others, legal)


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, ProgressionState)
    seat = state.to_move
    code = hand_code(state.hands[seat])
    if state.drawing:
        return best_take(state.figures[seat], code, state.public, state.legal_moves())
    return best_put(state, code)


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
    # Turn t (from now, start <= t < stock) is seat (mover + t) % PLAYERS's.
    plays = [max(_turns(stock, (seat - mover) % PLAYERS) - _turns(start, (seat - mover) % PLAYERS), 0)
             for seat in range(PLAYERS)]
    usable = [max(n - 1, 0) for n in plays]
    if state.drawing:
        usable[mover] = plays[mover]
    return plays, usable


def _turns(count: int, offset: int) -> int:
    """How many of the turns 0, 1, …, ``count`` - 1 are ``offset`` plus a multiple of :data:`PLAYERS`."""
    return (count - offset + PLAYERS - 1) // PLAYERS if count > offset else 0


def _capped(total: float, faces: int) -> float:
    """A stack's score for a total that may be a fraction (an expectation)."""
    return max(total - THRESHOLD, 0.0) * (faces + 1)


Prospects = tuple[tuple[tuple[int, int, int], ...], int, int]
"""What a suit can become (:func:`prospects_of`), the fewest cards that make its best, and its best."""


def prospects_of(stack: Summary, mask: int, spare: int, limit: int) -> Prospects:
    """The best a suit can become with at most ``j`` of the hand's fitting cards played, for each
    ``j``: (score, total, faces); the stack in figures, the suit's cards in hand as the mask of
    their number values and their face cards (``spare``).  With it, the fewest cards that make
    the best of them, and that best score.

    Short of time, play the big cards: with two turns left, a 9 and a 10 are
    worth more than a 2, 3 and 4 you will never reach.
    """
    floor = stack[3]
    if floor:  # faces, and numbers below the floor, no longer fit
        return _prospects(stack, mask & AT_LEAST[floor], 0, limit)
    return _prospects(stack, mask, spare, limit)


@functools.lru_cache(maxsize=1 << 14)
def _prospects(stack: Summary, mask: int, spare_faces: int, limit: int) -> Prospects:
    """:func:`prospects_of` of the cards that fit, remembered (hands and stacks recur in a search)."""
    total, faces, count, _ = stack
    numbers = DESCENDING[mask]
    now = score_of(total, faces) if count else 0
    best = [(now, total, faces)]
    for j in range(1, min(len(numbers) + spare_faces, limit) + 1):
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
    top_score = best[-1][0]
    return tuple(best), next(j for j, o in enumerate(best) if o[0] == top_score), top_score


def _plan(options: Sequence[Prospects], limit: int) -> tuple[int, int, list[int]]:
    """The best score of all suits with at most ``limit`` cards played: (score, cards, cards per suit)."""
    firsts = [first for _, first, _ in options]
    cards = sum(firsts)
    if cards <= limit:  # time enough for every good card
        return sum([top for _, _, top in options]), cards, firsts
    table: list[tuple[int, list[int]]] = [(0, [])]
    for option, _, _ in options:
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
    stock = len(state.stock) - state.stock_pos
    to_come = hand_code(state.stock[state.stock_pos:])  # its number cards count
    values = []
    for seat in range(PLAYERS):
        figures = state.figures[seat]
        code = hand_code(state.hands[seat])
        limit = plays[seat]
        options = [prospects_of(figures[s], code >> 11 * s & NUMBERS, code >> FACES_AT + 4 * s & 15, limit)
                   for s in range(4)]
        best, cards, counts = _plan(options, limit)
        value = float(best)
        spare = limit - cards
        if stock and usable[seat] and spare > 0 and FUTURE_WEIGHT:
            chance = usable[seat] / stock
            pips = [0.0, 0.0, 0.0, 0.0]
            expected = 0.0
            for s, (_, _, count, floor) in enumerate(figures):
                if count:  # the numbers to come that fit a started stack
                    fit = to_come >> 11 * s & AT_LEAST[floor]
                    pips[s] = float(MASK_SUM[fit])
                    expected += MASK_COUNT[fit]
            expected *= chance
            share = FUTURE_WEIGHT * chance * min(1.0, spare / expected) if expected else 0.0
            for s in range(4):
                if pips[s]:
                    _, total, faces = options[s][0][counts[s]]
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
