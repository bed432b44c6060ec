"""100 Silver Bars' compiled, batched engine (issue 36): N matches in flat numpy arrays, one
action per match applied in one compiled call.

A second implementation of :mod:`parlour.games.silver_bars`, which stays the reference and the
home of every rule: each compiled function names the function of the rules engine it mirrors,
and ``tests/batch/test_silver_bars.py`` replays the batch's matches through the rules engine
(legal moves and scores at every step, observations, records).

* Cards are the positions of the space's card planes, 0–47 (``AC AD AH AS 2C … KH JK``:
  :attr:`parlour.envs.spaces.silver_bars.SilverBarsSpace.CARDS`); twins share a position.
* Actions are the space's table, read from it at import: each card's plays (``play C V``, the
  strike's ``play QS``, a thief's ``play C V W``), the discards, ``lock 1``–``lock 5``, ``resolve``.
* Each seat's vaults are kept as the rules engine keeps them (:mod:`parlour.games.silver_bars.tables`):
  a state code per vault, and two bitmasks per seat (``fill``, ``feat``) made of the tables'
  own ``FILL`` and ``FEAT`` bits, so the legal plays of a card are one shift and mask.
* Every rule option is a parameter of the compiled functions (one compilation serves them all):
  the deck (``mining_packs``, ``suits``, ``bar_ranks``, ``miner_ranks``, ``rubble``, ``shovels``,
  ``strikes``, ``lo_thieves``, ``hi_thieves``), ``hand_size``, ``target_score`` and
  ``max_rounds`` — but for ``max_rounds`` 0 (no limit), which a batch of fixed arrays refuses.
* Deals come from a counter-based stream: match ``k`` of slot ``i`` is dealt (and its first seat
  drawn) from a splitmix64 stream keyed by ``(seed, i, k)`` alone.  The rules engine's shuffles
  (Python's ``random``) are not reproduced: records carry their deals.
* Rewards: at the end of a match, each seat's total minus the other's, in raw points (what
  :mod:`parlour.envs.pettingzoo` pays with ``reward="match"`` and ``reward_scale=1``); 0 on every
  other step.  A finished match is replaced at once by the slot's next one; its record stays
  readable by :meth:`SilverBarsBatch.last_record` until the slot's next match ends.
* Speed: the functions of every decision run without numba's reference counting and are inlined
  into their callers (a call copies :class:`Tables`, 23 arrays), and the legal moves are written
  with few branches to mispredict; ``play_random`` plays about half as fast as the numba
  yardstick (``../shared/yardsticks/lc_numba.py``) on one core (a decision of random play offers
  about 14 legal moves, of seven kinds of card).

* The search's rollouts (issue 36): a rules-engine position loads into a slot
  (:meth:`SilverBarsBatch.load`), and :class:`SilverBarsRollouts` plays the advice's compiled
  twin (each function names the advice's function it mirrors) from each leaf of a batched
  search, re-dealt as ``parlour.batch.rollout`` re-deals it: the very numbers of its
  ``PythonLeafRollouts`` (``tests/batch/test_silver_rollout.py``).  The advice's ties go to the
  first of the legal moves, whose order follows the rules engine's set of the hand's cards, so
  the twin reads the hand in the order of CPython 3.11's set (:func:`_hand_in_set_order`).
* The lab's random bots (:mod:`parlour.batch.arena`): :func:`_legal_in_order` gives the legal
  actions in the very order of ``SilverBarsState.legal_moves`` (the walk the advice's twin takes
  too, :func:`_in_order`), the hands kept in the rules engine's order (:func:`_apply_in_order`),
  so :func:`_random_rounds` draws what ``rng.choice(state.legal_moves())`` draws
  (``tests/batch/test_silver_bars_order.py``).

numba is an optional extra (``parlour[fast]``): this module needs it, nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from parlour import games
from parlour.batch.arena import random_rounds
from parlour.batch.common import MATCH as _MATCH
from parlour.batch.common import Columns, CompiledRollouts, Kernels, TablesBatch, against_random
from parlour.batch.common import below as _below
from parlour.batch.common import compiled as _compiled
from parlour.batch.common import inlined as _inlined
from parlour.batch.common import lean as _lean
from parlour.batch.common import mix as _mix
from parlour.batch.common import slot_stream as _slot_stream
from parlour.bots.heuristic import silver_bars as advice
from parlour.cards import Card
from parlour.envs.spaces import space
from parlour.games import silver_bars as sb
from parlour.games.silver_bars import tables as tb

__all__ = ["SilverBarsBatch", "SilverBarsRollouts", "play_random"]

GAME_ID = "silver-bars"
_SPACE = space(GAME_ID)
_CARDS: tuple[Card, ...] = _SPACE.CARDS  # type: ignore[attr-defined]
CARDS = len(_CARDS)
"""Card positions (the space's card planes)."""
ACTIONS = _SPACE.num_actions
VAULTS = sb.VAULTS
HAND = sb.HAND
"""The most cards a hand holds (option ``hand_size`` is at most this)."""
HEIGHT = 2 * len(sb.BAR_VALUES)
"""The most cards a vault holds: its bars rise strictly, a miner between each two, and a miner may
go on the highest (a 6) though no bar can follow it."""
STATE_CODES = tb.STATES
EMPTY, RUBBLED, LOCKED, BAR_TOP, MINER_TOP = tb.EMPTY, tb.RUBBLED, tb.LOCKED, tb.BAR_TOP, tb.MINER_TOP
TOP_BAR_SHIFT = 5 * tb.F_TOP_BAR
"""Where ``fill`` holds the vaults with a silver bar on top (miners and locks go there)."""
TOP_VALUE_SHIFT = 5 * tb.F_TOP_VALUE
"""Where ``feat`` holds the vaults with a bar of each value on top (thieves take from there)."""
EMPTY_SHIFT = 5 * tb.F_EMPTY
ALWAYS = tb.ALWAYS

# -- the action table and the cards, from the space and the rules engine's tables --------------

_POS = {c: p for p, c in enumerate(_CARDS)}
_FILL = np.array(tb.FILL, np.int64)
_FEAT = np.array(tb.FEAT, np.int64)
_FILL_SHIFT = np.array([5 * tb.FILL_FIELD[v] for v in sb.BAR_VALUES], np.int64)
"""The ``fill`` field of each bar value's field index (1 2 3 4 6 → 0–4)."""
_COUNT = np.array([bin(m).count("1") for m in range(32)], np.int64)
"""The vaults in each 5-bit mask of vaults."""
_VAULT = np.array([[*tb.vaults_of(m), *[0] * (VAULTS - len(tb.vaults_of(m)))] for m in range(32)], np.int64)
"""The vaults of each 5-bit mask, lowest first (``tables.vaults_of``)."""
_STATE_INDEX = np.full(STATE_CODES, -1, np.int64)
for _k, _s in enumerate(sb.VAULT_STATES):
    _STATE_INDEX[_s] = _k
STATE_ONE_HOT = len(sb.VAULT_STATES)
_KIND = np.array([sb.KIND[c] for c in _CARDS], np.int64)
_VALUE = np.array([sb.BAR_VALUE[c] for c in _CARDS], np.int64)
_SOURCE = np.full(CARDS, tb.NOT_PLAYED, np.int64)
_OFFSET = np.zeros(CARDS, np.int64)
for _p, _c in enumerate(_CARDS):
    _SOURCE[_p], _OFFSET[_p] = tb.TARGETS[_c][:2]
STRIKE_CARD = next(p for p, c in enumerate(_CARDS) if sb.KIND[c] == sb.STRIKE)
"""The worker's strike's position (Q♠: the only strike card)."""

_WHAT = np.full(ACTIONS, -1, np.int64)
"""What each action does (``tables.DISCARDS`` … ``tables.RESOLVES``)."""
_CARD = np.full(ACTIONS, -1, np.int64)
_AT = np.zeros(ACTIONS, np.int64)
"""The vault an action names (0–4: the mover's, or the opponent's for rubble and a thief's source)."""
_INTO = np.zeros(ACTIONS, np.int64)
"""A thief's own vault (0–4)."""
_PLAYS = np.full(CARDS, -1, np.int64)
"""Each card's first play in the table (its plays follow: vault by vault, a thief's 25 source-major)."""
_DISCARDS = np.full(CARDS, -1, np.int64)
_LOCK0 = -1
_RESOLVE = -1
_PUTS = {sb.BAR: tb.PUTS_BAR, sb.MINER: tb.PUTS_MINER, sb.RUBBLE: tb.DUMPS_RUBBLE, sb.SHOVEL: tb.SHOVELS}
for _a, _move in enumerate(_SPACE.actions):
    _verb, _args = _move
    if _verb == "resolve":
        _WHAT[_a], _RESOLVE = tb.RESOLVES, _a
    elif _verb == "lock":
        _WHAT[_a], _AT[_a] = tb.LOCKS_VAULT, int(_args[0]) - 1
        _LOCK0 = _a if _args[0] == 1 else _LOCK0
    else:
        _p = _POS[cast(Card, _args[0])]
        _CARD[_a] = _p
        if _verb == "discard":
            _WHAT[_a], _DISCARDS[_p] = tb.DISCARDS, _a
            continue
        if _PLAYS[_p] < 0:
            _PLAYS[_p] = _a
        if len(_args) == 1:
            _WHAT[_a] = tb.STRIKES
        elif len(_args) == 2:
            _WHAT[_a], _AT[_a] = _PUTS[int(_KIND[_p])], int(_args[1]) - 1
        else:
            _WHAT[_a], _AT[_a], _INTO[_a] = tb.STEALS, int(_args[1]) - 1, int(_args[2]) - 1
        if len(_args) > 1 and _a != _PLAYS[_p] + _AT[_a] * (VAULTS if len(_args) == 3 else 1) + _INTO[_a]:
            raise RuntimeError("the space's action table is no longer in the order this engine reads it")
LOCK0 = _LOCK0
RESOLVE = _RESOLVE
if (_WHAT < 0).any() or [str(m) for m in _SPACE.actions[LOCK0:LOCK0 + VAULTS]] != [f"lock {i}" for i in range(1, 6)]:
    raise RuntimeError("the space's action table holds a move this engine does not know")
LO_THIEF, HI_THIEF = sb.LO_THIEF, sb.HI_THIEF
FROM_FILL, FROM_AUX, THIEF = tb.FROM_FILL, tb.FROM_AUX, tb.THIEF
DISCARDS, PUTS_BAR, PUTS_MINER, DUMPS_RUBBLE, SHOVELS, STRIKES, STEALS, LOCKS_VAULT, RESOLVES = (
    tb.DISCARDS, tb.PUTS_BAR, tb.PUTS_MINER, tb.DUMPS_RUBBLE, tb.SHOVELS, tb.STRIKES, tb.STEALS, tb.LOCKS_VAULT,
    tb.RESOLVES)

# Columns of Tables.info (one row a match).
TO_MOVE, ROUND, FIRST, STOCK_POS, AGAINST, LOG_LEN, FIXED = range(7)
"""Seat to move; round index; ``first``; draw pile position; the seat a pending strike is against
(−1: none); moves in the log; rounds whose deals were given (:meth:`SilverBarsBatch.set_match`)."""
TOTAL = 7
"""Match totals of seat 0 and 1 (finished rounds)."""
SCORE = 9
"""This round's points of seat 0 and 1: the bars of their locked vaults."""
LOCKED_VAULTS = 11
"""Vaults seat 0 and 1 have locked this round."""
INFO = 13

# Columns of Tables.last_info (the last finished match of a slot).
L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN, L_TOTAL = range(5)
LAST_INFO = 7

# Tables.params.
P_HAND, P_DECK, P_TARGET, P_ROUNDS = range(4)
PARAMS = 4





class Tables(NamedTuple):
    """The arrays of N matches (row ``g`` is match ``g``), handed whole to the compiled functions."""

    params: npt.NDArray[np.int64]
    """The options (columns ``P_*``)."""
    deck: npt.NDArray[np.int8]
    """The options' deck (:func:`parlour.games.silver_bars.silver_bars_deck`), card positions."""
    seed: npt.NDArray[np.uint64]
    """The stream's seed (one entry)."""
    rng: npt.NDArray[np.uint64]
    """Each match's stream position."""
    matches: npt.NDArray[np.int64]
    """Matches each slot has finished."""
    info: npt.NDArray[np.int32]
    """Each match's counters (columns ``TO_MOVE`` …)."""
    hands: npt.NDArray[np.int8]
    """``[g, seat, i]``: the hands' cards (``hand_size`` of them between turns)."""
    vstate: npt.NDArray[np.int8]
    """``[g, seat, vault]``: each vault's state code (``tables.vault_state``)."""
    bits: npt.NDArray[np.int64]
    """``[g, seat, 0 | 1]``: each seat's ``fill`` and ``feat`` (``SilverBarsState.fill``, ``.feat``)."""
    vcards: npt.NDArray[np.int8]
    """``[g, seat, vault, i]``: each vault's cards, bottom first."""
    vlen: npt.NDArray[np.int8]
    """``[g, seat, vault]``: cards in each vault."""
    rubble: npt.NDArray[np.int8]
    """``[g, seat, vault]``: the rubble on each vault (−1: none)."""
    bars: npt.NDArray[np.int32]
    """``[g, seat, vault]``: the silver bars in each vault (``SilverBarsState.bars``)."""
    discards: npt.NDArray[np.int8]
    """``[g, card]``: the discard pile's cards, counted (nobody draws from it, so its order is never asked)."""
    deals: npt.NDArray[np.int8]
    """``[g, round]``: each round's deal as the deck in order: hand 0, hand 1, the draw pile top first."""
    scores: npt.NDArray[np.int32]
    """``[g, round, seat]``: each finished round's scores."""
    starts: npt.NDArray[np.int32]
    """``[g, round]``: where each round's moves start in the log."""
    log: npt.NDArray[np.int16]
    """``[g]``: the match's actions in order."""
    last_info: npt.NDArray[np.int32]
    """The last finished match of each slot (columns ``L_*``)."""
    last_deals: npt.NDArray[np.int8]
    last_scores: npt.NDArray[np.int32]
    last_starts: npt.NDArray[np.int32]
    last_log: npt.NDArray[np.int16]


# -- the stream --------------------------------------------------------------------------------

# -- the deal ----------------------------------------------------------------------------------

@_lean
def _start_round(t: Tables, g: int) -> None:
    """Deal round ``info[g, ROUND]`` (shuffled from the stream, or as given by
    :meth:`SilverBarsBatch.set_match`) and lay it out.  Mirrors ``SilverBars.random_deal``,
    ``SilverBarsState.round_starter`` and ``SilverBarsState._start_round`` (seven cards, or
    ``hand_size``, to each player, the rest the draw pile; five empty vaults each)."""
    bars = t.bars
    bits = t.bits
    deals = t.deals
    deck = t.deck
    discards = t.discards
    hands = t.hands
    info = t.info
    params = t.params
    rng = t.rng
    rubble = t.rubble
    vlen = t.vlen
    vstate = t.vstate
    size = params[P_DECK]
    hand = params[P_HAND]
    r = info[g, ROUND]
    if r >= info[g, FIXED]:
        for i in range(size):
            deals[g, r, i] = deck[i]
        for i in range(size - 1, 0, -1):
            j = _below(rng, g, i + 1)
            card = deals[g, r, i]
            deals[g, r, i] = deals[g, r, j]
            deals[g, r, j] = card
    for i in range(hand):
        hands[g, 0, i] = deals[g, r, i]
        hands[g, 1, i] = deals[g, r, hand + i]
    for seat in range(2):
        for v in range(VAULTS):
            vstate[g, seat, v] = EMPTY
            vlen[g, seat, v] = 0
            rubble[g, seat, v] = -1
            bars[g, seat, v] = 0
        bits[g, seat, 0] = tb.START_FILL
        bits[g, seat, 1] = tb.START_FEAT
        info[g, SCORE + seat] = 0
        info[g, LOCKED_VAULTS + seat] = 0
    for p in range(CARDS):
        discards[g, p] = 0
    info[g, AGAINST] = -1
    info[g, STOCK_POS] = 2 * hand
    info[g, TO_MOVE] = info[g, FIRST] if r % 2 == 0 else 1 - info[g, FIRST]
    t.starts[g, r] = info[g, LOG_LEN]


@_lean
def _start_match(t: Tables, g: int, first: int) -> None:
    """Start slot ``g``'s next match: its stream keyed by (seed, g, matches finished), round 1's
    first seat from it (or ``first``, when given).  Mirrors ``Game.new_match``."""
    info = t.info
    rng = t.rng
    rng[g] = _slot_stream(t.seed[0], g, t.matches[g])
    if first < 0:
        first = _below(rng, g, 2)
    info[g, FIRST] = first
    info[g, ROUND] = 0
    info[g, LOG_LEN] = 0
    info[g, TOTAL] = 0
    info[g, TOTAL + 1] = 0
    _start_round(t, g)


@_compiled
def _reset(t: Tables) -> None:
    """Every slot from its first match of the stream."""
    for g in range(t.info.shape[0]):
        t.matches[g] = 0
        t.info[g, FIXED] = 0
        t.last_info[g, L_HAS] = 0
        _start_match(t, g, -1)


@_compiled
def _start_match_slot(t: Tables, g: int, first: int) -> None:
    """:func:`_start_match`, called from Python."""
    _start_match(t, g, first)


# -- the legal moves -------------------------------------------------------------------------------

@_inlined
def _legal_actions(t: Tables, g: int, out: npt.NDArray[np.int64]) -> int:
    """Match ``g``'s legal actions into ``out``; how many.  Mirrors ``SilverBarsState.legal_moves``
    (resolving a pending strike; or every lock, and each card's plays and its discard, each card
    once) and ``tables.thief_targets`` (the lowest or highest bar on top of the opponent's unlocked
    vaults, into the thief's vaults that take it)."""
    bits = t.bits
    hands = t.hands
    info = t.info
    seat = info[g, TO_MOVE]
    if info[g, AGAINST] == seat:
        out[0] = RESOLVE
        return 1
    fill = bits[g, seat, 0]
    theirs = bits[g, 1 - seat, 1]
    aux = (bits[g, seat, 1] & 31) | (theirs & (31 << EMPTY_SHIFT)) | ALWAYS
    # Each card's plays are written five at a time and counted by the mask's bits (the table
    # pads each mask's vaults), and a twin already seen is counted nothing: fewer branches to
    # mispredict, which is most of what a decision costs.  ``out`` has room past the count.
    mask = (fill >> TOP_BAR_SHIFT) & 31
    for q in range(VAULTS):
        out[q] = LOCK0 + _VAULT[mask, q]
    k = int(_COUNT[mask])
    seen = np.int64(0)
    for h in range(t.params[P_HAND]):
        p = hands[g, seat, h]
        fresh = 1 - ((seen >> np.int64(p)) & 1)
        seen |= np.int64(1) << np.int64(p)
        base = _PLAYS[p]
        source = _SOURCE[p]
        if source == THIEF:
            if not fresh:
                continue
            tops = theirs >> TOP_VALUE_SHIFT
            if tops:
                field = -1
                if _KIND[p] == LO_THIEF:
                    for f in range(5):
                        if (tops >> (5 * f)) & 31:
                            field = f
                            break
                else:
                    for f in range(4, -1, -1):
                        if (tops >> (5 * f)) & 31:
                            field = f
                            break
                into = (fill >> _FILL_SHIFT[field]) & 31
                if into:
                    sources = (tops >> (5 * field)) & 31
                    for q in range(_COUNT[sources]):
                        from_base = base + VAULTS * _VAULT[sources, q]
                        for r in range(_COUNT[into]):
                            out[k + r] = from_base + _VAULT[into, r]
                        k += _COUNT[into]
            out[k] = _DISCARDS[p]
            k += 1
            continue
        mask = ((aux if source == FROM_AUX else fill) >> _OFFSET[p]) & 31
        for q in range(VAULTS):
            out[k + q] = base + _VAULT[mask, q]
        k += _COUNT[mask] * fresh
        out[k] = _DISCARDS[p]
        k += fresh
    return k


# -- a turn ---------------------------------------------------------------------------------------

@_inlined
def _set_vault(t: Tables, g: int, seat: int, i: int, new: int) -> None:
    """Vault ``i`` of ``seat`` is now in state ``new``; its bits follow.  Mirrors
    ``SilverBarsState._set_vault``."""
    bits = t.bits
    vstate = t.vstate
    old = vstate[g, seat, i]
    vstate[g, seat, i] = new
    bits[g, seat, 0] += (_FILL[new] - _FILL[old]) << i
    bits[g, seat, 1] += (_FEAT[new] - _FEAT[old]) << i


@_inlined
def _apply(t: Tables, g: int, a: int) -> bool:
    """Make the legal action ``a`` in match ``g``; True when it ends the round.  Mirrors
    ``SilverBarsState.apply``: resolve a pending strike (no play, no draw); lock a vault (no draw;
    the fifth lock ends the round, ``_lock``); or play a card — a bar or a miner into an own vault,
    rubble (``_clear_or_bury``), a shovel, the strike (``_strike``), a thief (``_steal``) — or
    discard it, then draw the top of the draw pile, whose last card ends the round."""
    bars = t.bars
    deals = t.deals
    discards = t.discards
    hands = t.hands
    info = t.info
    log = t.log
    rubble = t.rubble
    vcards = t.vcards
    vlen = t.vlen
    vstate = t.vstate
    seat = info[g, TO_MOVE]
    other = 1 - seat
    moves = info[g, LOG_LEN]
    if moves < log.shape[1]:
        log[g, moves] = a
    info[g, LOG_LEN] = moves + 1
    info[g, TO_MOVE] = other
    what = _WHAT[a]
    i = _AT[a]
    if what == RESOLVES:  # the turn is spent: the strike card goes to the discard pile
        discards[g, STRIKE_CARD] += 1
        info[g, AGAINST] = -1
        return False
    if what == LOCKS_VAULT:  # _lock: the bars of a locked vault are as good as shipped
        _set_vault(t, g, seat, i, LOCKED)
        info[g, SCORE + seat] += bars[g, seat, i]
        locked = info[g, LOCKED_VAULTS + seat] + 1
        info[g, LOCKED_VAULTS + seat] = locked
        return bool(locked == VAULTS)
    p = _CARD[a]
    if what == DISCARDS:
        discards[g, p] += 1
    elif what == PUTS_BAR:
        value = _VALUE[p]
        vcards[g, seat, i, vlen[g, seat, i]] = p
        vlen[g, seat, i] += 1
        bars[g, seat, i] += value
        _set_vault(t, g, seat, i, BAR_TOP + value)
    elif what == PUTS_MINER:
        vcards[g, seat, i, vlen[g, seat, i]] = p
        vlen[g, seat, i] += 1
        _set_vault(t, g, seat, i, vstate[g, seat, i] + (MINER_TOP - BAR_TOP))
    elif what == DUMPS_RUBBLE:
        rubble[g, other, i] = p
        _set_vault(t, g, other, i, RUBBLED)
    elif what == SHOVELS:  # the rubble goes to the discard pile, the shovel on top of it
        discards[g, rubble[g, seat, i]] += 1
        discards[g, p] += 1
        rubble[g, seat, i] = -1
        _set_vault(t, g, seat, i, EMPTY)
    elif what == STRIKES:  # _strike: every miner on top of the opponent's unlocked vaults goes
        for v in range(VAULTS):
            state = vstate[g, other, v]
            if state >= MINER_TOP:
                n = vlen[g, other, v] - 1
                discards[g, vcards[g, other, v, n]] += 1
                vlen[g, other, v] = n
                _set_vault(t, g, other, v, BAR_TOP + state - MINER_TOP)
        info[g, AGAINST] = other
    else:  # _steal: the top bar of their vault i into the thief's vault _INTO[a]
        n = vlen[g, other, i] - 1
        bar = vcards[g, other, i, n]
        value = _VALUE[bar]
        vlen[g, other, i] = n
        bars[g, other, i] -= value
        _set_vault(t, g, other, i, EMPTY if n == 0 else MINER_TOP + _VALUE[vcards[g, other, i, n - 2]])
        j = _INTO[a]
        vcards[g, seat, j, vlen[g, seat, j]] = bar
        vlen[g, seat, j] += 1
        bars[g, seat, j] += value
        _set_vault(t, g, seat, j, BAR_TOP + value)
        discards[g, p] += 1
    # Every play and discard is followed by the draw; drawing the last card ends the round.
    pos = info[g, STOCK_POS]
    drawn = deals[g, info[g, ROUND], pos]
    at = -1
    for h in range(t.params[P_HAND] - 1, -1, -1):  # the first copy of the card, without a branch to mispredict
        at = h if hands[g, seat, h] == p else at
    hands[g, seat, at] = drawn
    info[g, STOCK_POS] = pos + 1
    return bool(pos + 1 == t.params[P_DECK])


# -- the round's end and the match ---------------------------------------------------------------

@_lean
def _keep_last(t: Tables, g: int) -> None:
    """Copy match ``g`` (just finished) to the ``last_*`` arrays, for :meth:`SilverBarsBatch.last_record`."""
    deals = t.deals
    info = t.info
    last_deals = t.last_deals
    last_info = t.last_info
    last_log = t.last_log
    last_scores = t.last_scores
    last_starts = t.last_starts
    log = t.log
    scores = t.scores
    starts = t.starts
    rounds = info[g, ROUND] + 1
    moves = min(info[g, LOG_LEN], log.shape[1])
    last_info[g, L_HAS] = 1
    last_info[g, L_FIRST] = info[g, FIRST]
    last_info[g, L_ROUNDS] = rounds
    last_info[g, L_LOG_LEN] = info[g, LOG_LEN]
    last_info[g, L_TOTAL] = info[g, TOTAL]
    last_info[g, L_TOTAL + 1] = info[g, TOTAL + 1]
    size = t.params[P_DECK]
    for r in range(rounds):
        last_starts[g, r] = starts[g, r]
        last_scores[g, r, 0] = scores[g, r, 0]
        last_scores[g, r, 1] = scores[g, r, 1]
        for i in range(size):
            last_deals[g, r, i] = deals[g, r, i]
    for i in range(moves):
        last_log[g, i] = log[g, i]


@_lean
def _end_round(t: Tables, g: int, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> bool:
    """Ship match ``g``'s round, which has just ended, and deal the next round, or end the match
    (paying its margin into ``rewards`` and starting the slot's next match); True when the match
    ended.  Mirrors ``SilverBarsState._end_round`` (each player ships the bars of their locked
    vaults, counted as each lock went on) and ``is_match_over`` (``max_rounds`` rounds, or a
    player at ``target_score`` with the totals different)."""
    info = t.info
    params = t.params
    r = info[g, ROUND]
    first = info[g, SCORE]
    second = info[g, SCORE + 1]
    t.scores[g, r, 0] = first
    t.scores[g, r, 1] = second
    total0 = info[g, TOTAL] + first
    total1 = info[g, TOTAL + 1] + second
    info[g, TOTAL] = total0
    info[g, TOTAL + 1] = total1
    if r + 1 >= params[P_ROUNDS] or (max(total0, total1) >= params[P_TARGET] and total0 != total1):
        rewards[g, 0] = total0 - total1
        rewards[g, 1] = total1 - total0
        done[g] = True
        _keep_last(t, g)
        t.matches[g] += 1
        info[g, FIXED] = 0
        _start_match(t, g, -1)
        return True
    info[g, ROUND] = r + 1
    _start_round(t, g)
    return False


# -- the batch's calls -------------------------------------------------------------------------

@_inlined
def _is_legal(t: Tables, g: int, a: int, legal: npt.NDArray[np.int64]) -> bool:
    """Is action ``a`` among match ``g``'s legal actions?"""
    for k in range(_legal_actions(t, g, legal)):
        if legal[k] == a:
            return True
    return False


@_lean
def _step(t: Tables, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32],
          done: npt.NDArray[np.bool_], legal: npt.NDArray[np.int64]) -> tuple[int, int]:
    """One action for every match (−1: leave that match as it is): (−1, the longest log) once all
    are made, or (the first match whose action is illegal, 0) with nothing made.  ``legal`` is
    scratch (the functions a decision calls allocate nothing, so they run without reference counting)."""
    info = t.info
    n = actions.shape[0]
    for g in range(n):
        if actions[g] != -1 and not _is_legal(t, g, actions[g], legal):
            return g, 0
    longest = 0
    for g in range(n):
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
        done[g] = False
        if actions[g] != -1 and _apply(t, g, actions[g]):
            _end_round(t, g, rewards, done)
        longest = max(longest, info[g, LOG_LEN])
    return -1, longest


@_lean
def _legal_mask(t: Tables, mask: npt.NDArray[np.bool_], out: npt.NDArray[np.int64]) -> None:
    """Every match's legal actions as a mask (``out`` is scratch).  Mirrors ``SilverBarsState.legal_moves``."""
    for g in range(mask.shape[0]):
        for a in range(ACTIONS):
            mask[g, a] = False
        for k in range(_legal_actions(t, g, out)):
            mask[g, out[k]] = True


@_lean
def _observe(t: Tables, seats: npt.NDArray[np.int64], at: npt.NDArray[np.int64],
             out: npt.NDArray[np.float32]) -> None:
    """Each match's observation for ``seats[g]`` into ``out`` (zeros), at the offsets ``at`` of
    the space's blocks (see ``SilverBarsBatch._BLOCKS``).  Mirrors ``GameSpace._encode_directly``
    and ``SilverBarsSpace._from_state`` of a round in play (a finished round is followed at once
    by the next one's deal, so the round-over and match-over flags stay 0); values are made in
    the same float64 arithmetic, then rounded to float32."""
    bars = t.bars
    deals = t.deals
    discards = t.discards
    hands = t.hands
    info = t.info
    params = t.params
    rubble = t.rubble
    vcards = t.vcards
    vlen = t.vlen
    vstate = t.vstate
    hand = params[P_HAND]
    size = params[P_DECK]
    for g in range(seats.shape[0]):
        seat = seats[g]
        other = 1 - seat
        out[g, at[0] + (info[g, TO_MOVE] ^ seat)] = 1.0
        r = info[g, ROUND]
        if r > 0:
            out[g, at[2]] = r / 10
            for k in range(2):
                out[g, at[4] + k] = info[g, TOTAL + (seat ^ k)] / 100
        for k in range(2):
            out[g, at[3] + k] = info[g, SCORE + (seat ^ k)] / 100
        for h in range(hand):
            out[g, at[5] + hands[g, seat, h]] += 1.0
            out[g, at[9] + hands[g, other, h]] += 1.0
        for i in range(info[g, STOCK_POS], size):
            out[g, at[9] + deals[g, r, i]] += 1.0
        for p in range(CARDS):
            out[g, at[8] + p] = discards[g, p]
        for k in range(2):
            s = seat ^ k
            for v in range(VAULTS):
                out[g, at[6] + (k * VAULTS + v) * STATE_ONE_HOT + _STATE_INDEX[vstate[g, s, v]]] = 1.0
                for i in range(vlen[g, s, v]):
                    out[g, at[7] + k * CARDS + vcards[g, s, v, i]] += 1.0
                if rubble[g, s, v] >= 0:
                    out[g, at[7] + k * CARDS + rubble[g, s, v]] += 1.0
                out[g, at[12] + k * VAULTS + v] = bars[g, s, v] / 20
                out[g, at[13] + k * VAULTS + v] = vlen[g, s, v] / 10
            out[g, at[14] + k] = (VAULTS - info[g, LOCKED_VAULTS + s]) / 5
        if info[g, AGAINST] >= 0:
            out[g, at[10] + (info[g, AGAINST] ^ seat)] = 1.0
        out[g, at[11] + (info[g, FIRST] ^ (r & 1) ^ seat ^ 1)] = 1.0
        out[g, at[15]] = (size - info[g, STOCK_POS]) / 100
        out[g, at[16]] = params[P_TARGET] / 100


@_lean
def _play_random(t: Tables, n: int, legal: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32],
                 done: npt.NDArray[np.bool_], chooser: npt.NDArray[np.uint64]) -> tuple[int, int]:
    """Play ``n`` matches in slot 0 with uniformly random legal actions: (decisions, the sum of
    both seats' final totals over the matches).  ``legal``, ``rewards``, ``done`` and ``chooser``
    are scratch arrays (this function allocates nothing, so it runs without reference counting)."""
    last_info = t.last_info
    chooser[0] = _mix(t.seed[0] ^ _MATCH)
    decisions = 0
    points = 0
    finished = 0
    t.matches[0] = 0
    t.info[0, FIXED] = 0
    _start_match(t, 0, -1)
    while finished < n:
        a = legal[_below(chooser, 0, _legal_actions(t, 0, legal))]
        decisions += 1
        if _apply(t, 0, a) and _end_round(t, 0, rewards, done):
            finished += 1
            points += last_info[0, L_TOTAL] + last_info[0, L_TOTAL + 1]
    return decisions, points


