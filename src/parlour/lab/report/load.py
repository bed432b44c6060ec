"""Loading: one experiment's stored matches, rounds and events read into arrays (:class:`Played`),
straight from the store's rows (no record is replayed), with the views of them every section uses:
by seat, by position, by player, by deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from sqlalchemy import select

from parlour import games
from parlour.game import RoundEnding
from parlour.lab.arena import player_labels
from parlour.store import EventRow, Experiment, Match, RoundRow, Store

FloatArray: TypeAlias = npt.NDArray[np.float64]


IntArray: TypeAlias = npt.NDArray[np.int64]


@dataclass
class Played:
    """One experiment's stored results as arrays: a row per match, a row per round."""

    experiment: Experiment
    labels: list[str]
    """Player names as the arena gives them (``random#1`` when a spec repeats)."""
    deal: IntArray
    """(M,) the duplicate deal of each match, −1 in ``matches`` mode."""
    first: IntArray
    """(M,) the seat that started round 1."""
    seat_of: IntArray
    """(M, players) the seat of each player (the inverse of ``Match.seating``)."""
    totals: FloatArray
    """(M, seats) match totals by seat."""
    share: FloatArray
    """(M, seats) each seat's share of the win (1/k for each of k tied winners)."""
    rounds: IntArray
    moves: IntArray
    round_match: IntArray
    """(R,) the match row of each round."""
    round_moves: IntArray
    kinds: list[str]
    """Every event kind seen, most frequent first."""
    counts: IntArray
    """(R, kinds) how often each kind happened in each round."""
    endings: IntArray
    """(R,) how each round ended, as an index into the game's ``endings``."""
    index: IntArray
    """(M,) each match's place in its experiment (match ``i`` of two variants of one study
    has the same seed and seating)."""
    signature: list[tuple[Any, ...]]
    """(M,) what a match did, seat by seat: totals, moves per round, every event with its move
    and seat.  Two seatings of a duplicate deal with the same signature replayed identically."""

    @property
    def unit(self) -> IntArray:
        """(M,) each match's independent unit: its deal when deals are duplicated (the seatings
        of a deal share its cards), else the match itself."""
        return self.deal if self.duplicate else self.index

    @property
    def unit_word(self) -> str:
        return "deals" if self.duplicate else "matches"

    @property
    def seats(self) -> int:
        """Players at the table."""
        return len(self.labels)

    @property
    def duplicate(self) -> bool:
        """Whether the experiment played duplicate deals."""
        return self.experiment.mode == "deals"

    def by_position(self, values: FloatArray) -> FloatArray:
        """(M, seats) columns re-ordered by position: column 0 is the seat that started round 1."""
        rows = np.arange(len(values))[:, None]
        seats = (self.first[:, None] + np.arange(self.seats)[None, :]) % self.seats
        result: FloatArray = values[rows, seats]
        return result

    def by_player(self, values: FloatArray) -> FloatArray:
        """(M, players) columns re-ordered by player (the experiment's list order)."""
        result: FloatArray = values[np.arange(len(values))[:, None], self.seat_of]
        return result

    def margins(self) -> FloatArray:
        """(M, seats) each seat's total minus the mean of the other seats' totals
        (:func:`parlour.lab.arena.diff_for` for every match at once)."""
        n = self.seats
        result: FloatArray = (n * self.totals - self.totals.sum(axis=1, keepdims=True)) / (n - 1)
        return result

    def complete_deals(self) -> IntArray:
        """(G, seatings) match rows of every deal played in all its seatings, by deal.

        A run stopped part-way may leave a deal short of seatings; it is left
        out so that every group compares the same cards played every way.
        """
        groups: dict[int, list[int]] = {}
        for row, deal in enumerate(self.deal.tolist()):
            groups.setdefault(deal, []).append(row)
        full = [rows for _, rows in sorted(groups.items()) if len(rows) == self.seats]
        return np.array(full, dtype=np.int64).reshape(len(full), self.seats)


