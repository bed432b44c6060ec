"""The lab's random bots on the batched engines (:mod:`parlour.batch.arena`) store exactly what
they store when the rules engine plays every move: the same records, round scores, events,
totals and winners, match for match, under every kind of option."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("numba")

from parlour import batch, games
from parlour.batch import arena
from parlour.lab import runner
from parlour.lab.spec import ExperimentSpec

VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("minus-twenty", {}, 24),
    ("minus-twenty", dict(games.get("minus-twenty").micro_options), 24),
    ("minus-twenty", {"hand_size": 3, "suits": 2, "numbers": 5, "investments": 1, "minus": 10, "stall_limit": 2}, 16),
    ("minus-twenty", {"best_of": 3, "hand_size": 5}, 12),
    ("progression", {}, 12),
    ("progression", dict(games.get("progression").micro_options), 24),
    ("progression", {"suits": 2, "numbers": 5, "faces": 1, "hand_size": 3, "stall_limit": 2, "rounds": 3}, 16),
    ("progression", {"takeback": False, "target_score": 15, "suits": 2, "hand_size": 4}, 12),
    ("twenty", {}, 24),
    ("twenty", dict(games.get("twenty").micro_options), 24),
    ("twenty", {"open_hands": True, "rounds": 3, "suits": 3, "hand_size": 4, "hands": 3}, 16),
    ("silver-bars", {}, 12),
    ("silver-bars", dict(games.get("silver-bars").micro_options), 24),
    ("silver-bars", {"mining_packs": 4, "lo_thieves": 8, "hi_thieves": 4, "max_rounds": 3, "target_score": 1000}, 6),
    ("silver-bars", {"hand_size": 3, "rubble": 0, "shovels": 0, "strikes": 0}, 12),
]
GAMES = sorted({game_id for game_id, _, _ in VARIANTS})


def spec_of(game_id: str, options: dict[str, Any], count: int, **kw: Any) -> ExperimentSpec:
    players = ("random",) * games.get(game_id).players
    return ExperimentSpec("arena", game_id, options, players, "deals", count, seed=11, **kw)


def both_ways(spec: ExperimentSpec) -> tuple[list[Any], list[Any]]:
    """The experiment's matches played by :func:`runner.play_tasks` (on the batched engine) and
    one by one by the rules engine (:func:`runner.play_task`)."""
    tasks = list(spec.tasks())
    assert runner.on_batched_engine(spec)
    return runner.play_tasks(spec, tasks), [runner.play_task(spec, task) for task in tasks]


@pytest.mark.parametrize(("game_id", "options", "deals"), VARIANTS)
def test_the_batched_lab_stores_what_the_rules_engine_stores(game_id: str, options: dict[str, Any],
                                                             deals: int) -> None:
    spec = spec_of(game_id, options, deals)
    batched, python = both_ways(spec)
    assert batched == python
    assert len(batched) == spec.total and all(match.moves > 0 for match in batched)


@pytest.mark.parametrize("game_id", GAMES)
def test_first_rounds_only(game_id: str) -> None:
    batched, python = both_ways(spec_of(game_id, {}, 10, rounds_only=True))
    assert batched == python
    assert {len(match.rounds) for match in batched} == {1}


def test_a_round_longer_than_the_log_goes_on_in_the_next_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds of many more moves than a log row holds, for every match of the call (each call
    stops at the first row that fills, and the next goes on from that match)."""
    monkeypatch.setattr(arena, "ROUND_LOG", 7)
    batched, python = both_ways(spec_of("minus-twenty", {"stall_limit": 3}, 6))
    assert batched == python


def test_the_batched_engine_is_used_for_random_bots_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random bots go to the batched engine; slips (noise) or any other bot stay on the rules
    engine; and without numba (``PARLOUR_BATCH=off``) the very same results come from the rules engine."""
    calls = []
    play = arena.play_matches

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(len(args[1]))
        return play(*args, **kw)

    monkeypatch.setattr(arena, "play_matches", counted)
    spec = spec_of("minus-twenty", {}, 3)
    tasks = list(spec.tasks())
    on = runner.play_tasks(spec, tasks)
    assert calls == [len(tasks)]
    for other in (replace(spec, noise=0.1), replace(spec, players=("random", "easy"))):
        runner.play_tasks(other, tasks[:2])
    assert calls == [len(tasks)]
    monkeypatch.setenv(batch.OFF, "off")
    assert not runner.on_batched_engine(spec)
    assert runner.play_tasks(spec, tasks) == on
    assert calls == [len(tasks)]


def test_options_the_engine_refuses_go_to_the_rules_engine() -> None:
    """100 Silver Bars without a limit on rounds (``max_rounds`` 0) is for the rules engine only:
    the batched engine refuses it, and the lab plays those matches as ever."""
    spec = spec_of("silver-bars", {"max_rounds": 0, "target_score": 30}, 2)
    tasks = list(spec.tasks())
    with pytest.raises(arena.Unsupported, match="max_rounds"):
        arena.play_matches(spec.game, [tasks[0].seed], [tasks[0].seating], ["a", "b"], options=spec.options)
    assert runner.play_tasks(spec, tasks) == [runner.play_task(spec, task) for task in tasks]


def test_warm_plays_every_engine_that_takes_random_rounds() -> None:
    warmed = arena.warm()
    assert sorted(warmed) == sorted(games.ids()) == GAMES
    assert all(arena.supports(g, ["random"] * games.get(g).players) for g in warmed)
    assert not arena.supports("minus-twenty", ["random", "medium"])
    assert not arena.supports("minus-twenty", ["random", "random"], noise=0.05)
