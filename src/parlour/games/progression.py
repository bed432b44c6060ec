"""Progression, by Wei-Hwa Huang: Lost Cities for three, with public stacks.

The rules, in the order progression.source.txt gives them and as RULINGS.md
settles them:

* A 52-card pack.  A, J, Q, K are **face cards**, worth 0; 2–10 are worth
  their pips.  Options ``suits``, ``numbers`` and ``faces`` (defaults 4, 9
  and 4) play with a smaller pack: the first ``suits`` suits (♣ ♦ ♥ ♠), and
  in each the ``numbers`` highest number cards (at least 10 and 9, so that a
  stack can pass 12) and the first ``faces`` face cards of K, Q, J, A.
* Deal 5 to each of three players (option ``hand_size``); the rest form the
  draw pile (37 cards), which must hold at least one card.  Seat
  ``first`` starts round 1 and the start moves one seat left (+1) each
  round; play goes clockwise (seat s + 1 is next).
* A turn is two moves by the same player:
  1. **play** one card: onto the player's own private stack of its suit,
     only if its value is not lower than any card already there (faces
     first, then numbers rising), or onto the public stack of its suit,
     with no restriction;
  2. **draw** one card: the top of the draw pile, or the top card of any
     public stack.  Option ``takeback`` (default true): false forbids taking
     back the card played to a public stack this same turn.
* The round ends at once when the last card of the draw pile is drawn, or by
  the stall rule (option ``stall_limit``, default 60, 0 = off): that many
  turns in a row drawing from the public stacks end it.
* Each private stack scores: empty 0; N face cards alone −10 × (N + 1);
  total value 1–12: 0; above 12: (total − 12) × (faces + 1).
* Match: ``rounds`` rounds (default 6); or, with ``target_score``, rounds
  until a player has at least that many points at a round's end, but never
  more than :data:`ROUND_CAP` rounds (a ruling, so that the match always
  ends).  Every seat with the highest total wins (a shared win).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

from parlour.cards import ALL_CARDS, SUIT_NAMES, SUITS, Card
from parlour.game import (
    Bounds,
    CardRole,
    Deal,
    Event,
    Game,
    Move,
    Observation,
    Option,
    OptionError,
    RoundEnding,
    State,
    Wrong,
    check_deck,
    restore_base,
)
from parlour.games._base import DRAW as DRAW
from parlour.games._base import SUIT_INDEX as SUIT_INDEX
from parlour.games._base import TAKE as TAKE
from parlour.games._base import PlayThenDraw, TurnObservation, best_over_suits
from parlour.narrate import card_text, number_text, plural, suit_text

PLAYERS = 3
HAND = 5
"""Cards in each hand (option ``hand_size``)."""
STOCK = 52 - PLAYERS * HAND
"""Cards in the draw pile of the full game."""
THRESHOLD = 12
"""A stack must total more than this to score."""
FACE_PENALTY = 10
ROUND_CAP = 100
"""The most rounds a ``target_score`` match lasts (a ruling: see the rules)."""
NUMBER_ORDER = (10, 9, 8, 7, 6, 5, 4, 3, 2)
"""The number ranks, highest first: option ``numbers`` keeps the first N."""
FACE_ORDER = (13, 12, 11, 1)
"""The face ranks K, Q, J, A: option ``faces`` keeps the first N."""
MIN_NUMBERS = 2
"""The fewest number cards a suit may keep: 10 and 9, with which a stack can pass 12."""

DECK = tuple(ALL_CARDS[:52])
VALUE = [0 if c.rank in (1, 11, 12, 13) else c.rank for c in DECK]
"""Card value by card code: A, J, Q, K (face cards) 0; 2–10 their pips."""
PLAY = [Move("play", (c,)) for c in DECK]
"""``play <card>``: onto the player's own private stack, for every card."""
PUBLIC = [Move("public", (c,)) for c in DECK]
"""``public <card>``: onto the public stack of its suit, for every card."""


def is_face(card: Card) -> bool:
    """A, J, Q and K are face cards (value 0, and bonus multipliers)."""
    return VALUE[card] == 0


