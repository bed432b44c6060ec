"""What the compiled engines share: numba's decorators as the engines use them, the counter-based
stream every deal and random choice is drawn from, and the one compiled loop of the vector env
(the learner's action, then random opponents until the learner's turn), which takes each game's
own rules as compiled functions.

numba is an optional extra (``parlour[fast]``): only :mod:`parlour.batch` imports this module.

numba's cache (``cache=True``, in ``__pycache__`` beside each engine) is checked against each
engine's own file only, not against what its compiled functions take from elsewhere (this module,
the rules engine's tables, the spaces): :func:`discard_stale_compilations` throws the cached
compilations away whenever any of those sources changes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parents[1]
"""``src/parlour``."""
_SOURCES = ("batch/*.py", "games/*.py", "games/*/*.py", "envs/spaces/*.py", "cards.py", "game.py")
"""What the compiled engines are built from, below ``src/parlour``."""


def discard_stale_compilations(package: Path = PACKAGE) -> bool:
    """Delete numba's cached compilations of the engines unless they were made from the sources
    there are now (a fingerprint of them is kept beside the cache); whether it deleted them.  Quiet
    where the cache cannot be written (numba then compiles in memory)."""
    digest = hashlib.sha256()
    for pattern in _SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    folder = package / "batch" / "__pycache__"
    stamp = folder / "sources.sha256"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return False
    except OSError:
        pass
    try:
        for cached in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
            cached.unlink(missing_ok=True)
        folder.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest(), encoding="ascii")
    except OSError:
        return False
    return True


discard_stale_compilations()

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""splitmix64's increment (the golden ratio in 64 bits)."""
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
MATCH = np.uint64(0xD1B54A32D192ED03)
"""A second odd constant, to key a slot's k-th match apart from its seed and slot."""


def compiled(function: F) -> F:
    """numba's ``njit``, cached on disk (compile time is paid once per machine)."""
    return cast(F, numba.njit(cache=True)(function))


def lean(function: F) -> F:
    """:func:`compiled` without numba's reference counting (``_nrt=False``), for the functions
    of every decision, which allocate nothing and only read and write the arrays their caller
    holds.  Counted, each array taken out of an engine's ``Tables`` cost an atomic increment and
    decrement: a decision cost four times as much (7M decisions/s against 27M)."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}  # a flag numba's stubs do not name
    return cast(F, numba.njit(**options)(function))


def inlined(function: F) -> F:
    """:func:`lean`, and inlined into its callers by numba: a call would copy an engine's ``Tables``
    (some 20 arrays, about 2 kB) into the callee each time."""
    options: dict[str, Any] = {"cache": True, "_nrt": False, "inline": "always"}
    return cast(F, numba.njit(**options)(function))


@inlined
def mix(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """splitmix64's finalizer."""
    x = (x ^ (x >> np.uint64(30))) * MIX1
    x = (x ^ (x >> np.uint64(27))) * MIX2
    return x ^ (x >> np.uint64(31))


