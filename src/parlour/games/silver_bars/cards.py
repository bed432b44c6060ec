"""What 100 Silver Bars is played with: two packs' cards sorted into kinds, the
draw pile they make, the locks, the vaults and the hand.

Every card of the two 54-card packs is of one kind: a silver bar (A 2 3 4 6,
worth its pips, A = 1), a miner (7 8 9 T), rubble (K♣ K♦ K♥), a shovel
(Q♣ Q♦ Q♥), the worker's strike (Q♠), a lo thief (J) or a hi thief (a
joker) — or a lock (a 5 or K♠), which is kept apart from hand and deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.cards import ALL_CARDS, JOKER, SUITS, Card
from parlour.game import CardRole

HAND = 7
"""Cards in a hand, at the deal and at the end of every turn (option ``hand_size``)."""
VAULTS = 5
"""Vaults a player, numbered 1–5 from the player's left."""
LOCKS = 5
"""Locks a player."""

# -- the kinds of card -------------------------------------------------------------

BAR, MINER, RUBBLE, SHOVEL, STRIKE, LO_THIEF, HI_THIEF, LOCK_CARD = range(8)
"""The kinds of card: silver bar, miner, rubble, shovel, worker's strike, lo
thief, hi thief — and lock (a 5 or K♠, never in the deck)."""


def _kind(card: Card) -> int:
    if card.is_joker:
        return HI_THIEF
    rank, suit = card.rank, card.suit
    if rank == 5 or (rank == 13 and suit == "S"):
        return LOCK_CARD
    if rank <= 6:
        return BAR
    if rank <= 10:
        return MINER
    if rank == 11:
        return LO_THIEF
    if rank == 12:
        return STRIKE if suit == "S" else SHOVEL
    return RUBBLE


KIND = [_kind(c) for c in ALL_CARDS]
"""Each card's kind, by card code."""
BAR_VALUE = [c.rank if KIND[c] == BAR else 0 for c in ALL_CARDS]
"""A silver bar's value (A = 1); 0 for any other card."""
BAR_VALUES = (1, 2, 3, 4, 6)
"""The values silver bars have (there are no 5s: they are locks)."""


def vault_bars(cards: Sequence[Card]) -> int:
    """The silver bars in a vault: the sum of every bar in it (miners count nothing)."""
    return sum(BAR_VALUE[c] for c in cards)


_ROLES = {
    MINER: CardRole("miner", "miner", "miner"), RUBBLE: CardRole("rubble", "rubble", "rubble"),
    SHOVEL: CardRole("shovel", "shovel", "shovel"), STRIKE: CardRole("strike", "strike", "strike"),
    LO_THIEF: CardRole("lo thief", "thief", "lo thief"), HI_THIEF: CardRole("hi thief", "thief", "hi thief"),
    LOCK_CARD: CardRole("lock", "lock", "lock"),
}
"""What each kind of card but a silver bar is called on the card."""


def role_of(card: Card) -> CardRole:
    """What ``card`` is in the game: a silver bar (with its value), a miner, rubble, a
    shovel, the worker's strike, a lo or hi thief, or a lock."""
    kind = KIND[card]
    if kind == BAR:
        return CardRole(f"bar {BAR_VALUE[card]}", "bar", f"bar {BAR_VALUE[card]}")
    return _ROLES[kind]


# -- the draw pile -------------------------------------------------------------------

def _pairs(texts: str) -> list[Card]:
    """Twins together, suits in order: ``KC KC KD KD …`` (the first n are used)."""
    return [Card.parse(t) for t in texts.split() for _ in range(2)]


SPECIALS: dict[str, list[Card]] = {
    "rubble": _pairs("KC KD KH"),
    "shovels": _pairs("QC QD QH"),
    "strikes": _pairs("QS"),
    "lo_thieves": _pairs("JC JD JH JS"),
    "hi_thieves": [JOKER] * 4,
}
"""The special cards each deck-composition option draws from, in the order they
are taken: option ``lo_thieves`` = 6 takes both J♣, J♦ and J♥ (leaving the J♠
out, as the source does)."""


DEFAULT_COUNTS = {
    "mining_packs": 2, "suits": 4, "bar_ranks": 5, "miner_ranks": 4,
    "rubble": 6, "shovels": 6, "strikes": 2, "lo_thieves": 6, "hi_thieves": 3,
}
"""The deck-composition options and their defaults (the source's deck): how many
packs the silver bars and miners come from, from how many suits (♣ ♦ ♥ ♠, in that
order) and of how many ranks (the lowest: bars A 2 3 4 6, miners 7 8 9 T), and how
many of each special card."""
MINING_OPTIONS = ("mining_packs", "suits", "bar_ranks", "miner_ranks")
"""The options that say which silver bars and miners the deck holds."""
MINER_RANKS = (7, 8, 9, 10)
"""The ranks miners have, lowest first."""
_DECKS: dict[tuple[int, ...], list[Card]] = {}


def mining_cards(options: Mapping[str, Any] | None = None) -> list[Card]:
    """The silver bars and miners of the deck, in card-code order: each rank and suit
    that the options keep, once from each of ``mining_packs`` packs."""
    given = options or {}
    packs, suits, bar_ranks, miner_ranks = (given.get(name, DEFAULT_COUNTS[name]) for name in MINING_OPTIONS)
    ranks = {*BAR_VALUES[:bar_ranks], *MINER_RANKS[:miner_ranks]}  # a bar's value is its rank (A = 1)
    return [c for c in ALL_CARDS[:52]
            if KIND[c] in (BAR, MINER) and c.rank in ranks and SUITS.index(c.suit) < suits
            for _ in range(packs)]


def silver_bars_deck(options: Mapping[str, Any] | None = None) -> list[Card]:
    """The draw pile's cards: silver bars and miners from ``mining_packs`` packs
    (40 and 32 from two; fewer with options ``suits``, ``bar_ranks`` and
    ``miner_ranks``), then the special cards that the deck-composition options ask
    for — 95 cards by default."""
    given = options or {}
    counts = tuple(given.get(name, default) for name, default in DEFAULT_COUNTS.items())
    deck = _DECKS.get(counts)
    if deck is None:
        deck = mining_cards(given)
        for name, count in zip(DEFAULT_COUNTS, counts):
            if name in SPECIALS:
                deck.extend(SPECIALS[name][:count])
        _DECKS[counts] = deck
    return list(deck)
