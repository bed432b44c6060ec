"""Minus Twenty's space: the play-then-draw blocks (:mod:`parlour.envs.spaces.turn`) and the rounds won."""

from __future__ import annotations

from array import array

from parlour.envs.spaces.base import UNBOUNDED, Layout
from parlour.envs.spaces.turn import TurnPicture, TurnSpace, TurnWords
from parlour.game import Observation
from parlour.games import minus_twenty as mt

__all__ = ["MinusTwentySpace"]


class MinusTwentySpace(TurnSpace):
    """Minus Twenty: 101 actions (``play`` ×48, ``discard`` ×48, ``draw``, ``take`` ×4).

    Card planes have 48 entries (2C … KS).  Blocks after the shared ones:
    the step (play, draw); the observer's hand; the cards each seat is known
    to hold (taken from a discard pile), by relative seat; each seat's
    melds; the cards in the discard piles and the top card of each; the
    suit discarded onto this turn (it may not be taken back); the round's
    starter; then scaled: hand sizes (÷ 10), the draw pile (÷ 48), the stall
    count (÷ 60) and rounds won (÷ 10).
    """

    CARDS = tuple(mt.minus_twenty_deck())
    WORDS = TurnWords(
        own="melds", own_doc="each seat's melds, by relative seat",
        piles="discard_piles", piles_doc="cards in the discard piles",
        tops="discard_tops", tops_doc="the top card of each discard pile",
        played="discarded", played_doc="the suit discarded onto this turn (C D H S)",
        stall_doc="turns in a row that took a discard, ÷ 60",
    )
    _stock_scale = 48

    def __init__(self) -> None:
        actions = [mt.PLAY[c] for c in self.CARDS] + [mt.DISCARD[c] for c in self.CARDS]
        actions += [mt.DRAW, *mt.TAKE]
        super().__init__("minus-twenty", actions)

    def _build(self, layout: Layout) -> None:
        super()._build(layout)
        self._o_won, self._p_won = layout.place(
            "rounds_won", 1, "rounds won by relative seat, ÷ 10", UNBOUNDED, seats=layout.every)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        super()._from_observation(obs, seat, out)
        won = obs["rounds_won"]
        out[self._o_won] = won[seat] / 10
        out[self._o_won + 1] = won[1 - seat] / 10

    def _starter(self, state: mt.MinusTwentyState) -> int:
        return state.starter

    def _starter_seen(self, obs: Observation) -> int:
        starter: int = obs["starters"][-1]
        return starter

    def _from_state(self, state: mt.MinusTwentyState, seat: int, out: array[float]) -> None:
        super()._from_state(state, seat, out)
        if state.history or state._over:
            won = state.rounds_won()
            out[self._o_won] = won[seat] / 10
            out[self._o_won + 1] = won[1 - seat] / 10

    def _settle(self, state: mt.MinusTwentyState, picture: TurnPicture) -> None:
        won = state.rounds_won() if state.history or state._over else [0, 0]
        for seat in (0, 1):
            picture.values[self._p_won + seat] = won[seat] / 10
