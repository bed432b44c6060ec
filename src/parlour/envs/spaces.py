"""Fixed action tables and fixed-shape observation vectors, one pair per game.

Every reinforcement-learning adapter (PettingZoo, Gymnasium, OpenSpiel) sees
a game through a :class:`GameSpace`:

* an **action table**: one discrete index per move that any position of the
  game can offer (``actions[i]`` is a :class:`~parlour.game.Move`,
  ``index[move]`` its index), the same for every rule option;
* an **observation vector**: ``float32`` of shape ``obs_shape``, made from one
  seat's :meth:`~parlour.game.State.observation` only (:meth:`GameSpace.encode`),
  or straight from a state for speed (:meth:`GameSpace.encode_state`, which
  gives exactly the same vector and reads nothing the seat may not see).

The vector is written from the observer's point of view: wherever it has one
block per seat, block 0 is the observer, block 1 the next seat in turn order
(seat + 1), and so on.  Most blocks are small whole numbers (one-hot planes
over the game's cards, card counts, flags); the rest are scaled numbers
(stock size, scores, totals …).  :meth:`GameSpace.layout` lists every block
with its offset and range; ``docs/envs/pettingzoo.md`` prints them.

Card planes have one entry per card of the game in card-code order (rank,
then suit: ``2C 2D 2H 2S 3C …``); 100 Silver Bars' twins share one entry,
which then holds a count.

This module imports numpy; the rules never import it.
"""

from __future__ import annotations

import functools
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from parlour import games
from parlour.cards import ALL_CARDS, SUITS, Card
from parlour.game import Move, Observation, RoundResult, State
from parlour.games import minus_twenty as mt
from parlour.games import progression as pg
from parlour.games import silver_bars as sb
from parlour.games import twenty as tw

__all__ = ["GameSpace", "Segment", "actions_markdown", "space"]

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_CARD_BY_TEXT = {str(c): c for c in ALL_CARDS}


class Segment(NamedTuple):
    """One block of the observation vector."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    doc: str


_SCORE = 100.0
"""Scores and totals are divided by this."""
_UNBOUNDED = float(np.finfo(np.float32).max)
_FLOAT32 = np.dtype(np.float32)


class _Layout:
    """Allocates the blocks of the vector, in order."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def block(self, name: str, size: int, doc: str, high: float = 1.0, low: float = 0.0) -> int:
        offset = self.size
        self.segments.append(Segment(name, offset, size, low, high, doc))
        self.size += size
        return offset


