"""Fixed action tables and fixed-shape observation vectors, one pair per game.

Every reinforcement-learning adapter (PettingZoo, Gymnasium, OpenSpiel) sees
a game through a :class:`GameSpace`:

* an **action table**: one discrete index per move that any position of the
  game can offer (``actions[i]`` is a :class:`~parlour.game.Move`,
  ``index[move]`` its index), the same for every rule option;
* an **observation vector**: ``float32`` of shape ``obs_shape``, made from one
  seat's :meth:`~parlour.game.State.observation` only (:meth:`GameSpace.encode`),
  or straight from a state for speed (:meth:`GameSpace.encode_state`, which
  gives exactly the same vector and shows nothing the seat may not see).

The vector is written from the observer's point of view: wherever it has one
block per seat, block 0 is the observer, block 1 the next seat in turn order
(seat + 1), and so on.  Most blocks are small whole numbers (one-hot planes
over the game's cards, card counts, flags); the rest are scaled numbers
(stock size, scores, totals …).  :meth:`GameSpace.layout` lists every block
with its offset and range; ``docs/envs/pettingzoo.md`` prints them.

Card planes have one entry per card of the game in card-code order (rank,
then suit: ``2C 2D 2H 2S 3C …``); 100 Silver Bars' twins share one entry,
which then holds a count.

**How** :meth:`GameSpace.encode_state` **is fast.**  The first time it meets a
state (or a new round of it), it writes the seat's vector straight from the
state.  From the next call on, it keeps for that state a *picture* of the table: every block of every seat at once,
with seats counted from seat 0 rather than from an observer, and a copy of
each hand and pile it was written from.  A call first replays the moves made
since the last one on those copies (a card played leaves the mover's hand
and goes where the move says, a draw adds the draw pile's next card),
writing only the entries they change; then it compares every copy with the
state (list comparisons, which Python makes in C) and mends any that differ
— after an undo, a card swapped by a search, a move the replay does not
follow — and rewrites the few numbers that changed.  So a step costs a few
writes, not a pass over every card on the table, and the picture is exact
however the state was changed.  A seat's vector is then taken out of the
picture by one fixed index array per seat (:meth:`_Layout.gather`), which
puts the seats in the observer's order and takes the observer's own hand
and nothing of another seat's hidden cards.  Pictures are kept by the
state's ``id`` for up to :data:`_PICTURES` states; they are not shared safely
between threads that use the same state at once (a state is not either).  The
tests hold both paths equal to :meth:`GameSpace.encode` of the seat's
observation, and to the vectors the encoder gave before it kept pictures.

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
from parlour.game import Move, Observation, State
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
_INT8 = np.dtype(np.int8)
_PICTURES = 1024
"""States whose pictures (a few kilobytes each) are kept at once; past that, all are dropped
and made again as states are met again (an environment's one state is met every step)."""

_OWN = (0,)
"""``seats`` of a block that holds the observer's own part only (its hand)."""


class _Layout:
    """Allocates the blocks of the vector, in order, and their places in the picture.

    A block is either the same for every seat (``seats=()``), or made of
    parts that belong to seats: the picture holds one part per seat (seat 0
    first) and a seat's vector holds the parts of the seats ``seats`` counted
    from it (``(0, 1)``: its own, then the next seat's; :data:`_OWN`: its own
    only).
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.every = tuple(range(players))
        """``seats`` of a block with every seat's part, the observer's first."""
        self.segments: list[Segment] = []
        self.size = 0
        self.picture = 0
        """The size of the picture."""
        self._places: list[tuple[int, int, tuple[int, ...]]] = []

    def block(self, name: str, size: int, doc: str, high: float = 1.0, low: float = 0.0) -> int:
        """Add a block of ``size`` entries; return its offset in the vector (what a plug-in's
        space, which draws no picture, asks: see :meth:`place`)."""
        return self.place(name, size, doc, high, low)[0]

    def place(self, name: str, size: int, doc: str, high: float = 1.0, low: float = 0.0,
              seats: tuple[int, ...] = ()) -> tuple[int, int]:
        """Add a block of ``size`` entries (of ``size`` per seat in ``seats``); return its
        offset in the vector and in the picture (where seat ``s``'s part starts ``s * size`` on)."""
        offset, at = self.size, self.picture
        whole = size * max(1, len(seats))
        self.segments.append(Segment(name, offset, whole, low, high, doc))
        self._places.append((at, size, seats))
        self.size += whole
        self.picture += size * (self.players if seats else 1)
        return offset, at

    def public_gather(self) -> npt.NDArray[np.intp]:
        """Where each entry of the public vector is in the picture: every block that holds every
        seat's part, in seat order (seat 0 first), and every block the same for all.  Blocks of
        some seats only (the observer's hand, what it has not seen) are private and left out."""
        where: list[int] = []
        for at, size, seats in self._places:
            if not seats or len(seats) == self.players:
                where += range(at, at + size * (self.players if seats else 1))
        return np.array(where, dtype=np.intp)

    def private_gather(self, seat: int) -> npt.NDArray[np.intp]:
        """Where each entry of ``seat``'s private vector is in the picture: the blocks of its own
        part only (:data:`_OWN`: its hand, and what it has not seen)."""
        where: list[int] = []
        for at, size, seats in self._places:
            if seats == _OWN:
                part = at + seat * size
                where += range(part, part + size)
        return np.array(where, dtype=np.intp)

    def gather(self, seat: int) -> npt.NDArray[np.intp]:
        """Where each entry of ``seat``'s vector is in the picture."""
        where: list[int] = []
        for at, size, seats in self._places:
            if not seats:
                where += range(at, at + size)
            for k in seats:
                part = at + (seat + k) % self.players * size
                where += range(part, part + size)
        return np.array(where, dtype=np.intp)


def _follow(seen: list[Card], now: list[Card]) -> tuple[Sequence[Card], Sequence[Card]]:
    """Make the copy ``seen`` hold what ``now`` holds; return the cards that left it and
    the cards that came (twins counted).

    Quick for what moves do: cards put on top (a pile grows, a card is
    drawn), taken off the top (a take), one card taken out from anywhere
    with cards put on top (a card played, and the card drawn for it);
    anything else is every card of ``seen`` leaving and every card of
    ``now`` coming.  Cards leave before they come: a card in both lists
    leaves and comes back.
    """
    had = len(seen)
    if len(now) >= had and now[:had] == seen:
        came = now[had:]
        seen += came
        return (), came
    if len(now) < had and seen[:len(now)] == now:
        gone = seen[len(now):]
        del seen[len(now):]
        return gone, ()
    first = 0
    for a, b in zip(seen, now):
        if a != b:
            break
        first += 1
    if now[first:had - 1] == seen[first + 1:]:
        taken = seen.pop(first)
        came = now[had - 1:]
        seen += came
        return (taken,), came
    gone = seen[:]
    seen[:] = now
    return gone, now


def _show(values: array[float], at: int, pos: list[int], seen: list[Card], now: list[Card]) -> None:
    """Make the copy ``seen`` hold what ``now`` holds, and the one-hot card plane at ``at``
    (where card ``c`` is at ``pos[c]``, shown by no other copy) show it."""
    gone, came = _follow(seen, now)
    for c in gone:
        values[at + pos[c]] = 0.0
    for c in came:
        values[at + pos[c]] = 1.0


def _count(values: array[float], at: int, pos: list[int], seen: list[Card], now: list[Card]) -> None:
    """Make the copy ``seen`` hold what ``now`` holds, and the card counts at ``at`` (where
    card ``c`` is at ``pos[c]``; other copies may count there too) follow."""
    gone, came = _follow(seen, now)
    for c in gone:
        values[at + pos[c]] -= 1.0
    for c in came:
        values[at + pos[c]] += 1.0


class _Met:
    """A state met once in this round (``history`` and its length, as :class:`_Picture` keeps them):
    the next call for it makes its picture."""

    __slots__ = ("history", "rounds")

    def __init__(self, state: State) -> None:
        self.history = state.history
        self.rounds = len(state.history)


class _Picture:
    """Every seat's blocks for one state, with what they were written from (see the module docstring).

    ``values`` is the picture (``view``: the same memory as a numpy array).  The
    picture belongs to one round of one match: its ``history`` (the list, kept
    alive by the picture so that no other state can have it, and its length)
    is checked before every use; a new round gets a new picture.  Each game's
    picture adds copies of its hands and piles.  Before anything was written,
    each copy is empty, so the first comparison with the state writes everything.
    """

    __slots__ = ("history", "over", "rounds", "scores", "to_move", "values", "view")

    def __init__(self, space: GameSpace, state: State) -> None:
        self.values = space._blank[:]
        self.view = np.frombuffer(self.values, _FLOAT32)
        self.history = state.history
        self.rounds = len(state.history)
        self.scores: list[int] = []
        self.to_move: int | None = None
        self.over: bool | None = None


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
        layout = _Layout(self.players)
        every = layout.every
        self._o_turn, self._p_turn = layout.place(
            "to_move", 1, "whose turn it is, by relative seat (0: the observer)", seats=every)
        self._o_over, self._p_over = layout.place("over", 2, "round over, match over")
        self._o_round, self._p_round = layout.place("round", 1, "round number − 1, ÷ 10", _UNBOUNDED)
        self._o_scores, self._p_scores = layout.place(
            "scores", 1, "this round's scores by relative seat, ÷ 100", _UNBOUNDED, -_UNBOUNDED, seats=every)
        self._o_totals, self._p_totals = layout.place(
            "totals", 1, "match totals by relative seat, ÷ 100", _UNBOUNDED, -_UNBOUNDED, seats=every)
        self._build(layout)
        self._tabulate()
        self._segments = layout.segments
        size = layout.size
        self.obs_shape = (size,)
        self._zeros = array("f", bytes(4 * size))
        self._blank = array("f", bytes(4 * layout.picture))
        self._gather = [layout.gather(seat) for seat in range(self.players)]
        self._public = layout.public_gather()
        self._private = [layout.private_gather(seat) for seat in range(self.players)]
        self.public_size = len(self._public)
        """Entries of :meth:`encode_public`."""
        self.private_size = len(self._private[0])
        """Entries of :meth:`encode_private`."""
        self._pictures: dict[int, _Picture | _Met] = {}
        self._pictured = type(self)._new_picture is not GameSpace._new_picture
        """Whether the game draws pictures: a plug-in's space may give only :meth:`_from_state`."""
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
        """The same as :meth:`_from_observation`, read straight from a state."""
        raise NotImplementedError

    def _tabulate(self) -> None:
        """Tables the game's picture needs, built once its blocks are laid out."""

    def _new_picture(self, state: Any) -> _Picture:
        """A picture for ``state``'s round, with the blocks that stay the same all round written."""
        raise NotImplementedError

    def _sync(self, state: Any, picture: Any, settled: bool) -> None:
        """Bring the game's own blocks of ``picture`` up to date with ``state`` (``settled``:
        the round's standing was just rewritten, see :meth:`_sync_table`)."""
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
        """The vector of ``state.observation(seat)``, without building the observation:
        taken out of the state's picture, brought up to date first (see the module docstring)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        if not self._pictured:
            return self._encode_directly(state, seat)
        pictures = self._pictures
        picture = pictures.get(id(state))
        history = state.history
        if picture is None or picture.history is not history or picture.rounds != len(history):
            # Met for the first time (or in a new round): a picture pays for itself only from
            # the next call on, so this one is read straight from the state.
            if len(pictures) >= _PICTURES:
                pictures.clear()
            pictures[id(state)] = _Met(state)
            return self._encode_directly(state, seat)
        if isinstance(picture, _Met):
            picture = pictures[id(state)] = self._new_picture(state)
        self._sync(state, picture, self._sync_table(state, picture))
        return picture.view[self._gather[seat]]

    def encode_public(self, state: State) -> npt.NDArray[np.float32]:
        """What everyone sees of ``state``, the same for every seat: the public blocks of the
        picture, every seat's part in seat order (seat 0 first), no hand and nothing a seat
        alone knows (see :meth:`_Layout.public_gather`).  A copy."""
        return self._picture_of(state).view[self._public]

    def encode_private(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` alone sees of ``state``: its own blocks only (its hand, and in 100 Silver
        Bars the cards it has not seen).  A copy."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return self._picture_of(state).view[self._private[seat]]

    def _picture_of(self, state: State) -> _Picture:
        """``state``'s picture, made now if need be and brought up to date."""
        if not self._pictured:
            raise NotImplementedError(f"{self.game_id}'s space draws no picture: it has no public or private parts")
        picture = self._pictures.get(id(state))
        if not isinstance(picture, _Picture) or picture.history is not state.history \
                or picture.rounds != len(state.history):
            if len(self._pictures) >= _PICTURES:
                self._pictures.clear()
            picture = self._pictures[id(state)] = self._new_picture(state)
        self._sync(state, picture, self._sync_table(state, picture))
        return picture

    def _encode_directly(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s vector written straight from ``state``, block by block (no picture)."""
        p = self.players
        out = self._zeros[:]
        to_move = state.current_player()
        over = to_move is None and state.is_round_over()
        if to_move is not None:
            out[self._o_turn + (to_move - seat) % p] = 1.0
        elif over:
            out[self._o_over] = 1.0
            if state.is_match_over():
                out[self._o_over + 1] = 1.0
        history = state.history
        scores = state.scores
        for k in range(p):
            out[self._o_scores + k] = scores[(seat + k) % p] / _SCORE
        if history or over:
            out[self._o_round] = len(history) / 10
            totals = [0] * p
            for result in history:
                for s, points in enumerate(result.scores):
                    totals[s] += points
            if over:
                totals = [t + s for t, s in zip(totals, scores)]
            for k in range(p):
                out[self._o_totals + k] = totals[(seat + k) % p] / _SCORE
        self._from_state(state, seat, out)
        return np.frombuffer(out, _FLOAT32)

    def _sync_table(self, state: State, picture: _Picture) -> bool:
        """The shared blocks; True when the round's standing (round over, match over, the
        round number and the totals) was rewritten: in a new picture, when the round ends
        or is taken back by undo, and when its scores change once it is over."""
        values = picture.values
        scores = state.scores
        scored = scores != picture.scores
        if scored:
            at = self._p_scores
            for seat, points in enumerate(scores):
                values[at + seat] = points / _SCORE
            picture.scores = list(scores)
        to_move = state.current_player()
        if to_move == picture.to_move:
            if not scored:  # the round's standing changes only with whose turn it is or the scores
                return False
        else:
            if picture.to_move is not None:
                values[self._p_turn + picture.to_move] = 0.0
            if to_move is not None:
                values[self._p_turn + to_move] = 1.0
            picture.to_move = to_move
        over = to_move is None and state.is_round_over()
        if over == picture.over and not (over and scored):
            return False
        picture.over = over
        values[self._p_over] = 1.0 if over else 0.0
        values[self._p_over + 1] = 1.0 if over and state.is_match_over() else 0.0
        history = state.history
        values[self._p_round] = len(history) / 10
        totals = [0] * self.players
        for result in history:
            for seat, points in enumerate(result.scores):
                totals[seat] += points
        if over:
            totals = [t + s for t, s in zip(totals, scores)]
        at = self._p_totals
        for seat, total in enumerate(totals):
            values[at + seat] = total / _SCORE
        return True

    def mask(self, legal: Sequence[Move]) -> npt.NDArray[np.int8]:
        """``int8`` of ``num_actions``: 1 for the indices of the ``legal`` moves."""
        buf = bytearray(self._no_moves)
        index = self.index
        for move in legal:
            buf[index[move]] = 1
        return np.frombuffer(buf, _INT8)

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


# -- the play-then-draw turn (Minus Twenty, Progression) ----------------------------------

class _TurnPicture(_Picture):
    """A play-then-draw round's picture: copies of the hands, each seat's own piles, the
    face-up piles and the marks of the cards that have lain on a face-up pile."""

    __slots__ = ("drawn", "hands", "left", "moved", "moves", "on_pile", "own", "piles", "played", "seat", "stall",
                 "step")

    def __init__(self, space: GameSpace, state: Any) -> None:
        super().__init__(space, state)
        p = space.players
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        """How many of the round's ``moves`` the copies have followed (a new picture starts
        empty, and its first comparison with the state fills it, so it replays none)."""
        self.seat = -1
        """The seat to move when the copies were last brought up to date (−1: never)."""
        self.drawn = -1
        """The draw pile's position then."""
        self.hands: list[list[Card]] = [[] for _ in range(p)]
        self.own: list[list[list[Card]]] = [[[], [], [], []] for _ in range(p)]
        self.piles: list[list[Card]] = [[], [], [], []]
        self.on_pile: list[bool] = list(state.was_on_pile)
        self.step = -1
        self.played = -1
        self.stall = 0
        self.left = -1


class _TurnSpace(GameSpace):
    """The blocks Minus Twenty and Progression share, read from their common machine
    (:class:`~parlour.games._base.PlayThenDraw`): the step of the turn, the observer's
    hand, the cards each seat is known to hold, each seat's own piles (melds, private
    stacks), the face-up piles and their tops, the face-up pile played to this turn,
    the starter, the hand sizes, the draw pile and the stall count.  Each game names
    its blocks in :meth:`_build` and says where each card goes in a plane (``_pos``)."""

    CARDS: tuple[Card, ...]
    _pos: list[int]
    _stock_scale: int
    """The draw pile's size is divided by this."""
    _o_step: int
    _p_step: int
    _o_hand: int
    _p_hand: int
    _o_known: int
    _p_known: int
    _o_own: int
    _p_own: int
    _o_piles: int
    _p_piles: int
    _o_tops: int
    _p_tops: int
    _o_played: int
    _p_played: int
    _o_starter: int
    _p_starter: int
    _o_sizes: int
    _p_sizes: int
    _o_stock: int
    _p_stock: int
    _o_stall: int
    _p_stall: int

    def _starter(self, state: Any) -> int:
        """The round's starter."""
        raise NotImplementedError

    def _settle(self, state: Any, picture: _TurnPicture) -> None:
        """The game's own blocks of the round's standing (see :meth:`GameSpace._sync_table`)."""

    def _from_state(self, state: Any, seat: int, out: array[float]) -> None:
        pos = self._pos
        n = len(self.CARDS)
        p = self.players
        if not state._over:
            out[self._o_step + state.drawing] = 1.0
        hands, own, was_on_pile = state.hands, state.own, state.was_on_pile
        base = self._o_hand
        for c in hands[seat]:
            out[base + pos[c]] = 1.0
        for k in range(p):
            s = (seat + k) % p
            hand = hands[s]
            base = self._o_known + k * n
            for c in hand:
                if was_on_pile[c]:
                    out[base + pos[c]] = 1.0
            base = self._o_own + k * n
            for pile in own[s]:
                for c in pile:
                    out[base + pos[c]] = 1.0
            out[self._o_sizes + k] = len(hand) / 10
        base, tops = self._o_piles, self._o_tops
        for pile in state.piles:
            if pile:
                for c in pile:
                    out[base + pos[c]] = 1.0
                out[tops + pos[pile[-1]]] = 1.0
        if state.pile_played >= 0:
            out[self._o_played + state.pile_played] = 1.0
        out[self._o_starter + (self._starter(state) - seat) % p] = 1.0
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / self._stock_scale
        if state.stall:
            out[self._o_stall] = state.stall / 60

    def _tabulate(self) -> None:
        """Where each card is in the picture's planes, by card code (and seat), built once."""
        pos = self._pos
        n = len(self.CARDS)

        def plane(at: int) -> list[int]:  # −1 for a card the game does not have (never written)
            return [at + pos[c] if pos[c] >= 0 else -1 for c in range(len(pos))]

        seats = range(self.players)
        self._at_hand = [plane(self._p_hand + seat * n) for seat in seats]
        self._at_known = [plane(self._p_known + seat * n) for seat in seats]
        self._at_own = [plane(self._p_own + seat * n) for seat in seats]
        self._at_pile = plane(self._p_piles)
        self._at_top = plane(self._p_tops)

    def _new_picture(self, state: Any) -> _Picture:
        picture = _TurnPicture(self, state)
        picture.values[self._p_starter + self._starter(state)] = 1.0
        return picture

    def _replay(self, state: Any, picture: _TurnPicture) -> None:
        """Make the moves made since the picture was last brought up to date on its copies,
        and write what they change: a card played or put on a face-up pile leaves the
        mover's hand, a draw adds the draw pile's next card, a take the pile's top card.

        This only saves comparing whole hands and piles: :meth:`_sync` then compares
        every copy with the state and mends any that differ (after an undo, a card swapped
        by a search, a draw pile arranged by a referee), so the guesses need not be right.
        Each move changes a copy only once it is sure to be written in full.
        """
        moves = state.moves
        same, done, seat, drawn = moves is picture.moves, picture.moved, picture.seat, picture.drawn
        picture.moves, picture.moved, picture.seat, picture.drawn = moves, len(moves), state.to_move, state.stock_pos
        if not same or len(moves) <= done or seat < 0:
            return
        values = picture.values
        stock = state.stock
        was_on_pile = state.was_on_pile
        hands, piles = picture.hands, picture.piles
        at_hand, at_known, at_own = self._at_hand, self._at_known, self._at_own
        at_pile, at_top = self._at_pile, self._at_top
        sizes = self._p_sizes
        hand, mine, known = hands[seat], at_hand[seat], at_known[seat]
        for verb, args in moves[done:]:
            if verb == "draw":
                if drawn >= len(stock):
                    return
                card = stock[drawn]
                drawn += 1
            elif verb == "take":
                pile = piles[_SUIT_INDEX[args[0]]]
                if not pile:
                    return
                card = pile.pop()
                values[at_pile[card]] = 0.0
                values[at_top[card]] = 0.0
                if pile:
                    values[at_top[pile[-1]]] = 1.0
            else:  # play, or onto a face-up pile
                card = args[0]
                if card not in hand:
                    return
                hand.remove(card)
                values[mine[card]] = 0.0
                values[known[card]] = 0.0
                values[sizes + seat] = len(hand) / 10
                if verb == "play":
                    picture.own[seat][card & 3].append(card)
                    values[at_own[seat][card]] = 1.0
                else:
                    pile = piles[card & 3]
                    if pile:
                        values[at_top[pile[-1]]] = 0.0
                    pile.append(card)
                    values[at_pile[card]] = 1.0
                    values[at_top[card]] = 1.0
                    picture.on_pile[card] = True
                continue
            hand.append(card)
            values[mine[card]] = 1.0
            if was_on_pile[card]:
                values[known[card]] = 1.0
            values[sizes + seat] = len(hand) / 10
            seat = (seat + 1) % self.players
            hand, mine, known = hands[seat], at_hand[seat], at_known[seat]

    def _sync(self, state: Any, picture: _TurnPicture, settled: bool) -> None:
        if settled:
            self._settle(state, picture)
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            self._replay(state, picture)
        if (state.hands != picture.hands or state.piles != picture.piles or state.own != picture.own
                or state.was_on_pile != picture.on_pile):
            self._mend(state, picture)
        values = picture.values
        step = -1 if state._over else state.drawing  # play, draw: 0, 1 (False, True)
        if step != picture.step:
            if picture.step >= 0:
                values[self._p_step + picture.step] = 0.0
            if step >= 0:
                values[self._p_step + step] = 1.0
            picture.step = step
        played = state.pile_played
        if played != picture.played:
            if picture.played >= 0:
                values[self._p_played + picture.played] = 0.0
            if played >= 0:
                values[self._p_played + played] = 1.0
            picture.played = played
        if state.stall != picture.stall:
            picture.stall = state.stall
            values[self._p_stall] = state.stall / 60
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / self._stock_scale

    def _mend(self, state: Any, picture: _TurnPicture) -> None:
        """Bring the copies of the hands and piles that differ from the state's (and the
        planes they show) up to date, card by card."""
        values = picture.values
        at_hand, at_known, at_own = self._at_hand, self._at_known, self._at_own
        at_pile, at_top = self._at_pile, self._at_top
        for suit, pile in enumerate(state.piles):
            seen = picture.piles[suit]
            if pile != seen:
                if seen:
                    values[at_top[seen[-1]]] = 0.0
                gone, came = _follow(seen, pile)
                for c in gone:
                    values[at_pile[c]] = 0.0
                for c in came:
                    values[at_pile[c]] = 1.0
                    picture.on_pile[c] = True  # it lies on a face-up pile, so it has
                if pile:
                    values[at_top[pile[-1]]] = 1.0
        was_on_pile = state.was_on_pile
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = _follow(seen, hand)
                mine, known = at_hand[seat], at_known[seat]
                for c in gone:
                    values[mine[c]] = 0.0
                    values[known[c]] = 0.0
                for c in came:
                    values[mine[c]] = 1.0
                    if was_on_pile[c]:
                        values[known[c]] = 1.0
                values[self._p_sizes + seat] = len(hand) / 10
        if was_on_pile != picture.on_pile:
            # A mark changed other than by a card coming onto a face-up pile (undo, or from
            # outside): a card that stayed in a hand may have changed, so read every hand again.
            for seat, hand in enumerate(picture.hands):
                known = at_known[seat]
                for c in hand:
                    values[known[c]] = 1.0 if was_on_pile[c] else 0.0
            picture.on_pile = list(was_on_pile)
        for seat, piles_of_seat in enumerate(state.own):
            copies = picture.own[seat]
            for suit, pile in enumerate(piles_of_seat):
                seen = copies[suit]
                if pile != seen:
                    gone, came = _follow(seen, pile)
                    for c in gone:
                        values[at_own[seat][c]] = 0.0
                    for c in came:
                        values[at_own[seat][c]] = 1.0


# -- Minus Twenty --------------------------------------------------------------------

class MinusTwentySpace(_TurnSpace):
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
    _stock_scale = 48

    def __init__(self) -> None:
        actions = [mt.PLAY[c] for c in self.CARDS] + [mt.DISCARD[c] for c in self.CARDS]
        actions += [mt.DRAW, *mt.TAKE]
        self._pos = _plane_positions(self.CARDS)
        self._tpos = _text_positions(self._pos)
        super().__init__("minus-twenty", actions)

    def _build(self, layout: _Layout) -> None:
        n = len(self.CARDS)
        every = layout.every
        self._o_step, self._p_step = layout.place("step", 2, "the step of the turn: play, draw")
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand", seats=_OWN)
        self._o_known, self._p_known = layout.place(
            "known", n, "cards each seat is known to hold, by relative seat", seats=every)
        self._o_own, self._p_own = layout.place("melds", n, "each seat's melds, by relative seat", seats=every)
        self._o_piles, self._p_piles = layout.place("discard_piles", n, "cards in the discard piles")
        self._o_tops, self._p_tops = layout.place("discard_tops", n, "the top card of each discard pile")
        self._o_played, self._p_played = layout.place(
            "discarded", 4, "the suit discarded onto this turn (C D H S)")
        self._o_starter, self._p_starter = layout.place(
            "starter", 1, "the round's starter, by relative seat", seats=every)
        self._o_sizes, self._p_sizes = layout.place(
            "hand_sizes", 1, "hand sizes by relative seat, ÷ 10", _UNBOUNDED, seats=every)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the draw pile, ÷ 48")
        self._o_stall, self._p_stall = layout.place(
            "stall_count", 1, "turns in a row that took a discard, ÷ 60", _UNBOUNDED)
        self._o_won, self._p_won = layout.place(
            "rounds_won", 1, "rounds won by relative seat, ÷ 10", _UNBOUNDED, seats=every)

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
                    out[self._o_own + k * n + pos[c]] = 1.0
        for pile in obs["discard_piles"].values():
            for c in pile:
                out[self._o_piles + pos[c]] = 1.0
            if pile:
                out[self._o_tops + pos[pile[-1]]] = 1.0
        if obs["discarded"] is not None:
            out[self._o_played + _SUIT_INDEX[obs["discarded"][-1]]] = 1.0
        out[self._o_starter + (obs["starters"][-1] ^ seat)] = 1.0
        sizes, won = obs["hand_sizes"], obs["rounds_won"]
        out[self._o_sizes] = sizes[seat] / 10
        out[self._o_sizes + 1] = sizes[other] / 10
        out[self._o_stock] = obs["stock_count"] / 48
        out[self._o_stall] = obs["stall_count"] / 60
        out[self._o_won] = won[seat] / 10
        out[self._o_won + 1] = won[other] / 10

    def _starter(self, state: mt.MinusTwentyState) -> int:
        return state.starter

    def _from_state(self, state: mt.MinusTwentyState, seat: int, out: array[float]) -> None:
        super()._from_state(state, seat, out)
        if state.history or state._over:
            won = state.rounds_won()
            out[self._o_won] = won[seat] / 10
            out[self._o_won + 1] = won[1 - seat] / 10

    def _settle(self, state: mt.MinusTwentyState, picture: _TurnPicture) -> None:
        won = state.rounds_won() if state.history or state._over else [0, 0]
        for seat in (0, 1):
            picture.values[self._p_won + seat] = won[seat] / 10


# -- Progression ---------------------------------------------------------------------

class ProgressionSpace(_TurnSpace):
    """Progression: 109 actions (``play`` ×52, ``public`` ×52, ``draw``, ``take`` ×4).

    Card planes have 52 entries (AC … KS).  Blocks after the shared ones:
    the step (play, draw); the observer's hand; the cards each seat is known
    to hold (taken from a public stack), by relative seat; each seat's
    private stacks; the cards on the public stacks and the top card of
    each; the public stack played to this turn; the round's starter; then
    scaled: hand sizes (÷ 10), the draw pile (÷ 37), the stall count (÷ 60).
    """

    CARDS = pg.DECK
    _stock_scale = 37

    def __init__(self) -> None:
        actions = [*pg.PLAY, *pg.PUBLIC, pg.DRAW, *pg.TAKE]
        self._pos = _plane_positions(self.CARDS)
        self._tpos = _text_positions(self._pos)
        super().__init__("progression", actions)

    def _build(self, layout: _Layout) -> None:
        n = 52
        every = layout.every
        self._o_step, self._p_step = layout.place("step", 2, "the step of the turn: play, draw")
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand", seats=_OWN)
        self._o_known, self._p_known = layout.place(
            "known", n, "cards each seat is known to hold, by relative seat", seats=every)
        self._o_own, self._p_own = layout.place(
            "private_stacks", n, "each seat's private stacks, by relative seat", seats=every)
        self._o_piles, self._p_piles = layout.place("public_stacks", n, "cards on the public stacks")
        self._o_tops, self._p_tops = layout.place("public_tops", n, "the top card of each public stack")
        self._o_played, self._p_played = layout.place(
            "played_public", 4, "the public stack played to this turn (C D H S)")
        self._o_starter, self._p_starter = layout.place(
            "starter", 1, "the round's starter, by relative seat", seats=every)
        self._o_sizes, self._p_sizes = layout.place(
            "hand_sizes", 1, "hand sizes by relative seat, ÷ 10", _UNBOUNDED, seats=every)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the draw pile, ÷ 37")
        self._o_stall, self._p_stall = layout.place(
            "stall_count", 1, "turns in a row that drew from a public stack, ÷ 60", _UNBOUNDED)

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
                    out[self._o_own + 52 * k + pos[c]] = 1.0
            out[self._o_sizes + k] = obs["hand_sizes"][s] / 10
        for stack in obs["public_stacks"].values():
            for c in stack:
                out[self._o_piles + pos[c]] = 1.0
            if stack:
                out[self._o_tops + pos[stack[-1]]] = 1.0
        if obs["played_public"] is not None:
            out[self._o_played + _SUIT_INDEX[obs["played_public"]]] = 1.0
        starter = (obs["first"] + obs["round"] - 1) % 3
        out[self._o_starter + (starter - seat) % 3] = 1.0
        out[self._o_stock] = obs["stock_count"] / 37
        out[self._o_stall] = obs["stall_count"] / 60

    def _starter(self, state: pg.ProgressionState) -> int:
        return (state.first + len(state.history)) % 3


# -- Twenty ------------------------------------------------------------------------------

class _TwentyPicture(_Picture):
    """A round of Twenty's picture: copies of the hands, the revealed cards, the tally and
    the cards set aside, and the numbers last written."""

    __slots__ = ("bonus", "dealt", "hands", "left", "moved", "moves", "revealed", "scorer", "seat", "set_aside",
                 "shown", "tally", "value")

    def __init__(self, space: GameSpace, state: tw.TwentyState) -> None:
        super().__init__(space, state)
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        self.seat = -1
        self.shown: bool = state.options["open_hands"]
        self.hands: list[list[Card]] = [[], []]
        self.revealed: list[Card] = []
        self.tally: list[Card] = []
        self.set_aside: list[Card] = []
        self.scorer: int | None = None
        self.bonus = 0
        self.value = 0
        self.left = -1
        self.dealt = [0, 0]


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
        self._pos = _plane_positions(ALL_CARDS[:52])
        self._tpos = _text_positions(self._pos)
        super().__init__("twenty", tw.PLAY)

    def _build(self, layout: _Layout) -> None:
        n = 52
        every = layout.every
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand", seats=_OWN)
        # In the picture, each seat's hand as the table shows it: written only with open_hands.
        self._o_other, self._p_shown = layout.place(
            "other_hand", n, "the opponent's hand (open_hands only)", seats=(1,))
        self._o_open, self._p_open = layout.place("open_hands", 1, "the option open_hands")
        self._o_revealed, self._p_revealed = layout.place("revealed", n, "the two revealed cards")
        self._o_tally, self._p_tally = layout.place("tally", n, "the cards on the tally")
        self._o_aside, self._p_aside = layout.place("set_aside", n, "the cards set aside")
        self._o_scorer, self._p_scorer = layout.place(
            "last_scorer", 1, "the last seat to score, by relative seat", seats=every)
        self._o_starter, self._p_starter = layout.place(
            "starter", 1, "the round's starter, by relative seat", seats=every)
        self._o_bonus, self._p_bonus = layout.place("bonus", 1, "the End of Round Bonus, ÷ 10")
        self._o_value, self._p_value = layout.place("tally_value", 1, "the tally's value, ÷ 20", _UNBOUNDED)
        self._o_count, self._p_count = layout.place("tally_cards", 1, "cards on the tally, ÷ 10", _UNBOUNDED)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the stock, ÷ 40")
        self._o_sizes, self._p_sizes = layout.place("hand_sizes", 1, "hand sizes by relative seat, ÷ 5",
                                                    seats=every)
        self._o_dealt, self._p_dealt = layout.place(
            "hands_dealt", 1, "hands dealt by relative seat, ÷ 10", _UNBOUNDED, seats=every)

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

    def _new_picture(self, state: tw.TwentyState) -> _Picture:
        picture = _TwentyPicture(self, state)
        values = picture.values
        if picture.shown:
            values[self._p_open] = 1.0
        values[self._p_starter + (state.first ^ (len(state.history) & 1))] = 1.0
        return picture

    def _replay(self, state: tw.TwentyState, picture: _TwentyPicture) -> None:
        """Put each card played since the picture was last brought up to date from its
        player's hand onto the tally, in the copies and the picture.  :meth:`_sync` then
        compares every copy with the state and mends any that differ (a scored tally set
        aside, a new hand dealt, an undo), so the guesses need not be right."""
        moves = state.moves
        same, done, seat = moves is picture.moves, picture.moved, picture.seat
        picture.moves, picture.moved, picture.seat = moves, len(moves), state.to_move
        if not same or len(moves) <= done or seat < 0:
            return
        values = picture.values
        pos = self._pos
        tally = picture.tally
        for move in moves[done:]:
            hand = picture.hands[seat]
            card: Card = move.args[0]  # type: ignore[assignment]
            if card not in hand:
                return
            hand.remove(card)
            where = pos[card]
            values[self._p_hand + seat * 52 + where] = 0.0
            if picture.shown:
                values[self._p_shown + seat * 52 + where] = 0.0
            values[self._p_sizes + seat] = len(hand) / 5
            tally.append(card)
            values[self._p_tally + where] = 1.0
            values[self._p_count] = len(tally) / 10
            seat = 1 - seat

    def _sync(self, state: tw.TwentyState, picture: _TwentyPicture, settled: bool) -> None:
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            self._replay(state, picture)
        if (state.hands != picture.hands or state.tally != picture.tally or state.set_aside != picture.set_aside
                or state.revealed != picture.revealed):
            self._mend(state, picture)
        values = picture.values
        scorer = state.last_scorer
        if scorer != picture.scorer:
            if picture.scorer is not None:
                values[self._p_scorer + picture.scorer] = 0.0
            if scorer is not None:
                values[self._p_scorer + scorer] = 1.0
            picture.scorer = scorer
        if state.tally_value != picture.value:
            picture.value = state.tally_value
            values[self._p_value] = state.tally_value / 20
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / 40
        if state.bonus != picture.bonus:
            picture.bonus = state.bonus
            values[self._p_bonus] = state.bonus / 10
        dealt = state.hands_dealt
        if dealt != picture.dealt:
            for seat in (0, 1):
                values[self._p_dealt + seat] = dealt[seat] / 10
            picture.dealt = list(dealt)

    def _mend(self, state: tw.TwentyState, picture: _TwentyPicture) -> None:
        """Bring the copies of the hands, the tally, the cards set aside and the revealed
        cards that differ from the state's (and the planes they show) up to date."""
        values = picture.values
        pos = self._pos
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = _follow(seen, hand)
                mine = self._p_hand + seat * 52
                for c in gone:
                    values[mine + pos[c]] = 0.0
                for c in came:
                    values[mine + pos[c]] = 1.0
                if picture.shown:
                    shown = self._p_shown + seat * 52
                    for c in gone:
                        values[shown + pos[c]] = 0.0
                    for c in came:
                        values[shown + pos[c]] = 1.0
                values[self._p_sizes + seat] = len(hand) / 5
        tally = state.tally
        if tally != picture.tally:
            _show(values, self._p_tally, pos, picture.tally, tally)
            values[self._p_count] = len(tally) / 10
        if state.set_aside != picture.set_aside:
            _show(values, self._p_aside, pos, picture.set_aside, state.set_aside)
        if state.revealed != picture.revealed:
            _show(values, self._p_revealed, pos, picture.revealed, state.revealed)


# -- 100 Silver Bars ---------------------------------------------------------------------

_VAULT_STATE_INDEX = [-1] * sb.STATES
for _i, _s in enumerate(sb.VAULT_STATES):
    _VAULT_STATE_INDEX[_s] = _i
_DECK_KEYS = tuple(sb.DEFAULT_COUNTS)


class _SilverBarsPicture(_Picture):
    """A round of 100 Silver Bars' picture: copies of the hands, every vault (its cards,
    its rubble and its state), the discard pile, the draw pile and where it is drawn
    from, the pending strike and the locks."""

    __slots__ = ("against", "discard", "hands", "left", "locked", "moved", "moves", "rubble", "seat", "stock",
                 "stock_pos", "vaults", "vstate")

    def __init__(self, space: GameSpace, state: sb.SilverBarsState) -> None:
        super().__init__(space, state)
        self.moves: list[Move] = state.moves
        self.moved = len(state.moves)
        self.seat = -1
        self.hands: list[list[Card]] = [[], []]
        self.vaults: list[list[list[Card]]] = [[[], [], [], [], []], [[], [], [], [], []]]
        self.rubble: list[list[Card | None]] = [[None] * 5, [None] * 5]
        self.vstate: list[list[int | None]] = [[None] * 5, [None] * 5]
        self.discard: list[Card] = []
        self.stock: list[Card] | None = None
        self.stock_pos = 0
        self.against: int | None = None
        self.locked = [-1, -1]
        self.left = -1


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
        super().__init__("silver-bars", actions)

    def _build(self, layout: _Layout) -> None:
        n = len(self.CARDS)
        v = len(sb.VAULT_STATES)
        every = layout.every
        self._o_hand, self._p_hand = layout.place("hand", n, "the observer's hand (counts)", 4, seats=_OWN)
        self._o_vaults, self._p_vaults = layout.place(
            "vault_states", 5 * v, f"each vault's state ({v} one-hot), by relative seat then vault", seats=every)
        self._o_vault_cards, self._p_vault_cards = layout.place(
            "vault_cards", n, "the cards in each seat's vaults, rubble included (counts)", 4, seats=every)
        self._o_discard, self._p_discard = layout.place("discard_pile", n, "the discard pile (counts)", 4)
        self._o_unseen, self._p_unseen = layout.place(
            "unseen", n, "cards not seen: the opponent's hand or the draw pile (counts)", 4, seats=_OWN)
        self._o_strike, self._p_strike = layout.place(
            "strike", 1, "a pending strike against a seat, by relative seat", seats=every)
        self._o_dealer, self._p_dealer = layout.place("dealer", 1, "the dealer, by relative seat", seats=every)
        self._o_bars, self._p_bars = layout.place(
            "vault_bars", 5, "silver bars in each vault, ÷ 20, by relative seat then vault", _UNBOUNDED,
            seats=every)
        self._o_sizes, self._p_sizes = layout.place(
            "vault_sizes", 5, "cards in each vault, ÷ 10, by relative seat then vault", _UNBOUNDED, seats=every)
        self._o_locks, self._p_locks = layout.place("locks_left", 1, "locks left by relative seat, ÷ 5",
                                                    seats=every)
        self._o_stock, self._p_stock = layout.place("stock_count", 1, "cards in the draw pile, ÷ 100", _UNBOUNDED)
        self._o_target, self._p_target = layout.place(
            "target_score", 1, "the option target_score, ÷ 100", _UNBOUNDED)

    def _deck(self, options: Mapping[str, Any]) -> array[float]:
        """The count of each card in the deck that ``options`` make."""
        key = tuple(options.get(k) for k in _DECK_KEYS)
        found = self._decks.get(key)
        if found is None:
            counts = Counter(sb.silver_bars_deck(options))
            found = array("f", [counts[c] for c in self.CARDS])
            self._decks[key] = found
        return found

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
        nv = len(sb.VAULT_STATES)
        bar_value = sb.BAR_VALUE
        other = 1 - seat
        base = self._o_discard
        for c in state.discard_pile:
            out[base + pos[c]] += 1.0
        base = self._o_unseen  # the draw pile and the other hand (see _sync)
        for c in state.stock[state.stock_pos:]:
            out[base + pos[c]] += 1.0
        for c in state.hands[other]:
            out[base + pos[c]] += 1.0
        base = self._o_hand
        for c in state.hands[seat]:
            out[base + pos[c]] += 1.0
        for k, s in ((0, seat), (1, other)):
            base = self._o_vault_cards + k * n
            for i, cards in enumerate(state.vaults[s]):
                out[self._o_vaults + (k * 5 + i) * nv + _VAULT_STATE_INDEX[state.vstate[s][i]]] = 1.0
                bars = 0
                for c in cards:
                    out[base + pos[c]] += 1.0
                    bars += bar_value[c]
                covering = state.rubble[s][i]
                if covering is not None:
                    out[base + pos[covering]] += 1.0
                out[self._o_bars + k * 5 + i] = bars / 20
                out[self._o_sizes + k * 5 + i] = len(cards) / 10
        if state.strike is not None:
            out[self._o_strike + (state.strike_against ^ seat)] = 1.0  # type: ignore[operator]
        out[self._o_dealer + (state.first ^ (len(state.history) & 1) ^ seat ^ 1)] = 1.0
        locked = state.locked
        out[self._o_locks] = (5 - locked[seat]) / 5
        out[self._o_locks + 1] = (5 - locked[other]) / 5
        out[self._o_stock] = (len(state.stock) - state.stock_pos) / 100
        out[self._o_target] = state.options["target_score"] / 100

    def _new_picture(self, state: sb.SilverBarsState) -> _Picture:
        picture = _SilverBarsPicture(self, state)
        values = picture.values
        values[self._p_dealer + (state.first ^ (len(state.history) & 1) ^ 1)] = 1.0
        values[self._p_target] = state.options["target_score"] / 100
        return picture

    # The unseen cards are the opponent's hand and the draw pile: a multiset that the
    # observation fixes (the deck less every card seen), read here from where the cards
    # lie because that is quicker.  The tests check it is the same.

    def _replay(self, state: sb.SilverBarsState, picture: _SilverBarsPicture) -> list[int]:
        """Make each play and discard since the picture was last brought up to date on the
        copies of the hands, the draw pile and the discard pile: the card leaves its
        player's hand, a discarded card goes onto the discard pile, and the draw pile's next
        card comes.  Return the vaults (``seat * 5 + vault``) the moves can have changed
        (rubble goes onto the other seat's vault, a thief takes from it, a strike takes its
        miners), for :meth:`_sync` to look at first.  :meth:`_sync` compares every copy
        with the state and mends any that differ, so the guesses need not be right."""
        moves = state.moves
        same, done, seat = moves is picture.moves, picture.moved, picture.seat
        picture.moves, picture.moved, picture.seat = moves, len(moves), state.to_move
        touched: list[int] = []
        if not same or len(moves) <= done or seat < 0 or state.stock is not picture.stock:
            return touched
        values = picture.values
        pos = self._pos
        n = len(self.CARDS)
        stock = state.stock
        for verb, args in moves[done:]:
            other = 1 - seat
            if verb == "play" or verb == "discard":
                hand = picture.hands[seat]
                card: Card = args[0]  # type: ignore[assignment]
                drawn = picture.stock_pos
                if card not in hand or drawn >= len(stock):
                    return touched
                new = stock[drawn]
                picture.stock_pos = drawn + 1
                hand.remove(card)
                hand.append(new)
                # The card played is seen by the other seat now; the card drawn leaves what
                # this seat has not seen (the other seat still has not: it is in a hand).
                mine = self._p_hand + seat * n
                values[mine + pos[card]] -= 1.0
                values[mine + pos[new]] += 1.0
                values[self._p_unseen + other * n + pos[card]] -= 1.0
                values[self._p_unseen + seat * n + pos[new]] -= 1.0
                if verb == "discard":
                    picture.discard.append(card)
                    values[self._p_discard + pos[card]] += 1.0
                elif len(args) == 1:  # the strike
                    touched += range(other * 5, other * 5 + 5)
                elif len(args) == 2:  # onto a vault: the other seat's, for rubble
                    touched.append((other if sb.KIND[card] == sb.RUBBLE else seat) * 5 + args[1] - 1)  # type: ignore
                else:  # a thief, from the other seat's vault into this seat's
                    touched += (other * 5 + args[1] - 1, seat * 5 + args[2] - 1)  # type: ignore[operator]
            elif verb == "lock":
                touched.append(seat * 5 + args[0] - 1)  # type: ignore[operator]
            seat = other
        return touched

    def _sync(self, state: sb.SilverBarsState, picture: _SilverBarsPicture, settled: bool) -> None:
        touched: Sequence[int] = ()
        if len(state.moves) != picture.moved or state.moves is not picture.moves:
            touched = self._replay(state, picture)
        if (state.stock is not picture.stock or state.stock_pos != picture.stock_pos or state.hands != picture.hands
                or state.discard_pile != picture.discard):
            self._mend(state, picture)
        for vault in touched:
            self._sync_vault(state, picture, vault // 5, vault % 5)
        if state.vaults != picture.vaults or state.rubble != picture.rubble or state.vstate != picture.vstate:
            for vault in range(10):
                self._sync_vault(state, picture, vault // 5, vault % 5)
        values = picture.values
        left = len(state.stock) - state.stock_pos
        if left != picture.left:
            picture.left = left
            values[self._p_stock] = left / 100
        against = state.strike_against if state.strike is not None else None
        if against != picture.against:
            if picture.against is not None:
                values[self._p_strike + picture.against] = 0.0
            if against is not None:
                values[self._p_strike + against] = 1.0
            picture.against = against
        locked = state.locked
        if locked != picture.locked:
            for seat in (0, 1):
                values[self._p_locks + seat] = (5 - locked[seat]) / 5
            picture.locked = list(locked)

    def _mend(self, state: sb.SilverBarsState, picture: _SilverBarsPicture) -> None:
        """Bring the unseen counts, the copies of the hands and of the discard pile that differ
        from the state's (and the planes they show) up to date."""
        values = picture.values
        pos = self._pos
        n = len(self.CARDS)
        at_unseen = self._p_unseen
        stock, drawn = state.stock, state.stock_pos
        if stock is not picture.stock:
            # A new draw pile (a referee arranged it, or a search dealt hidden cards again):
            # count what is unseen from scratch, with the hands as last written.
            for seat in (0, 1):
                unseen = at_unseen + seat * n
                values[unseen:unseen + n] = self._blank[:n]
                for c in stock[drawn:]:
                    values[unseen + pos[c]] += 1.0
                for c in picture.hands[1 - seat]:
                    values[unseen + pos[c]] += 1.0
            picture.stock, picture.stock_pos = stock, drawn
        elif drawn != picture.stock_pos:
            was = picture.stock_pos
            step = -1.0 if drawn > was else 1.0
            for c in stock[min(was, drawn):max(was, drawn)]:
                values[at_unseen + pos[c]] += step
                values[at_unseen + n + pos[c]] += step
            picture.stock_pos = drawn
        for seat, hand in enumerate(state.hands):
            seen = picture.hands[seat]
            if hand != seen:
                gone, came = _follow(seen, hand)
                mine, theirs = self._p_hand + seat * n, at_unseen + (1 - seat) * n
                for c in gone:
                    values[mine + pos[c]] -= 1.0
                    values[theirs + pos[c]] -= 1.0
                for c in came:
                    values[mine + pos[c]] += 1.0
                    values[theirs + pos[c]] += 1.0
        if state.discard_pile != picture.discard:
            _count(values, self._p_discard, pos, picture.discard, state.discard_pile)

    def _sync_vault(self, state: sb.SilverBarsState, picture: _SilverBarsPicture, seat: int, i: int) -> None:
        """Vault ``i`` of ``seat``: its cards and rubble, its bars and size, its state."""
        values = picture.values
        cards, seen = state.vaults[seat][i], picture.vaults[seat][i]
        if cards != seen:
            _count(values, self._p_vault_cards + seat * len(self.CARDS), self._pos, seen, cards)
            bar_value = sb.BAR_VALUE
            values[self._p_bars + seat * 5 + i] = sum(bar_value[c] for c in cards) / 20
            values[self._p_sizes + seat * 5 + i] = len(cards) / 10
        covering, old = state.rubble[seat][i], picture.rubble[seat][i]
        if covering is not old:
            at = self._p_vault_cards + seat * len(self.CARDS)
            if old is not None:
                values[at + self._pos[old]] -= 1.0
            if covering is not None:
                values[at + self._pos[covering]] += 1.0
            picture.rubble[seat][i] = covering
        now, was = state.vstate[seat][i], picture.vstate[seat][i]
        if now != was:
            nv = len(sb.VAULT_STATES)
            at = self._p_vaults + (seat * 5 + i) * nv
            if was is not None:
                values[at + _VAULT_STATE_INDEX[was]] = 0.0
            values[at + _VAULT_STATE_INDEX[now]] = 1.0
            picture.vstate[seat][i] = now


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
