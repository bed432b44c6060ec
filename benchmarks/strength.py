"""Bot strength, measured: duplicate-deal arenas for every game, written to
docs/strength.md (with the exact commands) and docs/strength.json.

Goals (issue 6): heuristic vs random ≥ 90% of matches in each two-player
game, and in Progression the heuristic seat averages more points than each
random seat; ismcts at ``hard`` vs heuristic ≥ 65% of matches (or of rounds
with --rounds-only, over ≥ 200 deals) in each two-player game, and in
Progression ≥ 45% of matches against two heuristics.

    python benchmarks/strength.py [--games twenty ...] [--deals 100] [--hard-deals 200]
                                  [--hard-rounds-only] [--jobs 2]

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
from dataclasses import asdict
from pathlib import Path
from typing import Any

from parlour import games
from parlour.lab import arena, plan, runner
from parlour.store import Store

DOCS = Path(__file__).resolve().parent.parent / "docs"
DATABASE = Path(__file__).resolve().parent / "strength.sqlite"


def pairings(game_id: str) -> list[tuple[str, list[str], str]]:
    """(name, players, goal) for each measured pairing of a game."""
    if games.get(game_id).players == 3:
        return [
            ("heuristic vs random", ["heuristic", "random", "random"],
             "heuristic averages more points than each random seat"),
            ("hard vs heuristic", ["hard", "heuristic", "heuristic"], "hard wins ≥ 45%"),
        ]
    return [
        ("heuristic vs random", ["heuristic", "random"], "heuristic wins ≥ 90%"),
        ("hard vs heuristic", ["hard", "heuristic"], "hard wins ≥ 65%"),
    ]


def met(name: str, stats: list[arena.PlayerStats], players: int) -> bool:
    """Whether a pairing reached its goal."""
    first = stats[0]
    if players == 3 and name == "heuristic vs random":
        return all(first.mean_diff > 0 and first.mean_diff > s.mean_diff for s in stats[1:])
    if players == 3:
        return first.win_rate >= 0.45
    return first.win_rate >= (0.90 if name == "heuristic vs random" else 0.65)


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
    ]
    for game_id in games.ids():
        sections = results.get(game_id)
        if not sections:
            continue
        lines += [f"## {games.get(game_id).name}", ""]
        for name, item in sections.items():
            lines += [f"### {name}", "", f"Goal: {item['goal']} — **{'met' if item['met'] else 'not met'}**.", "",
                      f"`{item['command']}` ({item['seconds']:.0f} s, {item['date']})", "",
                      f"| player | {item['unit']} | W | D | L | win rate | 95% CI | score diff ± 95% |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|"]
            for p in item["stats"]:
                lo, hi = p["win_rate_ci"]
                lines.append(f"| {p['player']} | {p['matches']} | {p['wins']} | {p['draws']} | {p['losses']} | "
                             f"{p['win_rate']:.1%} | {lo:.1%}–{hi:.1%} | "
                             f"{p['mean_diff']:+.1f} ± {p['mean_diff_margin']:.1f} |")
            lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=games.ids())
    parser.add_argument("--deals", type=int, default=100, help="deals for heuristic vs random")
    parser.add_argument("--hard-deals", type=int, default=200, help="deals for hard vs heuristic")
    parser.add_argument("--hard-rounds-only", action="store_true", help="hard vs heuristic on single rounds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=["heuristic", "hard"], help="run only one of the two pairings")
    parser.add_argument("--db", default=str(DATABASE), help="where the matches are stored (resumable)")
    args = parser.parse_args()
    stored = DOCS / "strength.json"
    for game_id in args.games:
        game = games.get(game_id)
        for name, players, goal in pairings(game_id):
            hard = name.startswith("hard")
            if args.only and args.only != ("hard" if hard else "heuristic"):
                continue
            deals = args.hard_deals if hard else args.deals
            rounds_only = hard and args.hard_rounds_only
            command = ["parlour", "lab", "run", game_id, "--players", ",".join(players), "--deals", str(deals),
                       "--jobs", str(args.jobs), "--seed", str(args.seed)] + (["--rounds-only"] if rounds_only else [])
            print("running:", shlex.join(command), file=sys.stderr, flush=True)
            label = f"strength {game_id}: {name}, {deals} deals" + (" (rounds)" if rounds_only else "")
            spec = plan.make_spec(game=game_id, players=players, deals=deals, seed=args.seed,
                                  rounds_only=rounds_only, name=label)
            store = Store(args.db)
            start = time.perf_counter()
            runner.run([spec], store, jobs=args.jobs)
            seconds = time.perf_counter() - start
            experiment = store.experiment(spec.name)
            assert experiment is not None
            results = [arena.MatchResult(m.deal or 0, tuple(m.seating), m.totals, m.winners, m.rounds, m.moves)
                       for m in store.matches(experiment.id)]
            stats = arena.summarise(players, results)
            ok = met(name, stats, game.players)
            # Re-read what is stored: another run may have measured other games meanwhile.
            results_doc = json.loads(stored.read_text()) if stored.exists() else {}
            results_doc.setdefault(game_id, {})[name] = {
                "goal": goal, "met": ok, "command": shlex.join(command), "seconds": seconds,
                "date": time.strftime("%Y-%m-%d"), "unit": "rounds" if rounds_only else "matches",
                "stats": [asdict(p) for p in stats],
            }
            first = stats[0]
            print(f"{game_id} {name}: {first.player} win rate {first.win_rate:.1%}, "
                  f"diff {first.mean_diff:+.1f} ± {first.mean_diff_margin:.1f} — {'met' if ok else 'NOT met'}",
                  flush=True)
            DOCS.mkdir(exist_ok=True)
            stored.write_text(json.dumps(results_doc, indent=1) + "\n")
            (DOCS / "strength.md").write_text(render(results_doc))


if __name__ == "__main__":
    main()