def progression_deck(options: Mapping[str, Any] | None = None) -> list[Card]:
    """The pack under the options ``suits``, ``numbers`` and ``faces`` (the 52-card pack by
    default), in card-code order: the first ``suits`` suits, and in each the ``numbers``
    highest number cards and the first ``faces`` face cards of K, Q, J, A.

    >>> " ".join(map(str, progression_deck({"suits": 1, "numbers": 4, "faces": 1})))
    '7C 8C 9C TC KC'
    """
    if not options:
        return list(DECK)
    suits = SUITS[:options["suits"]]
    ranks = {*NUMBER_ORDER[:options["numbers"]], *FACE_ORDER[:options["faces"]]}
    return [c for c in DECK if c.suit in suits and c.rank in ranks]


def max_turns(options: Mapping[str, Any]) -> int:
    """The most turns a round can last, for a ``stall_limit`` L of at least 1 and a draw pile
    of S cards.

    A take adds one to the stall count and a draw from the draw pile sets it back to 0; the
    S-th draw, or the L-th take in a row, ends the round.  So each of the first S − 1 draws
    follows at most L − 1 takes, and the round ends with L − 1 takes and the last draw or
    with L takes: at most S × L turns.  With ``takeback`` that many are played (play a card
    to a public stack, take it back).  Without it the first turn must draw (the only public
    stack then is the one just played to): at most 1 + (S − 1) × L, which two suits reach
    (play to one public stack, take from the other).  With one suit and no taking back, a
    turn that plays to the public stack must draw from the draw pile, and each take takes a
    card such a turn played, never the last draw's: at most S − 1 takes, 2 × S − 1 turns.
    """
    stock = len(progression_deck(options)) - PLAYERS * int(options["hand_size"])
    limit = int(options["stall_limit"])
    if options["takeback"]:
        return stock * limit
    turns = 1 + (stock - 1) * limit
    return min(turns, 2 * stock - 1) if options["suits"] == 1 else turns


@functools.lru_cache(maxsize=64)
def _max_margin(suits: int, numbers: int, faces: int, table: int, one: int, two: int) -> int:
    """The most one seat's round score can exceed another's (see :meth:`Progression.bounds`):
    at most ``table`` cards on the table, at most ``one`` on one seat's stacks, at most ``two``
    on two seats' together."""
    values = sorted(NUMBER_ORDER[:numbers])  # a number card's value is its rank
    # One suit: (cards of the leading seat, cards of the trailing seat) -> the most the first
    # can gain on the second there.  The leader's best stack of f faces and n numbers holds the
    # n highest numbers; the trailer's worst is a stack of faces alone, −10 × (faces + 1).
    suit: dict[tuple[int, int], int] = {}
    for f in range(faces + 1):
        for n in range(numbers + 1):
            lead = score_of(sum(values[numbers - n:]), f)
            for g in range(faces - f + 1):
                gain = lead + (FACE_PENALTY * (g + 1) if g else 0)
                key = (f + n, g)
                if suit.get(key, -1) < gain:
                    suit[key] = gain
    return best_over_suits(suit, suits, lambda key: key[0] <= one and key[1] <= one and sum(key) <= min(two, table))


def stack_score(cards: Iterable[Card]) -> int:
    """What a private stack scores.

    Empty: 0.  Only N face cards: −10 × (N + 1).  Total value 1–12: 0.
    Above 12: (total − 12) × (faces + 1).

    >>> from parlour.cards import cards
    >>> stack_score(cards("KH JH 2H 6H 7H 8H"))
    33
    """
    total = faces = 0
    for card in cards:
        value = VALUE[card]
        total += value
        faces += value == 0
    return score_of(total, faces)


def score_of(total: int, faces: int) -> int:
    """:func:`stack_score` of a stack in figures: the total of its values and its face cards."""
    if total == 0:
        return -FACE_PENALTY * (faces + 1) if faces else 0
    if total <= THRESHOLD:
        return 0
    return (total - THRESHOLD) * (faces + 1)


