"""Minus Twenty, as a sound club player plays it (Lost Cities advice).

* Judge each suit by what its meld can become: the meld, plus the cards in
  hand that can still go on it in rising order, plus the cards of the suit
  nobody has seen yet, each counted by the chance that it reaches you while
  you still have a turn to put it down.  Count the draws left: with the
  whole draw pile ahead, three or four middling cards of a suit are worth
  starting, because more will come; near the end only what is in hand
  counts, and only as many cards as you have turns left.
* A meld starts 20 points in debt: start one when the suit is expected to
  pay that back, not before; invest (J, Q, K) only when the suit is expected
  to pass 20 — an investment multiplies losses as well as gains.
* Play a suit from the bottom up: never skip past your own lower cards.
* Every turn puts a card down: a card discarded from a suit you will start
  is a card lost, so discard from suits you will not start.
* Never discard what the opponent's melds need: a number above the top of
  an opponent's meld of that suit is a gift, and so is an investment card
  for a suit they have invested in but not yet numbered.
* Take from a discard pile when the card helps one of your suits more than
  an unknown card from the draw pile would, on average.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from itertools import chain

from parlour.bots.heuristic import Advice, best_draw
from parlour.cards import SUITS, Card
from parlour.game import Move, Observation, State
from parlour.games._base import Figures
from parlour.games.minus_twenty import (
    BONUS,
    BONUS_CARDS,
    DISCARD,
    DRAW,
    LEVEL,
    MINUS,
    PLAY,
    SUIT_INDEX,
    TAKE,
    VALUE,
    MinusTwentyState,
)

UNSEEN_BELOW = 0.5
"""How much an unseen card that falls below the suit's highest card in hand
counts: it arrives in time to go down only if you wait for it."""
BELOW_SHARE = 1 - UNSEEN_BELOW
"""What such a card does not count."""
FUTURE = 0.5
"""How much of the unseen cards' expected worth to count (less: a more cautious player)."""
START_MARGIN = 2.0
"""Points a new meld must be expected to make before it is started."""
INVEST_MARGIN = 0.0
"""Points above 20 a suit must be expected to make before an investment card goes on it."""
DRAW_PILE_WORTH = 1.5
"""What an unknown card from the draw pile adds to a hand, on average."""
TEMPO = 1.0
"""What playing onto a promising meld now (rather than later) is worth."""

NUMBERS = 0b11111111100
"""The number values 2–10 as bits of a mask (bit v for value v)."""
MASK_SUM = [sum(v for v in range(11) if m >> v & 1) for m in range(1 << 11)]
"""The sum of the values in a mask."""
MASK_COUNT = [bin(m).count("1") for m in range(1 << 11)]
"""How many values a mask holds."""
ABOVE = [NUMBERS & ~((2 << v) - 1) for v in range(11)]
"""``ABOVE[v]``: the number values above ``v``, as a mask."""
BELOW = [(1 << v) - 1 for v in range(11)]
"""``BELOW[v]``: the values below ``v``, as a mask."""
DESCENDING = [tuple(v for v in range(10, 1, -1) if m >> v & 1) for m in range(1 << 11)]
"""The number values in a mask, highest first (a suit's numbers in hand, as the outlook lists them)."""

SEEN_BIT = [*MinusTwentyState.shown_bits, 0]
"""Each card as a bit of one mask of the whole deck: 11 bits a suit, bit v for value v (the
game's :attr:`~parlour.games._base.PlayThenDraw.shown` is such a mask); 0 for an investment
card and the joker."""
EVERY_NUMBER = sum(NUMBERS << 11 * s for s in range(4))
"""Every number card of the deck, as such a mask."""


@functools.lru_cache(maxsize=64)
def numbers_in(suits: int, numbers: int) -> int:
    """The number cards of the deck that the options ``suits`` and ``numbers`` make, as such a
    mask (:data:`EVERY_NUMBER` for the whole deck): the cards the others leave out are never unseen."""
    return sum((NUMBERS & ~((1 << 11 - numbers) - 1)) << 11 * s for s in range(suits))
