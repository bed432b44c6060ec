"""The ``parlour learn GAME`` command: a guided first match of a game in the terminal
(:mod:`parlour.terminal.lesson` walks the game's tutorial, :mod:`parlour.learn`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from parlour import learn


def learn_command(game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, e.g. twenty")]) -> None:
    """Learn a game: a guided first round that teaches each rule when it first matters."""
    from parlour.terminal.lesson import TerminalLesson

    try:
        tutorial = learn.tutorial(game_id)
    except ValueError as exc:
        Console(stderr=True, highlight=False).print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    TerminalLesson(learn.Lesson(tutorial), Console(highlight=False)).run()

