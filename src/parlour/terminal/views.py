"""Drawing observations in the terminal with Rich.

Views take only an observation (what the seat may see), never a state.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from parlour import games
from parlour.cards import Card, sort_hand
from parlour.game import State
from parlour.narrate import number_text

RED_SUITS = ("H", "D")


def card_text(text: str) -> Text:
    """One card in notation, coloured by suit."""
    style = "bold red" if text[-1] in RED_SUITS else "bold"
    if text == "JK":
        style = "bold magenta"
    return Text(text, style=style)


def cards_text(cards: Sequence[str], empty: str = "—") -> Text:
    """Several cards separated by spaces."""
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(c) for c in cards)


def sorted_cards(cards: Sequence[str]) -> list[str]:
    """Cards in notation, sorted for display."""
    return [str(c) for c in sort_hand(Card.parse(c) for c in cards)]


def scoreboard(obs: dict[str, Any]) -> Table:
    """Round scores so far and match totals, one column a player."""
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("")
    for seat, name in enumerate(obs["names"]):
        mine = seat == obs["seat"] and name != "You"
        table.add_column(name + (" (you)" if mine else ""), justify="right")
    for number, scores in enumerate(obs["history"], 1):
        table.add_row(f"round {number}", *map(number_text, scores))
    table.add_row(f"round {obs['round']} so far", *map(number_text, obs["scores"]))
    return table


def render_observation(obs: dict[str, Any]) -> RenderableType:
    """The picture of the table for the seat that ``obs`` belongs to.

    Each game draws itself: the ``render(obs)`` of the terminal module its registry entry names.
    """
    render: Callable[[dict[str, Any]], RenderableType] = games.entry(obs["game"]).load_terminal().render
    return render(obs)


def observation_text(heading: str, obs: dict[str, Any], width: int = 100) -> str:
    """``heading`` and the picture of ``obs`` as plain text (no colour, no emoji): what the RL
    environments' ``render()`` gives."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False, emoji=False)
    console.print(heading)
    console.print(render_observation(obs))
    return buffer.getvalue()


def render_round_end(state: State) -> RenderableType:
    """A round's result and the match totals."""
    table = Table(title=f"End of round {state.round_index + 1}", show_lines=False)
    table.add_column("")
    for name in state.names:
        table.add_column(name, justify="right")
    for number, scores in enumerate(state.round_scores(), 1):
        table.add_row(f"round {number}", *map(number_text, scores))
    table.add_row("total", *map(number_text, state.totals), style="bold")
    return table
