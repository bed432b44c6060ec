"""The tables' database: SQLAlchemy over embedded SQLite by default, or any
URL (PostgreSQL with ``postgresql+psycopg://…``).

A table is stored as its game, options, seed and seats, and its accepted
moves in order: replaying them through the engine rebuilds the state
exactly, so a server killed at any moment starts again where it was.
A seat belongs to a player (the identity in a browser's signed cookie);
invitations are stored as SHA-256 digests, and in clear only until a friend
accepts them (the host shows the link until then).  The reviews players asked for are kept with their
finished match.  Nothing deletes a table: a finished or abandoned match stays, with its seats and
moves, for its players' lists of games.  Accounts keep an identity under a username and an argon2 hash
of a password.

The schema is kept by Alembic migrations (``parlour/web/migrations``): opening
a database brings it up to date, including one made by an earlier release.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as _dt
import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    and_,
    cast,
    delete,
    exists,
    false,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from parlour.migrations import upgrade
from parlour.store import database_url, open_engine


class Base(DeclarativeBase):
    """The web server's tables."""


VERSION_TABLE = "web_alembic_version"
"""Alembic's record of the schema revision (its own name, so that the lab's tables can share a database)."""
FIRST_RELEASE = "0001"
LIVE = ("playing", "round_over")
"""The statuses of a table that is still being played."""


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
    host: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The player who created the table."""
    active: Mapped[_dt.datetime | None] = mapped_column(DateTime, nullable=True)
    """When a person last moved or was at the table (``updated`` for tables of the first release)."""
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A keyed digest of the client address the table was started from (:meth:`TableStore.address_digest`;
    ``None`` for tables of earlier releases)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # -- ratings --
    """Whether the match updates the people's ratings (:mod:`parlour.web.ratings`; False before 0007)."""
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)  # -- cluster --
    """The server process (:class:`NodeRow`) whose bots, timers and housekeeping the table has: its lease,
    held while that process beats (:mod:`parlour.web.cluster`; None before 0010, or never owned)."""


class NodeRow(Base):
    """A server process sharing the database (:mod:`parlour.web.cluster`), alive while it beats."""

    __tablename__ = "web_nodes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    """Where it runs, for people: host, process id and the address it listens on."""
    started: Mapped[_dt.datetime] = mapped_column(DateTime)
    beat: Mapped[_dt.datetime] = mapped_column(DateTime)
    """Its last heartbeat, by the database's clock (UTC)."""


class PresenceRow(Base):
    """Who is connected to a table at one server process (:mod:`parlour.web.cluster`): what the others
    need to tell whether a seat is at the table, how many watch it, and whether it is attended."""

    __tablename__ = "web_presence"

    node: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seats: Mapped[list[int]] = mapped_column(JSON)
    """The seats with a connection there."""
    watchers: Mapped[list[str]] = mapped_column(JSON)
    """The identities watching from there (a connection without one: a key of its own)."""
    host: Mapped[bool] = mapped_column(Boolean)
    """Whether the host of a table of bots only watches from there."""


class AgainVoteRow(Base):
    """A person's answer to "Play again?" at a finished table, where every server process counts it
    (with several processes; one process keeps the answers in its memory)."""

    __tablename__ = "web_again_votes"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    accept: Mapped[bool] = mapped_column(Boolean)


class ReviewJobRow(Base):
    """A review of a finished table's seat being worked out by a server process (with several processes),
    and how far it has got: the others show its progress, and take it over if that process is given up."""

    __tablename__ = "web_review_jobs"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    node: Mapped[str] = mapped_column(String(32))
    lane: Mapped[str] = mapped_column(String(64))
    """Whose turn at the bot workers it waits for (the player who asked)."""
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RecordReviewJobRow(Base):
    """A review of an uploaded record's seat being worked out by a server process (with several processes),
    with the record (to work it out again elsewhere if that process is given up) and how far it has got."""

    __tablename__ = "web_record_review_jobs"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    node: Mapped[str] = mapped_column(String(32))
    lane: Mapped[str] = mapped_column(String(64), index=True)
    """Whose turn at the bot workers it waits for (the player or the address that asked)."""
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[bytes] = mapped_column(LargeBinary)


class BudgetRow(Base):
    """A client's token bucket that every server process spends from (:class:`parlour.web.limits.Shared`)."""

    __tablename__ = "web_budgets"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    """The budget's name and the client's key (an address, a player, a seat)."""
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[_dt.datetime] = mapped_column(DateTime)
    """When ``tokens`` was counted, by the database's clock."""


class HeldRow(Base):
    """How many of something a client holds at one server process (its open connections, say)."""

    __tablename__ = "web_held"

    node: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    """What is held and the client's key."""
    count: Mapped[int] = mapped_column(Integer)


