"""The sparring partner (``parlour.bots.make("sparring")``): the cheap training opponent.

Its strength and speed are measured, not tested here (``docs/strength.md``, *The sparring
partner*; ``benchmarks/sparring.py``): these tests hold what is true for every seed."""

from __future__ import annotations

import random

import pytest

from parlour import bots, games
from parlour.bots.sparring import FALLBACK, SparringBot, plan_for, spec_for

GAMES = ("minus-twenty", "progression", "twenty", "silver-bars")


def test_made_by_its_spec() -> None:
    bot = bots.make("sparring")
    assert isinstance(bot, SparringBot)
    assert bot.name == "sparring"
    assert "sparring" in bot.describe()


def test_every_game_has_its_own_setting() -> None:
    assert {e.id for e in games.REGISTRY.entries() if e.sparring is not None} == set(GAMES)
    for game_id in GAMES:
        assert spec_for(game_id) == games.entry(game_id).sparring.spec
        bots.make(spec_for(game_id))  # a valid spec
    assert spec_for("a-plug-in") == FALLBACK


def test_minus_twenty_plays_the_advice_without_medium_wavering() -> None:
    """In Minus Twenty it is the heuristic bot at temperature 0: medium samples, it never does."""
    assert spec_for("minus-twenty") == "heuristic"
    assert bots.parse_spec("medium")[1].get("temperature") == "club"


def _positions(game_id: str, seed: int, count: int) -> list[tuple[dict, list]]:
    """``count`` decisions with a real choice from a seeded match of medium bots."""
    game = games.get(game_id)
    state = game.new_match(seed=seed)
    medium = bots.make("medium")
    rng = random.Random(seed)
    found = []
    while len(found) < count and state.current_player() is not None:
        seat = state.current_player()
        assert seat is not None
        observation, legal = state.observation(seat), state.legal_moves()
        if len(legal) > 1:
            found.append((observation, legal))
        state.apply(medium.choose(observation, legal, rng))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_plays_as_its_game_setting_says(game_id: str) -> None:
    """Looking ahead at every decision (``share=1``), it moves as the bot its spec names,
    from the same RNG, except where the game leaves a kind of decision to the advice."""
    sparring = bots.make("sparring:share=1")
    inner, advice = bots.make(spec_for(game_id)), bots.make(FALLBACK)
    kind_of = games.get(game_id).move_kind
    for i, (observation, legal) in enumerate(_positions(game_id, seed=11, count=8)):
        move = sparring.choose(observation, legal, random.Random(i))
        assert move in legal
        left = any(kind_of(m) in plan_for(game_id).advice_kinds for m in legal)
        assert move == (advice if left else inner).choose(observation, legal, random.Random(i))


@pytest.mark.parametrize("game_id", GAMES)
def test_share_zero_is_the_advice(game_id: str) -> None:
    sparring, advice = bots.make("sparring:share=0"), bots.make(FALLBACK)
    for i, (observation, legal) in enumerate(_positions(game_id, seed=12, count=8)):
        assert sparring.choose(observation, legal, random.Random(i)) == advice.choose(observation, legal,
                                                                                        random.Random(i))


def test_a_share_is_a_share() -> None:
    for bad in ("-0.1", "1.5"):
        with pytest.raises(ValueError, match="share"):
            bots.make(f"sparring:share={bad}")
    assert 0.0 < plan_for("silver-bars").share < 1.0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_forced_move_is_played_at_once(game_id: str) -> None:
    observation, legal = _positions(game_id, seed=3, count=1)[0]
    assert bots.make("sparring").choose(observation, legal[:1], random.Random(0)) == legal[0]


def test_same_seed_same_match() -> None:
    """Deterministic for a seed (its search has an iteration budget, not a time limit)."""
    from parlour.envs.gymnasium import ParlourEnv

    def totals() -> list[int]:
        env = ParlourEnv("silver-bars", opponent="sparring", seat=0, max_rounds=1)
        rng = random.Random(5)
        _obs, info = env.reset(seed=5)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _obs, _r, done, _t, info = env.step(int(legal[rng.randrange(len(legal))]))
        return list(info["totals"])

    assert totals() == totals()
