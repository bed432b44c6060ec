"""Twenty's space: the hands (the opponent's with ``open_hands``), the revealed cards, the tally
and the cards set aside, the scorer, the starter and the round's numbers."""

from __future__ import annotations

from array import array

from parlour.cards import ALL_CARDS, Card
from parlour.envs.spaces.base import (
    OWN,
    UNBOUNDED,
    GameSpace,
    Layout,
    Picture,
    follow,
    plane_positions,
    show_plane,
    text_positions,
)
from parlour.game import Move, Observation
from parlour.games import twenty as tw

__all__ = ["TwentySpace"]


class _TwentyPicture(Picture):
    """A round of Twenty's picture: copies of the hands, the revealed cards, the tally and
    the cards set aside, and the numbers last written."""

    __slots__ = ("bonus", "dealt", "hands", "left", "moved", "moves", "revealed", "scorer", "seat", "set_aside",
                 "shown", "tally", "value")

    def __init__(self, space: GameSpace, state: tw.TwentyState) -> None:
        super().__init__(space, state)
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        self.seat = -1
        self.shown: bool = state.options["open_hands"]
        self.hands: list[list[Card]] = [[], []]
        self.revealed: list[Card] = []
        self.tally: list[Card] = []
        self.set_aside: list[Card] = []
        self.scorer: int | None = None
        self.bonus = 0
        self.value = 0
        self.left = -1
        self.dealt = [0, 0]