# -- the Python face -----------------------------------------------------------------------------

_TEXT = [str(c) for c in _CARDS]
"""Card position → notation."""


def _checked(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options as the rules engine checks them, and refused where this engine cannot play them."""
    values = games.get(GAME_ID).check_options(options)
    if values["max_rounds"] == 0:
        raise ValueError("the batched engine holds a bounded number of rounds a match: max_rounds must be "
                         "at least 1 (0, no limit, is for the rules engine)")
    return values


def _tables(n: int, seed: int, options: Mapping[str, Any], log: int) -> Tables:
    deck = sb.silver_bars_deck(options)
    rounds = options["max_rounds"]
    params = np.zeros(PARAMS, np.int64)
    params[P_HAND] = options["hand_size"]
    params[P_DECK] = len(deck)
    params[P_TARGET] = options["target_score"]
    params[P_ROUNDS] = rounds
    return Tables(
        params=params,
        deck=np.array([_POS[c] for c in deck], np.int8),
        seed=np.array([seed % (1 << 64)], np.uint64),
        rng=np.zeros(n, np.uint64),
        matches=np.zeros(n, np.int64),
        info=np.zeros((n, INFO), np.int32),
        hands=np.zeros((n, 2, HAND), np.int8),
        vstate=np.zeros((n, 2, VAULTS), np.int8),
        bits=np.zeros((n, 2, 2), np.int64),
        vcards=np.zeros((n, 2, VAULTS, HEIGHT), np.int8),
        vlen=np.zeros((n, 2, VAULTS), np.int8),
        rubble=np.zeros((n, 2, VAULTS), np.int8),
        bars=np.zeros((n, 2, VAULTS), np.int32),
        discards=np.zeros((n, CARDS), np.int8),
        deals=np.zeros((n, rounds, len(deck)), np.int8),
        scores=np.zeros((n, rounds, 2), np.int32),
        starts=np.zeros((n, rounds), np.int32),
        log=np.zeros((n, log), np.int16),
        last_info=np.zeros((n, LAST_INFO), np.int32),
        last_deals=np.zeros((n, rounds, len(deck)), np.int8),
        last_scores=np.zeros((n, rounds, 2), np.int32),
        last_starts=np.zeros((n, rounds), np.int32),
        last_log=np.zeros((n, log), np.int16),
    )


class SilverBarsBatch(TablesBatch):
    """``n`` matches of 100 Silver Bars played side by side, dealt from a seeded stream (the
    methods: :class:`parlour.batch.common.TablesBatch`)."""

    game_id = GAME_ID
    players = 2
    num_actions = ACTIONS
    texts = _TEXT
    columns = Columns(TO_MOVE, ROUND, FIRST, LOG_LEN, FIXED, L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN)
    _BLOCKS = ("to_move", "over", "round", "scores", "totals", "hand", "vault_states", "vault_cards", "discard_pile",
               "unseen", "strike", "dealer", "vault_bars", "vault_sizes", "locks_left", "stock_count", "target_score")

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return _checked(options)

    def deck(self) -> Sequence[Card]:
        return sb.silver_bars_deck(self.options)

    def position(self, card: Card) -> int:
        return _POS[card]

    @property
    def _scratch(self) -> tuple[Any, ...]:
        return (self._legal,)

    def scores(self) -> npt.NDArray[np.int64]:
        """``(n, 2)``: each match's points so far in the round in play, by seat (the bars of the
        locked vaults: ``state.scores``)."""
        points: npt.NDArray[np.int64] = self._t.info[:, SCORE:SCORE + 2].astype(np.int64)
        return points

    def load(self, i: int, state: sb.SilverBarsState) -> None:
        """Set match ``i`` to ``state``, a position of the rules engine in a round in play (issue
        36: a search rolls out its leaves here).  The slot then plays on from that position as the
        rules engine would: the same legal actions, observations and round scores.  Its match
        totals and first seat come from the state; its record and the rounds after this one are
        not the state's (the state's deal may be unknown, as in a sampled world), so a loaded slot
        is for playing the round out, not for records."""
        self._slot(i)
        if state.options != self.options:
            raise ValueError("the state's options are not the batch's")
        if state.is_round_over():
            raise ValueError("only a round in play can be loaded")
        t = self._t
        load_row(t, i, position_row(state, int(t.params[P_HAND]), int(t.params[P_DECK])))
        r = state.round_index
        t.starts[i, :r + 1] = 0
        for done, result in enumerate(state.history):
            t.scores[i, done] = result.scores


def play_random(n: int, seed: int, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Play ``n`` matches with uniformly random legal actions in one compiled call:
    (decisions made, the sum of both seats' final totals), for benchmarks."""
    checked = _checked(options)
    longest = checked["max_rounds"] * games.get(GAME_ID).bounds(checked).moves
    scratch = (np.empty(ACTIONS, np.int64), np.zeros((1, 2), np.float32), np.zeros(1, np.bool_),
               np.zeros(1, np.uint64))
    decisions, points = _play_random(_tables(1, seed, checked, longest), n, *scratch)
    return int(decisions), int(points)


