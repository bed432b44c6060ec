"""Ladder: a tiny fifth game, registered in one place, that proves a game plugs into parlour.

Nothing outside this file names it: ``PARLOUR_PLUGINS=ladder`` (with ``tests/`` on
``PYTHONPATH``) makes every front end find it — ``parlour play``, the lab, the web
tables, the RL adapters — or a test calls :func:`register`.

The rules, for two players:

* The deck is the twelve cards 2–7 of hearts and spades.  Deal three cards to
  each seat; the other six are the stock.  Seat ``first`` starts.
* On your turn either climb — ``play <card>`` onto your own ladder, a card of
  higher rank than the ladder's top card (any suit), scoring its rank — or
  ``discard <card>`` onto the shared discard pile, scoring nothing.  Then, if
  the stock is not empty, draw its top card.
* The round ends when both hands are empty.  One round; the higher score wins.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from rich.console import Group, RenderableType
from rich.text import Text

from parlour import games
from parlour.bots.heuristic import Advice
from parlour.cards import Card
from parlour.envs.spaces import GameSpace, Layout
from parlour.game import (
    BaseObservation,
    Bounds,
    Deal,
    Event,
    Game,
    Move,
    Observation,
    Option,
    RoundEnding,
    State,
    check_deck,
    restore_base,
)
from parlour.games._base import StockPile
from parlour.narrate import card_text
from parlour.terminal.views import cards_text, scoreboard, sorted_cards
from parlour.web import layouts as web

HAND = 3
DECK = tuple(sorted(Card.parse(f"{rank}{suit}") for rank in "234567" for suit in "HS"))
"""The twelve cards of the game."""


RULES = """# Ladder

A tiny game for two, to show that a game plugs into parlour.

- **The deck** is the twelve cards 2–7 of hearts and spades.  Each seat is dealt three
  cards; the other six are the stock.  Seat `first` starts.
- **On your turn** either *climb*, `play <card>`: put a card higher in rank than the top of
  your own ladder (any suit) on it, and score its rank; or `discard <card>` onto the shared
  discard pile, scoring nothing.  Then draw the top card of the stock, if any is left.
- **The round ends** when both hands are empty.  One round; the higher score wins.
"""
"""Ladder's rules, as ``parlour rules ladder`` shows them (a plug-in serves its own)."""

TURN = """# Ladder: how a turn works

**On your turn** either *climb*, `play <card>`: put a card higher than the top of your ladder
on it and score its rank; or `discard <card>`, scoring nothing.  Then draw, if the stock has a card.

**The round ends** when both hands are empty; the higher score wins.
"""
"""How a turn of Ladder works, as the rules drawer and ``rules`` at the terminal show it."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What undoing a move of Ladder needs."""

    seat: int
    """The mover."""
    hand_index: int
    """Where the card was in the mover's hand."""
    events: int
    """How many events the round had before the move."""
    drew: bool
    """Whether the mover drew a card from the stock."""


class LadderObservation(BaseObservation):
    """What a seat sees in Ladder."""

    hand: list[str]
    hand_sizes: list[int]
    ladders: list[list[str]]
    discards: list[str]
    stock_count: int