@inlined
def below(rng: npt.NDArray[np.uint64], g: int, k: int) -> int:  # pragma: no cover - compiled
    """The next number of match ``g``'s stream, from 0 to ``k`` − 1 (``k`` below 2**32): the high 32 bits
    of the mixed word scaled to ``k`` (Lemire's multiply-shift, without the division a remainder costs)."""
    rng[g] += GOLDEN
    return int(((mix(rng[g]) >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))


@lean
def slot_stream(seed: np.uint64, g: int, matches: int) -> np.uint64:  # pragma: no cover - compiled
    """Where the stream of slot ``g``'s match number ``matches`` starts: from (seed, slot, match) alone."""
    key = mix(seed + GOLDEN)
    key = mix(key ^ (np.uint64(g) * GOLDEN))
    return mix(key ^ (np.uint64(matches) * MATCH + np.uint64(1)))


def generic(function: F) -> F:
    """:func:`lean`, inlined into its callers and not cached itself: a function that takes compiled
    functions as arguments (numba cannot keep those in its cache; each engine's cached caller holds
    the compiled code)."""
    options: dict[str, Any] = {"_nrt": False, "inline": "always"}
    return cast(F, numba.njit(**options)(function))


@generic
def against_random(legal_actions: Any, apply: Any, end_round: Any, observe: Any, t: Any, to_move: int,
                   log_len: int, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                   chooser: npt.NDArray[np.uint64], scale: np.float32, rewards: npt.NDArray[np.float32],
                   done: npt.NDArray[np.bool_], paid: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_],
                   at: npt.NDArray[np.int64], obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                   legal: npt.NDArray[np.int64]) -> tuple[int, int]:  # pragma: no cover - compiled
    """The step of :class:`parlour.batch.vector.BatchVectorEnv` for any engine that keeps its matches in
    one ``Tables`` ``t`` (column ``to_move`` of ``t.info`` the seat to move, ``log_len`` the moves made):
    the learner's action in every match (−1: none), then the other seats' uniformly random legal
    actions (drawn from ``chooser``) until it is ``seats[g]``'s turn (again); the learner's reward
    (``scale`` times what the engine's ``_step`` pays its seat) and the done flags into ``rewards`` and
    ``done``, its observations and legal masks into ``obs`` and ``mask``.  (−1, the longest log) once
    made, or (the first match whose action is illegal, 0) with nothing made.

    The game's rules come in as its engine's compiled functions: ``legal_actions(t, g, out) -> count``,
    ``apply(t, g, a) -> round over``, ``end_round(t, g, paid, ended) -> match over`` and
    ``observe(t, seats, at, obs)``; each names the rules engine's function it mirrors."""
    info = t.info
    n = actions.shape[0]
    for g in range(n):
        a = actions[g]
        if a != -1:
            found = False
            for k in range(legal_actions(t, g, legal)):
                if legal[k] == a:
                    found = True
            if not found:
                return g, 0
    longest = 0
    for g in range(n):
        rewards[g] = 0.0
        done[g] = False
        seat = seats[g]
        if actions[g] != -1 and apply(t, g, actions[g]) and end_round(t, g, paid, ended):
            rewards[g] += paid[g, seat] * scale
            done[g] = True
        while info[g, to_move] != seat:
            a = legal[below(chooser, g, legal_actions(t, g, legal))]
            if apply(t, g, a) and end_round(t, g, paid, ended):
                rewards[g] += paid[g, seat] * scale
                done[g] = True
        longest = max(longest, info[g, log_len])
    for g in range(n):
        for j in range(obs.shape[1]):
            obs[g, j] = 0.0
    observe(t, seats, at, obs)
    for g in range(n):
        for j in range(mask.shape[1]):
            mask[g, j] = False
        for k in range(legal_actions(t, g, legal)):
            mask[g, legal[k]] = True
    return -1, longest


# -- the Python face of the engines whose matches live in one Tables ------------------------------

class Columns(NamedTuple):
    """Where an engine's ``Tables`` keeps what the shared methods read: columns of ``info`` (one row a
    match) and of ``last_info`` (the last finished match of each slot)."""

    to_move: int
    round: int
    first: int
    log_len: int
    fixed: int
    """Rounds whose deals were given (:meth:`TablesBatch.set_match`)."""
    last_has: int
    last_first: int
    last_rounds: int
    last_log_len: int


class Kernels(NamedTuple):
    """An engine's compiled functions, as :class:`TablesBatch` calls them (``*scratch`` after the
    arguments named here: the buffers the engine's functions take besides, see ``TablesBatch._scratch``)."""

    tables: Callable[..., Any]
    """``(n, seed, options, log) -> Tables``: the arrays of ``n`` matches, moves logged ``log`` a match."""
    reset: Callable[..., Any]
    """``(t)``: every slot's first match."""
    legal_mask: Callable[..., Any]
    """``(t, mask, *scratch)``."""
    step: Callable[..., Any]
    """``(t, actions, rewards, done, *scratch) -> (bad, longest)``."""
    observe: Callable[..., Any]
    """``(t, seats, at, out)``."""
    start_match: Callable[..., Any]
    """``(t, g, first)``: slot ``g``'s match again, from its given deals."""
    against_random: Callable[..., Any]
    """:func:`against_random` with the engine's own rules."""
    random_rounds: Callable[..., Any] | None = None
    """:func:`random_rounds` with the engine's own rules, when it gives the legal actions in the rules
    engine's order (``(t, slots, words, positions, log, made, legal) -> slots played``)."""