# -- the learner against random opponents (parlour.batch.vector) ------------------------------------

@_lean
def _against_random(t: Tables, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                    chooser: npt.NDArray[np.uint64], scale: np.float32, rewards: npt.NDArray[np.float32],
                    done: npt.NDArray[np.bool_], paid: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_],
                    at: npt.NDArray[np.int64], obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                    legal: npt.NDArray[np.int64]) -> tuple[int, int]:
    """:func:`parlour.batch.common.against_random` with 100 Silver Bars' rules: :func:`_step`
    (``SilverBarsState.apply``), then :func:`_observe` and :func:`_legal_mask`."""
    return against_random(_legal_actions, _apply, _end_round, _observe, t, TO_MOVE, LOG_LEN, actions, seats,
                          chooser, scale, rewards, done, paid, ended, at, obs, mask, legal)




# -- a rules-engine position in a slot, and the search's heuristic rollouts (issue 36) ----------

ROW_HEAD = INFO
"""Where a :func:`position_row`'s cards begin: its first entries are ``info``'s columns (``FIXED``
and ``LOG_LEN`` 0)."""
_SEAT_VAULTS = 2 * VAULTS


def row_size(hand: int, deck: int) -> int:
    """The length of a :func:`position_row` for hands of ``hand`` cards and a deck of ``deck``."""
    return ROW_HEAD + 2 * hand + 4 * _SEAT_VAULTS + 4 + _SEAT_VAULTS * HEIGHT + CARDS + deck - 2 * hand


