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

numba is an optional extra (``parlour[fast]``): this module needs it, nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from parlour import games
from parlour.batch.common import MATCH as _MATCH
from parlour.batch.common import Columns, Kernels, TablesBatch, against_random
from parlour.batch.common import below as _below
from parlour.batch.common import compiled as _compiled
from parlour.batch.common import lean as _lean
from parlour.batch.common import mix as _mix
from parlour.batch.common import slot_stream as _slot_stream
from parlour.cards import ALL_CARDS, Card
from parlour.envs.spaces import space
from parlour.games import progression as pg

__all__ = ["ProgressionBatch", "play_random"]

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


ProgressionBatch.kernels = Kernels(_tables, _reset, _legal_mask, _step, _observe, _start_match_slot, _against_random)
