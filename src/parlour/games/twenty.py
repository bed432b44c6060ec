"""Twenty, by Alexander Farrugia (1997): an adding-up game for two.

The rules, in the order twenty.source.txt gives them and as RULINGS.md
settles them:

* Cards are worth their pips; A is 1 and T, J, Q, K ("ten cards") are 10.
* A round: shuffle 52, reveal the top two; the End of Round Bonus is their
  difference, or 10 if that is 0.  Deal 5 to each from the other 50.
  Round 1: seat ``first`` plays first; round 2: the other seat.
* Players alternate playing one card onto the tally.  After each card:
  1. tally = 20: the player scores 10 (Exact Twenty); the tally is set aside;
  2. tally > 20: the player scores tally − 20 (Beyond Twenty); set aside;
  3. tally < 20 with n ≥ 5 cards: the player scores 15 × 2^(n−5)
     (Five Tally, Six Tally, …); the tally stays.
* The tally carries over between hands but not between rounds.
* A player with an empty hand is dealt 5 more when it is their turn.
* When both hands and the stock are empty, the round ends and the player who
  scored last takes the End of Round Bonus.
* Two rounds; the higher total wins, equal totals draw.
* Option ``open_hands``: both hands face up; round 2 is dealt from round 1's
  shuffle with the hands exchanged.
* Options for smaller games (the defaults are the game above): ``suits`` and
  ``ranks`` (the pack: the first suits, the highest ranks, so the ten cards
  stay), ``hand_size`` (cards in a hand), ``hands`` (hands each player is
  dealt in a round; fewer than the pack allows leave the rest of the stock
  unplayed) and ``rounds``.  Five Tally stays five cards whatever the hand.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from parlour.cards import ALL_CARDS, RANKS, SUITS, Card, standard_deck
from parlour.game import (
    BaseObservation,
    Bounds,
    CardRole,
    Deal,
    Event,
    Game,
    Move,
    Observation,
    Option,
    OptionError,
    RoundEnding,
    State,
    Wrong,
    check_deck,
    restore_base,
)
from parlour.games._base import StockPile, Turns
from parlour.narrate import card_text

HAND = 5
"""Cards in a hand (option ``hand_size``)."""
FIVE = 5
"""Cards on a tally below 20 that score (Five Tally), whatever the hand size."""
TWENTY = 20
"""What the tally is played towards."""
REVEALED = 2
"""Cards turned face up at the deal (their difference is the End of Round Bonus)."""
ROUNDS = 2
"""A match is two rounds (option ``rounds``)."""
MOST_MOVES = 52 - REVEALED
"""Moves in a round: every card but the revealed ones is played."""
HANDS_A_ROUND = MOST_MOVES // (2 * HAND)
"""Hands of five each seat is dealt in a round (the stock runs out after them; option ``hands``)."""
MOST_STOCK = MOST_MOVES - 2 * HAND
"""Cards in the stock after the deal (40): the most any options allow (the RL spaces scale it so)."""
EXACT = 10
FIVE_TALLY = 15

VALUE = [min(c.rank, 10) for c in ALL_CARDS[:52]]
"""Card value by card code: A 1, 2–9 pip, T J Q K 10."""
PLAY = [Move("play", (c,)) for c in ALL_CARDS[:52]]
"""The move ``play <card>`` for every card, built once."""
_PLAY_OF = PLAY.__getitem__
"""A card's move, for ``map`` (legal moves are the hand's cards, mapped in C)."""
PACK_VALUES = [VALUE.count(v) for v in range(11)]
"""By value (1–10; 0 unused): how many cards of the pack have it (four of each, sixteen tens)."""

MAX_TALLY = max(n for n in range(53) if sum(sorted(VALUE)[:n]) < 20)
"""The most cards a tally can hold below 20 (the lowest cards of the pack: ten)."""

_COUNT_WORDS = [
    "", "", "", "", "", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
    "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen",
    "Eighteen", "Nineteen",
]


def end_of_round_bonus(revealed: list[Card]) -> int:
    """The difference of the two revealed cards' values, or 10 if it is 0."""
    diff = abs(VALUE[revealed[0]] - VALUE[revealed[1]])
    return diff if diff else 10


EXACT_TWENTY, BEYOND_TWENTY, END_BONUS, NEW_HAND = "Exact Twenty", "Beyond Twenty", "End of Round Bonus", "New Hand"
"""The kinds of event a move can bring (and the tallies', named by :func:`tally_name`)."""
_SETS_ASIDE = (EXACT_TWENTY, BEYOND_TWENTY)
"""The events of a move that set the tally aside."""


