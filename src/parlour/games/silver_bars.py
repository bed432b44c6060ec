"""100 Silver Bars: two small silver mines racing to ship 100 bars.

The rules, in the order silver-bars.source.txt gives them and as RULINGS.md
settles them:

* Two 54-card packs with jokers make a 95-card draw pile:
  silver bars A 2 3 4 6 (40, worth their pips, A = 1); miners 7 8 9 T (32);
  rubble K♣ K♦ K♥ (6); shovels Q♣ Q♦ Q♥ (6); the worker's strike Q♠ (2);
  lo thieves J (6: two J♠ are left out); hi thieves, the jokers (3: one is
  left out).  The eight 5s and both K♠ are the ten locks, five to each
  player, kept apart from hand and deck.  Options change how many of each
  special card the draw pile holds, and how many packs the bars and miners
  come from.
* Each player has five vaults, numbered 1–5 from their left.  The dealer
  deals 7 to each; the non-dealer (seat ``first`` in round 1) plays first
  and the deal alternates.
* A turn is exactly one of:
  1. play a card from hand, then draw the top of the draw pile:
     - a silver bar into an own unlocked vault that is empty, or whose top
       card is a miner — higher than the bar under that miner;
     - a miner onto an own unlocked vault whose top card is a silver bar;
     - rubble onto an empty vault of the opponent: it takes nothing until
       shovelled off;
     - a shovel clears the rubble off an own vault (both go to the discard
       pile);
     - a lo / hi thief takes the lowest / highest silver bar on top of the
       opponent's unlocked vaults (the thief picks among tied vaults) and
       puts it at once into one of the thief's own vaults by the silver-bar
       rule; a value that fits none of them cannot be stolen.  The thief
       goes to the discard pile;
     - the worker's strike sends every miner on top of the opponent's
       unlocked vaults to the discard pile; the opponent's next turn is
       spent resolving it (``resolve``: no play, no draw);
  2. discard any card, then draw (nobody draws from the discard pile);
  3. lock an own unlocked vault whose top card is a silver bar (no draw).
  A player's hand holds 7 cards at the end of each of their turns.
* The round ends at once when a player locks their fifth vault, or when the
  last card of the draw pile is drawn (a pending strike then stays
  unresolved).
* Each player scores every silver bar in their locked vaults
  (A M 3 M 4 M 6 L scores 14).  80, the most a round can give, is a Perfect
  Round: only bragging rights, but recorded as an event.
* The match goes on until, at the end of a round, a player has at least
  ``target_score`` (100) and the totals differ; the higher total wins.
  Safety ruling: after ``max_rounds`` rounds (default 50; 0 = no limit) the
  match ends anyway, the higher total winning and equal totals drawing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from parlour.cards import ALL_CARDS, JOKER, Card
from parlour.game import (
    Bounds,
    CardRole,
    Deal,
    Event,
    Game,
    Move,
    MoveSyntaxError,
    Observation,
    Option,
    RoundEnding,
    State,
    restore_base,
)
from parlour.games._base import StockPile
from parlour.narrate import card_text, cards_text, plural

HAND = 7
"""Cards in a hand, at the deal and at the end of every turn."""
VAULTS = 5
"""Vaults a player, numbered 1–5 from the player's left."""
LOCKS = 5
"""Locks a player."""
PERFECT = 80
"""The most a round can give: five vaults of A M 2 M 3 M 4 M 6."""

# -- the cards -------------------------------------------------------------------

BAR, MINER, RUBBLE, SHOVEL, STRIKE, LO_THIEF, HI_THIEF, LOCK_CARD = range(8)
"""The kinds of card: silver bar, miner, rubble, shovel, worker's strike, lo
thief, hi thief — and lock (a 5 or K♠, never in the deck)."""


def _kind(card: Card) -> int:
    if card.is_joker:
        return HI_THIEF
    rank, suit = card.rank, card.suit
    if rank == 5 or (rank == 13 and suit == "S"):
        return LOCK_CARD
    if rank <= 6:
        return BAR
    if rank <= 10:
        return MINER
    if rank == 11:
        return LO_THIEF
    if rank == 12:
        return STRIKE if suit == "S" else SHOVEL
    return RUBBLE


KIND = [_kind(c) for c in ALL_CARDS]
"""Each card's kind, by card code."""
BAR_VALUE = [c.rank if KIND[c] == BAR else 0 for c in ALL_CARDS]
"""A silver bar's value (A = 1); 0 for any other card."""
BAR_VALUES = (1, 2, 3, 4, 6)
"""The values silver bars have (there are no 5s: they are locks)."""
_ROLES = {
    MINER: CardRole("miner", "miner", "miner"), RUBBLE: CardRole("rubble", "rubble", "rubble"),
    SHOVEL: CardRole("shovel", "shovel", "shovel"), STRIKE: CardRole("strike", "strike", "strike"),
    LO_THIEF: CardRole("lo thief", "thief", "lo thief"), HI_THIEF: CardRole("hi thief", "thief", "hi thief"),
    LOCK_CARD: CardRole("lock", "lock", "lock"),
}
"""What each kind of card but a silver bar is called on the card (see :meth:`SilverBars.card_role`)."""


def _pairs(texts: str) -> list[Card]:
    """Twins together, suits in order: ``KC KC KD KD …`` (the first n are used)."""
    return [Card.parse(t) for t in texts.split() for _ in range(2)]


SPECIALS: dict[str, list[Card]] = {
    "rubble": _pairs("KC KD KH"),
    "shovels": _pairs("QC QD QH"),
    "strikes": _pairs("QS"),
    "lo_thieves": _pairs("JC JD JH JS"),
    "hi_thieves": [JOKER] * 4,
}
"""The special cards each deck-composition option draws from, in the order they
are taken: option ``lo_thieves`` = 6 takes both J♣, J♦ and J♥ (leaving the J♠
out, as the source does)."""


