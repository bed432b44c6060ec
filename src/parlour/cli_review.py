"""``parlour review RECORD [--seat N]``: where a seat lost points in a match, with a progress bar while
the search works (thin: :mod:`parlour.review` judges, this prints)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from parlour import bots, narrate, record, review
from parlour.cli_common import console, err
from parlour.cli_common import fail as _fail

LEGEND = ("points: expected round score over your opponents (the mean of them); a move is a mistake only when "
          "its loss is larger than the search's 95% margin on both moves")
"""What the numbers of a review mean: printed under every review."""


def review_command(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="a parlour-record/1 JSON file of a match")],
    seat: Annotated[int | None, typer.Option(
        help="the seat to review, from 0 (default: the seat named You, as parlour play names you)")] = None,
    iterations: Annotated[int | None, typer.Option(
        min=1, help=f"search iterations per decision (default: the {bots.HINT_LEVEL} level's for the game)")]
    = None,
) -> None:
    """Where a seat lost points: each of its mistakes, the computer's preferred move, and an accuracy figure.

    Every decision is judged from what that seat knew then (never the hidden cards); forced moves are
    skipped.  The same record gives the same review."""
    try:
        match = record.load(file)
        record.replay(match)
    except record.RecordError as exc:
        unread = str(exc).startswith("cannot read")  # no file at all: not an invalid record
        raise _fail(str(exc) if unread else f"invalid record: {exc}", 1) from None
    seats = ", ".join(f"{s} ({name})" for s, name in enumerate(match.players))
    if seat is None:
        seat = narrate.reader_of(match.players)
        if seat is None:
            raise _fail(f"which seat? Give --seat N: the seats are {seats}")
    try:
        review.check_seat(match, seat)
    except ValueError as exc:
        raise _fail(f"--seat {seat}: {exc}") from None
    analyst = bots.HINT_LEVEL if iterations is None else f"ismcts:iterations={iterations},rollout=heuristic"
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("decisions"), TimeRemainingColumn(), console=err, transient=True)
    with progress:
        task = progress.add_task(f"Reviewing {match.players[seat]}"[:60], total=None)

        def judged(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = review.review(match, seat, analyst, progress=judged)
    judge = f"the {bots.HINT_LEVEL} level's search" if iterations is None else \
        f"a search of {iterations} iterations a decision"
    console.print(f"Review of {escape(result.player)} (seat {seat}) in {escape(match.game.name)}, by {judge} "
                  f"({narrate.plural(len(result.judgements), 'decision')} judged, {result.forced} forced):",
                  soft_wrap=True)
    for judgement in result.mistakes:
        console.print("  " + escape(review.mistake_text(judgement)), soft_wrap=True)
    if not result.mistakes:
        console.print("  No mistakes: the computer found no move clearly better than yours.")
    console.print(escape(review.accuracy_text(result)), soft_wrap=True)
    console.print(f"[dim]{escape(LEGEND)}[/dim]", soft_wrap=True)
