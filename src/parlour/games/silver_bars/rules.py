"""100 Silver Bars' rules: a match in progress, turn by turn, in the order the
rulebook gives them (the summary is :mod:`parlour.games.silver_bars`).

A turn is one of: play a card from hand, then draw (a silver bar or a miner
into an own vault, rubble onto an empty vault of the opponent, a shovel, a
thief, the worker's strike); discard a card, then draw; lock a vault.  A
player struck by the worker's strike spends the next turn resolving it.  The
round ends at once when a player locks the fifth vault or the last card of the
draw pile is drawn; each player ships the silver bars in their locked vaults.

Each vault's state is kept as a small code and each seat's vaults as bitmasks
(:mod:`~parlour.games.silver_bars.tables`), so the legal moves are a few
lookups; the sentences are in :mod:`~parlour.games.silver_bars.explain`.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, TypeAlias, cast

from typing_extensions import TypedDict

from parlour.cards import Card
from parlour.game import BaseObservation, Deal, Event, Game, Move, Observation, State, Wrong
from parlour.games._base import StockPile, Turns
from parlour.games.silver_bars.cards import (
    BAR_VALUE,
    HAND,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCKS,
    SHOVEL,
    STRIKE,
    VAULTS,
)
from parlour.games.silver_bars.explain import (
    DRAW_PILE_EMPTY_TEXT,
    LOCK_OUT_TEXT,
    PERFECT_ROUND_TEXT,
    check_form,
    move_words,
    shipment_text,
    strike_text,
    theft_text,
    why_illegal,
)
from parlour.games.silver_bars.tables import (
    ACTIONS,
    ALWAYS,
    BAR_TOP,
    DISCARD,
    DISCARDS,
    DUMPS_RUBBLE,
    EMPTY,
    F_TOP_BAR,
    F_TOP_MINER,
    FEAT,
    FILL,
    LOCK,
    LOCK_MOVES,
    LOCKED,
    LOCKS_VAULT,
    MINER_TOP,
    PLAY_ALONE,
    PLAY_AT,
    PUTS_BAR,
    PUTS_MINER,
    RESOLVE,
    RESOLVES,
    RUBBLED,
    START_FEAT,
    START_FILL,
    STATES,
    STEALS,
    STRIKES,
    TARGETS,
    THIEF,
    thief_plays,
    thief_row,
    vault_state,
    vaults_of,
)
from parlour.narrate import card_text

PERFECT = 80
"""The most a round can give: five vaults of A M 2 M 3 M 4 M 6."""

# -- what undo needs: one record for each kind of change ---------------------------
# Vaults are counted from 0 here; ``before`` is a vault's state code before the move
# (see ``tables.vault_state``).  A play or a discard is followed by the draw, which
# undo takes back by putting the played card back at ``hand_index``.


class Placed(NamedTuple):
    """A silver bar or a miner went into one of the mover's vaults."""

    hand_index: int
    """Where the card was in the mover's hand."""
    vault: int
    """The mover's vault it went into."""
    before: int
    """That vault's state before."""


class RubbleDumped(NamedTuple):
    """Rubble went onto an empty vault of the opponent."""

    hand_index: int
    """Where the rubble was in the mover's hand."""
    vault: int
    """The opponent's vault it went onto."""


class RubbleShovelled(NamedTuple):
    """A shovel cleared the rubble off one of the mover's vaults; both went to the discard pile."""

    hand_index: int
    """Where the shovel was in the mover's hand."""
    vault: int
    """The mover's vault it cleared."""
    rubble: Card
    """The rubble card that covered it."""


class StrikeCalled(NamedTuple):
    """A worker's strike sent the miners on top of the opponent's vaults to the discard pile."""

    hand_index: int
    """Where the strike was in the mover's hand."""
    struck: tuple[int, ...]
    """The opponent's vaults that lost their miner, in the order the miners went."""


class BarStolen(NamedTuple):
    """A thief moved the top bar of an opponent's vault into one of the mover's vaults."""

    hand_index: int
    """Where the thief was in the mover's hand."""
    source: int
    """The opponent's vault the bar came from."""
    destination: int
    """The mover's vault it went into."""
    source_before: int
    """The opponent's vault's state before."""
    destination_before: int
    """The mover's vault's state before."""


