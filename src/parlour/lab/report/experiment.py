"""One experiment's section of the report: scores, win rates, length, events and round endings, how
much the deal decides, the measures of play from replayed records, duration and anomalies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour import games
from parlour.lab import measures
from parlour.lab.report.compensation import points
from parlour.lab.report.load import FloatArray, IntArray, Played
from parlour.lab.report.numbers import by_unit, distribution, elo, finite, icc, mean_ci, mean_of_units, unit_rate
from parlour.lab.stats import holm, icc_interval, t_interval, wilson_interval
from parlour.store import Store

_NO_ICC = ("icc", "players_share", "msb", "msw", "ci", "icc_raw")


IDENTICAL_LIMIT = 0.05
"""The share of duplicate deals replayed identically in every seating above which no ICC is
given: such seatings are copies, and the ICC would read them as the deal deciding everything."""


def _with_ci(p: Played, values: FloatArray, per_round: bool = False) -> dict[str, Any]:
    """A summary of ``values`` and its mean's 95% interval over the independent units."""
    summary = distribution(values)
    summary["mean_ci"] = mean_ci(p, values, per_round)["ci"]
    return summary


def _scores(p: Played) -> dict[str, Any]:
    positions = p.by_position(p.totals)
    return {
        "by_seat": [{"seat": s, **_with_ci(p, p.totals[:, s])} for s in range(p.seats)],
        "by_position": [{"position": q, **_with_ci(p, positions[:, q])} for q in range(p.seats)],
    }


def _wins(p: Played) -> dict[str, Any]:
    count = len(p.share)
    positions = p.by_position(p.share)
    players = p.by_player(p.share)
    player_margins = p.by_player(p.margins())
    by_position = []
    for q in range(p.seats):
        item = {"position": q, **unit_rate(p, positions[:, q])}
        if p.seats == 2:  # a seat's edge on the scale of players' strength
            item["elo"] = elo(item["rate"])
            item["elo_ci"] = [elo(item["ci"][0]), elo(item["ci"][1])]
        by_position.append(item)
    drawn = (p.share.max(axis=1) < 1).astype(np.float64) if count else np.zeros(0)
    return {
        "seats_note": _seats_note(p),
        "fair_share": 1 / p.seats,
        "draws": {**unit_rate(p, drawn), "what": "matches whose best total is shared (a tie for the win)"},
        "by_seat": [{"seat": s, **unit_rate(p, p.share[:, s])} for s in range(p.seats)],
        "by_position": by_position,
        "by_player": [
            {"player": label, "spec": spec, **unit_rate(p, players[:, j]),
             "mean_margin": finite(player_margins[:, j].mean()) if count else None}
            for j, (label, spec) in enumerate(zip(p.labels, p.experiment.players))
        ],
    }


def _seats_note(p: Played) -> str | None:
    """A comment on the seats' win rates when the seats are interchangeable (every player the same
    bot, the first seat rotating): a seat whose rate differs from a fair share after Holm's
    correction over the seats is a sign of a fault, not of the rules; one whose plain interval
    alone misses it is chance among several seats."""
    from scipy import stats

    specs = set(p.experiment.players)
    if len(specs) != 1 or len(p.share) < 2:
        return None
    fair = 1 / p.seats
    found = []
    for seat in range(p.seats):
        shares = by_unit(p.share[:, seat], p.unit)[1]
        if len(shares) < 2 or shares.std() == 0:
            return None
        found.append((seat, float(shares.mean()), float(stats.ttest_1samp(shares, fair).pvalue)))
    adjusted = holm([pv for _, _, pv in found])
    clear = [f"seat {seat} ({rate:.1%})" for (seat, rate, _), padj in zip(found, adjusted)
             if padj is not None and padj < 0.05]
    loose = [f"seat {seat} ({rate:.1%}, p = {pv:.2g})" for seat, rate, pv in found if pv < 0.05]
    if clear:
        return (f"The seats are interchangeable here (the same bot in every one, the first player rotating), yet "
                f"{', '.join(clear)} differ from a fair {fair:.0%} after Holm's correction over the {p.seats} seats: "
                "look for a fault in the seating or the bots, not in the rules.")
    if loose:
        return (f"{', '.join(loose)}: a seat's own interval misses a fair {fair:.0%}, but the seats are "
                f"interchangeable here (the same bot in every one) and with {p.seats} seats to test, that is within "
                "chance (Holm's correction over the seats finds nothing).")
    return None