class PlayerRow(Base):
    """A player: the identity in a browser's session cookie, and the name they chose."""

    __tablename__ = "web_players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class SettingRow(Base):
    """A server setting kept across restarts (the session cookies' signing key)."""

    __tablename__ = "web_settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class SeatRow(Base):
    """A seat at a table: a person's (its ``owner``) or a bot level."""

    __tablename__ = "web_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``me``, ``friend``, ``open`` (taken from the lobby) or ``bot``."""
    level: Mapped[str | None] = mapped_column(String(20), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The digest of the seat's invitation (of its secret link, for tables of the first release)."""
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The player whose seat it is; ``None`` until someone takes it."""
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The invitation in clear while nobody has accepted it (the host shows it)."""


class MoveRow(Base):
    """One accepted change of a table's state, in order."""

    __tablename__ = "web_moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move: Mapped[str] = mapped_column(String(40))
    """A move in notation, or ``next round``."""
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class ReviewRow(Base):
    """A seat's review of a finished match (:meth:`parlour.review.Review.to_data`), kept with the match."""

    __tablename__ = "web_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class RecordReviewRow(Base):
    """A seat's review of an uploaded record (the replay page), found by the SHA-256 of the record's bytes;
    ``steps``: the replay step of each judged decision (the record itself is not kept)."""

    __tablename__ = "web_record_reviews"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    steps: Mapped[list[int]] = mapped_column(JSON)
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


# -- again --
class PlayAgainRow(Base):
    """A finished table whose people all chose to play again, and the new table they went on at."""

    __tablename__ = "web_play_again"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    next_table: Mapped[str] = mapped_column(String(32))
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


# -- chat --
class ChatRow(Base):
    """One thing said at a table's chat, in order (``id``); at most :attr:`Limits.chat_kept` are kept a table."""

    __tablename__ = "web_chat"
    __table_args__ = (Index("ix_web_chat_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The speaker's seat; None: a spectator."""
    name: Mapped[str] = mapped_column(String(40))
    spectator: Mapped[bool] = mapped_column(Boolean)
    text: Mapped[str] = mapped_column(Text)
    said: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


# -- accounts --
class AccountRow(Base):
    """An account: a username and password that keep one identity (the player id it was registered from)
    across browsers.  The password is kept only as its argon2 hash (:mod:`parlour.web.accounts`)."""

    __tablename__ = "web_accounts"

    username_key: Mapped[str] = mapped_column(String(40), primary_key=True)
    """The username folded to lower case: usernames are unique whatever their case."""
    username: Mapped[str] = mapped_column(String(40))
    """The username as it was registered."""
    password_hash: Mapped[str] = mapped_column(String(255))
    player: Mapped[str] = mapped_column(String(32), unique=True)
    """The identity the account keeps (the registering guest's player id)."""
    created: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


# -- ratings --
class RatingRow(Base):
    """A person's rating in one game (openskill ``mu`` and ``sigma``; see :mod:`parlour.web.ratings`)."""

    __tablename__ = "web_ratings"

    player: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    """Rated matches played."""
    updated: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class RatingChangeRow(Base):
    """What one rated match did to one person's rating: the history of a rating, a row a match."""

    __tablename__ = "web_rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    game: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    """1 for the best total (shared on a tie)."""
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    made: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class HandleRow(Base):
    """The public name of a player's page (``/player/HANDLE``): a keyed digest of their identity, which
    itself is never shown to anyone else (:meth:`TableStore.handle_of`).  Made at their first rated match."""

    __tablename__ = "web_player_handles"

    handle: Mapped[str] = mapped_column(String(24), primary_key=True)
    player: Mapped[str] = mapped_column(String(32), unique=True)


@dataclass(frozen=True)
class RatingWrite:
    """A person's new rating after a rated match, to store with its history row."""

    player: str
    seat: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True)
class FinishedMatch:
    """A finished table a player sat at, with its seats and moves (to work out its result)."""

    table: TableRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    changes: list[RatingChangeRow]
    """The rating changes it made (none for an unrated match)."""


NEXT_ROUND = "next round"


@dataclass(frozen=True)
class TableParts:
    """A stored table with its seats and its moves in order."""

    table: TableRow
    seats: list[SeatRow]
    moves: list[MoveRow]


@dataclass(frozen=True)
class MoveWrite:
    """One accepted change of a table to commit: the move and the table's version and status after it."""

    table_id: str
    seq: int
    """The change's place in the table's changes, from 0."""
    seat: int | None
    """Who made it (None: the table's own next round)."""
    move: str
    """The move in notation, or ``next round``."""
    version: int
    """The table's version once it is made."""
    status: str
    """The table's status once it is made."""
    by_person: bool
    """Made by a person (the table was ``active`` then)."""

_ADD_MOVES = insert(MoveRow)
"""Accepted moves, each as ``table_id``, ``seq``, ``seat``, ``move``, ``made``."""
CHANNEL = "parlour_tables"
"""The PostgreSQL ``NOTIFY`` channel on which the server processes tell each other what changed
(:mod:`parlour.web.cluster`)."""
NOTIFY_BYTES = 7000
"""The most bytes of one notification's payload (PostgreSQL takes up to 8000)."""


@dataclass(frozen=True)
class TableCounts:
    """What the limits on new tables look at (:func:`parlour.web.manager.judge_limits`)."""

    played: int
    """Live tables a person has moved at (the server's cap counts these)."""
    waiting: int
    """Live tables nobody has moved at yet."""
    host_open: int
    host_bots: int
    """Of the host's live tables, those of bots only."""
    host_started: int
    """Tables the host started in the last hour."""
    address_open: int
    address_bots: int
    address_started: int


CREATE_LOCK = 0x7061726C6F7572
"""The PostgreSQL advisory lock every server process takes to check the limits and add a new table."""
RECORD_REVIEW_LOCK = CREATE_LOCK + 1
"""The advisory lock a process takes to count the uploaded records' reviews under way and claim one."""


_MOVED_AT_VERSION = text(
    "UPDATE web_tables AS t SET version = g.new, status = g.status, updated = :stamp, "
    "active = CASE WHEN g.person THEN :stamp ELSE t.active END "
    "FROM unnest(CAST(:ids AS varchar[]), CAST(:olds AS integer[]), CAST(:news AS integer[]), "
    "CAST(:statuses AS varchar[]), CAST(:persons AS boolean[])) AS g(id, old, new, status, person) "
    "WHERE t.id = g.id AND t.version = g.old RETURNING t.id")
"""PostgreSQL: tables' new versions, each only from the version its moves were made at (compare and set),
all in one statement whose text never changes (prepared once); the ids of the tables moved."""
_FOLLOW = text(
    "SELECT t.version, t.status, t.owner, t.active, t.updated, t.created, m.seq, m.seat, m.move "
    "FROM web_tables AS t LEFT JOIN web_moves AS m ON m.table_id = t.id AND m.seq >= :seq "
    "WHERE t.id = :table_id ORDER BY m.seq")
"""A table's row and its moves from ``seq`` on, in one statement (one moment)."""
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


@dataclass(frozen=True)
class Followed:
    """What :meth:`TableStore.moves_since` reads of a table's row."""

    version: int
    status: str
    owner: str | None
    active: _dt.datetime
    updated: _dt.datetime
    """When the table last changed (a turn's deadline counts from it)."""


class Conflict(Exception):
    """A change was made against a version of the table that another server process has moved on from
    meanwhile (:meth:`TableStore.add_moves`): nothing of it was stored."""


def changed_payloads(kind: str, items: Sequence[tuple[str, int] | tuple[str, int, str]], node: str) -> list[str]:
    """Notification payloads saying that the server process ``node`` changed these (table, version)
    (``kind``: ``m`` a move, ``u`` an undo, ``s`` its seats or status, ``c`` its chat, where the number
    is the line's, ``r`` its match's ratings), as few as fit: ``kind:table:version:node`` words
    (:func:`parlour.web.cluster.parse`), each with the item's third part after one more colon if it has
    one (a move's: :func:`told_move`)."""
    payloads: list[str] = []
    words: list[str] = []
    size = 0
    for item in items:
        word = f"{kind}:{item[0]}:{item[1]}:{node}" + (f":{item[2]}" if len(item) == 3 else "")
        if words and size + len(word) + 1 > NOTIFY_BYTES:
            payloads.append(" ".join(words))
            words, size = [], 0
        words.append(word)
        size += len(word) + 1
    if words:
        payloads.append(" ".join(words))
    return payloads


def told_move(write: MoveWrite) -> str:
    """A stored move as a notification tells it, ``seq:seat:move`` (the seat ``-`` for the table's own
    next round, the move percent-encoded): another process takes it without reading the database."""
    return f"{write.seq}:{'-' if write.seat is None else write.seat}:{quote(write.move, safe='')}"


def read_told_move(told: str) -> tuple[int, int | None, str]:
    """``(seq, seat, move)`` from :func:`told_move`'s words.  Raises ValueError."""
    seq, seat, move = told.split(":")
    return int(seq), None if seat == "-" else int(seat), unquote(move)


class TableStore:
    """The database of tables, seats and moves."""

    def __init__(self, db: str) -> None:
        self.url = database_url(db)
        self.engine: Engine = open_engine(self.url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._address_key: bytes | None = None
        self._handle_key: bytes | None = None  # -- ratings --
        self.node = ""
        """The server process using this store, named in its notifications (:mod:`parlour.web.cluster`)."""

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on error."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the database."""
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database something (raises if it does not answer)."""
        with self.engine.connect() as connection:
            connection.execute(select(1))

    def add_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table with its seats."""
        with self.session() as session:
            session.add(table)
            session.flush()
            session.add_all(seats)

    def live(self, idle_before: _dt.datetime) -> list[tuple[TableRow, list[SeatRow], list[MoveRow]]]:
        """Every table still being played, with its seats and moves, after marking those that nobody
        used since ``idle_before`` as abandoned."""
        with self.session() as session:
            last = func.coalesce(TableRow.active, TableRow.updated)
            session.execute(update(TableRow).where(TableRow.status.in_(LIVE), last < idle_before)
                            .values(status="abandoned"))
            tables = session.scalars(select(TableRow).where(TableRow.status.in_(LIVE))
                                     .order_by(TableRow.created)).all()
            return [(t, *self._parts(session, t.id)) for t in tables]

    def abandon(self, table_id: str) -> None:
        """End a table as abandoned (it stays in the database)."""
        with self.session() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status.in_(LIVE))
                            .values(status="abandoned", updated=now()))
            self._notify(session.connection(), "s", [(table_id, 0)])

    def touch(self, table_id: str) -> None:
        """A person was at the table just now."""
        with self.session() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(active=now()))

    def created_since(self, host: str, since: _dt.datetime, address: str | None = None) -> tuple[int, int]:
        """How many tables ``host``, and how many the address with digest ``address``, created since ``since``."""
        with self.session() as session:
            by_host = session.scalar(select(func.count()).select_from(TableRow)
                                     .where(TableRow.host == host, TableRow.created >= since))
            by_address = 0 if address is None else session.scalar(
                select(func.count()).select_from(TableRow)
                .where(TableRow.address == address, TableRow.created >= since))
            return int(by_host or 0), int(by_address or 0)

    def address_digest(self, address: str) -> str:
        """How a client address is stored: an HMAC-SHA-256 under a key kept in the database, so that the
        database never holds addresses, and the same address always gives the same digest."""
        key = self._address_key
        if key is None:
            key = self._address_key = self.secret("address_key").encode()
        return hmac.new(key, address.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:40]

    # -- players and settings -----------------------------------------------------
    def player_name(self, player: str) -> str | None:
        """The name ``player`` chose, if any."""
        with self.session() as session:
            row = session.get(PlayerRow, player)
            return row.name if row is not None else None

    def set_player_name(self, player: str, name: str, seats: list[tuple[str, int, str]]) -> None:
        """Store ``player``'s name, and the new names of its seats as (table, seat, name)."""
        with self.session() as session:
            row = session.get(PlayerRow, player)
            if row is None:
                session.add(PlayerRow(id=player, name=name))
            else:
                row.name = name
            self._rename(session, seats)

    def secret(self, key: str) -> str:
        """A random secret kept in the database under ``key`` (made on first use)."""
        with self.session() as session:
            row = session.get(SettingRow, key)
            if row is None:
                row = SettingRow(key=key, value=secrets.token_urlsafe(48))
                session.add(row)
            return row.value

    def load(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[MoveRow]] | None:
        """One table with its seats and moves, or None: all read at one moment (on PostgreSQL, whose
        statements would otherwise each see the changes committed before it, a version could come with
        a later move)."""
        with self._sessions() as session, session.begin():
            if self.shared:
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            table = session.get(TableRow, table_id)
            if table is None:
                return None
            return (table, *self._parts(session, table_id))

    def moves_since(self, table_id: str, seq: int) -> tuple[Followed, list[tuple[int, int | None, str]]] | None:
        """A table's version, status, owner and last activity, and its moves (seq, seat, move) from ``seq``
        on, read by one statement (one moment): what another server process needs to follow a table's new
        moves without reading it all again; None if there is no table."""
        with self.engine.connect() as connection:
            rows = connection.execute(_FOLLOW, {"table_id": table_id, "seq": seq}).all()
        if not rows:
            return None
        first = rows[0]
        followed = Followed(first.version, first.status, first.owner, first.active or first.updated or first.created,
                            first.updated or first.created)
        return followed, [(r.seq, r.seat, r.move) for r in rows if r.seq is not None]

    @staticmethod
    def _parts(session: Session, table_id: str) -> tuple[list[SeatRow], list[MoveRow]]:
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
        moves = session.scalars(select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.seq)).all()
        return list(seats), list(moves)

    def add_moves(self, moves: Sequence[MoveWrite]) -> set[str]:
        """Commit accepted moves (or ``next round``) in one transaction: many tables' moves share one
        commit under load.  Returns the tables whose moves were refused: made against a version another
        server process had already moved on from (nothing of theirs is stored).

        Each table's version goes up only from the version its move was made at (one statement for
        every table: compare and set), and only the moves of the tables that went up are stored, so
        that two processes never both store a move at one version; then the other processes are told
        (:meth:`notify`, in the same transaction).  Neither goes through the ORM, whose work for each
        move was a quarter of the move's whole cost to the server."""
        if not moves:
            return set()
        stamp = now()
        tables: dict[str, dict[str, Any]] = {}
        for write in moves:
            table = tables.setdefault(write.table_id,
                                      {"id": write.table_id, "person": False, "old": write.version - 1})
            table.update(new=write.version, status=write.status)
            table["person"] = table["person"] or write.by_person
        rows = list(tables.values())
        with self.engine.begin() as connection:
            won = self._move_tables(connection, rows, stamp)
            stored = [{"table_id": w.table_id, "seq": w.seq, "seat": w.seat, "move": w.move, "made": stamp}
                      for w in moves if w.table_id in won]
            if stored:
                connection.execute(_ADD_MOVES, stored)
            self._notify(connection, "m", [(w.table_id, w.version, told_move(w)) for w in moves if w.table_id in won])
        return set(tables) - won

    def _move_tables(self, connection: Connection, rows: Sequence[dict[str, Any]], stamp: _dt.datetime) -> set[str]:
        """Each table's new version, status and times, where it is still at the version its moves were
        made at (``old``): the ids of those moved.  On PostgreSQL one statement for them all; on SQLite
        (one server process, whose own lock keeps a table's changes in order) one a table."""
        if self.shared:
            return set(connection.scalars(_MOVED_AT_VERSION, {
                "ids": [t["id"] for t in rows], "olds": [t["old"] for t in rows], "news": [t["new"] for t in rows],
                "statuses": [t["status"] for t in rows], "persons": [t["person"] for t in rows], "stamp": stamp}))
        won = set()
        for t in rows:
            change = {"version": t["new"], "status": t["status"], "updated": stamp}
            if t["person"]:
                change["active"] = stamp
            done = connection.execute(update(TableRow).where(TableRow.id == t["id"], TableRow.version == t["old"])
                                      .values(**change))
            if done.rowcount == 1:
                won.add(t["id"])
        return won

    def undo_moves(self, table_id: str, first_seq: int, version: int, status: str) -> None:
        """Delete the moves from ``first_seq`` on (an undo) and store the new version, if the table is
        still at the version before (else :class:`Conflict`, and nothing is changed)."""
        with self.session() as session:
            done = session.execute(update(TableRow).where(TableRow.id == table_id, TableRow.version == version - 1)
                                   .values(version=version, status=status, updated=now()))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(table_id)
            session.execute(delete(MoveRow).where(MoveRow.table_id == table_id, MoveRow.seq >= first_seq))
            self._notify(session.connection(), "u", [(table_id, version)])

    # -- cluster: several server processes on one database ------------------------------------------
    @property
    def shared(self) -> bool:
        """Whether several server processes can share this database (PostgreSQL; SQLite is one process's)."""
        return self.engine.url.get_backend_name() == "postgresql"

    def _notify(self, connection: Connection, kind: str,
                items: Sequence[tuple[str, int] | tuple[str, int, str]]) -> None:
        """Tell the other server processes, once the transaction commits, that these tables changed."""
        if self.shared:
            for payload in changed_payloads(kind, items, self.node):
                connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})

    def notify(self, kind: str, table_id: str, version: int = 0) -> None:
        """Tell the other server processes that ``table_id`` changed (``kind``: see :func:`changed_payloads`)."""
        if self.shared:
            with self.engine.begin() as connection:
                self._notify(connection, kind, [(table_id, version)])

    def add_node(self, node: str, name: str) -> None:
        """A server process starts: it beats from now on."""
        with self.engine.begin() as connection:
            connection.execute(insert(NodeRow).values(id=node, name=name[:200], started=func.now(), beat=func.now()))

    def beat(self, node: str) -> bool:
        """``node`` is alive; False if it was given up for dead meanwhile (its row is gone)."""
        with self.engine.begin() as connection:
            done = connection.execute(update(NodeRow).where(NodeRow.id == node).values(beat=func.now()))
            return bool(done.rowcount == 1)

    def remove_node(self, node: str) -> None:
        """A server process stops (politely): its tables are free for the others to take at once."""
        with self.engine.begin() as connection:
            connection.execute(update(TableRow).where(TableRow.owner == node).values(owner=None))
            connection.execute(delete(HeldRow).where(HeldRow.node == node))
            gone = connection.scalars(delete(PresenceRow).where(PresenceRow.node == node)
                                      .returning(PresenceRow.table_id)).all()
            self._notify(connection, "p", [(table_id, 0) for table_id in gone])
            connection.execute(delete(NodeRow).where(NodeRow.id == node))

    def nodes(self, ttl: float) -> list[tuple[str, str, bool]]:
        """Every server process known: (id, name, alive: beat within ``ttl`` seconds)."""
        with self.engine.begin() as connection:
            fresh = NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl)
            found = connection.execute(select(NodeRow.id, NodeRow.name, fresh.label("alive")).order_by(NodeRow.started))
            return [(r.id, r.name, bool(r.alive)) for r in found]

    def claim_tables(self, node: str, ttl: float, limit: int = 100) -> list[str]:
        """Make ``node`` the owner of up to ``limit`` live tables that no live process owns (never
        owned, or owned by a process that has not beaten for ``ttl`` seconds); their ids.  Processes
        claiming at once share them out (PostgreSQL's ``SKIP LOCKED``), never claiming one table twice."""
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        orphans = (select(TableRow.id).where(TableRow.status.in_(LIVE),
                                             or_(TableRow.owner.is_(None), TableRow.owner.not_in(alive)))
                   .order_by(TableRow.created).limit(limit).with_for_update(skip_locked=True))
        with self.engine.begin() as connection:
            claimed = list(connection.scalars(update(TableRow).where(TableRow.id.in_(orphans.scalar_subquery()))
                                              .values(owner=node).returning(TableRow.id)))
            connection.execute(delete(NodeRow).where(
                NodeRow.beat < func.now() - _dt.timedelta(seconds=ttl),
                ~select(TableRow.id).where(TableRow.owner == NodeRow.id, TableRow.status.in_(LIVE)).exists()))
            connection.execute(delete(PresenceRow).where(PresenceRow.node.not_in(select(NodeRow.id))))
            return claimed

    def set_presence(self, node: str, table_id: str, seats: Sequence[int], watchers: Sequence[str],
                     host: bool) -> None:
        """Who is connected to ``table_id`` at ``node`` now (nobody: the row goes); the others are told."""
        with self.engine.begin() as connection:
            connection.execute(delete(PresenceRow).where(PresenceRow.node == node, PresenceRow.table_id == table_id))
            if seats or watchers or host:
                connection.execute(insert(PresenceRow).values(node=node, table_id=table_id, seats=list(seats),
                                                              watchers=list(watchers), host=host))
            self._notify(connection, "p", [(table_id, 0)])

    def presence(self, table_id: str, node: str, ttl: float) -> tuple[set[int], set[str], bool]:
        """Who is connected to ``table_id`` at the live processes other than ``node``: seats, watchers and
        whether the host of a table of bots only is."""
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        with self.engine.begin() as connection:
            rows = connection.execute(select(PresenceRow.seats, PresenceRow.watchers, PresenceRow.host).where(
                PresenceRow.table_id == table_id, PresenceRow.node != node, PresenceRow.node.in_(alive))).all()
        return ({int(s) for r in rows for s in r.seats}, {str(w) for r in rows for w in r.watchers},
                any(r.host for r in rows))

    def spend(self, key: str, rate: float, burst: float, cost: float, take: bool) -> float:
        """Token bucket ``key`` (full at first): take ``cost`` if it holds that much (only if ``take``) and
        return 0, else the seconds until it will.  Counted by the database's clock, under the row's lock,
        so that every server process spends from the one bucket."""
        key = key[:200]
        with self.engine.begin() as connection:
            connection.execute(pg_insert(BudgetRow).values(key=key, tokens=burst, stamp=func.clock_timestamp())
                               .on_conflict_do_nothing())
            tokens, elapsed = connection.execute(
                select(BudgetRow.tokens, func.extract("epoch", func.clock_timestamp() - BudgetRow.stamp))
                .where(BudgetRow.key == key).with_for_update()).one()
            level = min(burst, float(tokens) + max(0.0, float(elapsed)) * rate)
            if level >= cost - 1e-9:
                if take:
                    connection.execute(update(BudgetRow).where(BudgetRow.key == key)
                                       .values(tokens=level - cost, stamp=func.clock_timestamp()))
                return 0.0
            return (cost - level) / rate

    def hold(self, node: str, key: str, limit: int, ttl: float) -> bool:
        """One more of ``key`` held at ``node``, if the live processes together hold fewer than ``limit``."""
        key = key[:200]
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        with self.engine.begin() as connection:
            connection.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))
            held = connection.scalar(select(func.coalesce(func.sum(HeldRow.count), 0))
                                     .where(HeldRow.key == key, HeldRow.node.in_(alive)))
            if int(held or 0) >= limit:
                return False
            connection.execute(pg_insert(HeldRow).values(node=node, key=key, count=1).on_conflict_do_update(
                index_elements=[HeldRow.node, HeldRow.key], set_={"count": HeldRow.count + 1}))
            return True

    def release(self, node: str, key: str) -> None:
        """One fewer of ``key`` held at ``node``."""
        key = key[:200]
        with self.engine.begin() as connection:
            connection.execute(update(HeldRow).where(HeldRow.node == node, HeldRow.key == key)
                               .values(count=HeldRow.count - 1))
            connection.execute(delete(HeldRow).where(HeldRow.node == node, HeldRow.key == key, HeldRow.count <= 0))

    def forget_budgets(self, days: float = 1.0) -> None:
        """Drop the budgets untouched for ``days`` (full again by then) and the holdings of processes gone."""
        with self.engine.begin() as connection:
            connection.execute(delete(BudgetRow).where(BudgetRow.stamp < func.now() - _dt.timedelta(days=days)))
            connection.execute(delete(HeldRow).where(HeldRow.node.not_in(select(NodeRow.id))))

    def add_table_within_limits(self, table: TableRow, seats: list[SeatRow], bots_only: bool, ttl: float,
                                judge: Callable[[TableCounts], bool],
                                busy: Callable[[TableCounts], Exception]) -> str | None:
        """Store a new table with its seats if ``judge`` lets it be made given the tables counted now over
        every server process (it raises its refusal); when it asks for room, the live table nobody has
        moved at, nobody is at (``web_presence``, processes alive within ``ttl`` s) and that was left
        alone longest ends first (else ``busy``'s refusal).  One process at a time (an advisory lock);
        returns the id of the table ended to make room, if any."""
        live = TableRow.status.in_(LIVE)
        person = and_(SeatRow.table_id == TableRow.id, SeatRow.kind != "bot")
        played = exists(select(MoveRow.seq).join(SeatRow, and_(SeatRow.table_id == MoveRow.table_id,
                                                               SeatRow.seat == MoveRow.seat))
                        .where(MoveRow.table_id == TableRow.id, SeatRow.kind != "bot"))
        bots = ~exists(select(SeatRow.seat).where(person))
        since = now() - _dt.timedelta(hours=1)

        def count(*where: Any) -> Any:
            return select(func.count()).select_from(TableRow).where(*where).scalar_subquery()

        host, address = table.host, table.address
        with self.session() as session:
            session.execute(select(func.pg_advisory_xact_lock(CREATE_LOCK)))
            row = session.execute(select(
                count(live, played), count(live, ~played),
                count(live, TableRow.host == host), count(live, TableRow.host == host, bots),
                count(TableRow.host == host, TableRow.created >= since),
                count(live, TableRow.address == address), count(live, TableRow.address == address, bots),
                count(TableRow.address == address, TableRow.created >= since))).one()
            counts = TableCounts(*(int(n) for n in row))
            if address is None:
                counts = dataclasses.replace(counts, address_open=0, address_bots=0, address_started=0)
            ended = None
            if judge(counts):
                alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
                attended = exists(select(PresenceRow.node).where(
                    PresenceRow.table_id == TableRow.id, PresenceRow.node.in_(alive),
                    or_(cast(PresenceRow.seats, Text) != "[]", PresenceRow.host)))
                ended = session.scalar(select(TableRow.id).where(live, ~played, ~attended)
                                       .order_by(func.coalesce(TableRow.active, TableRow.updated)).limit(1)
                                       .with_for_update(skip_locked=True))
                if ended is None:
                    raise busy(counts)
                session.execute(update(TableRow).where(TableRow.id == ended).values(status="abandoned",
                                                                                    updated=now()))
                self._notify(session.connection(), "s", [(ended, 0)])
            session.add(table)
            session.flush()
            session.add_all(seats)
            return ended

    def _open_tables(self) -> Any:
        free = exists(select(SeatRow.seat).where(SeatRow.table_id == TableRow.id, SeatRow.kind == "open",
                                                 SeatRow.owner.is_(None)))
        return select(TableRow.id).where(TableRow.status.in_(LIVE), free)

    def open_tables_count(self) -> int:
        """How many live tables have a free ``open`` seat (the lobby's)."""
        with self.session() as session:
            return int(session.scalar(select(func.count()).select_from(self._open_tables().subquery())) or 0)

    def open_tables(self, offset: int, limit: int) -> list[str]:
        """Live tables with a free ``open`` seat, newest first, from ``offset``."""
        with self.session() as session:
            return list(session.scalars(self._open_tables().order_by(TableRow.created.desc(), TableRow.id)
                                        .offset(offset).limit(limit)))

    def owned_by(self, node: str) -> set[str]:
        """The live tables ``node`` owns."""
        with self.engine.begin() as connection:
            return set(connection.scalars(select(TableRow.id).where(TableRow.owner == node,
                                                                    TableRow.status.in_(LIVE))))

    def claim_seat(self, table_id: str, seat: int, owner: str, name: str,
                   renamed: Sequence[tuple[str, int, str]] = ()) -> bool:
        """Give the seat to ``owner`` if nobody holds it (its invitation is then used up), and other seats
        new names, as (table, seat, name), so that no two share one; False if someone took it first."""
        with self.session() as session:
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.owner.is_(None),
                       SeatRow.kind != "bot")
                .values(owner=owner, name=name, invite=None)
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                return False
            self._rename(session, renamed)
            self._notify(session.connection(), "s", [(table_id, 0)])
            return True

    def _rename(self, session: Session, seats: Sequence[tuple[str, int, str]]) -> None:
        for table_id, seat, seat_name in seats:
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                            .values(name=seat_name))
        self._notify(session.connection(), "s", sorted({(table_id, 0) for table_id, _, _ in seats}))

    def review(self, table_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review of ``seat`` at a finished table, if one was made."""
        with self.session() as session:
            row = session.get(ReviewRow, (table_id, seat))
            return row.review if row is not None else None

    def add_review(self, table_id: str, seat: int, review: dict[str, Any]) -> None:
        """Keep the review of ``seat`` with its match (a review made again replaces it)."""
        with self.session() as session:
            row = session.get(ReviewRow, (table_id, seat))
            if row is None:
                session.add(ReviewRow(table_id=table_id, seat=seat, review=review))
            else:
                row.review, row.made = review, now()

    def record_review(self, digest: str, seat: int) -> tuple[dict[str, Any], list[int]] | None:
        """The stored review of ``seat`` of the uploaded record whose SHA-256 is ``digest``, with its steps."""
        with self.session() as session:
            row = session.get(RecordReviewRow, (digest, seat))
            return (row.review, row.steps) if row is not None else None

    def add_record_review(self, digest: str, seat: int, review: dict[str, Any], steps: list[int]) -> None:
        """Keep the review of ``seat`` of an uploaded record (a review made again replaces it)."""
        with self.session() as session:
            row = session.get(RecordReviewRow, (digest, seat))
            if row is None:
                session.add(RecordReviewRow(digest=digest, seat=seat, review=review, steps=steps))
            else:
                row.review, row.steps, row.made = review, steps, now()

    def reopen_seat(self, table_id: str, seat: int, invite: str) -> None:
        """Take the seat from its holder and give it a new invitation."""
        with self.session() as session:
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                            .values(owner=None, kind="friend", invite=invite, token_digest=digest(invite)))
            self._notify(session.connection(), "s", [(table_id, 0)])

    # -- again --
    def link_again(self, table_id: str, next_table: str) -> None:
        """Keep that the people of finished ``table_id`` went on at ``next_table``."""
        with self.session() as session:
            session.merge(PlayAgainRow(table_id=table_id, next_table=next_table, made=now()))
            self._notify(session.connection(), "s", [(table_id, 0)])

    def again_vote(self, table_id: str, seat: int, accept: bool) -> dict[int, bool]:
        """Keep ``seat``'s answer to "Play again?" (a later one replaces it) and return every answer so far:
        one vote at a time at a table (the table's row is locked), so that the vote that completes the
        table's answers is known to be the one; the other processes are told."""
        with self.session() as session:
            session.execute(select(TableRow.id).where(TableRow.id == table_id).with_for_update())
            session.merge(AgainVoteRow(table_id=table_id, seat=seat, accept=accept))
            session.flush()
            self._notify(session.connection(), "a", [(table_id, 0)])
            return self._again_votes(session, table_id)

    def claim_review(self, table_id: str, seat: int, node: str, lane: str, ttl: float) -> ReviewJobRow | None:
        """Make ``node`` the process working out the review of ``seat`` at ``table_id``, unless a live process
        is (then its job, to show how far it has got): None once claimed."""
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        with self.session() as session:
            session.execute(pg_insert(ReviewJobRow).values(table_id=table_id, seat=seat, node=node, lane=lane[:64],
                                                           done=0, total=None).on_conflict_do_nothing())
            job = session.execute(select(ReviewJobRow).where(ReviewJobRow.table_id == table_id,
                                                             ReviewJobRow.seat == seat).with_for_update()).scalar_one()
            if job.node == node:
                return None
            if session.scalar(select(func.count()).select_from(alive.where(NodeRow.id == job.node).subquery())):
                session.expunge(job)
                return job
            job.node, job.done, job.total = node, 0, None
            return None

    def claim_record_review(self, digest: str, seat: int, node: str, lane: str, raw: bytes, ttl: float,
                            at_once: int) -> RecordReviewJobRow | str | None:
        """Make ``node`` the process working out the review of ``seat`` of the uploaded record ``raw`` (whose
        SHA-256 is ``digest``), unless a live process is (then its job, to show how far it has got), another
        review of ``lane``'s is under way (``"lane"``) or ``at_once`` are (``"busy"``), over every process
        together: None once claimed.  One claim at a time (an advisory lock)."""
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        with self.session() as session:
            session.execute(select(func.pg_advisory_xact_lock(RECORD_REVIEW_LOCK)))
            job = session.get(RecordReviewJobRow, (digest, seat))
            if job is not None and job.node != node and session.scalar(
                    select(func.count()).select_from(alive.where(NodeRow.id == job.node).subquery())):
                session.expunge(job)
                return job
            others = select(func.count()).select_from(RecordReviewJobRow).where(
                or_(RecordReviewJobRow.digest != digest, RecordReviewJobRow.seat != seat))
            if session.scalar(others.where(RecordReviewJobRow.lane == lane[:64])):
                return "lane"
            if (session.scalar(others) or 0) >= at_once:
                return "busy"
            if job is None:
                session.add(RecordReviewJobRow(digest=digest, seat=seat, node=node, lane=lane[:64], done=0,
                                               total=None, record=raw))
            else:
                job.node, job.lane, job.done, job.total = node, lane[:64], 0, None
            return None

    def record_to_review(self, digest: str, seat: int) -> bytes | None:
        """The uploaded record whose review of ``seat`` is being worked out (None: none is)."""
        with self.session() as session:
            return session.scalar(select(RecordReviewJobRow.record).where(RecordReviewJobRow.digest == digest,
                                                                           RecordReviewJobRow.seat == seat))

    @staticmethod
    def _job(key: str, seat: int) -> tuple[type[ReviewJobRow] | type[RecordReviewJobRow], Any]:
        """The job row of a review (``key``: a table's id, or ``record`` and an uploaded record's digest)."""
        if key.startswith("record "):
            return RecordReviewJobRow, and_(RecordReviewJobRow.digest == key[7:], RecordReviewJobRow.seat == seat)
        return ReviewJobRow, and_(ReviewJobRow.table_id == key, ReviewJobRow.seat == seat)

    def review_job(self, key: str, seat: int) -> tuple[int, int | None] | None:
        """How far the review of ``seat`` at ``key`` (a table, or ``record DIGEST``) being worked out has got
        (done, total), if one is."""
        model, where = self._job(key, seat)
        with self.session() as session:
            found = session.execute(select(model.done, model.total).where(where)).first()
            return (found.done, found.total) if found is not None else None

    def review_progress(self, key: str, seat: int, node: str, done: int, total: int | None) -> None:
        """How far ``node``'s review has got."""
        model, where = self._job(key, seat)
        with self.session() as session:
            session.execute(update(model).where(where, model.node == node).values(done=done, total=total))

    def end_review(self, key: str, seat: int, node: str) -> None:
        """``node``'s review is over (stored, or given up)."""
        model, where = self._job(key, seat)
        with self.session() as session:
            session.execute(delete(model).where(where, model.node == node))

    def orphan_reviews(self, node: str, ttl: float) -> list[tuple[str, int, str]]:
        """Take over the reviews being worked out by processes not alive: (key, seat, lane) of each, the key
        a table's id or ``record`` and an uploaded record's digest."""
        alive = select(NodeRow.id).where(NodeRow.beat >= func.now() - _dt.timedelta(seconds=ttl))
        with self.session() as session:
            taken = session.execute(update(ReviewJobRow).where(ReviewJobRow.node.not_in(alive))
                                    .values(node=node, done=0, total=None)
                                    .returning(ReviewJobRow.table_id, ReviewJobRow.seat, ReviewJobRow.lane)).all()
            records = session.execute(update(RecordReviewJobRow).where(RecordReviewJobRow.node.not_in(alive))
                                      .values(node=node, done=0, total=None)
                                      .returning(RecordReviewJobRow.digest, RecordReviewJobRow.seat,
                                                 RecordReviewJobRow.lane)).all()
            return [(t, s, lane) for t, s, lane in taken] + [("record " + d, s, lane) for d, s, lane in records]

    def game_of(self, table_id: str) -> str | None:
        """The game played at ``table_id`` (None: no such table)."""
        with self.session() as session:
            return session.scalar(select(TableRow.game).where(TableRow.id == table_id))

    def owner_of(self, table_id: str) -> str | None:
        """The server process that owns ``table_id`` (:mod:`parlour.web.cluster`)."""
        with self.session() as session:
            return session.scalar(select(TableRow.owner).where(TableRow.id == table_id))

    def live_tables_of(self, player: str) -> list[str]:
        """The live tables where ``player`` holds a seat."""
        with self.session() as session:
            return list(session.scalars(select(TableRow.id).join(SeatRow, SeatRow.table_id == TableRow.id)
                                        .where(SeatRow.owner == player, TableRow.status.in_(LIVE)).distinct()))

    def again_forget(self, table_id: str, seat: int) -> None:
        """Forget ``seat``'s answer (its acceptance could not start the new table: it may try again)."""
        with self.session() as session:
            session.execute(delete(AgainVoteRow).where(AgainVoteRow.table_id == table_id, AgainVoteRow.seat == seat))
            self._notify(session.connection(), "a", [(table_id, 0)])

    def again_votes(self, table_id: str) -> dict[int, bool]:
        """The answers to "Play again?" at ``table_id`` so far, by seat."""
        with self.session() as session:
            return self._again_votes(session, table_id)

    @staticmethod
    def _again_votes(session: Session, table_id: str) -> dict[int, bool]:
        return {row.seat: row.accept for row in session.scalars(select(AgainVoteRow)
                                                                 .where(AgainVoteRow.table_id == table_id))}

    def next_table(self, table_id: str) -> str | None:
        """The table the people of ``table_id`` went on at, if they played again."""
        with self.session() as session:
            row = session.get(PlayAgainRow, table_id)
            return None if row is None else row.next_table

    # -- chat --
    def add_chat(self, row: ChatRow, keep: int) -> None:
        """Store a chat message; only the table's newest ``keep`` stay (a flood cannot fill the database)."""
        with self.session() as session:
            session.add(row)
            session.flush()
            oldest_kept = session.scalar(select(ChatRow.id).where(ChatRow.table_id == row.table_id)
                                         .order_by(ChatRow.id.desc()).offset(keep - 1).limit(1))
            if oldest_kept is not None:
                session.execute(delete(ChatRow).where(ChatRow.table_id == row.table_id, ChatRow.id < oldest_kept))
            self._notify(session.connection(), "c", [(row.table_id, row.id)])

    def chat_line(self, line: int) -> ChatRow | None:
        """One chat message by its number (None if it is no longer kept)."""
        with self.session() as session:
            return session.get(ChatRow, line)

    def chat(self, table_id: str, count: int) -> list[ChatRow]:
        """The newest ``count`` chat messages of a table, oldest first."""
        with self.session() as session:
            rows = session.scalars(select(ChatRow).where(ChatRow.table_id == table_id)
                                   .order_by(ChatRow.id.desc()).limit(count)).all()
            return list(reversed(rows))

    # -- accounts --
    def add_account(self, username: str, password_hash: str, player: str) -> bool:
        """Store a new account keeping the identity ``player``; False if its username (in any case) is taken."""
        try:
            with self.session() as session:
                session.add(AccountRow(username_key=username.lower(), username=username,
                                       password_hash=password_hash, player=player))
        except IntegrityError:
            return False
        return True

    def account_named(self, username: str) -> AccountRow | None:
        """The account of ``username`` (in any case), if there is one."""
        with self.session() as session:
            return session.get(AccountRow, username.lower())

    def account_of(self, player: str) -> str | None:
        """The username of the account that keeps the identity ``player``, if any."""
        with self.session() as session:
            return session.scalar(select(AccountRow.username).where(AccountRow.player == player))

    def set_password_hash(self, username: str, password_hash: str) -> None:
        """Keep a new hash of an account's password (its hashing parameters were raised)."""
        with self.session() as session:
            session.execute(update(AccountRow).where(AccountRow.username_key == username.lower())
                            .values(password_hash=password_hash))

    def matches_of(self, player: str, offset: int, limit: int) -> tuple[int, list[TableParts]]:
        """How many matches ``player`` holds a seat at, and ``limit`` of them from ``offset``, newest first,
        each with its seats and moves.  Tables abandoned before anyone moved are left out (nothing was played)."""
        with self.session() as session:
            mine = (select(TableRow.id).join(SeatRow, SeatRow.table_id == TableRow.id)
                    .where(SeatRow.owner == player,
                           ~((TableRow.status == "abandoned") & (TableRow.version == 0)))
                    .distinct())
            total = session.scalar(select(func.count()).select_from(mine.subquery()))
            tables = session.scalars(select(TableRow).where(TableRow.id.in_(mine))
                                     .order_by(TableRow.created.desc(), TableRow.id)
                                     .offset(offset).limit(limit)).all()
            return int(total or 0), [TableParts(t, *self._parts(session, t.id)) for t in tables]


    # -- ratings --
    def standings(self) -> list[tuple[str, str, float, float]]:
        """Every person's rating, as (game, player, mu, sigma)."""
        with self.session() as session:
            return [(r.game, r.player, r.mu, r.sigma) for r in session.scalars(select(RatingRow))]

    def rate_match(self, table_id: str, game: str, players: Sequence[str],
                   compute: Callable[[dict[str, tuple[float, float]]], Sequence[RatingWrite]]) -> list[RatingWrite]:
        """Store the rating changes of a finished rated match in one transaction: ``compute`` is given the
        ratings of its ``players`` as stored (``{player: (mu, sigma)}``, only those who have one) and says
        the new ones.  A match rated already is not rated again (nothing is written; the answer is empty).

        With several server processes the match's row and its players' ratings are locked first, so that
        two processes never rate one match twice nor lose one of two matches a person finished at once
        (a newcomer's first rating made at two processes at once fails one of them: it is tried again)."""
        tries = 3
        while True:
            try:
                return self._rate_match(table_id, game, players, compute)
            except IntegrityError:
                tries -= 1
                if not tries:
                    raise

    def _rate_match(self, table_id: str, game: str, players: Sequence[str],
                    compute: Callable[[dict[str, tuple[float, float]]], Sequence[RatingWrite]]) -> list[RatingWrite]:
        with self.session() as session:
            session.execute(select(TableRow.id).where(TableRow.id == table_id).with_for_update())
            done = session.scalar(select(func.count()).select_from(RatingChangeRow)
                                  .where(RatingChangeRow.table_id == table_id))
            if done:
                return []
            rows = {r.player: r for r in session.scalars(
                select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(sorted(set(players))))
                .order_by(RatingRow.player).with_for_update())}
            writes = list(compute({p: (r.mu, r.sigma) for p, r in rows.items()}))
            stamp = now()
            for w in writes:
                if session.get(HandleRow, self.handle_of(w.player)) is None:
                    session.add(HandleRow(handle=self.handle_of(w.player), player=w.player))
                row = rows.get(w.player)
                if row is None:
                    session.add(RatingRow(player=w.player, game=game, mu=w.mu_after, sigma=w.sigma_after, matches=1,
                                          updated=stamp))
                else:
                    row.mu, row.sigma, row.matches, row.updated = w.mu_after, w.sigma_after, row.matches + 1, stamp
                session.add(RatingChangeRow(table_id=table_id, player=w.player, game=game, seat=w.seat,
                                            place=w.place, mu_before=w.mu_before, sigma_before=w.sigma_before,
                                            mu_after=w.mu_after, sigma_after=w.sigma_after, made=stamp))
            if writes:
                session.flush()
                self._notify(session.connection(), "r", [(table_id, 0)])
            return writes

    def rating_changes(self, table_id: str) -> list[RatingWrite]:
        """What the rated match at ``table_id`` did to its people's ratings (nothing before it is rated)."""
        with self.session() as session:
            return [RatingWrite(r.player, r.seat, r.place, r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
                    for r in session.scalars(select(RatingChangeRow).where(RatingChangeRow.table_id == table_id)
                                             .order_by(RatingChangeRow.seat))]

    def handle_of(self, player: str) -> str:
        """The public name of ``player``'s page: an HMAC-SHA-256 of the identity under a key kept in the
        database, so that the page's address never gives the identity away."""
        key = self._handle_key
        if key is None:
            key = self._handle_key = self.secret("handle_key").encode()
        return hmac.new(key, player.encode(), hashlib.sha256).hexdigest()[:20]

    def handles(self) -> dict[str, str]:
        """Every player's page handle, ``{player: handle}`` (those who played a rated match)."""
        with self.session() as session:
            return {r.player: r.handle for r in session.scalars(select(HandleRow))}

    def player_of_handle(self, handle: str) -> str | None:
        """The player whose page ``handle`` names, if any."""
        with self.session() as session:
            row = session.get(HandleRow, handle)
            return row.player if row is not None else None

    def unrated_matches(self) -> list[str]:
        """Rated tables that finished without their ratings stored (the server stopped in between)."""
        with self.session() as session:
            rated = select(RatingChangeRow.table_id).where(RatingChangeRow.table_id == TableRow.id).exists()
            return list(session.scalars(select(TableRow.id).where(TableRow.rated.is_(True),
                                                                  TableRow.status == "finished", ~rated)))

    def leaderboard(self, game: str, limit: int = 100) -> list[tuple[RatingRow, str | None, str]]:
        """The best ratings of ``game`` (by ``mu − 3·sigma``), each with the player's name and page handle."""
        with self.session() as session:
            found = session.execute(
                select(RatingRow, PlayerRow.name, HandleRow.handle)
                .join(HandleRow, HandleRow.player == RatingRow.player)
                .outerjoin(PlayerRow, PlayerRow.id == RatingRow.player)
                .where(RatingRow.game == game)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.player).limit(limit)).all()
            return [(row, name, handle) for row, name, handle in found]

    def player_ratings(self, player: str) -> tuple[list[RatingRow], list[RatingChangeRow]]:
        """``player``'s ratings and their history (oldest first)."""
        with self.session() as session:
            ratings = session.scalars(select(RatingRow).where(RatingRow.player == player)
                                      .order_by(RatingRow.game)).all()
            changes = session.scalars(select(RatingChangeRow).where(RatingChangeRow.player == player)
                                      .order_by(RatingChangeRow.made, RatingChangeRow.table_id)).all()
            return list(ratings), list(changes)

    def finished_matches(self, player: str, limit: int = 10) -> list[FinishedMatch]:
        """The newest finished matches ``player`` sat at, newest first, with their seats, moves and rating
        changes."""
        with self.session() as session:
            tables = session.scalars(
                select(TableRow).join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.owner == player, TableRow.status == "finished")
                .order_by(TableRow.updated.desc(), TableRow.id).limit(limit)).all()
            out = []
            for table in tables:
                seats, moves = self._parts(session, table.id)
                changes = session.scalars(select(RatingChangeRow).where(RatingChangeRow.table_id == table.id)
                                          .order_by(RatingChangeRow.seat)).all()
                out.append(FinishedMatch(table, seats, moves, list(changes)))
            return out


class MoveWriter:
    """Commits moves to ``store`` in ``executor`` (one thread: writes go one at a time, off the event loop).
    Moves that arrive while a commit is under way go together in the next (group commit), so many
    tables share the cost of a commit; each waits for its own."""

    def __init__(self, store: TableStore, executor: Executor) -> None:
        self.store = store
        self.executor = executor
        self._pending: list[tuple[MoveWrite, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def write(self, move: MoveWrite) -> None:
        """Commit one move (with the moves that arrive meanwhile); returns once it is committed, or
        raises :class:`Conflict` if another server process moved the table on first."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((move, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                refused = await loop.run_in_executor(self.executor, self.store.add_moves, [m for m, _ in batch])
            except Exception as exc:
                for _m, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for move, done in batch:
                if not done.done():
                    if move.table_id in refused:
                        done.set_exception(Conflict(move.table_id))
                    else:
                        done.set_result(None)


def migrate(engine: Engine) -> None:
    """Bring the database's web tables up to the newest revision (a database of the first release,
    made without Alembic, is stamped at its revision first)."""
    upgrade(engine, "parlour.web", VERSION_TABLE, FIRST_RELEASE, marker="web_tables")
