"""What every parlour command shares: its consoles, a mistake said in one line, the players of
``--players`` and opening a lab database (cli.py and the commands of their own modules use these)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Say what is wrong in one line (never markup, never wrapped) and exit with ``code``."""
    err.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def seats(text: str, flag: str = "--players") -> list[str]:
    """Players given as ``A,B,…``; a bot's own settings keep their commas
    (``random,ismcts:iterations=400,rollout=random`` is two players)."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if specs and ":" in specs[-1] and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    if not any(specs):
        raise fail(f"{flag} names nobody (give them comma-separated, like {flag} hard,hard)")
    return specs


def check_database_path(db: str, example: str = "lab.sqlite") -> None:
    """A database given as a file path must name a file in a folder that exists."""
    if "://" in db:
        return
    if Path(db).is_dir():
        raise fail(f"--db {db} is a folder; name the database file, like {Path(db) / example}")
    if not Path(db).absolute().parent.is_dir():
        raise fail(f"--db {db}: there is no folder {Path(db).parent}")


def database_error(db: str, exc: BaseException) -> typer.Exit:
    """A database that cannot be opened, in one line: the database's own words, not SQLAlchemy's wrapping."""
    from sqlalchemy.exc import DBAPIError

    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    lines = str(cause).strip().splitlines()
    return fail(f"cannot open the database {db}: {lines[0] if lines else type(cause).__name__}")


def open_store(db: str) -> Any:
    """The lab database at ``db`` (a file or a URL), or one line saying why it cannot be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    from parlour.store import Store

    check_database_path(db)
    try:
        return Store(db)
    except (SQLAlchemyError, ImportError, OSError, ValueError) as exc:
        raise database_error(db, exc) from None