def stack_reckoning(cards: Iterable[Card]) -> str:
    """How a stack's score is worked out, in words: ``(23 − 12) × 3 = 33``."""
    items = list(cards)
    if not items:
        return "empty: 0"
    return reckoning_of(sum(VALUE[c] for c in items), sum(1 for c in items if VALUE[c] == 0))


def reckoning_of(total: int, faces: int) -> str:
    """:func:`stack_reckoning` of a (non-empty) stack in figures."""
    if total == 0:
        alone = f"{faces} face card{'s' if faces > 1 else ''} alone"
        return f"{alone}: −10 × {faces + 1} = {number_text(score_of(total, faces))}"
    if total <= THRESHOLD:
        return f"total {total}, not over 12: 0"
    return f"({total} − 12) × {faces + 1} = {score_of(total, faces)}"


def stack_kind(cards: Iterable[Card]) -> str:
    """What the scoring rules call a (non-empty) stack's case."""
    return kind_of(sum(VALUE[c] for c in cards))


def kind_of(total: int) -> str:
    """:func:`stack_kind` of a stack whose values total ``total``."""
    if total == 0:
        return "Face Cards Only"
    return "Over Twelve" if total > THRESHOLD else "Twelve or Under"


@functools.lru_cache(maxsize=1 << 14)
def stack_scored(suit: int, stack: tuple[Card, ...]) -> tuple[str, int, str]:
    """A (non-empty) private stack of ``suit`` as the round's end scores it: what its event is
    called, its points, and the event's words (a round's end asks the same of many deals)."""
    total = sum(VALUE[c] for c in stack)
    faces = sum(1 for c in stack if VALUE[c] == 0)
    points = score_of(total, faces)
    cards = " ".join(map(card_text, stack))
    return kind_of(total), points, (
        f"{{player}} {{score}} {number_text(points)} for {{their}} {SUIT_NAMES[SUITS[suit]]} stack "
        f"({cards}: {reckoning_of(total, faces)})")


class ProgressionObservation(TurnObservation):
    """What a seat sees in Progression."""

    private_stacks: list[dict[str, list[str]]]
    """By seat, by suit letter: the private stack, bottom card first."""
    public_stacks: dict[str, list[str]]
    """By suit letter: the public stack, bottom card first."""
    played_public: str | None
    """The suit letter of the public stack played to this turn, or None."""


