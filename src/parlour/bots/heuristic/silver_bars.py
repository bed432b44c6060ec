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
from typing import NamedTuple

from parlour.bots.heuristic import Advice
from parlour.cards import Card
from parlour.game import Move, Observation, State
from parlour.games.silver_bars import (
    BAR,
    BAR_VALUE,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCKED,
    MINER,
    RUBBLE,
    SHOVEL,
    STRIKE,
    SilverBarsState,
)

LOCK_AT = 9
"""A vault worth this much is locked without waiting."""


class Vault(NamedTuple):
    """What the advice needs to know of a vault."""

    cards: Sequence[Card]
    rubble: bool
    locked: bool


def bars(vault: Vault) -> int:
    """The value of every bar in a vault."""
    return sum(BAR_VALUE[c] for c in vault.cards)


def top_bar(vault: Vault) -> int:
    """The value of the vault's top card if it is a bar, else 0."""
    return BAR_VALUE[vault.cards[-1]] if vault.cards and KIND[vault.cards[-1]] == BAR else 0


def floor_under_miner(vault: Vault) -> int:
    """The bar a new bar must beat, when the vault's top card is a miner (else -1)."""
    if vault.cards and KIND[vault.cards[-1]] == MINER:
        return BAR_VALUE[vault.cards[-2]]
    return -1


def move_value(move: Move, mine: Sequence[Vault], theirs: Sequence[Vault], hand: Sequence[Card],
               stock: int, locks_left: int) -> float:
    """How much the advice likes ``move``, in rough points."""
    verb, args = move
    turns_left = stock / 2
    if verb == "resolve":
        return 0.0
    if verb == "lock":
        vault = mine[args[0] - 1]  # type: ignore[operator]
        value = bars(vault)
        with_bars = sum(1 for v in mine if not v.locked and top_bar(v))
        locked_mine = sum(bars(v) for v in mine if v.locked) + value
        locked_theirs = sum(bars(v) for v in theirs if v.locked)
        if locks_left == 1 and locked_mine > locked_theirs + 4:
            return 30.0 + value  # lock out while ahead
        if turns_left <= with_bars + 1:
            return 20.0 + value
        return value - LOCK_AT + 0.5
    card: Card = args[0]  # type: ignore[assignment]
    kind = KIND[card]
    if verb == "discard":
        return -usefulness(card, mine, theirs, hand) - 0.5
    if kind == BAR:
        vault = mine[args[1] - 1]  # type: ignore[operator]
        value = BAR_VALUE[card]
        if not vault.cards:
            return 2.0 + (6 - value) * 0.4
        return 2.0 + value
    if kind == MINER:
        vault = mine[args[1] - 1]  # type: ignore[operator]
        under = top_bar(vault)
        higher = any(KIND[c] == BAR and BAR_VALUE[c] > under for c in hand)
        return (2.5 if higher else 0.8) if under < 6 else -3.0
    if kind == RUBBLE:
        return 2.5
    if kind == SHOVEL:
        return 2.5 if any(KIND[c] == BAR for c in hand) else 0.5
    if kind in (LO_THIEF, HI_THIEF):
        vault = theirs[args[1] - 1]  # type: ignore[operator]
        stolen = top_bar(vault)
        return 1.5 * stolen + 1.0
    if kind == STRIKE:
        miners = sum(1 for v in theirs if not v.locked and v.cards and KIND[v.cards[-1]] == MINER)
        return 2.0 * miners + 1.5
    return 0.0


def usefulness(card: Card, mine: Sequence[Vault], theirs: Sequence[Vault], hand: Sequence[Card]) -> float:
    """How much keeping ``card`` may be worth later (what discarding it gives up)."""
    kind = KIND[card]
    open_vaults = [v for v in mine if not v.locked]
    if kind == BAR:
        return 1.0 + BAR_VALUE[card] / 2
    if kind == MINER:
        return 1.0 if any(0 < top_bar(v) < 6 for v in open_vaults) else 0.2
    if kind == RUBBLE:
        return 1.0 if any(not v.cards and not v.rubble and not v.locked for v in theirs) else 0.3
    if kind == SHOVEL:
        return 1.0 if any(v.rubble for v in mine) else 0.2
    return 1.5


def best_move(legal: Sequence[Move], mine: Sequence[Vault], theirs: Sequence[Vault], hand: Sequence[Card],
              stock: int, locks_left: int) -> Move:
    """The advised move (the first of equals, so the choice is reproducible)."""
    best, best_value = legal[0], -1e9
    for move in legal:
        value = move_value(move, mine, theirs, hand, stock, locks_left)
        if value > best_value:
            best, best_value = move, value
    return best


def _vaults(data: Sequence[dict[str, object]]) -> list[Vault]:
    return [Vault([Card.parse(c) for c in v["cards"]], v["rubble"] is not None, bool(v["locked"]))  # type: ignore[attr-defined]
            for v in data]


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    mine, theirs = _vaults(observation["vaults"][seat]), _vaults(observation["vaults"][1 - seat])
    hand = [Card.parse(c) for c in observation["hand"]]
    return best_move(legal, mine, theirs, hand, observation["stock_count"], observation["locks_left"][seat])


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, reading only what the mover could see."""
    assert isinstance(state, SilverBarsState)
    seat = state.to_move
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    views = [
        [Vault(state.vaults[s][i], state.rubble[s][i] is not None, state.vstate[s][i] == LOCKED) for i in range(5)]
        for s in (0, 1)
    ]
    return best_move(legal, views[seat], views[1 - seat], state.hands[seat],
                     len(state.stock) - state.stock_pos, 5 - state.locked[seat])



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
        for i in range(5):
            vault = Vault(state.vaults[seat][i], state.rubble[seat][i] is not None, state.vstate[seat][i] == LOCKED)
            if vault.locked:
                total += bars(vault)
            elif vault.cards:
                total += bars(vault) * OPEN_VAULT_WORTH[0 if top_bar(vault) else 1]
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
