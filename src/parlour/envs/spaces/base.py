"""The machinery of every game's space: fixed action tables and fixed-shape observation vectors.

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
picture by one fixed index array per seat (:meth:`Layout.gather`), which
puts the seats in the observer's order and takes the observer's own hand
and nothing of another seat's hidden cards.  Pictures are kept by the
state's ``id`` for up to :data:`_PICTURES` states; they are not shared safely
between threads that use the same state at once (a state is not either).  The
tests hold both paths equal to :meth:`GameSpace.encode` of the seat's
observation, and to the vectors the encoder gave before it kept pictures.

Each game's own blocks live in a module beside this one (``minus_twenty.py``, ``twenty.py`` …),
named by the game's registry entry (``space=``); :func:`space` finds them there, so a new game adds
its module and changes no file here.  This module imports numpy; the rules never import it.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from parlour import games
from parlour.cards import ALL_CARDS, Card
from parlour.game import Move, Observation, State

__all__ = ["OWN", "UNBOUNDED", "GameSpace", "Layout", "Picture", "Segment", "actions_markdown", "count_plane",
           "follow", "plane_positions", "show_plane", "space", "text_positions"]


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
UNBOUNDED = float(np.finfo(np.float32).max)
"""The bound of a block that has none (scores, totals, counts that grow): the largest ``float32``."""
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)
_PICTURES = 1024
"""States whose pictures (a few kilobytes each) are kept at once; past that, all are dropped
and made again as states are met again (an environment's one state is met every step)."""

OWN = (0,)
"""``seats`` of a block that holds the observer's own part only (its hand)."""


class Layout:
    """Allocates the blocks of the vector, in order, and their places in the picture.

    A block is either the same for every seat (``seats=()``), or made of
    parts that belong to seats: the picture holds one part per seat (seat 0
    first) and a seat's vector holds the parts of the seats ``seats`` counted
    from it (``(0, 1)``: its own, then the next seat's; :data:`OWN`: its own
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
        part only (:data:`OWN`: its hand, and what it has not seen)."""
        where: list[int] = []
        for at, size, seats in self._places:
            if seats == OWN:
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


def follow(seen: list[Card], now: list[Card]) -> tuple[Sequence[Card], Sequence[Card]]:
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


def show_plane(values: array[float], at: int, pos: list[int], seen: list[Card], now: list[Card]) -> None:
    """Make the copy ``seen`` hold what ``now`` holds, and the one-hot card plane at ``at``
    (where card ``c`` is at ``pos[c]``, shown by no other copy) show it."""
    gone, came = follow(seen, now)
    for c in gone:
        values[at + pos[c]] = 0.0
    for c in came:
        values[at + pos[c]] = 1.0


def count_plane(values: array[float], at: int, pos: list[int], seen: list[Card], now: list[Card]) -> None:
    """Make the copy ``seen`` hold what ``now`` holds, and the card counts at ``at`` (where
    card ``c`` is at ``pos[c]``; other copies may count there too) follow."""
    gone, came = follow(seen, now)
    for c in gone:
        values[at + pos[c]] -= 1.0
    for c in came:
        values[at + pos[c]] += 1.0


class _Met:
    """A state met once in this round (``history`` and its length, as :class:`Picture` keeps them):
    the next call for it makes its picture."""

    __slots__ = ("history", "rounds")

    def __init__(self, state: State) -> None:
        self.history = state.history
        self.rounds = len(state.history)


class Picture:
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
        layout = Layout(self.players)
        every = layout.every
        self._o_turn, self._p_turn = layout.place(
            "to_move", 1, "whose turn it is, by relative seat (0: the observer)", seats=every)
        self._o_over, self._p_over = layout.place("over", 2, "round over, match over")
        self._o_round, self._p_round = layout.place("round", 1, "round number − 1, ÷ 10", UNBOUNDED)
        self._o_scores, self._p_scores = layout.place(
            "scores", 1, "this round's scores by relative seat, ÷ 100", UNBOUNDED, -UNBOUNDED, seats=every)
        self._o_totals, self._p_totals = layout.place(
            "totals", 1, "match totals by relative seat, ÷ 100", UNBOUNDED, -UNBOUNDED, seats=every)
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
        self._pictures: dict[int, Picture | _Met] = {}
        self._pictured = type(self)._new_picture is not GameSpace._new_picture
        """Whether the game draws pictures: a plug-in's space may give only :meth:`_from_state`."""
        self._no_moves = bytes(self.num_actions)
        self.low = np.zeros(size, dtype=np.float32)
        self.high = np.zeros(size, dtype=np.float32)
        for seg in self._segments:
            self.low[seg.offset:seg.offset + seg.size] = seg.low
            self.high[seg.offset:seg.offset + seg.size] = seg.high

    # -- given by each game ---------------------------------------------------
    def _build(self, layout: Layout) -> None:
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

    def _new_picture(self, state: Any) -> Picture:
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
        alone knows (see :meth:`Layout.public_gather`).  A copy."""
        return self._picture_of(state).view[self._public]

    def encode_private(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` alone sees of ``state``: its own blocks only (its hand, and in 100 Silver
        Bars the cards it has not seen).  A copy."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return self._picture_of(state).view[self._private[seat]]

    def _picture_of(self, state: State) -> Picture:
        """``state``'s picture, made now if need be and brought up to date."""
        if not self._pictured:
            raise NotImplementedError(f"{self.game_id}'s space draws no picture: it has no public or private parts")
        picture = self._pictures.get(id(state))
        if not isinstance(picture, Picture) or picture.history is not state.history \
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

    def _sync_table(self, state: State, picture: Picture) -> bool:
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
            high = "∞" if seg.high >= UNBOUNDED else f"{seg.high:g}"
            low = "−∞" if seg.low <= -UNBOUNDED else f"{seg.low:g}"
            lines.append(f"| {seg.offset} | {seg.size} | {low}…{high} | `{seg.name}`: {seg.doc} |")
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game_id}: {self.num_actions} actions, obs {self.obs_shape}>"


def plane_positions(cards: Sequence[Card]) -> list[int]:
    """Card code → position in a card plane (−1: not a card of the game)."""
    positions = [-1] * len(ALL_CARDS)
    for i, c in enumerate(cards):
        positions[c] = i
    return positions


def text_positions(positions: list[int]) -> dict[str, int]:
    """Card notation → position in a card plane, for the cards of the game (an observation's cards are text)."""
    return {str(c): positions[c] for c in ALL_CARDS if positions[c] >= 0}


# -- a game's space, found through its registry entry ------------------------------------

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