DEFAULT_COUNTS = {"mining_packs": 2, "rubble": 6, "shovels": 6, "strikes": 2, "lo_thieves": 6, "hi_thieves": 3}
"""The deck-composition options and their defaults (the source's deck): how many
packs the silver bars and miners come from, and how many of each special card."""
_DECKS: dict[tuple[int, ...], list[Card]] = {}


def silver_bars_deck(options: Mapping[str, Any] | None = None) -> list[Card]:
    """The draw pile's cards: silver bars and miners from ``mining_packs`` packs
    (40 and 32 from two), then the special cards that the deck-composition
    options ask for — 95 cards by default."""
    given = options or {}
    counts = tuple(given.get(name, default) for name, default in DEFAULT_COUNTS.items())
    deck = _DECKS.get(counts)
    if deck is None:
        deck = [c for c in ALL_CARDS[:52] if KIND[c] in (BAR, MINER) for _ in range(counts[0])]
        for name, count in zip(DEFAULT_COUNTS, counts):
            if name in SPECIALS:
                deck.extend(SPECIALS[name][:count])
        _DECKS[counts] = deck
    return list(deck)


# Each vault is in one of a few states, coded as a small int:
#   EMPTY; RUBBLED (covered, no cards); LOCKED; BAR_TOP + v (a silver bar of
#   value v on top); MINER_TOP + v (a miner on top, over a bar of value v).
# A vault's cards always alternate bar, miner, bar, … from the bottom.
#
# For speed each seat keeps two ints of 5-bit fields, one bit per vault (bit
# i of a field is vault i + 1), answering the questions the legal moves ask:
#   ``fill``: which vaults take a silver bar of each value, which have a bar
#   on top — 30 bits, so the lookups made for most cards stay on small ints;
#   ``feat``: rubble, empty vaults, a miner on top, the value of the top bar.
# A vault's change of state adds and subtracts the precomputed bits of both
# states.

EMPTY, RUBBLED, LOCKED = 0, 1, 2
BAR_TOP = 3
MINER_TOP = 10
STATES = MINER_TOP + 7

FILL_FIELD = {1: 0, 2: 1, 3: 2, 4: 3, 6: 5}
"""The ``fill`` field of the vaults that take a silver bar of each value."""
F_TOP_BAR = 4
"""``fill`` field: vaults with a silver bar on top (unlocked): miners and locks go there."""
F_RUBBLE, F_EMPTY, F_TOP_MINER = 0, 1, 2
"""``feat`` fields: vaults under rubble (shovels go there); empty vaults (the
opponent's rubble goes there); vaults with a miner on top (a strike clears them)."""
F_TOP_VALUE = 3
"""``feat`` fields 3–7: vaults with a bar of value 1, 2, 3, 4, 6 on top (thieves take from there)."""
ALWAYS = 1 << 10
"""A bit that is always set in the per-turn targets of the hand (the strike needs no vault)."""


def _fill_bits(state: int) -> int:
    bits = 0
    for v, field in FILL_FIELD.items():
        if bar_fits(state, v):
            bits |= 1 << (5 * field)
    if BAR_TOP <= state < MINER_TOP:
        bits |= 1 << (5 * F_TOP_BAR)
    return bits


def _feat_bits(state: int) -> int:
    if state == EMPTY:
        return 1 << (5 * F_EMPTY)
    if state == RUBBLED:
        return 1 << (5 * F_RUBBLE)
    if BAR_TOP <= state < MINER_TOP:
        return 1 << (5 * (F_TOP_VALUE + BAR_VALUES.index(state - BAR_TOP)))
    if state >= MINER_TOP:
        return 1 << (5 * F_TOP_MINER)
    return 0


def bar_fits(state: int, value: int) -> bool:
    """The silver-bar rule: a bar of ``value`` goes into a vault in ``state``
    (empty, or a miner on top over a lower bar)."""
    return state == EMPTY or (state >= MINER_TOP and value > state - MINER_TOP)


VAULT_STATES = (EMPTY, RUBBLED, LOCKED, *(BAR_TOP + v for v in BAR_VALUES), *(MINER_TOP + v for v in BAR_VALUES))
"""Every state a vault can be in (there is no bar of value 5)."""
FILL = [_fill_bits(s) if s in VAULT_STATES else 0 for s in range(STATES)]
FEAT = [_feat_bits(s) if s in VAULT_STATES else 0 for s in range(STATES)]
"""Each vault state's ``fill`` and ``feat`` bits, as vault 1's."""
START_FILL = sum(FILL[EMPTY] << i for i in range(VAULTS))
START_FEAT = sum(FEAT[EMPTY] << i for i in range(VAULTS))
"""A seat's ``fill`` and ``feat`` at the start of a round: five empty vaults."""


def vault_state(cards: Sequence[Card], rubble: bool, locked: bool) -> int:
    """The state code of a vault holding ``cards`` (bottom first)."""
    if locked:
        return LOCKED
    if rubble:
        return RUBBLED
    if not cards:
        return EMPTY
    top = cards[-1]
    if KIND[top] == BAR:
        return BAR_TOP + BAR_VALUE[top]
    return MINER_TOP + BAR_VALUE[cards[-2]]


def vault_takes(cards: Sequence[Card], rubble: bool, locked: bool) -> tuple[str, str]:
    """What a vault takes next, in words, and which case that is (for the front ends to colour):
    ``locked`` (nothing), ``rubble`` (``needs a shovel``), ``empty`` (``any bar``), ``miner``
    (``bar > 2``: a miner takes only a higher bar than the one under it), ``bar`` (``miner or
    lock``)."""
    if locked:
        return "locked", "locked"
    if rubble:
        return "needs a shovel", "rubble"
    if not cards:
        return "any bar", "empty"
    if KIND[cards[-1]] == MINER:
        return f"bar > {BAR_VALUE[cards[-2]]}", "miner"
    return "miner or lock", "bar"


