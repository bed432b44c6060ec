"""The ``parlour`` command: thin — it parses arguments, calls the library, prints.

Domain errors become one clear line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from parlour import games, record
from parlour.cli_common import check_database_path as _check_database_path
from parlour.cli_common import console, err
from parlour.cli_common import database_error as _database_error
from parlour.cli_common import fail as _fail
from parlour.cli_common import open_store as _store
from parlour.cli_common import seats as _seats
from parlour.cli_review import review_command
from parlour.export_command import export_command
from parlour.game import Game, MissingRulesError, Option, State
from parlour.learn_command import learn_command
from parlour.tune_command import tune_command

try:  # typer 0.2x carries its own click; before, it used click's exceptions
    from typer import TyperException as UsageProblem
except ImportError:  # pragma: no cover
    from click import ClickException as UsageProblem  # type: ignore[assignment]


class _OneLineErrors(TyperGroup):
    """parlour's commands, whose usage errors (a missing argument, an unknown option, a
    number out of range) read like every other error: one line, ``error: …``."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; a usage error is one line and exit code 2."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except UsageProblem as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":  # that one has printed the help already
                ctx = getattr(exc, "ctx", None)
                see = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                err.print(f"[red]error:[/red] {escape(exc.format_message())}{escape(see)}", soft_wrap=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            err.print("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    help="parlour: four card games of the Lost Cities family, in the terminal.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _game(game_id: str) -> Game:
    try:
        return games.get(game_id)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _options(game: Game, pairs: list[str]) -> dict[str, Any]:
    """The rule options given as ``-o NAME=VALUE``, each at most once, checked against the game."""
    values: dict[str, Any] = {}
    given: dict[str, str] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise _fail(f"--option takes NAME=VALUE, like hand_size=8, not {pair!r}")
        if name in given:
            raise _fail(f"option {name!r} is given twice (-o {given[name]} and -o {pair}): give it once")
        given[name] = pair
        try:
            values[name] = game.option(name).parse_text(text)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    try:
        game.check_options(values)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    return values


@app.command("games")
def games_command() -> None:
    """List the games parlour plays, and each game's rule options with what they mean."""
    table = Table(title="Games", box=box.SIMPLE_HEAD)
    table.add_column("id", no_wrap=True)
    table.add_column("name")
    table.add_column("players", justify="right")
    table.add_column("in short", ratio=1)
    for game in games.all_games():
        table.add_row(game.id, game.name, str(game.players), game.summary)
    console.print(table)
    for game in games.all_games():
        if not game.options:
            continue
        options = Table(title=f"{game.id} options: give them as -o NAME=VALUE to play, arena or lab run",
                        box=box.SIMPLE_HEAD, title_justify="left")
        options.add_column("NAME=default", no_wrap=True)
        options.add_column("values")
        options.add_column("meaning", ratio=1)
        for option in game.options:
            options.add_row(f"{option.name}={_option_text(option.default)}", _option_values(option), option.help)
        console.print(options)


def _option_text(value: Any) -> str:
    """An option's value as it is typed after ``-o NAME=``: ``8``, ``true``, ``none``."""
    if value is None:
        return "none"
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _option_values(option: Option) -> str:
    """The values an option takes, in a few words: ``1 to 20``, ``none or ≥ 1``, ``true/false``."""
    if option.kind is bool:
        allowed = "true/false"
    elif option.minimum is not None and option.maximum is not None:
        allowed = f"{option.minimum} to {option.maximum}"
    elif option.minimum is not None:
        allowed = f"≥ {option.minimum}"
    elif option.maximum is not None:
        allowed = f"≤ {option.maximum}"
    else:
        allowed = "a whole number"
    return f"none or {allowed}" if option.nullable else allowed


@app.command("rules")
def rules_command(game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")]) -> None:
    """Show a game's rules, in parlour's own words, with the rulings it plays by."""
    try:
        text = _game(game_id).rules()
    except MissingRulesError as exc:
        raise _fail(str(exc)) from None
    console.print(Markdown(text))


app.command("learn")(learn_command)


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
    resume: Annotated[Path | None, typer.Option(metavar="RECORD",
                                                help="go on with a match that was quit (its record)")] = None,
) -> None:
    """Play a match: against the computer, hot-seat, or bots alone; then play again, if you like."""
    from parlour import play_command as playing

    game = _game(game_id)
    if resume is not None:
        given = [flag for flag, value in (("--players", players), ("--hotseat", hotseat or None), ("--seed", seed),
                                          ("--option", option), ("--names", names)) if value is not None]
        if given:
            raise _fail(f"--resume goes on with the record's own players, seed and options: "
                        f"leave out {', '.join(given)}")
        if save is not None and (problem := _save_problem(save)) is not None:
            raise _fail(problem)
        try:
            setup, table = playing.resumed(game, resume, save, console)
        except playing.ResumeError as exc:
            raise _fail(str(exc)) from None
        raise typer.Exit(playing.play(setup, table, console, err))
    values = _options(game, option or [])
    if hotseat and players is not None:
        # --hotseat is only a short way to say "every seat human": with --players too, one of them is a slip.
        human = ",".join(["human"] * game.players)
        raise _fail(f"give --hotseat or --players, not both (--hotseat is --players {human})")
    if hotseat:
        seats = ["human"] * game.players
    elif players is not None:
        seats = _seats(players)
    else:
        seats = ["human"] + ["hard"] * (game.players - 1)
    name_list = [n.strip() for n in names.split(",")] if names is not None else None
    if name_list is not None:
        if len(name_list) != game.players:
            raise _fail(f"{game.name} needs {game.players} names, got {len(name_list)}: {names!r}")
        if not all(name_list) or len(set(name_list)) != len(name_list):
            raise _fail(f"--names: every seat needs a name of its own, not {names!r}")
    if save is not None:
        problem = _save_problem(save)
        if problem is not None:
            err.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
            raise typer.Exit(2)
    setup = playing.MatchSetup(game, seats, values, name_list, seed, save)
    try:
        table = playing.table_for(setup, console)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(playing.play(setup, table, console, err))


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="a parlour-record/1 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as one JSON object")] = False,
) -> None:
    """Replay a match record, checking every deal, move and score."""
    from parlour import narrate

    said: list[list[tuple[int, str, str]]] = []

    def word(state: Any, move: Any) -> None:
        """Each move as it is made, in words: (seat, notation, sentence), a list a round."""
        if state.round_index == len(said):
            said.append([])
        seat = state.current_player()
        said[-1].append((seat, str(move), narrate.move_text(state, move, narrate.reader_of(state.names), made=True)))

    try:
        state = record.replay(record.load(file), before_move=None if as_json else word)
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
    _print_replay(state, said)


