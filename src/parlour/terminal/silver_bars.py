"""100 Silver Bars in the terminal: both players' vaults, the piles, the strike,
your hand and where each of its cards can go."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.cards import Card
from parlour.game import Move
from parlour.games.silver_bars import (
    HI_THIEF,
    KIND,
    LO_THIEF,
    MINER,
    RUBBLE,
    STRIKE,
    play_targets,
    vault_bars,
    vault_takes,
)
from parlour.terminal.views import card_text, cards_text, scoreboard, sorted_cards


def _vault_cell(vault: dict[str, Any]) -> Text:
    """A vault's cards from the bottom up, its rubble, its lock."""
    cards = vault["cards"]
    if vault["rubble"] is not None:
        return Text.assemble(card_text(vault["rubble"]), (" rubble", "yellow"))
    if not cards:
        return Text("empty", style="dim")
    text = cards_text(cards)
    if vault["locked"]:
        text.append(" LOCKED", style="bold green")
    return text


TAKES_STYLE = {"locked": "green", "rubble": "yellow", "empty": "dim", "miner": "", "bar": ""}
"""How each case of what a vault takes next is coloured."""


def _vault_takes(vault: dict[str, Any]) -> Text:
    """What the vault takes next."""
    words, case = vault_takes([Card.parse(c) for c in vault["cards"]], vault["rubble"] is not None, vault["locked"])
    return Text(words, style=TAKES_STYLE[case])


def vault_table(title: str, vaults: Sequence[dict[str, Any]]) -> Table:
    """One player's five vaults, numbered, with the top card and the bars' value."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("")
    for number in range(1, len(vaults) + 1):
        table.add_column(f"vault {number}")
    table.add_row("cards", *(_vault_cell(v) for v in vaults))
    table.add_row("takes", *(_vault_takes(v) for v in vaults))
    table.add_row("bars", *(
        Text(str(vault_bars([Card.parse(c) for c in v["cards"]])), style="bold green" if v["locked"] else "")
        for v in vaults
    ))
    return table


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def describe_targets(card: Card, plays: Sequence[Move]) -> str:
    """Where ``card`` can be played, in words: ``vault 1, 3``, ``their vault 2``, …"""
    if not plays:
        return "discard only"
    kind = KIND[card]
    if kind == STRIKE:
        return "strike"
    if kind in (LO_THIEF, HI_THIEF):
        # Every tied source goes with every vault that takes the bar.
        sources = sorted({int(m.args[1]) for m in plays})
        targets = sorted({int(m.args[2]) for m in plays})
        return f"from their vault {_numbers(sources)} into your vault {_numbers(targets)}"
    vaults = _numbers([int(m.args[1]) for m in plays])
    return f"their vault {vaults}" if kind == RUBBLE else f"vault {vaults}"


def targets_lines(obs: dict[str, Any]) -> list[Text]:
    """For the seat to move: each card in hand and where it can go, then the locks."""
    seat = obs["seat"]
    strike = obs["strike"]
    if strike is not None and strike["against"] == seat:
        return [Text("A worker's strike is pending against you: this turn is spent resolving it — type resolve",
                     style="bold red")]
    own, theirs = obs["vaults"][seat], obs["vaults"][1 - seat]
    lines = []
    for text in dict.fromkeys(sorted_cards(obs["hand"])):
        card = Card.parse(text)
        where = describe_targets(card, play_targets(card, own, theirs))
        lines.append(Text.assemble("  ", card_text(text), " → ", where))
    lockable = [i + 1 for i, v in enumerate(own) if _lockable(v)]
    if lockable and obs["locks_left"][seat]:
        lines.append(Text(f"  lock → vault {_numbers(lockable)}"))
    return lines


def _lockable(vault: dict[str, Any]) -> bool:
    cards = vault["cards"]
    return (not vault["locked"] and vault["rubble"] is None and bool(cards)
            and KIND[Card.parse(cards[-1])] != MINER)


def render(obs: dict[str, Any]) -> RenderableType:
    """100 Silver Bars: the scores, both players' vaults, the piles, your hand and its targets."""
    seat = obs["seat"]
    other = 1 - seat
    names = obs["names"]
    parts: list[RenderableType] = [scoreboard(obs)]
    pile = obs["discard_pile"]
    parts.append(Text.assemble(
        f"Draw pile {obs['stock_count']}   Discard pile ",
        card_text(pile[-1]) if pile else Text("empty", style="dim"),
        f" ({len(pile)} card{'' if len(pile) == 1 else 's'})" if pile else "",
        f"   Dealer {names[obs['dealer']]}",
    ))
    strike = obs["strike"]
    if strike is not None:
        parts.append(Text.assemble(
            ("Worker's strike ", "bold red"), card_text(strike["card"]),
            f" pending against {names[strike['against']]}",
        ))
    for who, title in ((other, names[other]), (seat, "Your vaults" if names[seat] == "You" else names[seat])):
        heading = f"{title} — locks left {obs['locks_left'][who]}"
        parts.append(vault_table(heading, obs["vaults"][who]))
    parts.append(Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"]))))
    if obs["to_move"] == seat:
        parts.append(Text("Where your cards can go:"))
        parts.extend(targets_lines(obs))
    return Group(*parts)
