"""The lab's database: experiments, matches, rounds, events and ratings.

SQLAlchemy over SQLite by default (a file path or ``sqlite:///lab.sqlite``);
any SQLAlchemy URL works.  A match is stored with its rounds and events in
one transaction, so a run killed at any moment leaves whole matches only.

The schema is kept by Alembic migrations (``parlour/store/migrations``): opening
a database brings it up to date, including one made by an earlier release.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker

from parlour.migrations import upgrade


class Base(DeclarativeBase):
    """The lab's tables."""


VERSION_TABLE = "lab_alembic_version"
"""Alembic's record of the schema revision (its own name, so that the web server's tables can share a database)."""
FIRST_RELEASE = "0001"
"""The revision of the tables that releases before migrations made with ``create_all``."""


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


class Experiment(Base):
    """One variant of a plan: a game, its options, the players, how many matches."""

    __tablename__ = "experiments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    game_version: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(10))
    """``matches`` (independent matches) or ``deals`` (duplicate deals, every seating)."""
    count: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    rounds_only: Mapped[bool] = mapped_column(default=False)
    created: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)
    study: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The study (plan) that made the experiment; ``None`` for a quick run (and for experiments stored
    before studies were recorded)."""
    baseline: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The full name of the study's baseline experiment, which the others are compared with."""
    noise: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    """The playtest noise the bots played with: each one's chance of a random legal move (0 for experiments
    stored before it was recorded, which played without)."""
    shape: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What the study varies and what this experiment is in it (:class:`parlour.lab.spec.StudyShape`, as
    JSON); ``None`` for a quick run, and for experiments stored before shapes were recorded."""
    matches: Mapped[list[Match]] = relationship(back_populates="experiment", cascade="all, delete-orphan")


class Match(Base):
    """A finished match (or single round, for ``rounds_only`` experiments)."""

    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("experiment_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    experiment_id: Mapped[int] = mapped_column(ForeignKey("experiments.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    """The match's place in its experiment's task list (fixes its seed and seating)."""
    deal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seating: Mapped[list[int]] = mapped_column(JSON)
    """``seating[seat]`` = index of the player (in the experiment's list) in that seat."""
    seed: Mapped[int] = mapped_column(BigInteger)
    first: Mapped[int] = mapped_column(Integer)
    totals: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    """The parlour-record/1 JSON text of the match."""
    experiment: Mapped[Experiment] = relationship(back_populates="matches")
    round_rows: Mapped[list[RoundRow]] = relationship(cascade="all, delete-orphan")
    event_rows: Mapped[list[EventRow]] = relationship(cascade="all, delete-orphan")


class RoundRow(Base):
    """One round of a stored match."""

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    starter: Mapped[int] = mapped_column(Integer)
    scores: Mapped[list[int]] = mapped_column(JSON)
    moves: Mapped[int] = mapped_column(Integer)


class EventRow(Base):
    """One event of a stored match, in the game's own words."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    move_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(60), index=True)
    points: Mapped[int] = mapped_column(Integer)


class Rating(Base):
    """A player's (bot level's) rating in a game, from the ladder."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("game", "player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(200))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated: Mapped[_dt.datetime] = mapped_column(DateTime, default=_now)


@dataclass
class MatchData:
    """A played match, as a worker hands it to the store."""

    index: int
    deal: int | None
    seating: list[int]
    seed: int
    first: int
    totals: list[int]
    winners: list[int]
    moves: int
    record: str
    rounds: list[tuple[int, int, list[int], int]] = field(default_factory=list)
    """(number, starter, scores, moves) per round."""
    events: list[tuple[int, int, int | None, str, int]] = field(default_factory=list)
    """(round, move, seat, kind, points) per event."""


def _table(model: type[Base]) -> Table:
    """The table behind a mapped class (for bulk inserts without an object a row)."""
    return cast(Table, model.__table__)


