"""The search's rollouts in the batched engine (issue 36; a loaded position plays as the rules engine:
``test_loaded_positions.py``): the compiled advice plays and judges as the Python advice does, to
the last bit; the compiled leaf plug-in gives the Python plug-in's numbers; and a batched search
decides the same with either plug-in, and the same again for the same seed."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from parlour import batch, games
from parlour.batch import rollout
from parlour.bots.heuristic import advice
from parlour.bots.ismcts import ISMCTSBot
from parlour.bots.levels import level_iterations
from parlour.game import State
from parlour.store import Store

from .positions import round_positions

GAME = games.get("minus-twenty")
ADVICE = advice("minus-twenty")


def positions(count: int, seed: int) -> list[State]:
    """Minus Twenty's positions in a round in play (:func:`round_positions`: rounds 1 to 3)."""
    return round_positions("minus-twenty", count, seed)


def test_redeal_moves_only_what_the_seat_cannot_see() -> None:
    """A re-deal keeps every card the seat can see where it is (so its observation is the same)
    and deals the hidden cards among the hidden places."""
    for state in positions(20, 1):
        for seat in (0, 1):
            dealt = state.copy()
            rollout.redeal(dealt, seat, next(rollout.redeal_stream(7, 0, seat)))
            assert dealt.observation(seat) == state.observation(seat)
            places = rollout.hidden_places(state, seat)
            before = Counter(state.stock[i] if h < 0 else state.hands[h][i] for h, i in places)
            after = Counter(dealt.stock[i] if h < 0 else dealt.hands[h][i] for h, i in places)
            assert before == after
    assert state.legal_moves() == state.copy().legal_moves()


def test_the_same_seed_gives_the_same_decisions() -> None:
    """A batched search (whichever plug-in is installed) decides the same for the same seed."""
    for state in positions(3, 2)[:4]:
        seat = state.current_player()
        assert seat is not None
        runs = [ISMCTSBot(iterations=60, rollout="heuristic", leaf=3).analyse(
            state.observation(seat), state.legal_moves(), random.Random(11)) for _ in range(2)]
        assert runs[0] == runs[1]


# -- the compiled engine ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def compiled() -> object:
    pytest.importorskip("numba")
    from parlour.batch import minus_twenty

    return minus_twenty


def test_the_compiled_advice_plays_and_judges_as_the_advice(compiled: object) -> None:
    """From 100 loaded positions, the compiled rollout (0, 1 and 12 moves, and to the round's end)
    ends on the very numbers of the advice's rollout on the rules engine, then ``evaluate`` (or
    the round's scores)."""
    np = pytest.importorskip("numpy")
    batch = compiled.MinusTwentyBatch(1, 0)  # type: ignore[attr-defined]
    quiet = random.Random(0)
    compared = 0
    for state in positions(60, 4):
        for depth in (0, 1, 12, -1):
            batch.load(0, state)
            out = np.zeros((1, 2))
            compiled._rollouts(batch._t, np.array([0]), depth, out)  # type: ignore[attr-defined]
            played = state.copy()
            left = depth
            while left != 0 and played.current_player() is not None:
                played.apply(ADVICE.rollout(played, quiet))
                left -= 1
            expected = ADVICE.evaluate(played) if played.current_player() is not None else played.scores  # type: ignore[misc]
            assert out[0].tolist() == [float(x) for x in expected]
            compared += 1
    assert compared >= 300


def test_the_compiled_plugin_gives_the_python_plugins_numbers(compiled: object) -> None:
    """Leaf rollouts with fresh deals of the hidden cards: the compiled plug-in's averages are the
    Python plug-in's, bit for bit (both seats searching, 12 moves and to the round's end)."""
    python = rollout.leaf_rollouts("minus-twenty", ADVICE, compiled=False)
    fast = rollout.leaf_rollouts("minus-twenty", ADVICE, compiled=True)
    assert not python.compiled and fast.compiled
    leaves = positions(60, 6)
    over = leaves[0].copy()
    while over.current_player() is not None:
        over.apply(over.legal_moves()[0])
    leaves.append(over)
    for seat, depth in ((0, 12), (1, None)):
        assert fast.run(leaves, seat, 2026 + seat, 3, depth) == python.run(leaves, seat, 2026 + seat, 3, depth)


def test_a_batched_search_decides_the_same_with_or_without_numba(compiled: object) -> None:
    """The same search with the compiled plug-in and with the Python one: the same estimates of
    every move, so the same decisions (the lab stores the same results either way)."""
    python = rollout.leaf_rollouts("minus-twenty", ADVICE, compiled=False)
    fast = rollout.leaf_rollouts("minus-twenty", ADVICE, compiled=True)
    for state in positions(3, 7):
        seat = state.current_player()
        assert seat is not None
        found = [ISMCTSBot(iterations=60, rollout="heuristic", leaf=3, rollouts=plugin).analyse(
            state.observation(seat), state.legal_moves(), random.Random(3)) for plugin in (python, fast)]
        assert found[0] == found[1]


