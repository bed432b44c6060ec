"""What every game shares: moves, errors, options, events, the State contract
and the registry of games.

The contract follows python-chess (``push``/``pop`` become :meth:`State.apply`
and :meth:`State.undo`, with a public move stack) and OpenSpiel (current
player, legal moves, observation per seat).  Every game, bot, CLI command,
web handler and RL adapter talks to a game only through the names defined
here.

A match is a series of rounds.  Within a round, players make moves; when the
round is over, :meth:`State.next_round` deals the next one (from the state's
seeded RNG, or from an explicit deal when a record is replayed).
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, ClassVar, NamedTuple, TypeAlias

from typing_extensions import TypedDict

from parlour.cards import SUITS, Card, sort_hand
from parlour.narrate import Voice, arg_text, card_text, event_text, typed_text, wrong_text

Arg: TypeAlias = "Card | str | int"
Deal: TypeAlias = dict[str, Any]
"""A round's cards as dealt: a mapping of zone name to cards (or lists of
card lists, one per seat), e.g. ``{"hands": [[...], [...]], "stock": [...]}``.
The stock lists its top card first."""
Observation: TypeAlias = dict[str, Any]
"""What one seat may see, as JSON-ready data (see :meth:`State.observation`); each
game describes its own exactly as a :class:`BaseObservation` (``Game.observation_type``)."""


class BaseObservation(TypedDict):
    """The part of an observation every game shares (each game's own type extends it
    with what its table shows; ``conformance.py`` holds every observation to it)."""

    game: str
    """The game's id."""
    options: dict[str, Any]
    """The match's options, every default filled in."""
    seat: int
    """The seat this observation is for."""
    names: list[str]
    """The players' names by seat."""
    first: int
    """The seat that started the match."""
    round: int
    """The round being played, from 1."""
    history: list[list[int]]
    """Each finished round's scores by seat."""
    to_move: int | None
    """The seat to move, or None when the round is over."""
    round_over: bool
    match_over: bool
    moves: list[str]
    """This round's moves so far, in notation."""
    scores: list[int]
    """This round's scores so far by seat."""
    totals: list[int]
    """The match totals by seat (this round included)."""


class MoveSyntaxError(ValueError):
    """Text that is not a move of this game at all (bad verb, bad arguments)."""


