"""Minus Twenty, by Rusty Spell (2007): Lost Cities with a poker deck, for two.

The rules, in the order minus-twenty.source.txt gives them and as RULINGS.md
settles them (the source leaves its scoring to Lost Cities):

* The deck: 2–10 of four suits (number cards, worth their pips) and J, Q, K
  of four suits (investment cards, all alike) — 48 cards; no aces, no jokers.
* Deal 7 to each player (option ``hand_size``); the other 34 are the draw
  pile.  Four discard piles, one a suit, start empty.
* A smaller deck (options ``suits``, ``numbers``, ``investments``): the first
  suits of clubs, diamonds, hearts, spades; the highest number cards of each
  (enough to add up to more than a meld must make up: 8, 9 and 10 at least
  for the rules' 20); J, then Q, then K.  The micro variant
  (:attr:`MinusTwenty.micro_options`) is one short round on such a deck,
  small enough for exact solvers.
* A turn is two moves, both compulsory:
  1. ``play`` a card onto the player's own meld of its suit — investment
     cards only while the meld holds no number card, a number card only if
     higher than every number already there (gaps allowed) — or ``discard``
     it face up onto its suit's discard pile;
  2. ``draw`` the top of the draw pile, or ``take`` the top of a discard
     pile — but not the card discarded in step 1 of this same turn.
* The round ends at once when the last card of the draw pile is drawn, or by
  the stall rule: when ``stall_limit`` turns in a row have taken from a
  discard pile (0 turns the rule off).
* Each meld scores (sum of its number cards − 20) × (1 + investment cards),
  then +20 if it holds 8 or more cards; a suit with no meld scores 0.  (Option
  ``minus``: what a meld must make up instead of 20, for a smaller deck.)
* The match: ``rounds`` rounds (default 3); or, with ``target_score``, rounds
  until a player has at least that many points at a round's end; or, with
  ``best_of``, rounds until a player has won more than half that many (a
  tied round counts for nobody).  Either open-ended match also stops after
  :data:`ROUND_CAP` rounds.  Round 1's first player comes from the seed; in
  later rounds the player with the higher match total starts (tie: the
  player who did not start the last round).  Higher total (or more rounds
  won) wins; equal draws.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

from parlour.cards import ALL_CARDS, SUIT_NAMES, SUITS, Card, deck_of, to_text
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
from parlour.narrate import card_text, number_text, plural, suit_text, typed_text

HAND = 7
"""Cards in each hand (option ``hand_size``)."""
MINUS = 20
"""What every meld must make up before it earns anything (option ``minus``)."""
BONUS_CARDS = 8
"""A meld of this many cards or more earns the bonus."""
BONUS = 20
"""The bonus for a long meld; it is not multiplied."""
STALL_LIMIT = 60
"""Turns in a row that take from a discard pile before the round ends (option ``stall_limit``)."""
ROUND_CAP = 100
"""The most rounds a ``target_score`` or ``best_of`` match lasts (a ruling: see the rules)."""

NUMBER_RANKS = "23456789T"
INVESTMENT_RANKS = "JQK"

VALUE = [c.rank if 2 <= c.rank <= 10 else 0 for c in ALL_CARDS]
"""A card's value in a meld by card code: pips for number cards, 0 otherwise."""
LEVEL = [c.rank if 2 <= c.rank <= 10 else (1 if c.rank > 10 else 0) for c in ALL_CARDS]
"""What a meld's top number must be below for the card to go on: its pips for
number cards, 1 for investment cards (so they go only on a meld with no
number yet), 0 for cards outside the deck (never)."""
IN_DECK = [LEVEL[c] > 0 for c in ALL_CARDS]
"""Whether each card is one of Minus Twenty's 48."""

PLAY = [Move("play", (c,)) for c in ALL_CARDS[:52]]
"""``play <card>`` for every card, built once."""
DISCARD = [Move("discard", (c,)) for c in ALL_CARDS[:52]]
"""``discard <card>`` for every card, built once."""


