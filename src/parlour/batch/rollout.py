"""The search's rollouts, many leaves in one call (issue 36): the rollout plug-ins of
:class:`parlour.bots.ismcts.ISMCTSBot`.

A batched search walks its tree in Python for every move still in the running on one sampled
world, then hands all the leaves it reached to a plug-in (:class:`parlour.bots.ismcts.LeafRollouts`),
which rolls each out ``count`` times with the game's advice, each time on the leaf with the
cards the searching seat cannot see (the others' hidden cards and the draw pile) dealt afresh,
and gives back each leaf's average round scores.  Averaging several deals a leaf makes its value
far less noisy than one rollout, so the search needs fewer trips through the Python tree.

Two plug-ins play exactly the same rollouts:

* :class:`PythonLeafRollouts`: the rules engine with the game's
  :class:`~parlour.bots.heuristic.Advice` (``rollout``, ``rollout_depth``, ``evaluate``): any game
  whose states keep a draw pile (:class:`~parlour.games._base.StockPile`), numba or not.
* a compiled plug-in, for a game in :data:`COMPILED` when :func:`parlour.batch.available`: the
  game's batched engine loads each leaf and plays the advice's compiled twin (each compiled
  function names the advice's function it mirrors).

Both deal the hidden cards from the same counter-based stream (splitmix64 keyed by the seed, the
leaf's index and the rollout's index: :func:`redeal_stream`), in the same order
(:func:`hidden_places`), and the compiled advice computes the same sums in the same order, so a
search gives the same decisions whether numba is installed or not (``tests/batch/test_rollout.py``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from parlour import batch
from parlour.bots.heuristic import Advice
from parlour.game import State
from parlour.games._base import StockPile

__all__ = ["COMPILED", "PythonLeafRollouts", "hidden_places", "leaf_rollouts", "redeal_stream", "warm"]

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
STREAM = 0xD1B54A32D192ED03

COMPILED: dict[str, tuple[str, str]] = {
    "minus-twenty": ("parlour.batch.minus_twenty", "MinusTwentyRollouts"),
    "silver-bars": ("parlour.batch.silver_bars", "SilverBarsRollouts"),
    "progression": ("parlour.batch.progression", "ProgressionRollouts"),
}
"""Each game with a compiled rollout plug-in: its module and class (a game's batched engine module;
imported only when asked for).  A game's plug-in takes the game's advice and plays exactly the
rollouts of :class:`PythonLeafRollouts` with it."""


def mix(x: int) -> int:
    """splitmix64's finalizer (the batched engines' ``_mix``)."""
    x = (x ^ (x >> 30)) * MIX1 & MASK64
    x = (x ^ (x >> 27)) * MIX2 & MASK64
    return x ^ (x >> 31)


def redeal_key(seed: int, leaf: int, rollout: int) -> int:
    """Where the stream of rollout ``rollout`` of leaf ``leaf`` starts, for the search's ``seed``."""
    key = mix((seed + GOLDEN) & MASK64)
    key = mix(key ^ (leaf * GOLDEN & MASK64))
    return mix(key ^ ((rollout * STREAM + 1) & MASK64))


def redeal_stream(seed: int, leaf: int, rollout: int) -> Iterator[Callable[[int], int]]:
    """Numbers below a bound, one a call: ``next(stream)(k)`` is from 0 to ``k`` − 1 (the stream
    of :func:`redeal_key`, advanced by the golden gamma before each number, as the batched
    engines' ``below``: the high 32 bits scaled to ``k``, :func:`parlour.batch.common.below`)."""
    state = redeal_key(seed, leaf, rollout)

    def below(k: int) -> int:
        nonlocal state
        state = (state + GOLDEN) & MASK64
        return ((mix(state) >> 32) * k) >> 32

    while True:
        yield below


def can_redeal(state: State) -> bool:
    """Whether leaf rollouts can deal ``state``'s hidden cards afresh: its game's states keep a draw
    pile and say which cards of the other hands a seat cannot see (``StockPile.hidden_cards``)."""
    return isinstance(state, StockPile) and type(state).hidden_cards is not StockPile.hidden_cards


def hidden_places(state: State, seat: int) -> list[tuple[int, int]]:
    """Where the cards ``seat`` cannot see lie, in the order a re-deal fills them: (hand, index)
    for each card of another seat's hand that ``seat`` cannot tell from the draw pile's
    (``StockPile.hidden_cards``, seats in order, each hand in order), then (-1, index) for each
    card of the draw pile still to be drawn, the next one first."""
    assert isinstance(state, StockPile)
    hidden = state.hidden_cards(seat)
    places: list[tuple[int, int]] = []
    pending = list(hidden)
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for index, card in enumerate(hand):
            if pending and card == pending[0]:
                places.append((other, index))
                pending.pop(0)
    if pending:
        raise ValueError("hidden_cards is not in the order of the hands")
    places += [(-1, index) for index in range(state.stock_pos, len(state.stock))]
    return places