@app.command("hint")
def hint_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a parlour-record/1 JSON file of a match in progress")],
    seat: Annotated[int | None, typer.Option(
        help="the seat asking, from 0 (default: the seat to move)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the search")] = 0,
) -> None:
    """The computer's three best moves at a seat's next decision, with its estimate of each."""
    from parlour import bots, narrate

    try:
        match = record.load(file)
        state = record.replay(match)
    except record.RecordError as exc:
        unread = str(exc).startswith("cannot read")  # no file at all: not an invalid record
        raise _fail(str(exc) if unread else f"invalid record: {exc}", 1) from None
    names = state.names
    reader = narrate.reader_of(names)  # "You", when parlour play wrote the record
    if seat is not None and not 0 <= seat < state.num_players:
        seats = ", ".join(f"{s} ({names[s]})" for s in range(state.num_players))
        raise _fail(f"--seat {seat}: there is no such seat; the seats are {seats}")
    dealt = False
    while (to_move := state.current_player()) is None:
        number = state.round_index + 1
        if state.is_match_over():
            raise _fail(f"the match is over, nothing is left to hint: {narrate.result_text(state, reader)} "
                        f"See where points were lost with: parlour review {file}", 1)
        if not record.deal_next_round(match, state):
            raise _fail(f"round {number} is over and the record does not deal round {number + 1} (nor hold the seed "
                        f"that deals it): ask again once it is dealt", 1)
        dealt = True
    asking = to_move if seat is None else seat
    verbs = _decision(state)
    if asking != to_move:
        mover = narrate.Voice(names, to_move, reader)
        who = f"{mover.subject()} (seat {to_move})"
        where = (f"round {state.round_index} is over and {who} {mover.verb('move')} first in round "
                 f"{state.round_index + 1} ({verbs})" if dealt else f"{who} {mover.verb('be')} to move ({verbs})")
        whose = "your" if asking == reader else f"{names[asking]}'s"
        raise _fail(f"{where}; {whose} next decision depends on that move", 1)
    then = _same_turn_next(state)
    console.print(f"Hint for {escape(names[asking])} (seat {asking}), round {state.round_index + 1} "
                  f"({verbs}), by the {bots.HINT_LEVEL} bot:", soft_wrap=True)
    if dealt:
        console.print(f"[dim](round {state.round_index + 1} as the record's seed deals it)[/dim]")
    legal = state.legal_moves()
    for estimate in bots.hint(state.observation(asking), legal, random.Random(seed)):
        said = bots.format_estimate(estimate, players=state.game.players, only=len(legal) == 1)
        console.print("  " + escape(said), soft_wrap=True)
    if then:
        again = narrate.Voice(names, asking, reader).says("move", f"again ({then})")
        console.print(f"[dim]then {escape(again)}: a second decision of the turn, to ask about after this move[/dim]",
                      soft_wrap=True)
    console.print(f"[dim]{escape(bots.HINT_LEGEND)}[/dim]", soft_wrap=True)


