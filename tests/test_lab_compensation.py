"""Compensation, recounted by hand: real experiments played into a real SQLite file, and the points
that even out the first player's edge, their rate and their interval worked out again here from the
stored match rows (totals and who played first) in plain Python, without the report's code."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from pathlib import Path

import pytest
from scipy import stats

from parlour.lab import runner
from parlour.lab.report.compensation import SweepPoint, option_value, points
from parlour.lab.report.load import Played, load_played
from parlour.lab.spec import ExperimentSpec, make_spec
from parlour.lab.stats import Z95
from parlour.store import Store

DEALS = make_spec(game="twenty", players=["easy", "random"], deals=12, options={"rounds": 1}, seed=3,
                  name="one round, deals")
MATCHES = make_spec(game="twenty", players=["easy", "random"], matches=30, options={"rounds": 1}, seed=4,
                    name="one round, matches")
THREE = make_spec(game="progression", players=["random", "random", "random"], deals=6, options={"rounds": 1},
                  seed=5, name="three players")
TWO = make_spec(game="twenty", players=["random", "random"], matches=2, options={"rounds": 1}, seed=7,
                name="two matches")
WON_ON_ROUNDS = make_spec(game="minus-twenty", players=["random", "random"], matches=20, options={"best_of": 3},
                          seed=6, name="best of three")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    lab = Store(tmp_path_factory.mktemp("compensation") / "lab.sqlite")
    runner.run([DEALS, MATCHES, THREE, TWO, WON_ON_ROUNDS], lab, jobs=1)
    return lab


def played(store: Store, name: str) -> Played:
    return load_played(store, [name])[0]


def rate_by_hand(store: Store, name: str, given: float) -> tuple[float, list[float]]:
    """The first player's win rate with ``given`` points added to its total, and its 95% interval,
    from the stored rows: over deals (each deal's mean first) with a t interval, or over matches
    with a Wilson interval."""
    experiment = store.experiment(name)
    assert experiment is not None
    by_unit: dict[int, list[float]] = defaultdict(list)
    for match in store.matches(experiment.id):
        totals = list(match.totals)
        totals[match.first] += given
        best = max(totals)
        winners = [seat for seat, total in enumerate(totals) if total == best]
        share = 1 / len(winners) if match.first in winners else 0.0
        by_unit[match.index if match.deal is None else match.deal].append(share)
    units = [sum(shares) / len(shares) for shares in by_unit.values()]
    n = len(units)
    rate = sum(units) / n
    if experiment.mode == "deals":
        half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(units) / math.sqrt(n)
        return rate, [max(0.0, rate - half), min(1.0, rate + half)]
    centre = (rate + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(rate * (1 - rate) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return rate, [max(0.0, min(centre - half, rate)), min(1.0, max(centre + half, rate))]


@pytest.mark.parametrize("spec", [DEALS, MATCHES, THREE], ids=lambda spec: spec.name)
def test_the_points_that_even_out_the_first_player_recounted(store: Store, spec: ExperimentSpec) -> None:
    name, seats = spec.name, len(spec.players)
    found = points(played(store, name))
    assert found is not None
    fair = 1 / seats
    assert found["fair_share"] == pytest.approx(fair)
    assert (found["unit"], found["units"]) == (spec.mode, spec.count)
    assert found["rate_before"] == pytest.approx(rate_by_hand(store, name, 0)[0])

    rate, ci = rate_by_hand(store, name, found["points"])
    assert found["rate"] == pytest.approx(rate)
    assert found["rate_ci"] == pytest.approx(ci)
    assert found["points"] * 2 == int(found["points"] * 2)  # on half points
    # No other number of half points brings the rate nearer the fair share.
    experiment = store.experiment(name)
    assert experiment is not None
    leads = [max(t for s, t in enumerate(m.totals) if s != m.first) - m.totals[m.first]
             for m in store.matches(experiment.id)]
    for twice in range(2 * min(leads) - 4, 2 * max(leads) + 5):
        assert abs(rate_by_hand(store, name, twice / 2)[0] - fair) >= abs(rate - fair) - 1e-12

    # The interval: the compensated rate's interval holds the fair share at both ends, and not just beyond.
    low, high = found["ci"]
    assert low is not None and high is not None and low <= found["points"] <= high
    for end, beyond in ((low, low - 0.5), (high, high + 0.5)):
        assert rate_by_hand(store, name, end)[1][0] <= fair <= rate_by_hand(store, name, end)[1][1]
        outside = rate_by_hand(store, name, beyond)[1]
        assert not outside[0] <= fair <= outside[1]


def test_an_interval_without_ends_when_no_points_rule_out_a_fair_game(store: Store) -> None:
    """Two matches: even when the first player wins both (or loses both), a 95% interval of its rate
    still holds a half, so no number of points is ruled out."""
    found = points(played(store, TWO.name))
    assert found is not None and found["ci"] == [None, None]
    experiment = store.experiment(TWO.name)
    assert experiment is not None
    far = 1 + max(abs(t) for m in store.matches(experiment.id) for t in m.totals)
    for given, rate in ((-far, 0.0), (far, 1.0)):
        found_rate, ci = rate_by_hand(store, TWO.name, given)
        assert found_rate == rate and ci[0] <= 0.5 <= ci[1]


def test_no_points_for_a_game_won_on_rounds_nor_without_matches(store: Store, tmp_path: Path) -> None:
    experiment = store.experiment(WON_ON_ROUNDS.name)
    assert experiment is not None
    assert any(m.winners != [s for s, t in enumerate(m.totals) if t == max(m.totals)]
               for m in store.matches(experiment.id))  # won on rounds, not on the best total
    assert points(played(store, WON_ON_ROUNDS.name)) is None
    empty = Store(tmp_path / "empty.sqlite")
    runner.prepare(empty, DEALS)
    assert points(played(empty, DEALS.name)) is None


def test_the_option_value_where_the_rate_crosses_the_fair_share() -> None:
    sweep = [SweepPoint(5, 0.40, [0.35, 0.45]), SweepPoint(6, 0.46, [0.41, 0.51]),
             SweepPoint(7, 0.54, [0.49, 0.59]), SweepPoint(8, 0.60, [0.55, 0.65])]
    found = option_value(sweep)
    assert found is not None
    assert found["value"] == pytest.approx(6.5)  # 0.46 → 0.54 over one step: halfway
    assert found["between"] == [6, 7]
    assert found["holds"] == [6, 7]
    assert found["fair_share"] == 0.5
    three = option_value([(10, 0.30, None), (20, 0.35, None), (30, 0.45, None)], fair=1 / 3)
    assert three is not None and three["value"] == pytest.approx(10 + (1 / 3 - 0.30) / 0.05 * 10)
    assert three["holds"] == []
    assert option_value([(1, 0.5, [0.4, 0.6]), (2, 0.6, [0.5, 0.7])])["value"] == 1  # type: ignore[index]
    assert option_value([(1, 0.40, None), (2, 0.45, None)]) is None  # never reaches it
    assert option_value([(False, 0.4, None), (True, 0.6, None)]) is None  # not a number
