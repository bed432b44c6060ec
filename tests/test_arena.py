"""The duplicate arena: pairing, statistics (against hand-computed values), determinism."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from parlour import record
from parlour.lab import arena
from parlour.lab.arena import MatchResult, seatings, summarise
from parlour.lab.stats import mean_and_margin, wilson_interval


def test_seatings_two_and_three_players() -> None:
    assert seatings(2) == [(0, 1), (1, 0)]
    assert seatings(3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for n in (2, 3):
        for player in range(n):
            assert sorted(s.index(player) for s in seatings(n)) == list(range(n))  # every seat once


def test_wilson_interval_by_hand() -> None:
    # 7 of 10: p = .7, z² = 3.8415; centre = (.7 + .19208) / 1.38415 = .64449,
    # half = 1.96 √(.021 + .0096) / 1.38415 = .24772 → (.3968, .8922)
    lo, hi = wilson_interval(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-4) and hi == pytest.approx(0.8922, abs=1e-4)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0) and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_and_margin_by_hand() -> None:
    # [1, 2, 3, 4]: mean 2.5, s² = 5/3, se = .645497, margin = 1.959964 × .645497 = 1.26515
    mean, margin = mean_and_margin([1, 2, 3, 4])
    assert mean == 2.5 and margin == pytest.approx(1.26515, abs=1e-5)
    assert mean_and_margin([5])[1] == math.inf


def test_summary_by_hand() -> None:
    results = [
        MatchResult(0, (0, 1), [10, 4], [0], 2, 100),    # player 0 wins by 6
        MatchResult(0, (1, 0), [7, 7], [0, 1], 2, 100),  # draw
        MatchResult(1, (0, 1), [3, 9], [1], 2, 100),     # player 1 wins by 6
        MatchResult(1, (1, 0), [12, 2], [0], 2, 100),    # player 1 (seat 0) wins by 10
    ]
    first, second = summarise(["a", "b"], results)
    assert (first.wins, first.draws, first.losses) == (1, 1, 2)
    assert first.win_rate == 0.375 and second.win_rate == 0.625
    # per-deal means for player 0: deal 0 (6 + 0)/2 = 3, deal 1 (-6 - 10)/2 = -8 → mean -2.5,
    # s = √(2 × 5.5²) = 7.7782, se = 5.5, margin = 1.959964 × 5.5 = 10.7798
    assert first.mean_diff == -2.5 and first.mean_diff_margin == pytest.approx(10.7798, abs=1e-4)
    assert second.mean_diff == 2.5
    seat0, seat1 = first.per_seat
    assert (seat0.matches, seat0.win_rate, seat0.mean_diff) == (2, 0.5, 0.0)
    assert (seat1.matches, seat1.win_rate, seat1.mean_diff) == (2, 0.25, -5.0)


def test_three_player_summary_counts_shared_wins_as_draws() -> None:
    results = [MatchResult(0, s, [5, 5, 2], [0, 1], 6, 300) for s in seatings(3)]
    stats = summarise(["a", "b", "c"], results)
    assert [(p.wins, p.draws, p.losses) for p in stats] == [(0, 2, 1)] * 3
    # seat diffs: 5 - 3.5 = 1.5, 1.5, 2 - 5 = -3 → each player's mean over its three seats is 0
    assert all(p.mean_diff == 0 for p in stats)


def test_every_deal_is_played_in_every_seating_with_the_same_cards(tmp_path: Path) -> None:
    result = arena.run("twenty", ["heuristic", "random"], 3, seed=4, save=tmp_path)
    assert [(r.deal, r.seating) for r in result.results] == [(d, s) for d in range(3) for s in seatings(2)]
    for deal in range(3):
        a, b = (json.loads((tmp_path / f"deal{deal:05d}-seating{s}.json").read_text()) for s in ("01", "10"))
        assert [r["deal"] for r in a["rounds"]] == [r["deal"] for r in b["rounds"]]
        assert a["players"] == ["heuristic", "random"] and b["players"] == ["random", "heuristic"]
        assert record.replay(record.from_data(a)).totals == next(
            r.totals for r in result.results if r.deal == deal and r.seating == (0, 1))


def test_results_do_not_depend_on_jobs() -> None:
    one = arena.run("twenty", ["heuristic", "random"], 4, seed=9, jobs=1)
    two = arena.run("twenty", ["heuristic", "random"], 4, seed=9, jobs=2)
    assert one.results == two.results


def test_rounds_only_plays_one_round() -> None:
    result = arena.run("twenty", ["random", "random"], 2, rounds_only=True)
    assert all(r.rounds == 1 and r.moves == 50 for r in result.results)


def test_bad_players_are_rejected() -> None:
    with pytest.raises(ValueError, match="needs 2 players"):
        arena.run("twenty", ["random"], 1)
    with pytest.raises(ValueError, match="unknown bot"):
        arena.run("twenty", ["random", "grandmaster"], 1)
