"""Progression's space: the play-then-draw blocks (:mod:`parlour.envs.spaces.turn`) for three seats."""

from __future__ import annotations

from parlour.envs.spaces.turn import TurnSpace, TurnWords
from parlour.game import Observation
from parlour.games import progression as pg

__all__ = ["ProgressionSpace"]


class ProgressionSpace(TurnSpace):
    """Progression: 109 actions (``play`` ×52, ``public`` ×52, ``draw``, ``take`` ×4).

    Card planes have 52 entries (AC … KS).  Blocks after the shared ones:
    the step (play, draw); the observer's hand; the cards each seat is known
    to hold (taken from a public stack), by relative seat; each seat's
    private stacks; the cards on the public stacks and the top card of
    each; the public stack played to this turn; the round's starter; then
    scaled: hand sizes (÷ 10), the draw pile (÷ 37), the stall count (÷ 60).
    """

    CARDS = pg.DECK
    WORDS = TurnWords(
        own="private_stacks", own_doc="each seat's private stacks, by relative seat",
        piles="public_stacks", piles_doc="cards on the public stacks",
        tops="public_tops", tops_doc="the top card of each public stack",
        played="played_public", played_doc="the public stack played to this turn (C D H S)",
        stall_doc="turns in a row that drew from a public stack, ÷ 60",
    )
    _stock_scale = 37

    def __init__(self) -> None:
        super().__init__("progression", [*pg.PLAY, *pg.PUBLIC, pg.DRAW, *pg.TAKE])

    def _starter(self, state: pg.ProgressionState) -> int:
        return (state.first + len(state.history)) % 3

    def _starter_seen(self, obs: Observation) -> int:
        starter: int = (obs["first"] + obs["round"] - 1) % 3
        return starter