class GameSpace:
    """A game's discrete action table and its observation encoding.

    Attributes:

    * ``game_id``, ``players``;
    * ``actions``: index → move, covering every move any position can have
      (for every rule option); ``index``: move → index; ``num_actions``;
    * ``obs_shape``: ``(n,)``; ``low`` and ``high``: each entry's bounds
      (scores and totals are unbounded: the largest ``float32``).

    Shared blocks, first in every game (seats relative to the observer):
    whose turn it is (one-hot by seat, all 0 once the round is over), round
    over and match over (flags), the round number − 1 (÷ 10), the round's
    scores and the match totals (÷ 100).  Each game's class docstring lists
    its own blocks.
    """

    game_id: str
    players: int
    actions: tuple[Move, ...]
    index: dict[Move, int]
    num_actions: int
    obs_shape: tuple[int]

    def __init__(self, game_id: str, actions: Sequence[Move]) -> None:
        self.game_id = game_id
        self.players = games.get(game_id).players
        self.actions = tuple(actions)
        self.index = {m: i for i, m in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise ValueError(f"{game_id}: the action table repeats a move")
        self.num_actions = len(self.actions)
        layout = _Layout()
        p = self.players
        self._o_turn = layout.block("to_move", p, "whose turn it is, by relative seat (0: the observer)")
        self._o_over = layout.block("over", 2, "round over, match over")
        self._o_round = layout.block("round", 1, "round number − 1, ÷ 10", _UNBOUNDED)
        self._o_scores = layout.block("scores", p, "this round's scores by relative seat, ÷ 100",
                                      _UNBOUNDED, -_UNBOUNDED)
        self._o_totals = layout.block("totals", p, "match totals by relative seat, ÷ 100", _UNBOUNDED, -_UNBOUNDED)
        self._build(layout)
        self._segments = layout.segments
        size = layout.size
        self.obs_shape = (size,)
        self._zeros = array("f", bytes(4 * size))
        self._order = [tuple((seat + k) % p for k in range(p)) for seat in range(p)]
        self._last_history: tuple[list[RoundResult], int, RoundResult, list[int]] | None = None
        self._no_moves = bytes(self.num_actions)
        self.low = np.zeros(size, dtype=np.float32)
        self.high = np.zeros(size, dtype=np.float32)
        for seg in self._segments:
            self.low[seg.offset:seg.offset + seg.size] = seg.low
            self.high[seg.offset:seg.offset + seg.size] = seg.high

    # -- given by each game ---------------------------------------------------
    def _build(self, layout: _Layout) -> None:
        """Allocate the game's own blocks."""
        raise NotImplementedError

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        """Write the game's own blocks from an observation."""
        raise NotImplementedError

    def _from_state(self, state: Any, seat: int, out: array[float]) -> None:
        """The same as :meth:`_from_observation`, read from a state."""
        raise NotImplementedError

    # -- the contract ---------------------------------------------------------
    def encode(self, observation: Observation) -> npt.NDArray[np.float32]:
        """The vector of ``observation`` (for the seat ``observation["seat"]``)."""
        if observation.get("game") != self.game_id:
            raise ValueError(f"an observation of {observation.get('game')!r}, not of {self.game_id!r}")
        seat: int = observation["seat"]
        p = self.players
        out = self._zeros[:]
        to_move = observation["to_move"]
        if to_move is not None:
            out[self._o_turn + (to_move - seat) % p] = 1.0
        if observation["round_over"]:
            out[self._o_over] = 1.0
        if observation["match_over"]:
            out[self._o_over + 1] = 1.0
        out[self._o_round] = (observation["round"] - 1) / 10
        scores, totals = observation["scores"], observation["totals"]
        for k in range(p):
            out[self._o_scores + k] = scores[(seat + k) % p] / _SCORE
            out[self._o_totals + k] = totals[(seat + k) % p] / _SCORE
        self._from_observation(observation, seat, out)
        return np.frombuffer(out, _FLOAT32)

    def encode_state(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """The vector of ``state.observation(seat)``, without building the observation."""
        p = self.players
        if not 0 <= seat < p:
            raise ValueError(f"no seat {seat} in a {p}-player game")
        out = self._zeros[:]
        order = self._order[seat]
        to_move = state.current_player()
        over = to_move is None and state.is_round_over()
        if to_move is not None:
            out[self._o_turn + order.index(to_move)] = 1.0
        elif over:
            out[self._o_over] = 1.0
            if state.is_match_over():
                out[self._o_over + 1] = 1.0
        history = state.history
        scores = state.scores
        o_scores = self._o_scores
        for k, s in enumerate(order):
            if scores[s]:
                out[o_scores + k] = scores[s] / _SCORE
        if history or over:
            out[self._o_round] = len(history) / 10
            totals = self._history_totals(history)
            if over:
                totals = [t + s for t, s in zip(totals, scores)]
            o_totals = self._o_totals
            for k, s in enumerate(order):
                out[o_totals + k] = totals[s] / _SCORE
        self._from_state(state, seat, out)
        return np.frombuffer(out, _FLOAT32)

    def _history_totals(self, history: list[RoundResult]) -> list[int]:
        """The totals of the finished rounds, remembered for the last history seen
        (a round is added to it only when the next one is dealt)."""
        last = self._last_history
        if last is not None and last[0] is history and last[1] == len(history) and last[2] is history[-1]:
            return last[3]
        totals = [0] * self.players
        for result in history:
            for seat, points in enumerate(result.scores):
                totals[seat] += points
        if history:
            self._last_history = (history, len(history), history[-1], totals)
        return totals

    def mask(self, legal: Sequence[Move]) -> npt.NDArray[np.int8]:
        """``int8`` of ``num_actions``: 1 for the indices of the ``legal`` moves."""
        buf = bytearray(self._no_moves)
        index = self.index
        for move in legal:
            buf[index[move]] = 1
        return np.frombuffer(buf, np.int8)

    def layout(self) -> list[Segment]:
        """Every block of the observation vector, in order, with its offset and range."""
        return list(self._segments)

    def table(self) -> str:
        """The action table as Markdown: index and move notation."""
        lines = [f"### `{self.game_id}`: {self.num_actions} actions", "", "| index | move |", "|---:|---|"]
        lines += [f"| {i} | `{m}` |" for i, m in enumerate(self.actions)]
        return "\n".join(lines) + "\n"

    def layout_table(self) -> str:
        """The observation layout as Markdown: offset, size, range and meaning of each block."""
        lines = [f"### `{self.game_id}`: observation of {self.obs_shape[0]} float32", "",
                 "| offset | size | range | block |", "|---:|---:|---|---|"]
        for seg in self._segments:
            high = "∞" if seg.high >= _UNBOUNDED else f"{seg.high:g}"
            low = "−∞" if seg.low <= -_UNBOUNDED else f"{seg.low:g}"
            lines.append(f"| {seg.offset} | {seg.size} | {low}…{high} | `{seg.name}`: {seg.doc} |")
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game_id}: {self.num_actions} actions, obs {self.obs_shape}>"


def _plane_positions(cards: Sequence[Card]) -> list[int]:
    """Card code → position in a card plane (−1: not a card of the game)."""
    positions = [-1] * len(ALL_CARDS)
    for i, c in enumerate(cards):
        positions[c] = i
    return positions


def _text_positions(positions: list[int]) -> dict[str, int]:
    return {str(c): positions[c] for c in ALL_CARDS if positions[c] >= 0}


# -- Minus Twenty --------------------------------------------------------------------

class MinusTwentySpace(GameSpace):
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

    def __init__(self) -> None:
        actions = [mt.PLAY[c] for c in self.CARDS] + [mt.DISCARD[c] for c in self.CARDS]
        actions += [mt.DRAW, *mt.TAKE]
        self._pos = _plane_positions(self.CARDS)
        self._tpos = _text_positions(self._pos)
        super().__init__("minus-twenty", actions)

    def _build(self, layout: _Layout) -> None:
        n = len(self.CARDS)
        self._o_step = layout.block("step", 2, "the step of the turn: play, draw")
        self._o_hand = layout.block("hand", n, "the observer's hand")
        self._o_known = layout.block("known", 2 * n, "cards each seat is known to hold, by relative seat")
        self._o_melds = layout.block("melds", 2 * n, "each seat's melds, by relative seat")
        self._o_piles = layout.block("discard_piles", n, "cards in the discard piles")
        self._o_tops = layout.block("discard_tops", n, "the top card of each discard pile")
        self._o_discarded = layout.block("discarded", 4, "the suit discarded onto this turn (C D H S)")
        self._o_starter = layout.block("starter", 2, "the round's starter, by relative seat")
        self._o_sizes = layout.block("hand_sizes", 2, "hand sizes by relative seat, ÷ 10", _UNBOUNDED)
        self._o_stock = layout.block("stock_count", 1, "cards in the draw pile, ÷ 48")
        self._o_stall = layout.block("stall_count", 1, "turns in a row that took a discard, ÷ 60", _UNBOUNDED)
        self._o_won = layout.block("rounds_won", 2, "rounds won by relative seat, ÷ 10", _UNBOUNDED)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        n = len(self.CARDS)
        other = 1 - seat
        step = obs["step"]
        if step is not None:
            out[self._o_step + (step == "draw")] = 1.0
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        for k, s in ((0, seat), (1, other)):
            for c in obs["known"][s]:
                out[self._o_known + k * n + pos[c]] = 1.0
            for cards in obs["melds"][s].values():
                for c in cards:
                    out[self._o_melds + k * n + pos[c]] = 1.0
        for pile in obs["discard_piles"].values():
            for c in pile:
                out[self._o_piles + pos[c]] = 1.0
            if pile:
                out[self._o_tops + pos[pile[-1]]] = 1.0
        if obs["discarded"] is not None:
            out[self._o_discarded + _SUIT_INDEX[obs["discarded"][-1]]] = 1.0
        out[self._o_starter + (obs["starters"][-1] ^ seat)] = 1.0
        sizes, won = obs["hand_sizes"], obs["rounds_won"]
        out[self._o_sizes] = sizes[seat] / 10
        out[self._o_sizes + 1] = sizes[other] / 10
        out[self._o_stock] = obs["stock_count"] / 48
        out[self._o_stall] = obs["stall_count"] / 60
        out[self._o_won] = won[seat] / 10
        out[self._o_won + 1] = won[other] / 10

    def _from_state(self, state: mt.MinusTwentyState, seat: int, out: array[float]) -> None:
        pos = self._pos
        n = len(self.CARDS)
        other = 1 - seat
        if not state._over:
            out[self._o_step + state.drawing] = 1.0
        base = self._o_hand
        for c in state.hands[seat]:
            out[base + pos[c]] = 1.0
        was_on_pile, melds = state.was_on_pile, state.melds
        for k, s in ((0, seat), (1, other)):
            base = self._o_known + k * n
            for c in state.hands[s]:
                if was_on_pile[c]:
                    out[base + pos[c]] = 1.0
            base = self._o_melds + k * n
            for meld in melds[s]:
                for c in meld:
                    out[base + pos[c]] = 1.0
        base = self._o_piles
        tops = self._o_tops
        for pile in state.discard_piles:
            if pile:
                for c in pile:
                    out[base + pos[c]] = 1.0
                out[tops + pos[pile[-1]]] = 1.0
        if state.pile_played >= 0:
            out[self._o_discarded + state.pile_played] = 1.0
        out[self._o_starter + (state.starter ^ seat)] = 1.0
        hands = state.hands
        out[self._o_sizes] = len(hands[seat]) / 10
        out[self._o_sizes + 1] = len(hands[other]) / 10
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 48
        if state.stall:
            out[self._o_stall] = state.stall / 60
        if state.history or state._over:
            won = state.rounds_won()
            out[self._o_won] = won[seat] / 10
            out[self._o_won + 1] = won[other] / 10


# -- Progression ---------------------------------------------------------------------

class ProgressionSpace(GameSpace):
    """Progression: 109 actions (``play`` ×52, ``public`` ×52, ``draw``, ``take`` ×4).

    Card planes have 52 entries (AC … KS).  Blocks after the shared ones:
    the step (play, draw); the observer's hand; the cards each seat is known
    to hold (taken from a public stack), by relative seat; each seat's
    private stacks; the cards on the public stacks and the top card of
    each; the public stack played to this turn; the round's starter; then
    scaled: hand sizes (÷ 10), the draw pile (÷ 37), the stall count (÷ 60).
    """

    CARDS = pg.DECK

    def __init__(self) -> None:
        actions = [*pg.PLAY, *pg.PUBLIC, pg.DRAW, *pg.TAKE]
        self._tpos = _text_positions(_plane_positions(self.CARDS))
        super().__init__("progression", actions)

    def _build(self, layout: _Layout) -> None:
        n = 52
        self._o_step = layout.block("step", 2, "the step of the turn: play, draw")
        self._o_hand = layout.block("hand", n, "the observer's hand")
        self._o_known = layout.block("known", 3 * n, "cards each seat is known to hold, by relative seat")
        self._o_private = layout.block("private_stacks", 3 * n, "each seat's private stacks, by relative seat")
        self._o_public = layout.block("public_stacks", n, "cards on the public stacks")
        self._o_tops = layout.block("public_tops", n, "the top card of each public stack")
        self._o_played = layout.block("played_public", 4, "the public stack played to this turn (C D H S)")
        self._o_starter = layout.block("starter", 3, "the round's starter, by relative seat")
        self._o_sizes = layout.block("hand_sizes", 3, "hand sizes by relative seat, ÷ 10", _UNBOUNDED)
        self._o_stock = layout.block("stock_count", 1, "cards in the draw pile, ÷ 37")
        self._o_stall = layout.block("stall_count", 1, "turns in a row that drew from a public stack, ÷ 60", _UNBOUNDED)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        step = obs["step"]
        if step is not None:
            out[self._o_step + (step == "draw")] = 1.0
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        for k in range(3):
            s = (seat + k) % 3
            for c in obs["known"][s]:
                out[self._o_known + 52 * k + pos[c]] = 1.0
            for cards in obs["private_stacks"][s].values():
                for c in cards:
                    out[self._o_private + 52 * k + pos[c]] = 1.0
            out[self._o_sizes + k] = obs["hand_sizes"][s] / 10
        for stack in obs["public_stacks"].values():
            for c in stack:
                out[self._o_public + pos[c]] = 1.0
            if stack:
                out[self._o_tops + pos[stack[-1]]] = 1.0
        if obs["played_public"] is not None:
            out[self._o_played + _SUIT_INDEX[obs["played_public"]]] = 1.0
        starter = (obs["first"] + obs["round"] - 1) % 3
        out[self._o_starter + (starter - seat) % 3] = 1.0
        out[self._o_stock] = obs["stock_count"] / 37
        out[self._o_stall] = obs["stall_count"] / 60

    def _from_state(self, state: pg.ProgressionState, seat: int, out: array[float]) -> None:
        if not state._over:
            out[self._o_step + state.drawing] = 1.0
        hands = state.hands
        base = self._o_hand
        for c in hands[seat]:
            out[base + c] = 1.0
        was_on_pile = state.was_on_pile
        private = state.private
        for k in range(3):
            s = (seat + k) % 3
            hand = hands[s]
            base = self._o_known + 52 * k
            for c in hand:
                if was_on_pile[c]:
                    out[base + c] = 1.0
            base = self._o_private + 52 * k
            for stack in private[s]:
                for c in stack:
                    out[base + c] = 1.0
            out[self._o_sizes + k] = len(hand) / 10
        base = self._o_public
        for stack in state.public:
            if stack:
                for c in stack:
                    out[base + c] = 1.0
                out[self._o_tops + stack[-1]] = 1.0
        if state.pile_played >= 0:
            out[self._o_played + state.pile_played] = 1.0
        out[self._o_starter + (state.first + len(state.history) - seat) % 3] = 1.0
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 37
        if state.stall:
            out[self._o_stall] = state.stall / 60


# -- Twenty ------------------------------------------------------------------------------

class TwentySpace(GameSpace):
    """Twenty: 52 actions (``play`` ×52).

    Card planes have 52 entries (AC … KS).  Blocks after the shared ones:
    the observer's hand; the opponent's hand (only with ``open_hands``) and
    that option's flag; the two revealed cards; the tally; the cards set
    aside; the last seat to score and the round's starter, by relative
    seat; then scaled: the End of Round Bonus (÷ 10), the tally's value
    (÷ 20) and its number of cards (÷ 10), the stock (÷ 40), hand sizes
    (÷ 5) and hands dealt (÷ 10) by relative seat.
    """

    def __init__(self) -> None:
        self._tpos = _text_positions(_plane_positions(ALL_CARDS[:52]))
        super().__init__("twenty", tw.PLAY)

    def _build(self, layout: _Layout) -> None:
        n = 52
        self._o_hand = layout.block("hand", n, "the observer's hand")
        self._o_other = layout.block("other_hand", n, "the opponent's hand (open_hands only)")
        self._o_open = layout.block("open_hands", 1, "the option open_hands")
        self._o_revealed = layout.block("revealed", n, "the two revealed cards")
        self._o_tally = layout.block("tally", n, "the cards on the tally")
        self._o_aside = layout.block("set_aside", n, "the cards set aside")
        self._o_scorer = layout.block("last_scorer", 2, "the last seat to score, by relative seat")
        self._o_starter = layout.block("starter", 2, "the round's starter, by relative seat")
        self._o_bonus = layout.block("bonus", 1, "the End of Round Bonus, ÷ 10")
        self._o_value = layout.block("tally_value", 1, "the tally's value, ÷ 20", _UNBOUNDED)
        self._o_count = layout.block("tally_cards", 1, "cards on the tally, ÷ 10", _UNBOUNDED)
        self._o_stock = layout.block("stock_count", 1, "cards in the stock, ÷ 40")
        self._o_sizes = layout.block("hand_sizes", 2, "hand sizes by relative seat, ÷ 5")
        self._o_dealt = layout.block("hands_dealt", 2, "hands dealt by relative seat, ÷ 10", _UNBOUNDED)

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        other = 1 - seat
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        shown = obs["hands"][other]
        if shown is not None:
            for c in shown:
                out[self._o_other + pos[c]] = 1.0
        if obs["options"]["open_hands"]:
            out[self._o_open] = 1.0
        for c in obs["revealed"]:
            out[self._o_revealed + pos[c]] = 1.0
        for c in obs["tally"]:
            out[self._o_tally + pos[c]] = 1.0
        for c in obs["set_aside"]:
            out[self._o_aside + pos[c]] = 1.0
        if obs["last_scorer"] is not None:
            out[self._o_scorer + (obs["last_scorer"] ^ seat)] = 1.0
        starter = obs["first"] ^ ((obs["round"] - 1) & 1)
        out[self._o_starter + (starter ^ seat)] = 1.0
        sizes, dealt = obs["hand_sizes"], obs["hands_dealt"]
        out[self._o_bonus] = obs["bonus"] / 10
        out[self._o_value] = obs["tally_value"] / 20
        out[self._o_count] = len(obs["tally"]) / 10
        out[self._o_stock] = obs["stock_count"] / 40
        out[self._o_sizes] = sizes[seat] / 5
        out[self._o_sizes + 1] = sizes[other] / 5
        out[self._o_dealt] = dealt[seat] / 10
        out[self._o_dealt + 1] = dealt[other] / 10

    def _from_state(self, state: tw.TwentyState, seat: int, out: array[float]) -> None:
        other = 1 - seat
        hands = state.hands
        base = self._o_hand
        for c in hands[seat]:
            out[base + c] = 1.0
        if state.options["open_hands"]:
            out[self._o_open] = 1.0
            base = self._o_other
            for c in hands[other]:
                out[base + c] = 1.0
        base = self._o_revealed
        for c in state.revealed:
            out[base + c] = 1.0
        base = self._o_tally
        tally = state.tally
        for c in tally:
            out[base + c] = 1.0
        base = self._o_aside
        for c in state.set_aside:
            out[base + c] = 1.0
        if state.last_scorer is not None:
            out[self._o_scorer + (state.last_scorer ^ seat)] = 1.0
        out[self._o_starter + (state.first ^ (len(state.history) & 1) ^ seat)] = 1.0
        dealt = state.hands_dealt
        out[self._o_bonus] = state.bonus / 10
        out[self._o_value] = state.tally_value / 20
        out[self._o_count] = len(tally) / 10
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 40
        out[self._o_sizes] = len(hands[seat]) / 5
        out[self._o_sizes + 1] = len(hands[other]) / 5
        out[self._o_dealt] = dealt[seat] / 10
        out[self._o_dealt + 1] = dealt[other] / 10


# -- 100 Silver Bars ---------------------------------------------------------------------

_VAULT_STATE_INDEX = [-1] * sb.STATES
for _i, _s in enumerate(sb.VAULT_STATES):
    _VAULT_STATE_INDEX[_s] = _i
_DECK_KEYS = tuple(sb.DEFAULT_COUNTS)


class _Counted(NamedTuple):
    """Cards counted once (by plane position), with what they were counted from."""

    source: list[Card]
    cards: list[Card]
    counts: array[float]


class _Side(NamedTuple):
    """One seat's vaults encoded once, with the vaults, rubble and states they were encoded from."""

    source: list[list[Card]]
    vaults: list[list[Card]]
    rubble: list[Card | None]
    states: list[int]
    blocks: tuple[array[float], array[float], array[float], array[float]]


class SilverBarsSpace(GameSpace):
    """100 Silver Bars: 390 actions.

    The actions, card by card in card-code order: a silver bar, miner or
    shovel ``play C V`` onto own vault V = 1–5; rubble ``play C V`` onto
    the opponent's vault V; the strike ``play QS``; a thief ``play C V W``
    (from their vault V into own vault W, 25 pairs); then ``discard C`` for
    every card, ``lock 1``–``lock 5`` and ``resolve``.  Twins share a move,
    and the deck options change only how many copies there are, so the
    table is the same for every option.

    Card planes have 48 entries, one per card name that the deck can hold
    (twins share one, so entries are counts).  Blocks after the shared
    ones: the observer's hand (counts); each seat's five vaults, by relative
    seat, as one-hot states (empty, under rubble, locked, a bar of 1 2 3 4 6
    on top, a miner on top over a bar of 1 2 3 4 6); the cards in each
    seat's vaults, rubble included (counts); the discard pile (counts); the
    unseen cards — in the opponent's hand or the draw pile (counts, from the
    deck the options make); a pending strike against a seat; the dealer;
    then scaled: each vault's silver bars (÷ 20) and cards (÷ 10), by
    relative seat then vault; locks left (÷ 5); the draw pile (÷ 100); the
    target score (÷ 100).
    """

    CARDS = sb.GAME.card_universe()

    def __init__(self) -> None:
        actions: list[Move] = []
        for c in self.CARDS:
            kind = sb.KIND[c]
            if kind == sb.STRIKE:
                actions.append(sb.PLAY_ALONE[c])
            elif kind in (sb.LO_THIEF, sb.HI_THIEF):
                actions += [Move("play", (c, i, j)) for i in range(1, 6) for j in range(1, 6)]
            else:
                actions += sb.PLAY_AT[c]
        actions += [sb.DISCARD[c] for c in self.CARDS]
        actions += [*sb.LOCK, sb.RESOLVE]
        self._pos = _plane_positions(self.CARDS)
        self._tpos = _text_positions(self._pos)
        self._decks: dict[tuple[Any, ...], array[float]] = {}
        self._piles: dict[int, _Counted] = {}
        self._stocks: dict[int, tuple[list[Card], int, array[float]]] = {}
        self._sides: dict[int, _Side] = {}
        super().__init__("silver-bars", actions)

    def _build(self, layout: _Layout) -> None:
        n = len(self.CARDS)
        v = len(sb.VAULT_STATES)
        self._o_hand = layout.block("hand", n, "the observer's hand (counts)", 4)
        self._o_vaults = layout.block("vault_states", 2 * 5 * v,
                                      f"each vault's state ({v} one-hot), by relative seat then vault")
        self._o_vault_cards = layout.block("vault_cards", 2 * n,
                                           "the cards in each seat's vaults, rubble included (counts)", 4)
        self._o_discard = layout.block("discard_pile", n, "the discard pile (counts)", 4)
        self._o_unseen = layout.block("unseen", n, "cards not seen: the opponent's hand or the draw pile (counts)", 4)
        self._o_strike = layout.block("strike", 2, "a pending strike against a seat, by relative seat")
        self._o_dealer = layout.block("dealer", 2, "the dealer, by relative seat")
        self._o_bars = layout.block("vault_bars", 2 * 5, "silver bars in each vault, ÷ 20, by relative seat then vault",
                                    _UNBOUNDED)
        self._o_sizes = layout.block("vault_sizes", 2 * 5, "cards in each vault, ÷ 10, by relative seat then vault",
                                     _UNBOUNDED)
        self._o_locks = layout.block("locks_left", 2, "locks left by relative seat, ÷ 5")
        self._o_stock = layout.block("stock_count", 1, "cards in the draw pile, ÷ 100", _UNBOUNDED)
        self._o_target = layout.block("target_score", 1, "the option target_score, ÷ 100", _UNBOUNDED)

    def _deck(self, options: Mapping[str, Any]) -> array[float]:
        """The count of each card in the deck that ``options`` make."""
        key = tuple(options.get(k) for k in _DECK_KEYS)
        found = self._decks.get(key)
        if found is None:
            counts = Counter(sb.silver_bars_deck(options))
            found = array("f", [counts[c] for c in self.CARDS])
            self._decks[key] = found
        return found

    # The state path remembers what it counted, so that a match played move by
    # move recounts only what changed.  Each memory keeps the lists it was made
    # from and is used only while they hold the same cards, so it is never stale.

    def _pile(self, pile: list[Card]) -> array[float]:
        """The counts of the discard pile (it only grows during a round)."""
        pos = self._pos
        done = self._piles.get(id(pile))
        if done is not None and done.source is pile:
            cards = done.cards
            seen = len(cards)
            if len(pile) >= seen and pile[:seen] == cards:
                counts = done.counts
                for c in pile[seen:]:
                    counts[pos[c]] += 1.0
                    cards.append(c)
                return counts
        counts = array("f", bytes(4 * len(self.CARDS)))
        for c in pile:
            counts[pos[c]] += 1.0
        if len(self._piles) >= 64:
            self._piles.clear()
        self._piles[id(pile)] = _Counted(pile, pile[:], counts)
        return counts

    def _stock(self, stock: list[Card], at: int) -> array[float]:
        """The counts of the draw pile from ``at`` on.  The engine never changes a
        round's stock list (only the position moves), so the list itself is the key."""
        pos = self._pos
        done = self._stocks.get(id(stock))
        if done is not None and done[0] is stock:
            was, counts = done[1], done[2]
            if was == at:
                return counts
            if at > was:
                for c in stock[was:at]:
                    counts[pos[c]] -= 1.0
            else:
                for c in stock[at:was]:
                    counts[pos[c]] += 1.0
        else:
            counts = array("f", bytes(4 * len(self.CARDS)))
            for c in stock[at:]:
                counts[pos[c]] += 1.0
            if len(self._stocks) >= 64:
                self._stocks.clear()
        self._stocks[id(stock)] = (stock, at, counts)
        return counts

    def _side(self, vaults: list[list[Card]], rubble: list[Card | None], states: list[int]) -> _Side:
        """One seat's vault blocks: states, card counts, bars and sizes; only the
        vaults that changed since the last call for the same vaults are recounted."""
        done = self._sides.get(id(vaults))
        if done is not None and done.source is vaults:
            if done.states == states and done.vaults == vaults and done.rubble == rubble:
                return done
            changed = [i for i in range(5) if states[i] != done.states[i] or vaults[i] != done.vaults[i]
                       or rubble[i] is not done.rubble[i]]
            one_hot, cards_in, bars, sizes = done.blocks
        else:
            changed = list(range(5))
            one_hot = array("f", bytes(4 * 5 * len(sb.VAULT_STATES)))
            cards_in = array("f", bytes(4 * len(self.CARDS)))
            bars = array("f", bytes(4 * 5))
            sizes = array("f", bytes(4 * 5))
            done = _Side(vaults, [[], [], [], [], []], [None] * 5, [sb.EMPTY] * 5, (one_hot, cards_in, bars, sizes))
            one_hot[:] = array("f", [1.0 if i % len(sb.VAULT_STATES) == 0 else 0.0 for i in range(len(one_hot))])
            if len(self._sides) >= 64:
                self._sides.clear()
            self._sides[id(vaults)] = done
        pos = self._pos
        nv = len(sb.VAULT_STATES)
        bar_value = sb.BAR_VALUE
        for i in changed:
            one_hot[i * nv + _VAULT_STATE_INDEX[done.states[i]]] = 0.0
            one_hot[i * nv + _VAULT_STATE_INDEX[states[i]]] = 1.0
            done.states[i] = states[i]
            for c in done.vaults[i]:
                cards_in[pos[c]] -= 1.0
            cards = vaults[i]
            total = 0
            for c in cards:
                cards_in[pos[c]] += 1.0
                total += bar_value[c]
            done.vaults[i] = list(cards)
            bars[i] = total / 20
            sizes[i] = len(cards) / 10
            old = done.rubble[i]
            if old is not None:
                cards_in[pos[old]] -= 1.0
            covering = rubble[i]
            if covering is not None:
                cards_in[pos[covering]] += 1.0
            done.rubble[i] = covering
        return done

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._tpos
        n = len(self.CARDS)
        nv = len(sb.VAULT_STATES)
        deck = self._deck(obs["options"])
        unseen = self._o_unseen
        for i in range(n):
            out[unseen + i] = deck[i]
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] += 1.0
            out[unseen + pos[c]] -= 1.0
        for k, s in ((0, seat), (1, 1 - seat)):
            for i, vault in enumerate(obs["vaults"][s]):
                cards = [_CARD_BY_TEXT[c] for c in vault["cards"]]
                state = sb.vault_state(cards, vault["rubble"] is not None, vault["locked"])
                out[self._o_vaults + (k * 5 + i) * nv + _VAULT_STATE_INDEX[state]] = 1.0
                for c in vault["cards"] + ([vault["rubble"]] if vault["rubble"] is not None else []):
                    out[self._o_vault_cards + k * n + pos[c]] += 1.0
                    out[unseen + pos[c]] -= 1.0
                out[self._o_bars + k * 5 + i] = sb.vault_bars(cards) / 20
                out[self._o_sizes + k * 5 + i] = len(cards) / 10
        for c in obs["discard_pile"]:
            out[self._o_discard + pos[c]] += 1.0
            out[unseen + pos[c]] -= 1.0
        strike = obs["strike"]
        if strike is not None:
            out[self._o_strike + (strike["against"] ^ seat)] = 1.0
            out[unseen + pos[strike["card"]]] -= 1.0
        out[self._o_dealer + (obs["dealer"] ^ seat)] = 1.0
        locks = obs["locks_left"]
        out[self._o_locks] = locks[seat] / 5
        out[self._o_locks + 1] = locks[1 - seat] / 5
        out[self._o_stock] = obs["stock_count"] / 100
        out[self._o_target] = obs["options"]["target_score"] / 100

    def _from_state(self, state: sb.SilverBarsState, seat: int, out: array[float]) -> None:
        pos = self._pos
        n = len(self.CARDS)
        nv5 = 5 * len(sb.VAULT_STATES)
        other = 1 - seat
        o = self._o_discard
        out[o:o + n] = self._pile(state.discard_pile)
        # The unseen cards are the opponent's hand and the draw pile: a multiset that
        # the observation fixes (the deck less every card seen), read here from where
        # the cards lie because that is quicker.  The tests check it is the same.
        o = self._o_unseen
        out[o:o + n] = self._stock(state.stock, state.stock_pos)
        for c in state.hands[other]:
            out[o + pos[c]] += 1.0
        o = self._o_hand
        for c in state.hands[seat]:
            out[o + pos[c]] += 1.0
        for k, s in ((0, seat), (1, other)):
            one_hot, cards_in, bars, sizes = self._side(state.vaults[s], state.rubble[s], state.vstate[s]).blocks
            o = self._o_vaults + k * nv5
            out[o:o + nv5] = one_hot
            o = self._o_vault_cards + k * n
            out[o:o + n] = cards_in
            o = self._o_bars + k * 5
            out[o:o + 5] = bars
            o = self._o_sizes + k * 5
            out[o:o + 5] = sizes
        if state.strike is not None:
            out[self._o_strike + (state.strike_against ^ seat)] = 1.0  # type: ignore[operator]
        out[self._o_dealer + (state.first ^ (len(state.history) & 1) ^ seat ^ 1)] = 1.0
        locked = state.locked
        out[self._o_locks] = (5 - locked[seat]) / 5
        out[self._o_locks + 1] = (5 - locked[other]) / 5
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 100
        out[self._o_target] = state.options["target_score"] / 100


