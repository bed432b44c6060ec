"""What each connection of a table is sent when the table changes: its own viewer's ``state``.

The ``state`` message is built and turned into JSON once per version and viewer (each seat, and
spectators), and that one text goes to every connection of the viewer: a connection is sent the
text kept under its own seat, never another's.  Each seat's view is its observation, spectators'
the public view (:func:`parlour.web.views.public_view`).  Who is connected is told in a small
``seats`` message, the views being the same; a person who comes or goes ("Bea joined") and the
number of people watching, in a ``presence`` message.
"""

from __future__ import annotations

from parlour import narrate
from parlour.game import NO_UNDO_PAST_A_DRAW, UndoReach
from parlour.web import layouts, views
from parlour.web.protocol import LastMove, Narration, Presence, Seats, Shown, Summary, TableState, encode
from parlour.web.tables import Connection, Table


def state_message(table: Table, viewer: int | None) -> TableState:
    """The ``state`` message for ``viewer`` (a seat, or None: a spectator), made once per version."""
    return shown(table, viewer).message


def shown(table: Table, viewer: int | None) -> Shown:
    """The ``state`` message for ``viewer`` (a seat, or None: spectators) with its JSON text,
    made once per version: it is kept under the viewer, so that each seat's connections get
    that seat's view and spectators the public view."""
    kept = table.messages.get(viewer)
    if kept is None:
        kept = table.messages[viewer] = Shown(_make(table, viewer), {"moves": narration(table, viewer).json()})
    return kept


def _make(table: Table, seat: int | None) -> TableState:
    state = table.state
    view = state.observation(seat) if seat is not None else views.public_view(state)
    to_move = state.current_player()
    status = table.status
    last: LastMove | None = None
    if state.moves:
        who = table.changes[-1][0] if table.changes else None
        last = {"seat": who, "move": str(state.moves[-1])}
    summary: Summary | None = None
    if status != "playing":
        summary = {"rounds": [list(r.scores) for r in state.history] + [list(state.scores)],
                   "totals": state.totals, "winners": state.winners()}
    undo = table.undo_reach(seat)
    offered = layouts.offers(state) if seat is not None and seat == to_move else []
    return TableState(
        version=table.version, view=view,
        legal=[o["move"] for o in offered],
        seats=table.public_seats(),
        status=status, deadline=table.deadline,
        can_undo=bool(undo.moves), undo_note=undo_note(table, seat, undo),
        can_hint=table.may_hint(seat),
        last=last, log=narrate.event_log(state, seat), values=views.display_values(view),
        summary=summary,
        moves=list(narration(table, seat).entries),
        layout=layouts.table_layout(view, offered),
    )


def undo_note(table: Table, seat: int | None, undo: UndoReach) -> str | None:
    """Why undo is gone, for a player against the computer who has moved this round but can no longer
    take it back (a card drawn from the stock was seen): said, so that the button does not just vanish."""
    if undo.moves or not table.against_bots(seat) or table.status != "playing":
        return None
    moved = any(who == seat for who, _ in table.changes[len(table.changes) - len(table.state.moves):])
    return undo.why_not if moved and undo.why_not == NO_UNDO_PAST_A_DRAW else None


def narration(table: Table, viewer: int | None) -> Narration:
    """The round's moves in words for ``viewer``: worked out once, then kept up to date by each move."""
    said = table.narration.get(viewer)
    if said is None:
        said = table.narration[viewer] = Narration(narrate.move_log(table.state, viewer))
    return said


def changed(table: Table) -> None:
    """The table changed: send every connection its viewer's new ``state`` (each made once)."""
    table.messages.clear()
    for conn in list(table.connections):
        conn.send_text(shown(table, conn.seat).text)


def presence(table: Table, skip: Connection | None) -> None:
    """Tell the table who is connected (a small message: the views do not change)."""
    seats = table.public_seats()
    for kept in table.messages.values():
        kept.reseat(seats)
    text = encode(Seats(seats=seats))
    for conn in list(table.connections):
        if conn is not skip:
            conn.send_text(text)


def spectators(table: Table) -> int:
    """How many people watch ``table``: the identities connected there without a seat, at this server
    process or another (a connection without an identity counts alone)."""
    here = {c.player if c.player is not None else f"anonymous {id(c)}" for c in table.connections if c.seat is None}
    return len(here | table.elsewhere.watchers)


def arrival(table: Table, skip: Connection | None, seat: int | None, joined: bool, watching: int) -> None:
    """Tell the table (but ``skip``) that the person at ``seat`` came or went ("Bea joined"), with how many
    watch now; with ``seat`` None, only that number, if it is no longer ``watching``."""
    now_watching = spectators(table)
    if seat is None and now_watching == watching:
        return
    text = None
    if seat is not None:
        name = table.seats[seat].name
        text = f"{name} joined" if joined else f"{name} left"
    message = encode(Presence(seat=seat, joined=joined, text=text, spectators=now_watching))
    for conn in list(table.connections):
        if conn is not skip:
            conn.send_text(message)
