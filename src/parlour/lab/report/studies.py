"""What a study's shape asks, answered: a sweep's measures against the option's value, deal luck
across bot strengths, skill depth as the search doubles, restricted play; and the ladder's spread
of the bot levels.

A study's shape is what its plan stored with each experiment (:class:`parlour.lab.spec.StudyShape`).
A study stored without one (by a release before shapes, or made without a study's or a plan's
help) is read as those releases read it, from its experiments (:func:`_read_shape`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour import games
from parlour.lab.ladder import prefix
from parlour.lab.report.compare import FIRST_WINS, MATCH_MOVES, ROUND_MOVES
from parlour.lab.report.compensation import option_value
from parlour.lab.report.experiment import who_played
from parlour.lab.report.load import FloatArray, Played
from parlour.lab.report.numbers import ALPHA, by_unit, elo, mean_ci, unit_rate
from parlour.lab.spec import StudyShape
from parlour.lab.stats import detectable, holm, t_interval, units_needed


def _seat_shares(p: Played, player: int) -> FloatArray:
    """One player's share of the win per independent unit (deal or match)."""
    return by_unit(p.by_player(p.share)[:, player], p.unit)[1]


def _against_fair(p: Played, player: int) -> dict[str, Any]:
    """A player's win rate against the fair share: the difference with its 95% interval (over
    deals or matches) and a one-sample t-test's p."""
    from scipy import stats

    shares = _seat_shares(p, player)
    fair = 1 / p.seats
    mean, low, high = t_interval((shares - fair).tolist())
    p_value = None
    if len(shares) > 1 and shares.std() > 0:
        p_value = float(stats.ttest_1samp(shares, fair).pvalue)
    elif len(shares) > 1 and mean:
        p_value = 0.0
    sd = float(shares.std(ddof=1)) if len(shares) > 1 else None
    return {"rate": None if mean is None else mean + fair, "gap": mean, "ci": None if low is None else [low, high],
            "rate_ci": None if low is None or high is None else [max(0.0, low + fair), min(1.0, high + fair)],
            "p": p_value, "units": len(shares), "sd": sd}


SMALLEST_GAP = 0.05
"""The smallest gap of a win rate to a fair share worth seeing, in restricted play and skill depth."""


def _power(row: dict[str, Any], alpha: float) -> dict[str, Any]:
    """What a test against a fair share could see: the smallest gap seen with 80% power at level
    ``alpha``, and the units it would take to see :data:`SMALLEST_GAP`."""
    sd, units = row.get("sd"), row["units"]
    if sd is None or sd <= 0 or units < 2:
        return {"detectable": None, "needed": None, "smallest": SMALLEST_GAP}
    return {"detectable": detectable(sd / math.sqrt(units), alpha), "needed": units_needed(sd, SMALLEST_GAP, alpha),
            "smallest": SMALLEST_GAP}


@dataclass(frozen=True)
class _Question:
    """What a study's variants ask, as its shape says (or, stored without one, as they look)."""

    option: str | None = None
    """The option a sweep varies."""
    luck: bool = False
    """Whether the variants are levels, every seat one level: deal luck."""
    budgets: list[int] | None = None
    """Each variant's weaker search budget (twice it plays it): skill depth."""
    restrictions: list[tuple[str, str] | None] | None = None
    """Each variant's restriction of its first player, (how, kind of move): restricted play."""


def _question(group: Sequence[Played]) -> _Question:
    """What the study asks, from the shapes its experiments were stored with."""
    stored = [p.experiment.shape for p in group]
    if any(shape is None for shape in stored):
        return _read_shape(group)
    shapes = [StudyShape.from_json(shape) for shape in stored if shape is not None]
    kinds = {(shape.kind, shape.varied) for shape in shapes}
    if len(kinds) != 1:
        return _Question()
    kind, varied = kinds.pop()
    if kind == "sweep":
        return _Question(option=varied)
    if kind == "luck":
        return _Question(luck=True)
    if kind == "depth":
        return _Question(budgets=[int(shape.value) for shape in shapes])
    if kind == "matters":
        return _Question(restrictions=[None if shape.value is None else (shape.value["how"], shape.value["kind"])
                                       for shape in shapes])
    return _Question()


