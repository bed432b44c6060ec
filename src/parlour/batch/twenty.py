"""Twenty, compiled and batched: N matches in flat numpy arrays, one action per match in one call.

A second implementation of :mod:`parlour.games.twenty`, which stays the reference and the home
of every rule: each compiled function names the function of the rules engine it mirrors, and
``tests/batch/test_twenty.py`` replays the batched matches through the rules engine (same legal
moves at every step, same observations, same scores).

* Actions are the indices of ``space("twenty").actions``: ``play <card>`` by card code (0–51).
* A slot always holds a match with a player to move: when a round ends the next one is dealt at
  once (as the PettingZoo env does), and when the match ends the slot starts a new match from
  its seeded stream; :meth:`TwentyBatch.last_record` keeps the finished match until the slot's
  next step.
* Rewards (:meth:`TwentyBatch.step`): at the end of a match each seat gets its total less the
  other's (raw points: the PettingZoo env's ``reward="match"`` with ``reward_scale=1``); 0 before.
* Deals: slot i's k-th match is dealt from a splitmix64 stream seeded by (seed, i, k) alone
  (``first`` from it too, as ``new_match(seed=...)`` draws it), so a slot's matches do not depend
  on the others.  The rules engine's shuffles (Python's ``random``) are not reproduced: records
  carry their deals.
* Every option is a parameter of the compiled functions (the pack, ``hand_size``, ``hands``,
  ``rounds``, ``open_hands``): no recompilation per option.

numba is an optional extra (``parlour[fast]``); this package is the only one that imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from parlour import games
from parlour.batch.common import MIX2
from parlour.batch.common import below as _below
from parlour.batch.common import mix as _mix
from parlour.batch.common import slot_stream as _slot_stream
from parlour.batch.mt import below as _mt_below
from parlour.cards import ALL_CARDS
from parlour.games import twenty as tw

__all__ = ["TwentyBatch", "play_random"]

GAME_ID = "twenty"
NUM_ACTIONS = 52
CARDS = 52
HAND = tw.HAND
"""The most cards a hand holds (option ``hand_size`` is at most this)."""
TALLY = tw.MAX_TALLY + 1
"""The most cards on a tally: the most below 20, and the card that takes it to 20 or more."""
MOVES = CARDS - tw.REVEALED
"""The most moves in a round."""

# Card places (``loc``).
NOWHERE, HAND0, HAND1, ON_TALLY, ASIDE, REVEALED = 0, 1, 2, 3, 4, 5
"""Where a card is: in the stock or out of the pack, a seat's hand (HAND0 + seat), the tally,
set aside, revealed."""

# Per-match numbers (columns of ``g``).
(TO_MOVE, LAST, ROUND, FIRST, BONUS, DEALT, HLEN, TLEN, TVAL, SPOS, MCOUNT, SCORE, TOTAL,
 PLAYED, FIXED) = (0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 15, 17, 18)
"""Seat to move; last scorer (−1: none); round index; ``first``; End of Round Bonus; hands dealt
(2 columns); hand lengths (2); cards on the tally; its value; next stock card (index in the
round's deck); moves made this round; the round's scores (2); the finished rounds' totals (2);
matches the slot has finished; how many of the match's rounds, from round 1, were dealt as given
(:meth:`TwentyBatch.set_match`; the later ones from the stream)."""
FIELDS = 19

# Compiled parameters (``params``).
P_PACK, P_HAND, P_HANDS, P_ROUNDS, P_OPEN = 0, 1, 2, 3, 4

_LEAN: dict[str, Any] = {"cache": True, "_nrt": False}
"""numba's options for the loops of every decision (:func:`_random_matches`, :func:`_play`,
:func:`_against_random`, :func:`_random_rounds`): no reference counting (a flag numba's stubs do not
name), which cost each array view a step takes a count up and down (:func:`_play_random`'s loop ran
4.4 times faster without it); they allocate nothing (the copies are made element by element)."""


@numba.njit(cache=True, inline="always")
def _begin_round(i, g, hand, tally, loc, deals, params):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Set out round ``g[i, ROUND]`` from its deck ``deals[i, round]``: mirrors
    ``TwentyState._start_round`` (two revealed, a hand to each seat, the rest the stock; the
    round's starter: seat ``first`` in even rounds, the other seat in odd ones)."""
    r = g[i, ROUND]
    hs = params[P_HAND]
    deck = deals[i, r]
    for c in range(CARDS):
        loc[i, c] = NOWHERE
    a = deck[0]
    b = deck[1]
    loc[i, a] = REVEALED
    loc[i, b] = REVEALED
    va = min(a // 4 + 1, 10)
    vb = min(b // 4 + 1, 10)
    diff = abs(va - vb)
    g[i, BONUS] = diff if diff else 10
    for s in range(2):
        for k in range(hs):
            c = deck[2 + s * hs + k]
            hand[i, s, k] = c
            loc[i, c] = HAND0 + s
        g[i, HLEN + s] = hs
        g[i, DEALT + s] = 1
        g[i, SCORE + s] = 0
    g[i, SPOS] = 2 + 2 * hs
    g[i, TLEN] = 0
    g[i, TVAL] = 0
    g[i, MCOUNT] = 0
    g[i, LAST] = -1
    g[i, TO_MOVE] = g[i, FIRST] if r % 2 == 0 else 1 - g[i, FIRST]


@numba.njit(cache=True, inline="always")
def _deal_round(i, g, hand, tally, loc, deals, params, pack, rng):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Deal round ``g[i, ROUND]``: mirrors ``Twenty.random_deal`` (shuffle the pack; with
    ``open_hands``, every odd round replays the round before's deal with the hands exchanged)."""
    r = g[i, ROUND]
    n = params[P_PACK]
    hs = params[P_HAND]
    deck = deals[i, r]
    if r < g[i, FIXED]:  # dealt as given (TwentyBatch.set_match)
        pass
    elif params[P_OPEN] and r % 2 == 1:
        prev = deals[i, r - 1]
        for k in range(n):
            deck[k] = prev[k]
        for k in range(hs):
            deck[2 + k] = prev[2 + hs + k]
            deck[2 + hs + k] = prev[2 + k]
    else:
        for k in range(n):
            deck[k] = pack[k]
        for k in range(n - 1, 0, -1):
            j = _below(rng, i, k + 1)
            t = deck[k]
            deck[k] = deck[j]
            deck[j] = t
    _begin_round(i, g, hand, tally, loc, deals, params)


@numba.njit(cache=True, inline="always")
def _start_match(i, seed, g, hand, tally, loc, deals, params, pack, rng):  # type: ignore[no-untyped-def]  # pragma: no cover
    """A new match in slot i from its stream: mirrors ``Game.new_match(seed=...)`` (``first`` drawn,
    round 1 dealt)."""
    rng[i] = _slot_stream(seed, i, g[i, PLAYED])
    g[i, FIRST] = _below(rng, i, 2)
    g[i, FIXED] = 0
    g[i, ROUND] = 0
    g[i, TOTAL] = 0
    g[i, TOTAL + 1] = 0
    _deal_round(i, g, hand, tally, loc, deals, params, pack, rng)


@numba.njit(cache=True, inline="always")
def _score(i, g, seat, points):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Mirrors ``TwentyState._score``: points to ``seat``, who becomes the last scorer."""
    g[i, SCORE + seat] += points
    g[i, LAST] = seat


@numba.njit(cache=True, inline="always")
def _apply(i, c, g, hand, tally, loc, deals, moves, rscores, params):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Play card ``c`` for the seat to move: mirrors ``TwentyState.apply`` (Exact Twenty, Beyond
    Twenty and the tallies of five or more below 20; a new hand for the next seat when its hand
    is empty; the round's end and its End of Round Bonus).  The card must be in the hand.
    Returns 0, or 1 when the round ended (its scores added to the totals and kept)."""
    seat = g[i, TO_MOVE]
    n = g[i, HLEN + seat]
    n -= 1
    for k in range(n):  # the hand as a set: its last card takes the played card's place
        if hand[i, seat, k] == c:
            hand[i, seat, k] = hand[i, seat, n]
            break
    g[i, HLEN + seat] = n
    r = g[i, ROUND]
    moves[i, r, g[i, MCOUNT]] = c
    g[i, MCOUNT] += 1
    value = min(c // 4 + 1, 10) + g[i, TVAL]
    t = g[i, TLEN]
    tally[i, t] = c
    t += 1
    if value < 20:
        loc[i, c] = ON_TALLY
        g[i, TVAL] = value
        g[i, TLEN] = t
        if t >= 5:  # Five Tally, Six Tally, …
            _score(i, g, seat, 15 << (t - 5))
    else:  # Exact Twenty or Beyond Twenty: the tally is set aside
        _score(i, g, seat, 10 if value == 20 else value - 20)
        for k in range(t):
            loc[i, tally[i, k]] = ASIDE
        g[i, TLEN] = 0
        g[i, TVAL] = 0
    nxt = 1 - seat
    g[i, TO_MOVE] = nxt
    if g[i, HLEN + nxt] == 0:
        hs = params[P_HAND]
        if g[i, DEALT + nxt] < params[P_HANDS]:  # a new hand, when it is their turn
            pos = g[i, SPOS]
            deck = deals[i, r]
            for k in range(hs):
                card = deck[pos + k]
                hand[i, nxt, k] = card
                loc[i, card] = HAND0 + nxt
            g[i, SPOS] = pos + hs
            g[i, HLEN + nxt] = hs
            g[i, DEALT + nxt] += 1
        elif n == 0:  # both hands are empty and no more are dealt: the round is over
            scorer = g[i, LAST]
            if scorer >= 0:  # the End of Round Bonus
                _score(i, g, scorer, g[i, BONUS])
            for s in range(2):
                rscores[i, r, s] = g[i, SCORE + s]
                g[i, TOTAL + s] += g[i, SCORE + s]
            return 1
    return 0


@numba.njit(cache=True)
def _legal(g, loc, out):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The legal-action masks: mirrors ``TwentyState.legal_moves`` (the hand's cards) through the
    action table (``play <card>`` at the card's code)."""
    for i in range(g.shape[0]):
        mine = HAND0 + g[i, TO_MOVE]
        for c in range(CARDS):
            out[i, c] = loc[i, c] == mine


@numba.njit(cache=True)
def _step(actions, rewards, done, seed, g, hand, tally, loc, deals, moves, rscores, params, pack, rng,  # type: ignore[no-untyped-def]
          last_deals, last_moves, last_rscores, last_g):  # pragma: no cover
    """One action per slot (−1: leave that slot as it is): mirrors ``TwentyState.apply`` then, at a round's end,
    ``State.next_round`` (the PettingZoo env's deal of the next round), and at the match's end the
    env's ``reward="match"`` payment and a new match.  Returns −1, or the first slot whose action
    is not legal (then nothing is changed)."""
    n = g.shape[0]
    for i in range(n):
        a = actions[i]
        if a == -1:
            continue
        if a < 0 or a >= CARDS or loc[i, a] != HAND0 + g[i, TO_MOVE]:
            return i
    for i in range(n):
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        done[i] = False
        if actions[i] == -1:
            continue
        if _apply(i, actions[i], g, hand, tally, loc, deals, moves, rscores, params):
            if g[i, ROUND] + 1 < params[P_ROUNDS]:
                g[i, ROUND] += 1
                _deal_round(i, g, hand, tally, loc, deals, params, pack, rng)
            else:
                margin = g[i, TOTAL] - g[i, TOTAL + 1]
                rewards[i, 0] = margin
                rewards[i, 1] = -margin
                done[i] = True
                last_deals[i] = deals[i]
                last_moves[i] = moves[i]
                last_rscores[i] = rscores[i]
                last_g[i] = g[i]
                g[i, PLAYED] += 1
                _start_match(i, seed, g, hand, tally, loc, deals, params, pack, rng)
    return -1


@numba.njit(cache=True)
def _observe(seats, out, offs, g, loc, params):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Each slot's vector for ``seats[i]``: mirrors ``GameSpace._encode_directly`` with
    ``TwentySpace._from_state`` (offsets ``offs`` from the space's layout, values in the same
    float64 arithmetic rounded to float32).  A slot never rests at a finished round (the next is
    dealt at once), so the round-over and match-over flags stay 0."""
    (o_turn, _o_over, o_round, o_scores, o_totals, o_hand, o_other, o_open, o_revealed, o_tally, o_aside,
     o_scorer, o_starter, o_bonus, o_value, o_count, o_stock, o_sizes, o_dealt) = (
        offs[0], offs[1], offs[2], offs[3], offs[4], offs[5], offs[6], offs[7], offs[8], offs[9], offs[10],
        offs[11], offs[12], offs[13], offs[14], offs[15], offs[16], offs[17], offs[18])
    openh = params[P_OPEN]
    stock_size = params[P_PACK]
    for i in range(g.shape[0]):
        seat = seats[i]
        other = 1 - seat
        o = out[i]
        o[:] = 0.0
        o[o_turn + ((g[i, TO_MOVE] - seat) % 2)] = 1.0
        r = g[i, ROUND]
        o[o_round] = np.float32(r / 10)
        o[o_scores] = np.float32(g[i, SCORE + seat] / 100)
        o[o_scores + 1] = np.float32(g[i, SCORE + other] / 100)
        if r > 0:
            o[o_totals] = np.float32(g[i, TOTAL + seat] / 100)
            o[o_totals + 1] = np.float32(g[i, TOTAL + other] / 100)
        mine = HAND0 + seat
        theirs = HAND0 + other
        for c in range(CARDS):
            w = loc[i, c]
            if w == mine:
                o[o_hand + c] = 1.0
            elif w == theirs:
                if openh:
                    o[o_other + c] = 1.0
            elif w == REVEALED:
                o[o_revealed + c] = 1.0
            elif w == ON_TALLY:
                o[o_tally + c] = 1.0
            elif w == ASIDE:
                o[o_aside + c] = 1.0
        if openh:
            o[o_open] = 1.0
        if g[i, LAST] >= 0:
            o[o_scorer + (g[i, LAST] ^ seat)] = 1.0
        o[o_starter + (g[i, FIRST] ^ (r & 1) ^ seat)] = 1.0
        o[o_bonus] = np.float32(g[i, BONUS] / 10)
        o[o_value] = np.float32(g[i, TVAL] / 20)
        o[o_count] = np.float32(g[i, TLEN] / 10)
        o[o_stock] = np.float32((stock_size - g[i, SPOS]) / 40)
        o[o_sizes] = np.float32(g[i, HLEN + seat] / 5)
        o[o_sizes + 1] = np.float32(g[i, HLEN + other] / 5)
        o[o_dealt] = np.float32(g[i, DEALT + seat] / 10)
        o[o_dealt + 1] = np.float32(g[i, DEALT + other] / 10)


@numba.njit(cache=True)
def _play_random(games_n, seed, params, pack):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``games_n`` matches with uniformly random legal moves in one slot (the same compiled steps as
    :class:`TwentyBatch`: ``_start_match``, ``_apply``, ``_deal_round``, in :func:`_random_matches`);
    returns (decisions, the sum of every match's totals)."""
    rounds = params[P_ROUNDS]
    g = np.zeros((1, FIELDS), np.int64)
    hand = np.zeros((1, 2, HAND), np.int8)
    tally = np.zeros((1, TALLY), np.int8)
    loc = np.zeros((1, CARDS), np.int8)
    deals = np.zeros((1, rounds, CARDS), np.int8)
    moves = np.zeros((1, rounds, MOVES), np.int8)
    rscores = np.zeros((1, rounds, 2), np.int64)
    rng = np.zeros(1, np.uint64)
    pick = np.zeros(1, np.uint64)
    pick[0] = _mix(seed ^ MIX2)
    return _random_matches(games_n, seed, params, pack, g, hand, tally, loc, deals, moves, rscores, rng, pick)


@numba.njit(**_LEAN)
def _random_matches(games_n, seed, params, pack, g, hand, tally, loc, deals, moves, rscores, rng, pick):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The loop of :func:`_play_random` (each match: ``Game.new_match``, then ``TwentyState.apply`` and
    ``State.next_round`` to its end), without numba's reference counting (which cost it a count up and
    down on each array view a step takes): it allocates nothing."""
    rounds = params[P_ROUNDS]
    decisions = 0
    total = 0
    for m in range(games_n):
        g[0, PLAYED] = m
        _start_match(0, seed, g, hand, tally, loc, deals, params, pack, rng)
        while True:
            seat = g[0, TO_MOVE]
            c = hand[0, seat, _below(pick, 0, g[0, HLEN + seat])]
            decisions += 1
            if _apply(0, c, g, hand, tally, loc, deals, moves, rscores, params):
                if g[0, ROUND] + 1 < rounds:
                    g[0, ROUND] += 1
                    _deal_round(0, g, hand, tally, loc, deals, params, pack, rng)
                else:
                    total += g[0, TOTAL] + g[0, TOTAL + 1]
                    break
    return decisions, total


def _settings(options: Mapping[str, Any] | None) -> tuple[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[np.int8]]:
    """The options checked by the rules engine, the compiled parameters and the pack (card codes)."""
    values = games.get(GAME_ID).check_options(options)
    pack = np.array([int(c) for c in tw.GAME.deck(values)], dtype=np.int8)
    params = np.array([len(pack), values["hand_size"], values["hands"], values["rounds"],
                       1 if values["open_hands"] else 0], dtype=np.int64)
    return values, params, pack


def _seed64(seed: int) -> np.uint64:
    return np.uint64(seed % (1 << 64))


class TwentyBatch:
    """``n`` matches of Twenty in flat arrays (see the module docstring).

    ``g`` holds each match's numbers (columns ``TO_MOVE`` … ``FIXED``), ``loc`` where each card is,
    ``hand`` the hands (as sets: the order is not the rules engine's), ``deals`` and ``moves`` each
    round's deck (revealed, hand 0, hand 1, stock) and the card codes played, for the records.
    """

    game_id = GAME_ID
    players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, n: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        if n < 1:
            raise ValueError(f"a batch holds at least one match, not {n}")
        self.n = n
        self.seed = seed
        self.options, self.params, self.pack = _settings(options)
        rounds = self.options["rounds"]
        self.g = np.zeros((n, FIELDS), np.int64)
        self.hand = np.zeros((n, 2, HAND), np.int8)
        self.tally = np.zeros((n, TALLY), np.int8)
        self.loc = np.zeros((n, CARDS), np.int8)
        self.deals = np.zeros((n, rounds, CARDS), np.int8)
        self.moves = np.zeros((n, rounds, MOVES), np.int8)
        self.rscores = np.zeros((n, rounds, 2), np.int64)
        self.rng = np.zeros(n, np.uint64)
        self.last_deals = np.zeros_like(self.deals)
        self.last_moves = np.zeros_like(self.moves)
        self.last_rscores = np.zeros_like(self.rscores)
        self.last_g = np.zeros_like(self.g)
        self._finished = np.zeros(n, bool)
        self._rewards = np.zeros((n, 2), np.float32)
        self._done = np.zeros(n, bool)
        self._mask = np.zeros((n, NUM_ACTIONS), bool)
        self._offsets: npt.NDArray[np.int64] | None = None
        self._sorted_pack: list[Any] | None = None
        """The options' pack in card order (made at the first :meth:`set_match`)."""
        self.reset()

    def reset(self) -> None:
        """Deal a new match in every slot from the seeded stream (slot i's k-th match depends only on
        (seed, i, k); a reset starts every slot's count again)."""
        self.g[:] = 0
        self._finished[:] = False
        _reset_all(_seed64(self.seed), self.g, self.hand, self.tally, self.loc, self.deals, self.params,
                   self.pack, self.rng)

    def load(self, i: int, record: Mapping[str, Any]) -> None:
        """Start slot i's match again from a parlour-record/1 record's ``first`` and deals (its moves
        are for the caller to step); the record's options must be the batch's (:meth:`set_match`)."""
        from parlour import record as rec

        match = rec.from_data(record)
        if match.options != self.options:
            raise ValueError(f"the record's options {match.options} are not the batch's {self.options}")
        if len(match.rounds) != self.options["rounds"]:
            raise ValueError(f"the record holds {len(match.rounds)} rounds, the match {self.options['rounds']}")
        self.set_match(i, match.first, [played.deal for played in match.rounds])

    def set_match(self, i: int, first: int, deals: Sequence[Mapping[str, Any]]) -> None:
        """Restart match ``i`` with ``first`` to play first and the given deals (a record's ``deal``
        objects, of cards, one a round from round 1, each checked as ``Twenty.check_deal`` checks
        it); later rounds come from the slot's stream (with ``open_hands``, an odd round not given
        replays the round before's deal with the hands exchanged, as ``Twenty.random_deal`` does).
        The hands are then in the deal's order, which :meth:`random_rounds` keeps."""
        from parlour.game import check_deck

        if not 0 <= i < self.n:
            raise IndexError(f"no match {i} in a batch of {self.n}")
        if first not in (0, 1):
            raise ValueError(f"first must be a seat from 0 to 1, not {first}")
        rounds = self.options["rounds"]
        if len(deals) > rounds:
            raise ValueError(f"a match of these options lasts {rounds} round(s), not {len(deals)}")
        hs = self.options["hand_size"]
        if self._sorted_pack is None:
            self._sorted_pack = sorted(tw.GAME.deck(self.options))
        pack = self._sorted_pack
        decks: list[list[Any]] = []
        for r, deal in enumerate(deals):
            revealed, hands, stock = deal["revealed"], deal["hands"], deal["stock"]
            if len(revealed) != tw.REVEALED:
                raise ValueError(f"deal of round {r + 1}: revealed must hold {tw.REVEALED} cards, not {len(revealed)}")
            if len(hands) != 2 or len(hands[0]) != hs or len(hands[1]) != hs:
                raise ValueError(f"deal of round {r + 1}: hands must be two hands of {hs} cards")
            deck = [*revealed, *hands[0], *hands[1], *stock]
            if sorted(deck) != pack:
                check_deck(deck, pack, "Twenty", f"round {r + 1}")
                raise ValueError(f"deal of round {r + 1}: not the {len(pack)}-card pack")  # pragma: no cover
            if r % 2 == 1 and self.options["open_hands"]:
                before = decks[r - 1]
                if deck != [*before[:2], *before[2 + hs:2 + 2 * hs], *before[2:2 + hs], *before[2 + 2 * hs:]]:
                    raise ValueError(f"deal of round {r + 1}: with open_hands, it must be round {r}'s deal with "
                                     "the hands exchanged")
            decks.append(deck)
        size = len(pack)
        for r, deck in enumerate(decks):  # card codes 0-51: bytes() takes them as they are
            self.deals[i, r, :size] = np.frombuffer(bytes(deck), np.int8)
        _set_match(i, first, len(decks), self.g, self.hand, self.tally, self.loc, self.deals, self.params, self.pack,
                   self.rng)
        self._finished[i] = False

    def legal_actions(self, i: int) -> list[int]:
        """Match ``i``'s legal actions in the rules engine's order (``TwentyState.legal_moves``: the hand
        to move, as held), which the hands keep from :meth:`set_match` on while only :meth:`random_rounds`
        plays (:meth:`step` keeps each hand as a set)."""
        seat = int(self.g[i, TO_MOVE])
        return [int(c) for c in self.hand[i, seat, :self.g[i, HLEN + seat]]]

    plays_random_rounds = True
    """:meth:`random_rounds` plays (the legal actions in the rules engine's order, for
    :mod:`parlour.batch.arena`)."""

    def random_rounds(self, slots: npt.NDArray[np.int64], words: npt.NDArray[np.uint32],
                      positions: npt.NDArray[np.int64], log: npt.NDArray[np.int64], made: npt.NDArray[np.int64]) -> int:
        """The lab's random bots play the round in play of each match ``slots[s]`` to its end, in one
        compiled call (:func:`parlour.batch.arena.random_rounds`, which says what the arguments hold:
        generator ``slots[s] * 2 + seat``, the actions into ``log``, their count into ``made``; returns
        how many slots finished their round).  A round's end is not followed by the next deal."""
        played: int = _random_rounds(slots, words, positions, log, made, self.g, self.hand, self.tally, self.loc,
                                     self.deals, self.moves, self.rscores, self.params)
        return played

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(n, 52) bool in the order of ``space("twenty").actions``: the cards of the hand to move."""
        _legal(self.g, self.loc, self._mask)
        return self._mask.copy()

    def to_move(self) -> npt.NDArray[np.int64]:
        """The seat to move in each slot."""
        return self.g[:, TO_MOVE].copy()

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Make one action in every slot; return the rewards (n, 2) float32 (each seat's total less
        the other's, raw points, at a match's end; 0 otherwise) and the done flags (n,).  A finished
        match's slot is dealt a new one at once (its record: :meth:`last_record`).  The action −1
        leaves a slot as it is (for a caller that moves some seats only).  An illegal action raises
        ValueError and changes nothing."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.n,):
            raise ValueError(f"step takes one action per match: shape ({self.n},), not {acts.shape}")
        bad = _step(acts, self._rewards, self._done, _seed64(self.seed), self.g, self.hand, self.tally, self.loc,
                    self.deals, self.moves, self.rscores, self.params, self.pack, self.rng, self.last_deals,
                    self.last_moves, self.last_rscores, self.last_g)
        if bad >= 0:
            raise ValueError(f"match {bad}: action {int(acts[bad])} is not a legal move "
                             f"(legal: {np.flatnonzero(self.legal_mask()[bad]).tolist()})")
        self._finished = self._done.copy()
        return self._rewards.copy(), self._done.copy()

    def observe(self, seat: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """(n, 282) float32: each slot's vector for ``seat`` (a seat for all, or one per slot), as
        ``space("twenty").encode_state(state, seat)`` gives it for the same position."""
        if self._offsets is None:
            self._offsets = _space_offsets()
        seats = np.broadcast_to(np.asarray(seat, dtype=np.int64), (self.n,)).copy()
        if ((seats < 0) | (seats > 1)).any():
            raise ValueError("seats are 0 or 1 in Twenty")
        out = np.empty((self.n, int(self._offsets[-1])), np.float32)  # _observe zeroes each row
        _observe(seats, out, self._offsets, self.g, self.loc, self.params)
        return out

    def record(self, i: int) -> dict[str, Any]:
        """Slot i's match so far as parlour-record/1 data (explicit deals; the round in play without
        scores), as ``parlour.record.to_data`` writes it."""
        return self._record(self.g[i], self.deals[i], self.moves[i], self.rscores[i], int(self.g[i, ROUND]),
                            int(self.g[i, MCOUNT]), over=False)

    def last_record(self, i: int) -> dict[str, Any]:
        """The match slot i finished at the last step (only until its next step)."""
        if not self._finished[i]:
            raise ValueError(f"match {i} did not finish at the last step")
        g = self.last_g[i]
        rounds = self.options["rounds"]
        per_round = 2 * self.options["hands"] * self.options["hand_size"]
        return self._record(g, self.last_deals[i], self.last_moves[i], self.last_rscores[i], rounds - 1,
                            per_round, over=True)

    def _record(self, g: npt.NDArray[np.int64], deals: npt.NDArray[np.int8], moves: npt.NDArray[np.int8],
                rscores: npt.NDArray[np.int64], last: int, made: int, *, over: bool) -> dict[str, Any]:
        hs = self.options["hand_size"]
        size = len(self.pack)
        per_round = 2 * self.options["hands"] * hs
        names = [str(c) for c in ALL_CARDS[:CARDS]]
        rounds: list[dict[str, Any]] = []
        totals = [0, 0]
        for r in range(last + 1):
            deck = [names[c] for c in deals[r, :size]]
            finished = r < last or over
            count = per_round if r < last else made
            item: dict[str, Any] = {
                "deal": {"revealed": deck[:2], "hands": [deck[2:2 + hs], deck[2 + hs:2 + 2 * hs]],
                         "stock": deck[2 + 2 * hs:]},
                "moves": [f"play {names[c]}" for c in moves[r, :count]],
            }
            if finished:
                item["scores"] = [int(rscores[r, 0]), int(rscores[r, 1])]
                totals = [totals[0] + item["scores"][0], totals[1] + item["scores"][1]]
            rounds.append(item)
        game = games.get(GAME_ID)
        return {"format": "parlour-record/1", "game": GAME_ID, "options": game.non_default_options(self.options),
                "players": ["Player 1", "Player 2"], "first": int(g[FIRST]), "rounds": rounds, "totals": totals}

    def step_against_random(self, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                            chooser: npt.NDArray[np.uint64], scale: float, rewards: npt.NDArray[np.float32],
                            done: npt.NDArray[np.bool_], obs: npt.NDArray[np.float32],
                            mask: npt.NDArray[np.bool_]) -> None:
        """The learner's ``actions`` (−1: none), then uniformly random legal moves for the other seat
        until it is ``seats[i]``'s turn in every slot, all in one compiled call (the step of
        :class:`parlour.batch.vector.BatchVectorEnv`).  ``chooser`` is each slot's stream of the
        opponents' choices (advanced in place); into the caller's arrays go the learner's reward
        (its :meth:`step` payment times ``scale``, where a match ended), whether a match ended, the
        learner's observations and legal masks.  An illegal action raises ValueError and changes
        nothing."""
        if self._offsets is None:
            self._offsets = _space_offsets()
        rows = (actions, seats, chooser, rewards, done)
        if any(a.shape != (self.n,) for a in rows) or obs.shape != (self.n, int(self._offsets[-1])) or \
                mask.shape != (self.n, NUM_ACTIONS):
            raise ValueError("step_against_random takes one row a match of each array")
        if ((seats < 0) | (seats > 1)).any():
            raise ValueError("seats are 0 to 1")
        bad = _against_random(actions, seats, chooser, np.float32(scale), rewards, done, obs, mask, self._offsets,
                              _seed64(self.seed), self.g, self.hand, self.tally, self.loc, self.deals, self.moves,
                              self.rscores, self.params, self.pack, self.rng, self.last_deals, self.last_moves,
                              self.last_rscores, self.last_g)
        if bad >= 0:
            raise ValueError(f"match {bad}: action {int(actions[bad])} is not a legal move "
                             f"(legal: {np.flatnonzero(self.legal_mask()[bad]).tolist()})")
        self._finished = done.copy()


@numba.njit(cache=True)
def _reset_all(seed, g, hand, tally, loc, deals, params, pack, rng):  # type: ignore[no-untyped-def]  # pragma: no cover
    """A new match in every slot (:func:`_start_match`)."""
    for i in range(g.shape[0]):
        _start_match(i, seed, g, hand, tally, loc, deals, params, pack, rng)


def _space_offsets() -> npt.NDArray[np.int64]:
    """The offsets of the space's blocks that :func:`_observe` writes, and its size last."""
    from parlour.envs.spaces import space

    sp = space(GAME_ID)
    offsets = {segment.name: segment.offset for segment in sp.layout()}
    names = ("to_move", "over", "round", "scores", "totals", "hand", "other_hand", "open_hands", "revealed", "tally",
             "set_aside", "last_scorer", "starter", "bonus", "tally_value", "tally_cards", "stock_count", "hand_sizes",
             "hands_dealt")
    return np.array([offsets[name] for name in names] + [sp.obs_shape[0]], dtype=np.int64)


def play_random(n: int, seed: int, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Play ``n`` matches with uniformly random legal moves in one compiled call; return (decisions,
    the sum of every match's totals)."""
    _, params, pack = _settings(options)
    decisions, total = _play_random(n, _seed64(seed), params, pack)
    return int(decisions), int(total)


# -- the learner against random opponents (parlour.batch.vector) ------------------------------------

@numba.njit(**_LEAN)
def _play(i, c, seed, g, hand, tally, loc, deals, moves, rscores, params, pack, rng,  # type: ignore[no-untyped-def]
          last_deals, last_moves, last_rscores, last_g):  # pragma: no cover
    """Card ``c`` for the seat to move in slot ``i``, then the next round or, at the match's end, a
    new match (the finished one kept for :meth:`TwentyBatch.last_record`): one slot of :func:`_step`.
    Returns (whether the match ended, seat 0's margin)."""
    if _apply(i, c, g, hand, tally, loc, deals, moves, rscores, params):
        if g[i, ROUND] + 1 < params[P_ROUNDS]:
            g[i, ROUND] += 1
            _deal_round(i, g, hand, tally, loc, deals, params, pack, rng)
        else:
            margin = g[i, TOTAL] - g[i, TOTAL + 1]
            for r in range(deals.shape[1]):  # element by element: a slice assignment would allocate
                for k in range(CARDS):
                    last_deals[i, r, k] = deals[i, r, k]
                for k in range(MOVES):
                    last_moves[i, r, k] = moves[i, r, k]
                for k in range(2):
                    last_rscores[i, r, k] = rscores[i, r, k]
            for k in range(FIELDS):
                last_g[i, k] = g[i, k]
            g[i, PLAYED] += 1
            _start_match(i, seed, g, hand, tally, loc, deals, params, pack, rng)
            return True, margin
    return False, 0


@numba.njit(**_LEAN)
def _against_random(actions, seats, chooser, scale, rewards, done, obs, mask, offs, seed, g, hand, tally, loc,  # type: ignore[no-untyped-def]
                    deals, moves, rscores, params, pack, rng, last_deals, last_moves, last_rscores,
                    last_g):  # pragma: no cover
    """The learner's card in every slot (−1: none), then the other seat's uniformly random cards
    (drawn from ``chooser``) until it is ``seats[i]``'s turn (again); the learner's reward (``scale``
    times what :func:`_step` pays its seat) and the done flags into ``rewards`` and ``done``, its
    observations and legal masks into ``obs`` and ``mask``.  Returns −1, or the first slot whose
    action is not legal (then nothing is changed).  Mirrors :func:`_step` and :func:`_play_random`
    (``TwentyState.apply``), then :func:`_observe` and :func:`_legal`."""
    n = g.shape[0]
    for i in range(n):
        a = actions[i]
        if a == -1:
            continue
        if a < 0 or a >= CARDS or loc[i, a] != HAND0 + g[i, TO_MOVE]:
            return i
    for i in range(n):
        rewards[i] = 0.0
        done[i] = False
        seat = seats[i]
        if actions[i] != -1:
            over, margin = _play(i, actions[i], seed, g, hand, tally, loc, deals, moves, rscores, params, pack,
                                 rng, last_deals, last_moves, last_rscores, last_g)
            if over:
                rewards[i] += np.float32(margin if seat == 0 else -margin) * scale
                done[i] = True
        while g[i, TO_MOVE] != seat:
            mover = g[i, TO_MOVE]
            c = hand[i, mover, _below(chooser, i, g[i, HLEN + mover])]
            over, margin = _play(i, c, seed, g, hand, tally, loc, deals, moves, rscores, params, pack, rng,
                                 last_deals, last_moves, last_rscores, last_g)
            if over:
                rewards[i] += np.float32(margin if seat == 0 else -margin) * scale
                done[i] = True
    _legal(g, loc, mask)
    _observe(seats, obs, offs, g, loc, params)
    return -1


# -- the lab's random bots (parlour.batch.arena) ---------------------------------------------------

_INLINED: dict[str, Any] = {**_LEAN, "inline": "always"}
"""numba's options for :func:`_apply_in_order`: :data:`_LEAN`, inlined into its caller."""


@numba.njit(cache=True)
def _set_match(i, first, given, g, hand, tally, loc, deals, params, pack, rng):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Slot i's match again, seat ``first`` first and its first ``given`` rounds dealt as ``deals[i]``
    holds them: mirrors ``Game.new_match(first=..., deal=...)`` (round 1 dealt, through
    :func:`_deal_round`: ``TwentyState._start_round``)."""
    g[i, FIRST] = first
    g[i, FIXED] = given
    g[i, ROUND] = 0
    g[i, TOTAL] = 0
    g[i, TOTAL + 1] = 0
    _deal_round(i, g, hand, tally, loc, deals, params, pack, rng)


@numba.njit(**_INLINED)
def _apply_in_order(i, c, g, hand, tally, loc, deals, moves, rscores, params):  # type: ignore[no-untyped-def]  # pragma: no cover
    """:func:`_apply`, the mover's hand kept in the rules engine's order: mirrors ``TwentyState.apply``'s
    ``del hand[index]`` (the cards after the played one move up a place; :func:`_apply` then finds it
    last).  New hands come in the stock's order, as the rules engine deals them."""
    seat = g[i, TO_MOVE]
    last = g[i, HLEN + seat] - 1
    at = 0
    while hand[i, seat, at] != c:
        at += 1
    for k in range(at, last):
        hand[i, seat, k] = hand[i, seat, k + 1]
    hand[i, seat, last] = c
    return _apply(i, c, g, hand, tally, loc, deals, moves, rscores, params)


@numba.njit(**_LEAN)
def _random_rounds(slots, words, positions, log, made, g, hand, tally, loc, deals, moves, rscores,  # type: ignore[no-untyped-def]
                   params):  # pragma: no cover
    """The lab's random bots (``RandomBot.choose``: ``rng.choice(state.legal_moves())``) play the round
    in play of each slot ``slots[s]`` to its end: mirrors :func:`parlour.batch.arena.random_rounds`
    (the same arguments, ``log``/``made`` and count returned), with ``TwentyState.legal_moves`` (the
    hand to move, in its order) and ``TwentyState.apply`` (:func:`_apply_in_order`)."""
    most = log.shape[1]
    for s in range(slots.shape[0]):
        i = slots[s]
        k = 0
        while True:
            if k == most:
                made[s] = k
                return s
            seat = g[i, TO_MOVE]
            c = hand[i, seat, _mt_below(words, positions, i * 2 + seat, g[i, HLEN + seat])]
            log[s, k] = c
            k += 1
            if _apply_in_order(i, c, g, hand, tally, loc, deals, moves, rscores, params):
                break
        made[s] = k
    return slots.shape[0]
