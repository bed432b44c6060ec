"""parlour's games as OpenSpiel Python games, with explicit chance nodes
(install extra ``parlour[rl]``).

>>> import pyspiel
>>> import parlour.envs.openspiel
>>> game = pyspiel.load_game("python_parlour_minus_twenty(rounds_only=True)")

Importing this module registers every game of parlour's registry with
OpenSpiel: ``python_parlour_minus_twenty``, ``python_parlour_progression``,
``python_parlour_twenty``, ``python_parlour_silver_bars``, and each plug-in's
(``python_parlour_<id>``, the id's ``-`` written ``_``).  A plug-in registered
later is registered by :func:`load`, :func:`register` or :func:`register_all`.

Parameters: ``rounds_only`` (default false: one episode is one match; true:
one round), ``first`` (the seat that starts round 1, default 0) and
``options``, the game's rule options as ``name=value`` pairs separated by commas (``"hand_size=8,rounds=1"``; inside a
``load_game`` string write ``options=hand_size:8;rounds:1``).

**The rules are the engine's.**  Each OpenSpiel state holds a parlour
:class:`~parlour.game.State`; legal moves, scores, round and match ends all
come from it.  Player action ids are the indices of
:func:`parlour.envs.spaces.space` (``num_distinct_actions`` is its
``num_actions``).

**Chance nodes deal and draw every card.**  Chance outcome ids index a fixed
card table (:attr:`ParlourGame.cards`: the game's cards in card-code order;
100 Silver Bars' twins share one id, and an outcome's probability is its
share of the copies left).  A round starts with one chance node per card
dealt (Twenty: the two revealed cards first), each uniform over the cards
not yet placed.  The rest is the engine's stock, in no particular order:
whenever a move is about to take cards from it, chance nodes choose each
card (uniformly over the stock's cards) and the adapter puts it at the
engine's stock position just before the engine applies the move.  So the
stock's order is never fixed in advance.  The game says how many stock
cards a move takes and who receives them (``State.stock_draws``):

* Minus Twenty and Progression: ``draw`` takes one, for the mover;
* Twenty: a play after which the other seat has no cards left (and the
  stock has some) deals that seat five — the new hand is theirs;
* 100 Silver Bars: every ``play`` and ``discard`` draws one, for the mover.

A round the rules deal without chance (:meth:`~parlour.game.State.deal_without_chance`:
Twenty with ``open_hands`` deals round 2 from round 1's cards, hands exchanged, the stock in
the order round 1 drew it) has no chance nodes, not even for its draws.  The engine puts each card in
place (``State.arrange_stock``) and keeps its round's deal in the order the
cards were drawn, so :func:`parlour.record.to_data` of :attr:`ParlourState.engine`
replays to the same scores.

**Observations.**  ``observation_string``: the seat's
:meth:`~parlour.game.State.observation` as JSON; ``observation_tensor``:
:meth:`GameSpace.encode_state` (all zero before round 1 is dealt).
``information_state_string``: perfect recall — every move of the match in
notation and every chance outcome as the seat saw it (``1:7H`` a card dealt
to seat 1 that the seat sees, ``1:?`` one it does not, ``R:7H`` a card
revealed to all; rounds separated by ``|``).  ``information_state_tensor``:
the observation vector followed by the counts of the cards the seat has
seen dealt or drawn this round (by chance outcome id) — the observation
holds the rest of the public history the scoring needs, but the tensor is
not strictly perfect recall (the string is).

**Utilities** are zero-sum for two and three players: each seat gets its
match total (with ``rounds_only``, its round score) minus the mean of the
others', in points, at the end (terminal rewards).  The game's declared sizes
come from :meth:`~parlour.game.Game.bounds` under the options: ``max_utility``
(= −``min_utility``) is the rounds times the most a seat's round score can
exceed the others' mean, ``max_game_length`` the rounds times the most moves
in a round, and ``max_chance_nodes_in_history`` one per card of the deck in
each dealt round; ``tests/envs/test_bounds.py`` plays thousands of random
matches inside them.  Options that would make a round or match unbounded
(``stall_limit=0``, ``max_rounds=0``) are refused.

**Search.**  :meth:`ParlourState.resample_from_infostate` (used by
OpenSpiel's ``ISMCTSBot``) samples a state consistent with what a seat has
seen with :meth:`~parlour.game.Game.determinize` on its observation; the
chance outcomes that seat saw keep their cards, the others take the sampled
world's cards.  In the sampled state the other seats' information state
strings begin with the resampling seat's view of the earlier rounds (the
hidden past is not reconstructed).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from parlour import games
from parlour.cards import Card
from parlour.envs.spaces import GameSpace, space
from parlour.game import Deal, Game, Move, State

__all__ = ["GAME_CLASSES", "SHORT_NAMES", "ParlourGame", "ParlourState", "load", "register", "register_all",
           "short_name"]


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a parlour game: ``python_parlour_minus_twenty``."""
    return "python_parlour_" + game_id.replace("-", "_")

