"""The space the play-then-draw games share (Minus Twenty, Progression): one turn machine
(:class:`~parlour.games._base.PlayThenDraw`), so one set of blocks, one way to write them from an
observation or a state, and one picture kept move by move.

A game of that machine gives its cards (``CARDS``), its action table, the names its observation
uses for its own piles, the face-up piles and the pile played to (:class:`TurnWords`), the draw
pile's scale and where a round's starter is read; it may add blocks after the shared ones
(Minus Twenty's rounds won).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.cards import SUITS, Card
from parlour.envs.spaces.base import (
    OWN,
    UNBOUNDED,
    GameSpace,
    Layout,
    Picture,
    follow,
    plane_positions,
    text_positions,
)
from parlour.game import Move, Observation

__all__ = ["TurnPicture", "TurnSpace", "TurnWords"]

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


@dataclass(frozen=True)
class TurnWords:
    """What a play-then-draw game calls the blocks of its own piles, its face-up piles and the
    face-up pile played to this turn: each block's name is the observation's key it is read from."""

    own: str
    """Each seat's own piles: ``melds``, ``private_stacks``."""
    own_doc: str
    piles: str
    """The face-up piles, by suit: ``discard_piles``, ``public_stacks``."""
    piles_doc: str
    tops: str
    """The top card of each face-up pile (a block only, read from ``piles``)."""
    tops_doc: str
    played: str
    """The face-up pile played to this turn: a card or a suit, whose last letter is the suit."""
    played_doc: str
    stall_doc: str
    """What the stall count counts."""


class TurnPicture(Picture):
    """A play-then-draw round's picture: copies of the hands, each seat's own piles, the
    face-up piles and the marks of the cards that have lain on a face-up pile."""

    __slots__ = ("drawn", "hands", "left", "moved", "moves", "on_pile", "own", "piles", "played", "seat", "stall",
                 "step")

    def __init__(self, space: GameSpace, state: Any) -> None:
        super().__init__(space, state)
        p = space.players
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        """How many of the round's ``moves`` the copies have followed (a new picture starts
        empty, and its first comparison with the state fills it, so it replays none)."""
        self.seat = -1
        """The seat to move when the copies were last brought up to date (−1: never)."""
        self.drawn = -1
        """The draw pile's position then."""
        self.hands: list[list[Card]] = [[] for _ in range(p)]
        self.own: list[list[list[Card]]] = [[[], [], [], []] for _ in range(p)]
        self.piles: list[list[Card]] = [[], [], [], []]
        self.on_pile: list[bool] = list(state.was_on_pile)
        self.step = -1
        self.played = -1
        self.stall = 0
        self.left = -1