# -- the registry ------------------------------------------------------------------------

@functools.cache
def _space(game_id: str) -> GameSpace:
    """The space class that the game's registry entry names, made once."""
    maker: Callable[[], GameSpace] = games.entry(game_id).load_space()
    return maker()


def space(game_id: str, options: dict[str, Any] | None = None) -> GameSpace:
    """The :class:`GameSpace` of ``game_id``, built once and shared.

    ``options`` are checked (an unknown option or a bad value raises
    :class:`~parlour.game.OptionError`), but no option of any game changes
    the action table or the vector's shape: 100 Silver Bars' deck options
    change how many copies of each card there are, never which cards, and
    the vector reads the deck from the observation's options.
    """
    if options:
        games.get(game_id).check_options(options)
    return _space(game_id)


def actions_markdown() -> str:
    """Every game's observation layout and action table as one Markdown page
    (``docs/envs/actions.md`` is this, and a test keeps it so)."""
    parts = [
        "# Action tables and observation layouts", "",
        "Generated by `parlour.envs.spaces.actions_markdown()` from each game's `GameSpace`",
        "(`layout_table()` and `table()`); the same for every rule option of a game.",
        "In the observation, seats are relative: block 0 is the observing seat, 1 the next",
        "seat in turn order, and so on.", "",
        "## Observation layouts", "",
    ]
    family = [e.id for e in games.FAMILY if e.space is not None]
    parts += [space(g).layout_table() for g in family]
    parts += ["## Action tables", ""]
    parts += [space(g).table() for g in family]
    return "\n".join(parts)