app.command("review")(review_command)


def _decision(state: State) -> str:
    """What the seat to move is deciding, by the verbs of its legal moves: ``play or discard``."""
    legal = {move.verb for move in state.legal_moves()}
    verbs = [verb for verb in state.move_forms if verb in legal] + sorted(legal - set(state.move_forms))
    return " or ".join([", ".join(verbs[:-1]), verbs[-1]] if len(verbs) > 2 else verbs)


def _same_turn_next(state: State) -> str | None:
    """The decision that follows in the same turn (a draw after a play), if any move leads to one."""
    seat = state.current_player()
    for move in state.legal_moves():
        after = state.copy()
        after.apply(move)
        if after.current_player() == seat:
            return _decision(after)
    return None


def _networks(given: list[str] | None) -> tuple[str, ...]:
    """``--metrics-from`` checked (default: loopback)."""
    import ipaddress

    from parlour.web.metrics import LOOPBACK

    for network in given or ():
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError:
            raise _fail(f"--metrics-from {network!r} is not a network (e.g. 10.0.0.0/8 or 192.168.1.5)") from None
    return tuple(given) if given else LOOPBACK


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
    allowed_host: Annotated[list[str] | None, typer.Option(
        help="a host name requests may be addressed to besides localhost and the listening address "
             "(e.g. cards.example.org, *.example.org); others are refused (DNS rebinding); repeatable")] = None,
    trust_proxy: Annotated[list[str] | None, typer.Option(
        help="the address of a reverse proxy whose X-Forwarded-For and -Proto are believed (limits then count "
             "the client's address it forwards); repeatable")] = None,
    first_move_minutes: Annotated[float, typer.Option(
        min=0.01, help="a table nobody has moved at ends when no player has sat at it for this long")] = 10.0,
    max_waiting: Annotated[int, typer.Option(
        min=1, help="tables nobody has moved at yet (the oldest unattended ends to make room)")] = 1000,
    max_address_open: Annotated[int, typer.Option(
        min=1, help="tables being played that one client address may have started")] = 30,
    max_address_per_hour: Annotated[int, typer.Option(
        min=1, help="tables one client address may start in an hour")] = 120,
    max_address_bot_tables: Annotated[int, typer.Option(
        min=0, help="tables of bots only that one client address may have")] = 4,
    new_players_per_hour: Annotated[int, typer.Option(
        min=1, help="new identities (visits without a cookie) one client address may make in an hour")] = 600,
    max_sockets: Annotated[int, typer.Option(min=1, help="WebSocket connections open at once from one address")]
    = 60,
    max_spectators: Annotated[int, typer.Option(
        min=0, help="of them, connections watching a table (not sitting at it)")] = 12,
    sockets_per_minute: Annotated[int, typer.Option(
        min=1, help="WebSocket connections one address may open in a minute")] = 120,
    replays_per_minute: Annotated[int, typer.Option(
        min=1, help="replays (uploaded records, finished tables) one address may ask for in a minute")] = 20,
    hints_per_minute: Annotated[int, typer.Option(min=1, help="hints one seat may ask for in a minute")] = 20,
    health_checks_per_minute: Annotated[int, typer.Option(
        min=1, help="GET /healthz one address may ask in a minute (a load balancer asks every few seconds)")] = 120,
    lesson_steps_per_minute: Annotated[int, typer.Option(
        min=1, help="steps of the guided first matches one address may ask for in a minute")] = 120,
    kb_rate: Annotated[float, typer.Option(
        min=1.0, help="kB a second one connection may send (bursts of 32 times as many): more closes it")] = 64.0,
    metrics_from: Annotated[list[str] | None, typer.Option(
        help="a network whose addresses may read /metrics (Prometheus), e.g. 10.0.0.0/8; repeatable "
             "(default: this machine only, 127.0.0.0/8 and ::1)")] = None,
) -> None:
    """Play in the browser: tables, friends, bots, spectators and replays. Open the printed address.

    The session cookies are signed with $PARLOUR_SECRET_KEY, or a key kept in the database.  Every limit
    holds per identity and per client address (behind a reverse proxy, name it with --trust-proxy)."""
    try:
        from parlour.web.app import serve
        from parlour.web.limits import Limits
    except ImportError as exc:
        raise _fail(f"the web server needs its packages ({exc.name}): run make serve, or pip install parlour") \
            from None
    from sqlalchemy.exc import SQLAlchemyError

    limits = Limits(open_tables=max_open, tables_per_hour=max_per_hour, live_tables=max_tables,
                    bot_tables=max_bot_tables, idle_seconds=idle_minutes * 60, messages_per_second=message_rate,
                    message_burst=max(1, round(2 * message_rate)), first_move_seconds=first_move_minutes * 60,
                    waiting_tables=max_waiting, address_open_tables=max_address_open,
                    address_tables_per_hour=max_address_per_hour, address_bot_tables=max_address_bot_tables,
                    new_players_per_hour=new_players_per_hour, sockets=max_sockets, spectators=max_spectators,
                    sockets_per_minute=sockets_per_minute, replays_per_minute=replays_per_minute,
                    hints_per_minute=hints_per_minute, lesson_steps_per_minute=lesson_steps_per_minute,
                    health_checks_per_minute=health_checks_per_minute,
                    bytes_per_second=round(kb_rate * 1024),
                    byte_burst=round(kb_rate * 1024 * 32))
    _check_database_path(db, "parlour.db")
    try:
        serve(host=host, port=port, db=db, bot_delay=bot_delay, limits=limits, https_only=https_only,
              allowed_origins=frozenset(allow_origin or ()), allowed_hosts=allowed_host or (),
              trusted_proxies=trust_proxy or (), metrics_from=_networks(metrics_from))
    except (SQLAlchemyError, ImportError) as exc:  # the database is opened (and migrated) before the first request
        raise _database_error(db, exc) from None


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
    specs = _seats(players)
    try:  # before the progress bar: a mistake is one line, not a bar and then a line
        arena.check(game.id, specs, options=values, save=save)
    except ValueError as exc:
        raise _fail(str(exc)) from None
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
NOISE_HELP = ("playtest noise: each bot's chance of a random legal move instead of its own (0-1; a little, "
              "like 0.05, makes duplicate deals of deterministic bots differ by seating)")