_MOVE, _DEAL, _DRAW = 0, 1, 2
"""Kinds of entry in a round's log: a player's move; a card dealt (owner: a seat,
or −1 for Twenty's revealed cards); a card drawn from the stock (owner: the seat
that receives it)."""
_PUBLIC = -1

def _options_parameter(text: str) -> str:
    """The rule options in the form a game string can carry (``hand_size:8;rounds:1``): OpenSpiel
    writes a game as ``name(param=value,…)`` and reads it back so (pickling a state, serialized
    games), where ``hand_size=8,rounds=1`` would read as parameters of their own."""
    items = filter(None, (p.strip() for p in text.replace(";", ",").split(",")))
    return ";".join(item.replace("=", ":", 1) if ":" not in item else item for item in items)


def _parse_options(game: Game, text: str) -> dict[str, Any]:
    """``"hand_size=8,rounds=1"`` → checked options with defaults filled in.  In a
    ``load_game`` string, where ``,`` and ``=`` are taken, write ``hand_size:8;rounds:1``."""
    given: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        name, sep, value = item.replace(":", "=", 1).partition("=")
        if not sep:
            raise ValueError(f"option {item!r} must be NAME=VALUE (or NAME:VALUE)")
        given[name.strip()] = game.option(name.strip()).parse_text(value)
    return game.check_options(given)


@dataclass
class _Spec:
    """Everything fixed for a loaded game: rules, options, tables."""

    game: Game
    options: dict[str, Any]
    rounds_only: bool
    first: int
    players: int
    space: GameSpace
    cards: tuple[Card, ...]
    card_index: dict[Card, int]
    deck: Counter[Card]
    layout: list[tuple[str, int]]
    """Where each card dealt at the start of a round goes, in dealing order (``Game.deal_layout``)."""
    slots: list[int]
    """Owner of each card dealt at the start of a round, in dealing order (−1: a public zone)."""
    face_up: bool
    """Every hand lies face up (``Game.hands_face_up``): each seat sees every card dealt or drawn."""
    obs_size: int
    slot_place: list[int] = field(default_factory=list)
    """Where each card dealt goes in its owner's hand (or among the revealed cards)."""

    def __post_init__(self) -> None:
        seen: Counter[int] = Counter()
        for owner in self.slots:
            self.slot_place.append(seen[owner])
            seen[owner] += 1


def _make_spec(game_id: str, rounds_only: bool, first: int, options_text: str) -> _Spec:
    game = games.get(game_id)
    options = _parse_options(game, options_text)
    if not 0 <= first < game.players:
        raise ValueError(f"first must be a seat from 0 to {game.players - 1}, not {first}")
    cards = game.card_universe()
    deck = game.deck(options)
    layout = game.deal_layout(options)
    slots = [seat if zone == "hands" else _PUBLIC for zone, seat in layout]
    sp = space(game_id, options)
    return _Spec(game, options, rounds_only, first, game.players, sp, cards, {c: i for i, c in enumerate(cards)},
                 Counter(deck), layout, slots, game.hands_face_up(options), sp.obs_shape[0])


# -- the state's contents ----------------------------------------------------------------


