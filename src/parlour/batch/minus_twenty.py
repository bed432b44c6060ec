"""Minus Twenty's compiled, batched engine (issue 36): N matches in flat numpy arrays, one
action per match applied in one compiled call.

A second implementation of :mod:`parlour.games.minus_twenty`, which stays the reference and
the home of every rule: each compiled function names the function of the rules engine it
mirrors, and ``tests/batch/test_minus_twenty.py`` replays the batch's matches through the
rules engine (legal moves at every step, scores, observations).

* Cards are the positions of the space's card planes, 0–47 (``2C 2D 2H 2S 3C … KS``: the
  card code − 4): rank ``p >> 2`` (0–8 are 2–10, 9–11 are J Q K), suit ``p & 3``.
* Actions are the space's table (:class:`parlour.envs.spaces.minus_twenty.MinusTwentySpace`):
  0–47 ``play``, 48–95 ``discard``, 96 ``draw``, 97–100 ``take C`` … ``take S``.
* Every rule option is a parameter of the compiled functions (one compilation serves them
  all): ``hand_size``, ``suits``, ``numbers``, ``investments``, ``minus``, ``stall_limit``,
  ``rounds``, ``target_score`` and ``best_of``.
* Deals come from a counter-based stream: match ``k`` of slot ``i`` is dealt (and its first
  seat drawn) from a splitmix64 stream keyed by ``(seed, i, k)`` alone.
* Rewards: at the end of a match, each seat's total minus the other's, in raw points (what
  :mod:`parlour.envs.pettingzoo` pays with ``reward="match"`` and ``reward_scale=1``); 0 on
  every other step.  A finished match is replaced at once by the slot's next one; its record
  stays readable by :meth:`MinusTwentyBatch.last_record` until the slot's next match ends.

* Speed: the functions of every decision are compiled without numba's reference counting
  (:func:`_lean`), which cost three quarters of a decision; ``play_random`` plays about as
  fast as the numba yardstick (``../shared/yardsticks/lc_numba.py``) on one core.

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
from parlour.batch.common import lean as _lean
from parlour.batch.common import mix as _mix
from parlour.batch.common import slot_stream as _slot_stream
from parlour.bots.heuristic import minus_twenty as advice
from parlour.cards import ALL_CARDS, Card
from parlour.envs.spaces import space
from parlour.games import minus_twenty as mt

__all__ = ["MinusTwentyBatch", "play_random"]

GAME_ID = "minus-twenty"
CARDS = 48
"""Card positions (the space's card planes)."""
ACTIONS = 101
PLAY, DISCARD, DRAW, TAKE = 0, 48, 96, 97
"""Where each kind of action starts in the action table."""
PILE_CAP = 12
"""The most cards of one suit: a discard pile never holds more."""
BONUS, BONUS_CARDS, ROUND_CAP = mt.BONUS, mt.BONUS_CARDS, mt.ROUND_CAP
"""The rules engine's constants (read once: the compiled functions take them as constants)."""

# Columns of Tables.info (one row a match).
TO_MOVE, DRAWING, PLAYED, STALL, STOCK_POS, ROUND, STARTER, FIRST, LOG_LEN, FIXED = range(10)
TOTAL = 10
"""Match totals of seat 0 and 1 (finished rounds)."""
WINS = 12
"""Rounds won by seat 0 and 1."""
HAND_LEN = 14
"""Cards in the hands of seat 0 and 1."""
PILE_LEN = 16
"""Cards on the discard piles C D H S."""
INFO = 20

# Columns of Tables.last_info (the last finished match of a slot).
L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN, L_TOTAL = range(5)
LAST_INFO = 7

# Tables.melds[g, seat, suit]: a meld in figures (PlayThenDraw.figures).
M_TOTAL, M_INVEST, M_COUNT, M_TOP = range(4)

# Tables.params.
P_HAND, P_DECK, P_STALL, P_MINUS, P_ROUNDS, P_TARGET, P_BEST_OF, P_ROUND_CAP = range(8)
PARAMS = 8




class Tables(NamedTuple):
    """The arrays of N matches (row ``g`` is match ``g``), handed whole to the compiled functions."""

    params: npt.NDArray[np.int64]
    """The options (columns ``P_*``)."""
    deck: npt.NDArray[np.int8]
    """The options' deck, card positions (:func:`parlour.games.minus_twenty.options_deck`)."""
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
    melds: npt.NDArray[np.int16]
    """``[g, seat, suit]``: each meld in figures (``M_*``)."""
    meld_bits: npt.NDArray[np.int64]
    """``[g, seat]``: every card in the seat's melds, bit ``p``."""
    on_pile: npt.NDArray[np.int64]
    """``[g]``: the cards that have lain on a discard pile this round (``was_on_pile``)."""
    piles: npt.NDArray[np.int8]
    """``[g, suit, i]``: the discard piles, bottom card first."""
    deals: npt.NDArray[np.int8]
    """``[g, round]``: each round's deal as the deck in order: hand 0, hand 1, the draw pile top first."""
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
def _start_round(t: Tables, g: int, starter: int) -> None:
    """Deal round ``info[g, ROUND]`` (shuffled from the stream, or as given by
    :meth:`MinusTwentyBatch.set_match`) and lay it out.  Mirrors ``MinusTwenty.random_deal``,
    ``MinusTwentyState._start_round`` and ``PlayThenDraw._start_turns``."""
    deals = t.deals
    deck = t.deck
    hands = t.hands
    info = t.info
    meld_bits = t.meld_bits
    melds = t.melds
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
    for i in range(hand):
        hands[g, 0, i] = deals[g, r, i]
        hands[g, 1, i] = deals[g, r, hand + i]
    for seat in range(2):
        info[g, HAND_LEN + seat] = hand
        meld_bits[g, seat] = 0
        for suit in range(4):
            for k in range(4):
                melds[g, seat, suit, k] = 0
    for suit in range(4):
        info[g, PILE_LEN + suit] = 0
    on_pile[g] = 0
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
        first = _below(rng, g, 2)
    info[g, FIRST] = first
    info[g, ROUND] = 0
    info[g, LOG_LEN] = 0
    for seat in range(2):
        info[g, TOTAL + seat] = 0
        info[g, WINS + seat] = 0
    _start_round(t, g, first)


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
def _fits(p: int, top: int) -> bool:
    """May card ``p`` go on a meld whose top number is ``top`` (0: none yet)?  Mirrors
    ``MinusTwentyState.fits`` (``LEVEL``: a number's pips, 1 for an investment card)."""
    rank = p >> 2
    level = rank + 2 if rank < 9 else 1
    return top < level


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
def _is_legal(t: Tables, g: int, a: int) -> bool:
    """Is action ``a`` legal in match ``g``?  Mirrors ``PlayThenDraw.legal_moves`` (and the
    refusals of ``PlayThenDraw.apply``)."""
    info = t.info
    melds = t.melds
    seat = info[g, TO_MOVE]
    if info[g, DRAWING] == 0:
        if a < PLAY or a >= DRAW:
            return False
        p = a % CARDS
        if not _in_hand(t, g, seat, p):
            return False
        return a >= DISCARD or _fits(p, melds[g, seat, p & 3, M_TOP])
    if a == DRAW:
        return True
    if a < TAKE or a >= ACTIONS:
        return False
    suit = a - TAKE
    return bool(info[g, PILE_LEN + suit] > 0 and suit != info[g, PLAYED])


@_lean
def _legal_actions(t: Tables, g: int, out: npt.NDArray[np.int64]) -> int:
    """Match ``g``'s legal actions into ``out``; how many.  Mirrors ``PlayThenDraw.legal_moves``."""
    hands = t.hands
    info = t.info
    melds = t.melds
    seat = info[g, TO_MOVE]
    k = 0
    if info[g, DRAWING] == 0:
        for i in range(info[g, HAND_LEN + seat]):
            p = int(hands[g, seat, i])
            if _fits(p, melds[g, seat, p & 3, M_TOP]):
                out[k] = PLAY + p
                k += 1
            out[k] = DISCARD + p
            k += 1
        return k
    out[0] = DRAW
    k = 1
    played = info[g, PLAYED]
    for suit in range(4):
        if info[g, PILE_LEN + suit] > 0 and suit != played:
            out[k] = TAKE + suit
            k += 1
    return k


@_lean
def _apply(t: Tables, g: int, a: int) -> bool:
    """Make the legal action ``a`` in match ``g``; True when it ends the round.  Mirrors
    ``PlayThenDraw.apply`` (step 1: ``play`` onto a meld or ``discard``; step 2: ``draw`` or
    ``take``, the round ending on the draw pile's last card or by the stall rule)."""
    deals = t.deals
    hands = t.hands
    info = t.info
    log = t.log
    meld_bits = t.meld_bits
    melds = t.melds
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
        if a < DISCARD:  # onto the meld: PlayThenDraw.figures
            rank = p >> 2
            value = rank + 2 if rank < 9 else 0
            melds[g, seat, suit, M_TOTAL] += value
            if value == 0:
                melds[g, seat, suit, M_INVEST] += 1
            melds[g, seat, suit, M_COUNT] += 1
            melds[g, seat, suit, M_TOP] = value
            meld_bits[g, seat] |= bit
        else:  # onto its discard pile
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
        card = deals[g, info[g, ROUND], 2 * hand + pos]
        info[g, STOCK_POS] = pos + 1
        info[g, STALL] = 0
        ends = pos + 1 == params[P_DECK] - 2 * hand
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
    info[g, TO_MOVE] = 1 - seat
    return bool(ends)


# -- the round's end and the match ---------------------------------------------------------------

@_lean
def _score_of(numbers: int, investments: int, count: int, minus: int) -> int:
    """A meld's score in figures.  Mirrors ``minus_twenty.score_of``."""
    if count == 0:
        return 0
    score = (numbers - minus) * (1 + investments)
    return score + BONUS if count >= BONUS_CARDS else score


@_lean
def _seat_score(melds: npt.NDArray[np.int16], g: int, seat: int, minus: int) -> int:
    """A seat's round score: its melds' scores added up.  Mirrors ``MinusTwentyState._end_round``."""
    points = 0
    for suit in range(4):
        points += _score_of(melds[g, seat, suit, M_TOTAL], melds[g, seat, suit, M_INVEST],
                            melds[g, seat, suit, M_COUNT], minus)
    return points


@_lean
def _keep_last(t: Tables, g: int) -> None:
    """Copy match ``g`` (just finished) to the ``last_*`` arrays, for :meth:`MinusTwentyBatch.last_record`."""
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
    last_info[g, L_TOTAL] = info[g, TOTAL]
    last_info[g, L_TOTAL + 1] = info[g, TOTAL + 1]
    size = params[P_DECK]
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
    """Score match ``g``'s round, which has just ended, and deal the next round, or end the match
    (paying its margin into ``rewards`` and starting the slot's next match); True when the match
    ended.  Mirrors ``MinusTwentyState._end_round``, ``is_match_over`` and ``round_starter``
    (``starters_from``)."""
    info = t.info
    matches = t.matches
    melds = t.melds
    params = t.params
    scores = t.scores
    r = info[g, ROUND]
    minus = params[P_MINUS]
    first = _seat_score(melds, g, 0, minus)
    second = _seat_score(melds, g, 1, minus)
    scores[g, r, 0] = first
    scores[g, r, 1] = second
    info[g, TOTAL] += first
    info[g, TOTAL + 1] += second
    if first != second:
        info[g, WINS + (0 if first > second else 1)] += 1
    played = r + 1
    total0 = info[g, TOTAL]
    total1 = info[g, TOTAL + 1]
    if params[P_TARGET] > 0:
        over = played >= ROUND_CAP or max(total0, total1) >= params[P_TARGET]
    elif params[P_BEST_OF] > 0:
        over = played >= ROUND_CAP or 2 * max(info[g, WINS], info[g, WINS + 1]) > params[P_BEST_OF]
    else:
        over = played >= params[P_ROUNDS]
    if over:
        rewards[g, 0] = total0 - total1
        rewards[g, 1] = total1 - total0
        done[g] = True
        _keep_last(t, g)
        matches[g] += 1
        info[g, FIXED] = 0
        _start_match(t, g, -1)
        return True
    if total0 != total1:
        starter = 0 if total0 > total1 else 1
    else:
        starter = 1 - info[g, STARTER]
    info[g, ROUND] = played
    _start_round(t, g, starter)
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
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
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
    the space's blocks (see ``MinusTwentyBatch._BLOCKS``).  Mirrors ``GameSpace._encode_directly``,
    ``TurnSpace._from_state`` and ``MinusTwentySpace._from_state`` of a round in play."""
    hands = t.hands
    info = t.info
    meld_bits = t.meld_bits
    on_pile = t.on_pile
    params = t.params
    piles = t.piles
    for g in range(seats.shape[0]):
        seat = seats[g]
        out[g, at[0] + (info[g, TO_MOVE] ^ seat)] = 1.0
        r = info[g, ROUND]
        if r > 0:
            out[g, at[2]] = r / 10
            for k in range(2):
                out[g, at[4] + k] = info[g, TOTAL + (seat ^ k)] / 100.0
                out[g, at[16] + k] = info[g, WINS + (seat ^ k)] / 10
        out[g, at[5] + info[g, DRAWING]] = 1.0
        for i in range(info[g, HAND_LEN + seat]):
            out[g, at[6] + hands[g, seat, i]] = 1.0
        seen = on_pile[g]
        for k in range(2):
            other = seat ^ k
            for i in range(info[g, HAND_LEN + other]):
                p = hands[g, other, i]
                if (seen >> np.int64(p)) & 1:
                    out[g, at[7] + CARDS * k + p] = 1.0
            bits = meld_bits[g, other]
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
        out[g, at[12] + (info[g, STARTER] ^ seat)] = 1.0
        out[g, at[14]] = (params[P_DECK] - 2 * params[P_HAND] - info[g, STOCK_POS]) / 48
        if info[g, STALL] > 0:
            out[g, at[15]] = info[g, STALL] / 60


@_compiled
def _play_random(t: Tables, n: int) -> tuple[int, int]:
    """Play ``n`` matches in slot 0 with uniformly random legal actions: (decisions, the sum of
    both seats' final totals over the matches)."""
    info = t.info
    last_info = t.last_info
    matches = t.matches
    seed = t.seed
    legal = np.empty(ACTIONS, np.int64)
    rewards = np.zeros((1, 2), np.float32)
    done = np.zeros(1, np.bool_)
    chooser = np.zeros(1, np.uint64)
    chooser[0] = _mix(seed[0] ^ _MATCH)
    decisions = 0
    points = 0
    finished = 0
    matches[0] = 0
    info[0, FIXED] = 0
    _start_match(t, 0, -1)
    while finished < n:
        a = legal[_below(chooser, 0, _legal_actions(t, 0, legal))]
        decisions += 1
        if _apply(t, 0, a) and _end_round(t, 0, rewards, done):
            finished += 1
            points += last_info[0, L_TOTAL] + last_info[0, L_TOTAL + 1]
    return decisions, points


# -- the Python face -----------------------------------------------------------------------------

def _position(card: Card) -> int:
    return int(card) - 4


_TEXT = [str(ALL_CARDS[p + 4]) for p in range(CARDS)]
"""Card position → notation."""


def _tables(n: int, seed: int, options: Mapping[str, Any], log: int) -> Tables:
    deck = mt.options_deck(options)
    rounds = options["rounds"] if options["target_score"] is None and options["best_of"] is None else mt.ROUND_CAP
    params = np.zeros(PARAMS, np.int64)
    params[P_HAND] = options["hand_size"]
    params[P_DECK] = len(deck)
    params[P_STALL] = options["stall_limit"]
    params[P_MINUS] = options["minus"]
    params[P_ROUNDS] = options["rounds"]
    params[P_TARGET] = options["target_score"] or 0
    params[P_BEST_OF] = options["best_of"] or 0
    params[P_ROUND_CAP] = rounds
    hand = options["hand_size"]
    return Tables(
        params=params,
        deck=np.array([_position(c) for c in deck], np.int8),
        seed=np.array([seed % (1 << 64)], np.uint64),
        rng=np.zeros(n, np.uint64),
        matches=np.zeros(n, np.int64),
        info=np.zeros((n, INFO), np.int32),
        hands=np.zeros((n, 2, hand), np.int8),
        melds=np.zeros((n, 2, 4, 4), np.int16),
        meld_bits=np.zeros((n, 2), np.int64),
        on_pile=np.zeros(n, np.int64),
        piles=np.zeros((n, 4, PILE_CAP), np.int8),
        deals=np.zeros((n, rounds, CARDS), np.int8),
        scores=np.zeros((n, rounds, 2), np.int32),
        starts=np.zeros((n, rounds), np.int32),
        log=np.zeros((n, log), np.int8),
        last_info=np.zeros((n, LAST_INFO), np.int32),
        last_deals=np.zeros((n, rounds, CARDS), np.int8),
        last_scores=np.zeros((n, rounds, 2), np.int32),
        last_starts=np.zeros((n, rounds), np.int32),
        last_log=np.zeros((n, log), np.int8),
    )


class MinusTwentyBatch(TablesBatch):
    """``n`` matches of Minus Twenty played side by side, dealt from a seeded stream (the methods:
    :class:`parlour.batch.common.TablesBatch`)."""

    game_id = GAME_ID
    players = 2
    num_actions = ACTIONS
    texts = _TEXT
    columns = Columns(TO_MOVE, ROUND, FIRST, LOG_LEN, FIXED, L_HAS, L_FIRST, L_ROUNDS, L_LOG_LEN)
    _BLOCKS = ("to_move", "over", "round", "scores", "totals", "step", "hand", "known", "melds", "discard_piles",
               "discard_tops", "discarded", "starter", "hand_sizes", "stock_count", "stall_count", "rounds_won")

    def __init__(self, n: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        if [str(c) for c in space(GAME_ID).CARDS] != _TEXT:  # type: ignore[attr-defined]
            raise RuntimeError("the batch engine's cards no longer match the space's")
        super().__init__(n, seed, options)

    def deck(self) -> Sequence[Card]:
        return mt.options_deck(self.options)

    def position(self, card: Card) -> int:
        return _position(card)

    def load(self, i: int, state: mt.MinusTwentyState) -> None:
        """Set match ``i`` to ``state``, a position of the rules engine in a round in play (issue
        36: a search rolls out its leaves here).  The slot then plays on from that position as the
        rules engine would: the same legal actions, observations and round scores.  Its match
        totals, rounds won and starters come from the state's finished rounds; its record and the
        rounds after this one are not the state's (the state's deal may be unknown, as in a
        sampled world), so a loaded slot is for playing the round out, not for records."""
        self._slot(i)
        if state.options != self.options:
            raise ValueError("the state's options are not the batch's")
        if state.is_round_over():
            raise ValueError("only a round in play can be loaded")
        t = self._t
        load_row(t, i, position_row(state, t.hands.shape[2]))


@_compiled
def _start_match_slot(t: Tables, g: int, first: int) -> None:
    """:func:`_start_match`, called from Python."""
    _start_match(t, g, first)


def play_random(n: int, seed: int, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Play ``n`` matches with uniformly random legal actions in one compiled call:
    (decisions made, the sum of both seats' final totals), for benchmarks."""
    checked = games.get(GAME_ID).check_options(options)
    return _play_random(_tables(1, seed, checked, 1 << 16), n)


# -- the learner against random opponents (parlour.batch.vector) ------------------------------------

@_lean
def _against_random(t: Tables, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                    chooser: npt.NDArray[np.uint64], scale: np.float32, rewards: npt.NDArray[np.float32],
                    done: npt.NDArray[np.bool_], paid: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_],
                    at: npt.NDArray[np.int64], obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                    legal: npt.NDArray[np.int64]) -> tuple[int, int]:
    """:func:`parlour.batch.common.against_random` with Minus Twenty's rules: :func:`_step`
    (``PlayThenDraw.apply``), then :func:`_observe` and :func:`_legal_mask`."""
    return against_random(_legal_actions, _apply, _end_round, _observe, t, TO_MOVE, LOG_LEN, actions, seats,
                          chooser, scale, rewards, done, paid, ended, at, obs, mask, legal)




# -- a rules-engine position in a slot, and the search's heuristic rollouts (issue 36) ----------

ROW_HEAD = 20
"""Where a :func:`position_row`'s cards begin: its first entries are ``info``'s columns up to
``PILE_LEN + 4`` (``FIXED`` and ``LOG_LEN`` 0)."""
ROW_MELDS = 32
"""Each meld in figures: ``[seat, suit, M_*]``, 32 entries."""


def row_size(hand: int) -> int:
    """The length of a :func:`position_row` for hands of ``hand`` cards."""
    return ROW_HEAD + ROW_MELDS + 2 + 1 + 4 * PILE_CAP + 2 * hand + CARDS + 2 * ROUND_CAP


def position_row(state: mt.MinusTwentyState, hand: int) -> list[int]:
    """A position of the rules engine as one row of numbers, for :func:`load_row` (the hands
    in the rules engine's order, which the advice's ties follow)."""
    head = [0] * ROW_HEAD
    head[TO_MOVE] = state.to_move
    head[DRAWING] = int(state.drawing)
    head[PLAYED] = state.pile_played
    head[STALL] = state.stall
    head[STOCK_POS] = state.stock_pos
    head[ROUND] = state.round_index
    head[STARTER] = state.starter
    head[FIRST] = state.first
    totals = state.totals
    wins = state.rounds_won()
    head[TOTAL], head[TOTAL + 1] = totals[0], totals[1]
    head[WINS], head[WINS + 1] = wins[0], wins[1]
    hands = state.hands
    head[HAND_LEN], head[HAND_LEN + 1] = len(hands[0]), len(hands[1])
    piles = state.discard_piles
    for suit in range(4):
        head[PILE_LEN + suit] = len(piles[suit])
    melds = [x for seat in state.figures for figures in seat for x in figures]
    bits = [sum(1 << c - 4 for pile in seat for c in pile) for seat in state.melds]
    on_pile = state.was_on_pile
    seen = sum(1 << c - 4 for c in range(4, 52) if on_pile[c])
    pile_cards = [0] * (4 * PILE_CAP)
    for suit in range(4):
        pile_cards[suit * PILE_CAP:suit * PILE_CAP + len(piles[suit])] = [c - 4 for c in piles[suit]]
    hand_cards = [0] * (2 * hand)
    for seat in range(2):
        hand_cards[seat * hand:seat * hand + len(hands[seat])] = [c - 4 for c in hands[seat]]
    stock = [0] * CARDS
    stock[:len(state.stock)] = [c - 4 for c in state.stock]
    history = [0] * (2 * ROUND_CAP)
    for r, result in enumerate(state.history):
        history[2 * r:2 * r + 2] = result.scores
    return [*head, *melds, *bits, seen, *pile_cards, *hand_cards, *stock, *history]


def load_row(t: Tables, i: int, row: Sequence[int]) -> None:
    """:meth:`MinusTwentyBatch.load` of a :func:`position_row`."""
    if len(row) != row_size(t.hands.shape[2]):
        raise ValueError("a position row of other hands")
    _load_rows(t, np.array([i], np.int64), np.array([row], np.int64))


@_compiled
def _load_rows(t: Tables, slots: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
    """Set each of ``slots`` to its row of ``rows`` (:func:`position_row`)."""
    for k in range(slots.shape[0]):
        _load(t, slots[k], rows[k])


@_lean
def _load(t: Tables, g: int, row: npt.NDArray[np.int64]) -> None:
    """Set match ``g`` to a :func:`position_row`.  Mirrors ``MinusTwentyState.copy`` (the fields
    the batch keeps: ``PlayThenDraw.figures``, ``shown`` as the melds' and piles' cards,
    ``was_on_pile``)."""
    info = t.info
    hand = t.hands.shape[2]
    for c in range(ROW_HEAD):
        info[g, c] = row[c]
    info[g, FIXED] = 0
    info[g, LOG_LEN] = 0
    at = ROW_HEAD
    for seat in range(2):
        for suit in range(4):
            for k in range(4):
                t.melds[g, seat, suit, k] = row[at]
                at += 1
    t.meld_bits[g, 0] = row[at]
    t.meld_bits[g, 1] = row[at + 1]
    t.on_pile[g] = row[at + 2]
    at += 3
    for suit in range(4):
        for k in range(PILE_CAP):
            t.piles[g, suit, k] = row[at + suit * PILE_CAP + k]
    at += 4 * PILE_CAP
    for seat in range(2):
        for k in range(hand):
            t.hands[g, seat, k] = row[at + seat * hand + k]
    at += 2 * hand
    r = info[g, ROUND]
    for k in range(CARDS - 2 * hand):
        t.deals[g, r, 2 * hand + k] = row[at + k]
    at += CARDS
    for done in range(r + 1):
        t.starts[g, done] = 0
    for done in range(r):
        t.scores[g, done, 0] = row[at + 2 * done]
        t.scores[g, done, 1] = row[at + 2 * done + 1]


# The advice's tables and constants (parlour.bots.heuristic.minus_twenty), read once.
_MASK_SUM = np.array(advice.MASK_SUM, np.int64)
_MASK_COUNT = np.array(advice.MASK_COUNT, np.int64)
_ABOVE = np.array(advice.ABOVE, np.int64)
_BELOW = np.array(advice.BELOW, np.int64)
_NUMBERS = advice.NUMBERS
_BELOW_SHARE, _FUTURE, _START_MARGIN = advice.BELOW_SHARE, advice.FUTURE, advice.START_MARGIN
_INVEST_MARGIN, _DRAW_PILE_WORTH, _TEMPO = advice.INVEST_MARGIN, advice.DRAW_PILE_WORTH, advice.TEMPO

# Columns of a seat's view (Knowledge, one row a seat): what seen_by gives.
K_UNSEEN, K_MASK, K_SPARE, K_HIDDEN = 0, 4, 8, 12
KNOWLEDGE = 13


@_lean
def _reckon(unseen: int, chance: float, numbers: int, investments: int, count: int, top: int, mask: int,
            spare: int, plays: int, minus: int) -> float:
    """A suit's expected score from the cards in hand that fit its meld (their values as
    ``mask``).  Mirrors ``heuristic.minus_twenty._reckon`` (the same sums in the same order:
    the same floating-point result)."""
    held = _MASK_COUNT[mask]
    if held > plays:  # short of turns, the high cards go down
        kept = 0
        k = 0
        for v in range(10, 1, -1):
            if (mask >> v) & 1 and k < plays:
                kept |= 1 << v
                k += 1
        mask = kept
        held = plays
    free = plays - held
    unseen &= _ABOVE[top]
    below = 0
    if held:
        highest = 10
        while not (mask >> highest) & 1:
            highest -= 1
        below = unseen & _BELOW[highest]
    many = _MASK_COUNT[unseen]
    weight = 0.0
    if many:
        weight = free / many
        if not weight < chance:
            weight = chance
    total = numbers + _MASK_SUM[mask] + weight * (_MASK_SUM[unseen] - _BELOW_SHARE * _MASK_SUM[below])
    cards = count + held + weight * (many - _BELOW_SHARE * _MASK_COUNT[below])
    invest = 0
    if total - minus >= _INVEST_MARGIN:
        invest = free if free < spare else spare
    score = (total - minus) * (1 + investments + invest)
    cards += invest
    if cards >= BONUS_CARDS:
        score += BONUS
    elif cards > BONUS_CARDS - 1:
        score += BONUS * (cards - BONUS_CARDS + 1)
    if count or score >= _START_MARGIN:
        return float(score)
    return 0.0


@_lean
def _worth(unseen: int, chance: float, numbers: int, investments: int, count: int, top: int, mask: int,
           spare: int, plays: int, minus: int) -> float:
    """What a suit's meld is expected to score.  Mirrors ``heuristic.minus_twenty.worth``."""
    if top:
        mask &= _ABOVE[top]
        spare = 0
    unseen &= _ABOVE[top]
    return _reckon(unseen, chance if unseen else 0.0, numbers, investments, count, top, mask, spare, plays, minus)


@_lean
def _suit_moves(unseen: int, chance: float, numbers: int, investments: int, count: int, top: int, mask: int,
                spare: int, plays: int, minus: int, played: npt.NDArray[np.float64],
                kept: npt.NDArray[np.float64]) -> None:
    """What each card of a suit scores played (into ``played``, by value) or discarded (into
    ``kept``).  Mirrors ``heuristic.minus_twenty.suit_moves`` and ``_suit_moves``."""
    if top:
        mask &= _ABOVE[top]
        spare = 0
    unseen &= _ABOVE[top]
    if not unseen:
        chance = 0.0
    for v in range(11):
        played[v] = 0.0
        kept[v] = 0.0
    before = 0.0
    if mask or spare:
        before = _reckon(unseen, chance, numbers, investments, count, top, mask, spare, plays, minus)
    counts = count != 0 or before != 0.0
    if spare:
        played[0] = _reckon(unseen, chance, numbers, investments + 1, count + 1, 0, mask, spare - 1, plays, minus)
        if counts:
            kept[0] = _reckon(unseen, chance, numbers, investments, count, top, mask, spare - 1, plays,
                              minus) - before
    for value in range(10, 1, -1):
        if not (mask >> value) & 1:
            continue
        played[value] = _reckon(unseen, chance, numbers + value, investments, count + 1, value,
                                mask & _ABOVE[value], 0, plays, minus)
        if counts:
            kept[value] = _reckon(unseen, chance, numbers, investments, count, top, mask & ~(1 << value), spare,
                                  plays, minus) - before
    for value in range(11):
        if (value == 0 and spare) or (value > 1 and (mask >> value) & 1):
            after = played[value]
            score = after - before
            if after > 0:
                score += _TEMPO - value / 40
            played[value] = score


@_lean
def _seen_by(t: Tables, g: int, seat: int, deck_numbers: npt.NDArray[np.int64],
             know: npt.NDArray[np.int64]) -> None:
    """What ``seat`` knows in match ``g``, into ``know``: by suit, the numbers it has not seen
    (``K_UNSEEN``), its hand's numbers (``K_MASK``) and investment cards (``K_SPARE``); and how
    many of the opponent's cards it has not seen (``K_HIDDEN``).  Mirrors
    ``heuristic.minus_twenty.seen_by``."""
    hands = t.hands
    info = t.info
    on_pile = t.on_pile[g]
    shown = t.meld_bits[g, 0] | t.meld_bits[g, 1] | on_pile
    for suit in range(4):
        know[K_MASK + suit] = 0
        know[K_SPARE + suit] = 0
        know[K_UNSEEN + suit] = 0
    for i in range(info[g, HAND_LEN + seat]):
        p = int(hands[g, seat, i])
        rank = p >> 2
        if rank < 9:
            know[K_MASK + (p & 3)] |= 1 << (rank + 2)
        else:
            know[K_SPARE + (p & 3)] += 1
    for p in range(36):  # the number cards
        if (shown >> np.int64(p)) & 1:
            know[K_UNSEEN + (p & 3)] |= 1 << ((p >> 2) + 2)
    for suit in range(4):
        know[K_UNSEEN + suit] = deck_numbers[suit] & ~(know[K_UNSEEN + suit] | know[K_MASK + suit])
    their = 1 - seat
    hidden = 0
    for i in range(info[g, HAND_LEN + their]):
        if not (on_pile >> np.int64(hands[g, their, i])) & 1:
            hidden += 1
    know[K_HIDDEN] = hidden


@_lean
def _advised(t: Tables, g: int, deck_numbers: npt.NDArray[np.int64], know: npt.NDArray[np.int64],
             played: npt.NDArray[np.float64], kept: npt.NDArray[np.float64]) -> int:
    """The advised action in match ``g``.  Mirrors ``heuristic.minus_twenty.rollout`` (with
    ``best_take`` and ``best_put``: the same moves in the same order, so the same ties)."""
    info = t.info
    melds = t.melds
    piles = t.piles
    minus = t.params[P_MINUS]
    seat = info[g, TO_MOVE]
    drawing = info[g, DRAWING] == 1
    if drawing:
        fits = False
        for suit in range(4):
            height = info[g, PILE_LEN + suit]
            if height > 0 and suit != info[g, PLAYED]:
                fits = fits or _fits(int(piles[g, suit, height - 1]), melds[g, seat, suit, M_TOP])
        if not fits:
            return DRAW
    _seen_by(t, g, seat, deck_numbers, know)
    stock = t.params[P_DECK] - 2 * t.params[P_HAND] - info[g, STOCK_POS]
    if drawing:
        plays = usable = (stock - 1) // 2
    else:
        plays = (stock + 1) // 2
        usable = max(plays - 1, 0)
    hidden = stock + know[K_HIDDEN]
    chance = _FUTURE * usable / hidden if hidden else 0.0
    if drawing:  # best_take
        best = DRAW
        best_score = _DRAW_PILE_WORTH
        for suit in range(4):
            height = info[g, PILE_LEN + suit]
            if height == 0 or suit == info[g, PLAYED]:
                continue
            p = int(piles[g, suit, height - 1])
            top = melds[g, seat, suit, M_TOP]
            if not _fits(p, top):
                continue
            rank = p >> 2
            value = rank + 2 if rank < 9 else 0
            mask = know[K_MASK + suit]
            spare = know[K_SPARE + suit]
            unseen = know[K_UNSEEN + suit]
            numbers = melds[g, seat, suit, M_TOTAL]
            investments = melds[g, seat, suit, M_INVEST]
            count = melds[g, seat, suit, M_COUNT]
            if value:
                with_top = _worth(unseen, chance, numbers, investments, count, top, mask | (1 << value), spare,
                                  plays, minus)
            else:
                with_top = _worth(unseen, chance, numbers, investments, count, top, mask, spare + 1, plays, minus)
            score = with_top - _worth(unseen, chance, numbers, investments, count, top, mask, spare, plays, minus)
            if score > best_score:
                best, best_score = TAKE + suit, score
        return best
    plays = max(plays - 1, 0)  # best_put
    done = 0
    best = -1
    best_score = -1e9
    for i in range(info[g, HAND_LEN + seat]):
        p = int(t.hands[g, seat, i])
        suit = p & 3
        rank = p >> 2
        value = rank + 2 if rank < 9 else 0
        if not (done >> suit) & 1:
            done |= 1 << suit
            _suit_moves(know[K_UNSEEN + suit], chance, melds[g, seat, suit, M_TOTAL], melds[g, seat, suit, M_INVEST],
                        melds[g, seat, suit, M_COUNT], melds[g, seat, suit, M_TOP], know[K_MASK + suit],
                        know[K_SPARE + suit], plays, minus, played[suit], kept[suit])
        if _fits(p, melds[g, seat, suit, M_TOP]):
            score = played[suit, value]
            if score > best_score:
                best, best_score = PLAY + p, score
        gift = 0.5
        if melds[g, 1 - seat, suit, M_COUNT]:
            their_top = melds[g, 1 - seat, suit, M_TOP]
            if value == 0:
                gift = 4.0 if their_top == 0 else 0.0
            else:
                gift = float(value) if value > their_top else 0.0
        score = kept[suit, value] - gift
        if score > best_score:
            best, best_score = DISCARD + p, score
    return best


@_lean
def _evaluate(t: Tables, g: int, deck_numbers: npt.NDArray[np.int64], know: npt.NDArray[np.int64],
              out: npt.NDArray[np.float64]) -> None:
    """Each seat's expected round score, into ``out``.  Mirrors ``heuristic.minus_twenty.evaluate``
    (and ``plays_left``)."""
    info = t.info
    melds = t.melds
    minus = t.params[P_MINUS]
    stock = t.params[P_DECK] - 2 * t.params[P_HAND] - info[g, STOCK_POS]
    mover = info[g, TO_MOVE]
    for seat in range(2):
        if info[g, DRAWING] == 1:
            plays = (stock - 1) // 2 if seat == mover else stock // 2
            usable = plays if seat == mover else max(plays - 1, 0)
        else:
            plays = (stock + 1) // 2 if seat == mover else stock // 2
            usable = max(plays - 1, 0)
        _seen_by(t, g, seat, deck_numbers, know)
        hidden = stock + know[K_HIDDEN]
        chance = _FUTURE * usable / hidden if hidden else 0.0
        value = 0.0
        for suit in range(4):
            value += _worth(know[K_UNSEEN + suit], chance, melds[g, seat, suit, M_TOTAL],
                            melds[g, seat, suit, M_INVEST], melds[g, seat, suit, M_COUNT],
                            melds[g, seat, suit, M_TOP], know[K_MASK + suit], know[K_SPARE + suit], plays, minus)
        out[seat] = value


@_lean
def _apply_in_order(t: Tables, g: int, a: int) -> bool:
    """:func:`_apply`, the mover's hand kept in the rules engine's order (``PlayThenDraw.apply``
    deletes the card where it was; the advice's ties go to the first card in hand)."""
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


@_lean
def _deck_numbers(t: Tables, out: npt.NDArray[np.int64]) -> None:
    """By suit, the number values of the options' deck, as masks (``numbers_in``)."""
    for suit in range(4):
        out[suit] = 0
    for k in range(t.params[P_DECK]):
        p = int(t.deck[k])
        if p >> 2 < 9:
            out[p & 3] |= 1 << ((p >> 2) + 2)


@_lean
def _play_out(t: Tables, g: int, depth: int, deck_numbers: npt.NDArray[np.int64], know: npt.NDArray[np.int64],
              played: npt.NDArray[np.float64], kept: npt.NDArray[np.float64], out: npt.NDArray[np.float64]) -> None:
    """Play match ``g`` on by the advice for ``depth`` actions (−1: to the round's end) and put
    each seat's round score into ``out``: the scores, if the round ended, else the advice's
    evaluation.  Mirrors ``ISMCTSBot._simulate``'s rollout with ``Advice.rollout`` and ``evaluate``."""
    left = depth
    while left != 0:
        if _apply_in_order(t, g, _advised(t, g, deck_numbers, know, played, kept)):
            minus = t.params[P_MINUS]
            out[0] = _seat_score(t.melds, g, 0, minus)
            out[1] = _seat_score(t.melds, g, 1, minus)
            return
        left -= 1
    _evaluate(t, g, deck_numbers, know, out)


@_compiled
def _rollouts(t: Tables, slots: npt.NDArray[np.int64], depth: int, out: npt.NDArray[np.float64]) -> None:
    """:func:`_play_out` of each of ``slots`` (each seat's round score into ``out[k]``)."""
    deck_numbers = np.zeros(4, np.int64)
    _deck_numbers(t, deck_numbers)
    know = np.zeros(KNOWLEDGE, np.int64)
    played = np.zeros((4, 11), np.float64)
    kept = np.zeros((4, 11), np.float64)
    for k in range(slots.shape[0]):
        _play_out(t, slots[k], depth, deck_numbers, know, played, kept, out[k])


@_lean
def _redeal_key(seed: np.uint64, leaf: int, rollout: int) -> np.uint64:
    """Where rollout ``rollout`` of leaf ``leaf``'s stream starts.  Mirrors
    ``parlour.batch.rollout.redeal_key``."""
    return _slot_stream(seed, leaf, rollout)


@_lean
def _redeal(t: Tables, g: int, seat: int) -> None:
    """Deal the cards ``seat`` cannot see afresh in match ``g`` (the opponent's cards not taken
    from a discard pile, then the draw pile's), from the stream in ``rng[g]``.  Mirrors
    ``parlour.batch.rollout.redeal`` (``hidden_places``: the same places in the same order)."""
    info = t.info
    hands = t.hands
    deals = t.deals
    their = 1 - seat
    on_pile = t.on_pile[g]
    r = info[g, ROUND]
    base = 2 * t.params[P_HAND]
    held = 0
    for i in range(info[g, HAND_LEN + their]):
        if not (on_pile >> np.int64(hands[g, their, i])) & 1:
            held += 1
    pos = info[g, STOCK_POS]
    places = held + t.params[P_DECK] - base - pos
    for i in range(places - 1, 0, -1):
        j = _below(t.rng, g, i + 1)
        a = _hidden_at(t, g, their, on_pile, held, base + pos, i)
        b = _hidden_at(t, g, their, on_pile, held, base + pos, j)
        if a >= 0:
            card_i = hands[g, their, a]
        else:
            card_i = deals[g, r, -1 - a]
        if b >= 0:
            card_j = hands[g, their, b]
        else:
            card_j = deals[g, r, -1 - b]
        if a >= 0:
            hands[g, their, a] = card_j
        else:
            deals[g, r, -1 - a] = card_j
        if b >= 0:
            hands[g, their, b] = card_i
        else:
            deals[g, r, -1 - b] = card_i


@_lean
def _hidden_at(t: Tables, g: int, their: int, on_pile: int, held: int, stock: int, k: int) -> int:
    """Where the ``k``-th hidden place of :func:`_redeal` is: an index of the opponent's hand,
    or −1 − the index in ``deals[g, round]`` of a draw-pile card."""
    if k >= held:
        return -1 - (stock + k - held)
    seen = 0
    for i in range(t.info[g, HAND_LEN + their]):
        if not (on_pile >> np.int64(t.hands[g, their, i])) & 1:
            if seen == k:
                return i
            seen += 1
    return -1


@_compiled
def _leaf_rollouts(t: Tables, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
                   seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
    """Each row's (:func:`position_row`, leaf ``leaves[k]``) round scores averaged over ``count``
    rollouts, each on the position with the cards ``seat`` cannot see dealt afresh, into
    ``out[k]``.  Mirrors ``parlour.batch.rollout.PythonLeafRollouts.run``."""
    deck_numbers = np.zeros(4, np.int64)
    _deck_numbers(t, deck_numbers)
    know = np.zeros(KNOWLEDGE, np.int64)
    played = np.zeros((4, 11), np.float64)
    kept = np.zeros((4, 11), np.float64)
    scores = np.zeros(2, np.float64)
    for k in range(rows.shape[0]):
        total0 = 0.0
        total1 = 0.0
        for rollout in range(count):
            _load(t, 0, rows[k])
            t.rng[0] = _redeal_key(seed, leaves[k], rollout)
            _redeal(t, 0, seat)
            _play_out(t, 0, depth, deck_numbers, know, played, kept, scores)
            total0 += scores[0]
            total1 += scores[1]
        out[k, 0] = total0 / count
        out[k, 1] = total1 / count


class MinusTwentyRollouts(CompiledRollouts):
    """The compiled rollout plug-in of the batched search (see :mod:`parlour.batch.rollout`): the
    same rollouts as ``PythonLeafRollouts`` with Minus Twenty's advice, in one compiled call."""

    game_name, state_type, own_advice, players = "Minus Twenty", mt.MinusTwentyState, advice.ADVICE, 2

    def make_tables(self, options: Mapping[str, Any], states: Sequence[Any]) -> Tables:
        tables: Tables = MinusTwentyBatch(1, 0, options)._t
        return tables

    def rows(self, tables: Tables, states: Sequence[Any]) -> npt.NDArray[np.int64]:
        return np.array([position_row(state, tables.hands.shape[2]) for state in states], np.int64)

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
    played: int = random_rounds(_legal_actions, _apply_in_order, t, TO_MOVE, slots, words, positions, 2,
                                log, made, legal)
    return played


MinusTwentyBatch.kernels = Kernels(_tables, _reset, _legal_mask, _step, _observe, _start_match_slot, _against_random,
                                    _random_rounds)
MinusTwentyBatch.plays_random_rounds = True
