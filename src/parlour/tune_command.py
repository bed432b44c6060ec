"""``parlour lab tune GAME -o hand_size=5..9 --target "first_player=0.5, minutes=20..30"``: a search
over rule values toward a designer's targets, every point stored as an experiment, under a progress
bar, then its report (thin: :mod:`parlour.lab.tune` searches, :mod:`parlour.lab.report.tune` writes)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from parlour import games
from parlour.cli_common import console, err, fail, open_store, seats

TARGET_HELP = ("what to aim at, comma-separated: NAME=VALUE, NAME=LOW..HIGH, NAME<=VALUE or NAME>=VALUE; the "
               "names: first_player, luck, choices, decided, draws (shares from 0 to 1), minutes, moves, rounds")


def _fixed(game_id: str, pairs: list[str]) -> dict[str, Any]:
    """The options given one value each (``-o NAME=VALUE``), the same at every point (whether the game
    takes them with the values searched is the tune's to check)."""
    game = games.get(game_id)
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE or NAME=LOW..HIGH, like hand_size=5..9, not {pair!r}")
        if name.strip() in values:
            raise ValueError(f"option {name.strip()!r} is given twice: give it once")
        values[name.strip()] = game.option(name.strip()).parse_text(text)
    return values


def tune_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    target: Annotated[str, typer.Option(help=TARGET_HELP)],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="an option searched, with its values: hand_size=5..9 or minus=10,15,20; any other "
        "NAME=VALUE is the same at every point")] = None,
    points: Annotated[int, typer.Option(min=1, help="points to try in all (those stored count)")] = 30,
    players: Annotated[str | None, typer.Option(
        help="bot levels or names, one per seat (default: medium in every seat)")] = None,
    deals: Annotated[int, typer.Option(min=1, help="duplicate deals a point, each in every seating")] = 100,
    seed: Annotated[int, typer.Option(help="seed: of the deals, shared by every point, and of the search")] = 0,
    noise: Annotated[float, typer.Option(
        min=0.0, max=1.0, help="playtest noise: each bot's chance of a random legal move (deal luck needs some)")]
    = 0.05,
    rounds_only: Annotated[bool, typer.Option(help="single rounds instead of matches")] = False,
    name: Annotated[str | None, typer.Option(help="the study's name (default: tune <options searched>)")] = None,
    seconds_per_move: Annotated[float, typer.Option(
        min=0.1, help="how long a person takes for a move, for minutes")] = 5.0,
    sample: Annotated[int, typer.Option(
        min=1, help="matches of each point replayed, when a target is choices or decided")] = 30,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes (default: every core)")] = os.cpu_count() or 1,
    db: Annotated[str, typer.Option(help="the lab database: a SQLite file or a SQLAlchemy URL")] = "lab.sqlite",
    out: Annotated[Path, typer.Option(help="folder for the tune's report and its plot")] = Path("tune-report"),
    fmt: Annotated[str, typer.Option("--format", help="html, json or markdown")] = "html",
) -> None:
    """Search rule values toward targets (optuna's TPE): each point tried is an experiment on the same deals,
    stored; run the same command again to continue, or with more --points to search further."""
    from parlour.lab import tune
    from parlour.lab.report.tune import FORMATS, write_tune

    if fmt not in FORMATS:
        raise fail(f"--format must be {', '.join(FORMATS)}, not {fmt!r}")
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file; the tune's report is a folder (of the page and its plot)")
    try:
        game = games.get(game_id)
        searched = [pair for pair in option or [] if ".." in pair or "," in pair]
        bots = seats(players) if players is not None else ["medium"] * game.players
        tuning = tune.make_tuning(game.id, searched, target, bots, deals=deals,
                                  options=_fixed(game.id, [p for p in option or [] if p not in searched]),
                                  seed=seed, noise=noise, rounds_only=rounds_only, name=name,
                                  seconds_per_move=seconds_per_move, sample=sample)
    except ValueError as exc:
        raise fail(str(exc)) from None
    store = open_store(db)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[unit]}"), TimeElapsedColumn(), console=err)
    counted = progress.add_task(tuning.study[:40], total=points, unit="points")
    matches = progress.add_task("", total=None, unit="matches")
    played = [0]

    def playing(point: dict[str, Any], pending: int, done: int) -> None:
        progress.update(matches, description=tune.point_key(point)[:40], total=pending + done, completed=done)
        played[0] += pending

    def tried(point: tune.Tried) -> None:
        progress.update(counted, completed=point.number + 1, total=max(points, point.number + 1))

    try:
        with progress:
            result = tune.tune(store, tuning, budget=points, jobs=jobs, playing=playing,
                               progress=lambda n: progress.advance(matches, n), tried=tried)
    except KeyboardInterrupt:
        err.print("[yellow]interrupted:[/yellow] finished matches are stored; run the same command to continue "
                  "(it tries the same points)", soft_wrap=True)
        raise typer.Exit(130) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    numbers = result.as_json()
    path = write_tune(numbers, out, fmt)
    _print_best(numbers)
    console.print(f"{len(result.points)} points in {escape(db)} (study {escape(tuning.study)!r}); "
                  f"played {played[0]} new matches", soft_wrap=True)
    console.print(f"report written to {escape(str(path))}", soft_wrap=True)
    console.print(f"each point's full report: parlour lab report --db {escape(shlex.quote(db))} "
                  f"{escape(shlex.quote(result.names[result.ranked()[0].number]))}", soft_wrap=True)


def _print_best(numbers: dict[str, Any]) -> None:
    from parlour.lab.report.tune import value_of

    best = next(p for p in numbers["points"] if p["number"] == numbers["best"][0])
    point = " ".join(f"{k}={v}" for k, v in best["point"].items())
    console.print(f"best of {len(numbers['points'])} points: [bold]{escape(point)}[/bold] "
                  f"(loss {best['loss']:.2f} steps)", soft_wrap=True)
    for target in numbers["targets"]:
        found = best["measures"][target["measure"]]
        ci = found["ci"]
        interval = "" if ci is None else f" ({value_of(target, ci[0])}–{value_of(target, ci[1])})"
        console.print(f"  {escape(target['text'])}: {value_of(target, found['value'])}{interval} "
                      f"{best['verdicts'][target['measure']]}", soft_wrap=True)


