"""The OpenSpiel adapter: registration, OpenSpiel's own conformance test, chance
nodes, replay in the engine, hidden information, and OpenSpiel's search bots."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from parlour import games, record  # noqa: E402
from parlour.envs import openspiel as pos  # noqa: E402
from parlour.game import Move  # noqa: E402

from .spiel import play_random  # noqa: E402

GAME_IDS = list(games.GAME_IDS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_registered_and_loadable(game_id: str) -> None:
    name = pos.SHORT_NAMES[game_id]
    assert name in pyspiel.registered_names()
    game = pyspiel.load_game(name)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == games.get(game_id).players
    assert game.num_distinct_actions() == game.spec.space.num_actions
    assert game.max_chance_outcomes() == len(game.cards)
    single = pyspiel.load_game(f"{name}(rounds_only=True,first=1)")
    assert single.max_game_length() < game.max_game_length() or game_id == "twenty"


def test_options_in_a_load_game_string() -> None:
    game = pyspiel.load_game("python_parlour_minus_twenty(rounds_only=True,options=hand_size:8;rounds:1)")
    assert game.spec.options["hand_size"] == 8 and game.spec.rounds_only
    assert pos.load("minus-twenty", options={"hand_size": 8}).spec.options["hand_size"] == 8


@pytest.mark.parametrize(("game_id", "rounds_only"), [
    (game_id, rounds_only) for game_id in GAME_IDS for rounds_only in (True, False)
    # A six-round Progression match is in the slow test below.
    if rounds_only or game_id != "progression"
])
def test_random_sim_test(game_id: str, rounds_only: bool) -> None:
    game = pos.load(game_id, rounds_only=rounds_only)
    pyspiel.random_sim_test(game, num_sims=2 if rounds_only else 1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_sim_test_more(game_id: str) -> None:
    pyspiel.random_sim_test(pos.load(game_id), num_sims=5, serialize=False, verbose=False)
    pyspiel.random_sim_test(pos.load(game_id, rounds_only=True), num_sims=20, serialize=False, verbose=False)


@pytest.mark.parametrize(("game_id", "options"), [
    ("minus-twenty", {"hand_size": 8, "best_of": 3}),
    ("twenty", {"open_hands": True}),
    ("silver-bars", {"mining_packs": 1, "rubble": 0, "target_score": 20, "max_rounds": 3}),
    ("progression", {"takeback": False, "rounds": 1}),
])
def test_random_sim_test_with_options(game_id: str, options: dict[str, object]) -> None:
    # serialize=True: a game with rule options is written and read back through its game string
    pyspiel.random_sim_test(pos.load(game_id, options=options), num_sims=1, serialize=True, verbose=False)


def test_unbounded_options_are_refused() -> None:
    with pytest.raises(Exception, match="stall_limit"):
        pos.load("minus-twenty", options={"stall_limit": 0})
    with pytest.raises(Exception, match="max_rounds"):
        pos.load("silver-bars", options={"max_rounds": 0})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_chance_outcomes_are_the_unplaced_cards(game_id: str) -> None:
    game = pos.load(game_id, rounds_only=True)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked_draws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            w = state._w
            if w.dealt is not None:
                left = game.spec.deck.copy()
                left.subtract(w.dealt)
            else:
                engine = state.engine
                left = Counter(engine.stock[engine.stock_pos + w.filled:])
                checked_draws += 1
            total = sum(n for n in left.values() if n > 0)
            expected = {game.spec.card_index[c]: n / total for c, n in left.items() if n > 0}
            assert dict(outcomes) == pytest.approx(expected)
            ids, probs = zip(*outcomes)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked_draws > 0


def test_silver_bars_twins_share_an_outcome() -> None:
    game = pos.load("silver-bars")
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    deck = Counter(games.get("silver-bars").deck(game.spec.options))
    for card, copies in deck.items():
        assert outcomes[game.spec.card_index[card]] == pytest.approx(copies / deck.total())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_episode_replays_in_the_engine(game_id: str) -> None:
    game = pos.load(game_id, options={"rounds": 2} if game_id in ("minus-twenty", "progression") else None)
    state = play_random(game.new_initial_state(), random.Random(11))
    replayed = record.replay(record.from_data(record.to_data(state.engine)))
    assert replayed.is_match_over()
    totals = replayed.totals
    mean_others = [(sum(totals) - t) / (len(totals) - 1) for t in totals]
    assert state.returns() == pytest.approx([t - m for t, m in zip(totals, mean_others)])
    assert sum(state.returns()) == pytest.approx(0.0)


def _twenty_history(opponent: list[str], stock_head: list[str]) -> list[int]:
    """Chance outcomes for a Twenty deal: revealed 2C 3C, seat 0 holds 4C–8C, seat 1 ``opponent``,
    then the stock starting with ``stock_head``."""
    game = pos.load("twenty", rounds_only=True)
    index = {str(c): i for i, c in enumerate(game.cards)}
    return [index[c] for c in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", *opponent, *stock_head]]


def test_information_state_hides_what_the_seat_cannot_see() -> None:
    game = pos.load("twenty", rounds_only=True)
    states = []
    # Seat 1's hands differ in one card; seat 1 plays its shared cards, seat 0 too.
    for opponent in (["9D", "TD", "JD", "QD", "KD"], ["9D", "TD", "JD", "QD", "AS"]):
        state = game.new_initial_state()
        for outcome in _twenty_history(opponent, [])[:12]:
            state.apply_action(outcome)
        states.append(state)
    for state in states:
        assert state.current_player() == 0
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    assert np.array_equal(states[0].information_state_tensor(0), states[1].information_state_tensor(0))
    assert states[0].observation_string(0) == states[1].observation_string(0)
    assert states[0].information_state_string(1) != states[1].information_state_string(1)
    index = {m: i for i, m in enumerate(game.actions)}
    moves = [Move.parse(m) for m in ("play 4C", "play 9D", "play 5C", "play TD")]
    for state in states:
        for move in moves:
            state.apply_action(index[move])
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    assert np.array_equal(states[0].information_state_tensor(0), states[1].information_state_tensor(0))
    assert np.array_equal(states[0].observation_tensor(0), states[1].observation_tensor(0))
    assert not np.array_equal(states[0].information_state_tensor(1), states[1].information_state_tensor(1))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_resample_keeps_the_information_state(game_id: str) -> None:
    game = pos.load(game_id, rounds_only=True)
    rng = random.Random(5)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
            continue
        decisions += 1
        if decisions % 7 == 1:
            player = state.current_player()
            sampled = state.resample_from_infostate(player, sampler)
            assert sampled.current_player() == player
            assert sampled.information_state_string(player) == state.information_state_string(player)
            assert sampled.legal_actions() == state.legal_actions()
            play_random(sampled, random.Random(decisions))
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_bots_play_a_round(game_id: str) -> None:
    game = pos.load(game_id, rounds_only=True)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    players = [ismcts.ISMCTSBot(game, evaluator, 10.0, 3, random_state=rs),
               mcts.MCTSBot(game, 10.0, 3, evaluator, random_state=rs, solve=False)]
    players += players[:1] * (game.num_players() - 2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(ids, p=probs)))
        else:
            action = int(players[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(("game_id", "options"), [
    ("minus-twenty", None), ("progression", {"takeback": False, "rounds": 1}), ("twenty", {"open_hands": True}),
    ("silver-bars", {"rubble": 0, "max_rounds": 3}),
])
def test_games_and_states_pickle(game_id: str, options: dict[str, object] | None) -> None:
    """Games and states pickle, rule options included (multiprocessing and Ray send them so);
    the game string reads back the same game."""
    import pickle

    game = pos.load(game_id, rounds_only=True, options=options)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.get_parameters() == game.get_parameters()
    assert again.spec.options == game.spec.options
    assert pyspiel.load_game(str(game)).spec.options == game.spec.options
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(60):
        if state.is_terminal():
            break
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    for player in range(game.num_players()):
        assert copy.observation_tensor(player) == state.observation_tensor(player)
