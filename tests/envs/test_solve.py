"""Every game's micro variant is solvable: OpenSpiel's CFR+ (deterministic) brings its
exploitability (NashConv over the players) below 1% of the game's utility range in a few iterations, where the random
policy is far from it; and parlour's bots are measured the same way (BotPolicy)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import exploitability  # noqa: E402

from parlour import games  # noqa: E402
from parlour.envs import openspiel as pos  # noqa: E402
from parlour.envs.policies import BotPolicy  # noqa: E402

ITERATIONS = {"minus-twenty": 8, "progression": 10, "twenty": 8, "silver-bars": 8}
"""CFR+ iterations that bring each micro variant under 1% of max utility (measured: 0.93%,
0.56%, 0.52% and 0.37%; an iteration takes 0.6 s, 10 s, 7 s and 3.4 s on one core)."""


def micro(game_id: str) -> pos.ParlourGame:
    return pos.load(game_id, rounds_only=True, options=dict(games.get(game_id).micro_options))


def test_every_game_has_a_micro_variant() -> None:
    assert sorted(ITERATIONS) == sorted(games.GAME_IDS)
    for game_id in games.GAME_IDS:
        game = games.get(game_id)
        assert game.micro_options and game.check_options(dict(game.micro_options))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_cfr_plus_solves_the_micro_variant(game_id: str) -> None:
    game = micro(game_id)
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(ITERATIONS[game_id]):
        solver.evaluate_and_update_policy()
    # NashConv over the players: OpenSpiel's exploitability for two (Progression has three)
    solved = pyspiel.nash_conv(game, solver.average_policy()) / game.num_players()
    assert 0 <= solved < 0.01 * game.max_utility()
    uniform = exploitability.nash_conv(game, BotPolicy(game, "random")) / game.num_players()
    assert uniform > 5 * solved


@pytest.mark.slow
def test_the_bots_exploitability_is_measured_exactly_where_they_know_their_chances() -> None:
    """Minus Twenty's medium weighs moves at a temperature: its policy is its own chances, and
    it is less exploitable than random but more than the solution's 1%."""
    game = micro("minus-twenty")
    medium = BotPolicy(game, "medium")
    found = exploitability.exploitability(game, medium)
    uniform = exploitability.exploitability(game, BotPolicy(game, "random"))
    assert medium.exact
    assert 0.01 * game.max_utility() < found < uniform
    hard = BotPolicy(game, "ismcts:iterations=20,rollout=heuristic", seed=3)
    assert exploitability.exploitability(game, hard) >= 0 and not hard.exact


@pytest.mark.slow
def test_a_bot_policy_is_the_same_at_every_history_of_an_information_state() -> None:
    """Two histories that differ only in the other seat's hidden card give the bot the same
    view, so the same distribution; every legal action is listed."""
    game = micro("twenty")
    policy = BotPolicy(game, "medium")
    seen: dict[str, dict[int, float]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        probabilities = policy.action_probabilities(state)
        assert sorted(probabilities) == state.legal_actions()
        assert sum(probabilities.values()) == pytest.approx(1.0)
        fresh = BotPolicy(game, "medium")._decide(state, state.information_state_string())
        key = state.information_state_string()
        assert seen.setdefault(key, fresh) == fresh
        stack.extend(state.child(a) for a in state.legal_actions())
