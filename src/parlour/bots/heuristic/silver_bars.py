"""100 Silver Bars, as a sound club player plays it.

* Build vaults upwards: open a vault with a low bar (an ace or a two leaves
  room for every bar above it), put a miner on a bar only when a higher bar
  can follow, and put the highest bar that fits on a miner.
* Lock at sensible values: a vault worth 9 or more is worth protecting from
  thieves; as the draw pile runs low, lock everything that holds bars —
  unlocked vaults ship nothing.
* Lock out to end a round you lead: the fifth lock ends the round at once.
* Thieve when it pays: a thief is worth the bar it moves (you gain it, they
  lose it).  Strike when the opponent has miners showing (each is lost) —
  the lost turn alone makes a strike worth playing.
* Rubble an opponent's empty vault; shovel your own when you have a bar for it.
* Discard what you cannot use: a miner with nowhere to go, a bar too low for
  every vault, rubble with no empty vault to bury.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.heuristic import Advice
from parlour.cards import Card
from parlour.game import Move, Observation, State
from parlour.games.silver_bars import (
    BAR,
    BAR_TOP,
    BAR_VALUE,
    BAR_VALUES,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCKED,
    LOCKS,
    MINER,
    MINER_TOP,
    RUBBLE,
    RUBBLED,
    SHOVEL,
    STRIKE,
    SilverBarsState,
    vault_bars,
    vault_state,
)
from parlour.games.silver_bars.tables import F_EMPTY, F_RUBBLE, F_TOP_BAR, F_TOP_MINER, F_TOP_VALUE, FEAT, FILL

LOCK_AT = 9
"""A vault worth this much is locked without waiting."""

# The advice reads a position as the engine keeps it, move by move (see
# ``parlour.games.silver_bars.tables``): each vault's state code and silver bars, and each
# seat's ``fill`` and ``feat`` bits, so a rollout recomputes nothing.  The bits it asks:
_TOP_BAR = 31 << (5 * F_TOP_BAR)
"""``fill``: unlocked vaults with a silver bar on top (lockable now)."""
_OPEN_BELOW_SIX = sum(31 << (5 * (F_TOP_VALUE + BAR_VALUES.index(v))) for v in (1, 2, 3, 4))
"""``feat``: unlocked vaults with a bar of 1, 2, 3 or 4 on top (room for a miner and a higher bar)."""
_EMPTY = 31 << (5 * F_EMPTY)
"""``feat``: empty vaults (rubble goes there)."""
_RUBBLE = 31 << (5 * F_RUBBLE)
"""``feat``: vaults under rubble (a shovel clears them)."""
_TOP_MINER = 31 << (5 * F_TOP_MINER)
"""``feat``: unlocked vaults with a miner on top (a strike sends each to the discard pile)."""
KEEP_BAR = [1.0 + BAR_VALUE[c] / 2 for c in range(len(BAR_VALUE))]
"""What keeping each silver bar may be worth later (what discarding it gives up)."""


class Seen:
    """The vaults as an observation shows them, in the terms the engine keeps them in
    (the attributes the advice reads of a :class:`SilverBarsState`)."""

    __slots__ = ("bars", "feat", "fill", "vstate")

    def __init__(self, vaults: Sequence[Sequence[dict[str, object]]]) -> None:
        self.vstate: list[list[int]] = []
        self.bars: list[list[int]] = []
        self.fill: list[int] = []
        self.feat: list[int] = []
        for seat in vaults:
            cards = [[Card.parse(c) for c in v["cards"]] for v in seat]  # type: ignore[attr-defined]
            states = [vault_state(c, v["rubble"] is not None, bool(v["locked"])) for c, v in zip(cards, seat)]
            self.vstate.append(states)
            self.bars.append([vault_bars(c) for c in cards])
            self.fill.append(sum(FILL[state] << i for i, state in enumerate(states)))
            self.feat.append(sum(FEAT[state] << i for i, state in enumerate(states)))


Position = SilverBarsState | Seen
"""What the advice reads: a state (the rollout), or the vaults of an observation."""


def locked_bars(position: Position, seat: int) -> int:
    """The silver bars in ``seat``'s locked vaults (as good as shipped)."""
    return sum(bars for state, bars in zip(position.vstate[seat], position.bars[seat]) if state == LOCKED)


def keeping(position: Position, seat: int) -> tuple[float, ...]:
    """How much keeping a card of each kind may be worth later (what discarding it gives
    up), by kind: a silver bar by its value (``KEEP_BAR``); a miner if a vault has a bar
    below 6 on top; rubble if the opponent has an empty vault; a shovel if a vault of
    one's own is under rubble; a strike or a thief always."""
    own, theirs = position.feat[seat], position.feat[1 - seat]
    return (  # in the order of the kinds' codes (the tests hold the advice to the cards' own reading)
        0.0,  # BAR: by its value, KEEP_BAR
        1.0 if own & _OPEN_BELOW_SIX else 0.2,  # MINER
        1.0 if theirs & _EMPTY else 0.3,  # RUBBLE
        1.0 if own & _RUBBLE else 0.2,  # SHOVEL
        1.5, 1.5, 1.5,  # STRIKE, LO_THIEF, HI_THIEF
    )


