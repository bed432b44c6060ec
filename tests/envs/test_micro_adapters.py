"""Every game's micro variant goes through the RL adapters as any rule options do: the spaces
encode its views and mask its moves, and OpenSpiel loads it from a game string with sizes
from its bounds and passes its own random simulation test."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import parlour.envs.openspiel  # noqa: E402, F401  (registers the games)
from parlour import games  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_spaces_encode_the_micro_variant(game_id: str) -> None:
    game = games.get(game_id)
    micro = dict(game.micro_options)
    sp = space(game_id, micro)
    for seed in range(5):
        state = game.new_match(seed=seed, options=micro)
        while not state.is_round_over():
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_moves()
            assert (sp.encode(state.observation(seat)) == sp.encode_state(state, seat)).all()
            assert int(sp.mask(legal).sum()) == len(legal) and all(m in sp.index for m in legal)
            state.apply(legal[seed % len(legal)])


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_openspiel_loads_the_micro_variant_from_a_game_string(game_id: str) -> None:
    game = games.get(game_id)
    text = ";".join(f"{k}:{v}" for k, v in game.micro_options.items())
    loaded = pyspiel.load_game(f"python_parlour_{game_id.replace('-', '_')}(rounds_only=True,options={text})")
    bounds = game.bounds(game.check_options(dict(game.micro_options)))
    assert loaded.max_utility() == bounds.points and loaded.max_game_length() == bounds.moves
    pyspiel.random_sim_test(loaded, num_sims=10, serialize=True, verbose=False)  # whole matches, each step checked