INVESTED_AT = 44
"""Where a hand's code (:func:`hand_code`) counts its investment cards: 4 bits a suit from this bit."""
HAND_BIT = [SEEN_BIT[c] or 1 << INVESTED_AT + 4 * (c & 3) for c in range(52)] + [0]
"""Each card's share of :func:`hand_code`."""


HAND_BIT_OF = HAND_BIT.__getitem__


def hand_code(hand: Iterable[Card]) -> int:
    """A hand in one number: its number cards as bits (as :data:`SEEN_BIT`, below bit
    :data:`INVESTED_AT`) and, above, a count of its investment cards for each suit."""
    return sum(map(HAND_BIT_OF, hand))  # no card twice, so + is |


def suit_in(code: int, suit: int) -> tuple[int, int]:
    """One suit of a hand's code: the mask of its number values, and its investment cards."""
    return code >> 11 * suit & NUMBERS, code >> INVESTED_AT + 4 * suit & 15


class Outlook:
    """What each suit's meld can become, as a club player reckons it in mid-round.

    A suit is worth its meld plus the cards in hand that still fit on it,
    plus the numbers of that suit nobody has seen yet — each as likely to
    reach you in time as your draws allow (``chance``).  Count the draws
    left: early in the round three or four cards of a suit are worth
    starting, because more will come; late in the round only what is in
    hand counts.  ``plays`` caps the cards that can still go down.
    """

    __slots__ = ("chance", "minus", "plays", "unseen")

    def __init__(self, unseen: Sequence[int], chance: float, plays: int, minus: int = MINUS) -> None:
        self.unseen = unseen
        """Per suit, a mask of the number values nobody has seen yet."""
        self.chance = chance
        """The chance that a given unseen card reaches your hand while you can still put it down."""
        self.plays = plays
        """Cards you can still put down this round (including this turn's)."""
        self.minus = minus
        """What a meld must make up (the option ``minus``)."""
        """Cards you can still put down this round (including this turn's)."""

    def __call__(self, suit: int, meld: Sequence[Card], hand: Sequence[Card]) -> float:
        """The expected score of ``suit``'s meld with ``hand`` (the suit's cards in hand)."""
        mask, spare = suit_in(hand_code(hand), suit)
        return worth(self.unseen[suit], self.chance, summary(meld), mask, spare, self.plays, self.minus)


REMEMBERED = 1 << 15
"""How many answers :data:`WORTHS` and :data:`SUIT_MOVES` keep before they forget them all."""
WORTHS: dict[tuple[int, float, Summary, int, int, int, int], float] = {}
""":func:`worth` remembered, by its arguments."""


def worth(unseen: int, chance: float, meld: Summary, mask: int, spare: int, plays: int, minus: int = MINUS) -> float:
    """What a suit's meld is expected to score: the meld in figures, the suit's number values
    in hand (a mask) and investment cards in hand, its unseen numbers as a mask, the chance of
    each reaching you in time, ``plays`` cards still to put down, and what a meld must make up.

    A suit not yet started is an option, not a debt: it counts at least 0,
    and more only when it is expected to make :data:`START_MARGIN`.

    As in :func:`suit_moves`, only what can still go on the meld counts: the question, so
    put, is often asked again.  Answers are remembered (:data:`WORTHS`).
    """
    key = (unseen, chance, meld, mask, spare, plays, minus)
    found = WORTHS.get(key)
    if found is None:
        top = meld[3]
        if top:  # investment cards and numbers below the top no longer fit
            mask &= ABOVE[top]
            spare = 0
        unseen &= ABOVE[top]
        if len(WORTHS) >= REMEMBERED:
            WORTHS.clear()
        found = WORTHS[key] = _worth(unseen, chance if unseen else 0.0, meld, mask, spare, plays, minus)
    return found


