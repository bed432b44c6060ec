"""The ``parlour`` command: thin — it parses arguments, calls the library, prints.

Domain errors become one clear line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
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


def _save_problem(path: Path) -> str | None:
    """Why the play command could not write its record to ``path``, or None if it can.

    Checked before the first deal, so a bad --save never costs a match.
    """
    if path.is_dir():
        return f"--save {path} is a folder; name a file, like {path / 'match.json'}"
    folder = path.parent
    if not folder.exists():
        return f"--save {path}: there is no folder {folder}"
    if not folder.is_dir():
        return f"--save {path}: {folder} is not a folder"
    if (path.exists() or path.is_symlink()) and not path.is_file():
        return f"--save {path} exists and is not a regular file"
    try:  # a real trial: the record is written next to it, then moved into place
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"--save {path}: cannot write in the folder {folder} ({exc.strerror or exc})"
    return None


@app.command("play")
def play_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")],
    players: Annotated[
        str | None,
        typer.Option(help="each seat: human, a level (easy, medium, hard, expert) or a bot name, "
                          "comma-separated (default: you against hard)"),
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
        seats = ["human"] + ["hard"] * (game.players - 1)
    name_list = [n.strip() for n in names.split(",")] if names else None
    if name_list is not None and len(name_list) != game.players:
        raise _fail(f"{game.name} needs {game.players} names, got {len(name_list)}")
    if save is not None:
        problem = _save_problem(save)
        if problem is not None:
            err.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
            raise typer.Exit(2)
    try:
        table = TerminalTable(
            game, seats, seed=seed, options=values, names=name_list, save=save, console=console
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    table.run()
    if table.save_error is not None:
        err.print(f"[red]error:[/red] the record could not be saved to {escape(str(save))} "
                  f"({escape(table.save_error)})", soft_wrap=True)
        raise typer.Exit(1)


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
            err.print(f"[red]invalid record:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from None
    result = record.result(state)
    if as_json:
        print(json.dumps(result))
        return
    _print_replay(state)


@app.command("hint")
def hint_command(
    file: Annotated[Path, typer.Argument(help="a parlour-record/1 JSON file of a match in progress")],
    seat: Annotated[int | None, typer.Option(help="the seat asking (default: the seat to move)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the search")] = 0,
) -> None:
    """The computer's three best moves for the seat to move, with its estimate of each."""
    from parlour import bots

    try:
        state = record.replay(record.load(file))
    except record.RecordError as exc:
        err.print(f"[red]error:[/red] invalid record: {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from None
    to_move = state.current_player()
    if to_move is None:
        raise _fail("nobody is to move: the round is over", 1)
    if seat is not None and seat != to_move:
        raise _fail(f"it is seat {to_move}'s turn ({state.names[to_move]}), not seat {seat}'s", 1)
    console.print(f"Hint for {state.names[to_move]} (seat {to_move}), by the {bots.HINT_LEVEL} bot:")
    for estimate in bots.hint(state.observation(to_move), state.legal_moves(), random.Random(seed)):
        console.print("  " + bots.format_estimate(estimate))
    console.print("[dim]value: expected round score minus the others' (mean), ± its 95% interval[/dim]")


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="the address to listen on (0.0.0.0: every interface)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="the port to listen on")] = 8000,
    db: Annotated[str, typer.Option(help="database URL: sqlite:///FILE (default) or postgresql+psycopg://…")]
    = "sqlite:///parlour.db",
    bot_delay: Annotated[float, typer.Option(min=0.0, max=10.0, help="seconds a bot waits before it moves")] = 0.6,
    max_open: Annotated[int, typer.Option(min=1, help="tables being played that one player may have started")]
    = 10,
    max_per_hour: Annotated[int, typer.Option(min=1, help="tables one player may start in an hour")] = 30,
    max_tables: Annotated[int, typer.Option(min=1, help="tables being played on the whole server")] = 1000,
    max_bot_tables: Annotated[int, typer.Option(min=0, help="tables of bots only that one player may have")] = 2,
    idle_minutes: Annotated[float, typer.Option(
        min=0.01, help="a table nobody is at or moves at for this long ends as abandoned")] = 24 * 60,
    message_rate: Annotated[float, typer.Option(
        min=0.1, help="messages a second one connection may send (bursts of twice as many)")] = 20.0,
    https_only: Annotated[bool, typer.Option(help="send the session cookie over HTTPS only (behind TLS)")]
    = False,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="another origin whose pages may use this server (e.g. https://cards.example.org); repeatable")]
    = None,
) -> None:
    """Play in the browser: tables, friends, bots, spectators and replays. Open the printed address.

    The session cookies are signed with $PARLOUR_SECRET_KEY, or a key kept in the database."""
    try:
        from parlour.web.app import serve
        from parlour.web.tables import Limits
    except ImportError as exc:
        raise _fail(f"the web server needs its packages ({exc.name}): run make serve, or pip install parlour") \
            from None
    limits = Limits(open_tables=max_open, tables_per_hour=max_per_hour, live_tables=max_tables,
                    bot_tables=max_bot_tables, idle_seconds=idle_minutes * 60, messages_per_second=message_rate,
                    message_burst=max(1, round(2 * message_rate)))
    serve(host=host, port=port, db=db, bot_delay=bot_delay, limits=limits, https_only=https_only,
          allowed_origins=frozenset(allow_origin or ()))


