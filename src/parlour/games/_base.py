"""Machinery the games share.

:class:`PlayThenDraw` is the turn of Lost Cities that Minus Twenty and
Progression keep: put a card down, then draw from the stock or a face-up pile.

:class:`StockPile` is the face-down stock every game of the family draws
from: ``stock[stock_pos:]`` is what is left, top first.  The stock's list is
never changed in place during play (copies of a state share it); only a
referee arranging the next draws (the OpenSpiel adapter's chance nodes)
replaces it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from parlour.cards import ALL_CARDS, SUITS, Card, sort_hand, to_text
from parlour.game import BaseObservation, Deal, Move, State


def best_over_suits(suit: Mapping[tuple[int, int], int], suits: int,
                    fits: Callable[[tuple[int, int]], bool]) -> int:
    """The best total of ``suits`` suits, each contributing one of ``suit``'s entries
    ((leader's cards, trailer's cards) → points), with every running pair of card counts
    inside ``fits``: the knapsack the games' ``bounds`` solve for the widest round margin."""
    best = {(0, 0): 0}
    for _ in range(suits):
        after: dict[tuple[int, int], int] = {}
        for (a, b), total in best.items():
            for (more_a, more_b), gain in suit.items():
                key = (a + more_a, b + more_b)
                if fits(key) and after.get(key, total + gain - 1) < total + gain:
                    after[key] = total + gain
        best = after
    return max(best.values())


class Turns:
    """Whose turn it is, until the round is over (mixed into the game's :class:`~parlour.game.State`)."""

    to_move: int
    _over: bool

    def current_player(self) -> int | None:
        return None if self._over else self.to_move

    def is_round_over(self) -> bool:
        return self._over


class StockPile:
    """A state's face-down stock (mixed into the game's :class:`~parlour.game.State`)."""

    stock: list[Card]
    stock_pos: int
    deal: Deal | None
    hands: list[list[Card]]
    read_from_play: ClassVar[bool] = False
    """Whether a search may read the hidden cards from the round's moves (:mod:`parlour.bots.infer`):
    the round must replay with any two cards of :meth:`hidden_cards` or the draw pile exchanged
    (:meth:`exchange`), which needs every card to be one of a kind (not so with two decks)."""

    def stock_left(self) -> list[Card]:
        """The cards still to be drawn, the next one first (the referee's knowledge)."""
        return self.stock[self.stock_pos:]

    def arrange_stock(self, offset: int, card: Card) -> None:
        """Make ``card`` (one of the cards left) the card drawn ``offset`` draws from now,
        by exchanging it with the card there; the round's deal is rewritten to match, so
        the record of the round replays as it was played."""
        at = self.stock_pos + offset
        stock = list(self.stock)
        where = stock.index(card, at)
        stock[at], stock[where] = stock[where], stock[at]
        self.stock = stock
        if self.deal is not None:
            self.deal = {**self.deal, "stock": list(stock)}

    def hidden_cards(self, seat: int) -> list[Card]:
        """The cards in the other hands that ``seat`` cannot tell from the stock's
        (a game whose search reads hands from play says: see :mod:`parlour.bots.infer`)."""
        raise NotImplementedError(f"{type(self).__name__} does not say which cards are hidden")

    def exchange(self, a: Card, b: Card) -> None:
        """Swap the places of two cards, each in a hand or the stock (a searcher
        trying other hidden cards; the state's deal no longer describes it)."""
        self.stock = list(self.stock)  # copies of a state share their stock
        places = [(pile, pile.index(card)) for card in (a, b)
                  for pile in (*self.hands, self.stock) if card in pile]
        if len(places) != 2:
            raise ValueError(f"{a} and {b} are not each in a hand or the stock")
        (pile_a, at_a), (pile_b, at_b) = places
        pile_a[at_a], pile_b[at_b] = b, a
        self.deal = None


DRAW = Move("draw")
"""``draw``: the top card of the draw pile."""
TAKE = [Move("take", (s,)) for s in SUITS]
"""``take <suit>``: the top card of that suit's face-up pile, by suit index (C D H S)."""
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
DRAWS = [(DRAW, *(TAKE[s] for s in range(4) if mask >> s & 1)) for mask in range(16)]
"""The draw moves by the set of face-up piles that may be taken from (bit s: suit s)."""
DRAW_FROM: dict[Move, int] = {DRAW: -1, **{take: suit for suit, take in enumerate(TAKE)}}
"""What each move of step 2 draws from: -1 for the draw pile, else a face-up pile's suit index."""