def _lengths(p: Played) -> dict[str, Any]:
    return {
        "moves_per_round": _with_ci(p, p.round_moves.astype(np.float64), per_round=True),
        "rounds_per_match": _with_ci(p, p.rounds.astype(np.float64)),
        "moves_per_match": _with_ci(p, p.moves.astype(np.float64)),
    }


def _events(p: Played) -> dict[str, Any]:
    rounds = len(p.counts)
    kinds = {}
    for i, kind in enumerate(p.kinds):
        column = p.counts[:, i]
        kinds[kind] = {
            "count": int(column.sum()),
            "per_round": float(column.mean()) if rounds else None,
            "per_round_ci": mean_ci(p, column.astype(np.float64), per_round=True)["ci"],
            "share_of_rounds": float((column > 0).mean()) if rounds else None,
            # The same number of times in every round: part of the rules' clockwork, not of play.
            "constant": bool(rounds) and bool((column == column[0]).all()),
        }
    # Every way the game's rounds can end, even one that never happened here.
    endings = {}
    for number, ending in enumerate(games.get(p.experiment.game).endings):
        seen = int((p.endings == number).sum())
        endings[ending.name] = {"rounds": seen, "share": seen / rounds if rounds else None}
    return {"rounds": rounds, "kinds": kinds, "endings": endings}


def identical_deals(p: Played) -> int:
    """How many complete duplicate deals were played move for move the same in every seating
    (the same cards, the same moves by seat, the same events): their seatings are copies."""
    return sum(1 for rows in p.complete_deals() if len({p.signature[row] for row in rows}) == 1)


def _deal_vs_players(p: Played) -> dict[str, Any] | None:
    if not p.duplicate:
        return None
    groups = p.complete_deals()
    margins = p.margins()
    positions = p.by_position(margins)
    players = p.by_player(margins)
    by_player = []
    for j, label in enumerate(p.labels):
        # Each deal's seatings are averaged first: the seatings of one deal share its cards.
        per_deal = players[groups, j].mean(axis=1) if len(groups) else np.zeros(0)
        mean, low, high = t_interval(per_deal.tolist())
        by_player.append({"player": label, "spec": p.experiment.players[j], "deals": len(per_deal),
                          "mean_margin": mean, "ci": None if low is None else [low, high]})
    copies = identical_deals(p)
    share = copies / len(groups) if len(groups) else 0.0
    withheld = share > IDENTICAL_LIMIT
    by_position = []
    for q in range(p.seats):
        found = None if withheld else icc(positions[groups, q])
        if found is not None:
            found["ci"] = list(icc_interval(found["msb"], found["msw"], len(groups), p.seats))
        by_position.append({"position": q, **(found or dict.fromkeys(_NO_ICC))})
    warning = None
    if copies:
        noise = p.experiment.noise
        advice = (f"more playtest noise than {noise:g} (noise in the plan, --noise)" if noise else
                  "playtest noise (noise = 0.05 in the plan, --noise 0.05)")
        warning = (f"{copies} of {len(groups)} deals ({share:.0%}) were played move for move the same in every "
                   "seating: the bots made the same choices whoever sat where, so those seatings are copies, "
                   "not separate tries. " + (
                       "The share decided by the deal is not given: it would read the copies as the deal "
                       f"deciding everything. Give the bots {advice} so that every seating is a try of its own."
                       if withheld else
                       f"The share decided by the deal counts them as agreement and may read a little high "
                       f"(above {IDENTICAL_LIMIT:.0%} of the deals it is not given); {advice} would avoid it."))
    return {
        "deals": len(groups),
        "per_deal": p.seats,
        "identical_deals": copies,
        "identical_share": share,
        "warning": warning,
        "by_position": by_position,
        "by_player": by_player,
    }


def who_played(p: Played) -> str:
    """Who played, in words: the players and their slips."""
    slips = p.experiment.noise
    return ", ".join(p.labels) + (f", each with {slips:.0%} random slips" if slips else "")