class LadderState(StockPile, State):
    """A match of Ladder."""

    game: ClassVar[Game]
    move_forms: ClassVar[dict[str, tuple[tuple[str, ...], ...]]] = {"play": (("card",),), "discard": (("card",),)}

    hands: list[list[Card]]
    ladders: list[list[Card]]
    discards: list[Card]
    to_move: int
    _undo: list[Turn]
    """Per move, what undoing it needs."""

    def round_starter(self, round_index: int) -> int:
        return self.first

    def _start_round(self, deal: Deal) -> None:
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])
        self.stock_pos = 0
        self.ladders = [[], []]
        self.discards = []
        self.to_move = self.first
        self._undo = []

    def current_player(self) -> int | None:
        return None if self.is_round_over() else self.to_move

    def is_round_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal_moves(self) -> list[Move]:
        if self.is_round_over():
            return []
        seat = self.to_move
        top = self.ladders[seat][-1].rank if self.ladders[seat] else 0
        moves = []
        for card in sorted(self.hands[seat]):
            if card.rank > top:
                moves.append(Move("play", (card,)))
            moves.append(Move("discard", (card,)))
        return moves

    def apply(self, move: Move) -> None:
        if move not in self.legal_moves():
            raise self._illegal(move)
        seat = self.to_move
        card = move.card()
        hand = self.hands[seat]
        index = hand.index(card)
        del hand[index]
        events = len(self.events)
        if move.verb == "play":
            self.ladders[seat].append(card)
            self.scores[seat] += card.rank
            self.events.append(Event(len(self.moves) + 1, seat, "Climb", card.rank,
                                     f"{{player}} {{climb}} to {card.rank} and {{score}} {card.rank}"))
        else:
            self.discards.append(card)
        drew = self.stock_pos < len(self.stock)
        if drew:
            hand.append(self.stock[self.stock_pos])
            self.stock_pos += 1
        self.moves.append(move)
        self._undo.append(Turn(seat, index, events, drew))
        self.to_move = 1 - seat if self.hands[1 - seat] else seat

    def undo(self) -> Move:
        if not self._undo:
            raise ValueError("nothing to undo in this round")
        turn = self._undo.pop()
        seat = turn.seat
        move = self.moves.pop()
        card = move.card()
        if turn.drew:
            self.stock_pos -= 1
            self.hands[seat].pop()
        if move.verb == "play":
            self.ladders[seat].pop()
            self.scores[seat] -= card.rank
        else:
            self.discards.pop()
        del self.events[turn.events:]
        self.hands[seat].insert(turn.hand_index, card)
        self.to_move = seat
        return move

    def stock_draws(self, move: Move) -> tuple[int, int]:
        return (1, self.to_move) if self.stock_pos < len(self.stock) else (0, -1)

    def describe_move(self, move: Move, viewer: int | None, *, made: bool = False) -> str:
        card = move.card()
        where = "onto {their} ladder" if move.verb == "play" else "onto the discard pile"
        voice = self.voice(viewer)
        return voice.says(move.verb, f"{card_text(card)} " + where.replace("{their}", voice.whose(self.to_move)))

    def zones(self) -> dict[str, list[Card]]:
        return {"hand 0": list(self.hands[0]), "hand 1": list(self.hands[1]), "ladder 0": list(self.ladders[0]),
                "ladder 1": list(self.ladders[1]), "discards": list(self.discards),
                "stock": self.stock[self.stock_pos:]}

    def snapshot(self) -> tuple[Any, ...]:
        return (self.round_index, tuple(map(tuple, self.hands)), tuple(self.stock), self.stock_pos,
                tuple(map(tuple, self.ladders)), tuple(self.discards), self.to_move, tuple(self.scores),
                tuple(self.moves), tuple(self.events))

    def observation(self, seat: int) -> Observation:
        obs: LadderObservation = {
            **self._base_observation(seat),
            "hand": [str(c) for c in sorted(self.hands[seat])],
            "hand_sizes": [len(h) for h in self.hands],
            "ladders": [[str(c) for c in ladder] for ladder in self.ladders],
            "discards": [str(c) for c in self.discards],
            "stock_count": len(self.stock) - self.stock_pos,
        }
        return cast(Observation, obs)

    def copy(self) -> LadderState:
        other = LadderState.__new__(LadderState)
        self._copy_base(other)
        other.hands = [list(h) for h in self.hands]
        other.stock = self.stock
        other.stock_pos = self.stock_pos
        other.ladders = [list(ladder) for ladder in self.ladders]
        other.discards = list(self.discards)
        other.to_move = self.to_move
        other._undo = list(self._undo)
        return other

    def _explain_illegal(self, move: Move) -> str:
        if move.verb not in ("play", "discard") or len(move.args) != 1:
            return "the moves of Ladder are 'play <card>' and 'discard <card>'"
        card = move.args[0]
        if card not in self.hands[self.to_move]:
            return f"{card} is not in {self.names[self.to_move]}'s hand"
        return f"{card} is not higher than the top of {self.names[self.to_move]}'s ladder"