class CompiledRollouts:
    """The Python face of a game's compiled rollout plug-in of the batched search (see
    :mod:`parlour.batch.rollout`): the leaves still in play turned into rows of the game's engine
    (:meth:`rows`) and rolled out in one compiled call (:meth:`roll`), giving exactly what
    ``PythonLeafRollouts.run`` gives with the game's own advice.  A game's plug-in names its state
    class, its advice and its player count, and gives the engine's tables for the leaves' options."""

    compiled = True
    game_name: str
    """The game's name, for the refusals."""
    state_type: type
    """The rules engine's state class of the game."""
    own_advice: Any
    """The advice the compiled twin mirrors (any other is refused)."""
    players: int

    def __init__(self, advice_of_game: Any) -> None:
        if advice_of_game is not self.own_advice:
            raise ValueError(f"the compiled rollouts play {self.game_name}'s own advice only")
        self._tables: dict[tuple[Any, ...], Any] = {}

    def tables(self, states: Sequence[Any]) -> Any:
        """The engine's tables for these leaves (made once for each set of options)."""
        options = states[0].options
        key = tuple(sorted(options.items()))
        if key not in self._tables:
            self._tables[key] = self.make_tables(options, states)
        return self._tables[key]

    def make_tables(self, options: Mapping[str, Any], states: Sequence[Any]) -> Any:
        """One slot of the game's engine for ``options``."""
        raise NotImplementedError

    def rows(self, tables: Any, states: Sequence[Any]) -> npt.NDArray[np.int64]:
        """Each leaf as a row the engine loads."""
        raise NotImplementedError

    def roll(self, tables: Any, rows: npt.NDArray[np.int64], leaves: npt.NDArray[np.int64], seat: int,
             seed: np.uint64, count: int, depth: int, out: npt.NDArray[np.float64]) -> None:
        """The compiled rollouts of the rows (leaf ``leaves[k]`` of the search's call), into ``out``."""
        raise NotImplementedError

    def run(self, leaves: Sequence[Any], seat: int, seed: int, count: int, depth: int | None) -> list[list[float]]:
        """See ``parlour.batch.rollout.PythonLeafRollouts.run``."""
        results: list[list[float]] = [[float(s) for s in leaf.scores] for leaf in leaves]
        playing = [i for i, leaf in enumerate(leaves) if leaf.current_player() is not None]
        if not playing or count < 1:
            return results
        states = [leaves[i] for i in playing]
        for state in states:
            if not isinstance(state, self.state_type):
                raise TypeError(f"the compiled rollouts play {self.game_name}'s states, not {type(state).__name__}")
        tables = self.tables(states)
        out = np.zeros((len(playing), self.players), np.float64)
        self.roll(tables, self.rows(tables, states), np.array(playing, np.int64), seat, np.uint64(seed % (1 << 64)),
                  count, -1 if depth is None else depth, out)
        for k, i in enumerate(playing):
            results[i] = out[k].tolist()
        return results


