"""Progression's compiled, batched engine (issue 36): N matches in flat numpy arrays, one action
per match applied in one compiled call.

A second implementation of :mod:`parlour.games.progression`, which stays the reference and the
home of every rule: each compiled function names the function of the rules engine it mirrors,
and ``tests/batch/test_progression.py`` replays the batch's matches through the rules engine
(legal moves at every step, scores, observations).

* Cards are the positions of the space's card planes, 0–51 (``AC AD AH AS 2C … KS``: the card
  code): rank ``(p >> 2) + 1``, suit ``p & 3``; A, J, Q, K are face cards, worth 0.
* Actions are the space's table (:class:`parlour.envs.spaces.progression.ProgressionSpace`):
  0–51 ``play``, 52–103 ``public``, 104 ``draw``, 105–108 ``take C`` … ``take S``.
* Every rule option is a parameter of the compiled functions (one compilation serves them
  all): ``hand_size``, ``suits``, ``numbers``, ``faces``, ``takeback``, ``stall_limit``,
  ``rounds`` and ``target_score``.
* Deals come from a counter-based stream: match ``k`` of slot ``i`` is dealt (and its first
  seat drawn) from a splitmix64 stream keyed by ``(seed, i, k)`` alone.
* Rewards: at the end of a match, each seat's total minus the mean of the other two seats'
  totals, in raw points (what :mod:`parlour.envs.pettingzoo` pays with ``reward="match"`` and
  ``reward_scale=1``); 0 on every other step.  A finished match is replaced at once by the
  slot's next one; its record stays readable by :meth:`ProgressionBatch.last_record` until
  the slot's next match ends.
* Speed: the functions of every decision are compiled without numba's reference counting
  (:func:`_lean`, as in :mod:`parlour.batch.minus_twenty`); ``play_random`` plays about as fast
  as the numba yardstick (``../shared/yardsticks/lc_numba.py``) on one core.

* The search's rollouts (issue 36): a rules-engine position loads into a slot
  (:meth:`ProgressionBatch.load`), and :class:`ProgressionRollouts` plays the advice's compiled
  twin (each function names the advice's function it mirrors) from each leaf of a batched
  search, re-dealt as ``parlour.batch.rollout`` re-deals it: the very numbers of its
  ``PythonLeafRollouts`` (``tests/batch/test_progression_rollout.py``).  The advice draws nothing
  from its ``rng``; its ties go to the first card of the hand, which the rules engine keeps in
  order (a card put down is deleted where it was, a card drawn goes last), so the rollouts keep
  the hands in that order (:func:`_apply_in_order`), not as :func:`_apply` does.

numba is an optional extra (``parlour[fast]``): this module needs it, nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

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
from parlour.bots.heuristic import progression as advice
from parlour.cards import ALL_CARDS, Card
from parlour.envs.spaces import space
from parlour.games import progression as pg

__all__ = ["ProgressionBatch", "ProgressionRollouts", "play_random"]

GAME_ID = "progression"
PLAYERS = pg.PLAYERS
CARDS = 52
"""Card positions (the space's card planes)."""
ACTIONS = 109
PLAY, PUBLIC, DRAW, TAKE = 0, 52, 104, 105
"""Where each kind of action starts in the action table."""
PILE_CAP = 13
"""The most cards of one suit: a public stack never holds more."""
THRESHOLD, FACE_PENALTY, ROUND_CAP = pg.THRESHOLD, pg.FACE_PENALTY, pg.ROUND_CAP
"""The rules engine's constants (read once: the compiled functions take them as constants)."""
STOCK_SCALE = 37
"""The space divides the draw pile's size by this (``ProgressionSpace._stock_scale``)."""

# Columns of Tables.info (one row a match).
TO_MOVE, DRAWING, PLAYED, STALL, STOCK_POS, ROUND, STARTER, FIRST, LOG_LEN, FIXED = range(10)
TOTAL = 10
"""Match totals of seats 0, 1 and 2 (finished rounds)."""
HAND_LEN = 13
"""Cards in the hands of seats 0, 1 and 2."""
PILE_LEN = 16
"""Cards on the public stacks C D H S."""
INFO = 20

# Columns of Tables.last_info (the last finished match of a slot).
L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN, L_TOTAL = range(5)
LAST_INFO = 8

# Tables.stacks[g, seat, suit]: a private stack in figures (PlayThenDraw.figures).
S_TOTAL, S_FACES, S_FLOOR = range(3)

# Tables.params.
P_HAND, P_DECK, P_STALL, P_TAKEBACK, P_ROUNDS, P_TARGET = range(6)
PARAMS = 6




class Tables(NamedTuple):
    """The arrays of N matches (row ``g`` is match ``g``), handed whole to the compiled functions."""

    params: npt.NDArray[np.int64]
    """The options (columns ``P_*``)."""
    deck: npt.NDArray[np.int8]
    """The options' pack, card positions (:func:`parlour.games.progression.progression_deck`)."""
    seed: npt.NDArray[np.uint64]
    """The stream's seed (one entry)."""
    rng: npt.NDArray[np.uint64]
    """Each match's stream position."""
    matches: npt.NDArray[np.int64]
    """Matches each slot has finished."""
    info: npt.NDArray[np.int32]
    """Each match's counters (columns ``TO_MOVE`` …)."""
    hands: npt.NDArray[np.int8]
    """``[g, seat, i]``: the hands' cards, the first ``info[g, HAND_LEN + seat]``."""
    stacks: npt.NDArray[np.int16]
    """``[g, seat, suit]``: each private stack in figures (``S_*``)."""
    private_bits: npt.NDArray[np.int64]
    """``[g, seat]``: every card on the seat's private stacks, bit ``p``."""
    on_pile: npt.NDArray[np.int64]
    """``[g]``: the cards that have lain on a public stack this round (``was_on_pile``)."""
    piles: npt.NDArray[np.int8]
    """``[g, suit, i]``: the public stacks, bottom card first."""
    deals: npt.NDArray[np.int8]
    """``[g, round]``: each round's deal as the pack in order: hands 0, 1, 2, the draw pile top first."""
    scores: npt.NDArray[np.int32]
    """``[g, round, seat]``: each finished round's scores."""
    starts: npt.NDArray[np.int32]
    """``[g, round]``: where each round's moves start in the log."""
    log: npt.NDArray[np.int8]
    """``[g]``: the match's actions in order."""
    last_info: npt.NDArray[np.int32]
    """The last finished match of each slot (columns ``L_*``)."""
    last_deals: npt.NDArray[np.int8]
    last_scores: npt.NDArray[np.int32]
    last_starts: npt.NDArray[np.int32]
    last_log: npt.NDArray[np.int8]


# -- the stream --------------------------------------------------------------------------------

# -- the deal ----------------------------------------------------------------------------------

@_lean
def _start_round(t: Tables, g: int) -> None:
    """Deal round ``info[g, ROUND]`` (shuffled from the stream, or as given by
    :meth:`ProgressionBatch.set_match`) and lay it out.  Mirrors ``Progression.random_deal``,
    ``ProgressionState._start_round``, ``round_starter`` and ``PlayThenDraw._start_turns``."""
    deals = t.deals
    deck = t.deck
    hands = t.hands
    info = t.info
    private_bits = t.private_bits
    stacks = t.stacks
    on_pile = t.on_pile
    params = t.params
    rng = t.rng
    starts = t.starts
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
    for seat in range(PLAYERS):
        for i in range(hand):
            hands[g, seat, i] = deals[g, r, seat * hand + i]
        info[g, HAND_LEN + seat] = hand
        private_bits[g, seat] = 0
        for suit in range(4):
            for k in range(3):
                stacks[g, seat, suit, k] = 0
    for suit in range(4):
        info[g, PILE_LEN + suit] = 0
    on_pile[g] = 0
    starter = (info[g, FIRST] + r) % PLAYERS
    info[g, TO_MOVE] = starter
    info[g, STARTER] = starter
    info[g, DRAWING] = 0
    info[g, PLAYED] = -1
    info[g, STALL] = 0
    info[g, STOCK_POS] = 0
    starts[g, r] = info[g, LOG_LEN]


@_lean
def _start_match(t: Tables, g: int, first: int) -> None:
    """Start slot ``g``'s next match: its stream keyed by (seed, g, matches finished), round 1's
    first seat from it (or ``first``, when given).  Mirrors ``Game.new_match``."""
    info = t.info
    matches = t.matches
    rng = t.rng
    seed = t.seed
    rng[g] = _slot_stream(seed[0], g, matches[g])
    if first < 0:
        first = _below(rng, g, PLAYERS)
    info[g, FIRST] = first
    info[g, ROUND] = 0
    info[g, LOG_LEN] = 0
    for seat in range(PLAYERS):
        info[g, TOTAL + seat] = 0
    _start_round(t, g)


@_compiled
def _reset(t: Tables) -> None:
    """Every slot from its first match of the stream."""
    info = t.info
    last_info = t.last_info
    matches = t.matches
    for g in range(info.shape[0]):
        matches[g] = 0
        info[g, FIXED] = 0
        last_info[g, L_HAS] = 0
        _start_match(t, g, -1)


# -- the rules of a turn -----------------------------------------------------------------------

@_lean
def _value(p: int) -> int:
    """Card ``p``'s value: 0 for a face card (A, J, Q, K), else its pips.  Mirrors ``progression.VALUE``."""
    rank = (p >> 2) + 1
    return 0 if rank == 1 or rank > 10 else rank


@_lean
def _in_hand(t: Tables, g: int, seat: int, p: int) -> bool:
    """Does ``seat`` hold card ``p`` in match ``g``?"""
    hands = t.hands
    info = t.info
    for i in range(info[g, HAND_LEN + seat]):
        if hands[g, seat, i] == p:
            return True
    return False


@_lean
def _may_take(t: Tables, g: int, suit: int) -> bool:
    """May the player to move take the top card of the public stack of ``suit``?  Not from an
    empty one, nor (without ``takeback``) from the one played to this turn."""
    info = t.info
    return bool(info[g, PILE_LEN + suit] > 0 and (t.params[P_TAKEBACK] != 0 or suit != info[g, PLAYED]))


@_lean
def _is_legal(t: Tables, g: int, a: int) -> bool:
    """Is action ``a`` legal in match ``g``?  Mirrors ``PlayThenDraw.legal_moves`` (and the
    refusals of ``PlayThenDraw.apply``; ``ProgressionState.fits``)."""
    info = t.info
    stacks = t.stacks
    seat = info[g, TO_MOVE]
    if info[g, DRAWING] == 0:
        if a < PLAY or a >= DRAW:
            return False
        p = a % CARDS
        if not _in_hand(t, g, seat, p):
            return False
        return a >= PUBLIC or _value(p) >= stacks[g, seat, p & 3, S_FLOOR]
    if a == DRAW:
        return True
    if a < TAKE or a >= ACTIONS:
        return False
    return _may_take(t, g, a - TAKE)


@_lean
def _legal_actions(t: Tables, g: int, out: npt.NDArray[np.int64]) -> int:
    """Match ``g``'s legal actions into ``out``; how many.  Mirrors ``PlayThenDraw.legal_moves``
    (``ProgressionState.fits``: a card goes on its private stack if its value is not below the
    stack's floor)."""
    hands = t.hands
    info = t.info
    stacks = t.stacks
    seat = info[g, TO_MOVE]
    k = 0
    if info[g, DRAWING] == 0:
        for i in range(info[g, HAND_LEN + seat]):
            p = int(hands[g, seat, i])
            if _value(p) >= stacks[g, seat, p & 3, S_FLOOR]:
                out[k] = PLAY + p
                k += 1
            out[k] = PUBLIC + p
            k += 1
        return k
    out[0] = DRAW
    k = 1
    for suit in range(4):
        if _may_take(t, g, suit):
            out[k] = TAKE + suit
            k += 1
    return k


@_lean
def _apply(t: Tables, g: int, a: int) -> bool:
    """Make the legal action ``a`` in match ``g``; True when it ends the round.  Mirrors
    ``PlayThenDraw.apply`` (step 1: ``play`` onto a private stack or ``public``; step 2:
    ``draw`` or ``take``, the round ending on the draw pile's last card or by the stall rule)."""
    deals = t.deals
    hands = t.hands
    info = t.info
    log = t.log
    private_bits = t.private_bits
    stacks = t.stacks
    on_pile = t.on_pile
    params = t.params
    piles = t.piles
    seat = info[g, TO_MOVE]
    moves = info[g, LOG_LEN]
    if moves < log.shape[1]:
        log[g, moves] = a
    info[g, LOG_LEN] = moves + 1
    if info[g, DRAWING] == 0:
        p = a % CARDS
        last = info[g, HAND_LEN + seat] - 1
        for i in range(last + 1):
            if hands[g, seat, i] == p:
                hands[g, seat, i] = hands[g, seat, last]
                break
        info[g, HAND_LEN + seat] = last
        suit = p & 3
        bit = np.int64(1) << np.int64(p)
        if a < PUBLIC:  # onto the private stack: PlayThenDraw.figures
            value = _value(p)
            stacks[g, seat, suit, S_TOTAL] += value
            if value == 0:
                stacks[g, seat, suit, S_FACES] += 1
            stacks[g, seat, suit, S_FLOOR] = value
            private_bits[g, seat] |= bit
        else:  # onto its public stack
            height = info[g, PILE_LEN + suit]
            piles[g, suit, height] = p
            info[g, PILE_LEN + suit] = height + 1
            info[g, PLAYED] = suit
            on_pile[g] |= bit
        info[g, DRAWING] = 1
        return False
    hand = params[P_HAND]
    if a == DRAW:
        pos = info[g, STOCK_POS]
        card = deals[g, info[g, ROUND], PLAYERS * hand + pos]
        info[g, STOCK_POS] = pos + 1
        info[g, STALL] = 0
        ends = pos + 1 == params[P_DECK] - PLAYERS * hand
    else:
        suit = a - TAKE
        height = info[g, PILE_LEN + suit] - 1
        card = piles[g, suit, height]
        info[g, PILE_LEN + suit] = height
        stall = info[g, STALL] + 1
        info[g, STALL] = stall
        ends = stall == params[P_STALL]
    size = info[g, HAND_LEN + seat]
    hands[g, seat, size] = card
    info[g, HAND_LEN + seat] = size + 1
    info[g, DRAWING] = 0
    info[g, PLAYED] = -1
    info[g, TO_MOVE] = (seat + 1) % PLAYERS
    return bool(ends)


# -- the round's end and the match ---------------------------------------------------------------

@_lean
def _score_of(total: int, faces: int) -> int:
    """A private stack's score in figures.  Mirrors ``progression.score_of``."""
    if total == 0:
        return -FACE_PENALTY * (faces + 1) if faces else 0
    if total <= THRESHOLD:
        return 0
    return (total - THRESHOLD) * (faces + 1)


@_lean
def _seat_score(stacks: npt.NDArray[np.int16], g: int, seat: int) -> int:
    """A seat's round score: its private stacks' scores added up.  Mirrors ``ProgressionState._end_round``."""
    points = 0
    for suit in range(4):
        points += _score_of(stacks[g, seat, suit, S_TOTAL], stacks[g, seat, suit, S_FACES])
    return points


@_lean
def _keep_last(t: Tables, g: int) -> None:
    """Copy match ``g`` (just finished) to the ``last_*`` arrays, for :meth:`ProgressionBatch.last_record`."""
    deals = t.deals
    info = t.info
    last_deals = t.last_deals
    last_info = t.last_info
    last_log = t.last_log
    last_scores = t.last_scores
    last_starts = t.last_starts
    log = t.log
    params = t.params
    scores = t.scores
    starts = t.starts
    rounds = info[g, ROUND] + 1
    moves = min(info[g, LOG_LEN], log.shape[1])
    last_info[g, L_HAS] = 1
    last_info[g, L_FIRST] = info[g, FIRST]
    last_info[g, L_ROUNDS] = rounds
    last_info[g, L_LOG_LEN] = info[g, LOG_LEN]
    for seat in range(PLAYERS):
        last_info[g, L_TOTAL + seat] = info[g, TOTAL + seat]
    size = params[P_DECK]
    for r in range(rounds):
        last_starts[g, r] = starts[g, r]
        for seat in range(PLAYERS):
            last_scores[g, r, seat] = scores[g, r, seat]
        for i in range(size):
            last_deals[g, r, i] = deals[g, r, i]
    for i in range(moves):
        last_log[g, i] = log[g, i]


@_lean
def _end_round(t: Tables, g: int, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> bool:
    """Score match ``g``'s round, which has just ended, and deal the next round, or end the match
    (paying each seat its total minus the mean of the others' into ``rewards`` and starting the
    slot's next match); True when the match ended.  Mirrors ``ProgressionState._end_round`` and
    ``is_match_over``."""
    info = t.info
    matches = t.matches
    stacks = t.stacks
    params = t.params
    scores = t.scores
    r = info[g, ROUND]
    best = -(1 << 30)
    whole = 0
    for seat in range(PLAYERS):
        points = _seat_score(stacks, g, seat)
        scores[g, r, seat] = points
        total = info[g, TOTAL + seat] + points
        info[g, TOTAL + seat] = total
        best = max(best, total)
        whole += total
    played = r + 1
    if params[P_TARGET] > 0:
        over = played >= ROUND_CAP or best >= params[P_TARGET]
    else:
        over = played >= params[P_ROUNDS]
    if over:
        for seat in range(PLAYERS):
            mine = info[g, TOTAL + seat]
            rewards[g, seat] = mine - (whole - mine) / (PLAYERS - 1)
        done[g] = True
        _keep_last(t, g)
        matches[g] += 1
        info[g, FIXED] = 0
        _start_match(t, g, -1)
        return True
    info[g, ROUND] = played
    _start_round(t, g)
    return False


# -- the batch's calls -------------------------------------------------------------------------

@_compiled
def _step(t: Tables, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32],
          done: npt.NDArray[np.bool_]) -> tuple[int, int]:
    """One action for every match (−1: leave that match as it is): (−1, the longest log) once all
    are made, or (the first match whose action is illegal, 0) with nothing made."""
    info = t.info
    n = actions.shape[0]
    for g in range(n):
        if actions[g] != -1 and not _is_legal(t, g, actions[g]):
            return g, 0
    longest = 0
    for g in range(n):
        for seat in range(PLAYERS):
            rewards[g, seat] = 0.0
        done[g] = False
        longest = max(longest, info[g, LOG_LEN])
        if actions[g] == -1:
            continue
        if _apply(t, g, actions[g]):
            _end_round(t, g, rewards, done)
        longest = max(longest, info[g, LOG_LEN])
    return -1, longest


@_compiled
def _legal_mask(t: Tables, mask: npt.NDArray[np.bool_]) -> None:
    """Every match's legal actions as a mask.  Mirrors ``PlayThenDraw.legal_moves``."""
    out = np.empty(ACTIONS, np.int64)
    for g in range(mask.shape[0]):
        for a in range(ACTIONS):
            mask[g, a] = False
        for k in range(_legal_actions(t, g, out)):
            mask[g, out[k]] = True


@_compiled
def _observe(t: Tables, seats: npt.NDArray[np.int64], at: npt.NDArray[np.int64],
             out: npt.NDArray[np.float32]) -> None:
    """Each match's observation for ``seats[g]`` into ``out`` (zeros), at the offsets ``at`` of
    the space's blocks (see ``ProgressionBatch._BLOCKS``).  Mirrors ``GameSpace._encode_directly``
    and ``TurnSpace._from_state`` of a round in play (its scores are all 0 until it ends)."""
    hands = t.hands
    info = t.info
    private_bits = t.private_bits
    on_pile = t.on_pile
    params = t.params
    piles = t.piles
    for g in range(seats.shape[0]):
        seat = seats[g]
        out[g, at[0] + (info[g, TO_MOVE] - seat + PLAYERS) % PLAYERS] = 1.0
        r = info[g, ROUND]
        if r > 0:
            out[g, at[2]] = r / 10
            for k in range(PLAYERS):
                out[g, at[4] + k] = info[g, TOTAL + (seat + k) % PLAYERS] / 100.0
        out[g, at[5] + info[g, DRAWING]] = 1.0
        for i in range(info[g, HAND_LEN + seat]):
            out[g, at[6] + hands[g, seat, i]] = 1.0
        seen = on_pile[g]
        for k in range(PLAYERS):
            other = (seat + k) % PLAYERS
            for i in range(info[g, HAND_LEN + other]):
                p = hands[g, other, i]
                if (seen >> np.int64(p)) & 1:
                    out[g, at[7] + CARDS * k + p] = 1.0
            bits = private_bits[g, other]
            for p in range(CARDS):
                if (bits >> np.int64(p)) & 1:
                    out[g, at[8] + CARDS * k + p] = 1.0
            out[g, at[13] + k] = info[g, HAND_LEN + other] / 10
        for suit in range(4):
            height = info[g, PILE_LEN + suit]
            for i in range(height):
                out[g, at[9] + piles[g, suit, i]] = 1.0
            if height > 0:
                out[g, at[10] + piles[g, suit, height - 1]] = 1.0
        if info[g, PLAYED] >= 0:
            out[g, at[11] + info[g, PLAYED]] = 1.0
        out[g, at[12] + (info[g, STARTER] - seat + PLAYERS) % PLAYERS] = 1.0
        out[g, at[14]] = (params[P_DECK] - PLAYERS * params[P_HAND] - info[g, STOCK_POS]) / STOCK_SCALE
        if info[g, STALL] > 0:
            out[g, at[15]] = info[g, STALL] / 60


@_compiled
def _play_random(t: Tables, n: int) -> tuple[int, int]:
    """Play ``n`` matches in slot 0 with uniformly random legal actions: (decisions, the sum of
    the three seats' final totals over the matches)."""
    last_info = t.last_info
    matches = t.matches
    seed = t.seed
    legal = np.empty(ACTIONS, np.int64)
    rewards = np.zeros((1, PLAYERS), np.float32)
    done = np.zeros(1, np.bool_)
    chooser = np.zeros(1, np.uint64)
    chooser[0] = _mix(seed[0] ^ _MATCH)
    decisions = 0
    points = 0
    finished = 0
    matches[0] = 0
    t.info[0, FIXED] = 0
    _start_match(t, 0, -1)
    while finished < n:
        a = legal[_below(chooser, 0, _legal_actions(t, 0, legal))]
        decisions += 1
        if _apply(t, 0, a) and _end_round(t, 0, rewards, done):
            finished += 1
            for seat in range(PLAYERS):
                points += last_info[0, L_TOTAL + seat]
    return decisions, points


# -- the Python face -----------------------------------------------------------------------------

_TEXT = [str(ALL_CARDS[p]) for p in range(CARDS)]
"""Card position → notation."""


def _tables(n: int, seed: int, options: Mapping[str, Any], log: int) -> Tables:
    deck = pg.progression_deck(options)
    rounds = options["rounds"] if options["target_score"] is None else ROUND_CAP
    params = np.zeros(PARAMS, np.int64)
    params[P_HAND] = options["hand_size"]
    params[P_DECK] = len(deck)
    params[P_STALL] = options["stall_limit"]
    params[P_TAKEBACK] = 1 if options["takeback"] else 0
    params[P_ROUNDS] = options["rounds"]
    params[P_TARGET] = options["target_score"] or 0
    hand = options["hand_size"]
    return Tables(
        params=params,
        deck=np.array([int(c) for c in deck], np.int8),
        seed=np.array([seed % (1 << 64)], np.uint64),
        rng=np.zeros(n, np.uint64),
        matches=np.zeros(n, np.int64),
        info=np.zeros((n, INFO), np.int32),
        hands=np.zeros((n, PLAYERS, hand), np.int8),
        stacks=np.zeros((n, PLAYERS, 4, 3), np.int16),
        private_bits=np.zeros((n, PLAYERS), np.int64),
        on_pile=np.zeros(n, np.int64),
        piles=np.zeros((n, 4, PILE_CAP), np.int8),
        deals=np.zeros((n, rounds, CARDS), np.int8),
        scores=np.zeros((n, rounds, PLAYERS), np.int32),
        starts=np.zeros((n, rounds), np.int32),
        log=np.zeros((n, log), np.int8),
        last_info=np.zeros((n, LAST_INFO), np.int32),
        last_deals=np.zeros((n, rounds, CARDS), np.int8),
        last_scores=np.zeros((n, rounds, PLAYERS), np.int32),
        last_starts=np.zeros((n, rounds), np.int32),
        last_log=np.zeros((n, log), np.int8),
    )


class ProgressionBatch(TablesBatch):
    """``n`` matches of Progression played side by side, dealt from a seeded stream (the methods:
    :class:`parlour.batch.common.TablesBatch`)."""

    game_id = GAME_ID
    players = PLAYERS
    num_actions = ACTIONS
    texts = _TEXT
    columns = Columns(TO_MOVE, ROUND, FIRST, LOG_LEN, FIXED, L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN)
    _BLOCKS = ("to_move", "over", "round", "scores", "totals", "step", "hand", "known", "private_stacks",
               "public_stacks", "public_tops", "played_public", "starter", "hand_sizes", "stock_count",
               "stall_count")

    def __init__(self, n: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        the_space = space(GAME_ID)
        if [str(c) for c in the_space.CARDS] != _TEXT:  # type: ignore[attr-defined]
            raise RuntimeError("the batch engine's cards no longer match the space's")
        if the_space._stock_scale != STOCK_SCALE:  # type: ignore[attr-defined]
            raise RuntimeError("the batch engine's draw-pile scale no longer matches the space's")
        super().__init__(n, seed, options)

    def deck(self) -> Sequence[Card]:
        return pg.progression_deck(self.options)

    def position(self, card: Card) -> int:
        return int(card)

    def load(self, i: int, state: pg.ProgressionState) -> None:
        """Set match ``i`` to ``state``, a position of the rules engine in a round in play (issue 36:
        a search rolls out its leaves here).  The slot then plays on from that position as the rules
        engine would: the same legal actions, observations (every seat's) and round scores.  Its
        match totals and first seat come from the state; its record and the rounds after this one
        are not the state's (the state's deal may be unknown, as in a sampled world), so a loaded slot
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


@_compiled
def _start_match_slot(t: Tables, g: int, first: int) -> None:
    """:func:`_start_match`, called from Python."""
    _start_match(t, g, first)


def play_random(n: int, seed: int, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Play ``n`` matches with uniformly random legal actions in one compiled call:
    (decisions made, the sum of the three seats' final totals), for benchmarks."""
    checked = games.get(GAME_ID).check_options(options)
    return _play_random(_tables(1, seed, checked, 1 << 16), n)


# -- the learner against random opponents (parlour.batch.vector) ------------------------------------

@_lean
def _against_random(t: Tables, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                    chooser: npt.NDArray[np.uint64], scale: np.float32, rewards: npt.NDArray[np.float32],
                    done: npt.NDArray[np.bool_], paid: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_],
                    at: npt.NDArray[np.int64], obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                    legal: npt.NDArray[np.int64]) -> tuple[int, int]:
    """:func:`parlour.batch.common.against_random` with Progression's rules: :func:`_step`
    (``PlayThenDraw.apply``), then :func:`_observe` and :func:`_legal_mask`."""
    return against_random(_legal_actions, _apply, _end_round, _observe, t, TO_MOVE, LOG_LEN, actions, seats,
                          chooser, scale, rewards, done, paid, ended, at, obs, mask, legal)




# -- a rules-engine position in a slot, and the search's heuristic rollouts (issue 36) ----------

ROW_HEAD = INFO
"""Where a :func:`position_row`'s figures begin: its first entries are ``info``'s columns
(``FIXED`` and ``LOG_LEN`` 0)."""
_GAP = [[0] * n for n in range(CARDS + 1)]
"""Zeros after a pile's or a hand's cards, by how many."""
_BIT = [1 << c for c in range(CARDS)]


def row_size(hand: int, deck: int) -> int:
    """The length of a :func:`position_row` for hands of ``hand`` cards and a pack of ``deck``."""
    return ROW_HEAD + PLAYERS * 4 * 3 + PLAYERS + 1 + 4 * PILE_CAP + PLAYERS * hand + deck - PLAYERS * hand


def position_row(state: pg.ProgressionState, hand: int, deck: int) -> list[int]:
    """A position of the rules engine as one row of numbers, for :func:`load_row`: ``info``'s
    columns, each private stack in figures (total, faces, floor), each seat's private cards and the
    cards that have lain on a public stack as bits, the public stacks, the hands (in the rules
    engine's order, which the advice's ties follow) and the draw pile (all of it, the cards drawn
    too)."""
    hands = state.hands
    if len(state.stock) != deck - PLAYERS * hand:
        raise ValueError("a position of other hands or another pack")
    row = [0] * ROW_HEAD
    row[TO_MOVE] = state.to_move
    row[DRAWING] = int(state.drawing)
    row[PLAYED] = state.pile_played
    row[STALL] = state.stall
    row[STOCK_POS] = state.stock_pos
    row[ROUND] = state.round_index
    row[STARTER] = state.round_starter(state.round_index)
    row[FIRST] = state.first
    row[TOTAL:TOTAL + PLAYERS] = state.totals
    row[HAND_LEN:HAND_LEN + PLAYERS] = map(len, hands)
    row[PILE_LEN:PILE_LEN + 4] = map(len, state.public)
    for figures in state.figures:
        for total, faces, _, floor in figures:
            row += (total, faces, floor)
    row += [sum(_BIT[c] for pile in stacks for c in pile) for stacks in state.private]
    row.append(sum(bit for bit, lain in zip(_BIT, state.was_on_pile) if lain))
    for pile in state.public:
        row += pile
        row += _GAP[PILE_CAP - len(pile)]
    for held in hands:
        row += held
        row += _GAP[hand - len(held)]
    row += state.stock
    return row


def load_row(t: Tables, i: int, row: Sequence[int]) -> None:
    """:meth:`ProgressionBatch.load` of a :func:`position_row`."""
    if len(row) != row_size(int(t.params[P_HAND]), int(t.params[P_DECK])):
        raise ValueError("a position row of other hands or another pack")
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
    """Set match ``g`` to a :func:`position_row`.  Mirrors ``ProgressionState.copy`` (the fields
    the batch keeps: ``PlayThenDraw.figures`` without the count, the private stacks' cards and
    ``was_on_pile`` as bits, the draw pile in this round's deal)."""
    info = t.info
    hand = t.params[P_HAND]
    for c in range(ROW_HEAD):
        info[g, c] = row[c]
    info[g, FIXED] = 0
    info[g, LOG_LEN] = 0
    at = ROW_HEAD
    for seat in range(PLAYERS):
        for suit in range(4):
            for k in range(3):
                t.stacks[g, seat, suit, k] = row[at]
                at += 1
    for seat in range(PLAYERS):
        t.private_bits[g, seat] = row[at + seat]
    t.on_pile[g] = row[at + PLAYERS]
    at += PLAYERS + 1
    for suit in range(4):
        for k in range(PILE_CAP):
            t.piles[g, suit, k] = row[at + suit * PILE_CAP + k]
    at += 4 * PILE_CAP
    for seat in range(PLAYERS):
        for k in range(hand):
            t.hands[g, seat, k] = row[at + seat * hand + k]
    at += PLAYERS * hand
    r = info[g, ROUND]
    base = PLAYERS * hand
    for k in range(t.params[P_DECK] - base):
        t.deals[g, r, base + k] = row[at + k]


# The advice's tables and constants (parlour.bots.heuristic.progression), read once.
_MASK_SUM = np.array(advice.MASK_SUM, np.int64)
_MASK_COUNT = np.array(advice.MASK_COUNT, np.int64)
_AT_LEAST = np.array(advice.AT_LEAST, np.int64)
_DESCENDING = np.array([[*values, *[0] * (9 - len(values))] for values in advice.DESCENDING], np.int64)
"""``advice.DESCENDING`` with its rows filled out with zeros to nine values."""
_GIFTS = np.array(advice.GIFTS, np.float64)
_DRAW_PILE_WORTH, _TEMPO, _FUTURE_WEIGHT = advice.DRAW_PILE_WORTH, advice.TEMPO, advice.FUTURE_WEIGHT
if not _FUTURE_WEIGHT:
    raise RuntimeError("the compiled evaluation counts the draw pile's future: FUTURE_WEIGHT must not be 0")

# Rows of the advice's scratch (Scratch.figures): a suit's cards in hand, and what a rollout reads.
H_MASK, H_SPARE, H_COME = range(3)
"""``figures[H_*, suit]``: the number values in hand as a mask, the face cards in hand, the number
values still in the draw pile as a mask."""
MOST_PROSPECTS = 14
"""The most entries of a suit's prospects: one, and one for each of its nine numbers and four faces."""


class Scratch(NamedTuple):
    """The arrays the compiled advice works in (made once a call: the rollout loop allocates nothing)."""

    figures: npt.NDArray[np.int64]
    """``[H_*, suit]``."""
    played: npt.NDArray[np.float64]
    """``[suit, value]``: ``suit_moves``' first list."""
    kept: npt.NDArray[np.float64]
    """``[suit, value]``: ``suit_moves``' second list."""
    prospects: npt.NDArray[np.int64]
    """``[suit, j, 0–2]``: ``prospects_of``'s (score, total, faces) with at most ``j`` cards played."""
    plan: npt.NDArray[np.int64]
    """``[suit, 0–2]``: how many prospects, the fewest cards that make the best, the best."""
    table: npt.NDArray[np.int64]
    """``[2, cards, 5]``: ``_plan``'s table and the one it merges into: the score, then the cards of each suit."""
    places: npt.NDArray[np.int64]
    """The hidden places of a re-deal."""
    scores: npt.NDArray[np.float64]
    """A rollout's scores by seat."""


@_inlined
def _hand_code(t: Tables, g: int, seat: int, figures: npt.NDArray[np.int64]) -> None:
    """``seat``'s hand by suit into ``figures[H_MASK]`` and ``figures[H_SPARE]``.  Mirrors
    ``heuristic.progression.hand_code`` and ``suit_in``."""
    for suit in range(4):
        figures[H_MASK, suit] = 0
        figures[H_SPARE, suit] = 0
    for i in range(t.info[g, HAND_LEN + seat]):
        p = int(t.hands[g, seat, i])
        value = _value(p)
        if value:
            figures[H_MASK, p & 3] |= 1 << value
        else:
            figures[H_SPARE, p & 3] += 1


@_inlined
def _outlook(total: int, faces: int, started: bool, floor: int, mask: int, spare: int) -> int:
    """The best a suit can become (its stack in figures, started or not).  Mirrors
    ``heuristic.progression.outlook_of``."""
    total += _MASK_SUM[mask & _AT_LEAST[floor]]
    if not floor:
        faces += spare
    if total == 0:
        score = -FACE_PENALTY * (faces + 1) if faces else 0
    else:
        score = (total - THRESHOLD) * (faces + 1) if total > THRESHOLD else 0
    return score if started or score > 0 else 0


@_inlined
def _suit_moves(t: Tables, g: int, seat: int, suit: int, mask: int, spare: int, played: npt.NDArray[np.float64],
                kept: npt.NDArray[np.float64]) -> None:
    """What each card of ``suit`` in hand scores, played onto the stack (``played[suit, value]``)
    or put on the public stack (``kept[suit, value]``).  Mirrors ``heuristic.progression.suit_moves``."""
    total = int(t.stacks[g, seat, suit, S_TOTAL])
    faces = int(t.stacks[g, seat, suit, S_FACES])
    floor = int(t.stacks[g, seat, suit, S_FLOOR])
    started = total > 0 or faces > 0
    before = _outlook(total, faces, started, floor, mask, spare)
    for value in range(11):
        if value == 0:
            if not spare:
                continue
            rest_mask, rest_spare = mask, spare - 1
        elif (mask >> value) & 1:
            rest_mask, rest_spare = mask & ~(1 << value), spare
        else:
            continue
        kept[suit, value] = _outlook(total, faces, started, floor, rest_mask, rest_spare) - before
        if value >= floor:  # it fits: the stack rises to it
            after = _outlook(total + value, faces + (1 if value == 0 else 0), True, value, rest_mask, rest_spare)
            score = float(after - before)
            if after > 0:
                score += _TEMPO - value / 20
            played[suit, value] = score


@_inlined
def _started(t: Tables, g: int, seat: int, suit: int) -> bool:
    """Does ``seat``'s private stack of ``suit`` hold a card?"""
    return bool(t.stacks[g, seat, suit, S_TOTAL] > 0 or t.stacks[g, seat, suit, S_FACES] > 0)


@_inlined
def _advised(t: Tables, g: int, s: Scratch) -> int:
    """The advised action in match ``g``.  Mirrors ``heuristic.progression.rollout``: ``best_take``
    (``draw``, then each public stack that may be taken from, in suit order) or ``best_put`` (each
    card of the hand in the rules engine's order, its ``play`` when it fits, then its ``public``),
    the first of the best kept."""
    info = t.info
    seat = info[g, TO_MOVE]
    figures = s.figures
    _hand_code(t, g, seat, figures)
    if info[g, DRAWING]:
        best = DRAW
        best_score = _DRAW_PILE_WORTH
        for suit in range(4):
            if not _may_take(t, g, suit):
                continue
            total = int(t.stacks[g, seat, suit, S_TOTAL])
            faces = int(t.stacks[g, seat, suit, S_FACES])
            floor = int(t.stacks[g, seat, suit, S_FLOOR])
            started = total > 0 or faces > 0
            mask = figures[H_MASK, suit]
            spare = figures[H_SPARE, suit]
            value = _value(int(t.piles[g, suit, info[g, PILE_LEN + suit] - 1]))
            before = _outlook(total, faces, started, floor, mask, spare)
            if value == 0:  # take_gains
                gain = _outlook(total, faces, started, floor, mask, spare + 1) - before
            elif (mask >> value) & 1:
                gain = 0
            else:
                gain = _outlook(total, faces, started, floor, mask | (1 << value), spare) - before
            if gain > best_score:
                best, best_score = TAKE + suit, float(gain)
        return best
    nearest = (seat + 1) % PLAYERS
    after = (seat + 2) % PLAYERS
    done = 0
    best = -1
    best_score = -1e9
    for i in range(info[g, HAND_LEN + seat]):
        p = int(t.hands[g, seat, i])
        suit = p & 3
        value = _value(p)
        if not (done >> suit) & 1:
            done |= 1 << suit
            _suit_moves(t, g, seat, suit, figures[H_MASK, suit], figures[H_SPARE, suit], s.played, s.kept)
        floor = t.stacks[g, seat, suit, S_FLOOR]
        if value >= floor:  # it fits its stack
            score = s.played[suit, value]
            if score > best_score:
                best, best_score = PLAY + p, score
        first = t.stacks[g, nearest, suit, S_FLOOR] + 1 if _started(t, g, nearest, suit) else 0
        second = t.stacks[g, after, suit, S_FLOOR] + 1 if _started(t, g, after, suit) else 0
        score = s.kept[suit, value] - _GIFTS[first, second, value]
        if score > best_score:
            best, best_score = PUBLIC + p, score
    return best


@_inlined
def _turns(count: int, offset: int) -> int:
    """How many of the turns 0, 1, …, ``count`` − 1 are ``offset`` plus a multiple of three.
    Mirrors ``heuristic.progression._turns``."""
    return (count - offset + PLAYERS - 1) // PLAYERS if count > offset else 0


@_inlined
def _prospects(t: Tables, g: int, seat: int, suit: int, mask: int, spare: int, limit: int,
               prospects: npt.NDArray[np.int64], plan: npt.NDArray[np.int64]) -> None:
    """The best ``suit`` can become with at most ``j`` of the hand's fitting cards played, for each
    ``j`` (``prospects[suit, j]``: score, total, faces), and in ``plan[suit]`` how many, the fewest
    cards that make the best, the best.  Mirrors ``heuristic.progression.prospects_of`` and
    ``_prospects``."""
    total = int(t.stacks[g, seat, suit, S_TOTAL])
    faces = int(t.stacks[g, seat, suit, S_FACES])
    floor = int(t.stacks[g, seat, suit, S_FLOOR])
    if floor:  # faces, and numbers below the floor, no longer fit
        mask &= _AT_LEAST[floor]
        spare = 0
    numbers = _MASK_COUNT[mask]
    now = _score_of(total, faces) if total > 0 or faces > 0 else 0
    prospects[suit, 0, 0] = now
    prospects[suit, 0, 1] = total
    prospects[suit, 0, 2] = faces
    most = min(numbers + spare, limit)
    for j in range(1, most + 1):
        top_score = prospects[suit, j - 1, 0]
        top_total = prospects[suit, j - 1, 1]
        top_faces = prospects[suit, j - 1, 2]
        for i in range(min(spare, j) + 1):
            n = j - i
            if n > numbers:
                continue
            sum_total = total
            for k in range(n):
                sum_total += _DESCENDING[mask, k]
            f = faces + i
            if sum_total == 0:
                score = -FACE_PENALTY * (f + 1)
            else:
                score = max(sum_total - THRESHOLD, 0) * (f + 1)
            if score > top_score:
                top_score, top_total, top_faces = score, sum_total, f
        prospects[suit, j, 0] = top_score
        prospects[suit, j, 1] = top_total
        prospects[suit, j, 2] = top_faces
    best = prospects[suit, most, 0]
    first = 0
    while prospects[suit, first, 0] != best:
        first += 1
    plan[suit, 0] = most + 1
    plan[suit, 1] = first
    plan[suit, 2] = best


@_inlined
def _plan(plan: npt.NDArray[np.int64], prospects: npt.NDArray[np.int64], limit: int,
          table: npt.NDArray[np.int64]) -> int:
    """The best score of all suits with at most ``limit`` cards played, from each suit's
    :func:`_prospects`: its score, cards and cards per suit into ``table[0, 0]`` (0–4).  Mirrors
    ``heuristic.progression._plan``: the first of the best kept."""
    cards = int(plan[0, 1] + plan[1, 1] + plan[2, 1] + plan[3, 1])
    if cards <= limit:  # time enough for every good card
        table[0, 0, 0] = plan[0, 2] + plan[1, 2] + plan[2, 2] + plan[3, 2]
        for suit in range(4):
            table[0, 0, 1 + suit] = plan[suit, 1]
        return cards
    size = 1
    table[0, 0, 0] = 0
    for suit in range(4):
        merged = 0
        for a in range(size):
            base = table[0, a, 0]
            for j in range(min(plan[suit, 0], limit + 1 - a)):
                k = a + j
                value = base + prospects[suit, j, 0]
                if k == merged or value > table[1, k, 0]:
                    if k == merged:
                        merged += 1
                    table[1, k, 0] = value
                    for other in range(suit):
                        table[1, k, 1 + other] = table[0, a, 1 + other]
                    table[1, k, 1 + suit] = j
        size = merged
        for k in range(size):
            for c in range(suit + 2):
                table[0, k, c] = table[1, k, c]
    cards = 0
    for k in range(1, size):
        if table[0, k, 0] > table[0, cards, 0]:
            cards = k
    for c in range(5):
        table[0, 0, c] = table[0, cards, c]
    return cards


@_inlined
def _capped(total: float, faces: int) -> float:
    """A stack's score for a total that may be a fraction.  Mirrors ``heuristic.progression._capped``."""
    return max(total - THRESHOLD, 0.0) * (faces + 1)


@_inlined
def _evaluate(t: Tables, g: int, s: Scratch, out: npt.NDArray[np.float64]) -> None:
    """Each seat's expected round score, counting the turns left, into ``out``.  Mirrors
    ``heuristic.progression.evaluate`` (and ``plays_left``)."""
    info = t.info
    figures = s.figures
    prospects = s.prospects
    plan = s.plan
    table = s.table
    base = PLAYERS * t.params[P_HAND]
    left = t.params[P_DECK] - base
    stock = left - info[g, STOCK_POS]
    mover = info[g, TO_MOVE]
    drawing = info[g, DRAWING] != 0
    start = 1 if drawing else 0
    r = info[g, ROUND]
    for suit in range(4):
        figures[H_COME, suit] = 0
    for k in range(info[g, STOCK_POS], left):
        p = int(t.deals[g, r, base + k])
        drawn = _value(p)
        if drawn:
            figures[H_COME, p & 3] |= 1 << drawn
    for seat in range(PLAYERS):
        offset = (seat - mover) % PLAYERS
        plays = max(_turns(stock, offset) - _turns(start, offset), 0)
        usable = plays if drawing and seat == mover else max(plays - 1, 0)
        _hand_code(t, g, seat, figures)
        for suit in range(4):
            _prospects(t, g, seat, suit, figures[H_MASK, suit], figures[H_SPARE, suit], plays, prospects, plan)
        cards = _plan(plan, prospects, plays, table)
        value = float(table[0, 0, 0])
        spare = plays - cards
        if stock and usable and spare > 0:
            chance = usable / stock
            expected = 0.0
            pips0 = pips1 = pips2 = pips3 = 0.0
            for suit in range(4):
                if _started(t, g, seat, suit):  # the numbers to come that fit a started stack
                    fit = figures[H_COME, suit] & _AT_LEAST[t.stacks[g, seat, suit, S_FLOOR]]
                    pips = float(_MASK_SUM[fit])
                    if suit == 0:
                        pips0 = pips
                    elif suit == 1:
                        pips1 = pips
                    elif suit == 2:
                        pips2 = pips
                    else:
                        pips3 = pips
                    expected += _MASK_COUNT[fit]
            expected *= chance
            share = _FUTURE_WEIGHT * chance * min(1.0, spare / expected) if expected else 0.0
            for suit in range(4):
                pips = pips0 if suit == 0 else pips1 if suit == 1 else pips2 if suit == 2 else pips3
                if pips:
                    j = table[0, 0, 1 + suit]
                    total = prospects[suit, j, 1]
                    faces = prospects[suit, j, 2]
                    value += _capped(total + share * pips, faces) - max(total - THRESHOLD, 0) * (faces + 1)
        out[seat] = value


@_inlined
def _apply_in_order(t: Tables, g: int, a: int) -> bool:
    """:func:`_apply`, the mover's hand kept in the rules engine's order (``PlayThenDraw.apply``
    deletes the card put down where it was and appends the card drawn; the advice's ties go to
    the first card in hand): the card put down goes last first, where :func:`_apply` takes it from."""
    info = t.info
    hands = t.hands
    if info[g, DRAWING] == 0:
        seat = info[g, TO_MOVE]
        p = a % CARDS
        last = info[g, HAND_LEN + seat] - 1
        at = 0
        while hands[g, seat, at] != p:
            at += 1
        for i in range(at, last):
            hands[g, seat, i] = hands[g, seat, i + 1]
        hands[g, seat, last] = p
    return _apply(t, g, a)


@_inlined
def _play_out(t: Tables, g: int, depth: int, s: Scratch, out: npt.NDArray[np.float64]) -> None:
    """Play match ``g`` on by the advice for ``depth`` actions (−1: to the round's end) and put
    each seat's round score into ``out``: the scores, if the round ended, else the advice's
    evaluation.  Mirrors the rollout of ``parlour.batch.rollout.PythonLeafRollouts.run`` with
    ``Advice.rollout`` and ``evaluate``."""
    left = depth
    while left != 0:
        if _apply_in_order(t, g, _advised(t, g, s)):
            for seat in range(PLAYERS):
                out[seat] = _seat_score(t.stacks, g, seat)
            return
        left -= 1
    _evaluate(t, g, s, out)


@_compiled
def _rollouts(t: Tables, slots: npt.NDArray[np.int64], depth: int, out: npt.NDArray[np.float64]) -> None:
    """:func:`_play_out` of each of ``slots`` (each seat's round score into ``out[k]``)."""
    s = Scratch(np.zeros((3, 4), np.int64), np.zeros((4, 11), np.float64), np.zeros((4, 11), np.float64),
                np.zeros((4, MOST_PROSPECTS, 3), np.int64), np.zeros((4, 3), np.int64),
                np.zeros((2, CARDS + 1, 5), np.int64), np.zeros(CARDS, np.int64), np.zeros(PLAYERS, np.float64))
    for k in range(slots.shape[0]):
        _play_out(t, slots[k], depth, s, out[k])


@_inlined
def _hidden_places(t: Tables, g: int, seat: int, places: npt.NDArray[np.int64]) -> int:
    """Where the cards ``seat`` cannot see lie in match ``g``, into ``places``; how many: for each
    other seat in turn, the index (seat × 64 + index) of each card of its hand that has not lain on
    a public stack, in the hand's order, then (−1 − its index in the round's deal) each card of the
    draw pile still to be drawn, the next one first.  Mirrors ``parlour.batch.rollout.hidden_places``
    (``PlayThenDraw.hidden_cards``)."""
    n = 0
    on_pile = t.on_pile[g]
    for other in range(PLAYERS):
        if other == seat:
            continue
        for i in range(t.info[g, HAND_LEN + other]):
            if not (on_pile >> np.int64(t.hands[g, other, i])) & 1:
                places[n] = other * 64 + i
                n += 1
    base = PLAYERS * t.params[P_HAND]
    for k in range(t.info[g, STOCK_POS], t.params[P_DECK] - base):
        places[n] = -1 - (base + k)
        n += 1
    return n


@_inlined
def _redeal(t: Tables, g: int, places: npt.NDArray[np.int64], n: int) -> None:
    """Deal the cards of the ``n`` hidden ``places`` (:func:`_hidden_places`) afresh in match ``g``,
    from the stream in ``rng[g]``.  Mirrors ``parlour.batch.rollout.redeal`` (Fisher–Yates, the last
    place first)."""
    hands = t.hands
    deals = t.deals
    r = t.info[g, ROUND]
    for i in range(n - 1, 0, -1):
        j = _below(t.rng, g, i + 1)
        a = places[i]
        b = places[j]
        card_i = hands[g, a >> 6, a & 63] if a >= 0 else deals[g, r, -1 - a]
        card_j = hands[g, b >> 6, b & 63] if b >= 0 else deals[g, r, -1 - b]
        if a >= 0:
            hands[g, a >> 6, a & 63] = card_j
        else:
            deals[g, r, -1 - a] = card_j
        if b >= 0:
            hands[g, b >> 6, b & 63] = card_i
        else:
            deals[g, r, -1 - b] = card_i


@_compiled
def _leaf_rollouts(t: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
                   seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
    """Each row's (:func:`position_row`, leaf ``leaves[k]``) round scores averaged over ``count``
    rollouts, each on the position with the cards ``seat`` cannot see dealt afresh, into
    ``out[k]``.  Mirrors ``parlour.batch.rollout.PythonLeafRollouts.run``."""
    s = Scratch(np.zeros((3, 4), np.int64), np.zeros((4, 11), np.float64), np.zeros((4, 11), np.float64),
                np.zeros((4, MOST_PROSPECTS, 3), np.int64), np.zeros((4, 3), np.int64),
                np.zeros((2, CARDS + 1, 5), np.int64), np.zeros(CARDS, np.int64), np.zeros(PLAYERS, np.float64))
    _roll_leaves(t, rows, leaves, seat, seed, count, depth, out, s)


@_lean
def _roll_leaves(t: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
                 seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64], s: Scratch) -> None:
    """:func:`_leaf_rollouts`, given its scratch arrays (allocating nothing, it runs without
    reference counting; the advice is inlined into it)."""
    scores = s.scores
    for k in range(rows.shape[0]):
        total0 = 0.0
        total1 = 0.0
        total2 = 0.0
        _load(t, 0, rows[k])
        n = _hidden_places(t, 0, seat, s.places)
        for rollout in range(count):
            if rollout:
                _load(t, 0, rows[k])
            t.rng[0] = _slot_stream(seed, leaves[k], rollout)  # rollout.redeal_key
            _redeal(t, 0, s.places, n)
            _play_out(t, 0, depth, s, scores)
            total0 += scores[0]
            total1 += scores[1]
            total2 += scores[2]
        out[k, 0] = total0 / count
        out[k, 1] = total1 / count
        out[k, 2] = total2 / count


class ProgressionRollouts(CompiledRollouts):
    """The compiled rollout plug-in of the batched search (see :mod:`parlour.batch.rollout`): the
    same rollouts as ``PythonLeafRollouts`` with Progression's advice, in one compiled call.

    The cards a seat cannot see are each other seat's cards that it did not take from a public
    stack (``PlayThenDraw.hidden_cards``), then the draw pile's."""

    game_name, state_type, own_advice, players = "Progression", pg.ProgressionState, advice.ADVICE, PLAYERS

    def make_tables(self, options: Mapping[str, Any], states: Sequence[Any]) -> Tables:
        return _tables(1, 0, options, 1)

    def rows(self, tables: Tables, states: Sequence[Any]) -> npt.NDArray[np.int64]:
        hand, deck = int(tables.params[P_HAND]), int(tables.params[P_DECK])
        return np.array([position_row(state, hand, deck) for state in states], np.int64)

    def roll(self, tables: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
             seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
        _leaf_rollouts(tables, rows, leaves, seat, seed, count, depth, out)


@_lean
def _random_rounds(t: Tables, slots: npt.NDArray[np.int64], words: npt.NDArray[np.uint32],
                   positions: npt.NDArray[np.int64], log: npt.NDArray[np.int64], made: npt.NDArray[np.int64],
                   legal: npt.NDArray[np.int64]) -> int:
    """The lab's random bots on this engine (:func:`parlour.batch.arena.random_rounds`): the legal actions
    of :func:`_legal_actions` are in ``PlayThenDraw.legal_moves``'s order once the hands are kept in
    the rules engine's order (:func:`_apply_in_order`)."""
    played: int = random_rounds(_legal_actions, _apply_in_order, t, TO_MOVE, slots, words, positions, 3,
                                log, made, legal)
    return played


ProgressionBatch.kernels = Kernels(_tables, _reset, _legal_mask, _step, _observe, _start_match_slot, _against_random,
                                    _random_rounds)
ProgressionBatch.plays_random_rounds = True
