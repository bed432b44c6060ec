"""Progression in the browser: each seat's private stacks in suit columns with what each
would score if the round ended now, the draw pile and the four public stacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.cards import SUITS
from parlour.games.progression import GAME
from parlour.narrate import suit_text
from parlour.web.layouts import Layout, note, pile, piles, plays_by_suit, stock, suit_seat


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> Layout:
    """The stacks, private and public, and the match's length (see :mod:`parlour.web.layouts`)."""
    values = GAME.display_values(view)["stacks"]
    options = view["options"]
    plays = plays_by_suit(legal)
    seats = [suit_seat(stacks, values[seat], "stack", "the round's score so far: the private stacks' values added up",
                       plays if seat == view["seat"] else {})
             for seat, stacks in enumerate(view["private_stacks"])]
    stall = options["stall_limit"] and view["stall"]
    centre = [
        stock(view["stock_count"]),
        piles([pile(view["public_stacks"][suit], f"public {suit_text(suit)}", suit=suit, move=f"take {suit}",
                    data={"suit": suit}) for suit in SUITS]),
        *([note(f"stall count {view['stall']}/{options['stall_limit']}")] if stall else []),
    ]
    if options["target_score"]:
        goal = f" · to {options['target_score']}"
    else:
        goal = f" of {options['rounds']}"
    return {"target": goal, "prompt": "now draw a card" if view["step"] == "draw" else "play a card",
            "seats": seats, "centre": centre}