class _World:
    """What an OpenSpiel state holds, copied quickly (OpenSpiel clones states with
    ``copy.deepcopy`` of each attribute: this is the only one)."""

    __slots__ = ("dealt", "done", "engine", "filled", "full", "info", "known_stock", "log", "pending", "receiver",
                 "spec", "to_draw")

    def __init__(self, spec: _Spec) -> None:
        self.spec = spec
        self.engine: State | None = None
        self.dealt: list[Card] | None = []
        """Cards dealt so far while a round is being dealt; None during play."""
        self.pending: Move | None = None
        """A move waiting for its stock cards (chance nodes) before the engine applies it."""
        self.to_draw = 0
        self.filled = 0
        self.receiver = 0
        self.log: list[tuple[int, int, int, int]] = []
        """This round: (kind, owner or player, stock position or slot, action id or card)."""
        self.info = [""] * spec.players
        self.full = ""
        self.known_stock = False
        """This round was dealt without chance (``State.deal_without_chance``): its stock lies as
        the deal says, so its draws are no chance nodes."""
        self.done = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _World:
        other = _World.__new__(_World)
        other.spec = self.spec
        other.engine = self.engine.copy() if self.engine is not None else None
        other.dealt = list(self.dealt) if self.dealt is not None else None
        other.pending = self.pending
        other.to_draw = self.to_draw
        other.filled = self.filled
        other.receiver = self.receiver
        other.log = list(self.log)
        other.info = list(self.info)
        other.full = self.full
        other.known_stock = self.known_stock
        other.done = self.done
        return other

    # -- who sees what ---------------------------------------------------------------
    def sees(self, seat: int, owner: int) -> bool:
        return owner == _PUBLIC or owner == seat or self.spec.face_up

    def note_card(self, owner: int, card: Card) -> None:
        label = "R" if owner == _PUBLIC else str(owner)
        text = str(card)
        for seat in range(self.spec.players):
            self.info[seat] += f" {label}:{text if self.sees(seat, owner) else '?'}"
        self.full += f" {label}:{text}"

    def note_move(self, move: Move) -> None:
        text = f" {move}"
        for seat in range(self.spec.players):
            self.info[seat] += text
        self.full += text

    def note_round(self) -> None:
        for seat in range(self.spec.players):
            self.info[seat] += " |"
        self.full += " |"

    # -- chance ----------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealt is not None:
            left = self.spec.deck.copy()
            left.subtract(self.dealt)
        else:
            engine = self.engine
            assert engine is not None
            left = Counter(engine.stock_left()[self.filled:])
        total = sum(n for n in left.values() if n > 0)
        index = self.spec.card_index
        return sorted((index[c], n / total) for c, n in left.items() if n > 0)

    def apply_chance(self, outcome: int) -> None:
        card = self.spec.cards[outcome]
        if self.dealt is not None:
            slot = len(self.dealt)
            owner = self.spec.slots[slot]
            self.dealt.append(card)
            self.log.append((_DEAL, owner, self.spec.slot_place[slot], card))
            self.note_card(owner, card)
            if len(self.dealt) == len(self.spec.slots):
                self.start_round()
            return
        engine = self.engine
        assert engine is not None and self.pending is not None
        assert engine.deal is not None
        at = len(engine.deal["stock"]) - len(engine.stock_left()) + self.filled  # its place in the round's stock
        engine.arrange_stock(self.filled, card)
        self.log.append((_DRAW, self.receiver, at, card))
        self.note_card(self.receiver, card)
        self.filled += 1
        if self.filled == self.to_draw:
            move, self.pending = self.pending, None
            engine.apply(move)
            self.settle()

    def start_round(self) -> None:
        """Every card of the deal is placed: give the engine the round."""
        spec = self.spec
        assert self.dealt is not None
        hands: list[list[Card]] = [[] for _ in range(spec.players)]
        deal: Deal = {"hands": hands}
        for (zone, seat), card in zip(spec.layout, self.dealt):
            (hands[seat] if zone == "hands" else deal.setdefault(zone, [])).append(card)
        stock = Counter(spec.deck)
        stock.subtract(self.dealt)
        deal["stock"] = sorted(stock.elements())
        self.dealt = None
        if self.engine is None:
            self.engine = spec.game.new_match(deal=deal, first=spec.first, options=spec.options)
        else:
            self.engine.next_round(deal)

    # -- moves -----------------------------------------------------------------------
    def apply_move(self, action: int) -> None:
        engine = self.engine
        assert engine is not None
        move = self.spec.space.actions[action]
        player = engine.current_player()
        self.log.append((_MOVE, player if player is not None else -1, 0, action))
        self.note_move(move)
        count, receiver = engine.stock_draws(move)
        if count and self.known_stock:
            # A round dealt without chance: the stock's cards lie as dealt, so a draw is no chance.
            assert engine.deal is not None
            at = len(engine.deal["stock"]) - len(engine.stock_left())
            for offset, card in enumerate(engine.stock_left()[:count]):
                self.log.append((_DRAW, receiver, at + offset, card))
                self.note_card(receiver, card)
            count = 0
        if count:
            self.pending, self.to_draw, self.filled, self.receiver = move, count, 0, receiver
            return
        engine.apply(move)
        self.settle()

    def settle(self) -> None:
        """After a move: end the episode, or start the next round's deal."""
        engine = self.engine
        assert engine is not None
        if not engine.is_round_over():
            return
        if self.spec.rounds_only or engine.is_match_over():
            self.done = True
            return
        self.log = []
        self.note_round()
        # The round's deal is as it turned out (arrange_stock keeps its stock in the order drawn),
        # so a next round the rules make from it is known now.
        fixed = engine.deal_without_chance()
        self.known_stock = fixed is not None
        if fixed is not None:
            engine.next_round(fixed)
            return
        self.dealt = []

    # -- views -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.done:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.dealt is not None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine is not None
        player = self.engine.current_player()
        assert player is not None
        return player

    def seen_counts(self, seat: int) -> list[int]:
        counts = [0] * len(self.spec.cards)
        index = self.spec.card_index
        for kind, owner, _, value in self.log:
            if kind != _MOVE and self.sees(seat, owner):
                counts[index[Card(value)]] += 1
        return counts

    def returns(self) -> list[float]:
        engine = self.engine
        if not self.done or engine is None:
            return [0.0] * self.spec.players
        points = engine.scores if self.spec.rounds_only else engine.totals
        total = sum(points)
        others = self.spec.players - 1
        return [float(p - (total - p) / others) for p in points]