class Ladder(Game):
    """Ladder's metadata, deals and determinization."""

    id = "ladder"
    name = "Ladder"
    players = 2
    version = "1.0"
    summary = "a tiny test game: climb a ladder of rising cards"
    observation_type = LadderObservation
    options = (Option("rounds", 1, "rounds in the match", int, minimum=1),)
    event_kinds = ("Climb",)
    endings = (RoundEnding("Cards played out", None),)
    deal_zones = ("hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return LadderState

    def rules(self) -> str:
        """Ladder's own rules text (a plug-in has no page in parlour's tree)."""
        return RULES

    def turn(self) -> str:
        """Ladder's own "how a turn works" (a plug-in has no page in parlour's tree)."""
        return TURN

    def deck(self, options: Any = None) -> list[Card]:
        return list(DECK)

    def card_universe(self) -> tuple[Card, ...]:
        return DECK

    def deal_layout(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        return [("hands", seat) for seat in range(2) for _ in range(HAND)]

    def hand_size(self, options: Mapping[str, Any]) -> int:
        return HAND

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {"ladders": [sum(Card.parse(c).rank for c in ladder) for ladder in view.get("ladders", [])]}

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """Every card is played or discarded once: twelve moves; a ladder climbs to 27 at most."""
        return Bounds(options["rounds"], len(DECK), 28)

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        deck = list(DECK)
        rng.shuffle(deck)
        return {"hands": [deck[:HAND], deck[HAND:2 * HAND]], "stock": deck[2 * HAND:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        check_deck([*(c for h in deal["hands"] for c in h), *deal["stock"]], DECK, "Ladder")
        if len(deal["hands"]) != 2 or any(len(h) != HAND for h in deal["hands"]):
            raise ValueError("deal: hands must be two hands of 3 cards")

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """The position as the seat sees it; the opponent's hand and the stock dealt at random
        from the cards it has not seen (no earlier move depends on them)."""
        seat = observation["seat"]
        state = LadderState(dict(observation["options"]), observation["first"], tuple(observation["names"]), None)
        restore_base(state, observation)
        hand = [Card.parse(c) for c in observation["hand"]]
        ladders = [[Card.parse(c) for c in ladder] for ladder in observation["ladders"]]
        discards = [Card.parse(c) for c in observation["discards"]]
        seen = {*hand, *discards, *ladders[0], *ladders[1]}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        size = observation["hand_sizes"][1 - seat]
        hands = [hand, unseen[:size]] if seat == 0 else [unseen[:size], hand]
        played = [Move.parse(m) for m in observation["moves"]]
        # A deal that leads to this position: the cards already played, then the hands and stock.
        state.deal = None
        state.hands, state.ladders, state.discards = hands, ladders, discards
        state.stock, state.stock_pos = unseen[size:], 0
        state.moves, state.scores = played, list(observation["scores"])
        state.to_move = observation["to_move"] if observation["to_move"] is not None else seat
        state._undo = []
        return state


GAME = Ladder()
LadderState.game = GAME


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """Climb with the lowest card that climbs, else throw away the lowest card."""
    return min(legal, key=lambda m: (m.verb != "play", m.card().rank))


def rollout(state: State, rng: random.Random) -> Move:
    return choose({}, state.legal_moves(), rng)


def starts(state: State, seat: int) -> int:
    assert isinstance(state, LadderState)
    return len(state.ladders[seat])


ADVICE = Advice(choose=choose, rollout=rollout, starts=starts, start="rung")
"""Ladder's advice: enough for ``medium`` and ``hard``."""


def render(obs: dict[str, Any]) -> RenderableType:
    """Ladder in the terminal: both ladders, the discard pile, your hand."""
    lines: list[RenderableType] = [scoreboard(obs)]
    for seat, name in enumerate(obs["names"]):
        lines.append(Text.assemble(f"{name}'s ladder: ", cards_text(obs["ladders"][seat], "empty")))
    lines.append(Text.assemble("Discards: ", cards_text(obs["discards"], "none"), f"   stock {obs['stock_count']}"))
    lines.append(Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"]))))
    return Group(*lines)


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> dict[str, Any]:
    """Ladder in the browser: each seat's ladder with its points, the stock, the discard pile
    (the page draws it with no change: see :mod:`parlour.web.layouts`)."""
    seats = [{"parts": {"cls": "ladders", "columns": [web.column(
        ladder, {"text": "ladder", "cls": "sym"}, {"text": str(view["scores"][seat]), "cls": "", "title": "points"},
        data={"ladder": str(seat)}, drop=[m for m in legal if m.startswith("play ")] if seat == view["seat"] else [],
    )]}} for seat, ladder in enumerate(view["ladders"])]
    centre = [web.stock(view["stock_count"], "Stock", None),
              web.pile(view["discards"], f"Discards ({len(view['discards'])})", fan="horizontal", cls="discard")]
    return {"prompt": "climb or discard", "seats": seats, "centre": centre}


class LadderSpace(GameSpace):
    """Ladder: 24 actions (``play`` and ``discard`` of each card).  Blocks: the hand, each
    ladder by relative seat, the discard pile (12 entries each), the stock (÷ 6)."""

    def __init__(self) -> None:
        self._pos = {str(c): i for i, c in enumerate(DECK)}
        super().__init__("ladder", [Move(verb, (c,)) for verb in ("play", "discard") for c in DECK])

    def _build(self, layout: Layout) -> None:
        self._o_hand = layout.block("hand", 12, "the observer's hand")
        self._o_ladders = layout.block("ladders", 24, "each ladder, by relative seat")
        self._o_discards = layout.block("discards", 12, "the discard pile")
        self._o_stock = layout.block("stock_count", 1, "cards in the stock, ÷ 6")

    def _from_observation(self, obs: Observation, seat: int, out: array[float]) -> None:
        pos = self._pos
        for c in obs["hand"]:
            out[self._o_hand + pos[c]] = 1.0
        for k in range(2):
            for c in obs["ladders"][(seat + k) % 2]:
                out[self._o_ladders + 12 * k + pos[c]] = 1.0
        for c in obs["discards"]:
            out[self._o_discards + pos[c]] = 1.0
        out[self._o_stock] = obs["stock_count"] / 6

    def _from_state(self, state: Any, seat: int, out: array[float]) -> None:
        self._from_observation(state.observation(seat), seat, out)


ENTRY = games.GameEntry(id="ladder", game="ladder:GAME", advice="ladder:ADVICE", terminal="ladder", web="ladder",
                        space="ladder:LadderSpace")
"""Ladder's one registry entry: every part of the game named in one place."""


def register() -> None:
    """Make Ladder known to parlour (idempotent)."""
    if "ladder" not in games.ids():
        games.register(ENTRY)


register()
