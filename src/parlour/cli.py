"""The ``parlour`` command: thin — it parses arguments, calls the library, prints.

Domain errors become one clear line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from parlour import games, record
from parlour.game import Game

app = typer.Typer(
    help="parlour: four card games of the Lost Cities family, in the terminal.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(code)


def _game(game_id: str) -> Game:
    try:
        return games.get(game_id)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _options(game: Game, pairs: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise _fail(f"--option takes NAME=VALUE, like hand_size=8, not {pair!r}")
        try:
            values[name.strip()] = game.option(name.strip()).parse_text(text)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    try:
        game.check_options(values)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    return values


@app.command("games")
def games_command() -> None:
    """List the games parlour plays."""
    table = Table(title="Games")
    for column in ("id", "name", "players", "in short", "options (default)"):
        table.add_column(column)
    for game in games.all_games():
        opts = ", ".join(f"{o.name}={json.dumps(o.default)}" for o in game.options) or "—"
        table.add_row(game.id, game.name, str(game.players), game.summary, opts)
    console.print(table)


@app.command("rules")
def rules_command(game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")]) -> None:
    """Show a game's rules, in parlour's own words, with the rulings it plays by."""
    console.print(Markdown(_game(game_id).rules()))


@app.command("play")
def play_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")],
    players: Annotated[
        str | None,
        typer.Option(help="each seat: human or a bot name, comma-separated (default: you against random)"),
    ] = None,
    hotseat: Annotated[bool, typer.Option(help="every seat human, sharing this keyboard")] = False,
    seed: Annotated[int | None, typer.Option(help="seed for the shuffles and bots (default: random)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the match record (parlour-record/1) here")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option NAME=VALUE")] = None,
    names: Annotated[str | None, typer.Option(help="player names by seat, comma-separated")] = None,
) -> None:
    """Play a match: against the computer, hot-seat, or bots alone."""
    from parlour.terminal import TerminalTable

    game = _game(game_id)
    values = _options(game, option or [])
    if hotseat:
        seats = ["human"] * game.players
    elif players:
        seats = [p.strip() for p in players.split(",")]
    else:
        seats = ["human"] + ["random"] * (game.players - 1)
    name_list = [n.strip() for n in names.split(",")] if names else None
    if name_list is not None and len(name_list) != game.players:
        raise _fail(f"{game.name} needs {game.players} names, got {len(name_list)}")
    try:
        table = TerminalTable(
            game, seats, seed=seed, options=values, names=name_list, save=save, console=console
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    table.run()


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="a parlour-record/1 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as one JSON object")] = False,
) -> None:
    """Replay a match record, checking every deal, move and score."""
    try:
        state = record.replay(record.load(file))
    except record.RecordError as exc:
        if as_json:
            print(json.dumps(exc.as_json()))
        else:
            err.print(f"[red]invalid record:[/red] {exc}")
        raise typer.Exit(1) from None
    result = record.result(state)
    if as_json:
        print(json.dumps(result))
        return
    _print_replay(state)


def _print_replay(state: Any) -> None:
    names = state.names
    rounds = [*state.history]
    current = (state.deal, state.moves, state.scores, state.events)
    for number, (_, moves, scores, events) in enumerate(
        [(r.deal, r.moves, r.scores, r.events) for r in rounds] + [current], 1
    ):
        console.rule(f"Round {number}")
        by_move: dict[int, list[str]] = {}
        for event in events:
            if event.points:
                by_move.setdefault(event.move, []).append(event.describe(names))
        for index, move in enumerate(moves, 1):
            line = f"{index:3d}. {move}"
            if by_move.get(index):
                line += "   [yellow]" + "; ".join(by_move[index]) + "[/yellow]"
            console.print(line)
        over = number <= len(rounds) or state.is_round_over()
        label = "scores" if over else "scores so far (unfinished)"
        console.print(f"{label}: " + ", ".join(f"{n} {s}" for n, s in zip(names, scores)))
    console.rule()
    console.print("totals: " + ", ".join(f"{n} {t}" for n, t in zip(names, state.totals)))
    if state.is_match_over():
        winners = state.winners()
        if len(winners) == len(names):
            console.print("The match is drawn.")
        else:
            console.print("Winner: " + " and ".join(names[w] for w in winners))
    else:
        console.print("The match is unfinished.")


def main() -> None:
    """Entry point of the ``parlour`` console script."""
    app()
