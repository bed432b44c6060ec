"""Progression's rollouts in the batched engine (issue 36; a loaded position plays as the rules engine:
``test_loaded_positions.py``): the compiled advice keeps the hands in the rules engine's order,
moves as the advice moves and judges as it judges, to the last bit; the compiled leaf plug-in gives
the Python plug-in's numbers; and a batched search decides the same with either plug-in."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import games  # noqa: E402
from parlour.batch import progression as compiled  # noqa: E402
from parlour.batch import rollout  # noqa: E402
from parlour.bots.heuristic import advice  # noqa: E402
from parlour.bots.ismcts import ISMCTSBot  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.games.progression import ProgressionState  # noqa: E402

from .positions import round_positions  # noqa: E402

GAME = games.get("progression")
ADVICE = advice("progression")
SPACE = space("progression")
PLAYERS = 3


def positions(count: int, seed: int, options: dict[str, Any] | None = None, most: int = 120) -> list[ProgressionState]:
    """Positions in a round in play (:func:`round_positions`, the first round or two)."""
    found = round_positions("progression", count, seed, options, most)
    assert all(isinstance(state, ProgressionState) for state in found)
    return found  # type: ignore[return-value]


def test_the_compiled_advice_moves_and_judges_as_the_advice() -> None:
    """From loaded positions (the game's options and smaller ones): at every step of the round
    played out by the advice, the compiled advice makes the advice's move and keeps the hands in
    the rules engine's order, and judges the position as ``evaluate`` does; the compiled rollout
    (0, 1 and 18 moves, and to the round's end) ends on the very numbers of the advice's rollout on
    the rules engine, then ``evaluate`` (or the round's scores)."""
    quiet = random.Random(0)
    moves = judged = compared = 0
    for options, count in ((None, 12), ({"suits": 2, "hand_size": 3, "takeback": False, "stall_limit": 3}, 6)):
        batch = compiled.ProgressionBatch(1, 0, options)
        t = batch._t
        s = compiled.Scratch(np.zeros((3, 4), np.int64), np.zeros((4, 11)), np.zeros((4, 11)),
                             np.zeros((4, compiled.MOST_PROSPECTS, 3), np.int64), np.zeros((4, 3), np.int64),
                             np.zeros((2, compiled.CARDS + 1, 5), np.int64), np.zeros(compiled.CARDS, np.int64),
                             np.zeros(PLAYERS))
        out = np.zeros(PLAYERS)
        for state in positions(count, 4, options):
            batch.load(0, state)
            played = state.copy()
            while played.current_player() is not None:
                compiled._evaluate(t, 0, s, out)
                assert out.tolist() == ADVICE.evaluate(played)  # type: ignore[misc]
                judged += 1
                move = ADVICE.rollout(played, quiet)
                assert compiled._advised(t, 0, s) == SPACE.index[move]
                compiled._apply_in_order(t, 0, SPACE.index[move])
                played.apply(move)
                moves += 1
                if played.current_player() is not None:
                    assert [t.hands[0, seat, :len(held)].tolist() for seat, held in enumerate(played.hands)] == \
                        [[int(c) for c in held] for held in played.hands]
            for depth in (0, 1, 18, -1):
                batch.load(0, state)
                found = np.zeros((1, PLAYERS))
                compiled._rollouts(t, np.array([0]), depth, found)
                played = state.copy()
                left = depth
                while left != 0 and played.current_player() is not None:
                    played.apply(ADVICE.rollout(played, quiet))
                    left -= 1
                expected = ADVICE.evaluate(played) if played.current_player() is not None else played.scores  # type: ignore[misc]
                assert found[0].tolist() == [float(x) for x in expected]
                compared += 1
    assert moves > 1000 and judged == moves and compared >= 100


def test_the_compiled_plugin_gives_the_python_plugins_numbers() -> None:
    """Leaf rollouts with fresh deals of the hidden cards: the compiled plug-in's averages are the
    Python plug-in's, bit for bit (each seat searching, 18 moves, 5 and to the round's end), with
    the game's options and with others (smaller hands and pack, no taking back)."""
    assert rollout.COMPILED["progression"] == ("parlour.batch.progression", "ProgressionRollouts")
    python = rollout.PythonLeafRollouts(ADVICE)
    fast = compiled.ProgressionRollouts(ADVICE)
    assert not python.compiled and fast.compiled
    leaves: list[ProgressionState] = positions(24, 6)
    over = leaves[0].copy()
    while over.current_player() is not None:
        over.apply(over.legal_moves()[0])
    leaves.append(over)
    assert len(leaves) >= 45
    for seat, depth in ((0, 18), (1, None), (2, 5)):
        assert fast.run(leaves, seat, 2026 + seat, 3, depth) == python.run(leaves, seat, 2026 + seat, 3, depth)
    others = ((40, {"suits": 2, "hand_size": 3, "takeback": False, "stall_limit": 3}), (3, dict(GAME.micro_options)))
    for k, (most, options) in enumerate(others):
        leaves = positions(6, 10 + k, options, most)
        assert len(leaves) >= 6
        for seat, depth in ((0, 18), (2, None)):
            assert fast.run(leaves, seat, k, 4, depth) == python.run(leaves, seat, k, 4, depth)


def test_a_batched_search_decides_the_same_with_either_plugin() -> None:
    """The same search with the compiled plug-in and with the Python one: the same estimates of
    every move, so the same decisions."""
    python = rollout.PythonLeafRollouts(ADVICE)
    fast = compiled.ProgressionRollouts(ADVICE)
    for state in positions(2, 7):
        seat = state.current_player()
        assert seat is not None
        found = [ISMCTSBot(iterations=60, rollout="heuristic", leaf=3, rollouts=plugin).analyse(
            state.observation(seat), state.legal_moves(), random.Random(3)) for plugin in (python, fast)]
        assert found[0] == found[1]