DECK = tuple(deck_of(NUMBER_RANKS + INVESTMENT_RANKS))
"""The 48 cards, ordered by rank then suit."""


def minus_twenty_deck() -> list[Card]:
    """The 48 cards: 2–10, J, Q, K of four suits, ordered by rank then suit."""
    return list(DECK)


@functools.lru_cache(maxsize=64)
def deck_for(suits: int, numbers: int, investments: int) -> tuple[Card, ...]:
    """The deck the options ``suits``, ``numbers`` and ``investments`` make, ordered by rank then
    suit: the first ``suits`` of C D H S, the highest ``numbers`` number cards of each (2–10 for
    9), and the first ``investments`` of J, Q, K.  4, 9, 3 is :data:`DECK`.

    >>> " ".join(map(str, deck_for(2, 3, 1)))
    '8C 8D 9C 9D TC TD JC JD'
    """
    return tuple(deck_of(NUMBER_RANKS[len(NUMBER_RANKS) - numbers:] + INVESTMENT_RANKS[:investments],
                         SUITS[:suits]))


def options_deck(options: Mapping[str, Any]) -> tuple[Card, ...]:
    """:func:`deck_for` the checked ``options`` of a match."""
    return deck_for(options["suits"], options["numbers"], options["investments"])


def is_investment(card: Card) -> bool:
    """True for J, Q and K: the investment cards."""
    return card.rank > 10


def meld_score(cards: Iterable[Card], minus: int = MINUS) -> int:
    """What a meld scores: (number cards' sum − 20) × (1 + investment cards),
    +20 if it holds 8 or more cards; an empty meld scores 0.  ``minus``: the
    option of that name, for 20.

    >>> from parlour.cards import cards
    >>> meld_score(cards("JH QH 2H 3H 4H 5H 6H 7H"))
    41
    """
    numbers = investments = count = 0
    for card in cards:
        if not IN_DECK[card]:
            raise ValueError(f"{card} is not used in Minus Twenty")
        numbers += VALUE[card]
        investments += card.rank > 10
        count += 1
    return score_of(numbers, investments, count, minus)


def score_of(numbers: int, investments: int, count: int, minus: int = MINUS) -> int:
    """:func:`meld_score` of a meld in figures: the sum of its numbers, its investment cards, its cards."""
    if not count:
        return 0
    score = (numbers - minus) * (1 + investments)
    return score + BONUS if count >= BONUS_CARDS else score


def meld_arithmetic(cards: Iterable[Card], minus: int = MINUS) -> str:
    """How :func:`meld_score` reaches its figure, e.g. ``(27 − 20) × 3 + 20``."""
    items = list(cards)
    if not items:
        return "no meld"
    return arithmetic_of(sum(VALUE[c] for c in items), sum(1 for c in items if is_investment(c)), len(items), minus)


def arithmetic_of(numbers: int, investments: int, count: int, minus: int = MINUS) -> str:
    """:func:`meld_arithmetic` of a (non-empty) meld in figures."""
    text = f"{numbers} − {minus}"
    text = f"({text}) × {1 + investments}" if investments else text
    return text + f" + {BONUS}" if count >= BONUS_CARDS else text


def meld_kind(meld: Sequence[Card], points: int) -> str:
    """How a scored meld is named in the event log: ``Eight-Card Meld`` (it
    earned the bonus), ``Negative Meld`` or ``Meld``."""
    return kind_of(len(meld), points)


def kind_of(count: int, points: int) -> str:
    """:func:`meld_kind` of a meld of ``count`` cards that scores ``points``."""
    if count >= BONUS_CARDS:
        return "Eight-Card Meld"
    return "Negative Meld" if points < 0 else "Meld"


@functools.lru_cache(maxsize=1 << 13)
def meld_scored(suit: int, numbers: int, investments: int, count: int, minus: int) -> tuple[str, int, str]:
    """A (non-empty) meld of ``suit``, in figures, as the round's end scores it: what its event
    is called, its points, and the event's words (a round's end asks the same of many deals)."""
    points = score_of(numbers, investments, count, minus)
    return kind_of(count, points), points, (
        f"{{player}} {{score}} {number_text(points)} for {{their}} {SUIT_NAMES[SUITS[suit]]} meld: "
        f"{arithmetic_of(numbers, investments, count, minus)}")


