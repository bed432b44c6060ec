"""A bot that knows its chances says them (Bot.probabilities), and they are its play:
seeded choices follow them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour import bots, games
from parlour.bots import Slips


def _positions(game_id: str, count: int) -> list[tuple[dict, list]]:  # type: ignore[type-arg]
    """Seeded positions from random play, each with a choice of at least two moves."""
    rng = random.Random(game_id)
    found = []
    state = games.get(game_id).new_match(seed=7)
    while len(found) < count:
        if state.is_match_over():
            state = games.get(game_id).new_match(seed=rng.randrange(10**6))
            continue
        if state.is_round_over():
            state.next_round()
            continue
        legal = state.legal_moves()
        if len(legal) > 1:
            found.append((state.observation(state.current_player()), legal))
        state.apply(rng.choice(legal))
    return found


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_random_and_medium_state_chances_that_sum_to_one(game_id: str) -> None:
    for observation, legal in _positions(game_id, 40):
        uniform = bots.make("random").probabilities(observation, legal)
        assert uniform == [1 / len(legal)] * len(legal)
        medium = bots.make("medium").probabilities(observation, legal)
        if medium is not None:
            assert len(medium) == len(legal) and sum(medium) == pytest.approx(1.0)
            assert all(p > 0 for p in medium)
        slipping = Slips(bots.make("random"), 0.2).probabilities(observation, legal)
        assert slipping == pytest.approx(uniform)


def test_medium_minus_twenty_plays_by_its_stated_chances() -> None:
    """Minus Twenty's medium weighs moves at a club temperature: over many seeded choices at
    one position, each move's share is its stated chance (within 5 standard errors)."""
    bot = bots.make("medium")
    for observation, legal in _positions("minus-twenty", 60):
        chances = bot.probabilities(observation, legal)
        assert chances is not None
        if max(chances) < 0.9:
            break
    else:
        pytest.fail("no position with a close call")
    n = 2000
    rng = random.Random(11)
    counts = Counter(bot.choose(observation, legal, rng) for _ in range(n))
    for move, p in zip(legal, chances):
        assert abs(counts[move] / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 1e-9


def test_a_search_does_not_claim_chances() -> None:
    observation, legal = _positions("twenty", 1)[0]
    assert bots.make("hard").probabilities(observation, legal) is None