JOBS = os.cpu_count() or 1
Jobs = Annotated[int, typer.Option(min=1, help="worker processes (default: every core)")]
Db = Annotated[str, typer.Option(help=DB_HELP)]
Backend = Annotated[str, typer.Option(help="processes (this machine) or ray")]
Address = Annotated[str | None, typer.Option(help="ray: the cluster's address (default: a local Ray)")]
Deals = Annotated[int, typer.Option(min=1, help="duplicate deals, each played in every seating")]
Seed = Annotated[int, typer.Option(help="seed: every variant of the study plays the same deals")]
Noise = Annotated[float, typer.Option(min=0.0, max=1.0, help=NOISE_HELP)]
RoundsOnly = Annotated[bool, typer.Option(help="single rounds instead of matches")]
Options = Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option NAME=VALUE, the same in "
                                                                            "every variant")]
StudyName = Annotated[str | None, typer.Option(help="the study's name (default: what it studies)")]
CheckRobust = Annotated[str | None, typer.Option(
    help="also play the study again under other conditions, to see whether its verdicts hold: slips (twice the "
         "bots' slips, or 5%) or stronger (every bot one level up)")]


@lab.command("run")
def lab_run_command(
    plan_or_game: Annotated[str, typer.Argument(metavar="PLAN|GAME", help="a TOML plan, or a game id for a quick run")],
    players: Annotated[str | None, typer.Option(help="quick run: bot levels or names, one per seat")] = None,
    matches: Annotated[int | None, typer.Option(min=1, help="quick run: independent matches (seats rotate)")] = None,
    deals: Annotated[int | None, typer.Option(min=1, help="quick run: duplicate deals, each in every seating")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="quick run: option NAME=VALUE")] = None,
    seed: Annotated[int | None, typer.Option(help="quick run: seed (default: 0)")] = None,
    rounds_only: Annotated[bool, typer.Option(help="quick run: single rounds instead of matches")] = False,
    name: Annotated[str | None, typer.Option(help="quick run: the experiment's name")] = None,
    noise: Annotated[float | None, typer.Option(min=0.0, max=1.0, help="quick run: " + NOISE_HELP)] = None,
    jobs: Jobs = JOBS,
    db: Db = "lab.sqlite",
    backend: Backend = "processes",
    address: Address = None,
    check_robust: CheckRobust = None,
) -> None:
    """Play an experiment's matches into the database; run it again to continue after an interruption."""
    from parlour.lab import plan

    def specs() -> list[Any]:
        quick = {"--players": players is not None, "--matches": matches is not None, "--deals": deals is not None,
                 "--option": bool(option), "--seed": seed is not None, "--rounds-only": rounds_only,
                 "--name": name is not None, "--noise": noise is not None}
        path = Path(plan_or_game)
        if path.is_dir():
            raise _fail(f"{plan_or_game} is a folder; lab run takes a game id ({', '.join(games.ids())}) "
                        f"or a plan file (.toml)")
        if plan_or_game.endswith(".toml") or path.is_file():
            given = [flag for flag, used in quick.items() if used]
            if given:
                raise _fail(f"{', '.join(given)}: only for a quick run with a game id; "
                            f"the plan {plan_or_game} sets its own (edit it, or run a game id)")
            return plan.load_plan(path)
        if plan_or_game not in games.ids():
            raise _fail(f"{plan_or_game!r} is neither a game id ({', '.join(games.ids())}) nor a plan file (.toml)")
        game = _game(plan_or_game)
        if players is None:
            example = ",".join(["hard"] * game.players)
            raise _fail(f"a quick run needs --players, one per seat (e.g. --players {example})")
        _one_count(matches, deals, "a quick run")
        return [plan.make_spec(
            game=game.id, players=_seats(players), matches=matches, deals=deals,
            options=_options(game, option or []), seed=seed or 0, rounds_only=rounds_only, name=name,
            noise=noise or 0.0)]

    _play_lab(specs, db=db, jobs=jobs, backend=backend, address=address, check_robust=check_robust)


