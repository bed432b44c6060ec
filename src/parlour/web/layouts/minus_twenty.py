"""Minus Twenty in the browser: each seat's melds in suit columns with what each would
score if the round ended now, the draw pile and the four discard piles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.cards import SUITS
from parlour.games.minus_twenty import GAME
from parlour.narrate import suit_text
from parlour.web.layouts import Layout, badge, note, pile, piles, plays_by_suit, stock, suit_seat


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> Layout:
    """The melds, the piles, and the match's goal (see :mod:`parlour.web.layouts`)."""
    values = GAME.display_values(view)["melds"]
    options = view["options"]
    plays = plays_by_suit(legal)
    seats = [{
        **suit_seat(melds, values[seat], "meld", "the round's score so far: the melds' values added up",
                    plays if seat == view["seat"] else {}),
        "badges": [badge(f"rounds won {view['rounds_won'][seat]}")] if options["best_of"] else [],
    } for seat, melds in enumerate(view["melds"])]
    stall = options["stall_limit"] and view["stall_count"]
    centre = [
        stock(view["stock_count"]),
        piles([pile(view["discard_piles"][suit], f"{suit_text(suit)} pile", suit=suit, move=f"take {suit}",
                    data={"suit": suit}) for suit in SUITS]),
        *([note(f"stall count {view['stall_count']}/{options['stall_limit']}")] if stall else []),
    ]
    return {"target": target(options), "prompt": "now draw a card" if view["step"] == "draw" else "play a card",
            "seats": seats, "centre": centre}


def target(options: Mapping[str, Any]) -> str:
    """How the match ends, after the round's number: ``" · to 100"``, ``" · best of 5"``, ``" of 3"``."""
    if options["target_score"]:
        return f" · to {options['target_score']}"
    if options["best_of"]:
        return f" · best of {options['best_of']}"
    return f" of {options['rounds']}"