class TablesBatch:
    """``n`` matches of a game played side by side, dealt from a seeded stream: the methods every
    engine that keeps its matches in one ``Tables`` shares (Minus Twenty, Progression, 100 Silver
    Bars).  A subclass names its game, its compiled functions (:class:`Kernels`), where its tables
    keep the counters (:class:`Columns`) and its cards (each card's position, the deck of options).

    Every method works on all matches at once; each match is always at a decision (a finished
    round is followed by the next one's deal, a finished match by the slot's next match, within
    :meth:`step`).
    """

    game_id: str
    players: int
    num_actions: int
    kernels: Kernels
    columns: Columns
    texts: Sequence[str]
    """Each card position's text."""
    _BLOCKS: tuple[str, ...]
    """The space's blocks whose offsets the engine's ``_observe`` is given, in this order."""
    MOST_MOVES_A_STEP = 64
    plays_random_rounds = False
    """Whether :meth:`random_rounds` can play (the engine gives the legal actions in the rules engine's
    order: ``Kernels.random_rounds``)."""
    """More moves than one call of :meth:`step_against_random` adds to a match's log."""

    def __init__(self, n: int, seed: int, options: Mapping[str, Any] | None = None) -> None:
        from parlour import games
        from parlour.envs.spaces import space

        if n < 1:
            raise ValueError(f"a batch holds at least one match, not {n}")
        self.game = games.get(self.game_id)
        self.options = self.check_options(options)
        self.n = n
        self.seed = seed
        the_space = space(self.game_id)
        if the_space.num_actions != self.num_actions:
            raise RuntimeError("the batch engine's action table no longer matches the space's")
        offsets = {segment.name: segment.offset for segment in the_space.layout()}
        self._at = np.array([offsets[name] for name in self._BLOCKS], np.int64)
        self.obs_size = the_space.obs_shape[0]
        self._actions = [str(m) for m in the_space.actions]
        self._t = self.kernels.tables(n, seed, self.options, 1024)
        self._longest = 0
        self._rewards = np.zeros((n, self.players), np.float32)
        self._done = np.zeros(n, np.bool_)
        self._legal = np.empty(self.num_actions, np.int64)
        self._deck: tuple[Counter[Any], dict[Any, int]] | None = None
        """The options' deck, counted, and each card's position (made at the first :meth:`set_match`)."""
        self.reset()

    # -- what a subclass may say otherwise ---------------------------------------------------------
    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options, checked by the rules engine (a subclass refuses those it cannot play)."""
        return self.game.check_options(options)

    def deck(self) -> Sequence[Any]:
        """The cards of these options, as the rules engine deals them."""
        raise NotImplementedError

    def position(self, card: Any) -> int:
        """A card's position in the engine's arrays."""
        raise NotImplementedError

    @property
    def _scratch(self) -> tuple[Any, ...]:
        """The buffers the engine's ``legal_mask`` and ``step`` take after their own arguments."""
        return ()

    # -- the batch ---------------------------------------------------------------------------------
    def reset(self) -> None:
        """Deal every slot's first match from the stream (the same deals for the same seed)."""
        self.kernels.reset(self._t)
        self._longest = 0

    def to_move(self) -> npt.NDArray[np.int64]:
        """The seat to move in each match."""
        seats: npt.NDArray[np.int64] = self._t.info[:, self.columns.to_move].astype(np.int64)
        return seats

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(n, num_actions)``: each match's legal actions, in the space's action table."""
        mask = np.empty((self.n, self.num_actions), np.bool_)
        self.kernels.legal_mask(self._t, mask, *self._scratch)
        return mask

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Make one action in every match: ``(rewards (n, players) float32, done (n,) bool)``.

        Rewards are 0 but at a match's end, where each seat gets its total minus the mean of the
        others' totals (raw points); the match is then replaced by the slot's next one.  The action
        −1 leaves a match as it is (for a caller that moves some seats only).  An illegal action
        raises ``ValueError`` and makes no action at all.
        """
        chosen = np.ascontiguousarray(actions, np.int64)
        if chosen.shape != (self.n,):
            raise ValueError(f"step takes one action per match: shape ({self.n},), not {chosen.shape}")
        if self._longest + 1 >= self._t.log.shape[1]:
            self._grow_log()
        bad, longest = self.kernels.step(self._t, chosen, self._rewards, self._done, *self._scratch)
        if bad >= 0:
            self._refuse(int(chosen[bad]), bad)
        self._longest = longest
        return self._rewards.copy(), self._done.copy()

    def _refuse(self, a: int, match: int) -> None:
        what = f"{a} ({self._actions[a]})" if 0 <= a < self.num_actions else str(a)
        raise ValueError(f"action {what} is illegal in match {match}")

    def _seats(self, seats: npt.NDArray[np.int64]) -> None:
        if ((seats < 0) | (seats >= self.players)).any():
            raise ValueError(f"seats are 0 to {self.players - 1}")

    def observe(self, seat: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``(n, obs_size)``: each match's observation for ``seat`` (one seat for all, or one a
        match), equal to ``space(game_id).encode_state(state, seat)``."""
        seats = np.broadcast_to(np.asarray(seat, np.int64), (self.n,)).copy()
        self._seats(seats)
        out = np.zeros((self.n, self.obs_size), np.float32)
        self.kernels.observe(self._t, seats, self._at, out)
        return out

    def step_against_random(self, actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                            chooser: npt.NDArray[np.uint64], scale: float, rewards: npt.NDArray[np.float32],
                            done: npt.NDArray[np.bool_], obs: npt.NDArray[np.float32],
                            mask: npt.NDArray[np.bool_]) -> None:
        """The learner's ``actions`` (−1: none), then uniformly random legal actions for the other
        seats until it is ``seats[g]``'s turn in every match, all in one compiled call (the step of
        :class:`parlour.batch.vector.BatchVectorEnv`).  ``chooser`` is each match's stream of the
        opponents' choices (advanced in place); into the caller's arrays go the learner's reward
        (its :meth:`step` payment times ``scale``, where a match ended), whether a match ended,
        the learner's observations and legal masks.  An illegal action raises ``ValueError`` and
        makes no action at all."""
        rows = (actions, seats, chooser, rewards, done)
        if any(a.shape != (self.n,) for a in rows) or obs.shape != (self.n, self.obs_size) or \
                mask.shape != (self.n, self.num_actions):
            raise ValueError("step_against_random takes one row a match of each array")
        self._seats(seats)
        if self._longest + self.MOST_MOVES_A_STEP >= self._t.log.shape[1]:
            self._grow_log()
        bad, longest = self.kernels.against_random(self._t, actions, seats, chooser, np.float32(scale), rewards,
                                                   done, self._rewards, self._done, self._at, obs, mask, self._legal)
        if bad >= 0:
            self._refuse(int(actions[bad]), bad)
        self._longest = longest

    def random_rounds(self, slots: npt.NDArray[np.int64], words: npt.NDArray[np.uint32],
                      positions: npt.NDArray[np.int64], log: npt.NDArray[np.int64], made: npt.NDArray[np.int64]) -> int:
        """The lab's random bots play the round in play of each match ``slots[s]`` to its end, in one
        compiled call (:func:`parlour.batch.arena.random_rounds`, which says what the arguments hold)."""
        if self.kernels.random_rounds is None:
            raise NotImplementedError(f"the {self.game.name} engine does not give the rules engine's order of moves")
        played: int = self.kernels.random_rounds(self._t, slots, words, positions, log, made, self._legal)
        return played

    def set_match(self, i: int, first: int, deals: Sequence[Mapping[str, Any]]) -> None:
        """Restart match ``i`` with ``first`` to play first and the given deals (a record's
        ``deal`` objects, of cards, one a round from round 1); later rounds come from the stream."""
        from parlour.game import check_deck

        t = self._t
        self._slot(i)
        if first not in range(self.players):
            raise ValueError(f"first must be a seat from 0 to {self.players - 1}, not {first}")
        if len(deals) > t.deals.shape[1]:
            raise ValueError(f"a match of these options lasts at most {t.deals.shape[1]} rounds, not {len(deals)}")
        hand = self.options["hand_size"]
        if self._deck is None:
            deck = self.deck()
            self._deck = (Counter(deck), {card: self.position(card) for card in deck})
        counts, position = self._deck
        positions = []
        for r, deal in enumerate(deals):
            if [len(h) for h in deal["hands"]] != [hand] * self.players:
                raise ValueError(f"deal of round {r + 1}: each hand must hold {hand} cards")
            cards = [*(card for held in deal["hands"] for card in held), *deal["stock"]]
            if Counter(cards) != counts:
                check_deck(cards, counts.elements(), self.game.name, f"round {r + 1}")
            positions.append([position[c] for c in cards])
        for r, cards in enumerate(positions):
            t.deals[i, r, :len(cards)] = cards
        t.info[i, self.columns.fixed] = len(deals)
        self.kernels.start_match(t, i, first)

    def _slot(self, i: int) -> None:
        if not 0 <= i < self.n:
            raise IndexError(f"no match {i} in a batch of {self.n}")

    def deal(self, i: int) -> dict[str, Any]:
        """The deal of match ``i``'s round in play, of cards, as the rules engine takes it
        (``state.next_round(deal)``): each hand as dealt, the draw pile top card first."""
        self._slot(i)
        deck = self.deck()
        by_position = {self.position(card): card for card in deck}
        dealt = self._t.deals[i, self._t.info[i, self.columns.round], :len(deck)].tolist()
        return self._split([by_position[p] for p in dealt])

    def first(self, i: int) -> int:
        """The seat that played first in round 1 of match ``i`` (the rules engine's ``state.first``)."""
        self._slot(i)
        return int(self._t.info[i, self.columns.first])

    def _split(self, deck: Sequence[Any]) -> dict[str, Any]:
        """A deck in dealing order as a deal: a hand each, the rest the draw pile."""
        hand = self.options["hand_size"]
        return {"hands": [deck[s * hand:(s + 1) * hand] for s in range(self.players)],
                "stock": deck[self.players * hand:]}

    def record(self, i: int) -> dict[str, Any]:
        """Match ``i`` so far as a ``parlour-record/1`` record (explicit deals, moves in notation)."""
        self._slot(i)
        t, c = self._t, self.columns
        info = t.info[i]
        rounds = int(info[c.round]) + 1
        starts = [int(s) for s in t.starts[i, :rounds]] + [int(info[c.log_len])]
        return self._record(i, int(info[c.first]), rounds, starts, t.deals[i], t.scores[i], t.log[i], finished=False)

    def last_record(self, i: int) -> dict[str, Any]:
        """The record of slot ``i``'s last finished match (kept until the slot's next one ends)."""
        self._slot(i)
        t, c = self._t, self.columns
        info = t.last_info[i]
        if not info[c.last_has]:
            raise ValueError(f"slot {i} has not finished a match since the last reset")
        rounds = int(info[c.last_rounds])
        starts = [int(s) for s in t.last_starts[i, :rounds]] + [int(info[c.last_log_len])]
        return self._record(i, int(info[c.last_first]), rounds, starts, t.last_deals[i], t.last_scores[i],
                            t.last_log[i], finished=True)

    def _record(self, i: int, first: int, rounds: int, starts: list[int], deals: npt.NDArray[Any],
                scores: npt.NDArray[Any], log: npt.NDArray[Any], finished: bool) -> dict[str, Any]:
        if starts[-1] > log.shape[0]:
            raise ValueError(f"match {i} outgrew its log")
        size = len(self.deck())
        items: list[dict[str, Any]] = []
        totals = [0] * self.players
        for r in range(rounds):
            item: dict[str, Any] = {
                "deal": self._split([self.texts[p] for p in deals[r, :size]]),
                "moves": [self._actions[a] for a in log[starts[r]:starts[r + 1]]],
            }
            if finished or r < rounds - 1:
                item["scores"] = [int(s) for s in scores[r]]
                totals = [total + points for total, points in zip(totals, item["scores"])]
            items.append(item)
        return {
            "format": "parlour-record/1",
            "game": self.game_id,
            "options": self.game.non_default_options(self.options),
            "players": [f"Player {s + 1}" for s in range(self.players)],
            "first": first,
            "rounds": items,
            "totals": totals,
            "meta": {"batch_seed": self.seed, "slot": i, "match": int(self._t.matches[i]) - finished},
        }

    def _grow_log(self) -> None:
        t = self._t
        size = 2 * t.log.shape[1]
        log = np.zeros((self.n, size), t.log.dtype)
        log[:, :t.log.shape[1]] = t.log
        last = np.zeros((self.n, size), t.last_log.dtype)
        last[:, :t.last_log.shape[1]] = t.last_log
        self._t = t._replace(log=log, last_log=last)