class TurnObservation(BaseObservation):
    """What a seat sees of the play-then-draw machine (part of each such game's observation)."""

    hand: list[str]
    """The seat's own hand, sorted."""
    hand_sizes: list[int]
    """Cards in each hand, by seat."""
    known: list[list[str]]
    """By seat: the cards in that hand everyone saw it take from a face-up pile."""
    stock_count: int
    """Cards left in the draw pile."""
    step: Literal["play", "draw"] | None
    """The step of the turn to be taken (None when the round is over)."""
    stall_count: int
    """Turns in a row that have taken from a face-up pile (see the stall rule)."""


Put = tuple[Move, Card, int, int, int, int, "list[bool] | None"]
"""What a move of step 1 does, as the machine's table of them says (built once a game): the
game's own move (``play 7H``, the one :meth:`PlayThenDraw.legal_moves` hands out), the card,
its code as a plain number (lists are indexed fastest by one), its suit, its bit in
:attr:`PlayThenDraw.shown`, its value (:attr:`PlayThenDraw.value`), and for a ``play``
whether it fits the seat's own pile by the value that pile has reached (:meth:`PlayThenDraw.fits`;
None for a move onto the face-up pile).  A plain tuple: it is unpacked on every move."""


# -- what undo needs: one record for each kind of step ---------------------------------
# Records are values, so they are built once, by hand index and stall count, like the moves
# themselves (a record built on every move cost a fifth of the move).


@dataclass(frozen=True, slots=True)
class PutDown:
    """A card went from the mover's hand onto the seat's own pile, or onto a face-up pile for
    the first time this round (undoing it puts the card back and forgets it was shown)."""

    hand_index: int
    """Where the card was in the hand."""


@dataclass(frozen=True, slots=True)
class PileAgain:
    """A card went back onto a face-up pile it had lain on before this round (undoing it puts
    the card back in the hand as one everyone saw taken)."""

    hand_index: int
    """Where the card was in the hand."""


@dataclass(frozen=True, slots=True)
class Drew:
    """The mover drew (from the draw pile or a face-up pile), ending the turn."""

    stall_before: int
    """The stall count before the draw (:attr:`PlayThenDraw.stall`)."""


TurnRecord: TypeAlias = PutDown | PileAgain | Drew
"""What :meth:`PlayThenDraw.undo` needs to take back one step of a turn."""

PUT_DOWN = tuple(PutDown(index) for index in range(len(ALL_CARDS)))
"""``PUT_DOWN[hand_index]`` (a hand never holds more cards than there are)."""
PILE_AGAIN = tuple(PileAgain(index) for index in range(len(ALL_CARDS)))
"""``PILE_AGAIN[hand_index]``."""
DREW = tuple(Drew(stall) for stall in range(256))
"""``DREW[stall_before]``, for every stall count short of the longest stall limit played
(a longer one, with no limit, is built as it happens)."""


REACHED = range(11)
"""The values a seat's own pile of a suit can have reached: 0 (no number yet) to 10."""
REACH_WEIGHT = (1, 11, 121, 1331)
"""A seat's reach code is the sum over suits of the value its own pile has reached times the
suit's weight: the four values in one number."""

Figures = tuple[int, int, int, int]
"""A seat's own pile in figures: (the sum of its cards' values, how many of its cards are worth
0, how many cards it holds, the value it has reached), which is all its score and the
heuristics' outlook need (Minus Twenty: numbers, investments, cards, top number; Progression:
total, face cards, cards, floor)."""
NO_FIGURES: Figures = (0, 0, 0, 0)
"""An empty pile's figures."""