@dataclass(frozen=True)
class Settings:
    """What the designer may set for a report."""

    baseline: str | None = None
    """The variant each study's others are compared with (default: the plan's)."""
    smallest: float | None = None
    """The smallest change of the primary measure worth telling apart (the stop rule's); None:
    the measure's own (5 points of the first player's win rate)."""
    primary: str | None = None
    """The measure each study's primary question is about (default: the study's plan's, else the
    seat balance; :data:`parlour.lab.report.verdicts.MEASURES`)."""
    seconds_per_move: float = 5.0
    """How long a person takes for a move, to give durations in minutes."""
    target_minutes: tuple[float, float] | None = None
    """The range a match should last, in minutes (None: no target)."""
    sample: int = measures.SAMPLE
    """Matches of each experiment replayed for the measures of play."""
    judge: str = "advice"
    """What reads each position for the measures of play (:data:`parlour.lab.measures.JUDGES`)."""
    judge_iterations: int = 200
    """The search's iterations a decision, when the judge is the search."""


def _sample_units(p: Played, indices: Sequence[int]) -> IntArray:
    """The independent unit of each sampled match (by its index): its deal, or itself."""
    array = np.array(indices, dtype=np.int64)
    result: IntArray = array // p.seats if p.duplicate else array
    return result


def _share_ci(numerators: Sequence[float], denominators: Sequence[float], units: IntArray) -> dict[str, Any]:
    """A share summed over units (numerator / denominator within each unit), with a 95% t interval
    over the units' shares, and each unit's share (``per_unit``: [unit, share] pairs, for the
    verdicts' paired differences)."""
    keys = np.unique(units)
    tops = np.zeros(len(keys))
    bottoms = np.zeros(len(keys))
    where = np.searchsorted(keys, units)
    np.add.at(tops, where, np.asarray(numerators, dtype=np.float64))
    np.add.at(bottoms, where, np.asarray(denominators, dtype=np.float64))
    per_unit = [[int(k), float(t / b)] for k, t, b in zip(keys, tops, bottoms) if b > 0]
    total = float(np.sum(bottoms))
    _, low, high = t_interval([share for _, share in per_unit])
    return {"share": float(np.sum(tops)) / total if total else None,
            "ci": None if low is None or high is None else [max(0.0, low), min(1.0, high)], "per_unit": per_unit}


def _play(store: Store, p: Played, settings: Settings) -> dict[str, Any] | None:
    """What replaying a sample of the experiment's records shows (:mod:`parlour.lab.measures`)."""
    texts = measures.load_texts(store, p.experiment.id, settings.sample)
    if not texts:
        return None
    found = measures.measure(games.get(p.experiment.game), texts, settings.judge, settings.judge_iterations)
    per_match = found.per_match
    units = _sample_units(p, [index for index, *_ in per_match])
    decisions = [d for _, d, _, _ in per_match]
    kinds = {
        kind: {"played": count, "share_of_moves": count / max(found.decisions, 1),
               "offered": found.offered[kind],
               "chosen_when_offered": (found.chosen_when_offered[kind] / found.offered[kind]
                                       if found.offered[kind] else None)}
        for kind, count in found.played.most_common()
    }
    round_units = _sample_units(p, [index for index, _, _ in found.per_round])
    changes = mean_of_units([c for _, c, _ in found.per_round], round_units)
    decided = [(u, d) for u, (_, _, d) in zip(round_units.tolist(), found.per_round) if d is not None]
    decided_units = np.array([u for u, _ in decided], dtype=np.int64)
    decided_at = mean_of_units([d for _, d in decided], decided_units)
    keys, means = by_unit(np.array([d for _, d in decided], dtype=np.float64), decided_units)
    decided_at["per_unit"] = [[int(k), float(v)] for k, v in zip(keys, means)]
    bar, real = measures.real_choices(found.gaps)
    halfway_units = _sample_units(p, [index for index, _, _ in found.comebacks])
    comebacks = []
    for stage, (behind, won) in enumerate(found.behind):
        low, high = wilson_interval(won, int(behind)) if behind else (None, None)
        comebacks.append({"stage": stage, "from": stage / measures.STAGES, "behind": int(behind),
                          "wins": won, "rate": won / behind if behind else None,
                          "ci": None if low is None else [low, high]})
    return {
        "sample": found.matches,
        "of": len(p.totals),
        "unreadable": found.unreadable,
        "judge": settings.judge,
        "judge_iterations": settings.judge_iterations if settings.judge == "search" else None,
        "rounds": found.rounds,
        "decisions": found.decisions,
        "real_gap": measures.REAL_GAP,
        "real_share": measures.REAL_SHARE,
        "real_bar": bar,
        "choices": _share_ci([c for _, _, c, _ in per_match], decisions, units),
        "real_choices": _share_ci([real[index] for index, *_ in per_match], decisions, units),
        "real_choices_points": _share_ci([r for _, _, _, r in per_match], decisions, units),
        "halfway_comebacks": _share_ci([won for _, _, won in found.comebacks],
                                       [behind for _, behind, _ in found.comebacks], halfway_units),
        "kinds": kinds,
        "lead_changes": changes,
        "decided_at": {**decided_at, "median": float(np.median([d for _, d in decided])) if decided else None},
        "comebacks": comebacks,
    }


