"""The fast path beside the rules: each vault's state as a small code, each
seat's vaults as bitmasks, and every move built once.

Each vault is in one of a few states, coded as a small int:
  ``EMPTY``; ``RUBBLED`` (covered, no cards); ``LOCKED``; ``BAR_TOP + v`` (a
  silver bar of value v on top); ``MINER_TOP + v`` (a miner on top, over a bar
  of value v).  A vault's cards always alternate bar, miner, bar, … from the
  bottom.

For speed each seat keeps two ints of 5-bit fields, one bit per vault (bit i
of a field is vault i + 1), answering the questions the legal moves ask:
  ``fill``: which vaults take a silver bar of each value, which have a bar on
  top — 30 bits, so the lookups made for most cards stay on small ints;
  ``feat``: rubble, empty vaults, a miner on top, the value of the top bar.
A vault's change of state adds and subtracts the precomputed bits of both
states.  The tests play the rulebook's cases through these tables, and hold
the bits kept move by move to those read afresh from the vaults' cards
(``play_targets``).

Every move that can be legal is built once, and the legal moves are lists of
those very objects, so the engine knows a move by its identity (``ACTIONS``:
what it does, which card and vault, which bit says whether it may be made).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.cards import ALL_CARDS, Card
from parlour.game import Move
from parlour.games.silver_bars.cards import (
    BAR,
    BAR_VALUE,
    BAR_VALUES,
    HI_THIEF,
    KIND,
    LO_THIEF,
    MINER,
    RUBBLE,
    SHOVEL,
    STRIKE,
    VAULTS,
)

# -- a vault's state -----------------------------------------------------------------

EMPTY, RUBBLED, LOCKED = 0, 1, 2
BAR_TOP = 3
MINER_TOP = 10
STATES = MINER_TOP + 7


def bar_fits(state: int, value: int) -> bool:
    """The silver-bar rule: a bar of ``value`` goes into a vault in ``state``
    (empty, or a miner on top over a lower bar)."""
    return state == EMPTY or (state >= MINER_TOP and value > state - MINER_TOP)


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


VAULT_STATES = (EMPTY, RUBBLED, LOCKED, *(BAR_TOP + v for v in BAR_VALUES), *(MINER_TOP + v for v in BAR_VALUES))
"""Every state a vault can be in (there is no bar of value 5)."""

# -- a seat's vaults as bits ------------------------------------------------------------

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


FILL = [_fill_bits(s) if s in VAULT_STATES else 0 for s in range(STATES)]
FEAT = [_feat_bits(s) if s in VAULT_STATES else 0 for s in range(STATES)]
"""Each vault state's ``fill`` and ``feat`` bits, as vault 1's."""
START_FILL = sum(FILL[EMPTY] << i for i in range(VAULTS))
START_FEAT = sum(FEAT[EMPTY] << i for i in range(VAULTS))
"""A seat's ``fill`` and ``feat`` at the start of a round: five empty vaults."""


def vaults_of(mask: int) -> list[int]:
    """The vaults (0–4) whose bits are set in a 5-bit ``mask``."""
    return [i for i in range(VAULTS) if mask >> i & 1]


# -- moves, built once ------------------------------------------------------------

RESOLVE = Move("resolve")
LOCK = [Move("lock", (i + 1,)) for i in range(VAULTS)]
DISCARD = [Move("discard", (c,)) for c in ALL_CARDS]
PLAY_ALONE = [Move("play", (c,)) for c in ALL_CARDS]
PLAY_AT = [[Move("play", (c, i + 1)) for i in range(VAULTS)] for c in ALL_CARDS]
"""``play <card> <vault>`` for every card and vault."""
THIEVES = [c for c in ALL_CARDS if KIND[c] in (LO_THIEF, HI_THIEF)]
"""The cards that are thieves (the lo thieves J, the hi thief, the joker)."""
STEAL = {c: [[Move("play", (c, i + 1, j + 1)) for j in range(VAULTS)] for i in range(VAULTS)] for c in THIEVES}
"""``play <thief> <their vault> <own vault>``: ``STEAL[thief][i][j]`` takes from their vault
``i + 1`` into the thief's vault ``j + 1`` (vaults counted from 0 here)."""

LOCK_MOVES = [[LOCK[i] for i in vaults_of(m)] for m in range(32)]
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
        plays = [PLAY_AT[card][i] for i in vaults_of(mask)]
    return [*plays, DISCARD[card]]


TARGETS: list[tuple[int, int, list[list[Move]]]] = [
    (*_where(c), [_card_moves(c, m) for m in range(32)]) for c in ALL_CARDS
]
"""For each card: where its targets are, at which bit offset, and its plays
onto each 5-bit mask of targets followed by its discard — built once."""