def _bulk_insert(connection: Connection, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (plain tuples in the order of ``columns``; JSON columns already
    encoded) with one executemany through the driver (SQLAlchemy's ``exec_driver_sql``).
    A match has tens of rounds and events: building and processing a parameter dict a row
    cost the lab's writer more than the database's own work."""
    compiled = insert(table).values({name: bindparam(name) for name in columns}).compile(dialect=connection.dialect)
    if compiled.positional:
        order = [columns.index(name) for name in compiled.positiontup or ()]
        if order != list(range(len(columns))):
            rows = [tuple(row[i] for i in order) for row in rows]
        connection.exec_driver_sql(str(compiled), rows)
    else:
        connection.exec_driver_sql(str(compiled), [dict(zip(columns, row)) for row in rows])


def database_url(db: str | Path) -> str:
    """A SQLAlchemy URL for ``db``: a URL as it is, a file path as SQLite."""
    text = str(db)
    return text if "://" in text else f"sqlite:///{Path(text).resolve()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def open_engine(db: str | Path) -> Engine:
    """An engine for ``db`` (a URL or a file path): SQLite gets WAL, foreign keys and a busy
    timeout, so that a process killed mid-write loses nothing committed."""
    engine = create_engine(database_url(db), pool_pre_ping=True)
    if engine.url.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def migrate(engine: Engine) -> None:
    """Bring the database's lab tables up to the newest revision (a database of a release before
    migrations, made with ``create_all``, is stamped at its revision first); a new database is made
    by the migrations themselves, so that it is exactly what an upgraded one is."""
    upgrade(engine, "parlour.store", VERSION_TABLE, FIRST_RELEASE, marker="experiments")


class Store:
    """A lab database: open it with a path or URL; its schema is made or upgraded as needed."""

    def __init__(self, db: str | Path) -> None:
        self.url = database_url(db)
        self.engine: Engine = open_engine(self.url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on error."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the database."""
        self.engine.dispose()

    # -- experiments ---------------------------------------------------------
    def experiment(self, name: str) -> Experiment | None:
        """The experiment called ``name``, if stored."""
        with self.session() as session:
            return session.scalar(select(Experiment).where(Experiment.name == name))

    def experiments(self, names: Sequence[str] | None = None) -> list[Experiment]:
        """Stored experiments (all, or those named), in creation order."""
        with self.session() as session:
            query = select(Experiment).order_by(Experiment.id)
            if names:
                query = query.where(Experiment.name.in_(names))
            found = list(session.scalars(query))
        if names:
            missing = sorted(set(names) - {e.name for e in found})
            if missing:
                raise ValueError(f"no experiment named {', '.join(map(repr, missing))} in {self.url}")
        return found

    def add_experiment(self, **fields: Any) -> Experiment:
        """Store a new experiment."""
        with self.session() as session:
            row = Experiment(**fields)
            session.add(row)
            session.flush()
            return row

    def set_study(self, experiment_id: int, study: str | None, baseline: str | None,
                  shape: dict[str, Any] | None = None) -> None:
        """File an experiment under a study with its baseline and the study's shape (none changes its
        results: a plan run again with another baseline, or one whose experiments were stored before
        studies or their shapes)."""
        with self.session() as session:
            row = session.get(Experiment, experiment_id)
            if row is not None:
                row.study, row.baseline, row.shape = study, baseline, shape

    def done(self, experiment_id: int) -> set[int]:
        """Indices of the experiment's matches already stored."""
        with self.session() as session:
            return set(session.scalars(select(Match.index).where(Match.experiment_id == experiment_id)))

    def add_matches(self, experiment_id: int, played: Iterable[MatchData]) -> None:
        """Store matches with their rounds and events, all in one transaction.

        Three bulk inserts (matches, then their rounds and events) rather than an object a
        row: the lab writes hundreds of matches a second from one process."""
        batch = list(played)
        if not batch:
            return
        with self.session() as session:
            matches = _table(Match)
            ids = session.execute(
                insert(matches).returning(matches.c.id, sort_by_parameter_order=True),
                [{"experiment_id": experiment_id, "index": d.index, "deal": d.deal, "seating": d.seating,
                  "seed": d.seed, "first": d.first, "totals": d.totals, "winners": d.winners,
                  "rounds": len(d.rounds), "moves": d.moves, "record": d.record} for d in batch],
            ).scalars().all()
            connection = session.connection()
            rounds = [(match_id, n, s, json.dumps(sc), m)
                      for match_id, d in zip(ids, batch) for n, s, sc, m in d.rounds]
            events = [(match_id, *e) for match_id, d in zip(ids, batch) for e in d.events]
            if rounds:
                _bulk_insert(connection, _table(RoundRow), ("match_id", "number", "starter", "scores", "moves"), rounds)
            if events:
                _bulk_insert(connection, _table(EventRow),
                             ("match_id", "round_number", "move_number", "seat", "kind", "points"), events)

    def matches(self, experiment_id: int) -> list[Match]:
        """The experiment's matches in index order (rounds and events not loaded)."""
        with self.session() as session:
            return list(session.scalars(select(Match).where(Match.experiment_id == experiment_id)
                                        .order_by(Match.index)))

    def rounds(self, experiment_id: int) -> list[tuple[int, RoundRow]]:
        """(match index, round) for every round of the experiment, in order."""
        with self.session() as session:
            rows = session.execute(
                select(Match.index, RoundRow).join(RoundRow, RoundRow.match_id == Match.id)
                .where(Match.experiment_id == experiment_id).order_by(Match.index, RoundRow.number))
            return [(index, row) for index, row in rows]

    def events(self, experiment_id: int) -> list[tuple[int, EventRow]]:
        """(match index, event) for every event of the experiment, in order."""
        with self.session() as session:
            rows = session.execute(
                select(Match.index, EventRow).join(EventRow, EventRow.match_id == Match.id)
                .where(Match.experiment_id == experiment_id).order_by(Match.index, EventRow.id))
            return [(index, row) for index, row in rows]

    def dump(self) -> list[dict[str, Any]]:
        """Everything stored about experiments, in a canonical order without row ids
        or timestamps: two databases with the same results dump the same."""
        out = []
        for experiment in self.experiments():
            rounds: dict[int, list[Any]] = {}
            for index, row in self.rounds(experiment.id):
                rounds.setdefault(index, []).append([row.number, row.starter, row.scores, row.moves])
            events: dict[int, list[Any]] = {}
            for index, ev in self.events(experiment.id):
                events.setdefault(index, []).append([ev.round_number, ev.move_number, ev.seat, ev.kind, ev.points])
            out.append({
                "name": experiment.name, "game": experiment.game, "options": experiment.options,
                "players": experiment.players, "mode": experiment.mode, "count": experiment.count,
                "seed": experiment.seed, "rounds_only": experiment.rounds_only, "noise": experiment.noise,
                "study": experiment.study, "baseline": experiment.baseline, "shape": experiment.shape,
                "matches": [
                    {"index": m.index, "deal": m.deal, "seating": m.seating, "seed": m.seed, "first": m.first,
                     "totals": m.totals, "winners": m.winners, "rounds": m.rounds, "moves": m.moves,
                     "record": m.record, "round_rows": rounds.get(m.index, []), "events": events.get(m.index, [])}
                    for m in self.matches(experiment.id)
                ],
            })
        return out

    # -- ratings -------------------------------------------------------------
    def save_ratings(self, game: str, ratings: dict[str, tuple[float, float, int]]) -> None:
        """Replace the ratings of ``game`` with ``{player: (mu, sigma, matches)}``."""
        with self.session() as session:
            for row in session.scalars(select(Rating).where(Rating.game == game)):
                session.delete(row)
            session.flush()
            for player, (mu, sigma, count) in ratings.items():
                session.add(Rating(game=game, player=player, mu=mu, sigma=sigma, matches=count))

    def ratings(self, game: str) -> list[Rating]:
        """The stored ratings of ``game``, best first (by mu − 3σ)."""
        with self.session() as session:
            rows = list(session.scalars(select(Rating).where(Rating.game == game)))
        return sorted(rows, key=lambda r: -(r.mu - 3 * r.sigma))