@app.command("arena")
def arena_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")],
    players: Annotated[str, typer.Option(help="the players: bot names or levels, comma-separated, one per seat")],
    deals: Annotated[int, typer.Option(min=1, help="number of duplicate deals")] = 100,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes")] = 1,
    seed: Annotated[int, typer.Option(help="tournament seed")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
    save: Annotated[Path | None, typer.Option(help="write every match record into this folder")] = None,
    rounds_only: Annotated[bool, typer.Option(help="play single rounds instead of whole matches")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option NAME=VALUE")] = None,
) -> None:
    """A duplicate tournament: each deal played in every seating, so the cards' luck cancels out."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from parlour.lab import arena

    game = _game(game_id)
    values = _options(game, option or [])
    specs = [p.strip() for p in players.split(",")]
    seatings = len(arena.seatings(len(specs)))
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("matches"),
        TimeRemainingColumn(), console=err, disable=as_json and not err.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task(f"{game.name}: {' vs '.join(specs)}", total=deals * seatings)
            result = arena.run(game.id, specs, deals, seed=seed, jobs=jobs, options=values,
                               rounds_only=rounds_only, save=save,
                               progress=lambda n: progress.advance(task, n))
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(result.as_json()))
        return
    _print_arena(result)


def _print_arena(result: Any) -> None:
    unit = "rounds" if result.rounds_only else "matches"
    table = Table(title=f"{result.game}: {result.deals} duplicate deals, {len(result.results)} {unit}",
                  box=box.SIMPLE_HEAD)
    for column in ("player", unit, "W", "D", "L", "win rate", "95% CI", "score diff", "± 95%"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for p in result.stats:
        lo, hi = p.win_rate_ci
        table.add_row(p.player, str(p.matches), str(p.wins), str(p.draws), str(p.losses), f"{p.win_rate:.1%}",
                      f"{lo:.0%}–{hi:.0%}", f"{p.mean_diff:+.1f}", f"{p.mean_diff_margin:.1f}")
    console.print(table)
    seats = Table(title="by seat: win rate / mean score difference", box=box.SIMPLE_HEAD)
    seats.add_column("player")
    for s in range(len(result.players)):
        seats.add_column(f"seat {s}", justify="right")
    for p in result.stats:
        seats.add_row(p.player, *(f"{s.win_rate:.1%} / {s.mean_diff:+.1f}" for s in p.per_seat))
    console.print(seats)


lab = typer.Typer(help="The playtest lab: many matches under rule variants, stored, compared, reported.",
                  no_args_is_help=True)
app.add_typer(lab, name="lab")

DB_HELP = "the lab database: a SQLite file or a SQLAlchemy URL"


@lab.command("run")
def lab_run_command(
    plan_or_game: Annotated[str, typer.Argument(metavar="PLAN|GAME", help="a TOML plan, or a game id for a quick run")],
    players: Annotated[str | None, typer.Option(help="quick run: bot levels or names, one per seat")] = None,
    matches: Annotated[int | None, typer.Option(help="quick run: independent matches (seats rotate)")] = None,
    deals: Annotated[int | None, typer.Option(help="quick run: duplicate deals, each in every seating")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="quick run: option NAME=VALUE")] = None,
    seed: Annotated[int, typer.Option(help="quick run: seed")] = 0,
    rounds_only: Annotated[bool, typer.Option(help="quick run: single rounds instead of matches")] = False,
    name: Annotated[str | None, typer.Option(help="quick run: the experiment's name")] = None,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes (default: every core)")] = os.cpu_count() or 1,
    db: Annotated[str, typer.Option(help=DB_HELP)] = "lab.sqlite",
    backend: Annotated[str, typer.Option(help="processes (this machine) or ray")] = "processes",
    address: Annotated[str | None, typer.Option(help="ray: the cluster's address (default: a local Ray)")] = None,
) -> None:
    """Play an experiment's matches into the database; run it again to continue after an interruption."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from parlour.lab import plan, runner
    from parlour.store import Store

    try:
        if plan_or_game.endswith(".toml") or Path(plan_or_game).is_file():
            specs = plan.load_plan(plan_or_game)
        else:
            game = _game(plan_or_game)
            if not players:
                raise _fail("a quick run needs --players (e.g. --players hard,hard)")
            specs = [plan.make_spec(
                game=game.id, players=[p.strip() for p in players.split(",")], matches=matches, deals=deals,
                options=_options(game, option or []), seed=seed, rounds_only=rounds_only, name=name)]
        store = Store(db)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("matches"), TimeRemainingColumn(), console=err)
    task = progress.add_task(", ".join(s.name for s in specs)[:60], total=None)

    def started(pending: int, done: int) -> None:
        progress.update(task, total=pending + done, completed=done)

    try:
        with progress:
            played = runner.run(specs, store, jobs=jobs, backend=backend, address=address,
                                progress=lambda n: progress.advance(task, n), started=started)
    except KeyboardInterrupt:
        err.print("[yellow]interrupted:[/yellow] finished matches are stored; run the same command to continue")
        raise typer.Exit(130) from None
    except ValueError as exc:
        raise _fail(str(exc)) from None
    for spec in specs:
        console.print(f"{spec.name}: {spec.total} matches stored in {db}")
    console.print(f"played {played} new matches")


