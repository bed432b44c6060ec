"""The PettingZoo AEC environments of parlour.envs.pettingzoo."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from parlour import games  # noqa: E402
from parlour.envs.pettingzoo import env, raw_env  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import IllegalMoveError  # noqa: E402

GAMES = games.ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations with masks warn, as in PettingZoo's own games
        pettingzoo_test.api_test(env(game_id), num_cycles=300)
        pettingzoo_test.api_test(env(game_id, reward="round"), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed(game_id: str) -> None:
    pettingzoo_test.seed_test(lambda: env(game_id), num_cycles=300)


def play_match(e: raw_env, seed: int) -> tuple[dict[str, float], int]:
    """Play one whole episode with random legal actions; return the rewards each agent
    received and how many steps it took."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    received = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        received[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return received, steps


@pytest.mark.parametrize("game_id", GAMES)
def test_a_match_ends_with_the_engines_totals(game_id: str) -> None:
    options = {"target_score": 40} if game_id == "silver-bars" else {}
    for reward in ("match", "round"):
        e = env(game_id, reward=reward, reward_scale=1, **options)  # raw points
        received, steps = play_match(e, seed=11)
        state = e.state
        assert state is not None and state.is_match_over()
        assert e.agents == []
        totals = state.totals
        n = len(totals)
        for seat, agent in enumerate(e.possible_agents):
            others = (sum(totals) - totals[seat]) / (n - 1)
            assert received[agent] == pytest.approx(totals[seat] - others)
        # The same seed deals the same match as the engine.
        again = games.get(game_id).new_match(seed=11, options=options)
        assert again.deal == state.history[0].deal if state.history else again.deal == state.deal
        assert steps > 10


def test_round_rewards_come_after_each_round() -> None:
    e = env("minus-twenty", reward="round")
    e.reset(seed=3)
    rng = random.Random(3)
    paid_at = []
    while not all(e.terminations.values()):
        observation, *_ = e.last()
        legal = np.flatnonzero(observation["action_mask"])
        rounds_before = e.state.round_index
        e.step(int(legal[rng.randrange(len(legal))]))
        if any(e.rewards.values()):
            paid_at.append(rounds_before)
            assert sum(e.rewards.values()) == 0
    assert paid_at == [0, 1, 2]


def test_max_rounds_truncates() -> None:
    e = env("silver-bars", max_rounds=1, reward_scale=1)
    received, _ = play_match(e, seed=2)
    state = e.state
    assert state is not None and state.round_index == 0 and state.is_round_over()
    assert received["player_0"] == pytest.approx(state.totals[0] - state.totals[1])


def test_observations_are_the_seats_own() -> None:
    e = env("progression")
    e.reset(seed=4)
    sp = space("progression")
    for agent in e.possible_agents:
        seat = int(agent.split("_")[1])
        observation = e.observe(agent)
        assert np.array_equal(observation["observation"], sp.encode(e.state.observation(seat)))
        assert observation["action_mask"].any() == (agent == e.agent_selection)


def test_illegal_actions_raise() -> None:
    e = env("twenty")
    e.reset(seed=1)
    observation, *_ = e.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match="illegal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="not an index"):
        e.step(52)
    with pytest.raises(ValueError):
        e.step(-1)
    with pytest.raises(ValueError):
        e.step(None)
    with pytest.raises(RuntimeError):
        env("twenty").step(0)
    with pytest.raises(ValueError):
        env("twenty", reward="game")


def test_options_and_seeds() -> None:
    e = env("minus-twenty", hand_size=8)
    e.reset(seed=9)
    assert len(e.state.hands[0]) == 8
    first = e.state.deal
    e.reset(seed=9)
    assert e.state.deal == first
    e.reset()
    assert e.state.deal != first
    with pytest.raises(ValueError):
        env("minus-twenty", hand_size=0)


@pytest.mark.parametrize("game_id", GAMES)
def test_render_ansi(game_id: str) -> None:
    e = env(game_id, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "player_" in text and "\x1b[" not in text
    e.close()
    quiet = env(game_id)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


@pytest.mark.parametrize("game_id", GAMES)
def test_render_human_prints_the_table_and_passes_render_test(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own render_test (every render mode, over random legal play: it holds for any
    deal), and the human mode prints what the ansi mode returns."""
    pettingzoo_test.render_test(lambda render_mode: env(game_id, render_mode=render_mode))
    capsys.readouterr()
    shown, told = env(game_id, render_mode="human"), env(game_id, render_mode="ansi")
    shown.reset(seed=3)
    told.reset(seed=3)
    assert shown.render() is None
    assert capsys.readouterr().out == told.render()
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'human'"):
        env(game_id, render_mode="rgb_array")
