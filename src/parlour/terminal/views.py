"""Drawing observations in the terminal with Rich.

Views take only an observation (what the seat may see), never a state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.cards import Card, sort_hand
from parlour.game import State

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
        table.add_row(f"round {number}", *map(str, scores))
    table.add_row(f"round {obs['round']} so far", *map(str, obs["scores"]))
    return table


def render_twenty(obs: dict[str, Any]) -> RenderableType:
    """Twenty: the tally, the hands, the bonus, the scores."""
    seat = obs["seat"]
    lines: list[RenderableType] = [scoreboard(obs)]
    info = Text.assemble(
        "Revealed ", cards_text(obs["revealed"]), f"  End of Round Bonus {obs['bonus']}",
        f"   stock {obs['stock_count']}",
    )
    lines.append(info)
    tally = Text.assemble(
        "Tally ", cards_text(obs["tally"], "empty"), (f"  = {obs['tally_value']}", "bold green"),
        f"  ({len(obs['tally'])} card{'s' if len(obs['tally']) != 1 else ''})",
    )
    lines.append(tally)
    for other, name in enumerate(obs["names"]):
        if other != seat:
            hand = obs["hands"][other]
            shown = cards_text(sorted_cards(hand)) if hand is not None else Text(
                f"{obs['hand_sizes'][other]} cards", style="dim")
            lines.append(Text.assemble(f"{name}: ", shown))
    lines.append(Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"]))))
    return Group(*lines)


RENDERERS: dict[str, Callable[[dict[str, Any]], RenderableType]] = {"twenty": render_twenty}


def render_observation(obs: dict[str, Any]) -> RenderableType:
    """The picture of the table for the seat that ``obs`` belongs to."""
    return RENDERERS[obs["game"]](obs)


def render_round_end(state: State) -> RenderableType:
    """A round's result and the match totals."""
    table = Table(title=f"End of round {state.round_index + 1}", show_lines=False)
    table.add_column("")
    for name in state.names:
        table.add_column(name, justify="right")
    for number, scores in enumerate(state.round_scores(), 1):
        table.add_row(f"round {number}", *map(str, scores))
    table.add_row("total", *map(str, state.totals), style="bold")
    return table