def _one_count(matches: int | None, deals: int | None, what: str) -> None:
    """Exactly one of --matches and --deals."""
    if matches is not None and deals is not None:
        raise _fail(f"give --matches or --deals, not both ({what} plays independent matches or duplicate deals)")
    if matches is None and deals is None:
        raise _fail(f"{what} needs --matches N (independent matches) or --deals N (duplicate deals)")


def _play_lab(specs: Callable[[], list[Any]], *, db: str, jobs: int, backend: str, address: str | None,
              check_robust: str | None = None) -> None:
    """Every lab command's run: check the backend, make the experiments (``specs`` may raise
    :class:`ValueError`), open the database, play what is not stored yet under a progress
    bar, and say what was stored and what to run next.  Everything is checked before the
    database is opened and the bar drawn, so a mistake is one line and stores nothing."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from parlour.lab import runner

    try:
        runner.check_backend(backend)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if address is not None and backend != "ray":
        raise _fail("--address is the Ray cluster's: give it with --backend ray")
    try:
        experiments = specs()
        if check_robust is not None:
            from parlour.lab import studies

            experiments += studies.robust(experiments, check_robust)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    store = _store(db)
    try:
        runner.check(experiments, store, backend)
        runner.start(backend, jobs, address)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("matches"), TimeRemainingColumn(), console=err)
    study = experiments[0].study
    task = progress.add_task((study or ", ".join(s.name for s in experiments))[:60], total=None)

    def started(pending: int, done: int) -> None:
        progress.update(task, total=pending + done, completed=done)

    try:
        with progress:
            played = runner.run(experiments, store, jobs=jobs, backend=backend, address=address,
                                progress=lambda n: progress.advance(task, n), started=started)
    except KeyboardInterrupt:
        err.print("[yellow]interrupted:[/yellow] finished matches are stored; run the same command to continue")
        raise typer.Exit(130) from None
    except ValueError as exc:
        raise _fail(str(exc)) from None
    for spec in experiments:
        console.print(f"{escape(spec.name)}: {spec.total} matches stored in {escape(db)}", soft_wrap=True)
    console.print(f"played {played} new matches")
    console.print(f"next: parlour lab report --db {escape(shlex.quote(db))}", soft_wrap=True)


@lab.command("sweep")
def lab_sweep_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="the option swept, with its values: hand_size=5..9, stall_limit=0,10,20, "
        "open_hands=true,false; any other NAME=VALUE is the same in every variant")] = None,
    players: Annotated[str | None, typer.Option(help="bot levels or names, one per seat")] = None,
    deals: Annotated[int | None, typer.Option(min=1, help="duplicate deals, each in every seating")] = None,
    matches: Annotated[int | None, typer.Option(min=1, help="independent matches (seats rotate)")] = None,
    seed: Seed = 0,
    noise: Noise = 0.0,
    rounds_only: RoundsOnly = False,
    name: StudyName = None,
    jobs: Jobs = JOBS,
    db: Db = "lab.sqlite",
    backend: Backend = "processes",
    address: Address = None,
    check_robust: CheckRobust = None,
) -> None:
    """A study of one rule option: a variant for each of its values, on the same deals, each compared with the
    game as it stands (the option's default)."""
    from parlour.lab import studies

    def specs() -> list[Any]:
        game = _game(game_id)
        swept = [pair for pair in option or [] if ".." in pair or "," in pair]
        if not swept:
            single = f" (each -o given, {', '.join(option)}, has one value)" if option else ""
            raise _fail(f"a sweep needs one option with several values, like -o hand_size=5..9 or "
                        f"-o open_hands=true,false{single}")
        if len(swept) > 1:
            raise _fail(f"sweep one option at a time: {' and '.join(swept)} each give several values")
        if players is None:
            raise _fail(f"a sweep needs --players, one per seat (e.g. --players {','.join(['hard'] * game.players)})")
        _one_count(matches, deals, "a sweep")
        fixed = _options(game, [pair for pair in option or [] if pair not in swept])
        swept_option, values = studies.parse_sweep(game.id, swept[0])
        return studies.sweep(game.id, swept_option, values, _seats(players), deals=deals, matches=matches, seed=seed,
                             noise=noise, rounds_only=rounds_only, options=fixed, name=name)

    _play_lab(specs, db=db, jobs=jobs, backend=backend, address=address, check_robust=check_robust)


@lab.command("matters")
def lab_matters_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    deals: Deals,
    bot: Annotated[str, typer.Option(help="the bot (a level or a bot spec) in every seat")] = "medium",
    kinds: Annotated[str | None, typer.Option(
        help="the kinds of move to bar, comma-separated, like 'play thief,lock' (default: every kind the game "
             "offers a choice of)")] = None,
    always: Annotated[bool, typer.Option(help="also bind the player to each kind: it plays one whenever it can")]
    = False,
    option: Options = None,
    seed: Seed = 0,
    noise: Noise = 0.0,
    rounds_only: RoundsOnly = False,
    name: StudyName = None,
    jobs: Jobs = JOBS,
    db: Db = "lab.sqlite",
    backend: Backend = "processes",
    address: Address = None,
    check_robust: CheckRobust = None,
) -> None:
    """What matters: the first player barred from one kind of move (a card, taking, locking) against the
    unrestricted bot; what that costs it is what the option is worth (restricted play, Jaffe et al. 2012)."""
    from parlour.lab import studies

    def specs() -> list[Any]:
        game = _game(game_id)
        values = _options(game, option or [])
        named = None if kinds is None else [k.strip() for k in kinds.split(",")]
        if named is not None and not all(named):
            raise _fail(f"--kinds names a kind of move between every pair of commas, like 'play thief,lock', "
                        f"not {kinds!r}")
        return studies.matters(game.id, bot, deals=deals, seed=seed, noise=noise, kinds=named, always=always,
                               options=values, rounds_only=rounds_only, name=name)

    _play_lab(specs, db=db, jobs=jobs, backend=backend, address=address, check_robust=check_robust)


