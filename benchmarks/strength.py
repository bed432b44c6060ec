"""Bot strength, measured: duplicate-deal arenas for every game, written to
docs/strength.md (with the exact commands) and docs/strength.json.

Goals (issues 6 and 17): heuristic vs random ≥ 90% of matches in each two-player
game, and in Progression the heuristic seat averages more points than each
random seat; ismcts at ``hard`` vs ``medium`` ≥ 65% of matches (or of rounds
with --rounds-only, over ≥ 200 deals) in each two-player game, and in
Progression ≥ 45% of matches against two mediums.

Where the ``medium`` level is the heuristic bot (a game whose advice has no
club temperature), "hard vs heuristic" is hard against medium; where medium
weighs the advice at a temperature (Minus Twenty), "hard vs medium" is
measured, and "hard vs heuristic" too: the search must improve on the advice it
plays in its rollouts.  Medium is also measured against ``easy`` (the heuristic
with a random move 35% of the time), and every section reports, for each
player, its average round score and how often it started nothing in a round
(no meld in Minus Twenty, no private stack in Progression, no vault in 100
Silver Bars, no score in Twenty: what each game's advice counts with
``starts``): a player who never starts a meld cannot score.

    python benchmarks/strength.py [--games twenty ...] [--deals 100] [--medium-deals 200]
                                  [--hard-deals 200] [--hard-rounds-only] [--jobs 2]
                                  [--only heuristic|medium|hard|hard-vs-medium]

Matches are stored as lab experiments in benchmarks/strength.sqlite, so an
interrupted run continues where it stopped when started again with the same
arguments.  Results of earlier runs for other games are kept: each run
replaces only the sections it measured.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from parlour import games, record
from parlour.bots import level_iterations
from parlour.bots.heuristic import advice
from parlour.game import State
from parlour.lab import arena, plan, runner
from parlour.lab.stats import mean_and_margin, wilson_interval
from parlour.store import Match, Store

DOCS = Path(__file__).resolve().parent.parent / "docs"
DATABASE = Path(__file__).resolve().parent / "strength.sqlite"


def pairings(game_id: str) -> list[tuple[str, list[str], str]]:
    """(name, players, goal) for each measured pairing of a game.

    Where ``medium`` is the heuristic bot itself (the game's advice has no club
    temperature), *hard vs heuristic* is hard against medium.  Where medium weighs
    the advice at a temperature, hard meets each: medium, with the goal, and the
    advice itself, which the search must improve on.
    """
    if games.get(game_id).players == 3:
        return [
            ("heuristic vs random", ["heuristic", "random", "random"],
             "heuristic averages more points than each random seat"),
            ("medium vs easy", ["medium", "easy", "easy"], "medium averages more points than each easy seat"),
            ("hard vs heuristic", ["hard", "heuristic", "heuristic"], "hard wins ≥ 45%"),
        ]
    if not advice(game_id).club_temperature:
        return [
            ("heuristic vs random", ["heuristic", "random"], "heuristic wins ≥ 90%"),
            ("medium vs easy", ["medium", "easy"], "medium wins ≥ 75%"),
            ("hard vs heuristic", ["hard", "heuristic"], "hard wins ≥ 65%"),
        ]
    return [
        ("heuristic vs random", ["heuristic", "random"], "heuristic wins ≥ 90%"),
        ("medium vs easy", ["medium", "easy"], "medium wins ≥ 75%"),
        ("hard vs medium", ["hard", "medium"], "hard wins ≥ 65%"),
        ("hard vs heuristic", ["hard", "heuristic"], "hard wins more than half (the search improves on its advice)"),
    ]


def kind(name: str) -> str:
    """Which of ``--only``'s choices a pairing belongs to (its first word)."""
    return name.split()[0]


def wanted(name: str, only: str | None) -> bool:
    """Whether ``--only`` asks for a pairing: its kind, or its whole name with dashes."""
    return only is None or only in (kind(name), name.replace(" ", "-"))