def redeal(state: State, seat: int, below: Callable[[int], int]) -> None:
    """Deal the cards ``seat`` cannot see afresh in ``state`` (shuffled Fisher–Yates, the last
    place first, with ``below``): they stay where they are as places, only the cards move."""
    assert isinstance(state, StockPile)
    places = hidden_places(state, seat)
    stock = list(state.stock)  # copies of a state share their stock
    cards = [stock[i] if hand < 0 else state.hands[hand][i] for hand, i in places]
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    for (hand, i), card in zip(places, cards):
        if hand < 0:
            stock[i] = card
        else:
            state.hands[hand][i] = card
    state.stock = stock


class PythonLeafRollouts:
    """Leaf rollouts on the rules engine with a game's advice: the reference every compiled
    plug-in is held equal to (see the module's notes)."""

    compiled = False

    def __init__(self, advice: Advice) -> None:
        self.advice = advice

    def run(self, leaves: Sequence[State], seat: int, seed: int, count: int,
            depth: int | None) -> list[list[float]]:
        """Each leaf's round scores by seat, averaged over ``count`` rollouts, each on the leaf
        with the cards ``seat`` cannot see dealt afresh (rollout ``k`` of leaf ``i`` from the
        stream of ``(seed, i, k)``), played by the advice for ``depth`` moves (None: to the
        round's end) and judged by its evaluation if the round is not over (or, without one,
        by the scores so far).  A leaf whose round is over gives its scores."""
        policy, evaluate = self.advice.rollout, self.advice.evaluate
        results = []
        for i, leaf in enumerate(leaves):
            if leaf.current_player() is None:
                results.append([float(s) for s in leaf.scores])
                continue
            totals = [0.0] * len(leaf.scores)
            for k in range(count):
                state = leaf.copy()
                stream = redeal_stream(seed, i, k)
                below = next(stream)
                redeal(state, seat, below)
                quiet = random.Random(below(1 << 62))
                left = depth if depth is not None else -1
                while left != 0 and state.current_player() is not None:
                    state.apply(policy(state, quiet))
                    left -= 1
                if evaluate is not None and state.current_player() is not None:
                    scores: Sequence[float] = evaluate(state)
                else:
                    scores = state.scores
                for s, value in enumerate(scores):
                    totals[s] += value
            results.append([total / count for total in totals])
        return results


_MADE: dict[tuple[str, Advice, bool | None], Any] = {}
""":func:`leaf_rollouts` made, by its arguments (a compiled plug-in keeps its engine's arrays)."""


def leaf_rollouts(game_id: str, advice: Advice, compiled: bool | None = None) -> Any:
    """The rollout plug-in of ``game_id``'s batched search: compiled where the game has one
    (:data:`COMPILED`) and numba is installed (``compiled=None``; ``False``: never; ``True``:
    or :class:`ImportError`), else :class:`PythonLeafRollouts` (the same rollouts).  Made once
    for each game, advice and choice."""
    key = (game_id, advice, compiled)
    if key not in _MADE:
        _MADE[key] = _make(game_id, advice, compiled)
    return _MADE[key]


def _make(game_id: str, advice: Advice, compiled: bool | None) -> Any:
    """:func:`leaf_rollouts`, made afresh."""
    from parlour import games

    if not can_redeal(games.get(game_id).new_match(seed=0)):
        raise ValueError(f"no leaf rollouts for {game_id!r}: its states do not say which cards a seat cannot see "
                         "(StockPile.hidden_cards)")
    if compiled is None:
        compiled = game_id in COMPILED and batch.available()
    if not compiled:
        return PythonLeafRollouts(advice)
    if game_id not in COMPILED:
        raise ValueError(f"no compiled rollouts for {game_id!r} (there are for {', '.join(COMPILED)})")
    if not batch.available():
        raise ImportError("compiled rollouts need numba: pip install 'parlour[fast]'")
    module, name = COMPILED[game_id]
    return getattr(importlib.import_module(module), name)(advice)


def warm() -> list[str]:
    """Compile (or load from numba's cache) the compiled plug-ins of the games whose search levels
    roll out in batches (``GameEntry.leaf``), so that no player's first move waits for numba to
    compile: the set-up (``make serve``) calls it once; a bot worker then loads them from numba's
    cache at its first batched search.  Returns those games' ids (none without numba)."""
    from parlour import games
    from parlour.bots.heuristic import advice

    warmed = []
    for game_id in games.ids():
        if games.entry(game_id).leaf and game_id in COMPILED and batch.available():
            leaf_rollouts(game_id, advice(game_id)).run([games.get(game_id).new_match(seed=0)], 0, 0, 1, 1)
            warmed.append(game_id)
    return warmed
