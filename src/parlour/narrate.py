"""Moves in words, for one reader.

Each game words its own moves (``State.describe_move``, answered in the
game's module); this module holds the English they share — cards with suit
symbols (7♥, 10♠, Joker), the second person for the reader's own seat and
the third person with a name for everyone else, verb agreement, plurals —
and the round's move log as a reader sees it.

>>> from parlour.cards import cards
>>> cards_text(cards("7C 9C TS"))
'7♣, 9♣ and 10♠'
>>> Voice(("Ann", "Bob"), seat=1, viewer=0).says("take", "9♠ from the ♠ discard pile")
'Bob takes 9♠ from the ♠ discard pile'

Events (a meld scored, a theft, a new hand dealt) are worded here too, from
templates the games give (:func:`event_text`), so that the terminal, the
replay and the web log say the same thing; and so are the reasons the rules
refuse a move (:func:`wrong_text`, :func:`illegal_text`), for the seat that
tried it: ``9♣ is not in your hand (you hold 2♣, 5♦ and 9♥)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.cards import RANKS, Card

if TYPE_CHECKING:  # only for types: the contract itself calls this module
    from parlour.game import Event, IllegalMoveError, Move, State, Wrong

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
"""Suit letter to suit symbol."""

_RANK_TEXT = {"T": "10"}
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_SECOND_PERSON = {"be": "are"}
_FIELD = re.compile(r"\{([a-z']+)\}")


def suit_text(suit: str) -> str:
    """A suit letter as its symbol: ``H`` → ``♥``."""
    return SUIT_SYMBOLS[suit]


def card_text(card: Card) -> str:
    """A card as a reader sees it: ``7♥``, ``10♠``, ``K♣``, ``Joker``."""
    if card.is_joker:
        return "Joker"
    rank = RANKS[card.rank - 1]
    return _RANK_TEXT.get(rank, rank) + SUIT_SYMBOLS[card.suit]


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as an English list: ``7♣``, ``7♣ and 9♣``, ``7♣, 8♦ and 9♣``."""
    words = [card_text(c) for c in cards]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def arg_text(arg: Card | str | int) -> str:
    """A move's argument in words: a card or a suit with its symbol, a number as it is."""
    if isinstance(arg, Card):
        return card_text(arg)
    if isinstance(arg, str):
        return SUIT_SYMBOLS.get(arg, arg)
    return str(arg)


def typed_text(move: Move) -> str:
    """A move as it is typed, with the display's card names: ``play 9♣ 2``, ``take ♠``."""
    return " ".join([move.verb, *(arg_text(a) for a in move.args)])


def number_text(number: int) -> str:
    """A whole number as a score line writes it, with a true minus sign: ``−22``, ``15``."""
    return str(number).replace("-", "−")


def sentence(text: str) -> str:
    """``text`` with a capital first letter: ``the round is over`` → ``The round is over``."""
    return text[:1].upper() + text[1:]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 miner``, ``2 miners`` (give ``nouns`` when the plural is not ``noun + s``)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def third_person(verb: str) -> str:
    """The verb for he, she or they-singular: ``play`` → ``plays``, ``have`` → ``has``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb[-1] == "y" and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


@dataclass(frozen=True)
class Voice:
    """How a sentence whose subject is ``seat`` reads to ``viewer``.

    The reader's own seat is "you"; any other seat is its name (a spectator,
    ``viewer`` ``None``, sees every seat by name).
    """

    names: Sequence[str]
    seat: int
    """The seat the sentence is about (the mover)."""
    viewer: int | None

    @property
    def is_you(self) -> bool:
        """True when the reader is the subject."""
        return self.seat == self.viewer

    def subject(self) -> str:
        """``You`` or the seat's name."""
        return "You" if self.is_you else self.names[self.seat]

    def verb(self, base: str) -> str:
        """``base`` agreeing with the subject: ``play`` or ``plays``, ``are`` or ``is``."""
        return _SECOND_PERSON.get(base, base) if self.is_you else third_person(base)

    def says(self, verb: str, rest: str = "") -> str:
        """The sentence ``<subject> <verb> <rest>``: ``You play 7♥``, ``Bob plays 7♥``."""
        return f"{self.subject()} {self.verb(verb)} {rest}".rstrip()

    def whose(self, owner: int) -> str:
        """The owner of a meld, stack or vault as the reader says it: ``your``
        (the reader's), ``their`` (the subject's own), else ``Bob's``."""
        if owner == self.viewer:
            return "your"
        if owner == self.seat:
            return "their"
        return f"{self.names[owner]}'s"