@dataclass(frozen=True)
class Wrong:
    """Why the rules refuse a move, as data: the narrator words it for each reader
    (:func:`parlour.narrate.wrong_text`), in the second person for the seat that tried it.

    ``text`` is a template like an :class:`Event`'s: ``{player}`` is the seat that tried
    the move (``You`` to that seat, its name to anyone else), ``{you}`` the same later in
    a sentence, ``{your}`` its possessive (``your``, ``Ann's``), ``{other's}`` the
    possessive of the seat ``other``, ``{hand}`` the mover's hand (said to the mover
    alone), and any other ``{verb}`` a verb agreeing with ``{player}``.  Cards are
    written as the log writes them (``9♣``, ``10♣``).
    """

    kind: str
    """What is wrong, for code to tell apart: ``not_in_hand``, ``must_draw``, ``must_play``,
    ``empty_pile``, ``round_over``, ``rule`` (any other rule of the game)."""
    text: str
    hand: tuple[Card, ...] = ()
    """The mover's hand in the order the table shows it (for ``{hand}``)."""
    other: int | None = None
    """A second seat the reason is about (the opponent whose vaults it names)."""

    @classmethod
    def not_in_hand(cls, card: Card, hand: Iterable[Card]) -> Wrong:
        """``card`` is not among the mover's ``hand`` (listed to the mover as the table shows it)."""
        return cls("not_in_hand", f"{card_text(card)} is not in {{your}} hand{{hand}}", tuple(sort_hand(hand)))


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position.

    Raised by a game, it carries what is wrong as data: the ``move``, the ``seat`` that
    tried it, the players' ``names`` and the :class:`Wrong`; its text is the narrator's
    sentence for a spectator (it names no hidden card).  A front end words it for its own
    reader with :func:`parlour.narrate.illegal_text`.  Raised with a message alone (by an
    adapter), it has no seat and no ``wrong``.
    """

    def __init__(self, message: str, *, move: Move | None = None, seat: int | None = None,
                 names: Sequence[str] = (), wrong: Wrong | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.seat = seat
        self.names = tuple(names)
        self.wrong = wrong


class OptionError(ValueError):
    """An unknown rule option or a bad value for one."""


class MissingRulesError(ValueError):
    """A game that has no rules text to show (see :meth:`Game.rules` and :meth:`Game.turn`)."""


class Move(NamedTuple):
    """A move: a lower-case verb and its arguments (cards, suit letters, numbers).

    ``str(move)`` is the notation of NOTATION.md; :meth:`parse` reverses it
    exactly.  Moves are plain values: equal text means equal moves.
    """

    verb: str
    args: tuple[Card | str | int, ...] = ()

    def __str__(self) -> str:
        try:
            known = _MOVE_TEXT.get(self)
        except TypeError:  # arguments that cannot be hashed (built in code, never typed): say them
            return self.verb + " " + " ".join(map(str, self.args)) if self.args else self.verb
        if known is not None:
            move, text = known
            # A card is an int: play 5 equals play 2D (card code 5) but reads otherwise.
            if move is self or list(map(type, move.args)) == list(map(type, self.args)):
                return text
        text = self.verb + " " + " ".join(map(str, self.args)) if self.args else self.verb
        if known is None and len(_MOVE_TEXT) < _MOVE_TEXT_LIMIT:
            _MOVE_TEXT[self] = (self, text)
        return text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    # The arguments by kind, typed: a game reads its moves' arguments with these (a rule's
    # hot path, which has checked the move's shape already, may read ``args`` itself).
    def card(self, index: int = 0) -> Card:
        """The argument at ``index`` (from 0) as the card it is: ``play 7H`` → 7♥.
        :class:`MoveSyntaxError` if that argument is missing or not a card."""
        arg = self.args[index] if index < len(self.args) else None
        if type(arg) is not Card:
            raise MoveSyntaxError(f"Argument {index + 1} of '{typed_text(self)}' is not a card")
        return arg

    def suit(self, index: int = 0) -> str:
        """The argument at ``index`` as a suit letter: ``take H`` → ``H``.
        :class:`MoveSyntaxError` if that argument is missing or not a suit."""
        arg = self.args[index] if index < len(self.args) else None
        if type(arg) is not str:
            raise MoveSyntaxError(f"Argument {index + 1} of '{typed_text(self)}' is not a suit")
        return arg

    def number(self, index: int = 0) -> int:
        """The argument at ``index`` as a number (a card is no number): ``lock 3`` → 3.
        :class:`MoveSyntaxError` if that argument is missing or not a number."""
        arg = self.args[index] if index < len(self.args) else None
        if type(arg) is not int:
            raise MoveSyntaxError(f"Argument {index + 1} of '{typed_text(self)}' is not a number")
        return arg

    def numbers(self) -> list[int]:
        """Every argument that is a number (a card is no number), in order: ``play 8S 2`` → [2]."""
        return [arg for arg in self.args if type(arg) is int]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move without any game context.

        Arguments are read as numbers (``2``), suit letters (``H``) or cards
        (``7h``, ``10h``, ``JK``).  Raises :class:`MoveSyntaxError`.
        """
        return _parse_move(text)


_MOVE_TEXT: dict[Move, tuple[Move, str]] = {}
"""Each move's notation, rendered once (with the move it was rendered from: moves that are
equal as values may differ in the types of their arguments): observations hand out the
whole round's moves."""
_MOVE_TEXT_LIMIT = 1 << 16
"""More distinct moves than every game together has (legal moves only reach a state)."""


@functools.lru_cache(maxsize=8192)
def _parse_move(text: str) -> Move:
    """:meth:`Move.parse`, remembered: search bots re-read the same move texts
    from observations thousands of times."""
    words = text.split()
    if not words:
        raise MoveSyntaxError("Empty move (expected a verb and its cards, such as 'play <card>')")
    verb = words[0].lower()
    if not verb.isalpha():
        raise MoveSyntaxError(f"A move starts with a verb such as 'play', not {words[0]!r}")
    args: list[Card | str | int] = []
    for word in words[1:]:
        if word.isdigit():  # "10" alone is a number; the ten of hearts is "10h"
            args.append(int(word))
        elif len(word) == 1 and word.upper() in SUITS:
            args.append(word.upper())
        else:
            try:
                args.append(Card.parse(word))
            except ValueError:
                raise MoveSyntaxError(
                    f"{word!r} is neither a card (rank then suit, such as 9c), a suit (C D H S) nor a number"
                ) from None
    return Move(verb, tuple(args))


