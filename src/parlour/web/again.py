"""Play again: the vote at a finished table for a new match with the same players, and the new table's seats.

When a match is over every seated person is asked whether to play again.  The new table starts when
all the people at the table have accepted: the same players, options and bots, each seat moved one
place on (seat ``i`` of the old table is seat ``i + 1`` of the new one, mod the number of seats), the
people's seats theirs at once (no invitation).  A person who declines, or whose every connection has
gone, holds the new table back; the others are told.  A person who comes back is asked again; one who
declined may still accept.  Spectators do not vote.  The manager (:mod:`parlour.web.manager`) counts the
votes here and opens the new table like any other (its limits too); the store keeps the link from
the old table to the new one (``web_play_again``), so that the old table points to it after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from parlour.web.protocol import PlayAgainVotes
from parlour.web.store import SeatRow


class SeatLike(Protocol):
    """A seat of the old table, as the new table copies it (:class:`~parlour.web.tables.Seat`)."""

    seat: int
    kind: str
    level: str | None
    name: str
    owner: str | None


@dataclass
class AgainVote:
    """The people's answers to "Play again?" at one finished table."""

    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    """People whose every connection has gone (they decline until they come back)."""
    next_table: str | None = None
    """The new table, once it has started."""

    def answer(self, seat: int, accept: bool) -> None:
        """``seat`` accepts or declines (a later answer replaces an earlier one)."""
        (self.accepted if accept else self.declined).add(seat)
        (self.declined if accept else self.accepted).discard(seat)

    def ready(self, people: Sequence[int]) -> bool:
        """Whether every person at the table has accepted (and none is away)."""
        return bool(people) and all(p in self.accepted and p not in self.left for p in people)

    def asked(self) -> bool:
        """Whether anything has been said yet (a new connection is told only then)."""
        return bool(self.accepted or self.declined or self.left or self.next_table)

    def message(self, people: Sequence[int]) -> PlayAgainVotes:
        """The votes as the table is told them (once the new table has started, everyone accepted)."""
        if self.next_table is not None:
            return PlayAgainVotes(accepted=sorted(people), declined=[], left=[], waiting=[], table=self.next_table)
        return PlayAgainVotes(
            accepted=sorted(p for p in people if p in self.accepted and p not in self.left),
            declined=sorted(p for p in people if p in self.declined and p not in self.left),
            left=sorted(p for p in people if p in self.left),
            waiting=sorted(p for p in people if p not in self.accepted | self.declined | self.left),
            table=self.next_table)


def rotated_seats(seats: Sequence[SeatLike], table_id: str) -> list[SeatRow]:
    """The new table's seats: each old seat moved one place on, with its kind, level, name and owner
    (a person's seat is theirs at once; nobody's seat stays nobody's)."""
    count = len(seats)
    moved = sorted(seats, key=lambda s: (s.seat + 1) % count)
    return [SeatRow(table_id=table_id, seat=(old.seat + 1) % count, kind=old.kind, level=old.level, name=old.name,
                    token_digest=None, owner=old.owner, invite=None) for old in moved]
