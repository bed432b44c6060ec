"""Cards, ranks, suits, decks and the card notation of NOTATION.md.

A card is a small immutable value.  :class:`Card` subclasses :class:`int` so
that the rules can index lookup tables with it and compare it cheaply; there
is exactly one instance per card (twins of two decks are the same value:
cards are named, never numbered).

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("qs"))
'QS'
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
"""Rank letters in ascending order; rank numbers run 1 (ace) to 13 (king)."""
SUITS = "CDHS"
"""Suit letters: clubs, diamonds, hearts, spades."""
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
    "7": "Seven", "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack",
    "Q": "Queen", "K": "King",
}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
JOKER_INDEX = 52


class Card(int):
    """One playing card, encoded as ``(rank - 1) * 4 + suit`` (joker: 52).

    Use :meth:`parse` or :func:`card` to get one; never call the class with
    an arbitrary integer outside 0–52.
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank number: 1 (ace) … 13 (king); 0 for the joker."""
        return 0 if self == JOKER_INDEX else (self >> 2) + 1

    @property
    def suit(self) -> str:
        """Suit letter ``C D H S``; empty for the joker."""
        return "" if self == JOKER_INDEX else SUITS[self & 3]

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self == JOKER_INDEX

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self]!r})"

    def name(self) -> str:
        """The card in words: ``Seven of Hearts``, ``Joker``."""
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES[RANKS[self.rank - 1]]} of {SUIT_NAMES[self.suit].capitalize()}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: two characters, rank then suit, any case; ``10`` for ``T``.

        Raises :class:`ValueError` naming what was expected.
        """
        found = _BY_TEXT.get(text.strip().upper())
        if found is None:
            raise ValueError(
                f"not a card: {text!r} (expected a rank, A 2-9 T J Q K or 10, then a suit, "
                "C D H S; the joker is J then K)"
            )
        return found

    @classmethod
    def of(cls, rank: int, suit: str) -> Card:
        """The card with rank number ``rank`` (1–13) and suit letter ``suit``."""
        return ALL_CARDS[(rank - 1) * 4 + SUITS.index(suit)]


def _build() -> tuple[tuple[Card, ...], dict[str, Card], list[str]]:
    cards = tuple(Card(i) for i in range(53))
    text = [RANKS[i >> 2] + SUITS[i & 3] for i in range(52)] + ["JK"]
    by_text = {t: c for t, c in zip(text, cards)}
    for c in cards[:52]:
        if text[c][0] == "T":
            by_text["10" + text[c][1]] = c
    return cards, by_text, text


ALL_CARDS, _BY_TEXT, _TEXT = _build()
JOKER = ALL_CARDS[JOKER_INDEX]


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: ``cards("7H TS qs")`` or ``cards(["7H", "TS"])``."""
    items = text.split() if isinstance(text, str) else text
    return [Card.parse(t) for t in items]


def to_text(items: Iterable[Card]) -> list[str]:
    """Cards to their canonical notation, in order."""
    return [_TEXT[c] for c in items]


def standard_deck() -> list[Card]:
    """The 52-card pack, ordered by rank then suit."""
    return list(ALL_CARDS[:52])


def deck_of(ranks: str, suits: str = SUITS, copies: int = 1) -> list[Card]:
    """Every card of the given rank letters and suit letters, ``copies`` times."""
    one = [Card.of(RANKS.index(r) + 1, s) for r in ranks for s in suits]
    return one * copies


def sort_hand(items: Iterable[Card]) -> list[Card]:
    """Cards sorted for display: by suit, then rank (jokers last)."""
    return sorted(items, key=lambda c: (c.is_joker, c.suit, c.rank))
