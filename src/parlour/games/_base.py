"""Machinery the games share.

:class:`StockPile` is the face-down stock every game of the family draws
from: ``stock[stock_pos:]`` is what is left, top first.  The stock's list is
never changed in place during play (copies of a state share it); only a
referee arranging the next draws (the OpenSpiel adapter's chance nodes)
replaces it.
"""

from __future__ import annotations

from parlour.cards import Card
from parlour.game import Deal


class StockPile:
    """A state's face-down stock (mixed into the game's :class:`~parlour.game.State`)."""

    stock: list[Card]
    stock_pos: int
    deal: Deal | None
    hands: list[list[Card]]

    def stock_left(self) -> list[Card]:
        """The cards still to be drawn, the next one first (the referee's knowledge)."""
        return self.stock[self.stock_pos:]

    def arrange_stock(self, offset: int, card: Card) -> None:
        """Make ``card`` (one of the cards left) the card drawn ``offset`` draws from now,
        by exchanging it with the card there; the round's deal is rewritten to match, so
        the record of the round replays as it was played."""
        at = self.stock_pos + offset
        stock = list(self.stock)
        where = stock.index(card, at)
        stock[at], stock[where] = stock[where], stock[at]
        self.stock = stock
        if self.deal is not None:
            self.deal = {**self.deal, "stock": list(stock)}

    def hidden_cards(self, seat: int) -> list[Card]:
        """The cards in the other hands that ``seat`` cannot tell from the stock's
        (a game whose search reads hands from play says: see :mod:`parlour.bots.infer`)."""
        raise NotImplementedError(f"{type(self).__name__} does not say which cards are hidden")

    def exchange(self, a: Card, b: Card) -> None:
        """Swap the places of two cards, each in a hand or the stock (a searcher
        trying other hidden cards; the state's deal no longer describes it)."""
        self.stock = list(self.stock)  # copies of a state share their stock
        places = [(pile, pile.index(card)) for card in (a, b)
                  for pile in (*self.hands, self.stock) if card in pile]
        if len(places) != 2:
            raise ValueError(f"{a} and {b} are not each in a hand or the stock")
        (pile_a, at_a), (pile_b, at_b) = places
        pile_a[at_a], pile_b[at_b] = b, a
        self.deal = None