def _fill(template: str, names: Sequence[str], seat: int | None, viewer: int | None, other: int | None,
          what: str, extra: Mapping[str, str] | None = None) -> str:
    """``template``'s fields filled for ``viewer`` (an event's or a refusal's: ``what`` names it in
    errors): ``{player}``, ``{player's}``, ``{you}``, ``{your}``, ``{their}`` and verbs speak of
    ``seat``, ``{other's}`` of ``other``, and ``extra`` gives any other field's words."""
    voice = Voice(names, seat, viewer) if seat is not None else None

    def word(match: re.Match[str]) -> str:
        field = match.group(1)
        if extra is not None and field in extra:
            return extra[field]
        if field == "other's":
            if other is None:
                raise ValueError(f"{what} says {{other's}} but names no other seat")
            return "your" if other == viewer else f"{names[other]}'s"
        if voice is None:
            raise ValueError(f"{what} has no acting seat for {{{field}}}")
        if field == "player":
            return voice.subject()
        if field == "player's":
            return "Your" if voice.is_you else f"{names[voice.seat]}'s"
        if field == "you":
            return "you" if voice.is_you else names[voice.seat]
        if field == "your":
            return "your" if voice.is_you else f"{names[voice.seat]}'s"
        if field == "their":
            return "your" if voice.is_you else "their"
        return voice.verb(field)

    return _FIELD.sub(word, template)


def event_text(event: Event, names: Sequence[str], viewer: int | None) -> str:
    """``event`` as a sentence for ``viewer`` (``None``: a spectator, or a record
    read aloud): its template (see :class:`~parlour.game.Event`) in the second
    person for the reader's own seat, the third person for everyone else.

    >>> from parlour.game import Event
    >>> scored = Event(3, 0, "Exact Twenty", 10, "{player} {score} 10 for Exact Twenty")
    >>> event_text(scored, ("Ann", "Bob"), 0), event_text(scored, ("Ann", "Bob"), 1)
    ('You score 10 for Exact Twenty', 'Ann scores 10 for Exact Twenty')
    """
    return _fill(event.text, names, event.seat, viewer, event.other, f"event {event.kind!r}")


def wrong_text(wrong: Wrong, names: Sequence[str], seat: int | None, viewer: int | None) -> str:
    """Why the rules refuse a move that ``seat`` tried (see :class:`~parlour.game.Wrong`), as
    a sentence for ``viewer`` (``None``: a spectator): in the second person to ``seat`` itself,
    with its hand listed to it alone.

    >>> from parlour.cards import cards
    >>> from parlour.game import Wrong
    >>> wrong = Wrong.not_in_hand(cards("9C")[0], cards("9H 2C 5D"))
    >>> wrong_text(wrong, ("Ann", "Bob"), 0, 0), wrong_text(wrong, ("Ann", "Bob"), 0, None)
    ('9♣ is not in your hand (you hold 2♣, 5♦ and 9♥)', "9♣ is not in Ann's hand")
    """
    hand = f" (you hold {cards_text(wrong.hand)})" if seat is not None and seat == viewer and wrong.hand else ""
    return sentence(_fill(wrong.text, names, seat, viewer, wrong.other, f"reason {wrong.kind!r}", {"hand": hand}))


def illegal_text(error: IllegalMoveError, viewer: int | None) -> str:
    """The refused move of ``error`` as ``viewer`` reads it (the terminal and the web say
    it to the seat that tried the move): :func:`wrong_text`, or the error's own message
    when it carries no reason as data."""
    if error.wrong is None:
        return sentence(str(error))
    return wrong_text(error.wrong, error.names, error.seat, viewer)


def lead_text(names: Sequence[str], seat: int, viewer: int | None) -> str:
    """Who leads a round (makes its first move), for ``viewer``: ``You lead this round``,
    ``Ann leads this round``."""
    return Voice(names, seat, viewer).says("lead", "this round")


def reader_of(names: Sequence[str]) -> int | None:
    """The seat that a log of these names is read by: the one seat named ``You``
    (as ``parlour play`` names the one person at the keyboard), else nobody."""
    yours = [seat for seat, name in enumerate(names) if name.strip().lower() == "you"]
    return yours[0] if len(yours) == 1 else None


def result_text(state: State, viewer: int | None) -> str:
    """How a finished match ended, for ``viewer``: ``You win the match (95 – 54).``,
    ``Ann and Bo win the match (…).``, ``The match is drawn at 60.``"""
    totals, winners = state.totals, state.winners()
    if len(winners) == len(totals):
        return f"The match is drawn at {number_text(totals[0])}."
    if viewer in winners:
        others = [state.names[w] for w in winners if w != viewer]
        who, verb = " and ".join(["You", *others]), "win"
    else:
        who = " and ".join(state.names[w] for w in winners)
        verb = "wins" if len(winners) == 1 else "win"
    return f"{who} {verb} the match ({' – '.join(map(number_text, totals))})."