@dataclass(frozen=True)
class Option:
    """A rule option: its name as RULINGS.md gives it, default, and allowed values."""

    name: str
    default: Any
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    designer: bool = False
    """An option for designers and studies, not one of the real game's: a smaller deck, another
    reading of a ruling, a safety limit (the new-table form keeps these out of a newcomer's way)."""

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is allowed, else raise :class:`OptionError`."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(f"option {self.name!r} needs a value")
        if self.kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(f"option {self.name!r} must be a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value

    def parse_text(self, text: str) -> Any:
        """Read a value typed on a command line (``8``, ``true``, ``none``)."""
        low = text.strip().lower()
        if self.nullable and low in ("none", "null", ""):
            return None
        if self.kind is bool:
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise OptionError(f"option {self.name!r} must be true or false, not {text!r}")
        try:
            number = int(low)
        except ValueError:
            raise OptionError(f"option {self.name!r} must be a whole number, not {text!r}") from None
        return self.check(number)


class Event(NamedTuple):
    """Something that happened, as data, with the game's wording of it.

    ``text`` is a template that :func:`parlour.narrate.event_text` words for
    each reader: ``{player}`` is the acting seat (``You`` to that seat, its
    name to anyone else), ``{player's}`` its possessive at the start of a
    sentence (``Your``, ``Bob's``), ``{their}`` the acting seat's possessive
    later in the sentence (``your``, ``their``), ``{other's}`` the possessive of
    the seat ``other`` (``your`` to that seat), and any other ``{verb}`` a verb
    in its base form that agrees with ``{player}``: ``{player} {score} 10``
    reads ``You score 10`` or ``Bob scores 10``.
    """

    move: int
    """How many moves of the round had been made when it happened (0: the deal)."""
    seat: int | None
    kind: str
    """What the rules call it: ``Exact Twenty``, ``Five Tally``, ``End of Round Bonus``."""
    points: int
    text: str
    other: int | None = None
    """A second seat the sentence is about (the player robbed by a theft)."""

    def describe(self, names: Sequence[str], viewer: int | None = None) -> str:
        """The event as a sentence for ``viewer`` (``None``: a spectator, who sees
        every seat by name): ``Bertha scores 10 for Exact Twenty``, ``You score 10 …``."""
        return event_text(self, names, viewer)


class CardRole(NamedTuple):
    """What a card is in a game, for a front end to print on it: ``CardRole("bar 1", "bar", "bar 1")``
    for a silver bar, ``CardRole("×", "invest", "multiplier")`` for an investment card."""

    tag: str
    """A few characters printed on the card: ``bar 1``, ``×``, ``7``."""
    kind: str
    """The kind of card, the same for every card of the kind: ``bar``, ``thief``, ``invest``."""
    note: str = ""
    """Said after the card's name where the tag alone is not enough: ``multiplier``."""


class Bounds(NamedTuple):
    """The size of a game under some options (see :meth:`Game.bounds`)."""

    rounds: int
    """The most rounds a match can last."""
    moves: int
    """The most moves a round can last."""
    points: int
    """More than the difference of two seats' scores in one round can be."""


@dataclass(frozen=True)
class RoundEnding:
    """One way a round of a game can end, as the game declares it (:attr:`Game.endings`)."""

    name: str
    """How people say it: ``Stall rule``, ``Lock-out``, ``Draw pile empty``."""
    kind: str | None
    """The event kind that says a round ended this way; ``None`` for the game's usual end,
    which no event announces (a round that shows none of the other kinds ended so)."""
    stall: bool = False
    """Whether this end stops play that went round in circles (the stall rule): the lab
    reports such rounds as anomalies, with an example to replay."""


class RoundResult(NamedTuple):
    """A finished round: its deal, its moves, its scores and its events."""

    deal: Deal | None
    moves: list[Move]
    scores: list[int]
    events: list[Event]


class Game(ABC):
    """A game's metadata and its factory of states.

    Subclasses set the class attributes up front, as OpenSpiel's
    ``_GAME_TYPE`` does, and bump :attr:`version` whenever behaviour changes.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    players: ClassVar[int]
    version: ClassVar[str]
    summary: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    micro_options: ClassVar[Mapping[str, Any]] = {}
    """The rule options of the game's *micro variant*: the same rules on a smaller deck, with
    smaller hands and one short round, small enough that OpenSpiel's CFR+ solves it in minutes
    (``docs/research.md``, ``benchmarks/solve.py``).  Empty for a game without one."""
    deal_zones: ClassVar[tuple[str, ...]]
    """The keys of this game's deal, in record order."""
    event_kinds: ClassVar[tuple[str, ...]]
    """Every kind of :class:`Event` the game records (what its rules call the things that happen)."""
    told_by_moves: ClassVar[tuple[str, ...]] = ()
    """The event kinds that the sentence of the move making them already tells (100 Silver Bars'
    theft is the thief's move): a log that shows the moves leaves these events out, so that
    nothing is told twice (:func:`parlour.narrate.told_events`)."""
    observation_type: ClassVar[type[Any]] = BaseObservation
    """What :meth:`State.observation` gives, key by key: a :class:`BaseObservation` subtype."""
    endings: ClassVar[tuple[RoundEnding, ...]]
    """How a round can end, the strongest sign first: a round that shows the event kinds of
    several endings ended by the first of them; one that shows none ended by the ending whose
    kind is ``None``.  ``conformance.py`` checks that every round ends by exactly one."""

    plain_card: ClassVar[str] = "card"
    """What the game calls a card that has no :meth:`card_role` (``number`` in Minus Twenty)."""

    def card_universe(self) -> tuple[Card, ...]:
        """Every card that any choice of options can deal, in card-code order, once each
        (the chance outcomes of a deal or a draw)."""
        return tuple(sorted(set(self.deck(self.check_options()))))

    def deal_layout(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        """Where each card dealt at the start of a round goes, in dealing order: ``("hands",
        seat)`` for a seat's hand, ``(zone, -1)`` for a zone of the deal everyone sees (Twenty's
        revealed cards).  The rest of the deck is the stock.  This default deals the same number
        of cards to every hand: :meth:`hand_size`."""
        return [("hands", seat) for seat in range(self.players) for _ in range(self.hand_size(options))]

    def hand_size(self, options: Mapping[str, Any]) -> int:
        """Cards dealt to each hand at the start of a round."""
        raise NotImplementedError(f"{self.name} does not say how many cards it deals")

    def dealt_by_chance(self, options: Mapping[str, Any], round_index: int) -> bool:
        """Whether round ``round_index`` (from 0) is shuffled and dealt (True, as in most games),
        or made from the rounds before it without chance (False: :meth:`State.deal_without_chance`
        gives its deal; Twenty with ``open_hands`` replays round 1's deal in round 2)."""
        return True

    def hands_face_up(self, options: Mapping[str, Any]) -> bool:
        """Whether under ``options`` every hand lies face up, so that every seat sees each card
        dealt or drawn into any hand (Twenty's ``open_hands``).  False by default."""
        return False

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the parts of the table in ``view`` (a seat's observation, or the public view
        a spectator gets) are worth now, for a front end to show without scoring anything
        itself: ``{"melds": [{"H": -11, "S": None, …}, …]}``.  None by default."""
        return {}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """How long a match can last and how much a round can give, under ``options``:
        what a referee that must know the game's size (OpenSpiel) asks.  Raises
        :class:`ValueError` for options under which a match need not end."""
        raise ValueError(f"{self.name} does not say how long a match can last")

    def capped(self, options: Mapping[str, Any], rounds: int, totals: Sequence[int]) -> bool:
        """Whether a finished match of ``rounds`` rounds with these ``totals`` ended only at the
        game's safety limit on rounds, short of its rules' own end (the lab reports such
        matches as anomalies).  Never, by default."""
        return False

    def move_kind(self, move: Move) -> str:
        """What kind of move ``move`` is, in the game's words, for the lab's measures of what
        matters (how often each kind is played, and what barring it costs): the verb, and the
        kind of card it names (its :meth:`card_role`, else :attr:`plain_card`): ``play thief``,
        ``discard invest``, ``take``, ``lock``."""
        card = move.args[0] if move.args else None
        if type(card) is not Card:
            return move.verb
        role = self.card_role(card)
        return f"{move.verb} {role.kind if role is not None else self.plain_card}"

    def card_role(self, card: Card) -> CardRole | None:
        """What ``card`` is in this game, for a front end to print on it (``None``: nothing
        beyond its rank and suit).  None by default."""
        return None

    def ending_of(self, kinds: Iterable[str]) -> RoundEnding:
        """How a finished round ended, from the kinds of its events."""
        seen = set(kinds)
        for ending in self.endings:
            if ending.kind is None or ending.kind in seen:
                return ending
        raise ValueError(f"a round of {self.name} with events {sorted(seen)} ended in no way it can end")

    # -- options -----------------------------------------------------------
    def option(self, name: str) -> Option:
        """The option called ``name``; :class:`OptionError` if there is none."""
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r} (its options: {known})")

    def check_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """All options with defaults filled in; unknown names and bad values raise."""
        values = {o.name: o.default for o in self.options}
        for name, value in (given or {}).items():
            values[name] = self.option(name).check(value)
        self._check_option_combination(values)
        return values

    def _check_option_combination(self, values: dict[str, Any]) -> None:  # noqa: B027 (optional hook)
        """Hook for rules about options taken together."""

    def non_default_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Only the options that differ from their defaults (what a record lists)."""
        return {o.name: values[o.name] for o in self.options if values[o.name] != o.default}

    # -- deals -------------------------------------------------------------
    @abstractmethod
    def deck(self, options: Mapping[str, Any]) -> list[Card]:
        """Every card this game is played with (twins appear twice)."""

    @abstractmethod
    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle and deal the next round of ``state`` with ``rng``."""

    @abstractmethod
    def check_deal(self, deal: Deal, state: State) -> None:
        """Raise :class:`ValueError` unless ``deal`` is a valid deal for the next round."""

    def deal_to_json(self, deal: Deal) -> dict[str, Any]:
        """A deal as JSON-ready data (cards as notation)."""
        return {key: _cards_to_json(deal[key]) for key in self.deal_zones}

    def deal_from_json(self, data: Any) -> Deal:
        """Read a deal from JSON data; raises :class:`ValueError` with a reason."""
        if not isinstance(data, dict):
            raise ValueError("deal must be an object")
        unknown = set(data) - set(self.deal_zones)
        if unknown:
            raise ValueError(
                f"deal has unknown key(s) {sorted(unknown)}; expected {list(self.deal_zones)}"
            )
        missing = [k for k in self.deal_zones if k not in data]
        if missing:
            raise ValueError(f"deal lacks {missing}")
        return {key: _cards_from_json(data[key], key) for key in self.deal_zones}

    # -- matches -----------------------------------------------------------
    @property
    @abstractmethod
    def state_class(self) -> type[State]:
        """The class of this game's states."""

    def new_match(
        self,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
        first: int | None = None,
        names: Sequence[str] | None = None,
        deal: Deal | None = None,
    ) -> State:
        """Start a match.

        Give ``seed`` (or a seeded ``rng``) for a shuffled match: the same
        seed and options give the same match everywhere.  Give ``deal`` to
        play round 1 from an explicit deal (later rounds then need explicit
        deals too, unless an RNG is given).  ``first`` is the seat that plays
        first in round 1; by default it comes from the RNG (else seat 0).
        """
        if rng is None and seed is not None:
            rng = random.Random(seed)
        values = self.check_options(options)
        if first is None:
            first = rng.randrange(self.players) if rng is not None else 0
        if not 0 <= first < self.players:
            raise ValueError(f"first must be a seat from 0 to {self.players - 1}, not {first}")
        if names is None:
            names = [f"Player {i + 1}" for i in range(self.players)]
        if len(names) != self.players:
            raise ValueError(f"{self.name} needs {self.players} players, got {len(names)} names")
        state = self.state_class(values, first, tuple(names), rng)
        state.next_round(deal)
        return state

    @abstractmethod
    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with everything in ``observation``.

        Hidden cards are placed at random with ``rng``; nothing but the
        observation is used, so search bots never see hidden truth.
        """

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        """Many :meth:`determinize` samples of one observation, as search wants them.

        The returned function gives a fresh state each call, distributed as
        ``determinize(observation, rng)``.  Games may override this with a
        faster way (rebuild once, then only re-deal the hidden cards); the
        default simply calls :meth:`determinize` each time.
        """
        return lambda rng: self.determinize(observation, rng)

    def rules(self) -> str:
        """The rules in the project's own words, with the rulings (Markdown).

        A game of parlour's own reads its page, ``parlour/rules/<id>.md``, by this default; a
        plug-in's game gives its own text by overriding it.  :class:`MissingRulesError` when
        the game has no page."""
        try:
            return files("parlour.rules").joinpath(f"{self.id}.md").read_text(encoding="utf-8")
        except FileNotFoundError:
            raise MissingRulesError(
                f"{self.name} has no rules page (parlour/rules/{self.id}.md, or its game's own rules())"
            ) from None

    def turn(self) -> str:
        """How a turn works, on one screen (Markdown): what you do on your turn, what scores, how
        the round ends and who leads it — what a newcomer reads first, before :meth:`rules`.

        A game of parlour's own reads ``parlour/rules/<id>.turn.md``; a plug-in's game overrides
        this.  :class:`MissingRulesError` when the game has no such page."""
        try:
            return files("parlour.rules").joinpath(f"{self.id}.turn.md").read_text(encoding="utf-8")
        except FileNotFoundError:
            raise MissingRulesError(
                f"{self.name} has no 'how a turn works' page (parlour/rules/{self.id}.turn.md, "
                "or its game's own turn())"
            ) from None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} v{self.version}>"


class State(ABC):
    """A match in progress: the current round's position and the finished rounds.

    Mutable, with cheap :meth:`apply`/:meth:`undo` and :meth:`copy`, because
    search bots play millions of moves.  The move stack of the current
    round is public as :attr:`moves`.
    """

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]]
    """Each verb's argument shapes (``card``, ``suit``, ``vault``), for syntax errors."""

    def __init__(
        self,
        options: dict[str, Any],
        first: int,
        names: tuple[str, ...],
        rng: random.Random | None,
    ) -> None:
        self.options = options
        self.first = first
        self.names = names
        self.rng = rng
        self.num_players = self.game.players
        self.history: list[RoundResult] = []
        """The finished rounds before the current one."""
        self.deal: Deal | None = None
        """The current round's deal, as dealt."""
        self.moves: list[Move] = []
        """The current round's moves so far."""
        self.events: list[Event] = []
        """The current round's events so far."""
        self.scores: list[int] = [0] * self.num_players
        """The current round's scores so far."""

    _rendered: tuple[list[Move], list[Move], list[str]] | None = None
    """What :meth:`move_texts` rendered last: (the move list it read, the moves it rendered,
    their texts).  Not copied: a copy renders its own once."""

    # -- rounds ------------------------------------------------------------
    @property
    def round_index(self) -> int:
        """The current round, counted from 0."""
        return len(self.history)

    def next_round(self, deal: Deal | None = None) -> None:
        """Deal the next round (the first one, for a new state).

        With no ``deal``, the state's RNG shuffles one.  The deal is checked
        against the game's deck and rules; a bad one raises :class:`ValueError`.
        """
        if self.deal is not None:
            if not self.is_round_over():
                raise ValueError("the current round is not over yet")
            if self.is_match_over():
                raise ValueError("the match is over")
            self.history.append(RoundResult(self.deal, self.moves, self.scores, self.events))
        if deal is None:
            if self.rng is None:
                raise ValueError("no deal given and no RNG to shuffle one")
            deal = self.game.random_deal(self.rng, self)
        else:
            self.game.check_deal(deal, self)
        self.deal = deal
        self.moves = []
        self.events = []
        self.scores = [0] * self.num_players
        self._start_round(deal)

    def advance(self) -> bool:
        """Deal the next round with the state's RNG if the round is over and the
        match is not; return whether it did."""
        if self.is_round_over() and not self.is_match_over():
            self.next_round()
            return True
        return False

    @abstractmethod
    def _start_round(self, deal: Deal) -> None:
        """Lay out ``deal`` as the current round's position."""

    @abstractmethod
    def round_starter(self, round_index: int) -> int:
        """The seat that plays first in round ``round_index`` (from 0), by the rules."""

    # -- turns ---------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move, or ``None`` when the round (or match) is over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every move the current player may make; empty when the round is over."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Make ``move``; :class:`IllegalMoveError` if the rules forbid it."""

    @abstractmethod
    def undo(self) -> Move:
        """Take back the last move of the current round and return it."""

    @abstractmethod
    def is_round_over(self) -> bool:
        """True once the current round has ended."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy (the RNG is copied too)."""

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every place a card can be, with the cards now there (for checks and UIs)."""

    @abstractmethod
    def snapshot(self) -> tuple[Any, ...]:
        """The complete position as comparable values (for undo checks and tests)."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: the one and only view of a state for a seat.

        Holds the seat's own hand, everything face up, the sizes of hidden
        piles and hands and the public history — never another seat's hand
        or the order of the stock (RULINGS.md, "Hidden information").
        """

    # -- match -------------------------------------------------------------
    def is_match_over(self) -> bool:
        """True once the match has ended (by default after ``rounds`` rounds)."""
        return self.is_round_over() and self.round_index + 1 >= self.options["rounds"]

    @property
    def totals(self) -> list[int]:
        """Match totals: the finished rounds, and the current one once it is over."""
        totals = [0] * self.num_players
        for result in self.history:
            for seat, points in enumerate(result.scores):
                totals[seat] += points
        if self.deal is not None and self.is_round_over():
            for seat, points in enumerate(self.scores):
                totals[seat] += points
        return totals

    def round_scores(self) -> list[list[int]]:
        """Scores of every round so far, the current one last (even if unfinished)."""
        return [list(r.scores) for r in self.history] + [list(self.scores)]

    def winners(self) -> list[int]:
        """Seats with the best total once the match is over (several on a tie)."""
        if not self.is_match_over():
            return []
        totals = self.totals
        best = max(totals)
        return [seat for seat, t in enumerate(totals) if t == best]

    # -- moves as text -------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read ``text`` as a move in this position.

        Raises :class:`MoveSyntaxError` if it is not a move of this game
        (saying what was expected) and :class:`IllegalMoveError` if it is
        one that the rules forbid here (saying why).
        """
        move = Move.parse(text)
        self.check_syntax(move)
        wrong = self.explain_illegal(move)
        if wrong is not None:
            raise self._refuse(move, wrong)
        return move

    def check_syntax(self, move: Move) -> None:
        """Raise :class:`MoveSyntaxError` unless ``move`` has one of this game's forms."""
        forms = self.move_forms.get(move.verb)
        if forms is None:
            raise MoveSyntaxError(
                f"Unknown move {move.verb!r}; {self.game.name} moves are: {self.describe_forms()}"
            )
        shape = tuple(_arg_kind(a) for a in move.args)
        for form in forms:
            if len(form) == len(shape) and all(
                want == got or (want == "vault" and got == "number") for want, got in zip(form, shape)
            ):
                return
        wanted = " or ".join(_form_text(move.verb, f) for f in forms)
        raise MoveSyntaxError(f"Expected {wanted}, not '{typed_text(move)}'")

    @classmethod
    def describe_forms(cls) -> str:
        """Every move form of this game, e.g. ``play <card>``."""
        return ", ".join(_form_text(v, f) for v, forms in cls.move_forms.items() for f in forms)

    def why_illegal(self, move: Move) -> str | None:
        """Why the (well-formed) ``move`` is not allowed now, as a spectator reads it
        (no hidden card named); ``None`` if it is allowed."""
        wrong = self.explain_illegal(move)
        return None if wrong is None else wrong_text(wrong, self.names, self.current_player(), None)

    def explain_illegal(self, move: Move) -> Wrong | None:
        """Why the (well-formed) ``move`` is not allowed now, as data; ``None`` if it is."""
        if self.current_player() is None:
            return Wrong("round_over", "The round is over")
        if move in self.legal_moves():
            return None
        reason = self._explain_illegal(move)
        return reason if isinstance(reason, Wrong) else Wrong("rule", reason)

    def _explain_illegal(self, move: Move) -> Wrong | str:
        """Why the rules forbid the well-formed, illegal ``move`` (a plain string is a rule
        said the same to every reader)."""
        return Wrong("rule", f"{{player}} may not {typed_text(move)} here")

    def _illegal(self, move: Move) -> IllegalMoveError:
        """The error for ``move``, which the rules refuse here (raised by :meth:`apply`)."""
        wrong = self.explain_illegal(move) or Wrong("rule", f"{{player}} may not {typed_text(move)} here")
        return self._refuse(move, wrong)

    def _refuse(self, move: Move, wrong: Wrong) -> IllegalMoveError:
        seat = self.current_player()
        return IllegalMoveError(wrong_text(wrong, self.names, seat, None), move=move, seat=seat,
                                names=self.names, wrong=wrong)

    # -- presentation --------------------------------------------------------
    def stock_left(self) -> list[Card]:
        """The cards still to be drawn from the stock, the next one first (the referee's
        knowledge, never a seat's)."""
        return list(self.zones().get("stock", []))

    def arrange_stock(self, offset: int, card: Card) -> None:
        """Make ``card``, one of the cards left in the stock, the one drawn ``offset`` draws
        from now (a referee's chance node: the OpenSpiel adapter); the round's deal follows."""
        raise NotImplementedError(f"{self.game.name} has no stock to arrange")

    def stock_draws(self, move: Move) -> tuple[int, int]:
        """How many cards the legal ``move``, about to be made, takes from the stock, and the
        seat that receives them (``(0, -1)``: none).  The web's undo never goes back past such a
        move, and the OpenSpiel adapter makes each card drawn a chance outcome."""
        return 0, -1

    def deal_without_chance(self) -> Deal | None:
        """The next round's deal when the rules make it from the rounds before, with no shuffle
        (Twenty with ``open_hands``: round 1's deal with the hands exchanged, the stock in the
        order round 1 drew it), or None when the next round is shuffled (the default); asked
        once the round is over.  :meth:`next_round` deals exactly this deal; the OpenSpiel
        adapter deals it with no chance node, and takes its draws from the stock as it lies.
        None exactly when :meth:`Game.dealt_by_chance` says the next round is dealt by chance."""
        return None

    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        """The legal ``move``, to be made by the player to move, as an English
        sentence for ``viewer`` (``None``: a spectator), e.g. ``You play 6♥ on
        your ♥ meld`` or ``Bob takes 9♠ from the ♠ discard pile``.

        It names no card that ``viewer`` cannot see once the move is made, and
        while the move is only offered (``made`` false: a hint, a button) no
        card the mover cannot see yet: a card drawn from the draw pile is named
        only with ``made``, and only to the mover.  Games word their own moves;
        this default says the verb and arguments.
        """
        return self.voice(viewer).says(move.verb, " ".join(arg_text(a) for a in move.args))

    def voice(self, viewer: int | None) -> Voice:
        """How sentences about the player to move read to ``viewer`` (see :class:`Voice`)."""
        seat = self.current_player()
        if seat is None:
            raise ValueError("the round is over: nobody is to move")
        if viewer is not None and not 0 <= viewer < self.num_players:
            raise ValueError(f"no seat {viewer} in a {self.num_players}-player game")
        return Voice(self.names, seat, viewer)

    def log(self, viewer: int | None = None) -> list[str]:
        """The current round's events as sentences for ``viewer`` (``None``: a spectator)."""
        return [e.describe(self.names, viewer) for e in self.events]

    def move_texts(self) -> list[str]:
        """This round's moves so far in notation (a new list).

        Each move is rendered once per state, not once per observation: the texts are kept
        and only the moves made since the last call are added, so an observation costs the
        same late in a round as early.  The kept moves are checked against :attr:`moves`
        (a comparison in C), so undone and replaced moves are never shown stale."""
        moves = self.moves
        rendered = self._rendered
        if rendered is None or rendered[0] is not moves:
            rendered = self._rendered = (moves, [], [])
        _, done, texts = rendered
        count = len(done)
        if count > len(moves) or done != moves[:count]:
            keep = 0  # moves were undone: keep the texts of the moves still there
            for old, new in zip(done, moves):
                if old != new:
                    break
                keep += 1
            del done[keep:], texts[keep:]
            count = keep
        if count < len(moves):
            fresh = moves[count:]
            done += fresh
            texts += map(str, fresh)
        return texts[:]

    def _base_observation(self, seat: int) -> BaseObservation:
        """The public part every game's observation shares."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        return {
            "game": self.game.id,
            "options": dict(self.options),
            "seat": seat,
            "names": list(self.names),
            "first": self.first,
            "round": self.round_index + 1,
            "history": [list(r.scores) for r in self.history],
            "to_move": self.current_player(),
            "round_over": self.is_round_over(),
            "match_over": self.is_match_over(),
            "moves": self.move_texts(),
            "scores": list(self.scores),
            "totals": self.totals,
        }

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields into ``other`` (a fresh instance)."""
        other.options = self.options
        other.first = self.first
        other.names = self.names
        other.rng = None
        if self.rng is not None:
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        other.num_players = self.num_players
        other.history = list(self.history)
        other.deal = self.deal
        other.moves = list(self.moves)
        other.events = list(self.events)
        other.scores = list(self.scores)


@dataclass(frozen=True)
class UndoReach:
    """What an undo would take back for one seat (see :func:`undo_reach`)."""

    moves: int
    """How many of the round's last moves it takes back (0: none)."""
    why_not: str = ""
    """With no move to take back, why not, in words for that seat."""


NO_UNDO_PAST_A_DRAW = ("No undo: a card drawn from the draw pile has been seen, "
                       "so the moves before it cannot be taken back")


def undo_reach(state: State, seat: int, *, against_bots: bool = True) -> UndoReach:
    """How far an undo for ``seat`` goes back in the current round: to the start of its last
    turn (the moves since, the others' too), never past a move that drew from the stock (it
    showed a hidden card) nor into the round before; only for a seat whose every opponent is a
    bot (``against_bots``).  The rule of the web's undo, for the terminal's."""
    if not against_bots:
        return UndoReach(0, "Undo is only for a player against the computer")
    if state.current_player() is None:
        return UndoReach(0, "The round is over: nothing to take back")
    probe = state.copy()
    movers: list[int] = []
    blocked = False
    while probe.moves:
        move = probe.undo()
        who = probe.current_player()
        assert who is not None
        if seat in movers and who != seat:
            break
        if probe.stock_draws(move)[0]:
            blocked = True
            break
        movers.append(who)
    count = len(movers)
    while count and movers[count - 1] != seat:  # end at the start of a turn of the seat's own
        count -= 1
    if count:
        return UndoReach(count)
    return UndoReach(0, NO_UNDO_PAST_A_DRAW if blocked else "Nothing to take back yet this round")


def restore_base(state: State, observation: Observation) -> None:
    """Fill a fresh state's shared fields from an observation (for determinize)."""
    state.history = [
        RoundResult(None, [], list(scores), []) for scores in observation["history"]
    ]


def _arg_kind(arg: Card | str | int) -> str:
    if isinstance(arg, Card):
        return "card"
    if isinstance(arg, str):
        return "suit"
    return "number"


def _form_text(verb: str, form: tuple[str, ...]) -> str:
    return " ".join([verb, *(f"<{a}>" for a in form)])


def _cards_to_json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    return [_cards_to_json(v) for v in value]


def _cards_from_json(value: Any, where: str) -> Any:
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, list):
        return [_cards_from_json(v, where) for v in value]
    raise ValueError(f"deal {where}: expected cards as text like '7H', not {value!r}")


def check_deck(cards: Iterable[Card], deck: Iterable[Card], game_name: str, label: str | None = None) -> None:
    """Raise :class:`ValueError` unless ``cards`` are exactly ``deck`` (twins counted),
    naming the cards that are foreign, repeated or missing.  ``label`` (e.g.
    ``not the 52-card pack``) starts every message after ``deal:``."""
    found: Counter[Card] = Counter(cards)
    want: Counter[Card] = Counter(deck)
    start = f"deal: {label}: " if label else "deal: "
    foreign = sorted(c for c in found if c not in want)
    if foreign:
        names = " ".join(map(str, foreign))
        raise ValueError(f"{start}{names} {'is' if len(foreign) == 1 else 'are'} not used in {game_name}")
    extra = sorted(found - want)
    if extra:
        twice = all(want[c] == 1 for c in extra)
        raise ValueError(f"{start}{' '.join(map(str, extra))} appear(s) "
                         + ("more than once" if twice else "more often than the deck holds them"))
    missing = sorted(want - found)
    if missing:
        raise ValueError(f"{start}{' '.join(map(str, missing))} missing")

