"""What the web pages are shown: seat views, the public view, display values
and replay steps (each with its layout, :mod:`parlour.web.layouts`) — all made
from :meth:`~parlour.game.State.observation`, the one view of a state for a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from parlour import games, record
from parlour.game import Move, State
from parlour.web import layouts

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
        if change == "next round":
            state.next_round()
        else:
            state.apply(Move.parse(change))
        yield _step(view(state), change)


def _step(view: View, change: str | None) -> View:
    view["values"] = display_values(view)
    view["layout"] = layouts.table_layout(view)
    view["change"] = change
    return view


def record_steps(data: Any) -> list[View]:
    """Every step of a ``parlour-record/1`` record, with all cards.

    Raises :class:`~parlour.record.RecordError` where the record is wrong.
    """
    rec = record.from_data(data)
    record.replay(rec)
    first_deal = rec.rounds[0].deal
    state = rec.game.new_match(options=rec.options, first=rec.first, names=rec.players, deal=first_deal)
    out = [_step(full_view(state), None)]
    for number, rnd in enumerate(rec.rounds):
        if number:
            state.next_round(rnd.deal)
            out.append(_step(full_view(state), "next round"))
        for text in rnd.moves:
            state.apply(Move.parse(text))
            out.append(_step(full_view(state), text))
    return out