@lab.command("depth")
def lab_depth_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    deals: Deals,
    budgets: Annotated[str, typer.Option(
        help="search budgets B (IS-MCTS iterations), comma-separated: each plays 2B against B")] = "50,100,200,400",
    option: Options = None,
    seed: Seed = 0,
    noise: Noise = 0.0,
    rounds_only: RoundsOnly = False,
    name: StudyName = None,
    jobs: Jobs = JOBS,
    db: Db = "lab.sqlite",
    backend: Backend = "processes",
    address: Address = None,
    check_robust: CheckRobust = None,
) -> None:
    """Skill depth: a search with twice the budget against the same search, budget after budget; while doubling
    still wins, the game has skill left to learn (SkillTrace)."""
    from parlour.lab import studies

    def specs() -> list[Any]:
        game = _game(game_id)
        values = _options(game, option or [])
        try:
            numbers = [int(part) for part in budgets.split(",")]
        except ValueError:
            raise _fail(f"--budgets takes whole numbers of iterations, comma-separated, like 50,100,200, "
                        f"not {budgets!r}") from None
        return studies.depth(game.id, numbers, deals=deals, seed=seed, noise=noise, options=values,
                             rounds_only=rounds_only, name=name)

    _play_lab(specs, db=db, jobs=jobs, backend=backend, address=address, check_robust=check_robust)