def starters_from(first: int, round_scores: Iterable[Iterable[int]]) -> list[int]:
    """Who starts each round, given round 1's starter and the finished rounds'
    scores: the higher match total starts; on a tie, the player who did not
    start the last round.  One entry more than there are finished rounds."""
    starters = [first]
    totals = [0, 0]
    for scores in round_scores:
        a, b = scores
        totals[0] += a
        totals[1] += b
        if totals[0] != totals[1]:
            starters.append(0 if totals[0] > totals[1] else 1)
        else:
            starters.append(1 - starters[-1])
    return starters


def round_winner(scores: list[int]) -> int | None:
    """The seat that won a round (higher score), or ``None`` for a tie."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def most_turns(options: Mapping[str, Any]) -> int:
    """The most turns a round can last under the (checked) ``options``, the stall rule on.

    Every turn ends with a draw from the draw pile or a take from a discard pile.  Of the
    ``S`` cards of the draw pile the last one drawn ends the round; so does the ``L``-th take
    in a row (``L``: ``stall_limit``).  The first turn can only draw (the only discard pile
    with a card is the one just discarded onto), so at most ``1 + (S - 1) * L`` turns: after
    it, each of the other ``S - 1`` draws follows at most ``L - 1`` takes, or the round ends on
    ``L`` takes instead of its last draw.  With one suit a turn can take only after playing
    onto its meld (the one discard pile is otherwise the one just discarded onto), and the
    melds hold at most the ``S`` cards not in the hands at the end: at most ``2 S`` turns.
    """
    stock: int = len(options_deck(options)) - 2 * options["hand_size"]
    turns: int = 1 + (stock - 1) * options["stall_limit"]
    return min(turns, 2 * stock) if options["suits"] == 1 else turns


def widest_margin(options: Mapping[str, Any], turns: int) -> int:
    """The most one seat's round score can exceed the other's under the (checked) ``options``,
    in a round of at most ``turns`` turns (:func:`margin_of` the options that matter).
    """
    return margin_of(options["suits"], options["numbers"], options["investments"], options["hand_size"], turns,
                     options["minus"])


@functools.lru_cache(maxsize=64)
def margin_of(suits: int, numbers: int, investments: int, hand_size: int, turns: int, minus: int) -> int:
    """:func:`widest_margin` of a deck of ``suits`` suits of ``numbers`` numbers and
    ``investments`` investment cards, ``hand_size`` cards a hand, ``turns`` turns at most, and
    melds that must make up ``minus``.

    Each card ends the round in at most one meld, and both hands still hold ``hand_size``
    cards: the melds hold at most the draw pile's ``S`` cards.  A seat puts down one card a
    turn, so its melds hold at most ``ceil(turns / 2)`` cards, and both seats' at most
    ``turns``.  In each suit the winner's meld is best with its investment cards and the
    highest numbers, the loser's worst with the suit's other investment cards and the lowest
    numbers (a meld of J alone scores -40 with the rules' 20).  The most the suits can give
    together within those card counts is the bound: the rules' orders of play and draws are
    not asked of it (on the micro variant it is reached: see the tests).
    """
    stock = suits * (numbers + investments) - 2 * hand_size
    own = (turns + 1) // 2
    # Each suit's best (winner's cards, loser's cards) -> margin, over both melds' investments and numbers.
    values = list(range(11 - numbers, 11))
    suit: dict[tuple[int, int], int] = {}
    for high in range(numbers + 1):
        for low in range(numbers - high + 1):
            for mine in range(investments + 1):
                for theirs in range(investments - mine + 1):
                    gain = -score_of(sum(values[:low]), theirs, low + theirs, minus)
                    gain += score_of(sum(values[len(values) - high:]), mine, high + mine, minus)
                    key = (high + mine, low + theirs)
                    suit[key] = max(suit.get(key, gain), gain)
    # Suit by suit: the best total for each (winner's cards, loser's cards) within the limits.
    return best_over_suits(suit, suits, lambda key: key[0] <= own and key[1] <= own
                           and key[0] + key[1] <= min(stock, turns))


class MinusTwentyObservation(TurnObservation):
    """What a seat sees in Minus Twenty."""

    melds: list[dict[str, list[str]]]
    """By seat, by suit letter: the meld's cards in the order played."""
    discard_piles: dict[str, list[str]]
    """By suit letter: the discard pile, bottom card first."""
    discarded: str | None
    """The card discarded this turn by the player to move (it may not be taken back), or None."""
    starters: list[int]
    """Who started each round so far, this one included."""
    rounds_won: list[int]
    """Rounds each seat has won so far (ties count for nobody)."""


class MinusTwentyState(PlayThenDraw):
    """A match of Minus Twenty."""

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]] = {
        "play": (("card",),),
        "discard": (("card",),),
        "draw": ((),),
        "take": (("suit",),),
    }
    pile_verb = "discard"
    play_moves = PLAY
    pile_moves = DISCARD
    value = VALUE

    hands: list[list[Card]]
    melds: list[list[list[Card]]]
    """``melds[seat][suit]``: the cards of that meld in the order played (the machine's
    ``own`` piles: the same lists)."""
    tops: list[list[int]]
    """``tops[seat][suit]``: the meld's highest number, 0 while it has none (the machine's
    ``reached``: the same lists)."""
    discard_piles: list[list[Card]]
    """``discard_piles[suit]``: bottom card first, top card last (the machine's ``piles``:
    the same lists)."""
    starter: int

    # -- the deal --------------------------------------------------------------
    def round_starter(self, round_index: int) -> int:
        """Round 1: seat ``first``; later, the higher match total (tie: not last round's starter)."""
        if round_index > len(self.history):
            raise ValueError(f"round {round_index + 1} depends on rounds not yet played")
        return starters_from(self.first, (r.scores for r in self.history[:round_index]))[-1]

    def _start_round(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self.starter = self.round_starter(self.round_index)
        self._start_turns(self.starter, take_back=False, stall_limit=self.options["stall_limit"])
        self._name_piles()

    def _name_piles(self) -> None:
        """The rulebook's names for the machine's piles."""
        self.melds, self.tops, self.discard_piles = self.own, self.reached, self.piles

    # -- a turn: play (or discard), then draw -----------------------------------
    @staticmethod
    def fits(card: Card, top: int) -> bool:
        """A card goes on its meld only above the meld's top number; an investment card
        only while the meld has no number."""
        return top < LEVEL[card]

    def _end_round(self, seat: int, stalled: bool) -> None:
        """Score every meld, as the round has just ended."""
        self._over = True
        number = len(self.moves)
        if stalled:
            self.events.append(Event(
                number, None, "Stall rule", 0,
                f"The round ends by the stall rule: {plural(self.stall_limit, 'turn')} in a row "
                "took from a discard pile",
            ))
        scores = [0, 0]
        events = self.events
        minus = self.options["minus"]
        for seat in (0, 1):
            for suit, (numbers, investments, count, _) in enumerate(self.figures[seat]):
                if count:
                    kind, points, text = meld_scored(suit, numbers, investments, count, minus)
                    scores[seat] += points
                    events.append(Event(number, seat, kind, points, text))
        self.scores = scores

    # -- the match ---------------------------------------------------------------
    def rounds_won(self) -> list[int]:
        """Rounds each seat has won so far (the current one once it is over); ties count for nobody."""
        wins = [0, 0]
        finished = [r.scores for r in self.history]
        if self._over:
            finished.append(self.scores)
        for scores in finished:
            winner = round_winner(scores)
            if winner is not None:
                wins[winner] += 1
        return wins

    def is_match_over(self) -> bool:
        """``rounds`` rounds; or a total of ``target_score``; or more than half of ``best_of`` won."""
        if not self._over:
            return False
        played = len(self.history) + 1
        target = self.options["target_score"]
        best_of = self.options["best_of"]
        if target is not None:
            return played >= ROUND_CAP or max(self.totals) >= target
        if best_of is not None:
            return played >= ROUND_CAP or 2 * max(self.rounds_won()) > best_of
        return bool(played >= self.options["rounds"])

    def winners(self) -> list[int]:
        """The higher total wins (with ``best_of``: more rounds won); equal draws."""
        if self.options["best_of"] is None:
            return super().winners()
        if not self.is_match_over():
            return []
        wins = self.rounds_won()
        return [seat for seat in (0, 1) if wins[seat] == max(wins)]

    # -- views -----------------------------------------------------------------
    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        """``You play 6♥ on your ♥ meld``, ``Bob takes 9♠ from the ♠ discard pile``,
        ``Bob draws a card from the draw pile`` (``You draw 5♠ from the draw pile``
        once made: only the drawer is told the card)."""
        voice = self.voice(viewer)
        verb = move.verb
        if verb == "draw":
            drawn = card_text(self.stock[self.stock_pos]) if made and voice.is_you else "a card"
            return voice.says("draw", f"{drawn} from the draw pile")
        if verb == "take":
            suit = move.suit()
            top = self.discard_piles[SUIT_INDEX[suit]][-1]
            return voice.says("take", f"{card_text(top)} from the {suit_text(suit)} discard pile")
        card = move.card()
        if verb == "play":
            return voice.says("play", f"{card_text(card)} on {voice.whose(voice.seat)} {suit_text(card.suit)} meld")
        return voice.says("discard", f"{card_text(card)} onto the {suit_text(card.suit)} discard pile")

    def zones(self) -> dict[str, list[Card]]:
        zones = {
            "hand 0": list(self.hands[0]),
            "hand 1": list(self.hands[1]),
            "stock": self.stock[self.stock_pos:],
        }
        for suit, letter in enumerate(SUITS):
            zones[f"discard pile {letter}"] = list(self.discard_piles[suit])
            for seat in (0, 1):
                zones[f"meld {seat} {letter}"] = list(self.melds[seat][suit])
        return zones

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes this position, as comparable values."""
        return (
            self.round_index, self.starter, tuple(map(tuple, self.hands)),
            tuple(tuple(map(tuple, m)) for m in self.melds), tuple(map(tuple, self.tops)),
            tuple(map(tuple, self.discard_piles)), tuple(self.stock), self.stock_pos, self.to_move,
            self.drawing, self.pile_played, self.stall, tuple(self.was_on_pile),
            tuple(self.scores), tuple(self.moves), tuple(self.events), self._over,
        )

    def observation(self, seat: int) -> Observation:
        """See :class:`MinusTwentyObservation`."""
        just_discarded = self.piles[self.pile_played][-1] if self.pile_played >= 0 else None
        obs: MinusTwentyObservation = {
            **self._turn_observation(seat),
            "melds": [{s: to_text(m[i]) for i, s in enumerate(SUITS)} for m in self.melds],
            "discard_piles": {s: to_text(self.discard_piles[i]) for i, s in enumerate(SUITS)},
            "discarded": str(just_discarded) if just_discarded is not None else None,
            "starters": starters_from(self.first, (r.scores for r in self.history)),
            "rounds_won": self.rounds_won(),
        }
        return cast(Observation, obs)

    def copy(self) -> MinusTwentyState:
        other = MinusTwentyState.__new__(MinusTwentyState)
        self._copy_base(other)
        other.starter = self.starter
        self._copy_turns(other)
        other._name_piles()
        return other

    def _explain_illegal(self, move: Move) -> Wrong | str:
        verb, args = move
        if self.drawing:
            if verb in ("play", "discard"):
                return Wrong("must_draw", "{player} {have} played a card this turn and must now draw: "
                             + draw_choices(self.legal_moves()))
            if verb == "take" and len(args) == 1 and args[0] in SUIT_INDEX:
                suit = SUIT_INDEX[args[0]]
                pile = self.discard_piles[suit]
                if not pile:
                    return Wrong("empty_pile", f"The {SUIT_NAMES[SUITS[suit]]} discard pile is empty")
                if suit == self.pile_played:
                    return f"{card_text(pile[-1])} was discarded this turn and may not be taken back"
            return "A draw is 'draw' or 'take <suit>'"
        if verb in ("draw", "take"):
            return Wrong("must_play", "{player} must first play or discard a card, then draw")
        if len(args) != 1 or not isinstance(args[0], Card):
            return "A play is 'play <card>' or 'discard <card>'"
        card = args[0]
        if not IN_DECK[card]:
            return f"{card_text(card)} is not used in Minus Twenty"
        if card not in options_deck(self.options):
            return f"{card_text(card)} is not in this match's deck (options suits, numbers and investments)"
        if card not in self.hands[self.to_move]:
            return Wrong.not_in_hand(card, self.hands[self.to_move])
        if verb == "play":
            suit = card & 3
            top = self.tops[self.to_move][suit]
            meld = SUIT_NAMES[SUITS[suit]]
            if is_investment(card):
                return Wrong("rule", "An investment card (J, Q, K) goes on a meld only before its first number "
                             f"card; {{your}} {meld} meld already holds numbers up to {top}")
            return Wrong("rule", f"A number card goes on a meld only if higher than {top} "
                         f"(the top number of {{your}} {meld} meld)")
        return f"{{player}} may not {typed_text(move)} here"


def draw_choices(legal: Iterable[Move]) -> str:
    """The draws open now, as a reader types them: ``draw, or take C or take S``."""
    takes = [f"take {m.args[0]}" for m in legal if m.verb == "take"]
    return "draw" + (", or " + " or ".join(takes) if takes else "")


class MinusTwenty(Game):
    """Minus Twenty's metadata, deals and determinization."""

    id = "minus-twenty"
    name = "Minus Twenty"
    players = 2
    version = "1.1"
    summary = "Lost Cities with a poker deck: rising melds, investments, minus 20 a meld"
    observation_type = MinusTwentyObservation
    options = (
        Option("hand_size", HAND, "cards in each hand (8 gives the original Lost Cities deal)", int, 1, 20),
        Option("suits", 4, "suits in the deck: clubs, diamonds, hearts, spades, the first this many", int, 1, 4,
               designer=True),
        Option("numbers", 9, "number cards in each suit, the highest this many (9: 2-10; 3: 8, 9, 10)", int, 1, 9,
               designer=True),
        Option("investments", 3, "investment cards in each suit: J, Q, K, the first this many", int, 0, 3,
               designer=True),
        Option("minus", MINUS, "what each meld must make up before it earns anything (a smaller deck "
               "may want less)", int, 0, 54, designer=True),
        Option("stall_limit", STALL_LIMIT, "turns in a row taking from a discard pile that end the round (0: off)",
               int, 0, designer=True),
        Option("rounds", 3, "rounds in a match (ignored with target_score or best_of)", int, 1, ROUND_CAP),
        Option("target_score", None, "play rounds until a player has at least this many points", int, 1,
               1000, nullable=True),
        Option("best_of", None, "play until a player has won more than half of this many rounds", int, 1,
               ROUND_CAP, nullable=True),
    )
    micro_options: ClassVar[Mapping[str, Any]] = {
        "suits": 1, "numbers": 4, "investments": 1, "minus": 12, "hand_size": 1, "stall_limit": 2, "rounds": 1,
    }
    """The micro variant: one round on 5 cards (7, 8, 9, 10 and J of clubs), melds that must make up
    12 (20 of the 54 the numbers of a whole suit add up to is about 12 of these 34), a card in each
    hand, and the stall rule after two takes in a row (docs/research.md)."""

    event_kinds = ("Meld", "Negative Meld", "Eight-Card Meld", "Stall rule")
    plain_card = "number"
    endings = (RoundEnding("Stall rule", "Stall rule", stall=True), RoundEnding("Draw pile empty", None))
    deal_zones = ("hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return MinusTwentyState

    def _check_option_combination(self, values: dict[str, Any]) -> None:
        if values["target_score"] is not None and values["best_of"] is not None:
            raise OptionError("options 'target_score' and 'best_of' cannot both be set: choose one")
        top = sum(range(11 - values["numbers"], 11))
        if top <= values["minus"]:
            raise OptionError(
                f"with numbers {values['numbers']} a suit's number cards add up to {top}, so no meld could make up "
                f"minus {values['minus']}: take more numbers or a smaller minus")
        size = len(options_deck(values))
        if 2 * values["hand_size"] >= size:
            raise OptionError(
                f"option 'hand_size' {values['hand_size']} deals {2 * values['hand_size']} cards, and the deck "
                f"of {size} (suits {values['suits']} x (numbers {values['numbers']} + investments "
                f"{values['investments']})) must keep at least one for the draw pile: hand_size must be at most "
                f"{(size - 1) // 2}")

    def deck(self, options: Mapping[str, Any] | None = None) -> list[Card]:
        """The 48 cards: 2–10, J, Q, K of four suits (fewer under the options ``suits``,
        ``numbers`` and ``investments``)."""
        return list(options_deck(self.check_options(options)))

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Each meld's score if the round ended now (``None``: no meld in that suit)."""
        minus = view["options"]["minus"]
        return {"melds": [{s: (meld_score(map(Card.parse, m[s]), minus) if m[s] else None) for s in SUITS}
                          for m in view["melds"]]}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """How long a round can last (:func:`most_turns`, two moves each) and a bound on how far
        apart two seats' scores can end it (:func:`widest_margin`, plus one: the bound is more
        than any margin)."""
        options = self.check_options(options)
        if options["stall_limit"] == 0:
            raise ValueError("a round need not end without the stall rule: stall_limit must be at least 1")
        turns = most_turns(options)
        rounds = options["rounds"] if options["target_score"] is None and options["best_of"] is None else ROUND_CAP
        return Bounds(rounds, 2 * turns, widest_margin(options, turns) + 1)

    def capped(self, options: Mapping[str, Any], rounds: int, totals: Sequence[int]) -> bool:
        """Stopped at :data:`ROUND_CAP` rounds short of the target score (or of a best-of's
        majority, which that many rounds can only miss by level play)."""
        if rounds < ROUND_CAP:
            return False
        if options["target_score"] is not None:
            return max(totals) < int(options["target_score"])
        return options["best_of"] is not None

    def card_role(self, card: Card) -> CardRole | None:
        """Investment cards (J, Q, K) multiply their meld."""
        return CardRole("×", "invest", "multiplier") if is_investment(card) else None

    def hand_size(self, options: Mapping[str, Any]) -> int:
        return int(options["hand_size"])

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle the 48 (or the options' deck); ``hand_size`` to each seat, the rest is the draw pile."""
        deck = list(options_deck(state.options))
        rng.shuffle(deck)
        size = state.options["hand_size"]
        return {"hands": [deck[:size], deck[size:2 * size]], "stock": deck[2 * size:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        """Exactly the 48 cards (or the options' deck), ``hand_size`` in each of two hands, the rest
        in the draw pile."""
        hands, stock = deal["hands"], deal["stock"]
        if not isinstance(hands, list) or len(hands) != 2 or not all(isinstance(h, list) for h in hands):
            raise ValueError("deal: hands must be a list of two hands")
        if not isinstance(stock, list):
            raise ValueError("deal: stock must be a list of cards")
        every = [*(c for h in hands for c in h), *stock]
        if not all(isinstance(c, Card) for c in every):
            raise ValueError("deal: hands and stock must hold cards, not lists")
        check_deck(every, options_deck(state.options), "Minus Twenty")
        size = state.options["hand_size"]
        if any(len(h) != size for h in hands):
            raise ValueError(f"deal: each hand must hold {size} cards, not {[len(h) for h in hands]}")

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """Rebuild the round from what the seat saw; deal unseen cards at random.

        Every play, discard and take is public, and so is the card each take
        took; only what came off the draw pile is hidden.  The opponent's
        hand keeps the cards it was seen taking; the rest of it and the draw
        pile are dealt at random from the cards the seat has not seen.  The
        round's deal is then rebuilt so that every card was in its player's
        hand before it was played, and the moves are replayed on it.
        """
        state = MinusTwentyState(
            dict(observation["options"]), observation["first"], tuple(observation["names"]), None
        )
        restore_base(state, observation)
        seat = observation["seat"]
        opponent = 1 - seat
        size = state.options["hand_size"]
        moves = [Move.parse(m) for m in observation["moves"]]
        starter = state.round_starter(state.round_index)
        # Walk the public moves: when each card first showed, and when each seat drew.
        piles: list[list[Card]] = [[], [], [], []]
        seen: set[Card] = set()
        shown: list[list[tuple[int, Card]]] = [[], []]
        draws: list[int] = []
        for number, move in enumerate(moves):
            mover = starter if (number >> 1) % 2 == 0 else 1 - starter
            verb = move.verb
            if verb == "draw":
                draws.append(mover)
            elif verb == "take":
                piles[SUIT_INDEX[move.suit()]].pop()
            else:
                card = move.card()
                if card not in seen:
                    seen.add(card)
                    shown[mover].append((number, card))
                if verb == "discard":
                    piles[card & 3].append(card)
        hand = [Card.parse(c) for c in observation["hand"]]
        known = [{Card.parse(c) for c in k} for k in observation["known"]]
        unseen = [c for c in options_deck(state.options) if c not in seen and c not in hand]
        rng.shuffle(unseen)
        hidden = observation["hand_sizes"][opponent] - len(known[opponent])
        held: list[list[Card]] = [[], []]
        held[seat] = [c for c in hand if c not in known[seat]]
        held[opponent] = unseen[:hidden]
        rest = unseen[hidden:]
        # Each seat's cards from the deal and the draw pile, earliest needed first,
        # go to its slots (the deal, then its draws in order): a card played at
        # move n must have come in before move n.
        stock: list[Card | None] = [None] * len(draws)
        hands: list[list[Card]] = [[], []]
        for who in (0, 1):
            slots = [-1] * size + [i for i, s in enumerate(draws) if s == who]
            cards = [c for _, c in shown[who]] + held[who]
            if len(cards) != len(slots):
                raise ValueError("observation is inconsistent: the cards do not add up")
            hands[who] = cards[:size]
            for slot, card in zip(slots[size:], cards[size:]):
                stock[slot] = card
        deal = {"hands": hands, "stock": [*stock, *rest]}
        state.deal = deal
        state._start_round(deal)
        for move in moves:
            state.apply(move)
        return state

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        """Rebuild the round once, then re-deal only what the seat cannot see.

        Each sample shuffles the opponent's unseen cards together with the
        rest of the draw pile and deals them out again: the same distribution
        as :meth:`determinize`, without replaying the round every time.
        The samples carry no deal (they are for search, not for records).
        """
        template = self.determinize(observation, random.Random(0))
        assert isinstance(template, MinusTwentyState)
        opponent = 1 - observation["seat"]
        known = template.was_on_pile
        kept = [c for c in template.hands[opponent] if known[c]]
        pool = [c for c in template.hands[opponent] if not known[c]] + template.stock[template.stock_pos:]
        hidden = len(template.hands[opponent]) - len(kept)
        drawn = template.stock[:template.stock_pos]
        template.deal = None

        def sample(rng: random.Random) -> State:
            state = template.copy()
            cards = pool[:]
            rng.shuffle(cards)
            state.hands[opponent] = kept + cards[:hidden]
            state.stock = drawn + cards[hidden:]
            return state

        return sample


GAME = MinusTwenty()
MinusTwentyState.game = GAME