# -- OpenSpiel classes ----------------------------------------------------------------------

_PARAMETERS = {"rounds_only": False, "first": 0, "options": ""}


def _game_type(game_id: str) -> Any:
    game = games.get(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Python parlour {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.players,
        min_num_players=game.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMETERS),
    )


class ParlourGame(pyspiel.Game):  # type: ignore[misc]
    """One of parlour's games as an OpenSpiel game (see the module docstring)."""

    game_id = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        values = {**_PARAMETERS, **(params or {})}
        spec = _make_spec(self.game_id, bool(values["rounds_only"]), int(values["first"]), str(values["options"]))
        try:  # OpenSpiel must know how long a game can last
            rounds, moves, per_round = games.get(self.game_id).bounds(spec.options)
        except ValueError as exc:
            raise ValueError(f"the OpenSpiel adapter needs matches that end: {exc}") from None
        if spec.rounds_only:
            rounds = 1
        # Every chance node places one card of the round's deck; a round dealt without chance has none.
        game = spec.game
        dealt_rounds = sum(1 for r in range(rounds) if game.dealt_by_chance(spec.options, r))
        self._max_chance_nodes = dealt_rounds * sum(spec.deck.values())
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.space.num_actions,
            max_chance_outcomes=len(spec.cards),
            num_players=spec.players,
            min_utility=-float(rounds * per_round),
            max_utility=float(rounds * per_round),
            utility_sum=0.0,
            max_game_length=rounds * moves,
        )
        parameters = {**values, "options": _options_parameter(str(values["options"]))}
        super().__init__(_game_type(self.game_id), info, parameters)
        self.spec = spec

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes a match (or round) holds: one per card of the deck in each
        round that is dealt (OpenSpiel's default, ``max_game_length``, counts moves instead)."""
        return self._max_chance_nodes

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its class and parameters (multiprocessing, Ray): OpenSpiel's own way
        goes through the game's string, in which rule options such as ``open_hands=True``
        would read as parameters of their own."""
        return (type(self), (dict(self.get_parameters()),))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The chance outcome table: outcome id → card."""
        return self.spec.cards

    @property
    def actions(self) -> tuple[Move, ...]:
        """The player action table: action id → move (``space(game_id).actions``)."""
        return self.spec.space.actions

    def new_initial_state(self) -> ParlourState:
        """A match (or round) about to be dealt."""
        return ParlourState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | _PartObserver:
        """The observer that ``iig_obs_type`` asks for: a seat's observation (public and its own
        private information, the default), with perfect recall its information state; or, without
        perfect recall, the public part alone (the same for every seat), the seat's private part
        alone, or nothing.  No observer shows every seat's private information, and perfect recall
        comes only with a seat's own view: others raise ``ValueError``."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None:
            return _Observer(self.spec, False)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("no observer shows every seat's private information (hidden hands)")
        own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.public_info and own:
            return _Observer(self.spec, bool(iig_obs_type.perfect_recall))
        if iig_obs_type.perfect_recall:
            raise ValueError("perfect recall is given only with a seat's own view (public and private information)")
        return _PartObserver(self.spec, bool(iig_obs_type.public_info), own)


class ParlourState(pyspiel.State):  # type: ignore[misc]
    """A parlour match (or round) as an OpenSpiel state; :attr:`engine` is the parlour state."""

    def __init__(self, game: ParlourGame) -> None:
        super().__init__(game)
        self._w = _World(game.spec)

    @property
    def engine(self) -> State | None:
        """The parlour state (None until round 1 is dealt)."""
        return self._w.engine

    def current_player(self) -> int:
        """The seat to move, or CHANCE, or TERMINAL."""
        return self._w.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._w.engine
        assert engine is not None and player == engine.current_player()
        index = self._w.spec.space.index
        return sorted(index[m] for m in engine.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card: (outcome id, probability) over the cards not yet placed."""
        return self._w.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._w.dealt is not None or self._w.pending is not None:
            self._w.apply_chance(action)
        else:
            self._w.apply_move(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self._w.spec.cards[action])
        return str(self._w.spec.space.actions[action])

    def is_terminal(self) -> bool:
        """True once the match (or, with ``rounds_only``, the round) is over."""
        return self._w.done

    def returns(self) -> list[float]:
        """Each seat's total (or round score) minus the mean of the others'; 0 before the end."""
        return self._w.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParlourState:
        """A state consistent with everything ``player_id`` has seen (for IS-MCTS)."""
        w = self._w
        engine = w.engine
        if engine is None or w.dealt is not None or w.pending is not None or w.done:
            raise ValueError("resample_from_infostate needs a state where a player is to move")
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = w.spec.game.determinize(engine.observation(player_id), rng)
        deal = sampled.deal
        if deal is None:  # the hidden cards dealt and drawn this round are read from the sampled deal
            raise ValueError(f"{w.spec.game.name}'s determinize gives no deal, which resample_from_infostate needs")
        state = ParlourState(self.get_game())
        new = state._w
        new.engine = sampled
        new.dealt = None
        new.known_stock = w.known_stock
        cut = w.info[player_id].rfind(" |")
        past = w.info[player_id][:cut + 2] if cut >= 0 else ""
        new.info = [w.info[player_id] if s == player_id else past for s in range(w.spec.players)]
        new.full = past
        for kind, owner, where, value in w.log:
            if kind == _MOVE:
                new.log.append((kind, owner, where, value))
                text = f" {w.spec.space.actions[value]}"
                new.info = [t if s == player_id else t + text for s, t in enumerate(new.info)]
                new.full += text
                continue
            card = Card(value)
            if not w.sees(player_id, owner):
                card = deal["hands"][owner][where] if kind == _DEAL else deal["stock"][where]
            new.log.append((kind, owner, where, card))
            label = "R" if owner == _PUBLIC else str(owner)
            new.info = [t if s == player_id else t + f" {label}:{card if new.sees(s, owner) else '?'}"
                        for s, t in enumerate(new.info)]
            new.full += f" {label}:{card}"
        return state

    def __str__(self) -> str:
        return self._w.full.strip() or "(nothing dealt yet)"


class _Observer:
    """OpenSpiel's PyObserver: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, spec: _Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        size = spec.obs_size + (len(spec.cards) if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourState, player: int) -> None:
        w = state._w
        self.tensor.fill(0.0)
        if w.engine is not None:
            self.tensor[:self.spec.obs_size] = self.spec.space.encode_state(w.engine, player)
        if self.perfect_recall:
            self.tensor[self.spec.obs_size:] = w.seen_counts(player)

    def string_from(self, state: ParlourState, player: int) -> str:
        w = state._w
        if self.perfect_recall:
            return f"seat {player}:{w.info[player]}"
        if w.engine is None:
            return f"seat {player}: dealing round 1:{w.info[player]}"
        return json.dumps(w.engine.observation(player), sort_keys=True, separators=(",", ":"))


class _PartObserver:
    """A part of a seat's observation: the public part (what everyone sees, in seat order, the
    same tensor and string for every seat), the seat's private part (its hand, and in 100
    Silver Bars what it has not seen), both, or nothing (:meth:`GameSpace.encode_public`,
    :meth:`GameSpace.encode_private`).  The string lists the tensor's entries that are not 0."""

    def __init__(self, spec: _Spec, public: bool, private: bool) -> None:
        self.spec = spec
        self.public = public
        self.private = private
        size = (spec.space.public_size if public else 0) + (spec.space.private_size if private else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourState, player: int) -> None:
        engine = state._w.engine
        self.tensor.fill(0.0)
        if engine is None:  # still dealing round 1: nothing is seen yet
            return
        space = self.spec.space
        at = 0
        if self.public:
            self.tensor[:space.public_size] = space.encode_public(engine)
            at = space.public_size
        if self.private:
            self.tensor[at:] = space.encode_private(engine, player)

    def string_from(self, state: ParlourState, player: int) -> str:
        self.set_from(state, player)
        parts = "public" if self.public else ""
        if self.private:
            parts = f"{parts}+seat {player}'s own" if parts else f"seat {player}'s own"
        entries = ",".join(f"{i}:{v:g}" for i, v in enumerate(self.tensor.tolist()) if v)
        return f"{parts or 'nothing'}:{entries}"


