"""The Gymnasium environments: one seat against parlour's bots."""

from __future__ import annotations

import random
from importlib.metadata import entry_points
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from parlour import bots, games  # noqa: E402
from parlour.envs import gymnasium as parlour_gym  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import IllegalMoveError  # noqa: E402
from parlour.match import bot_rng, play_bots  # noqa: E402

ENV_OF = {game_id: env_id for env_id, game_id in parlour_gym.ENV_IDS.items()}


def random_episode(env: Any, seed: int, check: Any = None) -> tuple[float, dict[str, Any]]:
    """Play one match with uniformly random legal actions; return the summed reward and the last info."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, terminated = 0.0, False
    while not terminated:
        if check is not None:
            check(obs, info)
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        assert truncated is False
        total += reward
    return total, info


@pytest.mark.parametrize("env_id", list(parlour_gym.ENV_IDS))
def test_check_env_passes(env_id: str) -> None:
    # check_env steps with actions sampled from the whole action space, so it runs with illegal="random".
    env = gymnasium.make(env_id, illegal="random", render_mode="ansi")
    check_env(env.unwrapped)


def test_registration_is_idempotent_and_declared_as_a_plugin() -> None:
    before = {i: gymnasium.registry[i] for i in parlour_gym.ENV_IDS}
    parlour_gym.register_envs()
    assert {i: gymnasium.registry[i] for i in parlour_gym.ENV_IDS} == before
    (plugin,) = [e for e in entry_points(group="gymnasium.envs") if e.name == "parlour"]
    assert plugin.load() is parlour_gym.register_envs
    env = gymnasium.make("parlour.envs.gymnasium:parlour/Twenty-v0")
    assert env.unwrapped.game.id == "twenty"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_spaces_come_from_the_game_space(game_id: str) -> None:
    env = gymnasium.make(ENV_OF[game_id])
    sp = space(game_id)
    assert env.observation_space.shape == sp.obs_shape
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == sp.num_actions


def test_options_reach_the_match() -> None:
    env = gymnasium.make("parlour/MinusTwenty-v0", hand_size=8)
    env.reset(seed=1)
    assert env.unwrapped.state.options["hand_size"] == 8
    env = gymnasium.make("parlour/MinusTwenty-v0", options={"hand_size": 6})
    env.reset(seed=1)
    assert env.unwrapped.state.options["hand_size"] == 6
    with pytest.raises(ValueError, match="both"):
        gymnasium.make("parlour/MinusTwenty-v0", options={"hand_size": 6}, hand_size=8)
    with pytest.raises(ValueError, match="no option"):
        gymnasium.make("parlour/MinusTwenty-v0", hand_sise=8)


@pytest.mark.parametrize(("setting", "value"), [("reward", "win"), ("illegal", "ignore"), ("seat", 2),
                                                ("render_mode", "human"), ("opponent", "grandmaster"),
                                                ("opponent", ["random", "random"])])
@pytest.mark.filterwarnings("ignore:.*render_mode='human'")
def test_bad_settings_are_refused(setting: str, value: Any) -> None:
    with pytest.raises(ValueError):
        gymnasium.make("parlour/Twenty-v0", **{setting: value})


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_same_seed_same_episode(game_id: str) -> None:
    first, second = gymnasium.make(ENV_OF[game_id]), gymnasium.make(ENV_OF[game_id])
    runs = []
    for env in (first, second, first):
        obs, info = env.reset(seed=11)
        seen = [(obs, info)]
        for _ in range(6):
            obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            seen.append((obs, info))
        runs.append(seen)
    for run in runs[1:]:
        for (obs_a, info_a), (obs_b, info_b) in zip(runs[0], run):
            np.testing.assert_array_equal(obs_a, obs_b)
            np.testing.assert_array_equal(info_a["action_mask"], info_b["action_mask"])
            assert {k: v for k, v in info_a.items() if k != "action_mask"} == {
                k: v for k, v in info_b.items() if k != "action_mask"}
    other, _ = first.reset(seed=12)
    seats = {first.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == set(range(games.get(game_id).players))  # seat=None: drawn from the seed
    assert not np.array_equal(other, runs[0][0][0])


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_masks_observations_and_totals_over_a_whole_match(game_id: str) -> None:
    env = gymnasium.make(ENV_OF[game_id], reward="round", reward_scale=1)  # raw points
    raw = env.unwrapped
    game = games.get(game_id)
    sp = space(game_id)
    rng = random.Random(3)

    def check(obs: np.ndarray, info: dict[str, Any]) -> None:
        state = raw.state
        seat = info["seat"]
        assert state.current_player() == seat
        legal = state.legal_moves()
        assert info["action_mask"].dtype == np.int8
        assert {sp.actions[i] for i in np.flatnonzero(info["action_mask"])} == set(legal)
        assert sorted(info["legal_moves"]) == sorted(map(str, legal))
        observation = state.observation(seat)
        # Only the learner's seat: the same vector from its observation alone, and from
        # a state that differs in every hidden card.
        np.testing.assert_array_equal(obs, sp.encode(observation))
        np.testing.assert_array_equal(obs, sp.encode_state(game.determinize(observation, rng), seat))
        assert obs in env.observation_space

    total, info = random_episode(env, 5, check)
    state = raw.state
    assert state.is_match_over()
    assert info["totals"] == state.totals
    assert not info["action_mask"].any() and info["legal_moves"] == []
    assert total == pytest.approx(raw._margin(state.totals))  # the round rewards sum to the match margin
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_match_reward_is_paid_once_at_the_end() -> None:
    env = gymnasium.make("parlour/Twenty-v0", reward="match", reward_scale=1)  # raw points
    rng = random.Random(1)
    _, info = env.reset(seed=4)
    rewards, terminated = [], False
    while not terminated:
        _, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        rewards.append(reward)
    assert all(r == 0 for r in rewards[:-1])
    totals = info["totals"]
    seat = info["seat"]
    assert rewards[-1] == totals[seat] - totals[1 - seat]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = gymnasium.make("parlour/Twenty-v0")
    _, info = env.reset(seed=2)
    state = env.unwrapped.state
    before = state.snapshot()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    message = rf"action {illegal} \(play .*\) is illegal for seat .*legal actions now"
    with pytest.raises(IllegalMoveError, match=message):
        env.step(illegal)
    with pytest.raises(ValueError, match="not an index"):
        env.step(52)
    with pytest.raises(ValueError, match="whole number"):
        env.step(1.5)
    assert state.snapshot() == before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, _, _, _, info = env.step(np.int64(legal))
    assert info["played"] == str(space("twenty").actions[legal]) and info["illegal_action"] is False


def test_illegal_random_plays_a_seeded_random_legal_move() -> None:
    env = gymnasium.make("parlour/Twenty-v0", illegal="random")
    played = []
    for _ in range(2):
        _, info = env.reset(seed=2)
        legal = info["legal_moves"]
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        _, _, _, _, info = env.step(illegal)
        assert info["illegal_action"] is True and info["played"] in legal
        played.append(info["played"])
    assert played[0] == played[1]
    with pytest.raises(ValueError, match="not an index"):
        env.step(-1)


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_the_opponent_is_a_parlour_bot_seeded_as_in_play_bots(seat: int | None) -> None:
    # The learner plays the heuristic bot's moves with its match RNG: the episode
    # is then exactly the match that play_bots plays from the same seed.
    seed = 21
    env = gymnasium.make("parlour/MinusTwenty-v0", opponent="heuristic", seat=seat)
    raw = env.unwrapped
    heuristic = bots.make("heuristic")
    _, info = env.reset(seed=seed)
    mine = bot_rng(seed, info["seat"])
    terminated = False
    while not terminated:
        move = heuristic.choose(raw.state.observation(raw.seat), raw.state.legal_moves(), mine)
        _, _, terminated, _, info = env.step(raw.space.index[move])
    reference = play_bots(games.get("minus-twenty"), [heuristic, heuristic], seed=seed)
    assert info["totals"] == reference.totals
    assert raw.state.snapshot() == reference.snapshot()


def test_the_heuristic_opponent_beats_random_play() -> None:
    env = gymnasium.make("parlour/Twenty-v0", opponent="heuristic")
    margins = [random_episode(env, seed)[0] for seed in range(20)]
    assert sum(m < 0 for m in margins) >= 15


def test_progression_takes_one_opponent_per_other_seat_in_turn_order() -> None:
    seen: dict[str, set[int]] = {"a": set(), "b": set()}

    class Watcher(bots.RandomBot):
        def __init__(self, tag: str) -> None:
            self.tag = tag

        def choose(self, observation: Any, legal: Any, rng: random.Random, budget: Any = None) -> Any:
            seen[self.tag].add(observation["seat"])
            assert legal == observation_legal(observation, legal)
            return super().choose(observation, legal, rng)

    env = gymnasium.make("parlour/Progression-v0", opponent=[Watcher("a"), Watcher("b")], seat=1)
    raw = env.unwrapped

    def observation_legal(observation: Any, legal: Any) -> Any:
        # The bot is given its seat's observation and that seat's legal moves, nothing more.
        assert observation == raw.state.observation(observation["seat"])
        assert raw.state.current_player() == observation["seat"]
        return raw.state.legal_moves()

    random_episode(env, 8)
    assert seen == {"a": {2}, "b": {0}}
    _, info = env.reset(seed=8, options={"seat": 0})
    assert info["seat"] == 0
    with pytest.raises(ValueError, match="seat"):
        env.reset(seed=8, options={"seat": 3})
    with pytest.raises(ValueError, match="only hold"):
        env.reset(seed=8, options={"opponent": "hard"})


def test_render_shows_the_learners_table() -> None:
    env = gymnasium.make("parlour/Twenty-v0", render_mode="ansi", seat=1)
    env.reset(seed=3)
    text = env.render()
    assert "seat 1" in text and "Your hand" in text
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert gymnasium.make("parlour/Twenty-v0").unwrapped.render() is None


def test_importing_parlour_envs_registers_the_ids_in_a_fresh_interpreter() -> None:
    """As the README shows it: ``import parlour.envs`` then ``gymnasium.make`` by id."""
    import subprocess
    import sys

    code = ("import gymnasium, parlour.envs\n"
            "env = gymnasium.make('parlour/MinusTwenty-v0', opponent='hard')\n"
            "observation, info = env.reset(seed=3)\n"
            "print(observation.shape[0], int(info['action_mask'].sum()) > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["359", "True"]


@pytest.mark.parametrize("game_id", sorted(ENV_OF))
def test_action_masks_for_maskable_ppo(game_id: str) -> None:
    """``action_masks()`` (sb3-contrib's MaskablePPO calls it on the env, through Gymnasium's
    wrappers) is the info's action mask as booleans at every step of a seeded match."""
    env = gymnasium.make(ENV_OF[game_id], opponent="random")
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.action_masks()
    _, info = env.reset(seed=11)
    rng = random.Random(11)
    terminated = False
    while not terminated:
        masks = env.get_wrapper_attr("action_masks")()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert (masks == info["action_mask"].astype(bool)).all() and masks.any()
        _, _, terminated, _, info = env.step(rng.choice(np.flatnonzero(masks)))
    assert not env.unwrapped.action_masks().any()  # the match is over: nothing is legal