class PlayThenDraw(Turns, StockPile, State):
    """The turn of Lost Cities and its descendants: put a card down, then draw.

    1. The player to move puts a card from hand down, either
       * onto the seat's own pile of its suit (``play <card>``; ``own``, the
         meld or the private stack), when the game's rule :meth:`fits` allows
         it given the value that pile has reached (``reached``: its top
         card's :attr:`value`, 0 while it is empty), or
       * onto the face-up pile of its suit (``piles``; the move ``pile_verb
         <card>``), which any card may go to: ``pile_played`` notes it.
    2. The same player takes the top card of the draw pile (``draw``) or of
       a face-up pile (``take <suit>``) — not the pile played to this turn
       unless ``take_back`` allows it.  The turn passes to the next seat.

    The round ends at once when the last card of the draw pile is drawn, or
    by the stall rule: when ``stall_limit`` turns in a row have taken from
    the face-up piles (0: never).  Each game scores the round in
    :meth:`_end_round`.

    A card in a hand that has lain on a face-up pile this round
    (``was_on_pile``) is one its holder took from there: everyone knows it.

    What the rules and the advice read on every move is kept move by move (and undone with
    it), never counted afresh: each own pile in figures (:attr:`figures`), the cards put down
    (:attr:`shown`), the known cards in each hand (:attr:`known_count`), each seat's moves of
    step 1 by card (``_offers``).  :meth:`pile_figures`, :meth:`shown_now` and
    :meth:`known_count_now` count them from the cards (the tests hold the two equal).  A move
    of the game is read from a table built once (:data:`Put`, :data:`DRAW_FROM`).
    """

    read_from_play = True

    __slots__ = ("_offers", "_over", "_puts", "_reach_codes", "_undo", "drawing", "figures", "hands", "known_count",
                 "own", "pile_played", "piles", "reached", "shown", "stall", "stall_limit", "stock", "stock_pos",
                 "take_back", "to_move", "was_on_pile")
    # The machine's fields in slots: a move reads and writes them many times.

    pile_verb: ClassVar[str]
    """The move that puts a card on its face-up pile (``discard``, ``public``)."""
    play_moves: ClassVar[Sequence[Move]]
    """``play <card>`` by card code, built once."""
    pile_moves: ClassVar[Sequence[Move]]
    """``<pile_verb> <card>`` by card code, built once."""
    value: ClassVar[Sequence[int]]
    """By card code: the value a seat's own pile has reached with that card on top."""
    _fits: ClassVar[list[list[bool]]]
    """:meth:`fits` by card code and value reached."""
    _step_one: ClassVar[list[list[tuple[Move, ...]]]]
    """The moves of step 1 of a card in hand, by card code and the value its own pile has reached."""
    _offer_tables: ClassVar[list[list[tuple[Move, ...]] | None]]
    """:meth:`_offers_for`, by :data:`reach code <REACH_WEIGHT>`: each built the first time
    such a seat is met, then kept."""
    _put_table: ClassVar[dict[Move, Put]]
    """What each move of step 1 does (see :data:`Put`)."""
    shown_bits: ClassVar[list[int]]
    """By card code: the card's bit in :attr:`shown` (0 for a card worth 0)."""
    hands: list[list[Card]]
    own: list[list[list[Card]]]
    """``own[seat][suit index]``: the seat's own pile of that suit, bottom card first."""
    reached: list[list[int]]
    """``reached[seat][suit index]``: the value of the top card of that own pile (0: empty)."""
    figures: list[list[Figures]]
    """``figures[seat][suit index]``: that own pile in figures (see :data:`Figures`), kept up
    to date move by move."""
    shown: int
    """The cards of value 1 or more that have been put down this round (onto an own pile or a
    face-up pile), whoever holds them now: bit ``11 * suit + value`` each (no two such cards of a
    suit share a value).  With a seat's hand, it is every such card that seat has seen."""
    piles: list[list[Card]]
    """The face-up piles a player may take from, by suit index, bottom card first."""
    was_on_pile: list[bool]
    """By card code: has it lain on a face-up pile this round?"""
    known_count: list[int]
    """By seat: how many cards in its hand have lain on a face-up pile this round (everyone
    saw it take them), kept up to date move by move."""
    to_move: int
    drawing: bool
    """True once the player to move has put a card down and must now draw."""
    pile_played: int
    """The suit of the face-up pile the player to move played to this turn, or -1."""
    take_back: bool
    """Whether a player may take back the card played to a face-up pile this same turn."""
    stall: int
    """Turns in a row (this round) whose draw was a take from a face-up pile."""
    stall_limit: int
    """Turns in a row of takes that end the round (0: no limit)."""
    _over: bool
    _undo: list[TurnRecord]
    """Per move, what undoing it needs (see :data:`TurnRecord`)."""
    _offers: list[list[tuple[Move, ...]]]
    """By seat: the moves of step 1 of each card (by code) were it in that seat's hand, given
    the values its own piles have reached (a table of :attr:`_offer_tables`, shared)."""
    _reach_codes: list[int]
    """By seat: the values its own piles have reached, in one number (see :data:`REACH_WEIGHT`)."""
    _puts: dict[Move, Put]
    """The game's :attr:`_put_table` (held by each state: a state's own field is read faster)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Tabulate a game's rule once: :meth:`fits`, and the moves of step 1 it allows."""
        super().__init_subclass__(**kwargs)
        if "fits" in cls.__dict__:
            cards = range(len(cls.play_moves))
            cls._fits = [[cls.fits(ALL_CARDS[c], r) for r in REACHED] for c in cards]
            cls._step_one = [
                [(cls.play_moves[c], cls.pile_moves[c]) if cls._fits[c][r] else (cls.pile_moves[c],)
                 for r in REACHED]
                for c in cards
            ]
            cls.shown_bits = [1 << (11 * (c & 3) + cls.value[c]) if cls.value[c] else 0 for c in cards]
            cls._put_table = {
                **{cls.play_moves[c]: (cls.play_moves[c], ALL_CARDS[c], c, c & 3, cls.shown_bits[c], cls.value[c],
                                       cls._fits[c]) for c in cards},
                **{cls.pile_moves[c]: (cls.pile_moves[c], ALL_CARDS[c], c, c & 3, cls.shown_bits[c], cls.value[c],
                                       None) for c in cards},
            }
            cls._offer_tables = [None] * len(REACHED) ** 4

    @classmethod
    def _offers_for(cls, code: int) -> list[tuple[Move, ...]]:
        """The moves of step 1 of each card (by card code) for a seat whose own piles have
        reached the values of the reach code ``code``."""
        table = cls._offer_tables[code]
        if table is None:
            reached = [code // weight % len(REACHED) for weight in REACH_WEIGHT]
            table = cls._offer_tables[code] = [cls._step_one[c][reached[c & 3]] for c in range(len(cls._step_one))]
        return table

    def _start_turns(self, to_move: int, take_back: bool, stall_limit: int) -> None:
        """The machine's state at a round's start (after the game has dealt)."""
        players = range(self.num_players)
        self.own = [[[], [], [], []] for _ in players]
        self.reached = [[0, 0, 0, 0] for _ in players]
        self._offers = [self._offers_for(0)] * self.num_players
        self._reach_codes = [0] * self.num_players
        self._puts = self._put_table
        self.figures = [[NO_FIGURES] * 4 for _ in players]
        self.shown = 0
        self.piles = [[], [], [], []]
        self.was_on_pile = [False] * len(ALL_CARDS)
        self.known_count = [0] * self.num_players
        self.to_move = to_move
        self.drawing = False
        self.pile_played = -1
        self.take_back = take_back
        self.stall = 0
        self.stall_limit = stall_limit
        self._over = False
        self._undo = []

    def _copy_turns(self, other: PlayThenDraw) -> None:
        """Copy the machine's fields into ``other`` (the hands and every pile included; lists
        of lists are copied by ``map``, in C)."""
        other.hands = list(map(list, self.hands))
        other.own = [list(map(list, seat)) for seat in self.own]
        other.reached = list(map(list, self.reached))
        other._offers = self._offers[:]
        other._reach_codes = self._reach_codes[:]
        other._puts = self._puts
        other.figures = list(map(list, self.figures))
        other.shown = self.shown
        other.stock = self.stock  # never changed during a round: only stock_pos moves
        other.stock_pos = self.stock_pos
        other.piles = list(map(list, self.piles))
        other.was_on_pile = self.was_on_pile[:]
        other.known_count = self.known_count[:]
        other.to_move = self.to_move
        other.drawing = self.drawing
        other.pile_played = self.pile_played
        other.take_back = self.take_back
        other.stall = self.stall
        other.stall_limit = self.stall_limit
        other._over = self._over
        other._undo = self._undo[:]

    # -- the rules' hooks -------------------------------------------------------
    @staticmethod
    def fits(card: Card, reached: int) -> bool:
        """The game's rule: may ``card`` go on the seat's own pile of its suit, which has reached ``reached``?"""
        raise NotImplementedError

    def _end_round(self, seat: int, stalled: bool) -> None:
        """The round has just ended on ``seat``'s draw: score it and set ``_over``.  Its
        events carry the draw's number, ``len(self.moves)``: undoing the draw takes them back."""
        raise NotImplementedError

    # -- the machine -------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._over:
            return []
        if not self.drawing:
            offers = self._offers[self.to_move]
            moves: list[Move] = []
            for card in self.hands[self.to_move]:
                moves += offers[card]
            return moves
        piles = self.piles
        mask = (
            (1 if piles[0] else 0) | (2 if piles[1] else 0)
            | (4 if piles[2] else 0) | (8 if piles[3] else 0)
        )
        if self.pile_played >= 0 and not self.take_back:
            mask &= ~(1 << self.pile_played)
        return list(DRAWS[mask])

    def apply(self, move: Move) -> None:
        """Make ``move``: one look-up in a table built once tells what a move of the game
        does (the moves :meth:`legal_moves` hands out, and any equal to them); the position
        then says whether it is allowed.  Anything else is read by :meth:`_read_put` or
        :meth:`_read_draw`, which refuse it as the rules do."""
        if self._over:
            raise self._illegal(move)
        seat = self.to_move
        hand = self.hands[seat]
        if not self.drawing:
            try:
                put = self._puts[move]
            except (KeyError, TypeError):  # no game move's equal (TypeError: an argument that is no value)
                put = self._read_put(move)
            else:
                if put[0] is not move and move[1][0] is not put[1]:  # a number equal to a card code is no card
                    put = self._read_put(move)
            _, card, code, suit, bit, value, fits = put
            try:
                index = hand.index(card)
            except ValueError:
                raise self._illegal(move) from None
            if fits is not None:  # onto the seat's own pile, if the game's rule allows
                reached = self.reached[seat]
                if not fits[reached[suit]]:
                    raise self._illegal(move)
                del hand[index]
                self.own[seat][suit].append(card)
                figures = self.figures[seat]
                total, zeros, count, before = figures[suit]
                figures[suit] = (total + value, zeros + (value == 0), count + 1, value)
                reached[suit] = value
                reach = self._reach_codes[seat] = self._reach_codes[seat] + (value - before) * REACH_WEIGHT[suit]
                self._offers[seat] = self._offer_tables[reach] or self._offers_for(reach)
                if self.was_on_pile[code]:
                    self.known_count[seat] -= 1
                self._undo.append(PUT_DOWN[index])
            else:  # the face-up pile of its suit: open to any card
                del hand[index]
                self.piles[suit].append(card)
                self.pile_played = suit
                if self.was_on_pile[code]:
                    self.known_count[seat] -= 1
                    self._undo.append(PILE_AGAIN[index])
                else:
                    self.was_on_pile[code] = True
                    self._undo.append(PUT_DOWN[index])
            self.shown |= bit
            self.moves.append(move)
            self.drawing = True
            return
        try:
            pile = DRAW_FROM[move]
        except (KeyError, TypeError):  # no game move's equal (TypeError: an argument that is no value)
            pile = self._read_draw(move)
        stall = self.stall
        if pile < 0:  # the draw pile
            stock_pos = self.stock_pos
            hand.append(self.stock[stock_pos])
            self.stock_pos = stock_pos + 1
            self.stall = 0
            ends = stock_pos + 1 == len(self.stock)
        else:
            piles = self.piles
            if not piles[pile] or (pile == self.pile_played and not self.take_back):
                raise self._illegal(move)
            hand.append(piles[pile].pop())
            self.known_count[seat] += 1
            self.stall = stall + 1
            ends = self.stall == self.stall_limit
        try:
            self._undo.append(DREW[stall])
        except IndexError:  # a stall longer than any limit played
            self._undo.append(Drew(stall))
        self.moves.append(move)
        self.drawing = False
        self.pile_played = -1
        self.to_move = (seat + 1) % self.num_players
        if ends:
            self._end_round(seat, stalled=pile >= 0)

    def _read_put(self, move: Move) -> Put:
        """What a step-1 move that is no game move's equal does (the :data:`Put` of the game
        move it stands for); :class:`IllegalMoveError` for anything that is not ``play <card>``
        or ``<pile_verb> <card>`` with a card in the mover's hand."""
        verb, args = move
        card = args[0] if len(args) == 1 else None
        if type(card) is not Card or card not in self.hands[self.to_move]:
            raise self._illegal(move)
        if verb == "play":
            put = self._put_table[self.play_moves[card]]
        elif verb == self.pile_verb:
            put = self._put_table[self.pile_moves[card]]
        else:
            raise self._illegal(move)
        return (put[0], card, *put[2:])  # the card as given (a card made afresh is still that card)

    def _read_draw(self, move: Move) -> int:
        """The pile a step-2 move draws from (-1: the draw pile), for a move that is no game
        move's equal: ``draw``, or ``take <suit>`` (whose pile :meth:`apply` then checks)."""
        verb, args = move
        if verb == "draw" and not args:
            return -1
        suit = args[0] if len(args) == 1 else None
        pile = SUIT_INDEX.get(suit, -1) if verb == "take" and type(suit) is str else -1
        if pile < 0:
            raise self._illegal(move)
        return pile

    def undo(self) -> Move:
        if not self._undo:
            raise ValueError("nothing to undo in this round")
        record = self._undo.pop()
        move = self.moves.pop()
        if not isinstance(record, Drew):  # step 1 (the mover is drawing): take back the card put down
            seat = self.to_move
            _, _, code, suit, bit, value, fits = self._puts[move]
            card = move.card()  # the card as it was given
            if fits is not None:  # off the seat's own pile
                own = self.own[seat][suit]
                own.pop()
                after = self.reached[seat][suit] = self.value[own[-1]] if own else 0
                figures = self.figures[seat]
                total, zeros, count, _ = figures[suit]
                figures[suit] = (total - value, zeros - (value == 0), count - 1, after)
                reach = self._reach_codes[seat] = self._reach_codes[seat] + (after - value) * REACH_WEIGHT[suit]
                self._offers[seat] = self._offer_tables[reach] or self._offers_for(reach)
                self.hands[seat].insert(record.hand_index, card)
                if self.was_on_pile[code]:
                    self.known_count[seat] += 1
                else:  # put down for the first time
                    self.shown &= ~bit
            else:  # off the face-up pile
                self.piles[suit].pop()
                if isinstance(record, PileAgain):
                    self.known_count[seat] += 1
                else:  # put down for the first time
                    self.was_on_pile[code] = False
                    self.shown &= ~bit
                self.hands[seat].insert(record.hand_index, card)
            self.drawing = False
            self.pile_played = -1
            return move
        seat = (self.to_move - 1) % self.num_players
        if self._over:
            self._over = False
            self.scores = [0] * self.num_players
            number = len(self.moves) + 1  # the round's end was this move's
            while self.events and self.events[-1].move == number:
                self.events.pop()
        drawn = self.hands[seat].pop()
        if move[0] == "draw":
            self.stock_pos -= 1
        else:
            self.piles[drawn & 3].append(drawn)
            self.known_count[seat] -= 1
        self.stall = record.stall_before
        before = self._puts[self.moves[-1]]  # the card this seat put down before it drew
        self.pile_played = before[3] if before[6] is None else -1
        self.to_move = seat
        self.drawing = True
        return move

    def pile_figures(self, pile: Sequence[Card]) -> Figures:
        """An own pile in figures, counted from its cards (:attr:`figures` keeps them as moves are made)."""
        value = self.value
        return (sum(value[c] for c in pile), sum(1 for c in pile if not value[c]), len(pile),
                value[pile[-1]] if pile else 0)

    def known_count_now(self) -> list[int]:
        """:attr:`known_count`, counted from the hands."""
        was_on_pile = self.was_on_pile
        return [sum(1 for c in hand if was_on_pile[c]) for hand in self.hands]

    def exchange(self, a: Card, b: Card) -> None:
        super().exchange(a, b)
        self.known_count = self.known_count_now()

    def shown_now(self) -> int:
        """:attr:`shown`, counted from the piles: every card on an own pile, and every card
        that has lain on a face-up pile this round."""
        bits = self.shown_bits
        on_pile = self.was_on_pile
        return sum(bit for c, bit in enumerate(bits) if on_pile[c]) + sum(
            bits[c] for seat in self.own for pile in seat for c in pile if not on_pile[c])

    def stock_draws(self, move: Move) -> tuple[int, int]:
        return (1, self.to_move) if move.verb == "draw" else (0, -1)

    def known_cards(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand that everyone saw it take from a face-up pile, sorted."""
        was_on_pile = self.was_on_pile
        return sort_hand(c for c in self.hands[seat] if was_on_pile[c])

    def hidden_cards(self, seat: int) -> list[Card]:
        """The cards in the other hands that ``seat`` has not seen taken from a face-up pile."""
        was_on_pile = self.was_on_pile
        return [c for other, hand in enumerate(self.hands) if other != seat for c in hand if not was_on_pile[c]]

    def _turn_observation(self, seat: int) -> TurnObservation:
        """The shared part of the game's observation, with the machine's and the hands'."""
        return {
            **self._base_observation(seat),
            "hand": to_text(sort_hand(self.hands[seat])),
            "hand_sizes": [len(h) for h in self.hands],
            "known": [to_text(self.known_cards(s)) for s in range(self.num_players)],
            "stock_count": len(self.stock) - self.stock_pos,
            "step": None if self._over else "draw" if self.drawing else "play",
            "stall_count": self.stall,
        }
