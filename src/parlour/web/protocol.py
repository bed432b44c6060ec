"""The WebSocket protocol: every message both ways as a pydantic model, read by one function and
written by one other (docs/web-protocol.md describes them).

Client → server: :class:`Hello`, :class:`Ping`, :class:`MakeMove`, :class:`NextRound`,
:class:`Undo`, :class:`AskHint`, :class:`Resolve`, :class:`PlayAgain` and :class:`Say`, told apart by their
``type``.  :func:`parse` turns a client's text into one of them, or raises :class:`ProtocolError` with
the code and wording the client is told.  What is wrong with a message is answered in a fixed
order, the first that applies: not a JSON object with a text ``type`` (or not valid Unicode);
anything but ``hello`` or ``ping`` before ``hello`` (``hello_required``); an acting message
without its ``version``; an acting message from a spectator (``unauthorized``); an unknown
``type``; a field of the wrong type or too long.  Chat (``chat``) is not acting: it needs no
``version``, and spectators may send it.

Server → client: :class:`Welcome`, :class:`TableState`, :class:`Seats`, :class:`Hints`,
:class:`Resolved`, :class:`Error`, :class:`Pong`, :class:`PlayAgainVotes`, :class:`NewTable`, :class:`Chat` and
:class:`Presence`.
:func:`encode` is the one place a message becomes text: compact JSON, ASCII only (non-ASCII
characters as ``\\u`` escapes).  The server's payloads (views, layouts, the table summary, the
round's moves in words) are typed for the reader and mypy but not validated again as they are
sent (``SkipValidation``): they are the server's own, and validation would copy them, or could
turn a number into another that reads differently.  A ``state`` message goes to every connection
of its viewer: :class:`Shown` keeps its text, and :class:`Narration` the round's moves in words
each encoded once, as said.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, NotRequired

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SkipValidation,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    field_validator,
)
from typing_extensions import TypedDict

from parlour.narrate import sentence

MAX_TEXT = 60
"""The longest move (or shorthand) a client may send, in characters."""

ErrorCode = Literal[
    "malformed", "too_large", "unauthorized", "hello_required", "rate_limited", "too_many", "stale",
    "not_your_turn", "syntax", "illegal", "ambiguous", "not_allowed", "not_found", "internal",
]
"""Every code of an ``error`` message (their meanings: docs/web-protocol.md)."""


class ProtocolError(ValueError):
    """A WebSocket message that gets a typed ``error`` back."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


# -- client → server --------------------------------------------------------------------------
class ClientMessage(BaseModel):
    """A message from a client; fields it does not know are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    malformed: ClassVar[str] = "a message is a JSON object with a 'type'"
    """What a client is told when a field of the message is wrong."""


class Hello(ClientMessage):
    """Take your seat at the table (or watch); must come first."""

    type: Literal["hello"]
    token: StrictStr | None = None
    """A seat's secret link of the first release (``#token=…``), which gives its seat to whoever brings it first."""
    malformed: ClassVar[str] = "token must be a string or null"


class Ping(ClientMessage):
    """Keep-alive: answered with :class:`Pong`."""

    type: Literal["ping"]


class Acting(ClientMessage):
    """A message that acts at the table, made against the table's ``version`` (only a seated player's)."""

    version: StrictInt


class MakeMove(Acting):
    """Make a move, in notation (``play 7H``)."""

    type: Literal["move"]
    move: Annotated[StrictStr, Field(max_length=MAX_TEXT)]
    malformed: ClassVar[str] = "move must be a move in notation, like 'play <card>'"


class NextRound(Acting):
    """Deal the next round, once the round is over."""

    type: Literal["next_round"]


class Undo(Acting):
    """Take back to this seat's previous turn (against bots only)."""

    type: Literal["undo"]


class AskHint(Acting):
    """The hint bot's three best moves for this seat's turn (against bots only)."""

    type: Literal["hint"]