def _duration(p: Played, settings: Settings) -> dict[str, Any]:
    """How long a match lasts for people at ``seconds_per_move``, against the designer's target."""
    minutes = p.moves.astype(np.float64) * settings.seconds_per_move / 60
    result: dict[str, Any] = {"seconds_per_move": settings.seconds_per_move, "minutes": _with_ci(p, minutes),
                              "target": None}
    if settings.target_minutes is not None and len(minutes):
        low, high = settings.target_minutes
        result["target"] = {
            "minutes": [low, high],
            "shorter": unit_rate(p, (minutes < low).astype(np.float64)),
            "within": unit_rate(p, ((minutes >= low) & (minutes <= high)).astype(np.float64)),
            "longer": unit_rate(p, (minutes > high).astype(np.float64)),
        }
    return result


def _anomalies(p: Played) -> list[dict[str, Any]]:
    """What a designer should look at, each with an example match: rounds ended by a stall rule,
    matches stopped at the safety limit on rounds, and the longest round."""
    game = games.get(p.experiment.game)
    found = []
    for number, ending in enumerate(game.endings):
        if not ending.stall:
            continue
        stalled = (p.endings == number).astype(np.float64)
        rows = np.flatnonzero(stalled)
        found.append({"key": f"stall-{number}", "what": f"rounds ended by the {ending.name.lower()}",
                      "count": len(rows), "share": mean_ci(p, stalled, per_round=True),
                      "example": int(p.index[p.round_match[rows[0]]]) if len(rows) else None})
    try:
        options = game.check_options(p.experiment.options)
        capped = np.array([game.capped(options, int(r), t) for r, t in zip(p.rounds, p.totals.astype(int).tolist())],
                          dtype=np.float64)
    except (ValueError, KeyError):  # stored by a version of the game with other options
        capped = np.zeros(len(p.rounds))
    rows = np.flatnonzero(capped)
    found.append({"key": "capped", "what": "matches stopped at the limit on rounds", "count": len(rows),
                  "share": mean_ci(p, capped), "example": int(p.index[rows[0]]) if len(rows) else None})
    if len(p.round_moves):
        longest = int(np.argmax(p.round_moves))
        found.append({"key": "longest", "what": f"the longest round: {int(p.round_moves[longest])} moves "
                                                f"(median {float(np.median(p.round_moves)):g})",
                      "count": 1, "share": None, "example": int(p.index[p.round_match[longest]])})
    return found


def experiment_numbers(p: Played, store: Store, settings: Settings) -> dict[str, Any]:
    e = p.experiment
    game = games.get(e.game)
    try:
        options = game.non_default_options(game.check_options(e.options))
    except (ValueError, KeyError):  # stored by a version of the game with other options
        options = dict(e.options)
    return {
        "name": e.name,
        "study": e.study,
        "game": e.game,
        "game_name": game.name,
        "game_version": e.game_version,
        "options": options,
        "players": list(e.players),
        "labels": p.labels,
        "noise": e.noise,
        "bots": who_played(p),
        "mode": e.mode,
        "count": e.count,
        "seed": e.seed,
        "rounds_only": e.rounds_only,
        "matches": len(p.totals),
        "rounds": len(p.round_moves),
        "units": len(np.unique(p.unit)),
        "unit": p.unit_word,
        "scores": _scores(p),
        "wins": _wins(p),
        "length": _lengths(p),
        "events": _events(p),
        "deal_vs_players": _deal_vs_players(p),
        "compensation": points(p),
        "duration": _duration(p, settings),
        "anomalies": _anomalies(p),
        "play": _play(store, p, settings),
    }
