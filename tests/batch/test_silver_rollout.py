"""100 Silver Bars' rollouts in the batched engine (issue 36; a loaded position plays as the rules
engine: ``test_loaded_positions.py``): the compiled advice reads the hand in the rules engine's
order, moves as the advice moves and judges as it judges, to the last bit; the compiled leaf plug-in
gives the Python plug-in's numbers; and a batched search decides the same with either plug-in."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import games  # noqa: E402
from parlour.batch import rollout  # noqa: E402
from parlour.batch import silver_bars as compiled  # noqa: E402
from parlour.bots.heuristic import advice  # noqa: E402
from parlour.bots.ismcts import ISMCTSBot  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.games.silver_bars import SilverBarsState  # noqa: E402

from .positions import round_positions  # noqa: E402

GAME = games.get("silver-bars")
ADVICE = advice("silver-bars")
SPACE = space("silver-bars")
POSITION = {c: p for p, c in enumerate(SPACE.CARDS)}  # type: ignore[attr-defined]


def positions(count: int, seed: int, options: dict[str, Any] | None = None, most: int = 160) -> list[SilverBarsState]:
    """Positions in a round in play (:func:`round_positions`, the first round or two)."""
    found = round_positions("silver-bars", count, seed, options, most)
    assert all(isinstance(state, SilverBarsState) for state in found)
    return found  # type: ignore[return-value]


def test_the_hand_is_read_in_the_order_of_its_set() -> None:
    """The compiled twin of ``{*hand}`` meets the cards in the order CPython's set does: 3,000
    seeded hands of one to seven cards of the deck (twins among them)."""
    batch = compiled.SilverBarsBatch(1, 0)
    t = batch._t
    deck = GAME.deck(batch.options)
    rng = random.Random(8)
    table = np.zeros(compiled.SET_SLOTS, np.int64)
    out = np.zeros(compiled.SET_SLOTS, np.int64)
    sizes = set()
    for _ in range(3000):
        size = rng.randint(1, 7)
        hand = rng.sample(deck, size)
        t.params[compiled.P_HAND] = size
        t.hands[0, 0, :size] = [POSITION[c] for c in hand]
        n = compiled._hand_in_set_order(t, 0, 0, table, out)
        assert out[:n].tolist() == [POSITION[c] for c in {*hand}]
        sizes.add(n)
    assert sizes == set(range(1, 8))


def test_the_compiled_advice_moves_and_judges_as_the_advice() -> None:
    """From 100 loaded positions: at every step of the round played out by the advice, the
    compiled advice makes the advice's move and keeps the hands in the rules engine's order; and
    the compiled rollout (0, 1 and 16 moves, and to the round's end) ends on the very numbers of
    the advice's rollout on the rules engine, then ``evaluate`` (or the round's scores)."""
    batch = compiled.SilverBarsBatch(1, 0)
    t = batch._t
    legal = np.zeros(compiled.SCRATCH, np.int64)
    quiet = random.Random(0)
    moves = compared = 0
    for state in positions(50, 4):
        batch.load(0, state)
        played = state.copy()
        while played.current_player() is not None:
            move = ADVICE.rollout(played, quiet)
            assert compiled._advised(t, 0, legal) == SPACE.index[move]
            compiled._apply_in_order(t, 0, SPACE.index[move])
            played.apply(move)
            moves += 1
            if played.current_player() is not None:
                assert t.hands[0].tolist() == [[POSITION[c] for c in held] for held in played.hands]
        for depth in (0, 1, 16, -1):
            batch.load(0, state)
            out = np.zeros((1, 2))
            compiled._rollouts(t, np.array([0]), depth, out)
            played = state.copy()
            left = depth
            while left != 0 and played.current_player() is not None:
                played.apply(ADVICE.rollout(played, quiet))
                left -= 1
            expected = ADVICE.evaluate(played) if played.current_player() is not None else played.scores  # type: ignore[misc]
            assert out[0].tolist() == [float(x) for x in expected]
            compared += 1
    assert moves > 3000 and compared >= 400


def test_the_compiled_plugin_gives_the_python_plugins_numbers() -> None:
    """Leaf rollouts with fresh deals of the hidden cards: the compiled plug-in's averages are the
    Python plug-in's, bit for bit (both seats searching, 16 moves and to the round's end), with
    the game's options and with others (smaller hands, another deck, no round limit)."""
    assert rollout.COMPILED["silver-bars"] == ("parlour.batch.silver_bars", "SilverBarsRollouts")
    python = rollout.PythonLeafRollouts(ADVICE)
    fast = compiled.SilverBarsRollouts(ADVICE)
    assert not python.compiled and fast.compiled
    leaves: list[SilverBarsState] = positions(25, 6)
    over = leaves[0].copy()
    while over.current_player() is not None:
        over.apply(over.legal_moves()[0])
    leaves.append(over)
    for seat, depth in ((0, 16), (1, None)):
        assert fast.run(leaves, seat, 2026 + seat, 3, depth) == python.run(leaves, seat, 2026 + seat, 3, depth)
    others = ((160, {"hand_size": 5, "strikes": 0, "max_rounds": 0}), (160, {"suits": 2, "lo_thieves": 2}),
              (3, dict(GAME.micro_options)))
    for k, (most, options) in enumerate(others):
        leaves = positions(6, 10 + k, options, most)
        assert len(leaves) >= 6
        for seat, depth in ((0, 16), (1, None)):
            assert fast.run(leaves, seat, k, 4, depth) == python.run(leaves, seat, k, 4, depth)


def test_a_batched_search_decides_the_same_with_either_plugin() -> None:
    """The same search with the compiled plug-in and with the Python one: the same estimates of
    every move, so the same decisions."""
    python = rollout.PythonLeafRollouts(ADVICE)
    fast = compiled.SilverBarsRollouts(ADVICE)
    for state in positions(3, 7):
        seat = state.current_player()
        assert seat is not None
        found = [ISMCTSBot(iterations=60, rollout="heuristic", leaf=3, rollouts=plugin).analyse(
            state.observation(seat), state.legal_moves(), random.Random(3)) for plugin in (python, fast)]
        assert found[0] == found[1]