LAB_RUN = """
import sys
from parlour.lab import plan, runner
from parlour.store import Store
spec = plan.make_spec(game="minus-twenty", players=["ismcts:iterations=48,rollout=heuristic,leaf=4", "heuristic"],
                      deals=2, seed=3, rounds_only=True)
store = Store(sys.argv[1])
runner.run([spec], store, jobs=1)
store.close()
"""


def test_the_lab_stores_the_same_matches_of_a_batched_search_with_and_without_the_compiled_engines(
        tmp_path: Path) -> None:
    """A study of the batched search, run once on the compiled plug-in and once with the engines
    turned off (as where numba is not installed): the very same stored matches, move for move."""
    dumps = []
    for setting in ("on", "off"):
        db = tmp_path / f"{setting}.sqlite"
        env = {**os.environ, batch.OFF: setting}
        done = subprocess.run([sys.executable, "-c", LAB_RUN, str(db)], env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        dumps.append(Store(db).dump())
    assert dumps[0] == dumps[1] and dumps[0]


# -- the levels ---------------------------------------------------------------------------------

def test_the_levels_search_in_batches_where_the_games_entry_says() -> None:
    """``hard`` and ``expert`` roll out Minus Twenty's leaves in batches (its entry's ``leaf``), the
    other games one rollout a simulation; a spec's own ``leaf`` (0: unbatched) overrides the game's,
    and random rollouts are never batched."""
    leaf = games.entry("minus-twenty").leaf
    assert leaf > 1
    for level in ("hard", "expert"):
        bot = ISMCTSBot(level=level, rollout="heuristic")
        assert bot.leaf_for("minus-twenty") == leaf
        assert all(bot.leaf_for(g) is None for g in games.ids() if not games.entry(g).leaf)
    assert ISMCTSBot(level="hard", rollout="heuristic", leaf=0).leaf_for("minus-twenty") is None
    assert ISMCTSBot(level="hard", rollout="heuristic", leaf=4).leaf_for("twenty") == 4
    assert ISMCTSBot(level="hard").leaf_for("minus-twenty") is None  # random rollouts
    assert ISMCTSBot(iterations=100, rollout="heuristic").leaf_for("minus-twenty") is None
    with pytest.raises(ValueError, match="leaf must be 0"):
        ISMCTSBot(leaf=-1)


def test_hard_decides_the_same_with_or_without_numba(compiled: object) -> None:
    """``hard`` at its full budget in Minus Twenty, once on the compiled plug-in and once on the
    Python one: the same estimates (so a person meets the same hard with or without numba)."""
    state = positions(1, 9)[0]
    seat = state.current_player()
    assert seat is not None
    found = [ISMCTSBot(level="hard", rollout="heuristic", rollouts=rollout.leaf_rollouts(
        "minus-twenty", ADVICE, compiled=flag)).analyse(state.observation(seat), state.legal_moves(),
                                                        random.Random(5)) for flag in (False, True)]
    assert found[0] == found[1]
    rollouts = sum(e.visits for e in found[0]) * games.entry("minus-twenty").leaf
    assert level_iterations("hard", "minus-twenty") * 0.8 <= rollouts <= level_iterations("hard", "minus-twenty")


WARM = "from parlour.batch.warmup import warm; print(','.join(warm()))"


def test_warm_compiles_the_plugins_the_levels_use() -> None:
    """The set-up (``parlour.batch.warmup.warm``) warms the compiled plug-ins of the games whose levels batch
    and the lab's random rounds of every game (nothing where numba is missing or turned off)."""
    batched = [g for g in games.ids() if games.entry(g).leaf and g in rollout.COMPILED]
    expected = {"on": ",".join([*(f"rollouts:{g}" for g in batched), *(f"random:{g}" for g in games.ids())]),
                "off": ""}
    if not batch.available():
        expected["on"] = ""
    for setting, names in expected.items():
        done = subprocess.run([sys.executable, "-c", WARM], env={**os.environ, batch.OFF: setting},
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == names
    assert expected["on"] or not batch.available()


@pytest.mark.parametrize("game_id", sorted(rollout.COMPILED))
def test_a_compiled_plugin_refuses_another_advice_and_another_games_states(game_id: str) -> None:
    pytest.importorskip("numba")
    plugin = rollout.leaf_rollouts(game_id, advice(game_id), compiled=True)
    with pytest.raises(ValueError, match="own advice only"):
        type(plugin)(advice("twenty"))
    other = games.get("twenty").new_match(seed=1)
    with pytest.raises(TypeError, match="states, not TwentyState"):
        plugin.run([other], 0, 0, 1, 1)
    over = games.get(game_id).new_match(seed=1)
    while over.current_player() is not None:
        over.apply(over.legal_moves()[0])
    assert plugin.run([over], 0, 0, 4, None) == [[float(s) for s in over.scores]]  # nothing left to roll out