def met(game_id: str, name: str, stats: list[arena.PlayerStats]) -> bool:
    """Whether a pairing reached its goal (see :func:`pairings`)."""
    first = stats[0]
    if games.get(game_id).players == 3:
        if kind(name) in ("heuristic", "medium"):
            return all(first.mean_diff > 0 and first.mean_diff > s.mean_diff for s in stats[1:])
        return first.win_rate >= 0.45
    if name == "hard vs heuristic" and advice(game_id).club_temperature:
        return first.win_rate > 0.5
    return first.win_rate >= {"heuristic": 0.90, "medium": 0.75, "hard": 0.65}[kind(name)]


def round_ends(text: str) -> list[State]:
    """Each round of a stored match, replayed to its end (a copy of the state for each)."""
    ends: list[State] = []
    record.replay(record.loads(text), after_round=lambda state: ends.append(state.copy()))
    return ends


def complete_deals(matches: Sequence[Match], seatings: int) -> list[Match]:
    """The matches of the deals played in every seating (a run cut short may leave one half-played)."""
    played: dict[int | None, int] = {}
    for match in matches:
        played[match.deal] = played.get(match.deal, 0) + 1
    return [m for m in matches if played[m.deal] == seatings]


def round_figures(game_id: str, names: list[str], matches: Sequence[Match]) -> list[dict[str, Any]]:
    """Each player's rounds: how many, in how many it started no meld (stack, vault, score:
    see the game advice's ``starts``), its average round score and the mean starts a round.

    The margin of the average round score is computed over deals (each deal's
    rounds averaged first), as duplicate play makes the seatings of one deal
    dependent; the interval of the share treats rounds as independent.
    """
    starts = advice(game_id).starts
    assert starts is not None, f"{game_id}'s advice counts no starts"
    figures: list[dict[str, Any]] = [
        {"player": name, "rounds": 0, "no_start": 0, "starts": 0, "scores": {}} for name in names
    ]
    for match in matches:
        for state in round_ends(match.record):
            for seat, player in enumerate(match.seating):
                item = figures[player]
                made = starts(state, seat)
                item["rounds"] += 1
                item["no_start"] += made == 0
                item["starts"] += made
                item["scores"].setdefault(match.deal, []).append(state.scores[seat])
    for item in figures:
        rounds = item["rounds"] or 1
        per_deal = [sum(v) / len(v) for v in item.pop("scores").values()]
        mean, margin = mean_and_margin(per_deal)
        item.update(no_start_share=item["no_start"] / rounds,
                    no_start_ci=wilson_interval(item["no_start"], item["rounds"]),
                    starts_per_round=item["starts"] / rounds, mean_round_score=mean,
                    mean_round_score_margin=margin)
        del item["starts"]
    return figures


def table(header: Sequence[str], left: int, rows: Iterable[Sequence[object]]) -> list[str]:
    """A Markdown table: its first ``left`` columns aligned left, the others right."""
    rule = ["---"] * left + ["---:"] * (len(header) - left)
    return [f"| {' | '.join(header)} |", f"|{'|'.join(rule)}|",
            *(f"| {' | '.join(map(str, row))} |" for row in rows)]


def hard_budget(game_id: str) -> tuple[int, int]:
    """``hard``'s budget in ``game_id``: its iterations, and how many times it rolls out a leaf
    (0: one rollout a simulation; else the iterations count rollouts: ``GameEntry.leaf``)."""
    return level_iterations("hard", game_id), games.entry(game_id).leaf


def budget_words(iterations: int, leaf: int) -> str:
    """``hard``'s budget in words."""
    return f"{iterations} rollouts a move, {leaf} a leaf" if leaf else f"{iterations} iterations a move"


