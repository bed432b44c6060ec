"""The work of ``parlour play``: a match at the terminal (:class:`~parlour.terminal.TerminalTable`), then
"Play again?" while a person plays and says yes (the same players and options, each seat one place on),
and ``--resume RECORD``: a match that was quit, gone on with from its record (the same players, bots,
seed and options; the bots draw their random numbers as they did, so the match goes on as it would
have).  A match quit without ``--save`` is kept in :func:`unfinished_folder`.  The command line
(:mod:`parlour.cli`) only parses and calls :func:`play` and :func:`resumed`.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from parlour import record
from parlour.game import Game
from parlour.terminal import TerminalTable


class ResumeError(ValueError):
    """A record ``parlour play --resume`` cannot go on with, said in plain words."""


@dataclass(frozen=True)
class MatchSetup:
    """What a match at the terminal is played with (and the next one, after "Play again?")."""

    game: Game
    seats: list[str]
    """Each seat: ``human`` or a bot name."""
    options: dict[str, Any]
    names: list[str] | None = None
    seed: int | None = None
    save: Path | None = None
    """Where the record of the first match goes (the next ones: beside it, numbered)."""
    number: int = 1
    """Which match of the sitting this is (1: the first)."""

    def rotated(self, seed: int) -> MatchSetup:
        """The next match: the same players and options, each seat (and its name) one place on, the seed
        one more than ``seed`` (the last match's) if the first was given, else a new one."""
        count = len(self.seats)
        seats = [self.seats[(i - 1) % count] for i in range(count)]
        names = [self.names[(i - 1) % count] for i in range(count)] if self.names else None
        return replace(self, seats=seats, names=names, seed=None if self.seed is None else seed + 1,
                       number=self.number + 1)

    @property
    def record_path(self) -> Path | None:
        """Where this match's record goes: ``save`` for the first, ``NAME-2.json`` and on for the next ones."""
        if self.save is None or self.number == 1:
            return self.save
        return self.save.with_name(f"{self.save.stem}-{self.number}{self.save.suffix}")


def unfinished_folder() -> Path | None:
    """Where a match quit without ``--save`` is kept: ``$XDG_STATE_HOME/parlour/unfinished`` (by default
    ``~/.local/state/parlour/unfinished``); None when there is no home folder to put it in."""
    base = os.environ.get("XDG_STATE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".local" / "state")
        except RuntimeError:
            return None
    return Path(base) / "parlour" / "unfinished"


def table_for(setup: MatchSetup, console: Console, read: Callable[[str], str] | None = None) -> TerminalTable:
    """The table of ``setup``'s match (``ValueError`` for seats it cannot seat)."""
    return TerminalTable(setup.game, setup.seats, seed=setup.seed, options=setup.options, names=setup.names,
                         save=setup.record_path, console=console, read=read, keep=unfinished_folder())


def play(setup: MatchSetup, table: TerminalTable, console: Console, err: Console,
         read: Callable[[str], str] | None = None) -> int:
    """Play ``table`` (made from ``setup``), then again with seats rotated while a person plays and says
    yes (``read``: how the next tables read what is typed, as ``table`` does).  Returns the exit code: 1
    if a record could not be saved."""
    while True:
        table.run()
        if table.save_error is not None:
            err.print(f"[red]error:[/red] the record could not be saved to {escape(str(table.save))} "
                      f"({escape(table.save_error)})", soft_wrap=True)
            return 1
        if not table.state.is_match_over() or not table.humans:
            return 0
        if not table.ask_yes("Play again?"):
            return 0
        setup = setup.rotated(table.seed)
        table = table_for(setup, console, read)
        console.print("Seats move one place on.")


def resumed(game: Game, path: Path, save: Path | None, console: Console,
            read: Callable[[str], str] | None = None) -> tuple[MatchSetup, TerminalTable]:
    """The table of the match recorded in ``path``, at the point where it was quit; it saves to ``save``
    (by default ``path`` itself).  :class:`ResumeError` in plain words for a record of another game, of
    a match that is over, of one that was not played at ``parlour play``, or a broken file."""
    shown = shlex.quote(str(path))
    try:
        match = record.load(path)
    except record.RecordError as exc:
        raise ResumeError(f"cannot go on with {path}: {exc}") from None
    if match.game.id != game.id:
        raise ResumeError(f"{path} is a record of {match.game.name}, not of {game.name}: go on with it with "
                          f"parlour play {match.game.id} --resume {shown}")
    try:
        state = record.replay(match)
    except record.RecordError as exc:
        raise ResumeError(f"cannot go on with {path}, the record is broken: {exc}") from None
    if state.is_match_over():
        raise ResumeError(f"the match in {path} is over already (see it with: parlour replay {shown}); "
                          f"start a new one with: parlour play {game.id}")
    meta = match.meta or {}
    seed, seats = meta.get("seed"), meta.get("seats")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(seats, list) \
            or len(seats) != game.players or not all(isinstance(s, str) for s in seats):
        raise ResumeError(f"{path} does not say who played it and with which seed (it was not saved by "
                          "parlour play), so it cannot be gone on with")
    setup = MatchSetup(game, list(seats), dict(match.options), list(match.players), seed, save or path)
    try:
        table = table_for(setup, console, read)
        table.go_on(match)
    except ValueError as exc:
        raise ResumeError(f"cannot go on with {path}: {exc}") from None
    return setup, table