_FILL_SHIFT = tuple(5 * FILL_FIELD[v] for v in BAR_VALUES)
_THIEF_ROWS: dict[Card, list[list[Move] | None]] = {c: [None] * 1024 for c in THIEVES}


def thief_targets(card: Card, fill: int, theirs: int) -> int:
    """Where a thief can play, as ``source << 5 | destination`` (5-bit masks of vaults; 0:
    nowhere): the opponent's vaults with the lowest (or highest) bar on top, and the thief's
    own vaults that take a bar of that value.

    ``fill`` is the thief's, ``theirs`` the opponent's ``feat``: its top-value
    fields, one per bar value, hold the vaults with that bar on top, so the
    lowest (or highest) non-empty field is the bar the thief takes.
    """
    tops = theirs >> (5 * F_TOP_VALUE)
    if not tops:
        return 0
    if KIND[card] == LO_THIEF:
        field = ((tops & -tops).bit_length() - 1) // 5
    else:
        field = (tops.bit_length() - 1) // 5
    dst = (fill >> _FILL_SHIFT[field]) & 31
    if not dst:
        return 0
    return ((tops >> (5 * field)) & 31) << 5 | dst


def thief_row(card: Card, fill: int, theirs: int) -> list[Move]:
    """A thief's legal moves: every tied source × every vault of the thief's that takes the
    bar, then its discard (a list built once for each pair of masks: do not change it)."""
    rows = _THIEF_ROWS[card]
    key = thief_targets(card, fill, theirs)
    found = rows[key]
    if found is None:
        steal = STEAL[card]
        found = [steal[i][j] for i in vaults_of(key >> 5) for j in vaults_of(key & 31)]
        found.append(DISCARD[card])
        rows[key] = found
    return found


def thief_plays(card: Card, fill: int, theirs: int) -> list[Move]:
    """A thief's plays (see :func:`thief_targets`): every tied source × every vault of the
    thief's that takes the bar."""
    return thief_row(card, fill, theirs)[:-1]


# -- what each prebuilt move does ------------------------------------------------------

DISCARDS, PUTS_BAR, PUTS_MINER, DUMPS_RUBBLE, SHOVELS, STRIKES, STEALS, LOCKS_VAULT, RESOLVES = range(9)
"""What a move does: discard a card; put a silver bar or a miner into an own vault; dump
rubble on an empty vault of the opponent's; shovel rubble off an own vault; call a
worker's strike; steal a bar with a thief; lock a vault; resolve a pending strike."""


def _actions() -> dict[int, tuple[int, Card | None, int, int]]:
    actions: dict[int, tuple[int, Card | None, int, int]] = {id(RESOLVE): (RESOLVES, None, 0, 0)}
    for i, move in enumerate(LOCK):
        actions[id(move)] = (LOCKS_VAULT, None, i, 1 << (5 * F_TOP_BAR + i))
    for card in ALL_CARDS:
        kind = KIND[card]
        if kind not in (BAR, MINER, RUBBLE, SHOVEL, STRIKE, LO_THIEF, HI_THIEF):
            continue  # a lock is never in a hand
        actions[id(DISCARD[card])] = (DISCARDS, card, 0, 0)
        if kind == STRIKE:
            actions[id(PLAY_ALONE[card])] = (STRIKES, card, 0, 0)
        elif kind in (LO_THIEF, HI_THIEF):
            for i, row in enumerate(STEAL[card]):
                for j, move in enumerate(row):
                    actions[id(move)] = (STEALS, card, i, j)
        else:
            what = {BAR: PUTS_BAR, MINER: PUTS_MINER, RUBBLE: DUMPS_RUBBLE, SHOVEL: SHOVELS}[kind]
            offset = TARGETS[card][1]
            for i, move in enumerate(PLAY_AT[card]):
                actions[id(move)] = (what, card, i, 1 << (offset + i))
    return actions


ACTIONS = _actions()
"""What each prebuilt move that can be legal does, by the move's identity: ``(what, card,
i, bit)`` — ``what`` one of ``DISCARDS`` … ``RESOLVES``; the card played or discarded
(None for a lock or resolving); the vault (0–4: the mover's, or the opponent's for rubble
and a thief's source); and the bit of the tables that says whether that vault takes the
card (a bar or miner: the mover's ``fill``; rubble: the opponent's ``feat``; a shovel:
the mover's ``feat``; a lock: the mover's ``fill``), or for a thief the mover's vault
that takes the bar.  The legal moves are all prebuilt, so the engine knows each one by
a single lookup; any other move (parsed from text, built in code, or malformed) is
checked word by word first."""


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
        return thief_plays(card, fill, other)
    if source == NOT_PLAYED:
        return []
    aux = (feat & 31) | (other & (31 << 5)) | ALWAYS
    return table[((fill if source == FROM_FILL else aux) >> offset) & 31][:-1]