def budget_text(game_id: str, iterations: int, leaf: int = 0) -> str:
    """What hard searched in a measured section, and whether that is still hard's budget."""
    now = hard_budget(game_id)
    if (iterations, leaf) == now:
        return f"`hard` searched {budget_words(iterations, leaf)}."
    return (f"`hard` searched {budget_words(iterations, leaf)}: measured before hard's budget became "
            f"{budget_words(*now)} (a faster search, at least as strong); not yet measured again.")


def render(results: dict[str, Any]) -> str:
    """docs/strength.md from the stored results."""
    lines = [
        "# Bot strength",
        "",
        "Duplicate deals, as in `parlour arena`: every deal is played once in every seating, so the",
        "luck of the cards cancels out. Win rate counts a draw (or shared win) as half; the score",
        "difference is a seat's total minus the mean of the others', with its 95% interval over deals.",
        "Written by `benchmarks/strength.py`; each section names the exact command it ran.",
        "",
        *medium_text(),
        *glance(results),
    ]
    for game_id in games.ids():
        sections = results.get(game_id)
        if not sections:
            continue
        lines += [f"## {games.get(game_id).name}", ""]
        order = [name for name, _, _ in pairings(game_id)]
        for name, item in sorted(sections.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99):
            if item.get("partial"):
                when = f"partial: {item['partial']}, {item['date']}"
            elif item.get("seconds") is None:
                when = f"reported from the stored matches, {item['date']}"
            else:
                when = f"{item['seconds']:.0f} s, {item['date']}"
            lines += [f"### {name}", "", f"Goal: {item['goal']} — **{'met' if item['met'] else 'not met'}**.", "",
                      f"`{item['command']}` ({when})", "",
                      *([budget_text(game_id, item["hard_iterations"], item.get("hard_leaf", 0)), ""]
                        if item.get("hard_iterations") else []),
                      *([f"{item['note']}", ""] if item.get("note") else []),
                      *table(["player", item["unit"], "W", "D", "L", "win rate", "95% CI", "score diff ± 95%"], 1, (
                          [p["player"], p["matches"], p["wins"], p["draws"], p["losses"], f"{p['win_rate']:.1%}",
                           "{:.1%}–{:.1%}".format(*p["win_rate_ci"]),
                           f"{p['mean_diff']:+.1f} ± {p['mean_diff_margin']:.1f}"] for p in item["stats"])), ""]
            if item.get("rounds"):
                noun = item["start"]
                lines += [*table(["player", "rounds", f"rounds with no {noun}", "95% CI", f"{noun}s a round",
                                  "average round score ± 95%"], 1, (
                    [r["player"], r["rounds"], f"{r['no_start']} ({r['no_start_share']:.1%})",
                     "{:.1%}–{:.1%}".format(*r["no_start_ci"]), f"{r['starts_per_round']:.2f}",
                     f"{r['mean_round_score']:+.1f} ± {r['mean_round_score_margin']:.1f}"] for r in item["rounds"])),
                          ""]
    for hand_written in HAND_WRITTEN:
        page = DOCS / hand_written
        lines += [*page.read_text().splitlines(), ""] if page.exists() else []
    return "\n".join(lines)


HAND_WRITTEN = ("strength-sparring.md", "strength-batched.md")
"""Sections written by hand, appended in this order: the sparring partner's (``benchmarks/sparring.py``)
and the batched search's (``benchmarks/search.py --batched``, ``parlour arena``)."""