@lab.command("report")
def lab_report_command(
    experiments: Annotated[list[str] | None, typer.Argument(help="experiment names (default: all)")] = None,
    db: Annotated[str, typer.Option(help=DB_HELP)] = "lab.sqlite",
    out: Annotated[Path, typer.Option(help="folder for the report and its plots")] = Path("lab-report"),
    fmt: Annotated[str, typer.Option("--format", help="html, json or markdown")] = "html",
) -> None:
    """Write a report: score distributions, seat advantage, lengths, events, luck vs skill, variants compared."""
    from parlour.lab import report
    from parlour.store import Store

    if fmt not in ("html", "json", "markdown"):
        raise _fail(f"--format must be html, json or markdown, not {fmt!r}")
    if "://" not in db and not Path(db).exists():
        raise _fail(f"no lab database at {db} (run 'parlour lab run' first)")
    try:
        path = report.write(Store(db), experiments or None, out, fmt)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    console.print(f"report written to {path}")


@lab.command("ladder")
def lab_ladder_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    levels: Annotated[str, typer.Option(help="the levels (or bots) to rate, comma-separated")] = "easy,medium,hard",
    matches: Annotated[int, typer.Option(min=1, help="matches per pairing")] = 20,
    seed: Annotated[int, typer.Option(help="seed")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="worker processes (default: every core)")] = os.cpu_count() or 1,
    db: Annotated[str, typer.Option(help=DB_HELP)] = "lab.sqlite",
) -> None:
    """Rate bot levels against each other with openskill (stored in the database)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from parlour.lab import ladder, runner
    from parlour.store import Store

    game = _game(game_id)
    try:
        specs = ladder.ladder_specs(game.id, [v.strip() for v in levels.split(",")], matches, seed)
        store = Store(db)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    progress = Progress(TextColumn("[bold]ladder"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err)
    task = progress.add_task("ladder", total=None)
    try:
        with progress:
            runner.run(specs, store, jobs=jobs, progress=lambda n: progress.advance(task, n),
                       started=lambda pending, done: progress.update(task, total=pending + done, completed=done))
    except KeyboardInterrupt:
        err.print("[yellow]interrupted:[/yellow] finished matches are stored; run the same command to continue")
        raise typer.Exit(130) from None
    store.save_ratings(game.id, ladder.rate(store, game.id))
    table = Table(title=f"{game.name} ladder (openskill, Plackett–Luce)", box=box.SIMPLE_HEAD)
    for column in ("rank", "player", "rating (μ − 3σ)", "μ", "σ", "matches"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, row in enumerate(store.ratings(game.id), 1):
        table.add_row(str(rank), row.player, f"{row.mu - 3 * row.sigma:.1f}", f"{row.mu:.1f}", f"{row.sigma:.1f}",
                      str(row.matches))
    console.print(table)


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