@lab.command("luck")
def lab_luck_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id")],
    deals: Deals,
    levels: Annotated[str, typer.Option(help="the levels (or bots), comma-separated: each plays every seat")]
    = "easy,medium,hard",
    option: Options = None,
    seed: Seed = 0,
    noise: Noise = 0.0,
    rounds_only: RoundsOnly = False,
    name: StudyName = None,
    jobs: Jobs = JOBS,
    db: Db = "lab.sqlite",
    backend: Backend = "processes",
    address: Address = None,
    check_robust: CheckRobust = None,
) -> None:
    """Deal luck: each level against itself on the same duplicate deals, to see how much the deal decides as the
    players get stronger (a bot that plays a deal the same way in every seating needs a little --noise)."""
    from parlour.lab import studies

    def specs() -> list[Any]:
        game = _game(game_id)
        values = _options(game, option or [])
        return studies.luck(game.id, _seats(levels, "--levels"), deals=deals, seed=seed, noise=noise,
                            options=values, rounds_only=rounds_only, name=name)

    _play_lab(specs, db=db, jobs=jobs, backend=backend, address=address, check_robust=check_robust)


lab.command("export")(export_command)
lab.command("tune")(tune_command)


@lab.command("report")
def lab_report_command(
    experiments: Annotated[list[str] | None, typer.Argument(help="experiment names (default: all)")] = None,
    db: Annotated[str, typer.Option(help=DB_HELP)] = "lab.sqlite",
    out: Annotated[Path, typer.Option(help="folder for the report and its plots")] = Path("lab-report"),
    fmt: Annotated[str, typer.Option("--format", help="html, json or markdown")] = "html",
    baseline: Annotated[str | None, typer.Option(
        help="the variant each study's others are compared with (default: the plan's baseline, else its first)",
    )] = None,
    primary: Annotated[str | None, typer.Option(
        help="each study's primary question, tested on its own: first_player, luck, choices, decided, comebacks, "
             "minutes or draws (default: the plan's primary, else first_player)")] = None,
    smallest_difference: Annotated[float | None, typer.Option(
        min=0.001, help="the smallest change of the primary measure worth telling apart (the stop rule's; "
        "default: 0.05 = 5 points of a share, 2 for minutes)")] = None,
    seconds_per_move: Annotated[float, typer.Option(
        min=0.1, help="how long a person takes for a move, for durations in minutes")] = 5.0,
    target_minutes: Annotated[str | None, typer.Option(
        help="the range a match should last, like 20-40: the report says how many are shorter, within, longer",
    )] = None,
    sample: Annotated[int, typer.Option(
        min=0, help="matches of each experiment replayed move by move for the measures of play (0: none; real "
                    "choices, decided-at and comebacks are then left out)")] = 100,
    judge: Annotated[str, typer.Option(
        help="what reads positions for the measures of play: advice (the game's evaluation, quick, sees the "
             "cards as they lie) or search (IS-MCTS from the mover's own view, slower)")] = "advice",
    judge_iterations: Annotated[int, typer.Option(
        min=1, help="the search's iterations a decision, with --judge search")] = 200,
) -> None:
    """Write a report: a plain summary first; then, for each experiment, scores, seat advantage, length and
    duration, events, luck against skill, choices and what is played, when rounds are decided, and anomalies
    with records to replay; then each study's variants against its baseline (sweeps, deal luck, skill depth
    and restricted play read from the study's shape)."""
    from parlour.lab import report

    if judge not in ("advice", "search"):
        raise _fail(f"--judge is advice or search, not {judge!r}")
    if primary is not None:
        from parlour.lab.spec import check_measure

        try:
            check_measure(primary)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    target = None
    if target_minutes is not None:
        low, dash, high = target_minutes.partition("-")
        try:
            target = (float(low), float(high))
        except ValueError:
            target = None
        if not dash or target is None or not 0 <= target[0] < target[1]:
            raise _fail(f"--target-minutes is a range like 20-40, not {target_minutes!r}")

    if fmt not in ("html", "json", "markdown"):
        raise _fail(f"--format must be html, json or markdown, not {fmt!r}")
    if "://" not in db and not Path(db).exists():
        raise _fail(f"no lab database at {db} (run 'parlour lab run' first)")
    if out.exists() and not out.is_dir():
        raise _fail(f"--out {out} is a file; the report is a folder (of the report and its plots)")
    store = _store(db)
    if not store.experiments():
        raise _fail(f"there are no experiments in {db} yet (run 'parlour lab run' first)")
    try:
        path = report.write(store, experiments or None, out, fmt, baseline=baseline, smallest=smallest_difference,
                            primary=primary,
                            seconds_per_move=seconds_per_move, target_minutes=target, sample=sample, judge=judge,
                            judge_iterations=judge_iterations)
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

    game = _game(game_id)
    rated = _seats(levels, "--levels")
    twice = sorted({v for v in rated if rated.count(v) > 1})
    if twice:
        raise _fail(f"--levels names {', '.join(twice)} twice: each level is rated once")
    try:
        specs = ladder.ladder_specs(game.id, rated, matches, seed)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    store = _store(db)
    try:
        runner.check(specs, store)
    except ValueError:  # the ladder names its experiments itself: what differs is --matches or --seed
        raise _fail(f"{game.id}'s ladder in {db} was played with another --matches or --seed: give the same "
                    f"ones, or another --db") from None
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


