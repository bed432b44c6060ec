"""Table chat: who may speak at a table, what a message may be, how often, and what is kept.

Anyone connected to a table may speak, a spectator too: a spectator's messages are marked as such (the
players may choose not to see them) and go by the name the spectator chose (``Spectator`` without one);
a player's go by their seat's name.  Nobody speaks at an abandoned table.  A message is plain text:
trimmed, at most ``Limits.chat_length`` characters, with no control characters and no direction
overrides; it is never markup (the browser shows it as text).  Each connection, each identity and each
address has a token bucket of chat messages.  What is said is stored with the table before
anyone is told (the newest ``Limits.chat_kept`` of a table are kept), and the newest
``Limits.chat_shown`` are kept in memory for the ``welcome`` of each newcomer.

Presence ("Bea joined") is not chat: it is told as it happens (:func:`parlour.web.broadcast.arrival`)
and never stored.
"""

from __future__ import annotations

import unicodedata
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from parlour.names import MAX_MARKS
from parlour.web.limits import KeyedBuckets, Limits, TokenBucket, retry_text
from parlour.web.protocol import Chat, ChatLine, ProtocolError, encode
from parlour.web.store import ChatRow, TableStore, now
from parlour.web.tables import Connection, Table

SPECTATOR = "Spectator"
"""The name of a spectator who chose none."""
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that turn the direction of the text after them (a message could pass for another's)."""


@dataclass(frozen=True)
class Speaker:
    """Who says a chat message: the seat (None: a spectator) and the name shown."""

    seat: int | None
    name: str

    @property
    def spectator(self) -> bool:
        return self.seat is None


def check_text(text: str, most: int) -> str:
    """What someone typed as a chat message: trimmed, or refused (``not_allowed``) in plain words."""
    said = text.strip()
    if not said:
        raise ProtocolError("not_allowed", "your message is empty: type something to say")
    if len(said) > most:
        raise ProtocolError("not_allowed", f"a message is at most {most} characters (yours has {len(said)})")
    marks = 0
    for ch in said:
        category = unicodedata.category(ch)
        if category == "Cc" or category in ("Zl", "Zp"):
            raise ProtocolError("not_allowed", f"a message may not hold control characters (U+{ord(ch):04X}): "
                                "send it as one line of text")
        if ch in DIRECTION_CONTROLS:
            raise ProtocolError("not_allowed", "a message may not hold direction overrides "
                                f"(U+{ord(ch):04X})")
        marks = marks + 1 if category[0] == "M" else 0
        if marks > MAX_MARKS:
            raise ProtocolError("not_allowed", f"a message may not stack more than {MAX_MARKS} accents "
                                "on one letter")
    return said


class TableChat:
    """The chat of every table: the rule of who may speak and how often, the store (``store`` through
    ``run_db``) and the newest lines of each table in memory.  ``name_of``: the name a player chose."""

    def __init__(self, store: TableStore, run_db: Callable[..., Awaitable[Any]],
                 name_of: Callable[[str | None], Awaitable[str | None]], limits: Limits) -> None:
        self.store = store
        self._run_db = run_db
        self.name_of = name_of
        self.limits = limits
        self.identities = KeyedBuckets(limits.chat_per_minute / 60, limits.chat_burst)
        """Each identity's chat budget (at every table and connection together)."""
        self.addresses = KeyedBuckets(limits.address_chat_per_minute / 60, limits.address_chat_burst)
        """Each address's chat budget (of all its identities)."""
        self.sockets: weakref.WeakKeyDictionary[Connection, TokenBucket] = weakref.WeakKeyDictionary()
        """Each connection's chat budget."""

    async def recent(self, table: Table) -> deque[ChatLine]:
        """The newest lines said at ``table``, oldest first (read from the database once)."""
        if table.chat is None:
            rows = await self._run_db(self.store.chat, table.id, self.limits.chat_shown)
            if table.chat is None:  # nobody else read them meanwhile
                table.chat = deque((line_of(row) for row in rows), maxlen=self.limits.chat_shown)
        return table.chat

    async def speaker(self, table: Table, conn: Connection) -> Speaker:
        """Who speaks from ``conn``: its seat's name, or a spectator by the name they chose."""
        if conn.seat is not None:
            return Speaker(conn.seat, table.seats[conn.seat].name)
        return Speaker(None, await self.name_of(conn.player) or SPECTATOR)

    async def check_rate(self, conn: Connection) -> None:
        """Spend one of the connection's, its identity's and its address's chat messages, or refuse
        (``rate_limited``)."""
        own = self.sockets.get(conn)
        if own is None:
            own = self.sockets[conn] = TokenBucket(self.limits.socket_chat_per_minute / 60,
                                                   self.limits.socket_chat_burst)
        identity = conn.player or "address " + conn.address
        wait = max(own.wait(), await self.identities.waiting(identity), await self.addresses.waiting(conn.address))
        if wait > 0:
            raise ProtocolError("rate_limited", "you are sending chat messages too fast: say the next "
                                f"{retry_text(wait)}")
        own.allow()
        await self.identities.spend(identity)
        await self.addresses.spend(conn.address)

    async def say(self, conn: Connection, table: Table, text: str) -> None:
        """``conn`` says ``text`` at ``table``: checked, stored, then told to every connection there."""
        table.check_open()
        said = check_text(text, self.limits.chat_length)
        await self.check_rate(conn)
        who = await self.speaker(table, conn)
        lines = await self.recent(table)
        row = ChatRow(table_id=table.id, seat=who.seat, name=who.name, spectator=who.spectator, text=said,
                      said=now())
        await self._run_db(self.store.add_chat, row, self.limits.chat_kept)
        line = line_of(row)
        lines.append(line)
        message = encode(Chat(**line))
        for other in list(table.connections):
            other.send_text(message)


def line_of(row: ChatRow) -> ChatLine:
    """A stored chat message as it is sent."""
    return {"seat": row.seat, "name": row.name, "spectator": row.spectator, "text": row.text,
            "at": row.said.isoformat(timespec="seconds") + "Z"}