@functools.lru_cache(maxsize=1 << 15)
def _worth(unseen: int, chance: float, meld: Summary, mask: int, spare: int, plays: int, minus: int = MINUS) -> float:
    """:func:`worth` of the cards that fit the meld, remembered."""
    return _reckon(unseen, chance, meld, DESCENDING[mask], spare, plays, minus)


def _reckon(unseen: int, chance: float, meld: Summary, values: tuple[int, ...], spare: int, plays: int,
            minus: int = MINUS) -> float:
    """:func:`worth`, given only the cards in hand that fit the meld (their values, highest first)."""
    numbers, investments, count, top = meld
    if len(values) > plays:
        values = values[:plays]  # short of turns, the high cards go down
    held = len(values)
    free = plays - held
    unseen &= ABOVE[top]
    below = unseen & BELOW[values[0]] if held else 0
    many = MASK_COUNT[unseen]
    # Each unseen card comes in time with ``chance``, as long as there are turns to put it down.
    if many:
        weight = free / many
        if not weight < chance:  # min(chance, free / many)
            weight = chance
    else:
        weight = 0.0
    total = numbers + sum(values) + weight * (MASK_SUM[unseen] - BELOW_SHARE * MASK_SUM[below])
    cards = count + held + weight * (many - BELOW_SHARE * MASK_COUNT[below])
    invest = (free if free < spare else spare) if total - minus >= INVEST_MARGIN else 0  # min(spare, free)
    score = (total - minus) * (1 + investments + invest)
    cards += invest
    if cards >= BONUS_CARDS:
        score += BONUS
    elif cards > BONUS_CARDS - 1:
        score += BONUS * (cards - BONUS_CARDS + 1)
    if count or score >= START_MARGIN:
        return score
    return 0.0


SuitMoves = tuple[list[float], list[float]]
"""What putting down a card of a suit does to the suit's :func:`worth`, by the card's value
(0 for an investment card): played (with :data:`TEMPO` for a meld worth having; only the
values that fit the meld), and discarded (before the gift to the opponent)."""


SUIT_MOVES: dict[tuple[int, float, Summary, int, int, int, int], SuitMoves] = {}
""":func:`suit_moves` remembered, by its arguments: searches ask it many times over (the same
hand in many sampled deals).  A rollout looks here itself (a remembered answer, without a
call); past :data:`REMEMBERED` answers, all are forgotten at once."""


def suit_moves(unseen: int, chance: float, meld: Summary, mask: int, spare: int, plays: int,
               minus: int = MINUS) -> SuitMoves:
    """What each card of a suit in hand (its number values as ``mask``, ``spare`` investment
    cards) scores, played or discarded: the change in the suit's worth.  Either move spends a
    turn: ``plays`` counts the turns after it.

    Only the unseen cards above the meld's top and the cards in hand that fit it count (a card
    that does not fit is no loss), and ``chance`` only if some such card is unseen: the same
    question asked of another hand or deal often differs in nothing else (see :func:`_suit_moves`).
    """
    key = (unseen, chance, meld, mask, spare, plays, minus)
    found = SUIT_MOVES.get(key)
    if found is None:
        top = meld[3]
        if top:  # investment cards and numbers below the top no longer fit
            mask &= ABOVE[top]
            spare = 0
        unseen &= ABOVE[top]
        if len(SUIT_MOVES) >= REMEMBERED:
            SUIT_MOVES.clear()
        found = SUIT_MOVES[key] = _suit_moves(unseen, chance if unseen else 0.0, meld, mask, spare, plays, minus)
    return found


