"""What the web pages are shown: seat views, the public view, display values
and replay steps (each with its layout, :mod:`parlour.web.layouts`) — all made
from :meth:`~parlour.game.State.observation`, the one view of a state for a seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from parlour import games, record
from parlour.game import Deal, Move, State
from parlour.web import layouts
from parlour.web.store import NEXT_ROUND

View = dict[str, Any]

_SEAT_KEYS = ("seat",)
"""Keys that differ between seats only because they name the observer."""


def common(values: Sequence[Any]) -> Any:
    """What every one of ``values`` has in common: equal values are kept, lists
    of one length and dicts of the same keys are compared item by item, and
    anything else becomes ``None`` (a list of cards that differs is hidden whole)."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values) and all(v.keys() == first.keys() for v in values):
        return {k: common([v[k] for v in values]) for k in first}
    if all(isinstance(v, list) for v in values) and all(len(v) == len(first) for v in values):
        if any(isinstance(item, (list, dict)) for v in values for item in v):
            return [common([v[i] for v in values]) for i in range(len(first))]
    return None


def public_view(state: State) -> View:
    """What every seat's observation has in common: what a spectator may see.

    Nothing that only some seats know can appear (a hand is ``None``); the
    observer's ``seat`` is ``None``.
    """
    observations = [state.observation(seat) for seat in range(state.num_players)]
    for obs in observations:
        for key in _SEAT_KEYS:
            obs[key] = None
    view: View = common(observations)
    return view


def full_view(state: State) -> View:
    """Seat 0's observation and every seat's hand: for replays after the match."""
    view = state.observation(0)
    view["all_hands"] = [state.observation(seat)["hand"] for seat in range(state.num_players)]
    return view


def display_values(view: View) -> dict[str, Any]:
    """What each meld, stack or vault in ``view`` is worth now, as its game says
    (:meth:`~parlour.game.Game.display_values`)."""
    return games.get(view["game"]).display_values(view)


def steps(state: State, changes: Sequence[str], view: Callable[[State], View]) -> Iterator[View]:
    """Views of ``state`` as each change (a move in notation, or ``next round``) is made;
    ``state`` starts at the beginning of the match and is played forward."""
    yield _step(view(state), None)
    for change in changes:
        _make(state, change, None)
        yield _step(view(state), change)


def page(state: State, changes: Sequence[str], view: Callable[[State], View], offset: int, count: int,
         deals: Iterable[Deal] | None = None) -> list[View]:
    """Steps ``offset`` to ``offset + count - 1`` of :func:`steps` (fewer at the end; none past it).

    The changes before ``offset`` are made without a view: a page costs its own views and a
    replay of the moves before it, never the views of the whole match.  ``deals``, if given, deal
    the rounds after the first in turn (a record's); without them, each is shuffled by the state.
    """
    dealt = iter(deals) if deals is not None else None
    out: list[View] = []
    if offset == 0 and count > 0:
        out.append(_step(view(state), None))
    for number, change in enumerate(itertools.islice(changes, max(0, offset + count - 1)), 1):
        _make(state, change, dealt)
        if number >= offset:
            out.append(_step(view(state), change))
    return out


def _make(state: State, change: str, deals: Iterator[Deal] | None) -> None:
    if change == NEXT_ROUND:
        state.next_round(next(deals) if deals is not None else None)
    else:
        state.apply(Move.parse(change))


def _step(view: View, change: str | None) -> View:
    view["values"] = display_values(view)
    view["layout"] = layouts.table_layout(view)
    view["change"] = change
    return view


def record_page(rec: record.Record, offset: int, count: int) -> tuple[list[View], int]:
    """Steps ``offset`` to ``offset + count - 1`` of a replayed record, with all cards, and how
    many steps it has in all.  ``rec`` must have replayed (:func:`~parlour.record.replay`)."""
    changes: list[str] = []
    for number, rnd in enumerate(rec.rounds):
        if number:
            changes.append(NEXT_ROUND)  # dealt with the record's own deal, not a shuffle
        changes.extend(rnd.moves)
    state = rec.game.new_match(options=rec.options, first=rec.first, names=rec.players, deal=rec.rounds[0].deal)
    shown = page(state, changes, full_view, offset, count, (rnd.deal for rnd in rec.rounds[1:]))
    return shown, len(changes) + 1


def record_steps(data: Any) -> list[View]:
    """Every step of a ``parlour-record/1`` record, with all cards.

    Raises :class:`~parlour.record.RecordError` where the record is wrong.
    """
    rec = record.from_data(data)
    record.replay(rec)
    every = sum(len(rnd.moves) for rnd in rec.rounds) + len(rec.rounds)
    return record_page(rec, 0, every)[0]
