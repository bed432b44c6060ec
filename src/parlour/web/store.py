"""The tables' database: SQLAlchemy over embedded SQLite by default, or any
URL (PostgreSQL with ``postgresql+psycopg://…``).

A table is stored as its game, options, seed and seats, and its accepted
moves in order: replaying them through the engine rebuilds the state
exactly, so a server killed at any moment starts again where it was.
Seat tokens are stored only as SHA-256 digests.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from parlour.store import database_url, open_engine


class Base(DeclarativeBase):
    """The web server's tables."""


def now() -> _dt.datetime:
    """The time, UTC, without a zone (as stored)."""
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


def digest(token: str) -> str:
    """How a seat's secret token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


class TableRow(Base):
    """A table: one match of one game."""

    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default="playing")
    created: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    updated: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class SeatRow(Base):
    """A seat at a table: a person (by secret link) or a bot level."""

    __tablename__ = "web_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``me``, ``friend``, ``open`` (taken from the lobby) or ``bot``."""
    level: Mapped[str | None] = mapped_column(String(20), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class MoveRow(Base):
    """One accepted change of a table's state, in order."""

    __tablename__ = "web_moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move: Mapped[str] = mapped_column(String(40))
    """A move in notation, or ``next round``."""
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


NEXT_ROUND = "next round"


class TableStore:
    """The database of tables, seats and moves."""

    def __init__(self, db: str) -> None:
        self.url = database_url(db)
        self.engine: Engine = open_engine(self.url)
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on error."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the database."""
        self.engine.dispose()

    def add_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table with its seats."""
        with self.session() as session:
            session.add(table)
            session.flush()
            session.add_all(seats)

    def unfinished(self) -> list[tuple[TableRow, list[SeatRow], list[MoveRow]]]:
        """Every table whose match is not over, with its seats and moves."""
        with self.session() as session:
            tables = session.scalars(select(TableRow).where(TableRow.status != "finished")).all()
            return [(t, *self._parts(session, t.id)) for t in tables]

    def load(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[MoveRow]] | None:
        """One table with its seats and moves, or None."""
        with self.session() as session:
            table = session.get(TableRow, table_id)
            if table is None:
                return None
            return (table, *self._parts(session, table_id))

    @staticmethod
    def _parts(session: Session, table_id: str) -> tuple[list[SeatRow], list[MoveRow]]:
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
        moves = session.scalars(select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.seq)).all()
        return list(seats), list(moves)

    def add_moves(self, moves: list[tuple[str, int, int | None, str, int, str]]) -> None:
        """Commit accepted moves (or ``next round``), each as (table, seq, seat, move, new version,
        new status), in one transaction: many tables' moves share one commit under load."""
        with self.session() as session:
            for table_id, seq, seat, move, version, status in moves:
                session.add(MoveRow(table_id=table_id, seq=seq, seat=seat, move=move))
                session.execute(update(TableRow).where(TableRow.id == table_id)
                                .values(version=version, status=status, updated=now()))

    def undo_moves(self, table_id: str, first_seq: int, version: int, status: str) -> None:
        """Delete the moves from ``first_seq`` on (an undo) and store the new version."""
        with self.session() as session:
            session.execute(delete(MoveRow).where(MoveRow.table_id == table_id, MoveRow.seq >= first_seq))
            session.execute(update(TableRow).where(TableRow.id == table_id)
                            .values(version=version, status=status, updated=now()))

    def claim_seat(self, table_id: str, seat: int, token: str, name: str) -> bool:
        """Give a free ``open`` seat to whoever holds ``token``; False if it was taken."""
        with self.session() as session:
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open",
                       SeatRow.token_digest.is_(None))
                .values(token_digest=digest(token), name=name)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]