class ProgressionState(PlayThenDraw):
    """A match of Progression."""

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]] = {
        "play": (("card",),),
        "public": (("card",),),
        "draw": ((),),
        "take": (("suit",),),
    }
    pile_verb = "public"
    play_moves = PLAY
    pile_moves = PUBLIC
    value = VALUE

    hands: list[list[Card]]
    private: list[list[list[Card]]]
    """Private stacks: ``private[seat][suit index]``, bottom card first (the machine's
    ``own`` piles: the same lists)."""
    floors: list[list[int]]
    """The value each private stack has reached: its top card's value, 0 when empty (the
    machine's ``reached``: the same lists)."""
    public: list[list[Card]]
    """Public stacks by suit index, bottom card first (the machine's ``piles``: the same lists)."""

    # -- the deal --------------------------------------------------------------
    def round_starter(self, round_index: int) -> int:
        """Seat ``first`` starts round 1; the start moves one seat left each round."""
        return (self.first + round_index) % PLAYERS

    def _start_round(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self._start_turns(self.round_starter(self.round_index), take_back=self.options["takeback"],
                          stall_limit=self.options["stall_limit"])
        self._name_piles()

    def _name_piles(self) -> None:
        """The rulebook's names for the machine's piles."""
        self.private, self.floors, self.public = self.own, self.reached, self.piles

    # -- play ------------------------------------------------------------------
    def is_match_over(self) -> bool:
        """After ``rounds`` rounds; with ``target_score``, once a total reaches it
        (or after :data:`ROUND_CAP` rounds)."""
        if not self._over:
            return False
        played = self.round_index + 1
        target: int | None = self.options["target_score"]
        if target is None:
            rounds: int = self.options["rounds"]
            return played >= rounds
        return played >= ROUND_CAP or max(self.totals) >= target

    @staticmethod
    def fits(card: Card, floor: int) -> bool:
        """A card goes on its private stack only if its value is not lower than any card's
        there (faces first, then numbers rising)."""
        return VALUE[card] >= floor

    def _end_round(self, seat: int, stalled: bool) -> None:
        """Score every private stack; the round is over."""
        self._over = True
        number = len(self.moves)
        if stalled:
            self.events.append(Event(
                number, seat, "Stall Rule",
                0, f"The round ends by the stall rule: {plural(self.stall_limit, 'turn')} in a row "
                   "drew from the public stacks",
            ))
        for owner in range(PLAYERS):
            for suit, stack in enumerate(self.private[owner]):
                if stack:
                    kind, points, text = stack_scored(suit, tuple(stack))
                    self.scores[owner] += points
                    self.events.append(Event(number, owner, kind, points, text))

    # -- views -----------------------------------------------------------------
    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        """``You play 6♥ on your private ♥ stack``, ``Cleo takes 9♠ from the public
        ♠ stack``, ``Bob draws a card from the draw pile`` (``You draw 5♠ from the
        draw pile`` once made: only the drawer is told the card)."""
        voice = self.voice(viewer)
        verb = move.verb
        if verb == "draw":
            drawn = card_text(self.stock[self.stock_pos]) if made and voice.is_you else "a card"
            return voice.says("draw", f"{drawn} from the draw pile")
        if verb == "take":
            suit = move.suit()
            top = self.public[SUIT_INDEX[suit]][-1]
            return voice.says("take", f"{card_text(top)} from the public {suit_text(suit)} stack")
        card = move.card()
        if verb == "play":
            stack = f"{voice.whose(voice.seat)} private {suit_text(card.suit)} stack"
        else:
            stack = f"the public {suit_text(card.suit)} stack"
        return voice.says("play", f"{card_text(card)} on {stack}")

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": list(self.hands[s]) for s in range(PLAYERS)}
        for seat in range(PLAYERS):
            for suit, letter in enumerate(SUITS):
                zones[f"private {seat} {letter}"] = list(self.private[seat][suit])
        for suit, letter in enumerate(SUITS):
            zones[f"public {letter}"] = list(self.public[suit])
        zones["stock"] = self.stock[self.stock_pos:]
        return zones

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes this position, as comparable values."""
        return (
            self.round_index, tuple(map(tuple, self.hands)),
            tuple(tuple(map(tuple, p)) for p in self.private), tuple(map(tuple, self.floors)),
            tuple(map(tuple, self.public)), tuple(self.stock), self.stock_pos, tuple(self.was_on_pile),
            self.to_move, self.drawing, self.pile_played, self.stall, tuple(self.scores),
            tuple(self.moves), tuple(self.events), self._over,
        )

    def observation(self, seat: int) -> Observation:
        """See :class:`ProgressionObservation`."""
        obs: ProgressionObservation = {
            **self._turn_observation(seat),
            "private_stacks": [
                {letter: [str(c) for c in self.private[s][i]] for i, letter in enumerate(SUITS)}
                for s in range(PLAYERS)
            ],
            "public_stacks": {letter: [str(c) for c in self.public[i]] for i, letter in enumerate(SUITS)},
            "played_public": SUITS[self.pile_played] if self.pile_played >= 0 else None,
        }
        return cast(Observation, obs)

    def copy(self) -> ProgressionState:
        other = ProgressionState.__new__(ProgressionState)
        self._copy_base(other)
        self._copy_turns(other)
        other._name_piles()
        return other

    def _explain_illegal(self, move: Move) -> Wrong | str:
        verb, args = move
        if self.drawing:
            if verb in ("play", "public"):
                return Wrong("must_draw",
                             "{player} {have} played this turn and must now draw ('draw' or 'take <suit>')")
            if verb == "take" and len(args) == 1 and args[0] in SUIT_INDEX:
                suit = SUIT_INDEX[args[0]]
                pile = f"the public {SUIT_NAMES[SUITS[suit]]} stack"
                if not self.public[suit]:
                    return Wrong("empty_pile", f"{pile} is empty")
                if suit == self.pile_played and not self.take_back:
                    return Wrong("rule", f"{{player}} may not take back {card_text(self.public[suit][-1])}, "
                                 f"played to {pile} this turn (takeback is off)")
            return "A draw is 'draw' or 'take <suit>'"
        if verb in ("draw", "take"):
            return Wrong("must_play", "{player} must play a card first ('play <card>' or 'public <card>'), then draw")
        if len(args) != 1 or type(args[0]) is not Card:
            return "A play is 'play <card>' or 'public <card>'"
        card = args[0]
        if card not in self.hands[self.to_move]:
            return Wrong.not_in_hand(card, self.hands[self.to_move])
        if verb == "play":
            stack = self.private[self.to_move][card & 3]
            highest = max(stack, key=lambda c: VALUE[c])
            return Wrong("rule", f"{card_text(card)} (value {VALUE[card]}) may go on {{your}} private "
                         f"{SUIT_NAMES[card.suit]} stack only if not lower than any card there "
                         f"({card_text(highest)} is worth {VALUE[highest]})")
        return "A play is 'play <card>' or 'public <card>'"


class Progression(Game):
    """Progression's metadata, deals and determinization."""

    id = "progression"
    name = "Progression"
    players = PLAYERS
    version = "1.0"
    summary = "three players: rising private stacks, open public stacks, face-card multipliers"
    observation_type = ProgressionObservation
    options = (
        Option("rounds", 6, "rounds in the match (ignored with target_score)", int, minimum=1, maximum=ROUND_CAP),
        Option(
            "target_score", None,
            f"play rounds until a player has at least this many points (at most {ROUND_CAP} rounds)",
            int, minimum=1, maximum=1000, nullable=True,
        ),
        Option("takeback", True, "a player may take back the card just played to a public stack", bool,
               designer=True),
        Option(
            "stall_limit", 60,
            "end the round after this many turns in a row drawing from public stacks (0: never)",
            int, minimum=0, designer=True,
        ),
        Option("suits", 4, "suits in the pack: the first N of clubs, diamonds, hearts, spades", int,
               minimum=1, maximum=4, designer=True),
        Option(
            "numbers", 9,
            f"number cards in each suit, the highest this many (9: 2-10; {MIN_NUMBERS}: 9 and 10, the fewest "
            f"with which a stack can pass {THRESHOLD})",
            int, minimum=MIN_NUMBERS, maximum=9, designer=True,
        ),
        Option("faces", 4, "face cards in each suit: K, Q, J, A, the first this many", int, minimum=0, maximum=4,
               designer=True),
        Option("hand_size", HAND, "cards dealt to each hand (the draw pile must keep at least one)", int,
               minimum=1, designer=True),
    )
    micro_options: ClassVar[Mapping[str, Any]] = {
        "suits": 1, "numbers": 4, "faces": 2, "hand_size": 1, "takeback": False, "stall_limit": 3, "rounds": 1,
    }
    """The micro variant: one round with the six clubs K, Q, 7, 8, 9, 10, one card in each hand
    (three in the draw pile), no taking back, and the stall rule after three takes in a row:
    59,461 histories for OpenSpiel's CFR+ (``docs/research.md``)."""
    event_kinds = ("Over Twelve", "Twelve or Under", "Face Cards Only", "Stall Rule")
    plain_card = "number"
    endings = (RoundEnding("Stall rule", "Stall Rule", stall=True), RoundEnding("Draw pile empty", None))
    deal_zones = ("hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return ProgressionState

    def _check_option_combination(self, values: dict[str, Any]) -> None:
        """The hands must leave at least one card for the draw pile (the round ends when its
        last card is drawn)."""
        pack = len(progression_deck(values))
        hand = values["hand_size"]
        if PLAYERS * hand >= pack:
            most = (pack - 1) // PLAYERS
            raise OptionError(
                f"option 'hand_size' {hand} deals {PLAYERS * hand} cards, but the pack ({values['suits']} "
                f"suit{'s' if values['suits'] > 1 else ''} of {values['numbers']} numbers and {values['faces']} "
                f"faces) holds {pack}: the draw pile would be empty (at most {most} a hand with this pack)")

    def deck(self, options: Any = None) -> list[Card]:
        """The pack: 52 cards, or the short pack the options ``suits`` and ``ranks`` ask for."""
        return progression_deck(options)

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Each private stack's score if the round ended now (``None``: no stack in that suit)."""
        return {"stacks": [{s: (stack_score(list(map(Card.parse, p[s]))) if p[s] else None) for s in SUITS}
                           for p in view["private_stacks"]]}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """The most rounds, the most moves in a round (two a turn: :func:`max_turns`, exact
        with ``takeback``), and one more than a seat's round score can exceed another's.

        The margin: a seat holds ``hand_size`` cards at every turn's end, so at most
        T = pack − 3 × ``hand_size`` cards lie on the stacks when the round ends, and a seat's
        private stacks hold only the cards it played there, one a turn: at most ⌈M/3⌉ for
        one seat and ⌈2M/3⌉ for two, over the round's M turns at most.  Suit by suit, the
        leading seat's stack of f faces and n numbers scores at most (its n highest numbers −
        12) × (f + 1), and the trailing seat's stack no less than −10 × (g + 1) for g faces
        alone, with f + g no more than the suit's faces; the best split of the cards among
        the suits under those counts (:func:`_max_margin`) bounds the margin.  The mean of
        the other seats' scores is no lower than the lowest of them, so the bound also holds
        for a seat's score minus the others' mean (OpenSpiel's utility).  The full game: 620
        (three stacks of four faces and 10 down to 3, (52 − 12) × 5 each, and a lone face for
        the trailing seat: 37 cards), not 840 (four stacks of (54 − 12) × 5: 52 cards).
        """
        limit = options["stall_limit"]
        if limit == 0:
            raise ValueError("a round need not end without the stall rule: stall_limit must be at least 1")
        rounds = options["rounds"] if options["target_score"] is None else ROUND_CAP
        turns = max_turns(options)
        table = len(progression_deck(options)) - PLAYERS * options["hand_size"]
        one, two = -(-turns // PLAYERS), -(-2 * turns // PLAYERS)
        margin = _max_margin(options["suits"], options["numbers"], options["faces"], table, min(one, table), two)
        return Bounds(rounds, 2 * turns, margin + 1)

    def capped(self, options: Mapping[str, Any], rounds: int, totals: Sequence[int]) -> bool:
        """Stopped at :data:`ROUND_CAP` rounds short of the target score."""
        target = options["target_score"]
        return target is not None and rounds >= ROUND_CAP and max(totals) < target

    def card_role(self, card: Card) -> CardRole | None:
        """Face cards (A, J, Q, K) multiply their stack."""
        return CardRole("×", "invest", "multiplier") if is_face(card) else None

    def hand_size(self, options: Mapping[str, Any]) -> int:
        return int(options["hand_size"])

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle the pack (52): ``hand_size`` (5) to each of the three seats, the rest (37)
        in the draw pile."""
        deck = progression_deck(state.options)
        hand = state.options["hand_size"]
        rng.shuffle(deck)
        hands = [deck[s * hand:(s + 1) * hand] for s in range(PLAYERS)]
        return {"hands": hands, "stock": deck[PLAYERS * hand:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        """Exactly the pack (52 cards): three hands of ``hand_size`` (5) and the rest in the
        draw pile."""
        hand = state.options["hand_size"]
        pack = progression_deck(state.options)
        hands = deal["hands"]
        if len(hands) != PLAYERS or any(len(h) != hand for h in hands):
            sizes = ", ".join(str(len(h)) for h in hands)
            raise ValueError(f"deal: hands must be three hands of {hand} cards, not hands of {sizes}")
        every = [*(c for h in hands for c in h), *deal["stock"]]
        name = "not the 52-card pack" if len(pack) == 52 else f"not the pack of {len(pack)} cards the options ask for"
        check_deck(every, pack, "Progression", name)
        stock = len(pack) - PLAYERS * hand
        if len(deal["stock"]) != stock:
            raise ValueError(f"deal: the draw pile must hold {stock} cards, not {len(deal['stock'])}")

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """Rebuild the round from what the seat saw; deal unseen cards at random.

        Every card played is public, and so is every card taken from a public
        stack.  Replaying the moves shows which hand each played card came
        from; cards that were never seen are dealt at random to the other
        hands' hidden places and to the rest of the draw pile, and the round
        is replayed from that deal.
        """
        state = ProgressionState(
            dict(observation["options"]), observation["first"], tuple(observation["names"]), None
        )
        restore_base(state, observation)
        me: int = observation["seat"]
        moves = [Move.parse(m) for m in observation["moves"]]
        starter = state.round_starter(state.round_index)
        # Each hand's hidden places: the ``hand_size`` dealt, then one per draw from the
        # draw pile.  A played card that its player did not take from a public
        # stack filled one of them (any one still open: they are alike).
        size = state.options["hand_size"]
        places: list[list[Card | None]] = [[None] * size for _ in range(PLAYERS)]
        open_places: list[list[int]] = [list(range(size)) for _ in range(PLAYERS)]
        drawn: list[tuple[int, int]] = []
        taken: list[list[Card]] = [[] for _ in range(PLAYERS)]
        public: list[list[Card]] = [[], [], [], []]
        seen: set[Card] = set()
        for number, move in enumerate(moves):
            seat = (starter + number // 2) % PLAYERS
            if move.verb in ("play", "public"):
                card = move.card()
                if card in taken[seat]:
                    taken[seat].remove(card)
                else:
                    places[seat][open_places[seat].pop(0)] = card
                if move.verb == "public":
                    public[card & 3].append(card)
                seen.add(card)
            elif move.verb == "draw":
                open_places[seat].append(len(places[seat]))
                drawn.append((seat, len(places[seat])))
                places[seat].append(None)
            else:
                taken[seat].append(public[SUIT_INDEX[move.suit()]].pop())
        hand = [Card.parse(c) for c in observation["hand"]]
        own = [c for c in hand if c not in taken[me]]
        for index, card in zip(open_places[me], own, strict=True):
            places[me][index] = card
        unseen = [c for c in progression_deck(state.options) if c not in seen and c not in hand]
        rng.shuffle(unseen)
        for seat in range(PLAYERS):
            if seat != me:
                for index in open_places[seat]:
                    places[seat][index] = unseen.pop()
        if len(unseen) != observation["stock_count"]:
            raise ValueError("observation is inconsistent: the unseen cards do not fill the draw pile")
        stock = [places[s][i] for s, i in drawn]
        deal: Deal = {
            "hands": [places[s][:size] for s in range(PLAYERS)],
            "stock": [*stock, *unseen],
        }
        state.deal = deal
        state._start_round(deal)
        for move in moves:
            state.apply(move)
        return state

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        """Rebuild the round once, then re-deal only what the seat cannot see.

        Each sample shuffles the other hands' unseen cards (not those they
        were seen taking from a public stack) together with the rest of the
        draw pile and deals them out again: the same distribution as
        :meth:`determinize`, without replaying the round every time.  The
        samples carry no deal (they are for search, not for records).
        """
        template = self.determinize(observation, random.Random(0))
        assert isinstance(template, ProgressionState)
        me: int = observation["seat"]
        template.deal = None
        hidden: list[tuple[int, int]] = []  # (seat, index) of every unseen card in another hand
        pool: list[Card] = []
        for seat in range(PLAYERS):
            if seat == me:
                continue
            for index, card in enumerate(template.hands[seat]):
                if not template.was_on_pile[card]:  # not seen taken from a public stack
                    hidden.append((seat, index))
                    pool.append(card)
        drawn = template.stock[:template.stock_pos]
        pool += template.stock[template.stock_pos:]
        count = len(hidden)

        def sample(rng: random.Random) -> State:
            state = template.copy()
            cards = pool[:]
            rng.shuffle(cards)
            hands = state.hands
            for (seat, index), card in zip(hidden, cards):
                hands[seat][index] = card
            state.stock = drawn + cards[count:]
            return state

        return sample



GAME = Progression()
ProgressionState.game = GAME