class Resolve(Acting):
    """What the player typed (``8s``), to be read as one legal move of theirs: answered with :class:`Resolved`."""

    type: Literal["resolve"]
    text: Annotated[StrictStr, Field(max_length=MAX_TEXT)]
    malformed: ClassVar[str] = f"text must be what was typed, at most {MAX_TEXT} characters, like '7h'"


# -- again --
class PlayAgain(Acting):
    """Once the match is over, a seated person's answer to "Play again?" (``accept``: yes or no)."""

    type: Literal["play_again"]
    accept: StrictBool
    malformed: ClassVar[str] = "accept must be true or false"


# -- chat --
class Say(ClientMessage):
    """Say something at the table's chat: plain text (anyone connected, a spectator too; it changes no
    state, so it has no ``version``).  How long it may be and how often: :mod:`parlour.web.chat`."""

    type: Literal["chat"]
    text: StrictStr
    malformed: ClassVar[str] = "text must be what you say, as text"


AnyIncoming = Hello | Ping | MakeMove | NextRound | Undo | AskHint | Resolve | PlayAgain | Say
"""Any client message."""

Incoming = Annotated[AnyIncoming, Field(discriminator="type")]
"""Any client message, told apart by its ``type``."""

_INCOMING: TypeAdapter[AnyIncoming] = TypeAdapter(Incoming)
_KINDS: dict[str, type[ClientMessage]] = {"hello": Hello, "ping": Ping, "move": MakeMove, "next_round": NextRound,
                                          "undo": Undo, "hint": AskHint, "resolve": Resolve,
                                          "play_again": PlayAgain, "chat": Say}
_OPEN = ("hello", "ping")
"""The messages anyone may send, before ``hello`` too."""
_ANYONE = ("chat",)
"""The messages anyone may send once greeted, a spectator too, without a ``version``."""


def parse(text: str | Mapping[str, Any], *, greeted: bool = True, seated: bool = True) -> AnyIncoming:
    """One client message (its JSON text, or the object it decodes to), typed; or :class:`ProtocolError`.

    ``greeted``: the connection has said ``hello``; ``seated``: it holds a seat (a spectator does not)."""
    data: Any = text
    if isinstance(text, str):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", "a message is a JSON object with a 'type'")
    if not valid_unicode(data):
        raise ProtocolError("malformed", "a message holds text that is not valid Unicode (a lone surrogate)")
    kind = data["type"]
    if kind not in _OPEN and not greeted:
        raise ProtocolError("hello_required", "say hello first: {\"type\": \"hello\"}")
    if kind not in _OPEN and kind not in _ANYONE:
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("malformed", f"a {kind} message needs the version it was made against")
        if not seated:
            raise ProtocolError("unauthorized", "spectators cannot act at the table")
    model = _KINDS.get(kind)
    if model is None:
        raise ProtocolError("malformed", f"unknown message type {kind!r}")
    try:
        return _INCOMING.validate_python(data)
    except ValidationError:
        raise ProtocolError("malformed", model.malformed) from None


def valid_unicode(value: Any) -> bool:
    """Whether every string in a decoded JSON value is valid Unicode (JSON's ``\\ud800`` escapes can
    make lone surrogates, which no database, log or answer can hold)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# -- server → client --------------------------------------------------------------------------
class PublicSeat(TypedDict):
    """A seat as anyone may see it (in the table summary and every ``state`` and ``seats`` message)."""

    seat: int
    kind: str
    level: str | None
    name: str
    taken: bool
    connected: bool
    rating: NotRequired[float | None]
    """The rating shown beside the name (:mod:`parlour.web.ratings`): a bot level's anchor, a person's
    once they have played a rated match of the game, else null."""
    player: NotRequired[str | None]
    """The handle of the person's page (``/player/HANDLE``), once they have played a rated match."""


class MoveSaid(TypedDict):
    """One move of the round in words, for one reader (:func:`parlour.narrate.move_log`)."""

    seat: int | None
    move: str
    text: str