class TwentySpace(GameSpace):
    """Twenty: 52 actions (``play`` ×52).

    Card planes have 52 entries (AC … KS).  Blocks after the shared ones:
    the observer's hand; the opponent's hand (only with ``open_hands``) and
    that option's flag; the two revealed cards; the tally; the cards set
    aside; the last seat to score and the round's starter, by relative
    seat; then scaled: the End of Round Bonus (÷ 10), the tally's value
    (÷ 20) and its number of cards (÷ 10), the stock (÷ 40), hand sizes
    (÷ 5) and hands dealt (÷ 10) by relative seat.
    """

    def __init__(self) -> None:
        self._pos = plane_positions(ALL_CARDS[:52])
        self._tpos = text_positions(self._pos)
        super().__init__("twenty", tw.PLAY)

    def _build(self, layout: Layout) -> None:
        n = 52
        every = layout.every
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand", seats=OWN)
        # In the picture, each seat's hand as the table shows it: written only with open_hands.
        self._o_other, self._p_shown = layout.place(
            "other_hand", n, "the opponent's hand (open_hands only)", seats=(1,))
        self._o_open, self._p_open = layout.place("open_hands", 1, "the option open_hands")
        self._o_revealed, self._p_revealed = layout.place("revealed", n, "the two revealed cards")
        self._o_tally, self._p_tally = layout.place("tally", n, "the cards on the tally")
        self._o_aside, self._p_aside = layout.place("set_aside", n, "the cards set aside")
        self._o_scorer, self._p_scorer = layout.place(
            "last_scorer", 1, "the last seat to score, by relative seat", seats=every)
        self._o_starter, self._p_starter = layout.place(
            "starter", 1, "the round's starter, by relative seat", seats=every)
        self._o_bonus, self._p_bonus = layout.place("bonus", 1, "the End of Round Bonus, ÷ 10")
        self._o_value, self._p_value = layout.place("tally_value", 1, "the tally's value, ÷ 20", UNBOUNDED)
        self._o_count, self._p_count = layout.place("tally_cards", 1, "cards on the tally, ÷ 10", UNBOUNDED)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the stock, ÷ 40")
        self._o_sizes, self._p_sizes = layout.place("hand_sizes", 1, "hand sizes by relative seat, ÷ 5",
                                                    seats=every)
        self._o_dealt, self._p_dealt = layout.place(
            "hands_dealt", 1, "hands dealt by relative seat, ÷ 10", UNBOUNDED, seats=every)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        other = 1 - seat
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        shown = obs["hands"][other]
        if shown is not None:
            for c in shown:
                out[self._o_other + pos[c]] = 1.0
        if obs["options"]["open_hands"]:
            out[self._o_open] = 1.0
        for c in obs["revealed"]:
            out[self._o_revealed + pos[c]] = 1.0
        for c in obs["tally"]:
            out[self._o_tally + pos[c]] = 1.0
        for c in obs["set_aside"]:
            out[self._o_aside + pos[c]] = 1.0
        if obs["last_scorer"] is not None:
            out[self._o_scorer + (obs["last_scorer"] ^ seat)] = 1.0
        starter = obs["first"] ^ ((obs["round"] - 1) & 1)
        out[self._o_starter + (starter ^ seat)] = 1.0
        sizes, dealt = obs["hand_sizes"], obs["hands_dealt"]
        out[self._o_bonus] = obs["bonus"] / 10
        out[self._o_value] = obs["tally_value"] / 20
        out[self._o_count] = len(obs["tally"]) / 10
        out[self._o_stock] = obs["stock_count"] / 40
        out[self._o_sizes] = sizes[seat] / 5
        out[self._o_sizes + 1] = sizes[other] / 5
        out[self._o_dealt] = dealt[seat] / 10
        out[self._o_dealt + 1] = dealt[other] / 10

    def _from_state(self, state: tw.TwentyState, seat: int, out: array[float]) -> None:
        other = 1 - seat
        hands = state.hands
        base = self._o_hand
        for c in hands[seat]:
            out[base + c] = 1.0
        if state.options["open_hands"]:
            out[self._o_open] = 1.0
            base = self._o_other
            for c in hands[other]:
                out[base + c] = 1.0
        base = self._o_revealed
        for c in state.revealed:
            out[base + c] = 1.0
        base = self._o_tally
        tally = state.tally
        for c in tally:
            out[base + c] = 1.0
        base = self._o_aside
        for c in state.set_aside:
            out[base + c] = 1.0
        if state.last_scorer is not None:
            out[self._o_scorer + (state.last_scorer ^ seat)] = 1.0
        out[self._o_starter + (state.first ^ (len(state.history) & 1) ^ seat)] = 1.0
        dealt = state.hands_dealt
        out[self._o_bonus] = state.bonus / 10
        out[self._o_value] = state.tally_value / 20
        out[self._o_count] = len(tally) / 10
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 40
        out[self._o_sizes] = len(hands[seat]) / 5
        out[self._o_sizes + 1] = len(hands[other]) / 5
        out[self._o_dealt] = dealt[seat] / 10
        out[self._o_dealt + 1] = dealt[other] / 10

    def _new_picture(self, state: tw.TwentyState) -> Picture:
        picture = _TwentyPicture(self, state)
        values = picture.values
        if picture.shown:
            values[self._p_open] = 1.0
        values[self._p_starter + (state.first ^ (len(state.history) & 1))] = 1.0
        return picture

    def _replay(self, state: tw.TwentyState, picture: _TwentyPicture) -> None:
        """Put each card played since the picture was last brought up to date from its
        player's hand onto the tally, in the copies and the picture.  :meth:`_sync` then
        compares every copy with the state and mends any that differ (a scored tally set
        aside, a new hand dealt, an undo), so the guesses need not be right."""
        moves = state.moves
        same, done, seat = moves is picture.moves, picture.moved, picture.seat
        picture.moves, picture.moved, picture.seat = moves, len(moves), state.to_move
        if not same or len(moves) <= done or seat < 0:
            return
        values = picture.values
        pos = self._pos
        tally = picture.tally
        for move in moves[done:]:
            hand = picture.hands[seat]
            card: Card = move.args[0]  # type: ignore[assignment]
            if card not in hand:
                return
            hand.remove(card)
            where = pos[card]
            values[self._p_hand + seat * 52 + where] = 0.0
            if picture.shown:
                values[self._p_shown + seat * 52 + where] = 0.0
            values[self._p_sizes + seat] = len(hand) / 5
            tally.append(card)
            values[self._p_tally + where] = 1.0
            values[self._p_count] = len(tally) / 10
            seat = 1 - seat

    def _sync(self, state: tw.TwentyState, picture: _TwentyPicture, settled: bool) -> None:
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            self._replay(state, picture)
        if (state.hands != picture.hands or state.tally != picture.tally or state.set_aside != picture.set_aside
                or state.revealed != picture.revealed):
            self._mend(state, picture)
        values = picture.values
        scorer = state.last_scorer
        if scorer != picture.scorer:
            if picture.scorer is not None:
                values[self._p_scorer + picture.scorer] = 0.0
            if scorer is not None:
                values[self._p_scorer + scorer] = 1.0
            picture.scorer = scorer
        if state.tally_value != picture.value:
            picture.value = state.tally_value
            values[self._p_value] = state.tally_value / 20
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / 40
        if state.bonus != picture.bonus:
            picture.bonus = state.bonus
            values[self._p_bonus] = state.bonus / 10
        dealt = state.hands_dealt
        if dealt != picture.dealt:
            for seat in (0, 1):
                values[self._p_dealt + seat] = dealt[seat] / 10
            picture.dealt = list(dealt)

    def _mend(self, state: tw.TwentyState, picture: _TwentyPicture) -> None:
        """Bring the copies of the hands, the tally, the cards set aside and the revealed
        cards that differ from the state's (and the planes they show) up to date."""
        values = picture.values
        pos = self._pos
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = follow(seen, hand)
                mine = self._p_hand + seat * 52
                for c in gone:
                    values[mine + pos[c]] = 0.0
                for c in came:
                    values[mine + pos[c]] = 1.0
                if picture.shown:
                    shown = self._p_shown + seat * 52
                    for c in gone:
                        values[shown + pos[c]] = 0.0
                    for c in came:
                        values[shown + pos[c]] = 1.0
                values[self._p_sizes + seat] = len(hand) / 5
        tally = state.tally
        if tally != picture.tally:
            show_plane(values, self._p_tally, pos, picture.tally, tally)
            values[self._p_count] = len(tally) / 10
        if state.set_aside != picture.set_aside:
            show_plane(values, self._p_aside, pos, picture.set_aside, state.set_aside)
        if state.revealed != picture.revealed:
            show_plane(values, self._p_revealed, pos, picture.revealed, state.revealed)