def vault_bars(cards: Sequence[Card]) -> int:
    """The silver bars in a vault: the sum of every bar in it (miners count nothing)."""
    return sum(BAR_VALUE[c] for c in cards)


# -- moves, built once ------------------------------------------------------------

RESOLVE = Move("resolve")
LOCK = [Move("lock", (i + 1,)) for i in range(VAULTS)]
DISCARD = [Move("discard", (c,)) for c in ALL_CARDS]
PLAY_ALONE = [Move("play", (c,)) for c in ALL_CARDS]
PLAY_AT = [[Move("play", (c, i + 1)) for i in range(VAULTS)] for c in ALL_CARDS]
"""``play <card> <vault>`` for every card and vault."""


def _bits(mask: int) -> list[int]:
    return [i for i in range(VAULTS) if mask >> i & 1]


LOCK_MOVES = [[LOCK[i] for i in _bits(m)] for m in range(32)]
"""Lock moves for each 5-bit mask of vaults."""

FROM_FILL, FROM_AUX, THIEF, NOT_PLAYED = range(4)
"""Where a card's targets are: in the seat's ``fill``, in the per-turn ``aux``
(own rubble, the opponent's empty vaults, the always bit), worked out for a
thief, or nowhere (locks are not cards of the hand)."""


def _where(card: Card) -> tuple[int, int]:
    kind = KIND[card]
    if kind == BAR:
        return FROM_FILL, 5 * FILL_FIELD[BAR_VALUE[card]]
    if kind == MINER:
        return FROM_FILL, 5 * F_TOP_BAR
    if kind == SHOVEL:
        return FROM_AUX, 5 * F_RUBBLE
    if kind == RUBBLE:
        return FROM_AUX, 5 * F_EMPTY
    if kind == STRIKE:
        return FROM_AUX, ALWAYS.bit_length() - 1
    if kind in (LO_THIEF, HI_THIEF):
        return THIEF, 0
    return NOT_PLAYED, 0


def _card_moves(card: Card, mask: int) -> list[Move]:
    if KIND[card] == STRIKE:
        plays = [PLAY_ALONE[card]] if mask & 1 else []
    else:
        plays = [PLAY_AT[card][i] for i in _bits(mask)]
    return [*plays, DISCARD[card]]


TARGETS: list[tuple[int, int, list[list[Move]]]] = [
    (*_where(c), [_card_moves(c, m) for m in range(32)]) for c in ALL_CARDS
]
"""For each card: where its targets are, at which bit offset, and its plays
onto each 5-bit mask of targets followed by its discard — built once."""

_THIEF_INDEX = {c: n for n, c in enumerate(c for c in ALL_CARDS if KIND[c] in (LO_THIEF, HI_THIEF))}
_THIEF_MOVES: list[list[Move] | None] = [None] * (len(_THIEF_INDEX) << 10)
_FILL_SHIFT = tuple(5 * FILL_FIELD[v] for v in BAR_VALUES)


def _thief_moves(card: Card, src: int, dst: int) -> list[Move]:
    key = (_THIEF_INDEX[card] << 10) | (src << 5) | dst
    found = _THIEF_MOVES[key]
    if found is None:
        found = [Move("play", (card, i + 1, j + 1)) for i in _bits(src) for j in _bits(dst)]
        _THIEF_MOVES[key] = found
    return found


def _thief_plays(card: Card, fill: int, theirs: int) -> list[Move]:
    """A thief's plays: every tied source × every vault of the thief's that takes the bar.

    ``fill`` is the thief's, ``theirs`` the opponent's ``feat``: its top-value
    fields, one per bar value, hold the vaults with that bar on top, so the
    lowest (or highest) non-empty field is the bar the thief takes.
    """
    tops = theirs >> (5 * F_TOP_VALUE)
    if not tops:
        return []
    if KIND[card] == LO_THIEF:
        field = ((tops & -tops).bit_length() - 1) // 5
    else:
        field = (tops.bit_length() - 1) // 5
    dst = (fill >> _FILL_SHIFT[field]) & 31
    if not dst:
        return []
    return _thief_moves(card, (tops >> (5 * field)) & 31, dst)


def play_targets(card: Card, own: Sequence[dict[str, Any]], theirs: Sequence[dict[str, Any]]) -> list[Move]:
    """Every ``play`` move of ``card`` given the vaults as an observation shows them.

    ``own`` and ``theirs`` are the ``vaults`` entries of an observation for
    the player and the opponent (dicts with ``cards``, ``rubble`` and
    ``locked``).  The rules are the engine's own, so UIs can offer the legal
    targets of a chosen card from the observation alone.
    """
    def read(vaults: Sequence[dict[str, Any]]) -> tuple[int, int]:
        fill = feat = 0
        for i, v in enumerate(vaults):
            state = vault_state([Card.parse(c) for c in v["cards"]], v["rubble"] is not None, v["locked"])
            fill += FILL[state] << i
            feat += FEAT[state] << i
        return fill, feat

    (fill, feat), (_, other) = read(own), read(theirs)
    source, offset, table = TARGETS[card]
    if source == THIEF:
        return list(_thief_plays(card, fill, other))
    if source == NOT_PLAYED:
        return []
    aux = (feat & 31) | (other & (31 << 5)) | ALWAYS
    return table[((fill if source == FROM_FILL else aux) >> offset) & 31][:-1]


def _value_word(value: int) -> str:
    return "an ace" if value == 1 else f"a {value}"