class LastMove(TypedDict):
    """The last move made, and who made it."""

    seat: int | None
    move: str


class Summary(TypedDict):
    """The scores once a round is over: each round's, the totals, and the winners."""

    rounds: list[list[Any]]
    totals: Any
    winners: Any


class HintMove(TypedDict):
    """One of the hint bot's best moves: its worth, how sure that is, its share of the search, in words."""

    move: str
    value: float
    """How the round should end for the seat after this move: its score minus the others' (mean)."""
    margin: float | None
    """Half the 95% interval around ``value`` (None: too few tries to say)."""
    share: float
    text: str
    """The move and its estimate in words: "You play 9♣ on your ♣ meld: about 2.7 points better for you
    than your opponent, give or take 1.3"."""
    outlook: str
    """The estimate alone in words, as the browser shows it beside the move: "about 2.7 points better for
    you than your opponent, give or take 1.3", or "your only move"."""


class ChatLine(TypedDict):
    """One thing said at the table, as every ``chat`` message and a ``welcome``'s ``chat`` hold it."""

    seat: int | None
    """The speaker's seat; None: a spectator."""
    name: str
    spectator: bool
    text: str
    """Plain text, never markup."""
    at: str
    """When it was said (ISO 8601, UTC)."""


class ServerMessage(BaseModel):
    """A message to a client; :func:`encode` makes its text (its fields in order, ``type`` first)."""


class Welcome(ServerMessage):
    """To one connection after its ``hello``: its seat (None: it watches) and the table's summary."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    role: Literal["player", "spectator"]
    table: SkipValidation[dict[str, Any]]
    """As ``GET /api/tables/{id}`` answers."""
    spectators: int = 0
    """How many people watch the table (chat)."""
    chat: SkipValidation[list[ChatLine]] = Field(default_factory=list)
    """The newest things said at the table, oldest first (chat)."""


class TableState(ServerMessage):
    """The table as one viewer (a seat, or spectators) may see it, at one version."""

    type: Literal["state"] = "state"
    version: int
    view: SkipValidation[dict[str, Any]]
    """The seat's observation, or the public view."""
    legal: SkipValidation[list[str]]
    seats: SkipValidation[list[PublicSeat]]
    status: str
    deadline: SkipValidation[float | None]
    """When the turn timer runs out (epoch seconds)."""
    can_undo: bool
    undo_note: str | None = None
    """Why there is no undo although this seat moved this round against the computer (a draw showed a card)."""
    can_hint: bool
    last: SkipValidation[LastMove | None]
    log: SkipValidation[list[dict[str, Any]]]
    """The round's events for this reader (:func:`parlour.narrate.event_log`)."""
    values: SkipValidation[Any]
    """Display values (:func:`parlour.web.views.display_values`)."""
    summary: SkipValidation[Summary | None]
    moves: SkipValidation[list[Mapping[str, Any]]]
    """The round's moves in words for this reader (:class:`MoveSaid`)."""
    layout: SkipValidation[dict[str, Any]]
    """The table as the browser draws it (:mod:`parlour.web.layouts`)."""


class Seats(ServerMessage):
    """Who is connected changed (instead of a whole ``state``)."""

    type: Literal["seats"] = "seats"
    seats: SkipValidation[list[PublicSeat]]


class Hints(ServerMessage):
    """The hint bot's best moves for the position of ``version``."""

    type: Literal["hint"] = "hint"
    version: int
    moves: SkipValidation[list[HintMove]]


class Resolved(ServerMessage):
    """What the player typed, read as one legal move, in full notation."""

    type: Literal["resolved"] = "resolved"
    text: str
    move: str
    confirm: str | None = None
    """A question to ask the player before the move is made (a face card typed alone that would be thrown away)."""


