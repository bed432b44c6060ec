"""A deal without chance is the game's to say (``State.deal_without_chance``, ``Game.dealt_by_chance``):
Twenty with ``open_hands`` replays round 1's deal with the hands exchanged in round 2, every other
game shuffles every round; the conformance check holds the two answers together, and the OpenSpiel
adapter deals such rounds with no chance node, however many rounds the match has."""

from __future__ import annotations

import random

import pytest

from parlour import conformance, games
from parlour.game import State


def _play_round(state: State, rng: random.Random) -> None:
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_round_is_shuffled_by_default(game_id: str) -> None:
    game = games.get(game_id)
    state = game.new_match(seed=1)
    _play_round(state, random.Random(1))
    assert state.deal_without_chance() is None
    assert all(game.dealt_by_chance(state.options, r) for r in range(4))
    assert not game.hands_face_up(state.options)


def test_twenty_with_open_hands_replays_the_deal_with_the_hands_exchanged() -> None:
    twenty = games.get("twenty")
    state = twenty.new_match(seed=5, options={"open_hands": True, "rounds": 4})
    assert twenty.hands_face_up(state.options)
    assert [twenty.dealt_by_chance(state.options, r) for r in range(4)] == [True, False, True, False]
    rng = random.Random(5)
    for round_index in range(3):
        _play_round(state, rng)
        fixed = state.deal_without_chance()
        assert (fixed is None) == (round_index % 2 == 1)
        before = state.deal
        state.next_round()
        if fixed is not None:
            assert before is not None and state.deal == fixed
            assert fixed["hands"] == [before["hands"][1], before["hands"][0]]
            assert fixed["stock"] == before["stock"] and fixed["revealed"] == before["revealed"]


def test_conformance_catches_a_deal_without_chance_that_is_not_said(monkeypatch: pytest.MonkeyPatch) -> None:
    twenty = games.get("twenty")
    monkeypatch.setattr(type(twenty.new_match(seed=0)), "deal_without_chance", lambda self: None)
    with pytest.raises(conformance.ConformanceError, match="dealt_by_chance says round 2 is not dealt by chance"):
        conformance.run(twenty, lambda state, seat, rng: state.copy(), matches=1, deep_every=10**6,
                        options={"open_hands": True})


def test_openspiel_deals_every_second_round_of_open_hands_without_chance() -> None:
    pytest.importorskip("pyspiel")
    from parlour.envs import openspiel as pos

    game = pos.load("twenty", options={"open_hands": True, "rounds": 4})
    assert game.max_chance_nodes_in_history() == 2 * 52
    rng = random.Random(2)
    state = game.new_initial_state()
    chance_by_round = [0, 0, 0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            engine = state.engine  # a round is being dealt or drawn from: the next one once this one is over
            dealing = 0 if engine is None else engine.round_index + engine.is_round_over()
            chance_by_round[dealing] += 1
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_by_round[1] == chance_by_round[3] == 0 and chance_by_round[0] > 12 and chance_by_round[2] > 12
    assert state.engine.round_index == 3 and sum(state.returns()) == pytest.approx(0.0)