@functools.lru_cache(maxsize=1 << 15)
def _suit_moves(unseen: int, chance: float, meld: Summary, mask: int, spare: int, plays: int,
                minus: int = MINUS) -> SuitMoves:
    """:func:`suit_moves` of the cards that fit the meld, remembered."""
    numbers, investments, count, _ = meld
    values = DESCENDING[mask]
    before = _reckon(unseen, chance, meld, values, spare, plays, minus) if values or spare else 0.0
    played = [0.0] * 11
    kept = [0.0] * 11  # a card that does not fit, or of a suit not worth starting, is no loss
    if spare:
        played[0] = _reckon(unseen, chance, (numbers, investments + 1, count + 1, 0), values, spare - 1, plays,
                            minus)
        if count or before:
            kept[0] = _reckon(unseen, chance, meld, values, spare - 1, plays, minus) - before
    for i, value in enumerate(values):
        # Played, the card leaves the higher cards to follow; discarded, all the others.
        played[value] = _reckon(unseen, chance, (numbers + value, investments, count + 1, value), values[:i], 0,
                                plays, minus)
        if count or before:
            kept[value] = _reckon(unseen, chance, meld, values[:i] + values[i + 1:], spare, plays, minus) - before
    for value in (0, *values) if spare else values:
        after = played[value]
        score = after - before
        if after > 0:
            score += TEMPO - value / 40
        played[value] = score
    return played, kept


def unseen_numbers(seen: Iterable[Card], deck: int = EVERY_NUMBER) -> list[int]:
    """Per suit, a mask of the number values of the ``deck`` (a mask, see :func:`numbers_in`)
    not among ``seen`` (no card twice)."""
    return unseen_of(sum(map(SEEN_BIT.__getitem__, seen)), deck)  # no card is seen twice, so + is |


def unseen_of(seen: int, deck: int = EVERY_NUMBER) -> list[int]:
    """Per suit, a mask of the number values of the ``deck`` not in the mask ``seen`` of the whole deck."""
    return by_suit(deck & ~seen)


def by_suit(mask: int) -> list[int]:
    """A mask of the whole deck's numbers (as :data:`SEEN_BIT`), suit by suit."""
    return [mask & NUMBERS, mask >> 11 & NUMBERS, mask >> 22 & NUMBERS, mask >> 33 & NUMBERS]


def outlook_for(seen: Iterable[Card], stock: int, their_hand: int, drawing: bool,
                deck: int = EVERY_NUMBER, minus: int = MINUS) -> Outlook:
    """The outlook of the seat to move, from what it has seen and the size of the draw pile.

    ``their_hand``: the opponent's cards that you have not seen (an unseen
    card may be there rather than in the draw pile); ``deck``: the deck's numbers
    (:func:`numbers_in`); ``minus``: what a meld must make up.
    """
    return Outlook(unseen_numbers(seen, deck), *chance_and_plays(stock, their_hand, drawing), minus)


def chance_and_plays(stock: int, their_hand: int, drawing: bool) -> tuple[float, int]:
    """:attr:`Outlook.chance` and :attr:`Outlook.plays` of the seat to move, from the size of
    the draw pile and the opponent's cards it has not seen."""
    if drawing:
        plays = usable = (stock - 1) // 2
    else:
        plays = (stock + 1) // 2
        usable = max(plays - 1, 0)
    chance = FUTURE * usable / (stock + their_hand) if stock + their_hand else 0.0
    return chance, plays


Summary = Figures
"""A meld in figures: (sum of its numbers, investment cards, cards, top number): the game
keeps each meld's (:attr:`~parlour.games._base.PlayThenDraw.figures`)."""


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


def gift_to(card: Card, meld: Summary) -> float:
    """How much a discarded card would help the opponent's meld of its suit (given in figures)."""
    return GIFTS[meld[3]][VALUE[card]] if meld[2] else 0.5


def _gift(value: int, top: int) -> float:
    """:func:`gift_to` a meld (not empty) whose top number is ``top``, of a card of ``value``."""
    if value == 0:
        return 4.0 if top == 0 else 0.0
    return float(value) if value > top else 0.0


