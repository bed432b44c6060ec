"""Solve the games' micro variants with OpenSpiel, and measure parlour's bots against the
solution: exploitability over time for CFR+ and Monte Carlo CFR, and the exploitability
of ``random``, ``medium`` and ``hard`` on the same games.

    python benchmarks/solve.py [GAME ...] [--seconds 60] [--bots random,medium,hard]
                               [--json docs/solve.json] [--plot docs/screenshots/solve.png]
    python benchmarks/solve.py table docs/solve.json [MORE.json ...]    # as a Markdown table
    python benchmarks/solve.py plot OUT.png docs/solve.json [MORE.json ...]    # drawn

Each game is its micro variant (:attr:`parlour.game.Game.micro_options`), one round
(``rounds_only``), through the OpenSpiel adapter.  Solvers, each for ``--seconds`` of its
own time on one core (checking exploitability is not counted):

* ``CFR+``: ``pyspiel.CFRPlusSolver``, exact CFR+ over the whole tree;
* ``MCCFR (external)``: ``pyspiel.ExternalSamplingMCCFRSolver``, seeded;
* ``MCCFR (outcome)``: ``pyspiel.OutcomeSamplingMCCFRSolver``, seeded.

Exploitability is the mean over seats of what a best response to the others' policy gains
over the policy's own value, in points: OpenSpiel's NashConv divided by the number of
players (for two players, OpenSpiel's exploitability; Progression has three); 0 is a Nash
equilibrium.  It is printed beside ``max_utility``, the most a seat can win.

A bot is an OpenSpiel policy through :class:`parlour.envs.policies.BotPolicy`: exactly
where the bot knows its chances (``random``; ``medium`` at its club temperature), otherwise
one seeded decision per information state (``hard``'s search, with ``--hard-iterations``
iterations: the table says which).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python.algorithms import exploitability
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from parlour import games
from parlour.envs import openspiel as pos
from parlour.envs.policies import BotPolicy

SOLVERS = {
    "CFR+": lambda game, seed: pyspiel.CFRPlusSolver(game),
    "MCCFR (external)": lambda game, seed: pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed),
    "MCCFR (outcome)": lambda game, seed: pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed),
}
CHECKPOINTS = (1 / 4, 1 / 2, 1.0)
"""When a solver's exploitability is measured, as shares of its time."""


@dataclass
class Curve:
    solver: str
    points: list[tuple[int, float, float]] = field(default_factory=list)
    """(iterations, solver seconds, exploitability)."""


@dataclass
class BotResult:
    bot: str
    exploitability: float
    exact: bool
    """Whether the policy is the bot's own chances everywhere (no seeded draws)."""
    seconds: float


@dataclass
class GameResult:
    game: str
    options: dict[str, Any]
    max_utility: float
    histories: int
    information_states: int
    curves: list[Curve]
    bots: list[BotResult]


def _result(data: dict[str, Any]) -> GameResult:
    """A game's figures as ``--json`` wrote them, read back."""
    curves = [Curve(c["solver"], [tuple(p) for p in c["points"]]) for c in data["curves"]]  # type: ignore[misc]
    bots = [BotResult(**b) for b in data["bots"]]
    return GameResult(data["game"], data["options"], data["max_utility"], data["histories"],
                      data["information_states"], curves, bots)


def micro_game(game_id: str) -> pos.ParlourGame:
    """One round of ``game_id``'s micro variant, as an OpenSpiel game."""
    micro = dict(games.get(game_id).micro_options)
    if not micro:
        raise SystemExit(f"{game_id} has no micro variant (Game.micro_options)")
    return pos.load(game_id, rounds_only=True, options=micro)


def tree_size(game: Any) -> tuple[int, int]:
    """(histories, information states of the players) of the whole game tree."""
    histories = 0
    infosets: set[str] = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            infosets.add(state.information_state_string())
            actions = state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    return histories, len(infosets)


def exploitability_of(game: Any, policy: Any) -> float:
    """The exploitability of a C++ tabular policy (a solver's average policy): its NashConv
    over the number of players (for two, OpenSpiel's exploitability)."""
    return float(pyspiel.nash_conv(game, policy, True)) / game.num_players()


def run_solver(name: str, game: Any, seconds: float, seed: int, progress: Progress) -> Curve:
    solver = SOLVERS[name](game, seed)
    step = solver.evaluate_and_update_policy if name == "CFR+" else solver.run_iteration
    curve = Curve(name)
    task = progress.add_task(f"{name}", total=seconds)
    spent, iterations = 0.0, 0
    for share in CHECKPOINTS:
        while spent < seconds * share or iterations == 0:
            start = time.process_time()
            step()
            spent += time.process_time() - start
            iterations += 1
            progress.update(task, completed=min(spent, seconds))
        curve.points.append((iterations, spent, exploitability_of(game, solver.average_policy())))
    progress.remove_task(task)
    return curve


def measure_bot(spec: str, game: Any, seed: int, hard_iterations: int) -> BotResult:
    name = spec
    if spec in ("hard", "expert"):
        name = f"ismcts:iterations={hard_iterations},rollout=heuristic"
    policy = BotPolicy(game, name, seed=seed)
    start = time.process_time()
    value = float(exploitability.nash_conv(game, policy)) / game.num_players()
    label = spec if name == spec else f"{spec} (IS-MCTS, {hard_iterations} iterations)"
    return BotResult(label, value, policy.exact, time.process_time() - start)


