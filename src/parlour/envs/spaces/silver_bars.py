"""100 Silver Bars' space: the hands, each seat's five vaults (their states, cards, bars and
sizes), the discard pile, the cards a seat has not seen, the strike, the dealer, the locks, the draw
pile and the target."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.cards import ALL_CARDS, Card
from parlour.envs.spaces.base import (
    OWN,
    UNBOUNDED,
    GameSpace,
    Layout,
    Picture,
    count_plane,
    follow,
    plane_positions,
    text_positions,
)
from parlour.game import Move, Observation
from parlour.games import silver_bars as sb
from parlour.games.silver_bars.tables import STEAL

__all__ = ["SilverBarsSpace"]

_CARD_BY_TEXT = {str(c): c for c in ALL_CARDS}
_VAULT_STATE_INDEX = [-1] * sb.STATES
for _i, _s in enumerate(sb.VAULT_STATES):
    _VAULT_STATE_INDEX[_s] = _i
_DECK_KEYS = tuple(sb.DEFAULT_COUNTS)


class _SilverBarsPicture(Picture):
    """A round of 100 Silver Bars' picture: copies of the hands, every vault (its cards,
    its rubble and its state), the discard pile, the draw pile and where it is drawn
    from, the pending strike and the locks."""

    __slots__ = ("against", "discard", "hands", "left", "locked", "moved", "moves", "rubble", "seat", "stock",
                 "stock_pos", "vaults", "vstate")

    def __init__(self, space: GameSpace, state: sb.SilverBarsState) -> None:
        super().__init__(space, state)
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        self.seat = -1
        self.hands: list[list[Card]] = [[], []]
        self.vaults: list[list[list[Card]]] = [[[], [], [], [], []], [[], [], [], [], []]]
        self.rubble: list[list[Card | None]] = [[None] * 5, [None] * 5]
        self.vstate: list[list[int | None]] = [[None] * 5, [None] * 5]
        self.discard: list[Card] = []
        self.stock: list[Card] | None = None
        self.stock_pos = 0
        self.against: int | None = None
        self.locked = [-1, -1]
        self.left = -1


class SilverBarsSpace(GameSpace):
    """100 Silver Bars: 390 actions.

    The actions, card by card in card-code order: a silver bar, miner or
    shovel ``play C V`` onto own vault V = 1–5; rubble ``play C V`` onto
    the opponent's vault V; the strike ``play QS``; a thief ``play C V W``
    (from their vault V into own vault W, 25 pairs); then ``discard C`` for
    every card, ``lock 1``–``lock 5`` and ``resolve``.  Twins share a move,
    and the deck options change only how many copies there are, so the
    table is the same for every option.  The moves are the rules engine's own
    objects (``tables.PLAY_AT``, ``STEAL``, ``DISCARD``, ``LOCK``, ``RESOLVE``), so
    ``SilverBarsState.apply`` knows each of them by its identity (``tables.ACTIONS``).

    Card planes have 48 entries, one per card name that the deck can hold
    (twins share one, so entries are counts).  Blocks after the shared
    ones: the observer's hand (counts); each seat's five vaults, by relative
    seat, as one-hot states (empty, under rubble, locked, a bar of 1 2 3 4 6
    on top, a miner on top over a bar of 1 2 3 4 6); the cards in each
    seat's vaults, rubble included (counts); the discard pile (counts); the
    unseen cards — in the opponent's hand or the draw pile (counts, from the
    deck the options make); a pending strike against a seat; the dealer;
    then scaled: each vault's silver bars (÷ 20) and cards (÷ 10), by
    relative seat then vault; locks left (÷ 5); the draw pile (÷ 100); the
    target score (÷ 100).
    """

    CARDS = sb.GAME.card_universe()

    def __init__(self) -> None:
        actions: list[Move] = []
        for c in self.CARDS:
            kind = sb.KIND[c]
            if kind == sb.STRIKE:
                actions.append(sb.PLAY_ALONE[c])
            elif kind in (sb.LO_THIEF, sb.HI_THIEF):
                actions += [move for row in STEAL[c] for move in row]
            else:
                actions += sb.PLAY_AT[c]
        actions += [sb.DISCARD[c] for c in self.CARDS]
        actions += [*sb.LOCK, sb.RESOLVE]
        self._pos = plane_positions(self.CARDS)
        self._tpos = text_positions(self._pos)
        self._decks: dict[tuple[Any, ...], array[float]] = {}
        super().__init__("silver-bars", actions)

    def _build(self, layout: Layout) -> None:
        n = len(self.CARDS)
        v = len(sb.VAULT_STATES)
        every = layout.every
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand (counts)", 4, seats=OWN)
        self._o_vaults, self._p_vaults = layout.place(
            "vault_states", 5 * v, f"each vault's state ({v} one-hot), by relative seat then vault", seats=every)
        self._o_vault_cards, self._p_vault_cards = layout.place(
            "vault_cards", n, "the cards in each seat's vaults, rubble included (counts)", 4, seats=every)
        self._o_discard, self._p_discard = layout.place("discard_pile", n, "the discard pile (counts)", 4)
        self._o_unseen, self._p_unseen = layout.place(
            "unseen", n, "cards not seen: the opponent's hand or the draw pile (counts)", 4, seats=OWN)
        self._o_strike, self._p_strike = layout.place(
            "strike", 1, "a pending strike against a seat, by relative seat", seats=every)
        self._o_dealer, self._p_dealer = layout.place("dealer", 1, "the dealer, by relative seat", seats=every)
        self._o_bars, self._p_bars = layout.place(
            "vault_bars", 5, "silver bars in each vault, ÷ 20, by relative seat then vault", UNBOUNDED,
            seats=every)
        self._o_sizes, self._p_sizes = layout.place(
            "vault_sizes", 5, "cards in each vault, ÷ 10, by relative seat then vault", UNBOUNDED, seats=every)
        self._o_locks, self._p_locks = layout.place("locks_left", 1, "locks left by relative seat, ÷ 5",
                                                    seats=every)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the draw pile, ÷ 100", UNBOUNDED)
        self._o_target, self._p_target = layout.place(
            "target_score", 1, "the option target_score, ÷ 100", UNBOUNDED)

    def _deck(self, options: Mapping[str, Any]) -> array[float]:
        """The count of each card in the deck that ``options`` make."""
        key = tuple(options.get(k) for k in _DECK_KEYS)
        found = self._decks.get(key)
        if found is None:
            counts = Counter(sb.silver_bars_deck(options))
            found = array("f", [counts[c] for c in self.CARDS])
            self._decks[key] = found
        return found

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        n = len(self.CARDS)
        nv = len(sb.VAULT_STATES)
        deck = self._deck(obs["options"])
        unseen = self._o_unseen
        for i in range(n):
            out[unseen + i] = deck[i]
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] += 1.0
            out[unseen + pos[c]] -= 1.0
        for k, s in ((0, seat), (1, 1 - seat)):
            for i, vault in enumerate(obs["vaults"][s]):
                cards = [_CARD_BY_TEXT[c] for c in vault["cards"]]
                state = sb.vault_state(cards, vault["rubble"] is not None, vault["locked"])
                out[self._o_vaults + (k * 5 + i) * nv + _VAULT_STATE_INDEX[state]] = 1.0
                for c in vault["cards"] + ([vault["rubble"]] if vault["rubble"] is not None else []):
                    out[self._o_vault_cards + k * n + pos[c]] += 1.0
                    out[unseen + pos[c]] -= 1.0
                out[self._o_bars + k * 5 + i] = sb.vault_bars(cards) / 20
                out[self._o_sizes + k * 5 + i] = len(cards) / 10
        for c in obs["discard_pile"]:
            out[self._o_discard + pos[c]] += 1.0
            out[unseen + pos[c]] -= 1.0
        strike = obs["strike"]
        if strike is not None:
            out[self._o_strike + (strike["against"] ^ seat)] = 1.0
            out[unseen + pos[strike["card"]]] -= 1.0
        out[self._o_dealer + (obs["dealer"] ^ seat)] = 1.0
        locks = obs["locks_left"]
        out[self._o_locks] = locks[seat] / 5
        out[self._o_locks + 1] = locks[1 - seat] / 5
        out[self._o_stock] = obs["stock_count"] / 100
        out[self._o_target] = obs["options"]["target_score"] / 100

    def _from_state(self, state: sb.SilverBarsState, seat: int, out: array[float]) -> None:
        pos = self._pos
        n = len(self.CARDS)
        nv = len(sb.VAULT_STATES)
        bar_value = sb.BAR_VALUE
        other = 1 - seat
        base = self._o_discard
        for c in state.discard_pile:
            out[base + pos[c]] += 1.0
        base = self._o_unseen  # the draw pile and the other hand (see _sync)
        for c in state.stock[state.stock_pos:]:
            out[base + pos[c]] += 1.0
        for c in state.hands[other]:
            out[base + pos[c]] += 1.0
        base = self._o_hand
        for c in state.hands[seat]:
            out[base + pos[c]] += 1.0
        for k, s in ((0, seat), (1, other)):
            base = self._o_vault_cards + k * n
            for i, cards in enumerate(state.vaults[s]):
                out[self._o_vaults + (k * 5 + i) * nv + _VAULT_STATE_INDEX[state.vstate[s][i]]] = 1.0
                bars = 0
                for c in cards:
                    out[base + pos[c]] += 1.0
                    bars += bar_value[c]
                covering = state.rubble[s][i]
                if covering is not None:
                    out[base + pos[covering]] += 1.0
                out[self._o_bars + k * 5 + i] = bars / 20
                out[self._o_sizes + k * 5 + i] = len(cards) / 10
        if state.strike is not None:
            out[self._o_strike + (state.strike_against ^ seat)] = 1.0  # type: ignore[operator]
        out[self._o_dealer + (state.first ^ (len(state.history) & 1) ^ seat ^ 1)] = 1.0
        locked = state.locked
        out[self._o_locks] = (5 - locked[seat]) / 5
        out[self._o_locks + 1] = (5 - locked[other]) / 5
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 100
        out[self._o_target] = state.options["target_score"] / 100

    def _new_picture(self, state: sb.SilverBarsState) -> Picture:
        picture = _SilverBarsPicture(self, state)
        values = picture.values
        values[self._p_dealer + (state.first ^ (len(state.history) & 1) ^ 1)] = 1.0
        values[self._p_target] = state.options["target_score"] / 100
        return picture

    # The unseen cards are the opponent's hand and the draw pile: a multiset that the
    # observation fixes (the deck less every card seen), read here from where the cards
    # lie because that is quicker.  The tests check it is the same.

    def _replay(self, state: sb.SilverBarsState, picture: _SilverBarsPicture) -> list[int]:
        """Make each play and discard since the picture was last brought up to date on the
        copies of the hands, the draw pile and the discard pile: the card leaves its
        player's hand, a discarded card goes onto the discard pile, and the draw pile's next
        card comes.  Return the vaults (``seat * 5 + vault``) the moves can have changed
        (rubble goes onto the other seat's vault, a thief takes from it, a strike takes its
        miners), for :meth:`_sync` to look at first.  :meth:`_sync` compares every copy
        with the state and mends any that differ, so the guesses need not be right."""
        moves = state.moves
        same, done, seat = moves is picture.moves, picture.moved, picture.seat
        picture.moves, picture.moved, picture.seat = moves, len(moves), state.to_move
        touched: list[int] = []
        if not same or len(moves) <= done or seat < 0 or state.stock is not picture.stock:
            return touched
        values = picture.values
        pos = self._pos
        n = len(self.CARDS)
        stock = state.stock
        for verb, args in moves[done:]:
            other = 1 - seat
            if verb == "play" or verb == "discard":
                hand = picture.hands[seat]
                card: Card = args[0]  # type: ignore[assignment]
                drawn = picture.stock_pos
                if card not in hand or drawn >= len(stock):
                    return touched
                new = stock[drawn]
                picture.stock_pos = drawn + 1
                hand.remove(card)
                hand.append(new)
                # The card played is seen by the other seat now; the card drawn leaves what
                # this seat has not seen (the other seat still has not: it is in a hand).
                mine = self._p_hand + seat * n
                values[mine + pos[card]] -= 1.0
                values[mine + pos[new]] += 1.0
                values[self._p_unseen + other * n + pos[card]] -= 1.0
                values[self._p_unseen + seat * n + pos[new]] -= 1.0
                if verb == "discard":
                    picture.discard.append(card)
                    values[self._p_discard + pos[card]] += 1.0
                elif len(args) == 1:  # the strike
                    touched += range(other * 5, other * 5 + 5)
                elif len(args) == 2:  # onto a vault: the other seat's, for rubble
                    touched.append((other if sb.KIND[card] == sb.RUBBLE else seat) * 5 + args[1] - 1)  # type: ignore
                else:  # a thief, from the other seat's vault into this seat's
                    touched += (other * 5 + args[1] - 1, seat * 5 + args[2] - 1)  # type: ignore[operator]
            elif verb == "lock":
                touched.append(seat * 5 + args[0] - 1)  # type: ignore[operator]
            seat = other
        return touched

    def _sync(self, state: sb.SilverBarsState, picture: _SilverBarsPicture, settled: bool) -> None:
        touched: Sequence[int] = ()
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            touched = self._replay(state, picture)
        if (state.stock is not picture.stock or state.stock_pos != picture.stock_pos or state.hands != picture.hands
                or state.discard_pile != picture.discard):
            self._mend(state, picture)
        for vault in touched:
            self._sync_vault(state, picture, vault // 5, vault % 5)
        if state.vaults != picture.vaults or state.rubble != picture.rubble or state.vstate != picture.vstate:
            for vault in range(10):
                self._sync_vault(state, picture, vault // 5, vault % 5)
        values = picture.values
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / 100
        against = state.strike_against if state.strike is not None else None
        if against != picture.against:
            if picture.against is not None:
                values[self._p_strike + picture.against] = 0.0
            if against is not None:
                values[self._p_strike + against] = 1.0
            picture.against = against
        locked = state.locked
        if locked != picture.locked:
            for seat in (0, 1):
                values[self._p_locks + seat] = (5 - locked[seat]) / 5
            picture.locked = list(locked)

    def _mend(self, state: sb.SilverBarsState, picture: _SilverBarsPicture) -> None:
        """Bring the unseen counts, the copies of the hands and of the discard pile that differ
        from the state's (and the planes they show) up to date."""
        values = picture.values
        pos = self._pos
        n = len(self.CARDS)
        at_unseen = self._p_unseen
        stock, drawn = state.stock, state.stock_pos
        if stock is not picture.stock:
            # A new draw pile (a referee arranged it, or a search dealt hidden cards again):
            # count what is unseen from scratch, with the hands as last written.
            for seat in (0, 1):
                unseen = at_unseen + seat * n
                values[unseen:unseen + n] = self._blank[:n]
                for c in stock[drawn:]:
                    values[unseen + pos[c]] += 1.0
                for c in picture.hands[1 - seat]:
                    values[unseen + pos[c]] += 1.0
            picture.stock, picture.stock_pos = stock, drawn
        elif drawn != picture.stock_pos:
            was = picture.stock_pos
            step = -1.0 if drawn > was else 1.0
            for c in stock[min(was, drawn):max(was, drawn)]:
                values[at_unseen + pos[c]] += step
                values[at_unseen + n + pos[c]] += step
            picture.stock_pos = drawn
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = follow(seen, hand)
                mine, theirs = self._p_hand + seat * n, at_unseen + (1 - seat) * n
                for c in gone:
                    values[mine + pos[c]] -= 1.0
                    values[theirs + pos[c]] -= 1.0
                for c in came:
                    values[mine + pos[c]] += 1.0
                    values[theirs + pos[c]] += 1.0
        if state.discard_pile != picture.discard:
            count_plane(values, self._p_discard, pos, picture.discard, state.discard_pile)

    def _sync_vault(self, state: sb.SilverBarsState, picture: _SilverBarsPicture, seat: int, i: int) -> None:
        """Vault ``i`` of ``seat``: its cards and rubble, its bars and size, its state."""
        values = picture.values
        cards, seen = state.vaults[seat][i], picture.vaults[seat][i]
        if cards != seen:
            count_plane(values, self._p_vault_cards + seat * len(self.CARDS), self._pos, seen, cards)
            bar_value = sb.BAR_VALUE
            values[self._p_bars + seat * 5 + i] = sum(bar_value[c] for c in cards) / 20
            values[self._p_sizes + seat * 5 + i] = len(cards) / 10
        covering, old = state.rubble[seat][i], picture.rubble[seat][i]
        if covering is not old:
            at = self._p_vault_cards + seat * len(self.CARDS)
            if old is not None:
                values[at + self._pos[old]] -= 1.0
            if covering is not None:
                values[at + self._pos[covering]] += 1.0
            picture.rubble[seat][i] = covering
        now, was = state.vstate[seat][i], picture.vstate[seat][i]
        if now != was:
            nv = len(sb.VAULT_STATES)
            at = self._p_vaults + (seat * 5 + i) * nv
            if was is not None:
                values[at + _VAULT_STATE_INDEX[was]] = 0.0
            values[at + _VAULT_STATE_INDEX[now]] = 1.0
            picture.vstate[seat][i] = now