def round_starter(first: int, round_index: int) -> int:
    """The seat that plays first in a round: round 1, seat ``first``; round 2, the other seat."""
    return first if round_index % 2 == 0 else 1 - first


def tally_points(cards_on_tally: int) -> int:
    """What an n-card tally below 20 scores: 15 × 2^(n−5), 0 below five cards."""
    return FIVE_TALLY << (cards_on_tally - FIVE) if cards_on_tally >= FIVE else 0


def tally_name(cards_on_tally: int) -> str:
    """``Five Tally``, ``Six Tally``, …"""
    word = _COUNT_WORDS[cards_on_tally] if cards_on_tally < len(_COUNT_WORDS) else str(cards_on_tally)
    return f"{word} Tally"


def _pack_options(options: Mapping[str, Any] | None) -> tuple[int, int]:
    """The options that make the pack: (suits, ranks)."""
    if not options:
        return len(SUITS), len(RANKS)
    return options.get("suits", len(SUITS)), options.get("ranks", len(RANKS))


@functools.lru_cache(maxsize=64)
def _pack_cards(suits: int, ranks: int) -> tuple[Card, ...]:
    kept = SUITS[:suits]
    return tuple(c for c in standard_deck() if c.rank > len(RANKS) - ranks and c.suit in kept)


def _pack(suits: int, ranks: int) -> list[Card]:
    """The pack of the first ``suits`` suits and highest ``ranks`` ranks, in the full pack's order."""
    return list(_pack_cards(suits, ranks))


def pack_values(options: Mapping[str, Any] | None) -> list[int]:
    """By value (1–10; 0 unused): how many cards of the pack under ``options`` have it."""
    return list(_pack_values(*_pack_options(options)))


@functools.lru_cache(maxsize=64)
def _pack_values(suits: int, ranks: int) -> tuple[int, ...]:
    cards = _pack_cards(suits, ranks)
    return tuple(sum(1 for c in cards if VALUE[c] == v) for v in range(11))


def _net_chain(top: int) -> int:
    """What a tally of ``top`` cards below 20 gives the seat that played its top card, less
    what it gave the other seat: the Five Tally, Six Tally, … alternate between them."""
    return sum((-1) ** (top - n) * tally_points(n) for n in range(FIVE, top + 1))


EXACT_SEARCH = 3_000
"""Packs with at most this many ways to leave some of each value unplayed get the exact
most margin (:func:`_exact_margin`); bigger ones :func:`margin_bound`."""


@functools.lru_cache(maxsize=64)
def most_margin(suits: int, ranks: int, hand_size: int, hands: int) -> int:
    """The most by which one seat's round score can exceed the other's, with this pack and
    hands: exactly (:func:`_exact_margin`) for a small pack, else :func:`margin_bound`.

    Any order of ``2 × hands × hand_size`` cards of the pack is a round some deal plays
    (the deal puts each card in the hand it is played from), with any two others revealed.
    """
    counts = _pack_values(suits, ranks)
    if math.prod(n + 1 for n in counts) <= EXACT_SEARCH:
        return _exact_margin(counts, 2 * hands * hand_size)
    return margin_bound(counts, 2 * hands * hand_size)