def best_move(legal: Sequence[Move], position: Position, seat: int, hand: Sequence[Card], stock: int,
              locks_left: int) -> Move:
    """The advised move among the legal moves (the first of equals, so the choice is
    reproducible), each judged in rough points:

    * discard: minus what keeping the card may be worth (:func:`keeping`), minus ½;
    * a silver bar: 2 + its value, or into an empty vault 2 + 0.4 for each step below 6;
    * a miner: 2.5 on a bar below 6 when the hand holds a higher bar, else 0.8; -3 on a 6;
    * rubble 2.5; a shovel 2.5 with a bar in hand, else 0.5; a thief 1.5 × the bar it
      moves + 1; a strike 2 for each miner it sends away + 1.5;
    * a lock: its bars + 30 when it locks out a lead of more than 4, + 20 when the turns
      left are not more than the vaults waiting to be locked + 1, else its bars − 8.5.
    """
    own = position.vstate[seat]
    theirs = position.vstate[1 - seat]
    turns_left = stock / 2
    keep = keeping(position, seat)
    highest = -1  # the highest silver bar in hand (0: none), once a move asks
    best, best_value = legal[0], -1e9
    for move in legal:
        verb, args = move
        if verb == "discard":
            kind = KIND[args[0]]  # type: ignore[index]
            value = -(KEEP_BAR[args[0]] if kind == BAR else keep[kind]) - 0.5  # type: ignore[index]
        elif verb == "play":
            card: Card = args[0]  # type: ignore[assignment]
            kind = KIND[card]
            if kind == BAR:
                bar = BAR_VALUE[card]
                value = 2.0 + (6 - bar) * 0.4 if own[args[1] - 1] <= RUBBLED else 2.0 + bar  # type: ignore[operator]
            elif kind == MINER:
                under = own[args[1] - 1] - BAR_TOP  # type: ignore[operator]  # a miner goes on a bar
                if highest < 0:
                    highest = max(map(BAR_VALUE.__getitem__, hand))
                value = (2.5 if highest > under else 0.8) if under < 6 else -3.0
            elif kind == RUBBLE:
                value = 2.5
            elif kind == SHOVEL:
                if highest < 0:
                    highest = max(map(BAR_VALUE.__getitem__, hand))
                value = 2.5 if highest else 0.5
            elif kind == LO_THIEF or kind == HI_THIEF:
                stolen = theirs[args[1] - 1] - BAR_TOP  # type: ignore[operator]  # a thief takes a top bar
                value = 1.5 * stolen + 1.0
            elif kind == STRIKE:
                value = 2.0 * (position.feat[1 - seat] & _TOP_MINER).bit_count() + 1.5
            else:
                value = 0.0
        elif verb == "lock":
            bars = position.bars[seat][args[0] - 1]  # type: ignore[operator]
            if locks_left == 1 and locked_bars(position, seat) + bars > locked_bars(position, 1 - seat) + 4:
                value = 30.0 + bars  # lock out while ahead
            elif turns_left <= (position.fill[seat] & _TOP_BAR).bit_count() + 1:
                value = 20.0 + bars
            else:
                value = bars - LOCK_AT + 0.5
        else:
            value = 0.0
        if value > best_value:
            best, best_value = move, value
    return best


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    hand = [Card.parse(c) for c in observation["hand"]]
    return best_move(legal, Seen(observation["vaults"]), seat, hand, observation["stock_count"],
                     observation["locks_left"][seat])


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, SilverBarsState)
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    return best_move(legal, state, seat, state.hands[seat], len(state.stock) - state.stock_pos,
                     LOCKS - state.locked[seat])


ROLLOUT_DEPTH = 16
"""Search rollouts play eight turns of each player, then :func:`evaluate`
judges the position: whole rounds played out by the advice are far noisier."""
OPEN_VAULT_WORTH = (0.6, 0.4)
"""The share of an unlocked vault's bars expected to ship: top card a bar
(lockable now) or a miner (needs another bar first)."""


def evaluate(state: State) -> list[float]:
    """Each player's expected shipment: locked bars in full, unlocked ones in part."""
    assert isinstance(state, SilverBarsState)
    values = []
    for seat in (0, 1):
        total = 0.0
        for code, bars in zip(state.vstate[seat], state.bars[seat]):
            if code == LOCKED:
                total += bars
            elif code >= BAR_TOP:  # cards in it
                total += bars * OPEN_VAULT_WORTH[0 if code < MINER_TOP else 1]
        values.append(total)
    return values


START = "vault"
"""What :func:`starts` counts, in the game's own word."""


def starts(state: State, seat: int) -> int:
    """How many of ``seat``'s vaults hold cards this round (a measure of the advice: only
    vaults that are filled and locked ship anything)."""
    assert isinstance(state, SilverBarsState)
    return sum(1 for vault in state.vaults[seat] if vault)


ADVICE = Advice(choose=choose, rollout=rollout, evaluate=evaluate, rollout_depth=ROLLOUT_DEPTH,
                starts=starts, start=START)
"""This game's advice, as its registry entry names it."""
