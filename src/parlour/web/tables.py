"""The table authority: a table's state, seats and connections, and the rules of who may act there.

Each table holds its :class:`~parlour.game.State`, a version that goes up with every change, its
seats and its open connections.  A seat belongs to a player: the identity in the browser's signed
cookie.  Only a seated player whose turn it is may move (or have what they typed read as a move),
a seat may take back its own last turn and ask for hints only against bots, and any seated person
may deal the next round once a round is over; spectators only watch.  A change is checked here,
committed to the database by the manager (:mod:`parlour.web.manager`), and only then made here
(:meth:`Table.begin_change`, :meth:`Table.finish_change`).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour import names as naming
from parlour import narrate
from parlour.game import Game, IllegalMoveError, Move, MoveSyntaxError, State, UndoReach, undo_reach
from parlour.match import resolve_shorthand
from parlour.web.again import AgainVote
from parlour.web.limits import Limits, Strikes, TokenBucket
from parlour.web.protocol import (
    ChatLine,
    HintMove,
    MoveSaid,
    Narration,
    ProtocolError,
    PublicSeat,
    ServerMessage,
    Shown,
    encode,
)
from parlour.web.ratings import RatingBook
from parlour.web.store import LIVE, NEXT_ROUND

PERSON_KINDS = ("me", "friend", "open")
SEAT_KINDS = (*PERSON_KINDS, "bot")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What an invitation or a seat's secret link looks like (``secrets.token_urlsafe``)."""


class TableError(ValueError):
    """A request about a table that cannot be granted, with an HTTP-like status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type[TableError], tuple[str, int]]:  # raised in a worker process, too
        return TableError, (str(self), self.status)


@dataclass
class Seat:
    """A seat as the server knows it."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_digest: str | None
    """The digest of the seat's invitation (kept after it is accepted, to say so)."""
    owner: str | None = None
    """The player whose seat it is."""
    invite: str | None = None
    """The invitation in clear, until someone accepts it (only the host is shown it)."""

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def taken(self) -> bool:
        """A bot's, a player's, or (a table of the first release) held by a secret link nobody brought yet."""
        return self.is_bot or self.owner is not None or (self.token_digest is not None and self.invite is None)

    def public(self, connected: bool) -> PublicSeat:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "taken": self.taken, "connected": connected}


class Connection:
    """One WebSocket: the player behind it (from the cookie) and its address, its seat (None for a
    spectator), its message and byte budgets, and an outgoing queue of JSON texts, so that a slow reader
    never holds up a table."""

    def __init__(self, player: str | None = None, bucket: TokenBucket | None = None, address: str = "unknown",
                 limits: Limits | None = None) -> None:
        limits = limits or Limits()
        self.player = player
        self.address = address
        self.seat: int | None = None
        self.table: Table | None = None
        self.bucket = bucket or TokenBucket(limits.messages_per_second, limits.message_burst)
        self.bytes = TokenBucket(limits.bytes_per_second, limits.byte_burst)
        """What it may send, in bytes."""
        self.strikes = Strikes()
        """Messages refused by the rate limit, decaying (see :class:`~parlour.web.limits.Strikes`)."""
        self.watching = False
        """Whether it holds one of its address's spectator places."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=256)

    def send(self, message: ServerMessage) -> None:
        """Send a message made for this connection alone (an error, a hint, ``welcome``)."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Send a message already in JSON (a ``state`` shared by the viewer's connections)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            # A client that reads nothing for 256 messages gets only the newest state.
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(text)


@dataclass
class Change:
    """A change made to a table's state but not yet final: it waits for its commit to the database."""

    seat: int | None
    change: str
    """The move in notation, or ``next round``."""
    status: str
    """The table's status once the change is made."""
    said: dict[int | None, MoveSaid]
    """The move in words for each viewer whose account of the round is kept."""


@dataclass(frozen=True)
class Elsewhere:
    """Who is connected to a table at the other server processes (:mod:`parlour.web.cluster`)."""

    seats: frozenset[int] = frozenset()
    watchers: frozenset[str] = frozenset()
    """Identities watching (a connection without one: a key of its own)."""
    host: bool = False
    """Whether the host of a table of bots only watches there."""