# -- registration ------------------------------------------------------------------------------

GAME_CLASSES: dict[str, type[ParlourGame]] = {}
"""The OpenSpiel game class of each parlour game registered with OpenSpiel so far."""

SHORT_NAMES: dict[str, str] = {}
"""The OpenSpiel short name of each parlour game registered with OpenSpiel so far."""


def register(game_id: str) -> type[ParlourGame]:
    """Register the game ``game_id`` of parlour's registry with OpenSpiel (once; a plug-in's game
    too), so that ``pyspiel.load_game(short_name(game_id))`` loads it; return its class."""
    found = GAME_CLASSES.get(game_id)
    if found is not None:
        return found
    entry = games.entry(game_id)
    cls: type[ParlourGame] = type(f"{entry.camel_name}Game", (ParlourGame,),
                                  {"game_id": game_id, "__doc__": f"{games.get(game_id).name} as an OpenSpiel game."})
    pyspiel.register_game(_game_type(game_id), cls)
    # A module attribute of its own name, so that pickle finds the class (multiprocessing, Ray).
    globals()[cls.__name__] = cls
    GAME_CLASSES[game_id] = cls
    SHORT_NAMES[game_id] = short_name(game_id)
    return cls


def register_all() -> None:
    """Register every game parlour knows with OpenSpiel: the family's, and every plug-in's
    registered so far (those named in ``PARLOUR_PLUGINS`` are, when this module is imported)."""
    for game_id in games.ids():
        register(game_id)


def __getattr__(name: str) -> type[ParlourGame]:
    """A game class not registered yet, by its name (``LadderGame``): what pickle asks for in a
    process where a plug-in's game was registered after this module was imported."""
    for game_id in games.ids():
        if f"{games.entry(game_id).camel_name}Game" == name:
            return register(game_id)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_all()


def load(game_id: str, *, rounds_only: bool = False, first: int = 0,
         options: Mapping[str, Any] | Sequence[str] | None = None) -> ParlourGame:
    """``pyspiel.load_game`` for a parlour game id (registered with OpenSpiel now if need be), with
    options as a mapping."""
    register(game_id)
    text = ""
    if isinstance(options, Mapping):
        text = ",".join(f"{k}={'none' if v is None else v}" for k, v in options.items())
    elif options:
        text = ",".join(options)
    game: ParlourGame = pyspiel.load_game(short_name(game_id),
                                          {"rounds_only": rounds_only, "first": first, "options": text})
    return game