def told_events(state: State, events: Iterable[Event]) -> list[Event]:
    """The ``events`` a log beside the moves tells: all but those the move's own sentence
    already tells (:attr:`~parlour.game.Game.told_by_moves`: a theft is the thief's move)."""
    told = state.game.told_by_moves
    return [e for e in events if e.kind not in told]


def event_log(state: State, viewer: int | None) -> list[dict[str, Any]]:
    """The current round's events for ``viewer``, oldest first, less those the moves tell
    (:func:`told_events`): ``[{"seat": 0, "move": 12, "kind": "Exact Twenty", "points": 10,
    "text": "You score 10 for Exact Twenty"}, …]`` (``move``: how many of the round's moves
    had been made)."""
    return [{"seat": e.seat, "move": e.move, "kind": e.kind, "points": e.points,
             "text": event_text(e, state.names, viewer)} for e in told_events(state, state.events)]


def move_text(before: State, move: Move, viewer: int | None, *, made: bool = False) -> str:
    """``move``, to be made in ``before`` by the player to move, as a sentence
    for ``viewer`` (``None``: a spectator).

    It never names a card that ``viewer`` cannot see.  A draw from the draw
    pile is not named while the move is only offered (a hint, a button); with
    ``made`` (the move is being reported as done) the mover, and only the
    mover, is told which card they drew.
    """
    return before.describe_move(move, viewer, made=made)


def offer_text(state: State, move: Move) -> str:
    """The legal ``move`` as it is offered to the player to move, in the imperative: the
    narrator's sentence for that player without its subject (``Play 6♥ on your ♥ meld``,
    ``Take 9♠ from the ♠ discard pile``, ``Draw a card from the draw pile``)."""
    said = state.describe_move(move, state.current_player())
    subject = "You "
    return sentence(said[len(subject):]) if said.startswith(subject) else said


def without_card(text: str, card: Card) -> str:
    """``text`` with ``card`` left out, for a button under the card already picked:
    ``Play 6♥ on your ♥ meld`` → ``Play on your ♥ meld``, ``Put a miner (8♣) on your
    vault 2`` → ``Put a miner on your vault 2``, ``Discard 7♣`` → ``Discard``."""
    shown = card_text(card)
    for form in (f" ({shown})", f" with {shown}", f" {shown}"):
        if form in text:
            return text.replace(form, "", 1)
    return text


def move_log(state: State, viewer: int | None) -> list[dict[str, Any]]:
    """The current round's moves in words for ``viewer`` as made (see
    :func:`move_text`), oldest first:
    ``[{"seat": 1, "move": "take S", "text": "Bob takes 9♠ from the ♠ discard pile"}, …]``.

    Works on a copy (undone to the round's start, then replayed move by
    move), so ``state`` is left as it was.
    """
    replay = state.copy()
    moves = list(state.moves)
    for _ in moves:
        replay.undo()
    log: list[dict[str, Any]] = []
    for move in moves:
        log.append({"seat": replay.current_player(), "move": str(move),
                    "text": replay.describe_move(move, viewer, made=True)})
        replay.apply(move)
    return log


def estimate_text(value: float, margin: float | None, *, players: int, only: bool = False) -> str:
    """A hint's estimate of a move, in words for the player who asked: ``value`` is how the round
    should end for them after the move, their score minus the others' (their mean), and ``margin``
    the half-width of its 95% interval (None: too few tries to say).  ``only``: the move is the
    player's only legal one, so there is nothing to weigh.

    >>> estimate_text(1.23, 1.2, players=2)
    'about 1.2 points better for you than your opponent, give or take 1.2'
    >>> estimate_text(-4.0, None, players=3)
    'about 4.0 points worse for you than your opponents on average (too few tries to say how sure)'
    >>> estimate_text(-22.0, 0.0, players=2, only=True)
    'your only move'
    """
    if only:
        return "your only move"
    against = "your opponent" if players <= 2 else "your opponents on average"
    points = round(abs(value), 1)
    if points == 0:
        outlook = f"about even with {against}"
    else:
        outlook = f"about {points:.1f} points {'better' if value > 0 else 'worse'} for you than {against}"
    if margin is None or margin == float("inf"):
        return f"{outlook} (too few tries to say how sure)"
    return f"{outlook}, give or take {margin:.1f}"