_RESTRICTED = re.compile(r"^(?P<bot>.+)/(?P<how>without|always):(?P<kind>.+)$")
"""A player barred from a kind of move, or bound to it (:class:`parlour.bots.Restricted`)."""
_SEARCH_BUDGET = re.compile(r"^ismcts:(?:.*,)?iterations=(?P<iterations>\d+)(?:,.*)?$")


def _read_shape(group: Sequence[Played]) -> _Question:
    """A study stored without its shape, read from its experiments: variants that differ in one
    game option alone, played alike, sweep it; duplicate deals of the same rules, each variant one
    bot in every seat, ask about luck; a search against one with half its budget, variant after
    variant, asks about depth; a first player barred from a kind of move (or bound to it), what
    matters."""
    first = group[0].experiment
    changed = {key for p in group for key, value in p.experiment.options.items() if first.options.get(key) != value}
    alike = all((p.experiment.players, p.experiment.noise, p.experiment.mode) == (first.players, first.noise,
                                                                                  first.mode) for p in group)
    luck = all(p.duplicate and p.experiment.options == first.options and len(set(p.experiment.players)) == 1
               for p in group) and len({p.experiment.players[0] for p in group}) >= 2
    budgets = [_halved_budget(p.experiment.players) for p in group]
    restricted = [_RESTRICTED.match(p.experiment.players[0]) for p in group]
    return _Question(option=next(iter(changed)) if len(changed) == 1 and alike else None, luck=luck,
                     budgets=None if None in budgets else [b for b in budgets if b is not None],
                     restrictions=[None if found is None else (found["how"], found["kind"]) for found in restricted])


def _halved_budget(players: Sequence[str]) -> int | None:
    """The second player's search budget when the first is the same search with twice it."""
    found = [_SEARCH_BUDGET.match(spec) for spec in players[:2]]
    strong, weak = (None, None) if len(found) < 2 else found
    if strong is None or weak is None or int(strong["iterations"]) != 2 * int(weak["iterations"]):
        return None
    return int(weak["iterations"])


