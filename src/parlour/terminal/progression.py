"""Progression in the terminal: every private stack with its score, the
public stacks (top card emphasised), the draw pile, your hand, and the cards
known to be in the other hands."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.cards import SUIT_NAMES, SUITS, Card
from parlour.games.progression import stack_score
from parlour.narrate import number_text
from parlour.terminal.views import card_text, cards_text, scoreboard, sorted_cards


def _score(points: int) -> Text:
    style = "green" if points > 0 else "red" if points < 0 else "dim"
    return Text(number_text(points) if points < 0 else f"+{points}" if points else "0", style=style)


def _stack(cards: list[str]) -> Text:
    """A private stack and what it would score now."""
    if not cards:
        return Text("—", style="dim")
    return Text.assemble(cards_text(cards), " ", ("= ", "dim"), _score(stack_score(Card.parse(c) for c in cards)))


def _public(cards: list[str]) -> Text:
    """A public stack, bottom first, its top card (the one that can be taken) emphasised."""
    if not cards:
        return Text("—", style="dim")
    top = card_text(cards[-1])
    top.stylize("reverse")
    return Text(" ").join([*(card_text(c) for c in cards[:-1]), top])


def _turn(obs: dict[str, Any]) -> Text:
    """Who is to move and what they must do."""
    if obs["step"] is None:
        return Text("The round is over.", style="bold")
    seat = obs["to_move"]
    who = "You" if seat == obs["seat"] else obs["names"][seat]
    if obs["step"] == "play":
        return Text(f"{who}: play a card — 'play <card>' (private stack) or 'public <card>'.", style="bold")
    forbidden = ""
    if obs["played_public"] is not None and not obs["options"]["takeback"]:
        forbidden = f" (not {obs['played_public']}: takeback is off)"
    return Text(f"{who}: now draw — 'draw' or 'take <suit>'{forbidden}.", style="bold")


def render(obs: dict[str, Any]) -> RenderableType:
    """Progression: scores, stacks, draw pile, hands."""
    seat = obs["seat"]
    lines: list[RenderableType] = [scoreboard(obs)]
    limit = obs["options"]["stall_limit"]
    stall = f"   stall count {obs['stall_count']} of {limit}" if limit else ""
    lines.append(Text(f"Round {obs['round']}   draw pile {obs['stock_count']}{stall}"))

    lines.append(Text("Public stacks (the top card can be taken)", style="bold"))
    public = Table(box=None, pad_edge=False)
    for letter in SUITS:
        public.add_column(SUIT_NAMES[letter], min_width=12)
    public.add_row(*(_public(obs["public_stacks"][letter]) for letter in SUITS))
    lines.append(public)

    lines.append(Text("Private stacks", style="bold"))
    private = Table(box=None, pad_edge=False)
    private.add_column("")
    for letter in SUITS:
        private.add_column(SUIT_NAMES[letter])
    private.add_column("stacks now", justify="right")
    private.add_column("hand")
    for other, name in enumerate(obs["names"]):
        stacks = obs["private_stacks"][other]
        now = sum(stack_score(Card.parse(c) for c in stacks[letter]) for letter in SUITS)
        label = name + (" (you)" if other == seat and name != "You" else "")
        if other == obs["to_move"]:
            label = "▶ " + label
        size = obs["hand_sizes"][other]
        hand = Text(f"{size} card{'s' if size != 1 else ''}")
        if obs["known"][other]:
            hand.append(", known: ")
            hand.append_text(cards_text(sorted_cards(obs["known"][other])))
        private.add_row(label, *(_stack(stacks[letter]) for letter in SUITS), _score(now), hand)
    lines.append(private)

    lines.append(Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"]))))
    lines.append(_turn(obs))
    return Group(*lines)
