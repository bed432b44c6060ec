"""The ``parlour lab export`` command: the lab's stored results as CSV files for a spreadsheet
(:mod:`parlour.lab.export` writes them; this parses, checks, shows progress and says what was written)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from parlour.cli_common import console, err, fail


def export_command(
    experiments: Annotated[list[str] | None, typer.Argument(help="experiment names (default: all)")] = None,
    db: Annotated[str, typer.Option(help="the lab database: a SQLite file or a SQLAlchemy URL")] = "lab.sqlite",
    out: Annotated[Path, typer.Option(help="folder for the CSV files")] = Path("lab-export"),
    seconds_per_move: Annotated[float, typer.Option(
        min=0.1, help="how long a person takes for a move, for each match's minutes")] = 5.0,
    sample: Annotated[int, typer.Option(
        min=0, help="matches of each experiment replayed for the measures of play (0: none; choices and decided "
                    "are then left empty)")] = 100,
) -> None:
    """Export the results as CSV files for a spreadsheet: a row per match (matches.csv), per duplicate deal
    (deals.csv), per experiment and designer measure (measures.csv) and per variant and compared measure of a
    study (comparisons.csv)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from sqlalchemy.exc import SQLAlchemyError

    from parlour.lab import export
    from parlour.store import Store

    if "://" not in db and Path(db).is_dir():
        raise fail(f"--db {db} is a folder; name the database file, like {Path(db) / 'lab.sqlite'}")
    if "://" not in db and not Path(db).exists():
        raise fail(f"no lab database at {db} (run 'parlour lab run' first)")
    try:
        store = Store(db)
        export.check(store, experiments, out)
    except ValueError as exc:  # --out is a file, no experiments, an unknown experiment
        raise fail(str(exc)) from None
    except (SQLAlchemyError, ImportError, OSError) as exc:
        cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise fail(f"cannot open the database {db}: {cause[0] if cause else type(exc).__name__}") from None
    progress = Progress(TextColumn("[bold]export"), BarColumn(), MofNCompleteColumn(), TextColumn("steps"),
                        TimeRemainingColumn(), console=err)
    task = progress.add_task("export", total=None)
    try:
        with progress:
            written = export.export(store, experiments or None, out, seconds_per_move=seconds_per_move,
                                    sample=sample,
                                    advance=lambda done, total: progress.update(task, completed=done, total=total))
    except ValueError as exc:
        raise fail(str(exc)) from None
    for item in written:
        console.print(f"wrote {escape(str(item.path))} ({item.rows} rows)", soft_wrap=True)