MEDIUM_TEXT = [
    "## What `medium` does",
    "",
    "`medium` plays each game's advice of a sound club player, written out in",
    "`src/parlour/bots/heuristic/`, with no search. `easy` is the same advice with a random move",
    "35% of the time; `hard` searches (IS-MCTS) with the advice as its rollout policy.",
    "",
    "Where a game's advice says how far a club player's judgement wavers (its *club temperature*,",
    "in points), `medium` weighs the advice's value of every legal move as a club player does: it",
    "picks a move with chance proportional to e^(value / temperature), so a close call can go",
    "either way and a bad move is all but never made (`tests/test_medium.py` holds it to the advised",
    "move in most decisions and well under a point a decision given up, by the advice's own",
    "reckoning). Where a game has one, the advice itself (the `heuristic` bot, what hard's search",
    "plays in its rollouts) is measured too, against random and against hard. Club temperatures:",
    "{temperatures}; in every other game `medium` is the advice itself.",
    "",
    "- **Minus Twenty**: a suit is judged by what its meld is expected to become — the meld, the",
    "  cards in hand that still fit, and the suit's cards nobody has seen yet, each counted by the",
    "  chance that it reaches the hand while a turn is left to put it down. Early in the round three",
    "  or four middling cards of a suit are reason to start (more will come); near the end only the",
    "  hand counts, and only as many cards as there are turns. A meld is started when the suit is",
    "  expected to pay back its 20-point debt, an investment card goes down only on a suit expected",
    "  to pass 20, cards go down from the bottom up, and discards come from suits it will not start",
    "  and that the opponent cannot use.",
    "- **Progression**: each suit is judged by what its private stack can become (it scores only",
    "  above 12, face cards multiply); cards go down from the bottom up, the public stacks get what",
    "  helps the next players least.",
    "- **Twenty**: counts the cards, takes every score on offer, and weighs what the tally leaves",
    "  the opponent.",
    "- **100 Silver Bars**: opens vaults with low bars, builds upwards, locks at sensible values and",
    "  everything as the draw pile runs out, thieves and strikes when they pay.",
    "",
]


def medium_text() -> list[str]:
    """:data:`MEDIUM_TEXT`, with each game's club temperature from its advice."""
    tempered = [f"{games.get(g).name} {advice(g).club_temperature:g} points" for g in games.ids()
                if advice(g).club_temperature]
    return [line.format(temperatures=", ".join(tempered) or "none") for line in MEDIUM_TEXT]