def _sweep(group: Sequence[Played], option: str, sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Variants that differ from one another in one game option alone, played by the same bots:
    the main measures against the option's value."""
    ordered = sorted(group, key=lambda p: _sort_key(p.experiment.options[option]))
    measures_ = [FIRST_WINS, MATCH_MOVES, ROUND_MOVES]
    series: list[dict[str, Any]] = [{"key": m.key, "metric": m.label,
               "points": [{"value": p.experiment.options[option], **mean_ci(p, m.data(p), m.per_round)}
                          for p in ordered]} for m in measures_]
    if all(p.duplicate for p in ordered):
        points = []
        for p in ordered:
            deal = sections[p.experiment.name]["deal_vs_players"]
            item = deal["by_position"][0] if deal else {}
            points.append({"value": p.experiment.options[option], "mean": item.get("icc"), "ci": item.get("ci")})
        series.append({"key": "icc_position_0", "metric": "Share decided by the deal (ICC), first player",
                       "points": points})
    first = series[0]["points"]
    fair = option_value([(point["value"], point["mean"], point["ci"]) for point in first], fair=1 / group[0].seats)
    return {"option": option, "values": [p.experiment.options[option] for p in ordered], "series": series,
            "fair_at": fair}


def _sort_key(value: Any) -> tuple[int, Any]:
    """Option values in order: none first, then numbers (and yes/no) by size, then words."""
    if value is None:
        return (0, 0)
    if isinstance(value, bool | int | float):
        return (1, float(value))
    return (2, str(value))


def _luck(group: Sequence[Played], sections: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Variants of the same rules on duplicate deals, each played by copies of one bot: how much
    the deal decides, across bot strengths."""
    rows = []
    for p in group:
        deal = sections[p.experiment.name]["deal_vs_players"]
        assert deal is not None
        item = deal["by_position"][0]
        rows.append({"experiment": p.experiment.name, "bots": who_played(p), "icc": item["icc"], "ci": item.get("ci"),
                     "icc_raw": item.get("icc_raw"),
                     "identical_share": deal["identical_share"], "deals": deal["deals"]})
    return rows


def _depth(group: Sequence[Played], budgets: Sequence[int]) -> list[dict[str, Any]]:
    """Variants where a search with twice the budget plays one with the budget (SkillTrace): the
    stronger's win rate as the budget doubles, and where doubling stops paying."""
    rows = [{"experiment": p.experiment.name, "budget": budget, **_against_fair(p, 0)}
            for p, budget in zip(group, budgets)]
    rows.sort(key=lambda row: row["budget"])
    for row in rows:
        row["pays"] = row["ci"] is not None and row["ci"][0] > 0
        row["elo"] = elo(row["rate"])
        row["power"] = _power(row, ALPHA)
        detect = row["power"]["detectable"]
        row["verdict"] = ("pays" if row["pays"] else
                          "stops" if detect is not None and detect <= SMALLEST_GAP else "too_few")
    return rows


def _matters(group: Sequence[Played], restrictions: Sequence[tuple[str, str] | None],
             played: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """Variants where one player is barred from a kind of move (or bound to it): the restricted
    player's win rate against the unrestricted ones, corrected for the number of kinds tried."""
    rows = []
    for p, restriction in zip(group[1:], restrictions[1:]):
        if restriction is None:
            continue
        how, kind = restriction
        share = None if played is None else played["kinds"].get(kind, {}).get("share_of_moves", 0.0)
        rows.append({"experiment": p.experiment.name, "kind": kind, "how": how, "played_share": share,
                     **_against_fair(p, 0)})
    if not rows:
        return None
    alpha = ALPHA / max(1, sum(1 for row in rows if row["p"] is not None))
    for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
        row["p_adjusted"] = adjusted
        row["significant"] = adjusted is not None and adjusted < ALPHA
        row["power"] = _power(row, alpha)
        detect = row["power"]["detectable"]
        row["verdict"] = (("costs" if (row["gap"] or 0) < 0 else "helps") if row["significant"] else
                          "none" if detect is not None and detect <= SMALLEST_GAP else "too_few")
    return rows


def ladders(played: Sequence[Played]) -> list[dict[str, Any]]:
    """Skill against chance from the ladder (``parlour lab ladder``): for every pairing of bot
    levels of a two-player game, the first-named level's win rate over the other with its 95%
    interval, and the same as an Elo gap — the spread of the levels on a scale every game
    shares (a game where the best level is hundreds of Elo points above the weakest rewards
    skill more than one where the levels sit close together)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for p in played:
        game = p.experiment.game
        if p.seats != 2 or not p.experiment.name.startswith(prefix(game)) or not len(p.share):
            continue
        rate = unit_rate(p, p.by_player(p.share)[:, 0])
        found.setdefault(game, []).append({
            "experiment": p.experiment.name, "stronger": p.experiment.players[0], "weaker": p.experiment.players[1],
            "matches": len(p.share), "rate": rate["rate"], "ci": rate["ci"], "elo": elo(rate["rate"]),
            "elo_ci": [elo(rate["ci"][0]), elo(rate["ci"][1])]})
    for rows in found.values():  # each pairing read as the stronger against the weaker
        for row in rows:
            if row["rate"] is not None and row["rate"] < 0.5:
                row["stronger"], row["weaker"] = row["weaker"], row["stronger"]
                row["rate"], row["ci"] = 1 - row["rate"], [1 - row["ci"][1], 1 - row["ci"][0]]
                row["elo"], row["elo_ci"] = elo(row["rate"]), [elo(row["ci"][0]), elo(row["ci"][1])]
    return [{"game": game, "game_name": games.get(game).name, "pairings": rows} for game, rows in found.items()]


def study_findings(group: Sequence[Played], sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the study's shape answers, from its experiments and their sections of the report."""
    question = _question(group)
    return {"sweep": None if question.option is None else _sweep(group, question.option, sections),
            "luck": _luck(group, sections) if question.luck else None,
            "depth": None if question.budgets is None else _depth(group, question.budgets),
            "matters": None if question.restrictions is None else _matters(
                group, question.restrictions, sections[group[0].experiment.name]["play"])}