class Discarded(NamedTuple):
    """A card went from the mover's hand to the discard pile."""

    hand_index: int
    """Where the card was in the mover's hand."""


class VaultLocked(NamedTuple):
    """The mover locked a vault (no draw)."""

    vault: int
    """The mover's vault that was locked."""
    before: int
    """Its state before: a silver bar on top."""


class StrikeResolved(NamedTuple):
    """The mover spent the turn resolving a strike; the strike card went to the discard pile."""


UndoRecord: TypeAlias = (
    Placed | RubbleDumped | RubbleShovelled | StrikeCalled | BarStolen | Discarded | VaultLocked | StrikeResolved
)
"""What :meth:`SilverBarsState.undo` needs to take back one move."""

# Records are values, so those of the common moves are built once, like the moves
# themselves: calling a NamedTuple class on every discard, bar, miner and lock made a
# random playout 7% slower.  The rarer records are made as they happen.
DISCARDED = [Discarded(h) for h in range(HAND)]
"""``DISCARDED[hand_index]``: the record of each discard."""
PLACED = [[[Placed(h, i, before) for before in range(STATES)] for i in range(VAULTS)] for h in range(HAND)]
"""``PLACED[hand_index][vault][before]``: the record of each silver bar or miner put into a vault."""
VAULT_LOCKED = [[VaultLocked(i, before) for before in range(STATES)] for i in range(VAULTS)]
"""``VAULT_LOCKED[vault][before]``: the record of each lock."""
STRIKE_RESOLVED = StrikeResolved()
"""The record of resolving a strike (there is only one)."""

_END_EVENTS = 3
"""Events the end of a round adds: why it ended, and each player's shipment."""


class VaultView(TypedDict):
    """One vault as everyone sees it."""

    cards: list[str]
    """Its cards, bottom first (bars and miners)."""
    rubble: str | None
    """The rubble card on it, or None."""
    locked: bool


class StrikeView(TypedDict):
    """A strike waiting to be answered."""

    card: str
    against: int
    """The seat struck against."""


class SilverBarsObservation(BaseObservation):
    """What a seat sees in 100 Silver Bars."""

    hand: list[str]
    """The seat's own hand, in the order drawn."""
    hand_sizes: list[int]
    """Cards in each hand, by seat."""
    vaults: list[list[VaultView]]
    """By seat, the five vaults."""
    locks_left: list[int]
    """Locks each seat has left."""
    discard_pile: list[str]
    """The discard pile, bottom card first."""
    stock_count: int
    """Cards left in the draw pile."""
    strike: StrikeView | None
    """The strike waiting to be answered, or None."""
    dealer: int
    """The seat that dealt this round."""


