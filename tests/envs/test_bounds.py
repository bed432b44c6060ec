"""The sizes the OpenSpiel adapter declares hold: seeded random play, in every game, under
its default options and its micro variant, one round and whole matches, never makes more
moves, chance nodes or points than the game says it can (algorithms that normalise by the
utility range, or size buffers by the history length, depend on it)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from parlour import games  # noqa: E402
from parlour.envs import openspiel as pos  # noqa: E402

GAME_IDS = list(games.GAME_IDS)


def _variants() -> list[tuple[str, dict[str, object], bool, int]]:
    """(game, options, rounds_only, random playouts): rounds are cheap, matches fewer."""
    found = []
    for game_id in GAME_IDS:
        micro = dict(games.get(game_id).micro_options)
        found.append((game_id, {}, True, 300))
        found.append((game_id, {}, False, 4 if game_id == "progression" else 20))
        if micro:
            found.append((game_id, micro, True, 500))
    return found


def _sizes(state, rng: random.Random) -> tuple[int, int, list[float]]:  # type: ignore[no-untyped-def]
    """Play out uniformly at random: (moves, chance nodes, returns)."""
    moves = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            chances += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves, chances, state.returns()


@pytest.mark.parametrize(("game_id", "options", "rounds_only", "playouts"), _variants(),
                         ids=lambda v: str(v) if not isinstance(v, dict) else ("micro" if v else "default"))
def test_random_play_stays_inside_the_declared_sizes(
    game_id: str, options: dict[str, object], rounds_only: bool, playouts: int
) -> None:
    game = pos.load(game_id, rounds_only=rounds_only, options=options)
    rng = random.Random(f"{game_id} {options} {rounds_only}")
    most_moves = most_chances = 0
    widest = 0.0
    for _ in range(playouts):
        moves, chances, returns = _sizes(game.new_initial_state(), rng)
        most_moves, most_chances = max(most_moves, moves), max(most_chances, chances)
        widest = max(widest, *map(abs, returns))
        assert abs(sum(returns)) < 1e-9
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns), returns
    assert most_moves <= game.max_game_length()
    assert most_chances <= game.max_chance_nodes_in_history()
    assert game.max_history_length() == game.max_game_length() + game.max_chance_nodes_in_history()
    assert widest <= game.max_utility()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_round_deals_the_whole_deck_at_most(game_id: str) -> None:
    """One chance node per card: a round's chance nodes are bounded by the deck, exactly."""
    game = pos.load(game_id, rounds_only=True)
    assert game.max_chance_nodes_in_history() == len(games.get(game_id).deck(game.spec.options))


def test_open_hands_deals_only_the_first_round() -> None:
    """With open_hands, Twenty's round 2 replays round 1's cards: no chance nodes."""
    both = pos.load("twenty", options={"open_hands": True})
    assert both.max_chance_nodes_in_history() == 52
    moves, chances, _ = _sizes(both.new_initial_state(), random.Random(3))
    assert chances == 52 and moves > 0


def test_open_hands_round_two_draws_round_ones_stock() -> None:
    """The rule, not only the count: round 2's stock is round 1's, in round 1's order."""
    state = pos.load("twenty", options={"open_hands": True}).new_initial_state()
    _sizes(state, random.Random(5))
    first, second = state.engine.history[0].deal, state.engine.deal
    assert first is not None and second is not None
    assert second["stock"] == first["stock"] and second["hands"] == first["hands"][::-1]