@dataclass
class Table:
    """A table in memory: the state, its version, seats, changes and connections."""

    id: str
    game: Game
    options: dict[str, Any]
    seed: int
    turn_seconds: int | None
    seats: list[Seat]
    state: State
    version: int = 0
    changes: list[tuple[int | None, str]] = field(default_factory=list)
    """Every accepted change as (seat, move or ``next round``), in order."""
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    created: str = ""
    """When the table was started (ISO 8601, UTC)."""
    deadline: float | None = None
    task: asyncio.Task[None] | None = None
    """The pending bot move, turn timer or automatic next round."""
    host: str | None = None
    """The player who created the table."""
    active: float = field(default_factory=time.time)
    """When a person last moved or was connected (epoch seconds)."""
    abandoned: bool = False
    messages: dict[int | None, Shown] = field(default_factory=dict)
    """The ``state`` message of the current version for each viewer: a seat, or None (spectators)."""
    narration: dict[int | None, Narration] = field(default_factory=dict)
    """The round's moves in words for each viewer (see :func:`parlour.narrate.move_log`)."""
    played: bool = False
    """Whether a person has moved here: only such tables count against the server's cap."""
    address: str | None = None
    """The digest of the address the table was started from (see :meth:`TableStore.address_digest`)."""
    hints: dict[tuple[int, int], asyncio.Future[list[HintMove]]] = field(default_factory=dict)
    """The hint for (version, seat), worked out once: asked for or in the making."""
    again: AgainVote = field(default_factory=AgainVote)
    """Once the match is over: the people's answers to "Play again?" (:mod:`parlour.web.again`)."""
    chat: deque[ChatLine] | None = None
    """The newest lines said here, oldest first (None: not read from the database yet; :mod:`parlour.web.chat`)."""
    rated: bool = False
    """Whether the match updates the people's ratings (:mod:`parlour.web.ratings`): no undo, no hints."""
    book: RatingBook | None = None
    """The server's ratings, shown beside the seats' names."""
    owned: bool = True
    """Whether this server process owns the table (:mod:`parlour.web.cluster`): its bots, timers and
    housekeeping are this process's; another process's table is a copy kept for the connections here."""
    owned_since: float = field(default_factory=time.monotonic)
    """When this process came to own it (:func:`time.monotonic`)."""
    changed_at: float = field(default_factory=time.time)
    """When the table last changed, as the database has it (a copy's turn deadline counts from it)."""
    elsewhere: Elsewhere = field(default_factory=lambda: Elsewhere())
    """Who is connected to it at the other server processes."""

    @property
    def status(self) -> str:
        if self.abandoned:
            return "abandoned"
        if self.state.is_match_over():
            return "finished"
        return "round_over" if self.state.is_round_over() else "playing"

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def people(self) -> list[int]:
        """The seats people hold (an untaken seat is nobody's: a bot never plays for it)."""
        return [s.seat for s in self.seats if not s.is_bot and s.owner is not None]

    @property
    def bots_only(self) -> bool:
        """Made with bots in every seat."""
        return all(s.is_bot for s in self.seats)

    def person_moved(self) -> bool:
        """Whether one of the table's changes is a person's move."""
        return any(seat is not None and not self.seats[seat].is_bot for seat, _change in self.changes)

    def attended(self) -> bool:
        """Whether someone is at the table (here or at another server process): a connection sitting at a
        seat, or the host watching the bots of a bots-only table.  Spectators alone do not keep a table alive."""
        return bool(self.elsewhere.seats) or self.elsewhere.host or any(
            c.seat is not None or self._host_watching(c) for c in self.connections)

    def _host_watching(self, conn: Connection) -> bool:
        return self.bots_only and conn.player is not None and conn.player == self.host

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a connection here or at another server process."""
        return seat in self.elsewhere.seats or any(c.seat == seat for c in self.connections)

    def here(self) -> tuple[list[int], list[str], bool]:
        """Who is connected at this process: seats, watchers' identities, whether the host of a table of
        bots only watches (what the other processes are told)."""
        seats = sorted({c.seat for c in self.connections if c.seat is not None})
        watchers = sorted({c.player if c.player is not None else f"anonymous {id(c)}"
                           for c in self.connections if c.seat is None})
        return seats, watchers, any(self._host_watching(c) for c in self.connections)

    def seat_of(self, player: str | None) -> int | None:
        """The seat ``player`` holds here, if any."""
        if player is None:
            return None
        return next((s.seat for s in self.seats if s.owner == player), None)

    def public_seats(self) -> list[PublicSeat]:
        seats = [s.public(self.connected(s.seat)) for s in self.seats]
        if self.book is not None:
            for seat, shown in zip(self.seats, seats):
                shown["rating"] = self.book.shown(self.game.id, seat.owner, seat.level if seat.is_bot else None)
                shown["player"] = self.book.handle(seat.owner)
        return seats

    def summary(self, player: str | None = None) -> dict[str, Any]:
        """What anyone may know about the table; ``you`` and (for the host) open invitations for ``player``."""
        host = player is not None and player == self.host
        invites = [{"seat": s.seat, "url": invite_url(self.id, s.invite)} for s in self.seats
                   if host and s.invite and s.owner is None and self.live]
        return {"table_id": self.id, "game": self.game.id, "name": self.game.name, "options": self.options,
                "seats": self.public_seats(), "status": self.status,
                "version": self.version, "turn_seconds": self.turn_seconds, "created": self.created,
                "you": {"seat": self.seat_of(player), "host": host}, "invites": invites, "rated": self.rated}

    # -- who may act ------------------------------------------------------------------------
    def check_live(self) -> None:
        """Refuse (409) anything that needs the match still going."""
        if self.abandoned:
            raise TableError("this table was abandoned: nobody played at it for a long time", 409)
        if not self.live:
            raise TableError("this match is over", 409)

    def check_open(self) -> None:
        """Refuse any act at a table that was abandoned."""
        if self.abandoned:
            raise ProtocolError("not_allowed", "this table was abandoned: nobody played at it for a long time")

    def check_version(self, version: int) -> None:
        """Refuse a message made against another version than the current one."""
        if version != self.version:
            raise ProtocolError("stale", f"the table is at version {self.version}, not {version}")

    def check_turn(self, seat: int) -> None:
        """Refuse a move from ``seat`` unless it is its turn."""
        to_move = self.state.current_player()
        if to_move is None:
            raise ProtocolError("not_your_turn", "The round is over")
        if to_move != seat:
            raise ProtocolError("not_your_turn", f"It is {self.seats[to_move].name}'s turn")

    def read_move(self, seat: int, text: str) -> Move:
        """``seat``'s move in notation, checked by the engine (its turn, the syntax, the rules)."""
        self.check_turn(seat)
        try:
            return self.state.parse_move(text)
        except MoveSyntaxError as exc:
            raise ProtocolError("syntax", str(exc)) from None
        except IllegalMoveError as exc:
            raise ProtocolError("illegal", narrate.illegal_text(exc, seat)) from None

    def resolve(self, seat: int, text: str) -> Move:
        """What ``seat`` typed (full notation, or a shorthand such as ``8s``) as its one legal move
        (:func:`parlour.match.resolve_shorthand`): ``ambiguous`` if it names several."""
        self.check_turn(seat)
        try:
            return resolve_shorthand(self.state, text)
        except MoveSyntaxError as exc:
            raise ProtocolError("syntax", str(exc)) from None
        except IllegalMoveError as exc:
            raise ProtocolError("illegal", narrate.illegal_text(exc, seat)) from None
        except ValueError as exc:  # several legal moves match: resolve_shorthand names them
            raise ProtocolError("ambiguous", str(exc)) from None

    def check_next_round(self) -> None:
        if self.status != "round_over":
            raise ProtocolError("not_allowed", "the next round is dealt only once this round is over")

    def against_bots(self, seat: int | None) -> bool:
        """Whether ``seat`` is a seat whose every opponent is a bot (undo and hints are for those only)."""
        return seat is not None and all(s.is_bot for s in self.seats if s.seat != seat)

    def may_hint(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask for a hint now: its own turn, against bots."""
        return not self.rated and self.against_bots(seat) and self.state.current_player() == seat

    def undo_reach(self, seat: int | None) -> UndoReach:
        """What an undo for ``seat`` would take back now, by the one rule of every interface
        (:func:`parlour.game.undo_reach`): back to the start of its last turn this round, never past a
        draw from the stock, only against bots."""
        if seat is None:
            return UndoReach(0, "Undo is only for a player against the computer")
        if self.rated:
            return UndoReach(0, "A rated match has no undo")
        return undo_reach(self.state, seat, against_bots=self.against_bots(seat))

    # -- changes ------------------------------------------------------------------------------
    def begin_change(self, seat: int | None, change: str) -> Change:
        """Make a checked move on the state (to learn the status it leads to), said in words for each
        viewer; a new round is dealt only by :meth:`finish_change`.  Either :meth:`finish_change`
        (once committed) or :meth:`abort_change` must follow."""
        if change == NEXT_ROUND:
            return Change(seat, change, "playing", {})
        move = Move.parse(change)
        said: dict[int | None, MoveSaid] = {
            viewer: {"seat": seat, "move": change, "text": self.state.describe_move(move, viewer, made=True)}
            for viewer in self.narration}
        self.state.apply(move)
        return Change(seat, change, self.status, said)

    def abort_change(self, change: Change) -> None:
        """The change could not be committed: the state is as it was."""
        if change.change != NEXT_ROUND:
            self.state.undo()

    def finish_change(self, change: Change) -> None:
        """The change is committed: the table takes it, at the next version."""
        if change.change == NEXT_ROUND:
            self.state.next_round()
            self.narration.clear()
        for viewer, entry in change.said.items():
            self.narration[viewer].append(entry)
        self.changes.append((change.seat, change.change))
        self.played = self.played or self.by_person(change.seat)
        self.version += 1

    def by_person(self, seat: int | None) -> bool:
        """Whether a change by ``seat`` is a person's (not a bot's, nor the table's own next round)."""
        return seat is not None and not self.seats[seat].is_bot

    def take_back(self, count: int) -> None:
        """Undo the last ``count`` changes (committed already), at the next version."""
        for _ in range(count):
            self.state.undo()
        self.narration.clear()
        del self.changes[len(self.changes) - count:]
        self.version += 1

    # -- names -----------------------------------------------------------------------------------
    def fit_name(self, seat: int, name: str) -> dict[int, str]:
        """The seats' new names when a person at ``seat`` takes ``name``: no two seats share a name (the
        later person's gets a number), and a bot whose name the person wants gives it up (the bot's gets
        a number), so that a bot never passes for a person."""
        others = [s for s in self.seats if s.seat != seat]
        people = [s.name for s in others if not s.is_bot]
        mine = naming.unique_name(name, people)
        out = {seat: mine}
        taken = [*people, mine]
        for bot in (s for s in others if s.is_bot):
            if naming.name_key(bot.name) in {naming.name_key(t) for t in taken}:
                out[bot.seat] = naming.unique_name(bot.name, [*taken, *(b.name for b in others if b.is_bot)])
            taken.append(out.get(bot.seat, bot.name))
        return out

    def rename_seats(self, names: dict[int, str]) -> None:
        """Give seats new names in memory (stored already); the caller tells the table."""
        for number, seat_name in names.items():
            self.seats[number].name = seat_name
        self.state.names = tuple(s.name for s in self.seats)


def invite_url(table_id: str, invite: str) -> str:
    """The link a host sends a friend: the invitation is in the fragment, which browsers never send."""
    return f"/table/{table_id}#invite={invite}"


def new_state(game: Game, options: dict[str, Any], seed: int, names: Sequence[str]) -> State:
    """A table's match as it starts: the same seed always gives the same deals."""
    return game.new_match(seed=seed, options=options, names=list(names))


def apply_change(state: State, change: str) -> None:
    """Make one stored change: a move, or dealing the next round."""
    if change == NEXT_ROUND:
        state.next_round()
    else:
        state.apply(Move.parse(change))


def check_name(value: Any, what: str = "a name") -> str | None:
    """A name as given in a request, checked (:func:`parlour.names.check_name`); None if none was given."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return naming.check_name(value, what=what)
    except naming.BadName as exc:
        raise TableError(str(exc)) from None