GIFTS = [[_gift(value, top) for value in range(11)] for top in range(11)]
"""``GIFTS[top][value]``: :func:`gift_to` a started meld whose top number is ``top``."""
NO_MELD_GIFTS = [0.5] * 11
""":func:`gift_to` a meld not started, by value."""
CARD_FIGURES = [(c & 3, VALUE[c], LEVEL[c]) for c in range(53)]
"""By card code: its suit, its value and its level (what a meld's top must be below for it to go on)."""


def best_play(mine: Sequence[Summary], theirs: Sequence[Summary], code: int, legal: Sequence[Move],
              outlook: Outlook, scores: list[float] | None = None) -> Move:
    """The advised ``play`` or ``discard`` move (only the card's own suit changes), given both
    seats' melds in figures and the hand's :func:`hand_code`; each move's score, in expected
    points, is appended to ``scores`` when given.

    Either move spends this turn, so both are judged with one play fewer left.
    """
    plays = max(outlook.plays - 1, 0)
    unseen, chance = outlook.unseen, outlook.chance
    options: list[SuitMoves | None] = [None] * 4
    best, best_score = legal[0], -1e9
    for move in legal:
        verb, args = move  # unpacked: a NamedTuple's fields by name cost more, and this runs in every rollout
        card: Card = args[0]  # type: ignore[assignment]
        suit = card & 3
        option = options[suit]
        if option is None:
            option = options[suit] = suit_moves(unseen[suit], chance, mine[suit], code >> 11 * suit & NUMBERS,
                                                code >> INVESTED_AT + 4 * suit & 15, plays, outlook.minus)
        score: float
        if verb == "play":
            score = option[0][VALUE[card]]
        else:
            meld = theirs[suit]
            score = option[1][VALUE[card]] - (GIFTS[meld[3]][VALUE[card]] if meld[2] else 0.5)
        if scores is not None:
            scores.append(score)
        if score > best_score:
            best, best_score = move, score
    return best


def best_put(state: MinusTwentyState, code: int, unseen: int, chance: float, plays: int) -> Move:
    """:func:`best_play` of the seat to move in a sampled state, read from its hand (whose
    :func:`hand_code` is ``code``), with its outlook's unseen numbers (a mask of the whole
    deck), chance and plays: each card's ``play`` (when it fits its meld), then its
    ``discard``, in the order of the hand, which is the order of the legal moves."""
    seat = state.to_move
    mine, theirs, tops = state.figures[seat], state.figures[1 - seat], state.tops[seat]
    plays = max(plays - 1, 0)
    minus = state.options["minus"]
    options: list[SuitMoves | None] = [None] * 4
    gifts = [NO_MELD_GIFTS] * 4  # to the opponent's meld, by suit and value
    best, best_score = None, -1e9  # every move scores more: the first is taken at least
    for card in state.hands[seat]:
        suit, value, level = CARD_FIGURES[card]
        option = options[suit]
        if option is None:
            key = (unseen >> 11 * suit & NUMBERS, chance, mine[suit], code >> 11 * suit & NUMBERS,
                   code >> INVESTED_AT + 4 * suit & 15, plays, minus)
            option = options[suit] = SUIT_MOVES.get(key) or suit_moves(*key)
            meld = theirs[suit]
            if meld[2]:
                gifts[suit] = GIFTS[meld[3]]
        if tops[suit] < level:  # it fits its meld
            score = option[0][value]
            if score > best_score:
                best, best_score = PLAY[card], score
        score = option[1][value] - gifts[suit][value]
        if score > best_score:
            best, best_score = DISCARD[card], score
    assert best is not None
    return best


