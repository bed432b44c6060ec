"""Minus Twenty in the browser: each seat's melds in suit columns with what each would
score if the round ended now, the draw pile and the four discard piles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.games.minus_twenty import GAME
from parlour.web.layouts import Layout, badge, plays_by_suit, rounds_target, step_prompt, suit_piles_centre, suit_seat


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
    centre = suit_piles_centre(view["stock_count"], view["discard_piles"], "{suit} pile", view["stall_count"],
                               options["stall_limit"])
    return {"target": rounds_target(options), "prompt": step_prompt(view), "seats": seats, "centre": centre}
