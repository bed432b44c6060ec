"""Bots: only legal moves, no peeking at hidden cards, reproducible with a seed."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

import pytest

from parlour import bots, games
from parlour.bots import Budget
from parlour.bots.ismcts import ISMCTSBot, Node, halving_rounds, round_rewards
from parlour.game import State

Hide = Callable[[State, int, random.Random], State]


def hide_for(game_id: str) -> Hide:
    """Each game's test module defines ``hide_<module>`` (re-deals what a seat cannot see)."""
    name = game_id.replace("-", "_")
    hide: Hide = getattr(importlib.import_module(f"test_{name}"), f"hide_{name}")
    return hide


def positions(game_id: str, count: int, seed: int = 0) -> list[State]:
    """``count`` positions reached by random play (a seat to move in each)."""
    game = games.get(game_id)
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_match(seed=rng.randrange(10**9))
        while state.current_player() is not None and len(found) < count:
            if rng.random() < 0.2:
                found.append(state.copy())
            state.apply(rng.choice(state.legal_moves()))
    return found


SMALL = {"ismcts": "ismcts:iterations=40", "ismcts-heuristic": "ismcts:iterations=25,rollout=heuristic"}


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize(("spec", "count"), [("random", 2000), ("heuristic", 2000), ("easy", 1000),
                                             (SMALL["ismcts"], 150), (SMALL["ismcts-heuristic"], 100),
                                             # the search as hard runs it (heuristic rollouts and prior), everywhere
                                             pytest.param("ismcts:iterations=8,rollout=heuristic", 1500,
                                                          marks=pytest.mark.slow)])
def test_bots_return_legal_moves(game_id: str, spec: str, count: int) -> None:
    bot = bots.make(spec)
    rng = random.Random(1)
    for state in positions(game_id, count):
        seat = state.current_player()
        assert seat is not None
        legal = state.legal_moves()
        assert bot.choose(state.observation(seat), legal, rng) in legal


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("spec", ["heuristic", "easy", SMALL["ismcts"], SMALL["ismcts-heuristic"]])
def test_bots_do_not_see_hidden_cards(game_id: str, spec: str) -> None:
    """Two states that differ only in cards hidden from the seat get the same decision."""
    hide = hide_for(game_id)
    rng = random.Random(2)
    checked = 0
    for state in positions(game_id, 60, seed=3):
        seat = state.current_player()
        assert seat is not None
        other = hide(state, seat, rng)
        if other.snapshot() == state.snapshot():
            continue  # nothing hidden left (the end of a round)
        a = bots.make(spec).choose(state.observation(seat), state.legal_moves(), random.Random(7))
        b = bots.make(spec).choose(other.observation(seat), other.legal_moves(), random.Random(7))
        assert a == b
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("game_id", games.ids())
def test_iteration_budget_is_reproducible(game_id: str) -> None:
    bot = bots.make("ismcts:iterations=60")
    for state in positions(game_id, 10, seed=5):
        seat = state.current_player()
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_moves()
        assert isinstance(bot, ISMCTSBot)
        first = bot.analyse(obs, legal, random.Random(3))
        assert first == bot.analyse(obs, legal, random.Random(3))


