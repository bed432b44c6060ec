"""Progression in the browser: each seat's private stacks in suit columns with what each
would score if the round ended now, the draw pile and the four public stacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.games.progression import GAME
from parlour.web.layouts import Layout, plays_by_suit, rounds_target, step_prompt, suit_piles_centre, suit_seat


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> Layout:
    """The stacks, private and public, and the match's length (see :mod:`parlour.web.layouts`)."""
    values = GAME.display_values(view)["stacks"]
    options = view["options"]
    plays = plays_by_suit(legal)
    seats = [suit_seat(stacks, values[seat], "stack", "the round's score so far: the private stacks' values added up",
                       plays if seat == view["seat"] else {})
             for seat, stacks in enumerate(view["private_stacks"])]
    centre = suit_piles_centre(view["stock_count"], view["public_stacks"], "public {suit}", view["stall_count"],
                               options["stall_limit"])
    return {"target": rounds_target(options), "prompt": step_prompt(view), "seats": seats, "centre": centre}