def margin_bound(counts: tuple[int, ...], played: int) -> int:
    """A proven bound on seat A's round score less seat B's when ``played`` cards of a pack
    with ``counts[v]`` cards of each value v are played (the full game: 480, from a Ten Tally
    and a Five Tally topped by A, 14 Exact Twenties and a bonus of 10).

    Every tally (the cards from one setting aside to the next) gives A, less what it gives
    B: at most 10 if it ends under five cards (only its closing card scores, at most an
    Exact Twenty's 10), and at most :func:`_net_chain` of its length L if it holds L ≥ 5
    cards below 20 (A plays the top card; the closing card, if any, scores for B).  A short
    tally closed by A holds one of B's cards and adds up to 20 or more, so A closes at most
    min(A's cards outside the long tallies, their total value ÷ 20) of them; the long
    tallies are best made of the lowest cards (an exchange keeps each below 20 and leaves
    the highest values for the short ones).  Add the largest End of Round Bonus two cards
    of the pack can make, and take the best set of long tallies.
    """
    values = sorted(v for v in range(11) for _ in range(counts[v]))
    bonus = max((abs(a - b) or 10) for i, a in enumerate(values) for b in values[i + 1:])
    each = played // 2

    @functools.cache
    def fits(left: tuple[int, ...], lengths: tuple[int, ...]) -> bool:
        """Whether cards with ``left[v]`` of each value v split into groups of these
        lengths, each adding up to under 20."""
        return not lengths or any(fits(rest, lengths[1:]) for rest in _groups(left, lengths[0], 1, TWENTY - 1))

    best = 0
    stack: list[tuple[int, ...]] = [()]
    while stack:
        lengths = stack.pop()
        used = sum(lengths)
        if not fits(tuple(values[:used].count(v) for v in range(11)), lengths):
            continue
        a_cards = each - sum((n + 1) // 2 for n in lengths)
        free = played - used
        top_value = sum(values[used:][-free:]) if free else 0
        short = max(0, min(a_cards, top_value // TWENTY))
        best = max(best, sum(map(_net_chain, lengths)) + EXACT * short)
        for n in range(FIVE, min(lengths[-1] if lengths else MAX_TALLY, MAX_TALLY) + 1):
            if used + n <= played and sum(values[:used + n]) < TWENTY * (len(lengths) + 1):
                stack.append((*lengths, n))
    return best + bonus


def _exact_margin(counts: tuple[int, ...], played: int) -> int:
    """The most seat A's round score can exceed B's when ``played`` cards of a pack with
    ``counts`` cards of each value are played, A first or second: a search over the values
    played, in order (which of equal values is played does not matter), then the End of
    Round Bonus of the two revealed cards, which the last scorer takes."""
    pack = sum(counts)

    def bonuses(left: tuple[int, ...]) -> list[int]:
        have = [v for v in range(11) if left[v]]
        return [abs(a - b) or 10 for a in have for b in have if a != b or left[a] > 1]

    @functools.cache
    def best(left: tuple[int, ...], tally: int, cards: int, a_moves: bool, last: int) -> int:
        """The most A can gain from here; ``last``: 1 if A scored last, −1 if B, 0 if nobody."""
        if pack - sum(left) == played:
            return last * (max(bonuses(left)) if last > 0 else min(bonuses(left)))
        sign = 1 if a_moves else -1
        most = -10**9
        for value in range(1, 11):
            if not left[value]:
                continue
            rest = (*left[:value], left[value] - 1, *left[value + 1:])
            total = tally + value
            if total >= TWENTY:
                gain, after = (EXACT if total == TWENTY else total - TWENTY), (0, 0)
            else:
                gain, after = tally_points(cards + 1), (total, cards + 1)
            scorer = sign if gain else last
            most = max(most, sign * gain + best(rest, *after, not a_moves, scorer))
        return most

    return max(best(counts, 0, 0, True, 0), best(counts, 0, 0, False, 0))


def _groups(left: tuple[int, ...], size: int, lowest: int, most: int) -> Iterator[tuple[int, ...]]:
    """What is left of ``left`` (cards by value) after taking each group of ``size`` cards of
    value ``lowest`` or more, adding up to at most ``most``."""
    if size == 0:
        yield left
        return
    for value in range(lowest, min(10, most) + 1):
        if left[value]:
            rest = (*left[:value], left[value] - 1, *left[value + 1:])
            yield from _groups(rest, size - 1, value, most - value)


_NUMBER_WORDS = ("", "one", "two", "three", "four", "five")
"""Hand sizes in words (``hand_size`` is at most five)."""

_HIGHEST_TALLY = TWENTY - 1 + 10
"""The most a tally can come to: 19, then a ten card."""


class _MoveEvents:
    """The events one move can bring one seat, built once for every move number and seat
    (events are values: a move takes its events from here instead of making them)."""

    __slots__ = ("at_twenty", "bonus", "new_hand", "tally")

    def __init__(self, number: int, seat: int) -> None:
        self.at_twenty = [Event(number, seat, EXACT_TWENTY, EXACT, f"{{player}} {{score}} {EXACT} for Exact Twenty")]
        """By how far the tally's value goes past 20 (0 to 9): Exact Twenty, Beyond Twenty."""
        for points in range(1, _HIGHEST_TALLY - TWENTY + 1):
            self.at_twenty.append(Event(number, seat, BEYOND_TWENTY, points,
                                        f"{{player}} {{score}} {points} for Beyond Twenty (tally {TWENTY + points})"))
        self.tally = [Event(number, seat, tally_name(size), tally_points(size),
                            f"{{player}} {{score}} {tally_points(size)} for {tally_name(size)}")
                      for size in range(FIVE, MAX_TALLY + 1)]
        """By the number of cards on a tally below 20, from five: Five Tally, Six Tally, …"""
        self.bonus = [Event(number, seat, END_BONUS, points, f"{{player}} {{take}} the End of Round Bonus of {points}")
                      for points in range(1, 11)]
        """By the End of Round Bonus, from 1: taking it."""
        self.new_hand = [Event(number, seat, NEW_HAND, 0, f"{{player}} {{be}} dealt a new hand of {word}")
                         for word in _NUMBER_WORDS]
        """By the hand size: being dealt a new hand."""


_EVENTS = [[_MoveEvents(number, seat) for seat in (0, 1)] for number in range(MOST_MOVES + 1)]
"""``_EVENTS[move number][seat]``: the events that move can bring that seat."""




@dataclass(frozen=True, slots=True)
class Played:
    """What undoing a play needs (the move's events tell the rest)."""

    hand_index: int
    """Where the card was in the hand."""
    tally_before: int
    """What the tally added up to before the card."""


PLAYED = [[Played(index, before) for before in range(TWENTY)] for index in range(HAND)]
"""``PLAYED[hand_index][tally_before]``: every record, built once (a hand holds ``HAND`` cards at
most, and a tally of 20 or more is set aside at once)."""


class TwentyObservation(BaseObservation):
    """What a seat sees in Twenty."""

    hand: list[str]
    """The seat's own hand, in the order dealt."""
    hands: list[list[str] | None]
    """By seat: the hand, for the seat itself (and everyone's with ``open_hands``); else None."""
    hand_sizes: list[int]
    """Cards in each hand, by seat."""
    revealed: list[str]
    """The cards revealed at the round's start (they set the End of Round Bonus)."""
    bonus: int
    """The End of Round Bonus."""
    tally: list[str]
    """The tally's cards, in the order played."""
    tally_value: int
    """What the tally adds up to."""
    set_aside: list[str]
    """The cards of tallies already scored and set aside, in the order played."""
    stock_count: int
    """Cards in the stock (with option ``hands`` under the pack's five, some are never dealt)."""
    last_scorer: int | None
    """The seat that scored last (it takes the End of Round Bonus), or None."""
    hands_dealt: list[int]
    """Hands dealt to each seat this round."""


class TwentyState(Turns, StockPile, State):
    """A match of Twenty."""

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]] = {"play": (("card",),)}

    hands: list[list[Card]]
    stock: list[Card]
    stock_pos: int
    tally: list[Card]
    tally_value: int
    set_aside: list[Card]
    to_move: int
    last_scorer: int | None
    bonus: int
    hands_dealt: list[int]
    hand_size: int
    """Cards in a hand (option ``hand_size``)."""
    hands_a_round: int
    """Hands each seat is dealt in a round (option ``hands``)."""
    unplayed: list[int]
    """By value (1–10): how many cards of that value are still in the hands and the stock,
    not yet played.  A player counting cards knows it; less their own hand, it is what the
    other hand and the stock hold (the advice's count).  Kept as moves are made and undone."""
    _undo: list[Played]
    """Per move, what undoing it needs."""

    # -- the deal --------------------------------------------------------------
    def round_starter(self, round_index: int) -> int:
        """Round 1: seat ``first``; round 2: the other seat."""
        return round_starter(self.first, round_index)

    def _start_round(self, deal: Deal) -> None:
        self.revealed: list[Card] = list(deal["revealed"])
        self.bonus = end_of_round_bonus(self.revealed)
        hand_0, hand_1 = deal["hands"]
        self.hands = [list(hand_0), list(hand_1)]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self.tally = []
        self.tally_value = 0
        self.set_aside = []
        self.to_move = self.round_starter(self.round_index)
        self.last_scorer = None
        self.hands_dealt = [1, 1]
        self.hand_size = self.options["hand_size"]
        self.hands_a_round = self.options["hands"]
        self.unplayed = pack_values(self.options)  # a deal is the whole pack: all of it but the revealed cards
        for card in self.revealed:
            self.unplayed[VALUE[card]] -= 1
        self._undo = []
        self._over = False

    # -- play ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The hand's cards, each as ``play <card>``, in the hand's order."""
        if self._over:
            return []
        return list(map(_PLAY_OF, self.hands[self.to_move]))

    def is_match_over(self) -> bool:
        """After the last round (two, or option ``rounds``)."""
        return self._over and self.round_index + 1 >= self.options["rounds"]

    def apply(self, move: Move) -> None:
        """Play a card from the hand of the player to move onto the tally and score what it
        makes (see the module's rules); then the turn passes, with a new hand of five for a
        player whose hand is empty, or the round ends."""
        seat = self.to_move
        hand = self.hands[seat]
        verb, args = move
        card = args[0] if len(args) == 1 else None
        if self._over or verb != "play" or type(card) is not Card:
            raise self._illegal(move)
        try:
            index = hand.index(card)
        except ValueError:
            raise self._illegal(move) from None
        del hand[index]
        moves = self.moves
        moves.append(move)
        value = VALUE[card]
        self.unplayed[value] -= 1
        tally = self.tally
        tally.append(card)
        before = self.tally_value
        value += before
        if value < TWENTY:
            self.tally_value = value
            if len(tally) >= FIVE:  # Five Tally, Six Tally, …
                self._score(seat, _EVENTS[len(moves)][seat].tally[len(tally) - FIVE])
        else:  # Exact Twenty or Beyond Twenty: the tally is set aside
            self._score(seat, _EVENTS[len(moves)][seat].at_twenty[value - TWENTY])
            self.set_aside += tally
            self.tally = []
            self.tally_value = 0
        self._undo.append(PLAYED[index][before])
        nxt = 1 - seat
        self.to_move = nxt
        hands = self.hands
        if not hands[nxt]:
            if self.hands_dealt[nxt] < self.hands_a_round:  # a new hand, when it is their turn
                pos, size = self.stock_pos, self.hand_size
                hands[nxt] = self.stock[pos:pos + size]
                self.stock_pos = pos + size
                self.hands_dealt[nxt] += 1
                self.events.append(_EVENTS[len(moves)][nxt].new_hand[size])
            elif not hand:  # both hands are empty, and no more are dealt (the stock is used up)
                self._over = True
                scorer = self.last_scorer
                if scorer is not None:  # the End of Round Bonus
                    self._score(scorer, _EVENTS[len(moves)][scorer].bonus[self.bonus - 1])

    def _score(self, seat: int, event: Event) -> None:
        self.scores[seat] += event.points
        self.last_scorer = seat
        self.events.append(event)

    def undo(self) -> Move:
        """Take back the last move: the card leaves the tally for its place in the hand,
        and what the move's events say it did is undone — points scored (the End of
        Round Bonus too), a new hand dealt, a tally of 20 or more set aside."""
        if not self._undo:
            raise ValueError("nothing to undo in this round")
        record = self._undo.pop()
        before = record.tally_before
        move = self.moves.pop()
        card = move.card()
        seat = 1 - self.to_move  # turns alternate
        number = len(self.moves) + 1
        events = self.events
        scored = False
        while events and events[-1].move == number:
            event = events.pop()
            whose = event.seat
            assert whose is not None, "every event of Twenty is a seat's"
            if event.kind == NEW_HAND:
                self.hands[whose] = []
                self.stock_pos -= self.hand_size
                self.hands_dealt[whose] -= 1
            else:
                scored = True
                self.scores[whose] -= event.points
                if event.kind in _SETS_ASIDE:
                    self.tally = self._last_set_aside(before + VALUE[card])
        self._over = False
        self.tally.pop()
        self.tally_value = before
        self.unplayed[VALUE[card]] += 1
        if scored:
            self.last_scorer = next((e.seat for e in reversed(events) if e.kind != NEW_HAND), None)
        self.hands[seat].insert(record.hand_index, card)
        self.to_move = seat
        return move

    def _last_set_aside(self, value: int) -> list[Card]:
        """Take the last tally set aside, which came to ``value``, back off the set-aside
        pile: its cards are the last ones there that add up to it."""
        set_aside = self.set_aside
        start, running = len(set_aside), 0
        while running < value:
            start -= 1
            running += VALUE[set_aside[start]]
        tally = set_aside[start:]
        del set_aside[start:]
        return tally

    # -- views -----------------------------------------------------------------
    def stock_draws(self, move: Move) -> tuple[int, int]:
        # A new hand is dealt to the player whose hand is empty when the turn passes to them.
        other = 1 - self.to_move
        if not self.hands[other] and self.hands_dealt[other] < self.hands_a_round:
            return self.hand_size, other
        return 0, -1

    def deal_without_chance(self) -> Deal | None:
        """With ``open_hands``, round 2 (and every second round after it) replays the round
        before's deal with the hands exchanged, as :meth:`Twenty.random_deal` deals it."""
        if self.deal is None or self.game.dealt_by_chance(self.options, self.round_index + 1):
            return None
        return _exchanged(self.deal)

    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        """``You play 7♥: the tally is 15`` — and what the tally comes to."""
        card = move.card()
        value = self.tally_value + VALUE[card]
        if value == TWENTY:
            tally = f"the tally makes exactly {TWENTY}"
        elif value > TWENTY:
            tally = f"the tally goes to {value}, beyond {TWENTY}"
        else:
            tally = f"the tally is {value}"
        return self.voice(viewer).says("play", f"{card_text(card)}: {tally}")

    def zones(self) -> dict[str, list[Card]]:
        return {
            "revealed": list(self.revealed),
            "hand 0": list(self.hands[0]),
            "hand 1": list(self.hands[1]),
            "tally": list(self.tally),
            "set aside": list(self.set_aside),
            "stock": self.stock[self.stock_pos:],
        }

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes this position, as comparable values."""
        return (
            self.round_index, tuple(map(tuple, self.hands)), tuple(self.stock), self.stock_pos,
            tuple(self.tally), self.tally_value, tuple(self.set_aside), self.to_move,
            self.last_scorer, tuple(self.scores), tuple(self.moves), tuple(self.events),
            self._over, tuple(self.hands_dealt),
        )

    def observation(self, seat: int) -> Observation:
        """See :class:`TwentyObservation`."""
        open_hands = self.options["open_hands"]
        obs: TwentyObservation = {
            **self._base_observation(seat),
            "hand": [str(c) for c in self.hands[seat]],
            "hands": [
                [str(c) for c in h] if (s == seat or open_hands) else None
                for s, h in enumerate(self.hands)
            ],
            "hand_sizes": [len(h) for h in self.hands],
            "revealed": [str(c) for c in self.revealed],
            "bonus": self.bonus,
            "tally": [str(c) for c in self.tally],
            "tally_value": self.tally_value,
            "set_aside": [str(c) for c in self.set_aside],
            "stock_count": len(self.stock) - self.stock_pos,
            "last_scorer": self.last_scorer,
            "hands_dealt": list(self.hands_dealt),
        }
        return cast(Observation, obs)

    def copy(self) -> TwentyState:
        other = TwentyState.__new__(TwentyState)
        self._copy_base(other)
        other.revealed = self.revealed
        other.bonus = self.bonus
        other.hands = [list(h) for h in self.hands]
        other.stock = self.stock
        other.stock_pos = self.stock_pos
        other.tally = list(self.tally)
        other.tally_value = self.tally_value
        other.set_aside = list(self.set_aside)
        other.to_move = self.to_move
        other.last_scorer = self.last_scorer
        other.hands_dealt = list(self.hands_dealt)
        other.hand_size = self.hand_size
        other.hands_a_round = self.hands_a_round
        other.unplayed = list(self.unplayed)
        other._undo = list(self._undo)
        other._over = self._over
        return other

    def _explain_illegal(self, move: Move) -> Wrong | str:
        if move.verb != "play" or len(move.args) != 1 or type(move.args[0]) is not Card:
            return "The only move in Twenty is 'play <card>'"
        return Wrong.not_in_hand(move.args[0], self.hands[self.to_move])


class Twenty(Game):
    """Twenty's metadata, deals and determinization."""

    id = "twenty"
    name = "Twenty"
    players = 2
    version = "1.0"
    summary = "adding-up game: exact 20, beyond 20, Five Tally chains"
    observation_type = TwentyObservation
    options = (
        Option("open_hands", False, "both hands face up; round 2 replays round 1's deal with hands exchanged", bool),
        Option("suits", len(SUITS), "suits in the pack, the first of clubs, diamonds, hearts, spades", int, 1,
               len(SUITS), designer=True),
        Option("ranks", len(RANKS), "ranks in each suit, the highest kept (6: 8 9 T J Q K)", int, 1, len(RANKS),
               designer=True),
        Option("hand_size", HAND, "cards in each hand (Five Tally is still five cards)", int, 1, HAND, designer=True),
        Option("hands", HANDS_A_ROUND, "hands each player is dealt in a round (the rest of the stock is not played)",
               int, 1, designer=True),
        Option("rounds", ROUNDS, "rounds in a match; the players take turns to play first", int, 1, 100),
    )
    micro_options: ClassVar[Mapping[str, Any]] = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}
    """One suit of 7 to K (values 7, 8, 9 and four ten cards), two revealed, a hand of two each
    and one round of four moves: the full game's choices (keep a ten card, deny the opponent
    an Exact Twenty, go beyond) on a tree of 79,220 histories that OpenSpiel's CFR+ solves
    to under 1% of the utility range in about a minute (``docs/research.md``).  One card stays
    in the stock unseen, so neither player can count the other's hand: the information stays
    imperfect to the end (with ``ranks: 6`` every card is dealt and a card counter knows all)."""
    event_kinds = (EXACT_TWENTY, BEYOND_TWENTY, *(tally_name(n) for n in range(FIVE, MAX_TALLY + 1)),
                   END_BONUS, NEW_HAND)
    endings = (RoundEnding("Cards played out", None),)
    deal_zones = ("revealed", "hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return TwentyState

    def deck(self, options: Any = None) -> list[Card]:
        """The 52-card pack, or its first ``suits`` suits and highest ``ranks`` ranks."""
        return _pack(*_pack_options(options))

    def _check_option_combination(self, values: dict[str, Any]) -> None:
        """The pack must hold the revealed cards and every hand, and leave a stock no
        bigger than the full game's."""
        pack = values["suits"] * values["ranks"]
        size, hands = values["hand_size"], values["hands"]
        needed = REVEALED + 2 * hands * size
        if needed > pack:
            raise OptionError(
                f"options: {hands} hand(s) of {size} for each player and {REVEALED} revealed cards need {needed} "
                f"cards, but {values['suits']} suit(s) of {values['ranks']} rank(s) make a pack of {pack}")
        if pack - REVEALED - 2 * size > MOST_STOCK:
            raise OptionError(
                f"options: a pack of {pack} with hands of {size} leaves {pack - REVEALED - 2 * size} cards in the "
                f"stock after the deal; at most {MOST_STOCK} (as in the full game): use fewer suits or ranks")

    def hand_size(self, options: Mapping[str, Any]) -> int:
        """Five, or option ``hand_size``."""
        return int(options["hand_size"])

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the tally comes to."""
        return {"tally": view.get("tally_value")}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """``rounds`` rounds of exactly ``2 × hands × hand_size`` moves (50: every card but
        the revealed ones); ``points`` is one more than :func:`most_margin`, the proven most
        by which one seat's round score can exceed the other's (480 in the full game, where
        a built round reaches 420; 21 in the micro variant, exactly)."""
        return Bounds(options["rounds"], 2 * options["hands"] * options["hand_size"],
                      most_margin(*_pack_options(options), options["hand_size"], options["hands"]) + 1)

    def move_kind(self, move: Move) -> str:
        """A card by what it adds to the tally: ``play 7``, ``play 10``."""
        card = move.args[0] if move.args else None
        return f"{move.verb} {VALUE[card]}" if type(card) is Card else move.verb

    def card_role(self, card: Card) -> CardRole | None:
        """Every card shows what it adds to the tally (A = 1, 10 J Q K = 10)."""
        return CardRole(str(VALUE[card]), "value")

    def dealt_by_chance(self, options: Mapping[str, Any], round_index: int) -> bool:
        """With ``open_hands``, round 2 (and every second round after it) is not shuffled."""
        return not (options["open_hands"] and round_index % 2 == 1)

    def hands_face_up(self, options: Mapping[str, Any]) -> bool:
        return bool(options["open_hands"])

    def deal_layout(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        size = self.hand_size(options)
        return [("revealed", -1)] * REVEALED + [("hands", seat) for seat in range(2) for _ in range(size)]

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle the pack: two revealed, a hand (five) to each seat, the rest (40) in the stock.

        With ``open_hands``, round 2 (and every second round after it) reuses the round
        before's deal with hands exchanged.
        """
        options = state.options
        if options["open_hands"] and state.round_index % 2 == 1 and state.history[-1].deal:
            return _exchanged(state.history[-1].deal)
        deck = self.deck(options)
        rng.shuffle(deck)
        size = options["hand_size"]
        return {"revealed": deck[:REVEALED], "hands": [deck[REVEALED:REVEALED + size],
                                                       deck[REVEALED + size:REVEALED + 2 * size]],
                "stock": deck[REVEALED + 2 * size:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        """Exactly the pack (52 cards): 2 revealed, a hand (5) each, the rest (40) in the stock."""
        options = state.options
        every = [*deal["revealed"], *(c for h in deal["hands"] for c in h), *deal["stock"]]
        pack = self.deck(options)
        check_deck(every, pack, "Twenty", f"not the {len(pack)}-card pack")
        if len(deal["revealed"]) != REVEALED:
            raise ValueError(f"deal: revealed must hold {REVEALED} cards, not {len(deal['revealed'])}")
        size = options["hand_size"]
        if len(deal["hands"]) != 2 or any(len(h) != size for h in deal["hands"]):
            raise ValueError(f"deal: hands must be two hands of {size} cards")
        if options["open_hands"] and state.round_index % 2 == 1 and state.history:
            first_deal = state.history[-1].deal
            if first_deal is not None and _exchanged(first_deal) != deal:
                raise ValueError(
                    "deal: with open_hands, round 2 must be round 1's deal with the hands exchanged"
                )

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """Rebuild the round from what the seat saw; deal unseen cards at random.

        Every card played so far is known, and so is which hand it came
        from; only the cards still in hidden hands and the stock are unknown.
        """
        rebuild = _Rebuild(observation)
        deal, _ = rebuild.deal(rng)
        return rebuild.replay(deal)

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        """:meth:`determinize`, many times over: the round is replayed once; each sample
        deals the unseen cards as :meth:`determinize` would with the same RNG and puts
        them into a copy of the replayed round.  Nothing else in the round depends on
        them (every card played is public, and each was the first card of its hand)."""
        rebuild = _Rebuild(observation)
        template: TwentyState | None = None

        def sample(rng: random.Random) -> State:
            nonlocal template
            deal, current = rebuild.deal(rng)
            if template is None:
                template = rebuild.replay(deal)
            state = template.copy()
            state.deal = deal
            state.stock = list(deal["stock"])
            state.hands = [list(hand) for hand in current]
            return state

        return sample


class _Rebuild:
    """What :meth:`Twenty.determinize` reads from an observation before it deals."""

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.moves = [Move.parse(m) for m in observation["moves"]]
        starter = round_starter(observation["first"], len(observation["history"]))
        self.played: list[list[Card]] = [[], []]
        for i, move in enumerate(self.moves):
            self.played[(starter + i) % 2].append(move.card())
        self.known_hand: list[list[Card] | None] = [
            [Card.parse(c) for c in h] if h is not None else None for h in observation["hands"]
        ]
        self.revealed = [Card.parse(c) for c in observation["revealed"]]
        seen = set(self.revealed)
        seen.update(self.played[0])
        seen.update(self.played[1])
        for h in self.known_hand:
            if h is not None:
                seen.update(h)
        self.unseen = [c for c in GAME.deck(observation["options"]) if c not in seen]
        # The order in which hands came off the stock follows from the turns.
        self.order: list[int] = []
        self.size = size = observation["options"]["hand_size"]
        in_hand = [size, size]
        given = [1, 1]
        to_move = starter
        for _ in self.moves:
            in_hand[to_move] -= 1
            to_move = 1 - to_move
            if in_hand[to_move] == 0 and given[to_move] < observation["hands_dealt"][to_move]:
                self.order.append(to_move)
                given[to_move] += 1
                in_hand[to_move] = size

    def deal(self, rng: random.Random) -> tuple[Deal, list[list[Card]]]:
        """Shuffle the unseen cards into the hidden hands and the stock: the round's deal,
        with every card played in its player's hand first, and the hands held now."""
        unseen = self.unseen[:]
        rng.shuffle(unseen)
        current: list[list[Card]] = []
        for s in (0, 1):
            h = self.known_hand[s]
            if h is None:
                size = self.observation["hand_sizes"][s]
                h, unseen = unseen[:size], unseen[size:]
            current.append(h)
        dealt = [self.played[s] + current[s] for s in (0, 1)]
        stock: list[Card] = []
        nth = [1, 1]
        size = self.size
        for s in self.order:
            stock.extend(dealt[s][size * nth[s]:size * (nth[s] + 1)])
            nth[s] += 1
        stock.extend(unseen)
        deal = {
            "revealed": list(self.revealed),
            "hands": [dealt[0][:size], dealt[1][:size]],
            "stock": stock,
        }
        return deal, current

    def replay(self, deal: Deal) -> TwentyState:
        """The round dealt ``deal``, with the observation's moves made on it."""
        observation = self.observation
        state = TwentyState(
            dict(observation["options"]), observation["first"], tuple(observation["names"]), None
        )
        restore_base(state, observation)
        state.deal = deal
        state._start_round(deal)
        for move in self.moves:
            state.apply(move)
        return state


def _exchanged(deal: Deal) -> Deal:
    return {"revealed": list(deal["revealed"]), "hands": [list(deal["hands"][1]), list(deal["hands"][0])],
            "stock": list(deal["stock"])}


GAME = Twenty()
TwentyState.game = GAME