class TurnSpace(GameSpace):
    """The blocks Minus Twenty and Progression share, read from their common machine
    (:class:`~parlour.games._base.PlayThenDraw`): the step of the turn, the observer's
    hand, the cards each seat is known to hold, each seat's own piles (melds, private
    stacks), the face-up piles and their tops, the face-up pile played to this turn,
    the starter, the hand sizes, the draw pile and the stall count.  Each game names
    its blocks in :attr:`WORDS` and its cards in ``CARDS``."""

    CARDS: tuple[Card, ...]
    WORDS: TurnWords
    _stock_scale: int
    """The draw pile's size is divided by this."""
    _o_step: int
    _p_step: int
    _o_hand: int
    _p_hand: int
    _o_known: int
    _p_known: int
    _o_own: int
    _p_own: int
    _o_piles: int
    _p_piles: int
    _o_tops: int
    _p_tops: int
    _o_played: int
    _p_played: int
    _o_starter: int
    _p_starter: int
    _o_sizes: int
    _p_sizes: int
    _o_stock: int
    _p_stock: int
    _o_stall: int
    _p_stall: int

    def __init__(self, game_id: str, actions: Sequence[Move]) -> None:
        self._pos = plane_positions(self.CARDS)
        self._tpos = text_positions(self._pos)
        super().__init__(game_id, actions)

    def _build(self, layout: Layout) -> None:
        n = len(self.CARDS)
        every = layout.every
        words = self.WORDS
        self._o_step, self._p_step = layout.place("step", 2, "the step of the turn: play, draw")
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand", seats=OWN)
        self._o_known, self._p_known = layout.place(
            "known", n, "cards each seat is known to hold, by relative seat", seats=every)
        self._o_own, self._p_own = layout.place(words.own, n, words.own_doc, seats=every)
        self._o_piles, self._p_piles = layout.place(words.piles, n, words.piles_doc)
        self._o_tops, self._p_tops = layout.place(words.tops, n, words.tops_doc)
        self._o_played, self._p_played = layout.place(words.played, 4, words.played_doc)
        self._o_starter, self._p_starter = layout.place(
            "starter", 1, "the round's starter, by relative seat", seats=every)
        self._o_sizes, self._p_sizes = layout.place(
            "hand_sizes", 1, "hand sizes by relative seat, ÷ 10", UNBOUNDED, seats=every)
        self._o_stock, self._p_stock = layout.place(
            "stock_count", 1, f"cards in the draw pile, ÷ {self._stock_scale}")
        self._o_stall, self._p_stall = layout.place("stall_count", 1, words.stall_doc, UNBOUNDED)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        n = len(self.CARDS)
        p = self.players
        words = self.WORDS
        step = obs["step"]
        if step is not None:
            out[self._o_step + (step == "draw")] = 1.0
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        for k in range(p):
            s = (seat + k) % p
            for c in obs["known"][s]:
                out[self._o_known + k * n + pos[c]] = 1.0
            for cards in obs[words.own][s].values():
                for c in cards:
                    out[self._o_own + k * n + pos[c]] = 1.0
            out[self._o_sizes + k] = obs["hand_sizes"][s] / 10
        for pile in obs[words.piles].values():
            for c in pile:
                out[self._o_piles + pos[c]] = 1.0
            if pile:
                out[self._o_tops + pos[pile[-1]]] = 1.0
        played = obs[words.played]
        if played is not None:
            out[self._o_played + _SUIT_INDEX[played[-1]]] = 1.0
        out[self._o_starter + (self._starter_seen(obs) - seat) % p] = 1.0
        out[self._o_stock] = obs["stock_count"] / self._stock_scale
        out[self._o_stall] = obs["stall_count"] / 60

    def _starter(self, state: Any) -> int:
        """The round's starter."""
        raise NotImplementedError

    def _starter_seen(self, obs: Observation) -> int:
        """The round's starter, as the observation shows it."""
        raise NotImplementedError

    def _settle(self, state: Any, picture: TurnPicture) -> None:
        """The game's own blocks of the round's standing (see :meth:`GameSpace._sync_table`)."""

    def _from_state(self, state: Any, seat: int, out: array[float]) -> None:
        pos = self._pos
        n = len(self.CARDS)
        p = self.players
        if not state._over:
            out[self._o_step + state.drawing] = 1.0
        hands, own, was_on_pile = state.hands, state.own, state.was_on_pile
        base = self._o_hand
        for c in hands[seat]:
            out[base + pos[c]] = 1.0
        for k in range(p):
            s = (seat + k) % p
            hand = hands[s]
            base = self._o_known + k * n
            for c in hand:
                if was_on_pile[c]:
                    out[base + pos[c]] = 1.0
            base = self._o_own + k * n
            for pile in own[s]:
                for c in pile:
                    out[base + pos[c]] = 1.0
            out[self._o_sizes + k] = len(hand) / 10
        base, tops = self._o_piles, self._o_tops
        for pile in state.piles:
            if pile:
                for c in pile:
                    out[base + pos[c]] = 1.0
                out[tops + pos[pile[-1]]] = 1.0
        if state.pile_played >= 0:
            out[self._o_played + state.pile_played] = 1.0
        out[self._o_starter + (self._starter(state) - seat) % p] = 1.0
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / self._stock_scale
        if state.stall:
            out[self._o_stall] = state.stall / 60

    def _tabulate(self) -> None:
        """Where each card is in the picture's planes, by card code (and seat), built once."""
        pos = self._pos
        n = len(self.CARDS)

        def plane(at: int) -> list[int]:  # −1 for a card the game does not have (never written)
            return [at + pos[c] if pos[c] >= 0 else -1 for c in range(len(pos))]

        seats = range(self.players)
        self._at_hand = [plane(self._p_hand + seat * n) for seat in seats]
        self._at_known = [plane(self._p_known + seat * n) for seat in seats]
        self._at_own = [plane(self._p_own + seat * n) for seat in seats]
        self._at_pile = plane(self._p_piles)
        self._at_top = plane(self._p_tops)

    def _new_picture(self, state: Any) -> Picture:
        picture = TurnPicture(self, state)
        picture.values[self._p_starter + self._starter(state)] = 1.0
        return picture

    def _replay(self, state: Any, picture: TurnPicture) -> None:
        """Make the moves made since the picture was last brought up to date on its copies,
        and write what they change: a card played or put on a face-up pile leaves the
        mover's hand, a draw adds the draw pile's next card, a take the pile's top card.

        This only saves comparing whole hands and piles: :meth:`_sync` then compares
        every copy with the state and mends any that differ (after an undo, a card swapped
        by a search, a draw pile arranged by a referee), so the guesses need not be right.
        Each move changes a copy only once it is sure to be written in full.
        """
        moves = state.moves
        same, done, seat, drawn = moves is picture.moves, picture.moved, picture.seat, picture.drawn
        picture.moves, picture.moved, picture.seat, picture.drawn = moves, len(moves), state.to_move, state.stock_pos
        if not same or len(moves) <= done or seat < 0:
            return
        values = picture.values
        stock = state.stock
        was_on_pile = state.was_on_pile
        hands, piles = picture.hands, picture.piles
        at_hand, at_known, at_own = self._at_hand, self._at_known, self._at_own
        at_pile, at_top = self._at_pile, self._at_top
        sizes = self._p_sizes
        hand, mine, known = hands[seat], at_hand[seat], at_known[seat]
        for verb, args in moves[done:]:
            if verb == "draw":
                if drawn >= len(stock):
                    return
                card = stock[drawn]
                drawn += 1
            elif verb == "take":
                pile = piles[_SUIT_INDEX[args[0]]]
                if not pile:
                    return
                card = pile.pop()
                values[at_pile[card]] = 0.0
                values[at_top[card]] = 0.0
                if pile:
                    values[at_top[pile[-1]]] = 1.0
            else:  # play, or onto a face-up pile
                card = args[0]
                if card not in hand:
                    return
                hand.remove(card)
                values[mine[card]] = 0.0
                values[known[card]] = 0.0
                values[sizes + seat] = len(hand) / 10
                if verb == "play":
                    picture.own[seat][card & 3].append(card)
                    values[at_own[seat][card]] = 1.0
                else:
                    pile = piles[card & 3]
                    if pile:
                        values[at_top[pile[-1]]] = 0.0
                    pile.append(card)
                    values[at_pile[card]] = 1.0
                    values[at_top[card]] = 1.0
                    picture.on_pile[card] = True
                continue
            hand.append(card)
            values[mine[card]] = 1.0
            if was_on_pile[card]:
                values[known[card]] = 1.0
            values[sizes + seat] = len(hand) / 10
            seat = (seat + 1) % self.players
            hand, mine, known = hands[seat], at_hand[seat], at_known[seat]

    def _sync(self, state: Any, picture: TurnPicture, settled: bool) -> None:
        if settled:
            self._settle(state, picture)
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            self._replay(state, picture)
        if (state.hands != picture.hands or state.piles != picture.piles or state.own != picture.own
                or state.was_on_pile != picture.on_pile):
            self._mend(state, picture)
        values = picture.values
        step = -1 if state._over else state.drawing  # play, draw: 0, 1 (False, True)
        if step != picture.step:
            if picture.step >= 0:
                values[self._p_step + picture.step] = 0.0
            if step >= 0:
                values[self._p_step + step] = 1.0
            picture.step = step
        played = state.pile_played
        if played != picture.played:
            if picture.played >= 0:
                values[self._p_played + picture.played] = 0.0
            if played >= 0:
                values[self._p_played + played] = 1.0
            picture.played = played
        if state.stall != picture.stall:
            picture.stall = state.stall
            values[self._p_stall] = state.stall / 60
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / self._stock_scale

    def _mend(self, state: Any, picture: TurnPicture) -> None:
        """Bring the copies of the hands and piles that differ from the state's (and the
        planes they show) up to date, card by card."""
        values = picture.values
        at_hand, at_known, at_own = self._at_hand, self._at_known, self._at_own
        at_pile, at_top = self._at_pile, self._at_top
        for suit, pile in enumerate(state.piles):
            seen = picture.piles[suit]
            if pile != seen:
                if seen:
                    values[at_top[seen[-1]]] = 0.0
                gone, came = follow(seen, pile)
                for c in gone:
                    values[at_pile[c]] = 0.0
                for c in came:
                    values[at_pile[c]] = 1.0
                    picture.on_pile[c] = True  # it lies on a face-up pile, so it has
                if pile:
                    values[at_top[pile[-1]]] = 1.0
        was_on_pile = state.was_on_pile
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = follow(seen, hand)
                mine, known = at_hand[seat], at_known[seat]
                for c in gone:
                    values[mine[c]] = 0.0
                    values[known[c]] = 0.0
                for c in came:
                    values[mine[c]] = 1.0
                    if was_on_pile[c]:
                        values[known[c]] = 1.0
                values[self._p_sizes + seat] = len(hand) / 10
        if was_on_pile != picture.on_pile:
            # A mark changed other than by a card coming onto a face-up pile (undo, or from
            # outside): a card that stayed in a hand may have changed, so read every hand again.
            for seat, hand in enumerate(picture.hands):
                known = at_known[seat]
                for c in hand:
                    values[known[c]] = 1.0 if was_on_pile[c] else 0.0
            picture.on_pile = list(was_on_pile)
        for seat, piles_of_seat in enumerate(state.own):
            copies = picture.own[seat]
            for suit, pile in enumerate(piles_of_seat):
                seen = copies[suit]
                if pile != seen:
                    gone, came = follow(seen, pile)
                    for c in gone:
                        values[at_own[seat][c]] = 0.0
                    for c in came:
                        values[at_own[seat][c]] = 1.0


