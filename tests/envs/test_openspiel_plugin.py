"""A plug-in game (tests/ladder.py) plays through the OpenSpiel adapter as the family's games do:
registered with OpenSpiel (at import when named in PARLOUR_PLUGINS, on demand when registered
later), loaded by ``pyspiel.load_game``, played at random to the end, and through the checks
test_openspiel.py applies to the built-in games (OpenSpiel's random_sim_test, chance outcomes,
replay in the engine, pickling)."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from parlour import record  # noqa: E402
from parlour.envs import openspiel as pos  # noqa: E402

from .spiel import play_random  # noqa: E402

TESTS = Path(__file__).resolve().parents[1]


def test_a_plugin_registered_later_loads_with_load_game(ladder: object) -> None:
    pos.register_all()
    name = pos.short_name("ladder")
    assert name == "python_parlour_ladder" and name in pyspiel.registered_names()
    game = pyspiel.load_game(name)
    assert game.num_players() == 2 and game.num_distinct_actions() == 24
    assert game.max_chance_outcomes() == len(game.cards) == 12
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = play_random(game.new_initial_state(), random.Random(3))
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("seed", range(5))
def test_random_play_replays_in_the_engine(ladder: object, seed: int) -> None:
    state = play_random(pos.load("ladder").new_initial_state(), random.Random(seed))
    replayed = record.replay(record.from_data(record.to_data(state.engine)))
    assert replayed.is_match_over()
    a, b = replayed.totals
    assert state.returns() == pytest.approx([a - b, b - a])


@pytest.mark.parametrize("rounds_only", [True, False])
def test_random_sim_test(ladder: object, rounds_only: bool) -> None:
    pyspiel.random_sim_test(pos.load("ladder", rounds_only=rounds_only), num_sims=5, serialize=False, verbose=False)


def test_random_sim_test_with_options(ladder: object) -> None:
    pyspiel.random_sim_test(pos.load("ladder", options={"rounds": 2}), num_sims=3, serialize=True, verbose=False)


def test_chance_outcomes_are_the_unplaced_cards(ladder: object) -> None:
    game = pos.load("ladder")
    state = game.new_initial_state()
    rng = random.Random(8)
    draws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            engine = state.engine
            if engine is not None:
                draws += 1
                left = engine.stock_left()[state._w.filled:]
                assert sorted(game.cards[i] for i, _ in outcomes) == sorted(left)
            ids, probs = zip(*outcomes)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert draws == 6  # the stock: six cards, each a chance node when drawn


def test_games_and_states_pickle(ladder: object) -> None:
    game = pos.load("ladder", rounds_only=True)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.get_parameters() == game.get_parameters()
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(14):
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    for player in range(2):
        assert copy.observation_tensor(player) == state.observation_tensor(player)


def test_resampling_needs_a_determinize_that_keeps_the_deal(ladder: object) -> None:
    """Ladder's determinize rebuilds the position, not the round's deal: OpenSpiel's IS-MCTS cannot
    sample its worlds, and is told so in words."""
    state = pos.load("ladder").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="Ladder's determinize gives no deal"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_a_plugin_named_in_parlour_plugins_is_registered_at_import() -> None:
    env = dict(os.environ, PARLOUR_PLUGINS="ladder")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH", "")]))
    script = ("import random, pyspiel, parlour.envs.openspiel\n"
              "game = pyspiel.load_game('python_parlour_ladder')\n"
              "state, rng = game.new_initial_state(), random.Random(1)\n"
              "while not state.is_terminal():\n"
              "    if state.is_chance_node():\n"
              "        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))\n"
              "    else:\n"
              "        state.apply_action(rng.choice(state.legal_actions()))\n"
              "print(type(game).__name__, sum(state.returns()))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["LadderGame", "0.0"]