_POSITION = [-1] * 64
for _p, _c in enumerate(_CARDS):
    _POSITION[_c] = _p
_position_of = _POSITION.__getitem__
"""Each card's position (a list read by the card's code: quicker than :data:`_POS`, for
:func:`position_row`, which a search calls for every leaf)."""
_GAP = [[0] * n for n in range(HEIGHT + 1)]
"""Zeros after a vault's cards, by how many."""


def position_row(state: sb.SilverBarsState, hand: int, deck: int) -> list[int]:
    """A position of the rules engine as one row of numbers, for :func:`load_row`: ``info``'s
    columns, the hands (in the rules engine's order, which the advice's ties follow), the vaults'
    states, ``fill`` and ``feat``, sizes, rubble and bars, the vaults' cards, the discard pile
    counted by card and the draw pile (all of it, the cards drawn too)."""
    hands = state.hands
    if len(hands[0]) != hand or len(hands[1]) != hand or len(state.stock) != deck - 2 * hand:
        raise ValueError("a position of other hands or another deck")
    row = [0] * ROW_HEAD
    row[TO_MOVE] = state.to_move
    row[ROUND] = state.round_index
    row[FIRST] = state.first
    row[STOCK_POS] = 2 * hand + state.stock_pos
    row[AGAINST] = -1 if state.strike_against is None else state.strike_against
    row[TOTAL], row[TOTAL + 1] = state.totals
    row[SCORE], row[SCORE + 1] = state.scores
    row[LOCKED_VAULTS], row[LOCKED_VAULTS + 1] = state.locked
    row += map(_position_of, hands[0])
    row += map(_position_of, hands[1])
    row += state.vstate[0]
    row += state.vstate[1]
    row += (state.fill[0], state.feat[0], state.fill[1], state.feat[1])
    vaults = state.vaults
    row += map(len, vaults[0])
    row += map(len, vaults[1])
    for rubble in state.rubble:
        row += [-1 if c is None else _POSITION[c] for c in rubble]
    row += state.bars[0]
    row += state.bars[1]
    for seat in vaults:
        for vault in seat:
            row += map(_position_of, vault)
            row += _GAP[HEIGHT - len(vault)]
    discards = [0] * CARDS
    for p in map(_position_of, state.discard_pile):
        discards[p] += 1
    row += discards
    row += map(_position_of, state.stock)
    return row