def _load(store: Store, experiment: Experiment) -> Played:
    """Read one experiment's matches, rounds and events into arrays."""
    # Only the columns the report needs, read as plain rows: Store.matches
    # would also load every record's JSON text (most of the database), and
    # Store.events builds an ORM object per event — over ten seconds and most
    # of a gigabyte for 10,000 matches of 100 Silver Bars, against one second here.
    mine = Match.experiment_id == experiment.id
    with store.session() as session:
        rows = session.execute(
            select(Match.id, Match.index, Match.deal, Match.seating, Match.first, Match.totals, Match.winners,
                   Match.rounds, Match.moves).where(mine).order_by(Match.index)).all()
        round_rows = session.execute(
            select(RoundRow.match_id, RoundRow.number, RoundRow.moves).join(Match, RoundRow.match_id == Match.id)
            .where(mine).order_by(Match.index, RoundRow.number)).all()
        event_rows = session.execute(
            select(EventRow.match_id, EventRow.round_number, EventRow.kind, EventRow.move_number, EventRow.seat)
            .join(Match, EventRow.match_id == Match.id).where(mine).order_by(EventRow.id)).all()
    seats = len(experiment.players)
    count = len(rows)
    place = {row.id: m for m, row in enumerate(rows)}
    seating = np.array([row.seating for row in rows], dtype=np.int64).reshape(count, seats)
    share = np.zeros((count, seats))
    for m, row in enumerate(rows):
        for seat in row.winners:
            share[m, seat] = 1 / len(row.winners)
    where = {(match_id, number): r for r, (match_id, number, _) in enumerate(round_rows)}
    event_round = np.array([where[row.match_id, row.round_number] for row in event_rows], dtype=np.int64)
    kinds_seen, event_kind = np.unique(np.array([row.kind for row in event_rows], dtype=object),
                                       return_inverse=True)
    happened: list[list[tuple[Any, ...]]] = [[] for _ in rows]
    for event in event_rows:
        happened[place[event.match_id]].append((event.round_number, event.move_number, event.seat, event.kind))
    played_moves: list[list[int]] = [[] for _ in rows]
    for played in round_rows:
        played_moves[place[played.match_id]].append(played.moves)
    tally = np.bincount(event_kind.ravel(), minlength=len(kinds_seen))
    order = sorted(range(len(kinds_seen)), key=lambda i: (-tally[i], kinds_seen[i]))  # most frequent first
    kinds = [str(kinds_seen[i]) for i in order]
    column = np.empty(len(order), dtype=np.int64)
    column[order] = np.arange(len(order))
    counts = np.zeros((len(round_rows), len(kinds)), dtype=np.int64)
    np.add.at(counts, (event_round, column[event_kind.ravel()]), 1)
    return Played(
        experiment=experiment,
        labels=player_labels(experiment.players),
        deal=np.array([-1 if row.deal is None else row.deal for row in rows], dtype=np.int64),
        first=np.array([row.first for row in rows], dtype=np.int64),
        seat_of=np.argsort(seating, axis=1).astype(np.int64),
        totals=np.array([row.totals for row in rows], dtype=np.float64).reshape(count, seats),
        share=share,
        rounds=np.array([row.rounds for row in rows], dtype=np.int64),
        moves=np.array([row.moves for row in rows], dtype=np.int64),
        round_match=np.array([place[row.match_id] for row in round_rows], dtype=np.int64),
        round_moves=np.array([row.moves for row in round_rows], dtype=np.int64),
        kinds=kinds,
        counts=counts,
        endings=_endings(games.get(experiment.game).endings, kinds, counts),
        index=np.array([row.index for row in rows], dtype=np.int64),
        signature=[(tuple(row.totals), tuple(played_moves[m]), tuple(happened[m])) for m, row in enumerate(rows)],
    )


def _endings(endings: Sequence[RoundEnding], kinds: Sequence[str], counts: IntArray) -> IntArray:
    """How each round ended, as an index into the game's ``endings``, judged from its events
    as the game says (the first ending whose event kind a round shows; else the usual end)."""
    usual = [i for i, ending in enumerate(endings) if ending.kind is None]
    found = np.full(len(counts), usual[0] if usual else -1, dtype=np.int64)
    # Later assignments win, so go from the weakest sign to the strongest.
    for number in reversed(range(len(endings))):
        kind = endings[number].kind
        if kind is not None and kind in kinds:
            found[counts[:, kinds.index(kind)] > 0] = number
    return found


def load_played(store: Store, names: Sequence[str] | None) -> list[Played]:
    """The named experiments (all if none), in the order named, loaded."""
    experiments = store.experiments(names)
    if names:
        order = {name: i for i, name in enumerate(dict.fromkeys(names))}
        experiments.sort(key=lambda e: order[e.name])
    return [_load(store, experiment) for experiment in experiments]


def position_name(position: int) -> str:
    return ("first player", "second player", "third player", "fourth player")[position] if position < 4 \
        else f"player {position + 1} in turn"