class Error(ServerMessage):
    """A message not acted on (or a fault of the server's), with the table's current version."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    """In words for the reader, as a sentence (capitalised here, whoever wrote it)."""
    version: int | None = None

    @field_validator("message")
    @classmethod
    def _a_sentence(cls, message: str) -> str:
        return sentence(message)


class Pong(ServerMessage):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


# -- again --
class PlayAgainVotes(ServerMessage):
    """At a finished table, the people's answers to "Play again?" so far (seats), and the new table once
    it has started."""

    type: Literal["play_again"] = "play_again"
    accepted: list[int]
    declined: list[int]
    left: list[int]
    """People whose every connection has gone: no new table starts while they are away."""
    waiting: list[int]
    """People who have not answered yet."""
    table: str | None = None


class NewTable(ServerMessage):
    """Everyone accepted: the new table with the same players has started (the page goes there)."""

    type: Literal["new_table"] = "new_table"
    table_id: str
    url: str
# -- chat --
class Chat(ServerMessage):
    """Something said at the table, to every connection there (fields as :class:`ChatLine`)."""

    type: Literal["chat"] = "chat"
    seat: int | None
    name: str
    spectator: bool
    text: str
    at: str


class Presence(ServerMessage):
    """A person came to the table or left it (``text``: "Bea joined"), or the number of people watching
    changed (``seat`` and ``text`` None)."""

    type: Literal["presence"] = "presence"
    seat: int | None = None
    joined: bool = True
    text: str | None = None
    spectators: int


_encode_json = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""Any JSON value as compact ASCII text: the same text as ``json.dumps(value, separators=(",", ":"))``,
made without checking for cycles (a message is a tree)."""


def encode_json(value: Any) -> str:
    """A JSON value (a part of a message: a move said in words) as the text :func:`encode` puts in a message."""
    return _encode_json(value)


def encode(message: ServerMessage, encoded: Mapping[str, str] | None = None) -> str:
    """The text sent for ``message``: compact JSON, its fields in order.  The values of the fields named
    in ``encoded`` are taken as the JSON texts given there (the same text, made without encoding those
    values again)."""
    fields = message.__dict__
    if not encoded:
        return _encode_json(fields)
    parts: list[str] = []
    run: dict[str, Any] = {}  # fields in a row to encode together
    for key, value in fields.items():
        if key in encoded:
            if run:
                parts.append(_encode_json(run)[1:-1])
                run = {}
            parts.append(f"{_encode_json(key)}:{encoded[key]}")
        else:
            run[key] = value
    if run:
        parts.append(_encode_json(run)[1:-1])
    return "{" + ",".join(parts) + "}"


def as_object(message: ServerMessage) -> dict[str, Any]:
    """``message`` as the JSON object it is sent as (before it becomes text)."""
    return dict(message.__dict__)


class Narration:
    """The round's moves in words for one viewer (see :func:`parlour.narrate.move_log`), each
    with its JSON text, made once as the move is said: a round's account grows by one move at a
    time, and is never encoded whole again."""

    def __init__(self, entries: Sequence[Mapping[str, Any]] = ()) -> None:
        self.entries: list[Mapping[str, Any]] = []
        self.texts: list[str] = []
        for entry in entries:
            self.append(entry)

    def append(self, entry: Mapping[str, Any]) -> None:
        self.entries.append(entry)
        self.texts.append(_encode_json(entry))

    def json(self) -> str:
        """``encode_json(self.entries)``."""
        return "[" + ",".join(self.texts) + "]"


class Shown:
    """The ``state`` message of one version for one viewer (a seat, or None: spectators), and its
    text, made on first use and then sent as it is to every connection of that viewer.
    ``encoded``: fields of the message already in JSON (the round's moves in words)."""

    def __init__(self, message: TableState, encoded: dict[str, str] | None = None) -> None:
        self.message = message
        self.encoded = encoded or {}
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = encode(self.message, self.encoded)
        return self._text

    def reseat(self, seats: list[PublicSeat]) -> None:
        """Who is connected changed: the message says so (its text is made again when next sent)."""
        self.message.seats = seats
        self._text = None