def load_row(t: Tables, i: int, row: Sequence[int]) -> None:
    """:meth:`SilverBarsBatch.load` of a :func:`position_row`."""
    if len(row) != row_size(int(t.params[P_HAND]), int(t.params[P_DECK])):
        raise ValueError("a position row of other hands or another deck")
    if not 0 <= row[ROUND] < t.deals.shape[1]:
        raise ValueError(f"round {row[ROUND] + 1} of a batch of {t.deals.shape[1]} rounds a match")
    _load_rows(t, np.array([i], np.int64), np.array([row], np.int64))


@_compiled
def _load_rows(t: Tables, slots: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
    """Set each of ``slots`` to its row of ``rows`` (:func:`position_row`)."""
    for k in range(slots.shape[0]):
        _load(t, slots[k], rows[k])


@_inlined
def _load(t: Tables, g: int, row: npt.NDArray[np.int64]) -> None:
    """Set match ``g`` to a :func:`position_row`.  Mirrors ``SilverBarsState.copy`` (the fields
    the batch keeps: the discard pile counted, the draw pile in this round's deal)."""
    info = t.info
    hand = t.params[P_HAND]
    for c in range(ROW_HEAD):
        info[g, c] = row[c]
    info[g, FIXED] = 0
    info[g, LOG_LEN] = 0
    at = ROW_HEAD
    for seat in range(2):
        for k in range(hand):
            t.hands[g, seat, k] = row[at + seat * hand + k]
    at += 2 * hand
    for seat in range(2):
        for v in range(VAULTS):
            t.vstate[g, seat, v] = row[at + seat * VAULTS + v]
    at += _SEAT_VAULTS
    for seat in range(2):
        t.bits[g, seat, 0] = row[at + 2 * seat]
        t.bits[g, seat, 1] = row[at + 2 * seat + 1]
    at += 4
    for seat in range(2):
        for v in range(VAULTS):
            t.vlen[g, seat, v] = row[at + seat * VAULTS + v]
            t.rubble[g, seat, v] = row[at + _SEAT_VAULTS + seat * VAULTS + v]
            t.bars[g, seat, v] = row[at + 2 * _SEAT_VAULTS + seat * VAULTS + v]
    at += 3 * _SEAT_VAULTS
    for seat in range(2):
        for v in range(VAULTS):
            for k in range(HEIGHT):
                t.vcards[g, seat, v, k] = row[at + (seat * VAULTS + v) * HEIGHT + k]
    at += _SEAT_VAULTS * HEIGHT
    for p in range(CARDS):
        t.discards[g, p] = row[at + p]
    at += CARDS
    r = info[g, ROUND]
    for k in range(t.params[P_DECK] - 2 * hand):
        t.deals[g, r, 2 * hand + k] = row[at + k]


# The advice's tables and constants (parlour.bots.heuristic.silver_bars), read once.
_KEEP_BAR = np.array([advice.KEEP_BAR[c] for c in _CARDS], np.float64)
LOCK_AT = advice.LOCK_AT
OPEN_BELOW_SIX = advice._OPEN_BELOW_SIX
EMPTY_VAULTS = advice._EMPTY
RUBBLED_VAULTS = advice._RUBBLE
TOP_MINER_SHIFT = 5 * tb.F_TOP_MINER
OPEN_BAR_WORTH, OPEN_MINER_WORTH = advice.OPEN_VAULT_WORTH
LOCKS = sb.LOCKS
BAR, MINER, RUBBLE, SHOVEL, STRIKE = sb.BAR, sb.MINER, sb.RUBBLE, sb.SHOVEL, sb.STRIKE
_CODE = np.array([int(c) for c in _CARDS], np.int64)
"""Each card position's card code (its hash in a Python set)."""
_AT_CODE = np.full(64, -1, np.int64)
"""Each card code's position (64 entries: a slot's key masked to 6 bits is always an index)."""
for _p, _c in enumerate(_CODE):
    _AT_CODE[_c] = _p
SET_SLOTS = 32
"""A Python set of seven cards or fewer never holds more slots than this."""
LINEAR_PROBES = 9
"""CPython's sets look this many slots further before they jump (``setobject.c``)."""
if HAND > 7:
    raise RuntimeError("a hand of more than 7 cards outgrows the set twin's 32 slots")


@_inlined
def _set_insert(table: npt.NDArray[np.int64], taken: int, mask: int, key: int) -> int:
    """Put ``key`` into the open-addressed ``table`` of ``mask`` + 1 slots (bit ``k`` of ``taken``:
    slot ``k`` holds a key) unless it is there; the slots taken then.  Mirrors CPython 3.11's
    ``set_add_entry`` (and ``set_insert_clean``, the same walk without the equality test) for an
    int, whose hash is itself: the slot ``key & mask`` and the nine after it (where they fit),
    then a jump by the perturbed recurrence."""
    perturb = key
    i = key & mask
    while True:
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        e = i
        while True:
            if not (taken >> e) & 1:
                table[e] = key
                return taken | (1 << e)
            if table[e] == key:
                return taken
            if probes == 0:
                break
            probes -= 1
            e += 1
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@_inlined
def _hand_in_set_order(t: Tables, g: int, seat: int, table: npt.NDArray[np.int64],
                       out: npt.NDArray[np.int64]) -> int:
    """The different cards of ``seat``'s hand into ``out`` (card positions), in the order the
    rules engine's ``for card in {*self.hands[seat]}`` meets them (``SilverBarsState.legal_moves``);
    how many.  A card is an int whose hash is its code, so the order is that of CPython 3.11's
    set: eight slots, grown to four times the cards held once five are in (``set_table_resize``:
    the old slots re-inserted in order), read slot by slot.  (The slots are read without a
    branch: a slot's key is written at the end of ``out`` and kept only if the slot is taken.)"""
    mask = 7
    taken = 0
    fill = 0
    for h in range(t.params[P_HAND]):
        now = _set_insert(table, taken, mask, _CODE[t.hands[g, seat, h]])
        if now == taken:
            continue
        taken = now
        fill += 1
        if fill * 5 >= mask * 3:
            held = 0
            for k in range(mask + 1):
                out[held] = table[k]
                held += (taken >> k) & 1
            size = 8
            while size <= 4 * fill:
                size <<= 1
            mask = size - 1
            taken = 0
            for k in range(held):
                taken = _set_insert(table, taken, mask, out[k])
    n = 0
    for k in range(mask + 1):
        out[n] = _AT_CODE[table[k] & 63]
        n += (taken >> k) & 1
    return n


@_inlined
def _keep(kind: int, own: int, theirs: int) -> float:
    """What keeping a card of ``kind`` (not a silver bar) may be worth later, given ``own`` and
    ``theirs``, the two seats' ``feat``.  Mirrors ``heuristic.silver_bars.keeping``."""
    if kind == MINER:
        return 1.0 if own & OPEN_BELOW_SIX else 0.2
    if kind == RUBBLE:
        return 1.0 if theirs & EMPTY_VAULTS else 0.3
    if kind == SHOVEL:
        return 1.0 if own & RUBBLED_VAULTS else 0.2
    return 1.5


@_inlined
def _locked_bars(t: Tables, g: int, seat: int) -> int:
    """The silver bars in ``seat``'s locked vaults.  Mirrors ``heuristic.silver_bars.locked_bars``."""
    total = 0
    for v in range(VAULTS):
        if t.vstate[g, seat, v] == LOCKED:
            total += t.bars[g, seat, v]
    return total


SCRATCH = ACTIONS
"""What ``out`` of :func:`_legal_in_order` holds: the legal actions from its start, the set twin's
scratch (:func:`_hand_in_set_order`) at its end."""
MOST_LEGAL = VAULTS + HAND * (VAULTS * VAULTS + 1)
"""The most legal actions a decision offers (every lock, and seven thieves of 25 steals and a discard)."""
if MOST_LEGAL + VAULTS > SCRATCH - 2 * SET_SLOTS:
    raise RuntimeError("the legal actions and the set twin's scratch outgrow an action table's length")


@_inlined
def _in_order(t: Tables, g: int, out: npt.NDArray[np.int64], judge: bool) -> tuple[int, int]:
    """Match ``g``'s legal actions into ``out`` (``SCRATCH`` entries: its last ``2 * SET_SLOTS`` are
    the set twin's scratch) in the very order of the rules engine, and, when ``judge``, the first
    of those the advice judges best: (how many, the advised action or −1).  The one home of that
    order, for :func:`_legal_in_order` and :func:`_advised` (``judge`` is a constant in each,
    so the compiler keeps only the half it asks for).

    Mirrors ``SilverBarsState.legal_moves``: resolving a pending strike; or the locks
    (``LOCK_MOVES``: the vaults with a silver bar on top, lowest first), then each card of the
    hand's set ``{*hand}`` (:func:`_hand_in_set_order`; the hands are kept in the rules engine's
    order by :func:`_apply_in_order`) with its plays (``TARGETS``' tables: vault by vault; a
    thief's as ``tables.thief_row``: every tied source × every vault that takes the bar) and its
    discard.  And ``heuristic.silver_bars.rollout`` and ``best_move``: each move judged as the
    advice judges it, the first of the best kept."""
    info = t.info
    bits = t.bits
    vstate = t.vstate
    hands = t.hands
    seat = info[g, TO_MOVE]
    if info[g, AGAINST] == seat:
        out[0] = RESOLVE
        return 1, RESOLVE
    other = 1 - seat
    fill = bits[g, seat, 0]
    own = bits[g, seat, 1]
    theirs = bits[g, other, 1]
    aux = (own & 31) | (theirs & (31 << EMPTY_SHIFT)) | ALWAYS
    turns_left = 0.0
    locks_left = 0
    highest = 0
    if judge:
        turns_left = (t.params[P_DECK] - info[g, STOCK_POS]) / 2
        locks_left = LOCKS - info[g, LOCKED_VAULTS + seat]
        for h in range(t.params[P_HAND]):
            highest = max(highest, _VALUE[hands[g, seat, h]])
    best = -1
    best_value = -1e9
    k = 0
    mask = (fill >> TOP_BAR_SHIFT) & 31
    if mask:
        mine = 0
        their_locked = 0
        if judge:
            mine = _locked_bars(t, g, seat)
            their_locked = _locked_bars(t, g, other)
        for q in range(_COUNT[mask]):
            v = _VAULT[mask, q]
            if not judge:
                out[k] = LOCK0 + v
            k += 1
            if judge:
                bars = t.bars[g, seat, v]
                if locks_left == 1 and mine + bars > their_locked + 4:
                    value = 30.0 + bars  # lock out while ahead
                elif turns_left <= _COUNT[mask] + 1:
                    value = 20.0 + bars
                else:
                    value = bars - LOCK_AT + 0.5
                if value > best_value:
                    best, best_value = LOCK0 + v, value
    cards = out[SCRATCH - SET_SLOTS:]
    for c in range(_hand_in_set_order(t, g, seat, out[SCRATCH - 2 * SET_SLOTS:SCRATCH - SET_SLOTS], cards)):
        p = cards[c]
        kind = _KIND[p]
        base = _PLAYS[p]
        source = _SOURCE[p]
        if source == THIEF:
            tops = theirs >> TOP_VALUE_SHIFT
            if tops:
                field = -1
                if kind == LO_THIEF:
                    for f in range(5):
                        if (tops >> (5 * f)) & 31:
                            field = f
                            break
                else:
                    for f in range(4, -1, -1):
                        if (tops >> (5 * f)) & 31:
                            field = f
                            break
                into = (fill >> _FILL_SHIFT[field]) & 31
                if into:
                    sources = (tops >> (5 * field)) & 31
                    for q in range(_COUNT[sources]):
                        i = _VAULT[sources, q]
                        value = 1.5 * (vstate[g, other, i] - BAR_TOP) + 1.0 if judge else 0.0
                        for r in range(_COUNT[into]):
                            if not judge:
                                out[k] = base + VAULTS * i + _VAULT[into, r]
                            k += 1
                            if judge and value > best_value:
                                best, best_value = base + VAULTS * i + _VAULT[into, r], value
        else:
            targets = ((aux if source == FROM_AUX else fill) >> _OFFSET[p]) & 31
            for q in range(_COUNT[targets]):
                v = _VAULT[targets, q]
                if not judge:
                    out[k] = base + v
                k += 1
                if judge:
                    if kind == BAR:
                        bar = _VALUE[p]
                        if vstate[g, seat, v] <= RUBBLED:
                            value = 2.0 + (6 - bar) * 0.4
                        else:
                            value = 2.0 + bar
                    elif kind == MINER:
                        under = vstate[g, seat, v] - BAR_TOP  # a miner goes on a bar
                        if under < 6:
                            value = 2.5 if highest > under else 0.8
                        else:
                            value = -3.0
                    elif kind == RUBBLE:
                        value = 2.5
                    elif kind == SHOVEL:
                        value = 2.5 if highest else 0.5
                    elif kind == STRIKE:
                        value = 2.0 * _COUNT[(theirs >> TOP_MINER_SHIFT) & 31] + 1.5
                    else:
                        value = 0.0
                    if value > best_value:
                        best, best_value = base + v, value
        if not judge:
            out[k] = _DISCARDS[p]
        k += 1
        if judge:
            if kind == BAR:
                value = -_KEEP_BAR[p] - 0.5
            else:
                value = -_keep(kind, own, theirs) - 0.5
            if value > best_value:
                best, best_value = _DISCARDS[p], value
    return k, best


@_inlined
def _legal_in_order(t: Tables, g: int, out: npt.NDArray[np.int64]) -> int:
    """Match ``g``'s legal actions into ``out`` (``SCRATCH`` entries) in the order of
    ``SilverBarsState.legal_moves`` (:func:`_in_order`); how many."""
    n, _ = _in_order(t, g, out, False)
    return n


@_inlined
def _advised(t: Tables, g: int, legal: npt.NDArray[np.int64]) -> int:
    """The advised action in match ``g`` (``legal``: ``SCRATCH`` entries of scratch).  Mirrors
    ``heuristic.silver_bars.rollout`` and ``best_move``: the legal moves in the rules engine's
    order, each judged as the advice judges it, the first of the best kept (:func:`_in_order`)."""
    _, best = _in_order(t, g, legal, True)
    return best


@_inlined
def _evaluate(t: Tables, g: int, out: npt.NDArray[np.float64]) -> None:
    """Each seat's expected shipment, into ``out``.  Mirrors ``heuristic.silver_bars.evaluate``
    (locked bars in full, an unlocked vault's bars in part, by its top card)."""
    for seat in range(2):
        total = 0.0
        for v in range(VAULTS):
            code = t.vstate[g, seat, v]
            bars = t.bars[g, seat, v]
            if code == LOCKED:
                total += bars
            elif code >= BAR_TOP:
                total += bars * (OPEN_BAR_WORTH if code < MINER_TOP else OPEN_MINER_WORTH)
        out[seat] = total


@_inlined
def _apply_in_order(t: Tables, g: int, a: int) -> bool:
    """:func:`_apply`, the mover's hand kept in the rules engine's order (``SilverBarsState.apply``
    deletes the card played where it was and appends the card drawn; the order of the hand makes
    the order of its set, which the advice's ties follow)."""
    hands = t.hands
    seat = t.info[g, TO_MOVE]
    what = _WHAT[a]
    at = -1
    if what != LOCKS_VAULT and what != RESOLVES:
        p = _CARD[a]
        at = 0
        while hands[g, seat, at] != p:
            at += 1
    ends = _apply(t, g, a)
    if at >= 0:  # _apply put the card drawn where the card played was: it goes last
        last = t.params[P_HAND] - 1
        drawn = hands[g, seat, at]
        for h in range(at, last):
            hands[g, seat, h] = hands[g, seat, h + 1]
        hands[g, seat, last] = drawn
    return ends


@_inlined
def _play_out(t: Tables, g: int, depth: int, legal: npt.NDArray[np.int64], out: npt.NDArray[np.float64]) -> None:
    """Play match ``g`` on by the advice for ``depth`` actions (−1: to the round's end) and put
    each seat's round score into ``out``: the scores (the bars of the locked vaults), if the
    round ended, else the advice's evaluation.  Mirrors the rollout of
    ``parlour.batch.rollout.PythonLeafRollouts.run`` with ``Advice.rollout`` and ``evaluate``."""
    left = depth
    while left != 0:
        if _apply_in_order(t, g, _advised(t, g, legal)):
            out[0] = t.info[g, SCORE]
            out[1] = t.info[g, SCORE + 1]
            return
        left -= 1
    _evaluate(t, g, out)


@_compiled
def _rollouts(t: Tables, slots: npt.NDArray[np.int64], depth: int, out: npt.NDArray[np.float64]) -> None:
    """:func:`_play_out` of each of ``slots`` (each seat's round score into ``out[k]``)."""
    legal = np.zeros(SCRATCH, np.int64)
    for k in range(slots.shape[0]):
        _play_out(t, slots[k], depth, legal, out[k])


@_inlined
def _redeal(t: Tables, g: int, seat: int) -> None:
    """Deal the cards ``seat`` cannot see afresh in match ``g`` — the opponent's whole hand (in
    100 Silver Bars no card goes from the table into a hand), then the draw pile's cards still
    to be drawn — from the stream in ``rng[g]``.  Mirrors ``parlour.batch.rollout.redeal``
    (``hidden_places``: the same places in the same order; Fisher–Yates, the last place first)."""
    hands = t.hands
    deals = t.deals
    their = 1 - seat
    r = t.info[g, ROUND]
    hand = t.params[P_HAND]
    stock = t.info[g, STOCK_POS] - hand  # place k ≥ hand is deals[g, r, stock + k]
    places = hand + t.params[P_DECK] - t.info[g, STOCK_POS]
    for i in range(places - 1, 0, -1):
        j = _below(t.rng, g, i + 1)
        card_i = hands[g, their, i] if i < hand else deals[g, r, stock + i]
        card_j = hands[g, their, j] if j < hand else deals[g, r, stock + j]
        if i < hand:
            hands[g, their, i] = card_j
        else:
            deals[g, r, stock + i] = card_j
        if j < hand:
            hands[g, their, j] = card_i
        else:
            deals[g, r, stock + j] = card_i


@_compiled
def _leaf_rollouts(t: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
                   seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
    """Each row's (:func:`position_row`, leaf ``leaves[k]``) round scores averaged over ``count``
    rollouts, each on the position with the cards ``seat`` cannot see dealt afresh, into
    ``out[k]``.  Mirrors ``parlour.batch.rollout.PythonLeafRollouts.run``."""
    _roll_leaves(t, rows, leaves, seat, seed, count, depth, out, np.zeros(SCRATCH, np.int64), np.zeros(2, np.float64))


@_lean
def _roll_leaves(t: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
                 seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64],
                 legal: npt.NDArray[np.int64], scores: npt.NDArray[np.float64]) -> None:
    """:func:`_leaf_rollouts`, given its scratch arrays (allocating nothing, it runs without
    reference counting)."""
    for k in range(rows.shape[0]):
        total0 = 0.0
        total1 = 0.0
        for rollout in range(count):
            _load(t, 0, rows[k])
            t.rng[0] = _slot_stream(seed, leaves[k], rollout)  # rollout.redeal_key
            _redeal(t, 0, seat)
            _play_out(t, 0, depth, legal, scores)
            total0 += scores[0]
            total1 += scores[1]
        out[k, 0] = total0 / count
        out[k, 1] = total1 / count


class SilverBarsRollouts(CompiledRollouts):
    """The compiled rollout plug-in of the batched search (see :mod:`parlour.batch.rollout`): the
    same rollouts as ``PythonLeafRollouts`` with 100 Silver Bars' advice, in one compiled call.

    The cards a seat cannot see are the opponent's whole hand and the draw pile
    (``SilverBarsState.hidden_cards``: no card goes from the table into a hand)."""

    game_name, state_type, own_advice, players = "100 Silver Bars", sb.SilverBarsState, advice.ADVICE, 2

    def tables(self, states: Sequence[Any]) -> Tables:
        rounds = max(state.round_index for state in states) + 1
        t: Tables = super().tables(states)
        if t.deals.shape[1] < rounds:  # a match without max_rounds may outlast any table
            options = states[0].options
            t = self._tables[tuple(sorted(options.items()))] = self.make_tables(options, states)
        return t

    def make_tables(self, options: Mapping[str, Any], states: Sequence[Any]) -> Tables:
        rounds = max(state.round_index for state in states) + 1
        return _tables(1, 0, {**options, "max_rounds": max(rounds, options["max_rounds"])}, 1)

    def rows(self, tables: Tables, states: Sequence[Any]) -> npt.NDArray[np.int64]:
        hand, deck = int(tables.params[P_HAND]), int(tables.params[P_DECK])
        return np.array([position_row(state, hand, deck) for state in states], np.int64)

    def roll(self, tables: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
             seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
        _leaf_rollouts(tables, rows, leaves, seat, seed, count, depth, out)


# -- the lab's random bots (parlour.batch.arena) ----------------------------------------------------

@_lean
def _random_rounds(t: Tables, slots: npt.NDArray[np.int64], words: npt.NDArray[np.uint32],
                   positions: npt.NDArray[np.int64], log: npt.NDArray[np.int64], made: npt.NDArray[np.int64],
                   legal: npt.NDArray[np.int64]) -> int:
    """The lab's random bots on this engine (:func:`parlour.batch.arena.random_rounds`): the legal actions
    of :func:`_legal_in_order` (``SilverBarsState.legal_moves``'s order), the hands kept in the rules
    engine's order by :func:`_apply_in_order` (``SilverBarsState.apply``).  Lean (it allocates
    nothing): with numba's reference counting, a decision cost five times as much (about 1 µs
    against 0.2 µs), each array taken out of ``Tables`` counted."""
    played: int = random_rounds(_legal_in_order, _apply_in_order, t, TO_MOVE, slots, words, positions, 2,
                                log, made, legal)
    return played


@_compiled
def _legal_in_order_slot(t: Tables, g: int, out: npt.NDArray[np.int64]) -> int:
    """:func:`_legal_in_order`, called from Python (``out``: ``SCRATCH`` entries)."""
    n: int = _legal_in_order(t, g, out)
    return n


@_compiled
def _apply_in_order_slot(t: Tables, g: int, a: int) -> bool:
    """:func:`_apply_in_order`, called from Python."""
    ends: bool = _apply_in_order(t, g, a)
    return ends


SilverBarsBatch.kernels = Kernels(_tables, _reset, _legal_mask, _step, _observe, _start_match_slot, _against_random,
                                  _random_rounds)
SilverBarsBatch.plays_random_rounds = True