class _Clock:
    """A clock that moves on 10 ms each time it is read, so that a time budget is spent after the
    same number of reads on any machine, however loaded (a wall clock would fail by chance)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def perf_counter(self) -> float:
        self.reads += 1
        self.now += 0.01
        return self.now


def test_ismcts_respects_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.bots import ismcts

    state = positions("twenty", 1, seed=8)[0]
    seat = state.current_player()
    assert seat is not None
    legal = state.legal_moves()
    clock = _Clock()
    monkeypatch.setattr(ismcts, "time", clock)
    bot = bots.make("ismcts:seconds=0.2")
    assert bot.choose(state.observation(seat), legal, random.Random(0)) in legal
    # 0.2 s is 20 reads of the clock; each halving round may read once past its share of the deadline.
    rounds = ismcts.halving_rounds(len(legal))
    assert 20 <= clock.reads <= 20 + 2 * rounds + 1


def test_ismcts_finds_an_exact_twenty() -> None:
    """With a ten in hand on a tally of 10, every sensible search takes the Exact Twenty."""
    from parlour.cards import cards, standard_deck

    game = games.get("twenty")
    hand0, hand1 = cards("TC 2C 3C 4C 5C"), cards("KD 6D 7D 8D 9D")
    used = [*cards("QS 8S"), *hand0, *hand1]
    deal = {"revealed": cards("QS 8S"), "hands": [hand0, hand1],
            "stock": [c for c in standard_deck() if c not in used]}
    state = game.new_match(deal=deal, first=1)
    state.apply(state.parse_move("play KD"))  # tally 10; Albert holds TC
    obs = state.observation(0)
    for spec in ("heuristic", "ismcts:iterations=300"):
        assert str(bots.make(spec).choose(obs, state.legal_moves(), random.Random(0))) == "play TC"


def test_round_rewards() -> None:
    assert round_rewards([10, 4]) == [6, -6]
    assert round_rewards([9, 3, 0]) == [7.5, -1.5, -6]


def test_levels_and_specs() -> None:
    assert set(bots.LEVELS) == {"easy", "medium", "hard", "expert"}
    hard = bots.make("hard")
    assert isinstance(hard, ISMCTSBot) and hard.name == "hard"
    assert hard.budget_for("minus-twenty") == Budget(games.entry("minus-twenty").levels["hard"], None)
    assert all(set(games.entry(g).levels) == set(bots.SEARCH_LEVELS) for g in games.ids())
    assert bots.make("ismcts:iterations=10,rollout=heuristic").budget == Budget(10, None)
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make("grandmaster")
    with pytest.raises(ValueError, match="bad settings"):
        bots.make("random:depth=3")
    with pytest.raises(ValueError, match="rollout must be"):
        bots.make("ismcts:rollout=magic")


def test_hint_lists_three_moves_with_estimates() -> None:
    state = positions("twenty", 1, seed=11)[0]
    seat = state.current_player()
    assert seat is not None
    estimates = bots.hint(state.observation(seat), state.legal_moves(), random.Random(0))
    assert 1 <= len(estimates) <= 3
    assert all(e.move in state.legal_moves() for e in estimates)
    assert [e.visits for e in estimates] == sorted((e.visits for e in estimates), reverse=True)
    assert "points" in bots.format_estimate(estimates[0])


def test_halving_rounds() -> None:
    assert [halving_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9, 14)] == [1, 1, 2, 2, 3, 3, 4, 4]


@pytest.mark.parametrize("game_id", games.ids())
def test_sequential_halving_plays_every_running_move_on_the_same_samples(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sample is played by every move still in the running, the budget is spent
    in equal shares per halving round, and the better half goes on."""
    game = games.get(game_id)
    state = next(s for s in positions(game_id, 40, seed=9) if len(s.legal_moves()) >= 5)
    seat = state.current_player()
    assert seat is not None
    legal = state.legal_moves()
    samples = 0
    real_sampler = game.sampler

    def counting_sampler(observation: dict[str, object]) -> Callable[[random.Random], State]:
        sample = real_sampler(observation)

        def counted(rng: random.Random) -> State:
            nonlocal samples
            samples += 1
            return sample(rng)

        return counted

    monkeypatch.setattr(game, "sampler", counting_sampler)
    budget = 400
    estimates = ISMCTSBot(iterations=budget).analyse(state.observation(seat), legal, random.Random(4))
    assert {e.move for e in estimates} == set(legal)
    running, expected_samples, expected_visits = len(legal), 0, {}
    rounds = halving_rounds(len(legal))
    for round_number in range(rounds):
        quota = max(1, budget // (rounds * running))
        expected_samples += quota
        expected_visits[running] = quota
        running = -(-running // 2) if round_number + 1 < rounds else running
    assert samples == expected_samples
    visits = [e.visits for e in estimates]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) <= budget
    # The first half-round's losers were played on the first round's samples only.
    assert visits[-1] == expected_visits[len(legal)]
    # The chosen move was played on every sample.
    assert visits[0] == samples
    assert estimates[0].move == ISMCTSBot(iterations=budget).choose(
        state.observation(seat), legal, random.Random(4))


def test_tree_follows_the_advice_until_the_statistics_say_otherwise() -> None:
    """PUCT below the root: an unvisited node plays the policy's move; a move that
    has done far better for its player is preferred to the advice."""
    from parlour.game import Move

    bot = ISMCTSBot(iterations=10, rollout="heuristic")
    moves = [Move("play", ("a",)), Move("play", ("b",)), Move("play", ("c",))]
    assert bot._select({}, moves, moves[1], 1.0, 10.0) == moves[1]
    children = {m: Node(m, 0) for m in moves}
    for move, mean in zip(moves, (40.0, -10.0, 0.0)):
        children[move].visits = 50
        children[move].total = mean * 50
    assert bot._select(children, moves, moves[1], 1.0, 10.0) == moves[0]
    # Random rollouts give no advice: every move has the same prior, unvisited ones are tried.
    children[moves[2]].visits = children[moves[2]].total = 0
    assert bot._select(children, moves, None, 1.0, 10.0) == moves[2]


def test_ismcts_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="prior must be"):
        bots.make("ismcts:prior=2")
    with pytest.raises(ValueError, match="iterations must be"):
        bots.make("ismcts:iterations=0")
    with pytest.raises(ValueError, match="seconds must be"):
        bots.make("ismcts:seconds=-1")


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize(("spec", "count"), [("heuristic", 1500), ("medium", 1500), (SMALL["ismcts-heuristic"], 60)])
def test_bots_choose_among_the_moves_they_are_handed(game_id: str, spec: str, count: int) -> None:
    """Handed only some of the legal moves (as a restricted bot hands its bot: see
    ``parlour.bots.Restricted``), a bot chooses one of those, never another legal move."""
    bot = bots.make(spec)
    rng = random.Random(2)
    for state in positions(game_id, count, seed=3):
        seat = state.current_player()
        assert seat is not None
        legal = state.legal_moves()
        handed = [move for move in legal if rng.random() < 0.5] or legal[:1]
        assert bot.choose(state.observation(seat), handed, rng) in handed


def test_the_readme_gives_hards_search_budgets() -> None:
    """The README's level table states hard's budget in each game: its simulations a move, or, where
    it searches in batches (``GameEntry.leaf``; only with a compiled plug-in: else it is slower), its
    rollouts a move and how many a leaf."""
    from pathlib import Path

    from parlour.batch.rollout import COMPILED

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for game_id in games.ids():
        budget, leaf, name = bots.level_iterations("hard", game_id), games.entry(game_id).leaf, games.get(game_id).name
        if leaf:
            assert game_id in COMPILED, f"{game_id} batches its levels' rollouts without a compiled plug-in"
            assert f"{name}: {budget} rollouts a move in batches, each leaf rolled out {leaf} times" in readme
        else:
            assert f"{name}: {budget} simulations a move" in readme