def glance(results: dict[str, Any]) -> list[str]:
    """The medium level in one table: its rounds against easy, and its results against easy and hard."""
    rows: list[list[str]] = []
    for game_id in games.ids():
        sections = results.get(game_id, {})
        easy = sections.get("medium vs easy")
        if not easy or not easy.get("rounds"):
            continue
        mine = easy["rounds"][0]
        hard = sections.get("hard vs medium") or sections.get("hard vs heuristic")
        if hard:
            lo, hi = hard["stats"][0]["win_rate_ci"]
            against_hard = (f"{hard['stats'][0]['win_rate']:.1%} of {hard['stats'][0]['matches']} {hard['unit']} "
                            f"({lo:.1%}–{hi:.1%}){' (partial)' if hard.get('partial') else ''}")
        else:
            against_hard = "not measured"
        rows.append([games.get(game_id).name, easy["start"], f"{mine['no_start_share']:.1%} of {mine['rounds']}",
                     f"{mine['mean_round_score']:+.1f}", f"{easy['stats'][0]['win_rate']:.1%}", against_hard])
    if not rows:
        return []
    return ["## `medium` at a glance", "",
            "Medium's rounds against `easy` (each game's *medium vs easy* section): the share in which it",
            "started nothing (no meld, stack or vault; in Twenty, no score) and its average round score;",
            "its share of those matches won; and hard's share won against medium (each game's *hard vs",
            "medium* section, or *hard vs heuristic* where medium is the heuristic bot), with its 95% interval.",
            "",
            *table(["game", "counts", "rounds starting none", "average round score", "medium's wins vs easy",
                    "hard's wins vs medium"], 2, rows), ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=games.ids())
    parser.add_argument("--deals", type=int, default=100, help="deals for heuristic vs random")
    parser.add_argument("--medium-deals", type=int, default=200, help="deals for medium vs easy")
    parser.add_argument("--hard-deals", type=int, default=200, help="deals for hard vs medium (and vs heuristic)")
    parser.add_argument("--hard-rounds-only", action="store_true", help="hard's pairings on single rounds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", metavar="PAIRING",
                        help="run only some pairings: heuristic, medium or hard (each pairing whose name starts "
                             "so), or one pairing by name with dashes, e.g. hard-vs-medium")
    parser.add_argument("--db", default=str(DATABASE), help="where the matches are stored (resumable)")
    parser.add_argument("--report-only", action="store_true",
                        help="play nothing: report the deals already stored (both seatings played), "
                             "e.g. of a run still going on in the background, marked as partial")
    args = parser.parse_args()
    stored = DOCS / "strength.json"
    for game_id in args.games:
        for name, players, goal in pairings(game_id):
            hard = kind(name) == "hard"
            if not wanted(name, args.only):
                continue
            deals = {"heuristic": args.deals, "medium": args.medium_deals, "hard": args.hard_deals}[kind(name)]
            rounds_only = hard and args.hard_rounds_only
            command = ["parlour", "lab", "run", game_id, "--players", ",".join(players), "--deals", str(deals),
                       "--jobs", str(args.jobs), "--seed", str(args.seed)] + (["--rounds-only"] if rounds_only else [])
            print("running:", shlex.join(command), file=sys.stderr, flush=True)
            # Hard's budget is part of the experiment: matches stored with another budget are another bot's.
            budget, leaf = hard_budget(game_id) if hard else (None, 0)
            label = (f"strength {game_id}: {name}, {deals} deals" + (" (rounds)" if rounds_only else "")
                     + (f", hard {budget} iterations" if budget else "") + (f", {leaf} a leaf" if leaf else ""))
            spec = plan.make_spec(game=game_id, players=players, deals=deals, seed=args.seed,
                                  rounds_only=rounds_only, name=label)
            store = Store(args.db)
            start = time.perf_counter()
            played = 0 if args.report_only else runner.run([spec], store, jobs=args.jobs)
            # A run that found some of its matches stored did not take the whole time itself.
            seconds = time.perf_counter() - start if played == deals * len(players) else None
            experiment = store.experiment(spec.name)
            if experiment is None:
                print(f"{game_id} {name}: nothing stored yet", flush=True)
                continue
            matches = complete_deals(store.matches(experiment.id), len(players))
            if not matches:
                print(f"{game_id} {name}: no deal finished yet", flush=True)
                continue
            done = len({m.deal for m in matches})
            results = [arena.MatchResult(m.deal or 0, tuple(m.seating), m.totals, m.winners, m.rounds, m.moves)
                       for m in matches]
            stats = arena.summarise(players, results)
            rounds = round_figures(game_id, [p.player for p in stats], matches)
            ok = met(game_id, name, stats)
            # Re-read what is stored: another run may have measured other games meanwhile.
            results_doc = json.loads(stored.read_text()) if stored.exists() else {}
            results_doc.setdefault(game_id, {})[name] = {
                "goal": goal, "met": ok, "command": shlex.join(command), "seconds": seconds,
                "date": time.strftime("%Y-%m-%d"), "unit": "rounds" if rounds_only else "matches",
                "stats": [asdict(p) for p in stats], "start": advice(game_id).start, "rounds": rounds,
                **({"hard_iterations": budget} if budget else {}), **({"hard_leaf": leaf} if leaf else {}),
            }
            if done < deals:
                results_doc[game_id][name].update(seconds=None, partial=f"{done} of {deals} deals finished")
            first = stats[0]
            print(f"{game_id} {name}: {first.player} win rate {first.win_rate:.1%}, "
                  f"diff {first.mean_diff:+.1f} ± {first.mean_diff_margin:.1f} — {'met' if ok else 'NOT met'}",
                  flush=True)
            DOCS.mkdir(exist_ok=True)
            stored.write_text(json.dumps(results_doc, indent=1) + "\n")
            (DOCS / "strength.md").write_text(render(results_doc))


if __name__ == "__main__":
    main()