class SilverBarsState(Turns, StockPile, State):
    """A match of 100 Silver Bars."""

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]] = {
        "play": (("card",), ("card", "vault"), ("card", "vault", "vault")),
        "discard": (("card",),),
        "lock": (("vault",),),
        "resolve": ((),),
    }

    hands: list[list[Card]]
    stock: list[Card]
    stock_pos: int
    vaults: list[list[list[Card]]]
    """Each seat's five vaults, each a list of cards from the bottom up."""
    rubble: list[list[Card | None]]
    """The rubble card on each vault, or None."""
    vstate: list[list[int]]
    """Each vault's state code (see ``vault_state``)."""
    bars: list[list[int]]
    """The silver bars in each vault: the sum of its bars' values (what it ships once locked)."""
    fill: list[int]
    """Each seat's ``fill`` bits: which vaults take bars of each value, which have a bar on top."""
    feat: list[int]
    """Each seat's ``feat`` bits: rubble, empty vaults, miners on top, top bars by value."""
    locked: list[int]
    """How many vaults each seat has locked."""
    discard_pile: list[Card]
    """Face up, bottom first; nobody draws from it."""
    strike: Card | None
    """The worker's strike waiting to be resolved, if any."""
    strike_against: int | None
    """The seat that must spend its turn resolving ``strike``."""
    to_move: int
    _undo: list[UndoRecord]
    _over: bool

    # -- the deal --------------------------------------------------------------
    def round_starter(self, round_index: int) -> int:
        """Seat ``first`` (the non-dealer) starts round 1; then the deal alternates."""
        return self.first if round_index % 2 == 0 else 1 - self.first

    def _start_round(self, deal: Deal) -> None:
        """Seven cards to each player, the rest is the draw pile; five empty vaults each."""
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self.vaults = [[[] for _ in range(VAULTS)] for _ in range(2)]
        self.rubble = [[None] * VAULTS for _ in range(2)]
        self.vstate = [[EMPTY] * VAULTS for _ in range(2)]
        self.bars = [[0] * VAULTS for _ in range(2)]
        self.fill = [START_FILL, START_FILL]
        self.feat = [START_FEAT, START_FEAT]
        self.locked = [0, 0]
        self.discard_pile = []
        self.strike = None
        self.strike_against = None
        self.to_move = self.round_starter(self.round_index)
        self._undo = []
        self._over = False

    def _set_vault(self, seat: int, i: int, new: int) -> None:
        """Vault ``i`` of ``seat`` is now in state ``new``; its bits follow."""
        old = self.vstate[seat][i]
        self.vstate[seat][i] = new
        self.fill[seat] += (FILL[new] - FILL[old]) << i
        self.feat[seat] += (FEAT[new] - FEAT[old]) << i

    # -- a turn ----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Resolving a pending strike, or: every lock, and each card's plays and its discard
        (each card once, in the order of the set of the hand's cards)."""
        if self._over:
            return []
        seat = self.to_move
        if self.strike_against == seat:
            return [RESOLVE]
        fill = self.fill[seat]
        theirs = self.feat[1 - seat]
        sources = (fill, (self.feat[seat] & 31) | (theirs & (31 << 5)) | ALWAYS)
        moves = LOCK_MOVES[(fill >> (5 * F_TOP_BAR)) & 31][:]
        targets = TARGETS
        for card in {*self.hands[seat]}:
            source, offset, table = targets[card]
            if source < THIEF:
                moves += table[(sources[source] >> offset) & 31]
            else:
                moves += thief_row(card, fill, theirs)
        return moves

    def apply(self, move: Move) -> None:
        """A turn: resolve a pending strike; or play or discard a card, then draw; or lock a vault.

        The legal moves are prebuilt, so a move is known by one lookup (``ACTIONS``) and
        checked by a bit of the tables; any other move is checked word by word
        (:meth:`_apply_given`).  Either way an illegal move raises the same error."""
        action = ACTIONS.get(id(move))
        if action is None or self._over:
            self._apply_given(move)
            return
        what, card, i, bit = action
        seat = self.to_move
        if self.strike_against == seat:
            if what != RESOLVES:
                raise self._illegal(move)
            # The turn is spent resolving: the strike card goes to the discard pile.
            strike = self.strike
            assert strike is not None, "a strike against a seat has its card"
            self.discard_pile.append(strike)
            self.strike = None
            self.strike_against = None
            self._undo.append(STRIKE_RESOLVED)
            self.moves.append(move)
            self.to_move = 1 - seat
            return
        if what >= LOCKS_VAULT:
            if what == RESOLVES or not self.fill[seat] & bit:  # a lock goes on a silver bar
                raise self._illegal(move)
            self._lock(move, seat, i)
            return
        assert card is not None, "a play or a discard names its card"
        hand = self.hands[seat]
        try:
            index = hand.index(card)
        except ValueError:
            index = -1
        if index < 0:
            raise self._illegal(move)
        record: UndoRecord
        if what == DISCARDS:
            self.discard_pile.append(card)
            record = DISCARDED[index]
        elif what <= PUTS_MINER:
            # A silver bar into an own unlocked vault that is empty, or whose top card is a
            # miner over a lower bar; a miner onto an own unlocked vault whose top card is a
            # silver bar: whether the vault takes the card is one bit of the tables.
            fill = self.fill[seat]
            if not fill & bit:
                raise self._illegal(move)
            states = self.vstate[seat]
            old = states[i]
            if what == PUTS_BAR:
                value = BAR_VALUE[card]
                new = BAR_TOP + value
                self.bars[seat][i] += value
            else:
                new = old + (MINER_TOP - BAR_TOP)
            states[i] = new
            self.fill[seat] = fill + ((FILL[new] - FILL[old]) << i)
            self.feat[seat] += (FEAT[new] - FEAT[old]) << i
            self.vaults[seat][i].append(card)
            record = PLACED[index][i][old]
        elif what == STEALS:
            if move not in thief_row(card, self.fill[seat], self.feat[1 - seat]):
                raise self._illegal(move)
            # For a thief, ``bit`` is the mover's vault that takes the bar.
            record = self._steal(seat, card, index, i, bit)
        elif what == STRIKES:
            record = StrikeCalled(index, self._strike(seat, card))
        else:
            record = self._clear_or_bury(move, seat, card, index, what == DUMPS_RUBBLE, i, bit)
        # Every play and discard is followed by the draw; drawing the last card ends the round.
        del hand[index]
        pos = self.stock_pos + 1
        hand.append(self.stock[pos - 1])
        self.stock_pos = pos
        self._undo.append(record)
        self.moves.append(move)
        self.to_move = 1 - seat
        if pos == len(self.stock):
            self._end_round(None)

    def _apply_given(self, move: Move) -> None:
        """Any move that is not one of the prebuilt ones (parsed from text, built in code, or
        malformed), or any move once the round is over: checked word by word as the rulebook
        gives the forms, then made as the prebuilt move it equals and recorded as given."""
        verb, args = move
        if self._over:
            raise self._illegal(move)
        seat = self.to_move
        prebuilt: Move
        if self.strike_against == seat:
            if verb != "resolve" or args:
                raise self._illegal(move)
            prebuilt = RESOLVE
        elif verb == "lock":
            vault = args[0] if len(args) == 1 else 0
            if type(vault) is not int or not 1 <= vault <= VAULTS:
                raise self._illegal(move)
            prebuilt = LOCK[vault - 1]
        elif verb == "discard":
            card = args[0] if args else None
            if type(card) is not Card or len(args) != 1 or card not in self.hands[seat]:
                raise self._illegal(move)
            prebuilt = DISCARD[card]
        elif verb == "play":
            card = args[0] if args else None
            if type(card) is not Card or card not in self.hands[seat]:
                raise self._illegal(move)
            prebuilt = self._play_of(move, seat, card)
        else:
            raise self._illegal(move)
        self.apply(prebuilt)
        self.moves[-1] = move

    def _play_of(self, move: Move, seat: int, card: Card) -> Move:
        """The prebuilt ``play`` that ``move`` names, if its card takes that many vaults
        (a thief's must be one of :func:`thief_plays`); whether the vault takes the card
        is checked as the prebuilt move is made."""
        args = move.args
        kind = KIND[card]
        if kind <= SHOVEL:  # a card that goes on one vault
            vault = args[1] if len(args) == 2 else 0
            if type(vault) is not int or not 1 <= vault <= VAULTS:
                raise self._illegal(move)
            return PLAY_AT[card][vault - 1]
        if kind == STRIKE:
            if len(args) != 1:
                raise self._illegal(move)
            return PLAY_ALONE[card]
        if kind == LO_THIEF or kind == HI_THIEF:
            plays = thief_plays(card, self.fill[seat], self.feat[1 - seat])
            if len(args) != 3 or move not in plays:
                raise self._illegal(move)
            return plays[plays.index(move)]
        raise self._illegal(move)

    # -- playing a card --------------------------------------------------------
    def _clear_or_bury(self, move: Move, seat: int, card: Card, index: int, bury: bool, i: int,
                       bit: int) -> UndoRecord:
        """Rubble onto an empty vault of the opponent (``bury``), or a shovel clearing the
        rubble off an own vault: both the rubble and the shovel go to the discard pile."""
        target = 1 - seat if bury else seat
        if not self.feat[target] & bit:
            raise self._illegal(move)
        if bury:
            self.rubble[target][i] = card
            self._set_vault(target, i, RUBBLED)
            return RubbleDumped(index, i)
        covering = self.rubble[seat][i]
        assert covering is not None
        self.rubble[seat][i] = None
        # The rubble goes to the discard pile first, the shovel on top of it.
        self.discard_pile.append(covering)
        self.discard_pile.append(card)
        self._set_vault(seat, i, EMPTY)
        return RubbleShovelled(index, i, covering)

    def _strike(self, seat: int, card: Card) -> tuple[int, ...]:
        """The worker's strike: every miner on top of the opponent's unlocked vaults goes to
        the discard pile, and the strike waits above their vaults until they resolve it.
        Return the vaults that lost their miner."""
        other = 1 - seat
        struck = tuple(vaults_of((self.feat[other] >> (5 * F_TOP_MINER)) & 31))
        lost = []
        for i in struck:
            miner = self.vaults[other][i].pop()
            self.discard_pile.append(miner)
            lost.append(miner)
            self._set_vault(other, i, BAR_TOP + self.vstate[other][i] - MINER_TOP)
        self.strike = card
        self.strike_against = other
        self.events.append(Event(len(self.moves) + 1, seat, "Worker's Strike", 0, strike_text(lost), other))
        return struck

    def _steal(self, seat: int, card: Card, index: int, src: int, dst: int) -> BarStolen:
        """A lo or hi thief: the top bar of the opponent's vault ``src`` goes into the thief's
        vault ``dst`` (the move was checked to be one of :func:`thief_plays`: the lowest or
        highest bar on top, into a vault that takes it); the thief goes to the discard pile."""
        other = 1 - seat
        robbed = self.vaults[other][src]
        bar = robbed.pop()
        value = BAR_VALUE[bar]
        old_src = self.vstate[other][src]
        old_dst = self.vstate[seat][dst]
        self._set_vault(other, src, vault_state(robbed, False, False))
        self.bars[other][src] -= value
        self.vaults[seat][dst].append(bar)
        self._set_vault(seat, dst, BAR_TOP + value)
        self.bars[seat][dst] += value
        self.discard_pile.append(card)
        self.events.append(Event(len(self.moves) + 1, seat, "Theft", 0, theft_text(card, bar, src, dst), other))
        return BarStolen(index, src, dst, old_src, old_dst)

    # -- locking a vault -------------------------------------------------------
    def _lock(self, move: Move, seat: int, i: int) -> None:
        """Lock vault ``i``, which has a silver bar on top: no draw; the fifth lock ends the round."""
        states = self.vstate[seat]
        old = states[i]
        self._undo.append(VAULT_LOCKED[i][old])
        states[i] = LOCKED  # which takes nothing and has no bits
        self.fill[seat] -= FILL[old] << i
        self.feat[seat] -= FEAT[old] << i
        locked = self.locked[seat] = self.locked[seat] + 1
        # A locked vault never changes again, so its bars are as good as shipped.
        self.scores[seat] += self.bars[seat][i]
        self.moves.append(move)
        self.to_move = 1 - seat
        if locked == VAULTS:
            self._end_round(seat)

    # -- the round's end: the shipment -----------------------------------------
    def _end_round(self, locked_out: int | None) -> None:
        """The round ends: say why, and what each player ships — the bars of their
        locked vaults, already counted as each lock went on (``_END_EVENTS`` events)."""
        self._over = True
        number = len(self.moves)
        if locked_out is not None:
            self.events.append(Event(number, locked_out, "Lock-out", 0, LOCK_OUT_TEXT))
        else:
            self.events.append(Event(number, None, "Draw Pile Empty", 0, DRAW_PILE_EMPTY_TEXT))
        for seat in (0, 1):
            points = self.scores[seat]
            if points == PERFECT:
                self.events.append(Event(number, seat, "Perfect Round", points, PERFECT_ROUND_TEXT))
            else:
                self.events.append(Event(number, seat, "Shipment", points, shipment_text(points, self.locked[seat])))

    # -- taking a move back ----------------------------------------------------
    def undo(self) -> Move:
        if not self._undo:
            raise ValueError("nothing to undo in this round")
        record = self._undo.pop()
        move = self.moves.pop()
        if self._over:
            self._over = False
            del self.events[-_END_EVENTS:]
        seat = 1 - self.to_move
        self.to_move = seat
        if isinstance(record, Discarded):
            self._undraw(seat, record.hand_index, move)
            self.discard_pile.pop()
        elif isinstance(record, Placed):
            hand_index, vault, before = record
            self._undraw(seat, hand_index, move)
            card = self.vaults[seat][vault].pop()
            self.bars[seat][vault] -= BAR_VALUE[card]
            self._set_vault(seat, vault, before)
        elif isinstance(record, VaultLocked):
            vault, before = record
            self._set_vault(seat, vault, before)
            self.locked[seat] -= 1
            self.scores[seat] -= self.bars[seat][vault]
        elif isinstance(record, StrikeResolved):
            self.strike = self.discard_pile.pop()
            self.strike_against = seat
        else:
            self._undo_rare(record, seat, move)
        return move

    def _undo_rare(self, record: UndoRecord, seat: int, move: Move) -> None:
        """Take back rubble, a shovel, a strike or a theft."""
        other = 1 - seat
        match record:
            case RubbleDumped(hand_index, vault):
                self._undraw(seat, hand_index, move)
                self.rubble[other][vault] = None
                self._set_vault(other, vault, EMPTY)
            case RubbleShovelled(hand_index, vault, rubble):
                self._undraw(seat, hand_index, move)
                del self.discard_pile[-2:]
                self.rubble[seat][vault] = rubble
                self._set_vault(seat, vault, RUBBLED)
            case StrikeCalled(hand_index, struck):
                self._undraw(seat, hand_index, move)
                self.strike = None
                self.strike_against = None
                self.events.pop()
                for i in reversed(struck):
                    self.vaults[other][i].append(self.discard_pile.pop())
                    self._set_vault(other, i, MINER_TOP + self.vstate[other][i] - BAR_TOP)
            case BarStolen(hand_index, source, destination, source_before, destination_before):
                self._undraw(seat, hand_index, move)
                self.events.pop()
                self.discard_pile.pop()
                bar = self.vaults[seat][destination].pop()
                self._set_vault(seat, destination, destination_before)
                self.bars[seat][destination] -= BAR_VALUE[bar]
                self.vaults[other][source].append(bar)
                self._set_vault(other, source, source_before)
                self.bars[other][source] += BAR_VALUE[bar]
            case _:
                raise AssertionError(f"not a record of a move: {record!r}")

    def _undraw(self, seat: int, hand_index: int, move: Move) -> None:
        """Take back a play's or a discard's draw: the drawn card goes back on the draw
        pile, the card played back to where it was in the hand."""
        hand = self.hands[seat]
        hand.pop()
        self.stock_pos -= 1
        hand.insert(hand_index, move.card())

    # -- the match ---------------------------------------------------------------
    def is_match_over(self) -> bool:
        """Over once a round ends with a player at ``target_score`` or more and the
        totals differ — or after ``max_rounds`` rounds, when that is set."""
        if not self._over:
            return False
        limit = self.options["max_rounds"]
        if limit and self.round_index + 1 >= limit:
            return True
        totals = self.totals
        return max(totals) >= self.options["target_score"] and totals[0] != totals[1]

    # -- views -----------------------------------------------------------------
    def hidden_cards(self, seat: int) -> list[Card]:
        """The other hand, all of it: every card reaches a hand from the draw pile, face down, and
        none from the table (the search's re-deals and its reading of hands: ``StockPile``)."""
        return [card for other, hand in enumerate(self.hands) if other != seat for card in hand]

    def stock_draws(self, move: Move) -> tuple[int, int]:
        # Every play and discard is followed by the draw; a lock and resolving a strike draw nothing.
        return (1, self.to_move) if move.verb in ("play", "discard") else (0, -1)

    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        """The move from ``viewer``'s side of the table: ``You put 4♥ into your
        vault 2``, ``Bo steals 2♠ from your vault 1 into their vault 4 with a lo
        thief (J♣)``, ``You call a worker's strike (Q♠) on Bo's vaults``.

        Each player's vaults are numbered 1–5 from that player's left, as the
        notation numbers them.  The card drawn after a play or discard is named
        only once the move is made, and only to the mover: ``You discard 7♣ and
        draw 9♦``.
        """
        sentence = move_words(self, move, viewer)
        if made and viewer == self.to_move and move.verb in ("play", "discard"):
            sentence += f" and draw {card_text(self.stock[self.stock_pos])}"
        return sentence

    def zones(self) -> dict[str, list[Card]]:
        zones = {
            "hand 0": list(self.hands[0]),
            "hand 1": list(self.hands[1]),
            "stock": self.stock[self.stock_pos:],
            "discard pile": list(self.discard_pile),
            "strike": [self.strike] if self.strike is not None else [],
        }
        for seat in (0, 1):
            zones[f"vaults {seat}"] = [c for v in self.vaults[seat] for c in v]
            zones[f"rubble {seat}"] = [c for c in self.rubble[seat] if c is not None]
        return zones

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes this position, as comparable values."""
        return (
            self.round_index, tuple(map(tuple, self.hands)), tuple(self.stock), self.stock_pos,
            tuple(tuple(map(tuple, v)) for v in self.vaults), tuple(map(tuple, self.rubble)),
            tuple(map(tuple, self.vstate)), tuple(map(tuple, self.bars)), tuple(self.fill), tuple(self.feat),
            tuple(self.locked),
            tuple(self.discard_pile), self.strike, self.strike_against, self.to_move,
            tuple(self.scores), tuple(self.moves), tuple(self.events), self._over,
        )

    def observation(self, seat: int) -> Observation:
        """See :class:`SilverBarsObservation`."""
        obs: SilverBarsObservation = {
            **self._base_observation(seat),
            "hand": [str(c) for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "vaults": [
                [
                    {
                        "cards": [str(c) for c in self.vaults[s][i]],
                        "rubble": str(self.rubble[s][i]) if self.rubble[s][i] is not None else None,
                        "locked": self.vstate[s][i] == LOCKED,
                    }
                    for i in range(VAULTS)
                ]
                for s in (0, 1)
            ],
            "locks_left": [LOCKS - n for n in self.locked],
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_count": len(self.stock) - self.stock_pos,
            "strike": (
                {"card": str(self.strike), "against": self.strike_against}
                if self.strike is not None and self.strike_against is not None else None
            ),
            "dealer": 1 - self.round_starter(self.round_index),
        }
        return cast(Observation, obs)

    def copy(self) -> SilverBarsState:
        other = SilverBarsState.__new__(SilverBarsState)
        self._copy_base(other)
        copied = list.copy
        other.hands = list(map(copied, self.hands))
        other.stock = self.stock
        other.stock_pos = self.stock_pos
        mine, theirs = self.vaults
        other.vaults = [list(map(copied, mine)), list(map(copied, theirs))]
        other.rubble = list(map(copied, self.rubble))
        other.vstate = list(map(copied, self.vstate))
        other.bars = list(map(copied, self.bars))
        other.fill = self.fill[:]
        other.feat = self.feat[:]
        other.locked = self.locked[:]
        other.discard_pile = self.discard_pile[:]
        other.strike = self.strike
        other.strike_against = self.strike_against
        other.to_move = self.to_move
        other._undo = self._undo[:]
        other._over = self._over
        return other

    # -- moves as text -----------------------------------------------------------
    def check_syntax(self, move: Move) -> None:
        """The shared forms, then the card's own: a miner needs one vault, a thief two,
        the worker's strike none; vaults are numbered 1–5."""
        super().check_syntax(move)
        check_form(move)

    def _explain_illegal(self, move: Move) -> Wrong | str:
        return why_illegal(self, move)