def best_take(mine: Sequence[Summary], code: int, piles: Sequence[Sequence[Card]], legal: Sequence[Move],
              unseen: int, chance: float, plays: int, minus: int = MINUS) -> Move:
    """:func:`~parlour.bots.heuristic.best_draw` with this game's outlook (its unseen numbers as
    a mask of the whole deck, chance and plays), given the melds in figures and the hand's
    :func:`hand_code` (and what a meld must make up): take the top card of a discard pile when
    it raises its suit's worth by more than an unknown card from the draw pile would."""
    best, best_score = legal[0], -1e9
    for move in legal:
        verb, args = move
        if verb == "draw":
            score = DRAW_PILE_WORTH
        else:
            suit = SUIT_INDEX[args[0]]  # type: ignore[index]
            mask, spare = suit_in(code, suit)
            value = VALUE[piles[suit][-1]]
            meld, numbers = mine[suit], unseen >> 11 * suit & NUMBERS
            with_top = (worth(numbers, chance, meld, mask | 1 << value, spare, plays, minus) if value
                        else worth(numbers, chance, meld, mask, spare + 1, plays, minus))
            score = with_top - worth(numbers, chance, meld, mask, spare, plays, minus)
        if score > best_score:
            best, best_score = move, score
    return best


def takes_that_fit(legal: Sequence[Move], tops: Sequence[int], piles: Sequence[Sequence[Card]]) -> list[Move]:
    """The draw and the ``take`` moves whose card can still go on your meld of its suit
    (``tops``: each meld's highest number, 0 while it has none): the others are
    never worth more than a card from the draw pile."""
    fit = []
    for move in legal:
        verb, args = move
        if verb == "take":
            suit = SUIT_INDEX[args[0]]  # type: ignore[index]
            if tops[suit] >= LEVEL[piles[suit][-1]]:
                continue
        fit.append(move)
    return fit


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    return judge(observation, legal)


def values(observation: Observation, legal: Sequence[Move]) -> list[float]:
    """What the advice makes of each legal move, in expected points (the best is the advised move)."""
    scores: list[float] = []
    judge(observation, legal, scores)
    return scores


def judge(observation: Observation, legal: Sequence[Move], scores: list[float] | None = None) -> Move:
    """The advised move for the observing seat; with ``scores``, every legal move's score too."""
    seat = observation["seat"]
    hand = [Card.parse(c) for c in observation["hand"]]
    melds = [[[Card.parse(c) for c in m[s]] for s in SUITS] for m in observation["melds"]]
    piles = [[Card.parse(c) for c in observation["discard_piles"][s]] for s in SUITS]
    known = [Card.parse(c) for c in observation["known"][1 - seat]]
    drawing = observation["step"] == "draw"
    if drawing and scores is None:  # scored, a take that does not fit is worth nothing to the outlook
        # Nothing fits only when the draw is not offered (a bot bound to take, parlour.bots.Restricted).
        legal = takes_that_fit(legal, [summary(m)[3] for m in melds[seat]], piles) or legal
        if len(legal) == 1:
            return legal[0]
    seen = chain(hand, known, *melds[0], *melds[1], *piles)
    options = observation["options"]
    outlook = outlook_for(seen, observation["stock_count"], observation["hand_sizes"][1 - seat] - len(known), drawing,
                          numbers_in(options["suits"], options["numbers"]), options["minus"])
    if drawing:
        tops = {s: (p[-1] if p else None) for s, p in zip(SUITS, piles)}
        return best_draw(melds[seat], hand, tops, legal, outlook, DRAW_PILE_WORTH, scores)
    return best_play([summary(m) for m in melds[seat]], [summary(m) for m in melds[1 - seat]], hand_code(hand),
                     legal, outlook, scores)