def solve(game_id: str, seconds: float, bot_specs: list[str], seed: int, hard_iterations: int,
          console: Console) -> GameResult:
    game = micro_game(game_id)
    histories, infosets = tree_size(game)
    console.print(f"[bold]{games.get(game_id).name}[/] micro variant {dict(game.spec.options)}: "
                  f"{histories:,} histories, {infosets:,} information states, max utility {game.max_utility():g}")
    curves = []
    columns = (TextColumn("  {task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        for name in SOLVERS:
            curves.append(run_solver(name, game, seconds, seed, progress))
    found = []
    with console.status("  measuring the bots' exploitability"):
        for spec in bot_specs:
            found.append(measure_bot(spec, game, seed, hard_iterations))
    options = {k: v for k, v in game.spec.options.items() if k in games.get(game_id).micro_options}
    return GameResult(game_id, options, game.max_utility(), histories, infosets, curves, found)


def table(result: GameResult) -> Table:
    top = result.max_utility
    out = Table(title=f"{games.get(result.game).name}: exploitability (points; % of max utility {top:g})")
    out.add_column("policy")
    out.add_column("iterations", justify="right")
    out.add_column("seconds", justify="right")
    out.add_column("exploitability", justify="right")
    out.add_column("% of max", justify="right")
    for curve in result.curves:
        iterations, spent, value = curve.points[-1]
        out.add_row(curve.solver, f"{iterations:,}", f"{spent:.1f}", f"{value:.4f}", _percent(value, top))
    for bot in result.bots:
        label = bot.bot + ("" if bot.exact else " *")
        out.add_row(label, "", f"{bot.seconds:.1f}", f"{bot.exploitability:.4f}", _percent(bot.exploitability, top))
    return out


def _percent(value: float, top: float) -> str:
    """A share of the utility range: two significant figures below 1%, one decimal above."""
    share = 100 * value / top
    return f"{share:.2g}%" if share < 1 else f"{share:.1f}%"


def markdown(results: list[dict[str, Any]]) -> str:
    """The figures of ``--json`` as one Markdown table: each game's solvers at the end of their
    time and the bots, exploitability in points and as a share of ``max_utility``."""
    lines = ["| game | policy | iterations | seconds | exploitability | % of `max_utility` |",
             "|---|---|---:|---:|---:|---:|"]
    for result in results:
        name, top = games.get(result["game"]).name, result["max_utility"]
        for curve in result["curves"]:
            iterations, spent, value = curve["points"][-1]
            lines.append(f"| {name} | {curve['solver']} | {iterations:,} | {spent:.0f} | {value:.4f} | "
                         f"{_percent(value, top)} |")
        for bot in result["bots"]:
            label = bot["bot"] + ("" if bot["exact"] else " ¹")
            lines.append(f"| {name} | {label} | | | {bot['exploitability']:.4f} | "
                         f"{_percent(bot['exploitability'], top)} |")
    return "\n".join(lines)


def plot(results: list[GameResult], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import ScalarFormatter

    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.6), squeeze=False)
    for ax, result in zip(axes[0], results):
        top = result.max_utility
        for curve in result.curves:
            xs = [max(s, 1e-3) for _, s, _ in curve.points]
            ax.plot(xs, [100 * e / top for _, _, e in curve.points], marker="o", label=curve.solver)
        for bot, style in zip(result.bots, (":", "--", "-.", ":")):
            ax.axhline(100 * bot.exploitability / top, color="grey", linestyle=style, label=bot.bot)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(ScalarFormatter())
        if any(b.exploitability == 0 for b in result.bots):  # a log scale cannot draw 0
            ax.text(0.02, 0.02, "exactly 0: " + ", ".join(b.bot for b in result.bots if b.exploitability == 0),
                    transform=ax.transAxes, fontsize=7)
        ax.set_title(f"{games.get(result.game).name} (micro)")
        ax.set_xlabel("solver seconds (one core)")
        ax.set_ylabel("exploitability, % of max utility")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "plot":
        if len(argv) < 3:
            print("usage: solve.py plot OUT.png FIGURES.json [MORE.json ...]: exploitability over time, drawn")
            return 2
        plot([_result(r) for path in argv[2:] for r in json.loads(Path(path).read_text())], Path(argv[1]))
        return 0
    if argv and argv[0] == "table":
        if len(argv) < 2:
            print("usage: solve.py table FIGURES.json [MORE.json ...]: the figures --json wrote, as a Markdown table")
            return 2
        print(markdown([result for path in argv[1:] for result in json.loads(Path(path).read_text())]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every game with a micro variant)")
    parser.add_argument("--seconds", type=float, default=60.0, help="each solver's own time per game (default 60)")
    parser.add_argument("--bots", default="random,medium,hard", help="bots to measure (default random,medium,hard)")
    parser.add_argument("--hard-iterations", type=int, default=200,
                        help="search iterations for hard on the micro variants (default 200)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the sampling solvers and the bots")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--plot", type=Path, help="draw exploitability over time here (PNG)")
    args = parser.parse_args(argv)
    ids = args.games or [g for g in games.GAME_IDS if games.get(g).micro_options]
    for game_id in ids:
        games.entry(game_id)
    console = Console()
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    results = []
    for game_id in ids:
        result = solve(game_id, args.seconds, specs, args.seed, args.hard_iterations, console)
        console.print(table(result))
        results.append(result)
    if any(not b.exact for r in results for b in r.bots):
        console.print("* one seeded decision per information state: a pure strategy drawn from the bot's play")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n")
    if args.plot:
        plot(results, args.plot)
        console.print(f"plot: {args.plot}")
    return 0 if all(math.isfinite(c.points[-1][2]) for r in results for c in r.curves) else 1


if __name__ == "__main__":
    sys.exit(main())