def _print_replay(state: Any, said: list[list[tuple[int, str, str]]]) -> None:
    """Each round's moves in words (who made each one), its events where they happened, its scores."""
    from parlour import narrate

    names = state.names
    reader = narrate.reader_of(names)
    rounds = [(r.scores, r.events) for r in state.history] + [(state.scores, state.events)]
    for number, (scores, events) in enumerate(rounds, 1):
        console.rule(f"Round {number}")
        by_move: dict[int, list[str]] = {}
        for event in narrate.told_events(state, events):
            by_move.setdefault(event.move, []).append(event.describe(names, reader))
        worded = said[number - 1] if number <= len(said) else []
        for line in by_move.get(0, []):
            console.print(f"     [yellow]{escape(line)}[/yellow]", soft_wrap=True)
        for index, (_, notation, text) in enumerate(worded, 1):
            console.print(f"{index:3d}. {escape(text)}  [dim]({escape(notation)})[/dim]", soft_wrap=True)
            for line in by_move.get(index, []):
                console.print(f"     [yellow]{escape(line)}[/yellow]", soft_wrap=True)
        over = number <= len(state.history) or state.is_round_over()
        label = "scores" if over else "scores so far (unfinished)"
        console.print(f"{label}: " + ", ".join(f"{escape(n)} {narrate.number_text(s)}" for n, s in zip(names, scores)))
    console.rule()
    console.print("totals: " + ", ".join(f"{escape(n)} {narrate.number_text(t)}" for n, t in zip(names, state.totals)))
    if state.is_match_over():
        console.print(escape(narrate.result_text(state, reader)), soft_wrap=True)
    else:
        console.print("The match is unfinished.")


def main() -> None:
    """Entry point of the ``parlour`` console script."""
    app()