def seen_by(state: MinusTwentyState, seat: int) -> tuple[int, int, int]:
    """What ``seat`` knows in a sampled state: its hand's :func:`hand_code`; the numbers of the
    match's deck it has not seen, as a mask of the whole deck (as :data:`SEEN_BIT`; see
    :func:`unseen_of` for them suit by suit); and how many of the opponent's cards it has not
    seen.  It has seen its hand, every card put down this round (the game keeps them:
    ``shown``) and so every opponent's card it saw taken from a pile."""
    code = sum(map(HAND_BIT_OF, state.hands[seat]))  # hand_code
    their = 1 - seat  # the opponent: the cards it took from a discard pile are known
    options = state.options
    deck = numbers_in(options["suits"], options["numbers"])
    return code, deck & ~(state.shown | code & EVERY_NUMBER), len(state.hands[their]) - state.known_count[their]


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, MinusTwentyState)
    seat = state.to_move
    drawing = state.drawing
    if drawing:  # the draw, and the takes that fit (takes_that_fit of the legal moves, read from the piles)
        piles, tops, played = state.discard_piles, state.tops[seat], state.pile_played
        takes = [TAKE[s] for s in range(4)
                 if piles[s] and (s != played or state.take_back) and tops[s] < LEVEL[piles[s][-1]]]
        if not takes:
            return DRAW
        legal = [DRAW, *takes]
    code, unseen, their_hidden = seen_by(state, seat)
    stock = len(state.stock) - state.stock_pos
    if drawing:  # chance_and_plays, without the call
        plays = usable = (stock - 1) // 2
    else:
        plays = (stock + 1) // 2
        usable = max(plays - 1, 0)
    chance = FUTURE * usable / (stock + their_hidden) if stock + their_hidden else 0.0
    if drawing:
        return best_take(state.figures[seat], code, state.discard_piles, legal, unseen, chance, plays,
                         state.options["minus"])
    return best_put(state, code, unseen, chance, plays)


ROLLOUT_DEPTH = 12
"""Search rollouts play six turns, then :func:`evaluate` judges the position:
a whole round played out by the advice is far noisier than its outlook."""


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


def evaluate(state: State) -> list[float]:
    """Each seat's expected round score, as the advice reckons it from that seat's side of
    the table: every suit's :func:`worth` — its meld, the cards in hand that still fit, and the
    numbers that seat has not seen, each as likely to come in time as its turns left allow.

    The search judges a rollout cut short by this, the measure its rollouts play by (the
    advice's own), so it looks ahead for the same ends (docs/strength.md: *hard vs heuristic*).
    """
    assert isinstance(state, MinusTwentyState)
    plays, usable = plays_left(state)
    stock = len(state.stock) - state.stock_pos
    minus = state.options["minus"]
    values = []
    for seat in (0, 1):
        code, unseen_mask, their_hidden = seen_by(state, seat)
        unseen = by_suit(unseen_mask)
        hidden = stock + their_hidden
        chance = FUTURE * usable[seat] / hidden if hidden else 0.0
        mine = state.figures[seat]
        left = plays[seat]
        suits = []
        for s in range(4):
            key = (unseen[s], chance, mine[s], code >> 11 * s & NUMBERS, code >> INVESTED_AT + 4 * s & 15, left,
                   minus)
            found = WORTHS.get(key)  # remembered, without a call
            suits.append(worth(*key) if found is None else found)
        values.append(sum(suits))
    return values


START = "meld"
"""What :func:`starts` counts, in the game's own word."""


def starts(state: State, seat: int) -> int:
    """How many melds ``seat`` has started this round (a measure of the advice: a club player
    starts melds when the hand supports them, and a round with none scores nothing)."""
    assert isinstance(state, MinusTwentyState)
    return sum(1 for meld in state.melds[seat] if meld)


CLUB_TEMPERATURE = 0.5
"""How far a club player's judgement wavers, in expected points: the ``medium`` level weighs the
advice's :func:`values` at this temperature (see :class:`~parlour.bots.heuristic.HeuristicBot`)."""


ADVICE = Advice(choose=choose, rollout=rollout, evaluate=evaluate, rollout_depth=ROLLOUT_DEPTH,
                starts=starts, start=START, values=values, club_temperature=CLUB_TEMPERATURE)
"""This game's advice, as its registry entry names it."""