_USAGE = {
    BAR: "a silver bar goes into one of your vaults: play {card} <vault>",
    MINER: "a miner goes on one of your vaults: play {card} <vault>",
    RUBBLE: "rubble goes on one of your opponent's empty vaults: play {card} <their vault>",
    SHOVEL: "a shovel clears the rubble off one of your vaults: play {card} <vault>",
    STRIKE: "the worker's strike takes no vault: play {card}",
    LO_THIEF: "a lo thief takes from their vault into yours: play {card} <their vault> <your vault>",
    HI_THIEF: "a hi thief takes from their vault into yours: play {card} <their vault> <your vault>",
}
_ARITY = {BAR: 1, MINER: 1, RUBBLE: 1, SHOVEL: 1, STRIKE: 0, LO_THIEF: 2, HI_THIEF: 2}

# Undo records: a tag, then what the move changed.
_U_PLACE, _U_RUBBLE, _U_SHOVEL, _U_STRIKE, _U_THIEF, _U_DISCARD, _U_LOCK, _U_RESOLVE = range(8)
_END_EVENTS = 3
"""Events the end of a round adds: why it ended, and each player's shipment."""


class SilverBarsState(StockPile, State):
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
    _undo: list[tuple[Any, ...]]
    _over: bool

    # -- the deal --------------------------------------------------------------
    def round_starter(self, round_index: int) -> int:
        """Seat ``first`` (the non-dealer) starts round 1; then the deal alternates."""
        return self.first if round_index % 2 == 0 else 1 - self.first

    def _start_round(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self.vaults = [[[] for _ in range(VAULTS)] for _ in range(2)]
        self.rubble = [[None] * VAULTS for _ in range(2)]
        self.vstate = [[EMPTY] * VAULTS for _ in range(2)]
        self.fill = [START_FILL, START_FILL]
        self.feat = [START_FEAT, START_FEAT]
        self.locked = [0, 0]
        self.discard_pile = []
        self.strike = None
        self.strike_against = None
        self.to_move = self.round_starter(self.round_index)
        self._undo = []
        self._over = False

    # -- turns -----------------------------------------------------------------
    def current_player(self) -> int | None:
        return None if self._over else self.to_move

    def is_round_over(self) -> bool:
        return self._over

    def legal_moves(self) -> list[Move]:
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
        for card in set(self.hands[seat]):
            source, offset, table = targets[card]
            if source < THIEF:
                moves += table[(sources[source] >> offset) & 31]
            else:
                moves += _thief_plays(card, fill, theirs)
                moves.append(DISCARD[card])
        return moves

    def apply(self, move: Move) -> None:
        verb, args = move
        if self._over:
            raise self._illegal(move)
        seat = self.to_move
        if self.strike_against == seat:
            if verb != "resolve" or args:
                raise self._illegal(move)
            # The turn is spent resolving: the strike card goes to the discard pile.
            self.discard_pile.append(self.strike)  # type: ignore[arg-type]
            self.strike = None
            self.strike_against = None
            self._undo.append((_U_RESOLVE,))
            self.moves.append(move)
            self.to_move = 1 - seat
            return
        hand = self.hands[seat]
        card = args[0] if args else None
        if verb == "discard":
            if type(card) is not Card or len(args) != 1 or card not in hand:
                raise self._illegal(move)
            index = hand.index(card)
            self.discard_pile.append(card)
            undo: tuple[Any, ...] = (_U_DISCARD, index)
        elif verb == "play":
            if type(card) is not Card or card not in hand:
                raise self._illegal(move)
            index = hand.index(card)
            undo = self._play(move, seat, card, index)
        elif verb == "lock":
            self._lock(move, seat, args)
            return
        else:
            raise self._illegal(move)
        # Every play and discard is followed by the draw.
        del hand[index]
        pos = self.stock_pos
        hand.append(self.stock[pos])
        self.stock_pos = pos + 1
        self._undo.append(undo)
        self.moves.append(move)
        self.to_move = 1 - seat
        if pos + 1 == len(self.stock):
            self._end_round(None)

    def _play(self, move: Move, seat: int, card: Card, index: int) -> tuple[Any, ...]:
        """Play ``card`` as the move says; return what undo needs."""
        args = move.args
        kind = KIND[card]
        if kind <= SHOVEL:  # a card that goes on one vault
            vault = args[1] if len(args) == 2 else 0
            if type(vault) is not int or not 1 <= vault <= VAULTS:
                raise self._illegal(move)
            i = vault - 1
            target = 1 - seat if kind == RUBBLE else seat
            source, offset, _ = TARGETS[card]
            if not ((self.fill[seat] if source == FROM_FILL else self.feat[target]) >> (offset + i)) & 1:
                raise self._illegal(move)
            states = self.vstate[target]
            old = states[i]
            if kind == BAR:
                self.vaults[seat][i].append(card)
                new = BAR_TOP + BAR_VALUE[card]
                undo: tuple[Any, ...] = (_U_PLACE, index, i, old)
            elif kind == MINER:
                self.vaults[seat][i].append(card)
                new = MINER_TOP + old - BAR_TOP
                undo = (_U_PLACE, index, i, old)
            elif kind == RUBBLE:
                self.rubble[target][i] = card
                new = RUBBLED
                undo = (_U_RUBBLE, index, i)
            else:
                covering = self.rubble[seat][i]
                self.rubble[seat][i] = None
                # The rubble goes to the discard pile first, the shovel on top of it.
                self.discard_pile.append(covering)  # type: ignore[arg-type]
                self.discard_pile.append(card)
                new = EMPTY
                undo = (_U_SHOVEL, index, i, covering)
            states[i] = new
            self.fill[target] += (FILL[new] - FILL[old]) << i
            self.feat[target] += (FEAT[new] - FEAT[old]) << i
            return undo
        if kind == STRIKE:
            if len(args) != 1:
                raise self._illegal(move)
            return (_U_STRIKE, index, self._strike(seat, card))
        if kind == LO_THIEF or kind == HI_THIEF:
            if len(args) != 3 or move not in _thief_plays(card, self.fill[seat], self.feat[1 - seat]):
                raise self._illegal(move)
            src: int = args[1]  # type: ignore[assignment]
            dst: int = args[2]  # type: ignore[assignment]
            return (_U_THIEF, index, *self._steal(seat, card, src - 1, dst - 1))
        raise self._illegal(move)

    def _strike(self, seat: int, card: Card) -> tuple[int, ...]:
        """Every miner on top of the opponent's unlocked vaults goes to the discard pile;
        the strike waits above their vaults until they resolve it."""
        other = 1 - seat
        struck = tuple(_bits((self.feat[other] >> (5 * F_TOP_MINER)) & 31))
        lost = []
        for i in struck:
            miner = self.vaults[other][i].pop()
            self.discard_pile.append(miner)
            lost.append(miner)
            self._set(other, i, BAR_TOP + self.vstate[other][i] - MINER_TOP)
        self.strike = card
        self.strike_against = other
        if lost:
            what = f"{plural(len(lost), 'miner')} ({cards_text(lost)}) {'goes' if len(lost) == 1 else 'go'}"
        else:
            what = "no miner goes"
        self.events.append(Event(
            len(self.moves) + 1, seat, "Worker's Strike", 0,
            f"{{player}} {{call}} a worker's strike: {what} from {{other's}} vaults to the discard pile",
            other,
        ))
        return struck

    def _steal(self, seat: int, card: Card, src: int, dst: int) -> tuple[int, int, int, int]:
        """Move the top bar of the opponent's vault ``src`` into the thief's vault ``dst``;
        the thief goes to the discard pile."""
        other = 1 - seat
        robbed = self.vaults[other][src]
        bar = robbed.pop()
        old_src = self.vstate[other][src]
        old_dst = self.vstate[seat][dst]
        self._set(other, src, vault_state(robbed, False, False))
        self.vaults[seat][dst].append(bar)
        self._set(seat, dst, BAR_TOP + BAR_VALUE[bar])
        self.discard_pile.append(card)
        thief = "lo" if KIND[card] == LO_THIEF else "hi"
        self.events.append(Event(
            len(self.moves) + 1, seat, "Theft", 0,
            f"{{player's}} {thief} thief takes the {card_text(bar)} from {{other's}} vault {src + 1} "
            f"into {{their}} vault {dst + 1}",
            other,
        ))
        return src, dst, old_src, old_dst

    def _lock(self, move: Move, seat: int, args: tuple[Any, ...]) -> None:
        """Lock a vault with a silver bar on top: no draw; the fifth lock ends the round."""
        vault = args[0] if len(args) == 1 else 0
        if type(vault) is not int or not 1 <= vault <= VAULTS:
            raise self._illegal(move)
        i = vault - 1
        old = self.vstate[seat][i]
        if not BAR_TOP <= old < MINER_TOP:
            raise self._illegal(move)
        self._undo.append((_U_LOCK, i, old))
        self._set(seat, i, LOCKED)
        self.locked[seat] += 1
        # A locked vault never changes again, so its bars are as good as shipped.
        self.scores[seat] += vault_bars(self.vaults[seat][i])
        self.moves.append(move)
        self.to_move = 1 - seat
        if self.locked[seat] == VAULTS:
            self._end_round(seat)

    def _end_round(self, locked_out: int | None) -> None:
        """The round ends: say why, and what each player ships (``_END_EVENTS`` events)."""
        self._over = True
        number = len(self.moves)
        if locked_out is not None:
            self.events.append(Event(
                number, locked_out, "Lock-out", 0, "{player} {have} locked all five vaults: the round ends",
            ))
        else:
            self.events.append(Event(
                number, None, "Draw Pile Empty", 0, "The last card of the draw pile is drawn: the round ends",
            ))
        for seat in (0, 1):
            points = self.scores[seat]
            if points == PERFECT:
                self.events.append(Event(
                    number, seat, "Perfect Round", points, "{player} {ship} 80 silver bars: a Perfect Round!",
                ))
            else:
                vaults = self.locked[seat]
                self.events.append(Event(
                    number, seat, "Shipment", points,
                    f"{{player}} {{ship}} {plural(points, 'silver bar')} from {plural(vaults, 'locked vault')}",
                ))

    def undo(self) -> Move:
        if not self._undo:
            raise ValueError("nothing to undo in this round")
        entry = self._undo.pop()
        move = self.moves.pop()
        tag = entry[0]
        if self._over:
            self._over = False
            del self.events[-_END_EVENTS:]
        seat = 1 - self.to_move
        self.to_move = seat
        if tag == _U_RESOLVE:
            self.strike = self.discard_pile.pop()
            self.strike_against = seat
            return move
        if tag == _U_LOCK:
            i, old = entry[1], entry[2]
            self._set(seat, i, old)
            self.locked[seat] -= 1
            self.scores[seat] -= vault_bars(self.vaults[seat][i])
            return move
        hand = self.hands[seat]
        hand.pop()
        self.stock_pos -= 1
        card: Card = move.args[0]  # type: ignore[assignment]
        hand.insert(entry[1], card)
        if tag == _U_DISCARD:
            self.discard_pile.pop()
        elif tag == _U_PLACE:
            i = entry[2]
            self.vaults[seat][i].pop()
            self._set(seat, i, entry[3])
        elif tag == _U_RUBBLE:
            i = entry[2]
            self.rubble[1 - seat][i] = None
            self._set(1 - seat, i, EMPTY)
        elif tag == _U_SHOVEL:
            i = entry[2]
            del self.discard_pile[-2:]
            self.rubble[seat][i] = entry[3]
            self._set(seat, i, RUBBLED)
        elif tag == _U_STRIKE:
            other = 1 - seat
            self.strike = None
            self.strike_against = None
            self.events.pop()
            for i in reversed(entry[2]):
                self.vaults[other][i].append(self.discard_pile.pop())
                self._set(other, i, MINER_TOP + self.vstate[other][i] - BAR_TOP)
        else:
            src, dst, old_src, old_dst = entry[2:]
            self.events.pop()
            self.discard_pile.pop()
            bar = self.vaults[seat][dst].pop()
            self._set(seat, dst, old_dst)
            self.vaults[1 - seat][src].append(bar)
            self._set(1 - seat, src, old_src)
        return move

    def _set(self, seat: int, i: int, new: int) -> None:
        old = self.vstate[seat][i]
        self.vstate[seat][i] = new
        self.fill[seat] += (FILL[new] - FILL[old]) << i
        self.feat[seat] += (FEAT[new] - FEAT[old]) << i

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
        sentence = self._move_words(move, viewer)
        if made and viewer == self.to_move and move.verb in ("play", "discard"):
            sentence += f" and draw {card_text(self.stock[self.stock_pos])}"
        return sentence

    def _move_words(self, move: Move, viewer: int | None) -> str:
        """The move itself in words (see :meth:`describe_move`)."""
        voice = self.voice(viewer)
        seat = voice.seat
        mine, theirs = voice.whose(seat), voice.whose(1 - seat)
        verb, args = move
        numbers = [a for a in args if type(a) is int]  # vaults: the target, then a thief's own
        if verb == "resolve":
            return voice.says("spend", f"{mine} turn resolving the worker's strike")
        if verb == "lock":
            bars = vault_bars(self.vaults[seat][numbers[0] - 1])
            return voice.says("lock", f"{mine} vault {numbers[0]} ({plural(bars, 'silver bar')})")
        card: Card = args[0]  # type: ignore[assignment]
        shown = card_text(card)
        if verb == "discard":
            return voice.says("discard", shown)
        kind = KIND[card]
        if kind == STRIKE:
            return voice.says("call", f"a worker's strike ({shown}) on {theirs} vaults")
        vault = numbers[0]
        if kind == BAR:
            return voice.says("put", f"{shown} into {mine} vault {vault}")
        if kind == MINER:
            return voice.says("put", f"a miner ({shown}) on {mine} vault {vault}")
        if kind == RUBBLE:
            return voice.says("put", f"rubble ({shown}) on {theirs} vault {vault}")
        if kind == SHOVEL:
            rubble = self.rubble[seat][vault - 1]
            assert rubble is not None
            return voice.says("shovel", f"the rubble ({card_text(rubble)}) off {mine} vault {vault} with {shown}")
        bar = card_text(self.vaults[1 - seat][vault - 1][-1])
        thief = f"a {'lo' if kind == LO_THIEF else 'hi'} thief ({shown})"
        return voice.says("steal", f"{bar} from {theirs} vault {vault} into {mine} vault {numbers[1]} with {thief}")

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
            tuple(map(tuple, self.vstate)), tuple(self.fill), tuple(self.feat),
            tuple(self.locked),
            tuple(self.discard_pile), self.strike, self.strike_against, self.to_move,
            tuple(self.scores), tuple(self.moves), tuple(self.events), self._over,
        )

    def observation(self, seat: int) -> Observation:
        obs = self._base_observation(seat)
        obs.update(
            hand=[str(c) for c in self.hands[seat]],
            hand_sizes=[len(h) for h in self.hands],
            vaults=[
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
            locks_left=[LOCKS - n for n in self.locked],
            discard_pile=[str(c) for c in self.discard_pile],
            stock_count=len(self.stock) - self.stock_pos,
            strike=(
                {"card": str(self.strike), "against": self.strike_against} if self.strike is not None else None
            ),
            dealer=1 - self.round_starter(self.round_index),
        )
        return obs

    def copy(self) -> SilverBarsState:
        other = SilverBarsState.__new__(SilverBarsState)
        self._copy_base(other)
        other.hands = [list(h) for h in self.hands]
        other.stock = self.stock
        other.stock_pos = self.stock_pos
        other.vaults = [[list(v) for v in seat] for seat in self.vaults]
        other.rubble = [list(r) for r in self.rubble]
        other.vstate = [list(s) for s in self.vstate]
        other.fill = list(self.fill)
        other.feat = list(self.feat)
        other.locked = list(self.locked)
        other.discard_pile = list(self.discard_pile)
        other.strike = self.strike
        other.strike_against = self.strike_against
        other.to_move = self.to_move
        other._undo = list(self._undo)
        other._over = self._over
        return other

    # -- moves as text -----------------------------------------------------------
    def check_syntax(self, move: Move) -> None:
        """The shared forms, then the card's own: a miner needs one vault, a thief two,
        the worker's strike none; vaults are numbered 1–5."""
        super().check_syntax(move)
        for arg in move.args:
            if type(arg) is int and not 1 <= arg <= VAULTS:
                raise MoveSyntaxError(f"vaults are numbered 1 to {VAULTS} from the player's left, not {arg}")
        if move.verb in ("play", "discard"):
            card: Card = move.args[0]  # type: ignore[assignment]
            kind = KIND[card]
            if kind == LOCK_CARD:
                raise MoveSyntaxError(
                    f"{card} is a lock: locks are kept apart from the hand; lock a vault with: lock <vault>"
                )
            if move.verb == "play" and len(move.args) - 1 != _ARITY[kind]:
                raise MoveSyntaxError(_USAGE[kind].format(card=card))

    def _explain_illegal(self, move: Move) -> str:
        try:  # a move built in code rather than parsed may not even have a form of the game
            self.check_syntax(move)
        except MoveSyntaxError as error:
            return str(error)
        seat = self.to_move
        name = self.names[seat]
        verb, args = move
        # The syntax is checked: vault numbers are 1–5, and a play or discard names a card first.
        vaults = [a - 1 for a in args if type(a) is int]
        if self.strike_against == seat:
            return f"a worker's strike is pending against {name}: this turn is spent resolving it ('resolve')"
        if verb == "resolve":
            return "there is no worker's strike to resolve"
        if verb == "lock":
            return self._lock_reason(vaults[0])
        card = args[0]
        assert isinstance(card, Card)
        if card not in self.hands[seat]:
            hand = " ".join(str(c) for c in self.hands[seat])
            return f"{card} is not in {name}'s hand ({hand})"
        kind = KIND[card]
        own = self.vstate[seat]
        if kind in (LO_THIEF, HI_THIEF):
            return self._thief_reason(card, vaults[0], vaults[1])
        where = f"vault {vaults[0] + 1}" if vaults else ""
        if kind == BAR:
            return self._bar_reason(own[vaults[0]], BAR_VALUE[card], where)
        if kind == MINER:
            return self._miner_reason(own[vaults[0]], where)
        if kind == RUBBLE:
            if self.vstate[1 - seat][vaults[0]] == RUBBLED:
                return f"their {where} is already under rubble"
            return f"their {where} is not empty: rubble goes only on an empty vault"
        if kind == SHOVEL:
            return f"{where} has no rubble to shovel off"
        return "the rules do not allow it here"

    @staticmethod
    def _bar_reason(state: int, value: int, where: str) -> str:
        if state == LOCKED:
            return f"{where} is locked"
        if state == RUBBLED:
            return f"{where} is under rubble (shovel it off first)"
        if BAR_TOP <= state < MINER_TOP:
            return (f"{where}'s top card is a silver bar ({state - BAR_TOP}): "
                    "a silver bar goes into an empty vault or onto a miner")
        under = state - MINER_TOP
        return f"{where}'s top card is a miner over {_value_word(under)}: a bar there must be higher than {under}"

    @staticmethod
    def _miner_reason(state: int, where: str) -> str:
        if state == LOCKED:
            return f"{where} is locked"
        if state == RUBBLED:
            return f"{where} is under rubble (shovel it off first)"
        if state == EMPTY:
            return f"{where} is empty: a miner goes on a silver bar"
        return f"{where}'s top card is already a miner: a miner goes on a silver bar"

    def _lock_reason(self, i: int) -> str:
        state = self.vstate[self.to_move][i]
        where = f"vault {i + 1}"
        if state == LOCKED:
            return f"{where} is already locked"
        if state == RUBBLED:
            return f"{where} is under rubble: a lock goes only on a silver bar"
        if state == EMPTY:
            return f"{where} is empty: a lock goes only on a silver bar"
        return f"{where}'s top card is a miner: a lock goes only on a silver bar"

    def _thief_reason(self, card: Card, src: int, dst: int) -> str:
        seat = self.to_move
        thief = "lo thief" if KIND[card] == LO_THIEF else "hi thief"
        theirs = self.vstate[1 - seat]
        tops = {i: s - BAR_TOP for i, s in enumerate(theirs) if BAR_TOP <= s < MINER_TOP}
        if not tops:
            return f"no unlocked vault of theirs has a silver bar on top for the {thief} to take"
        value = min(tops.values()) if KIND[card] == LO_THIEF else max(tops.values())
        if theirs[src] == LOCKED:
            return f"their vault {src + 1} is locked: a thief cannot take from it"
        if src not in tops:
            return f"their vault {src + 1} has no silver bar on top"
        if tops[src] != value:
            where = " or ".join(str(i + 1) for i, v in tops.items() if v == value)
            lowest = "lowest" if KIND[card] == LO_THIEF else "highest"
            return (f"the {thief} takes the {lowest} silver bar on top of their unlocked vaults, "
                    f"{_value_word(value)} (their vault {where}), not the {tops[src]} in their vault {src + 1}")
        own = self.vstate[seat]
        if not any(bar_fits(s, value) for s in own):
            return (f"the stolen {value} would fit none of your vaults, so the {thief} cannot be played "
                    "(it can still be discarded)")
        return f"the stolen {value} cannot go into vault {dst + 1}: " + self._bar_reason(
            own[dst], value, f"vault {dst + 1}")


class SilverBars(Game):
    """100 Silver Bars' metadata, deck, deals and determinization."""

    id = "silver-bars"
    name = "100 Silver Bars"
    players = 2
    version = "1.0"
    summary = "fill five vaults with silver bars and lock them; thieves, rubble, strikes; first to 100"
    options = (
        Option("target_score", 100, "the match ends after a round that leaves a player at this score or more, "
               "with the totals different", int, minimum=1),
        Option("max_rounds", 50, "safety: the match ends after this many rounds even short of the target "
               "(0: no limit)", int, minimum=0),
        Option("mining_packs", DEFAULT_COUNTS["mining_packs"],
               "packs the silver bars and miners come from (2: 40 bars and 32 miners)", int, minimum=1, maximum=4),
        Option("rubble", DEFAULT_COUNTS["rubble"], "rubble cards (K♣ K♦ K♥, twins together) in the draw pile",
               int, minimum=0, maximum=6),
        Option("shovels", DEFAULT_COUNTS["shovels"], "shovels (Q♣ Q♦ Q♥, twins together) in the draw pile",
               int, minimum=0, maximum=6),
        Option("strikes", DEFAULT_COUNTS["strikes"], "worker's strikes (Q♠) in the draw pile",
               int, minimum=0, maximum=2),
        Option("lo_thieves", DEFAULT_COUNTS["lo_thieves"],
               "lo thieves (J♣ J♦ J♥ J♠, twins together) in the draw pile", int, minimum=0, maximum=8),
        Option("hi_thieves", DEFAULT_COUNTS["hi_thieves"], "hi thieves (jokers) in the draw pile",
               int, minimum=0, maximum=4),
    )
    event_kinds = ("Theft", "Worker's Strike", "Lock-out", "Draw Pile Empty", "Shipment", "Perfect Round")
    endings = (RoundEnding("Lock-out", "Lock-out"), RoundEnding("Draw pile empty", "Draw Pile Empty"))
    deal_zones = ("hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return SilverBarsState

    def deck(self, options: Any = None) -> list[Card]:
        """The draw pile's cards: 40 bars, 32 miners and the special cards the
        options ask for (95 by default); the ten locks are not in it."""
        return silver_bars_deck(options)

    def card_universe(self) -> tuple[Card, ...]:
        """Every card of the deck with each deck option at its largest."""
        largest = {option.name: option.maximum for option in self.options if option.name in DEFAULT_COUNTS}
        return tuple(sorted(set(silver_bars_deck(largest))))

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The silver bars in each vault (those of locked vaults are shipped)."""
        return {"vaults": [[vault_bars(list(map(Card.parse, v["cards"]))) for v in seat] for seat in view["vaults"]]}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """A round lasts while the stock does, plus a lock for each vault and the strikes; a
        round gives at most a perfect score."""
        if options["max_rounds"] == 0:
            raise ValueError("a match need not end without a round limit: max_rounds must be at least 1")
        stock = len(silver_bars_deck(options)) - 2 * HAND
        return Bounds(options["max_rounds"], stock + 2 * VAULTS + options["strikes"], PERFECT)

    def card_role(self, card: Card) -> CardRole | None:
        """Every card is of a kind: a silver bar (with its value), a miner, rubble, a shovel,
        the worker's strike, a lo or hi thief, or a lock."""
        kind = KIND[card]
        if kind == BAR:
            return CardRole(f"bar {BAR_VALUE[card]}", "bar", f"bar {BAR_VALUE[card]}")
        return _ROLES[kind]

    def hand_size(self, options: Mapping[str, Any]) -> int:
        return HAND

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle the deck; 7 to each player, the rest is the draw pile."""
        deck = self.deck(state.options)
        rng.shuffle(deck)
        return {"hands": [deck[:HAND], deck[HAND:2 * HAND]], "stock": deck[2 * HAND:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        """Exactly the deck (twins counted): 7 in each hand, the rest in the draw pile."""
        hands, stock = deal["hands"], deal["stock"]
        if (
            not isinstance(hands, list) or len(hands) != 2
            or not all(isinstance(h, list) and all(isinstance(c, Card) for c in h) for h in hands)
        ):
            raise ValueError("deal: hands must be two lists of cards")
        if not isinstance(stock, list) or not all(isinstance(c, Card) for c in stock):
            raise ValueError("deal: stock must be a list of cards")
        every = Counter([*hands[0], *hands[1], *stock])
        locks = sorted({str(c) for c in every if KIND[c] == LOCK_CARD})
        if locks:
            raise ValueError(
                f"deal: {' '.join(locks)} {'is a lock' if len(locks) == 1 else 'are locks'} "
                "(the 5s and K♠ are kept apart from the deck, five to each player)"
            )
        deck = self.deck(state.options)
        want = Counter(deck)
        size = len(deck)
        extra = every - want
        if extra:
            described = " ".join(
                f"{c} ×{every[c]}" if want[c] else str(c) for c in sorted(extra, key=str)
            )
            raise ValueError(
                f"deal: not the {size}-card deck: too many {described} "
                f"(the deck holds {', '.join(f'{c} ×{want[c]}' for c in sorted(extra, key=str))})"
            )
        missing = want - every
        if missing:
            described = " ".join(f"{c} ×{n}" for c, n in sorted(missing.items(), key=lambda x: str(x[0])))
            raise ValueError(f"deal: not the {size}-card deck: missing {described}")
        if any(len(h) != HAND for h in hands):
            raise ValueError(f"deal: each hand must hold {HAND} cards, not {[len(h) for h in hands]}")

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """Rebuild the round from what the seat saw; deal the unseen cards at random.

        Every card played or discarded is face up, and the moves say who
        played it; the seat's own hand is known.  The opponent's hand and the
        draw pile's order are drawn from the unseen cards.  A deal that
        replays the moves exactly: each player receives the cards they played,
        in order, then their current hand.
        """
        options = dict(observation["options"])
        state = SilverBarsState(options, observation["first"], tuple(observation["names"]), None)
        restore_base(state, observation)
        seat = observation["seat"]
        moves = [Move.parse(m) for m in observation["moves"]]
        starter = state.round_starter(state.round_index)
        played: list[list[Card]] = [[], []]
        drawers: list[int] = []
        for number, move in enumerate(moves):
            mover = (starter + number) % 2
            if move.verb in ("play", "discard"):
                played[mover].append(move.args[0])  # type: ignore[arg-type]
                drawers.append(mover)
        own = [Card.parse(c) for c in observation["hand"]]
        unseen = Counter(silver_bars_deck(options))
        unseen.subtract([*played[0], *played[1], *own])
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        size = observation["hand_sizes"][1 - seat]
        hands: list[list[Card]] = [[], []]
        hands[seat] = own
        hands[1 - seat] = pool[:size]
        received = [played[s] + hands[s] for s in (0, 1)]
        stock: list[Card] = []
        taken = [HAND, HAND]
        for mover in drawers:
            stock.append(received[mover][taken[mover]])
            taken[mover] += 1
        stock.extend(pool[size:])
        deal = {"hands": [received[0][:HAND], received[1][:HAND]], "stock": stock}
        state.deal = deal
        state._start_round(deal)
        for move in moves:
            state.apply(move)
        return state


GAME = SilverBars()
SilverBarsState.game = GAME
