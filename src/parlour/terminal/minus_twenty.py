"""Minus Twenty in the terminal: both sides' melds with what each would score
if the round ended now, the discard piles in full, the draw pile, the hands."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from parlour.cards import SUIT_NAMES, SUITS, Card
from parlour.games.minus_twenty import meld_score
from parlour.narrate import lead_text, number_text, plural
from parlour.terminal.views import card_text, cards_text, scoreboard, sorted_cards


def _meld_cell(cards: list[str], minus: int) -> tuple[Text, int]:
    """A meld as cards and its score if the round ended now (melds must make up ``minus``)."""
    if not cards:
        return Text("—", style="dim"), 0
    points = meld_score((Card.parse(c) for c in cards), minus)
    style = "bold green" if points > 0 else ("bold red" if points < 0 else "bold")
    return Text.assemble(cards_text(cards), "  ", (f"= {number_text(points)}", style)), points


def _pile_cell(cards: list[str], just_discarded: str | None) -> Text:
    """A discard pile, bottom first; the top card (the only one that can be taken) underlined."""
    if not cards:
        return Text("—", style="dim")
    parts = [card_text(c) for c in cards]
    parts[-1].stylize("underline")
    text = Text(" ").join(parts)
    if cards[-1] == just_discarded:
        text.append("  (just discarded)", style="dim")
    return text


def _match_line(obs: dict[str, Any]) -> Text:
    """Which kind of match this is and who started each round."""
    options = obs["options"]
    names = obs["names"]
    if options["target_score"] is not None:
        kind = f"Round {obs['round']}, playing to {options['target_score']} points"
    elif options["best_of"] is not None:
        wins = " – ".join(str(w) for w in obs["rounds_won"])
        kind = f"Round {obs['round']}, best of {options['best_of']} (rounds won {wins})"
    else:
        kind = f"Round {obs['round']} of {options['rounds']}"
    return Text(f"{kind}. {lead_text(names, obs['starters'][-1], obs['seat'])}.")


def render(obs: dict[str, Any]) -> RenderableType:
    """Minus Twenty: melds, discard piles, draw pile, hands and scores."""
    seat = obs["seat"]
    other = 1 - seat
    names = obs["names"]
    lines: list[RenderableType] = [scoreboard(obs), _match_line(obs)]

    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 0))
    table.add_column("suit")
    table.add_column(f"{names[other]}'s melds")
    table.add_column("discard pile (top last)")
    table.add_column("your melds")
    running = [0, 0]
    for suit in SUITS:
        theirs, their_points = _meld_cell(obs["melds"][other][suit], obs["options"]["minus"])
        mine, my_points = _meld_cell(obs["melds"][seat][suit], obs["options"]["minus"])
        running[other] += their_points
        running[seat] += my_points
        table.add_row(
            SUIT_NAMES[suit], theirs, _pile_cell(obs["discard_piles"][suit], obs["discarded"]), mine,
        )
    table.add_row(
        Text("if the round ended now", style="italic"), Text(number_text(running[other]), style="bold"), "",
        Text(number_text(running[seat]), style="bold"),
    )
    lines.append(table)

    pile = Text(f"Draw pile: {obs['stock_count']} card{'s' if obs['stock_count'] != 1 else ''}")
    limit = obs["options"]["stall_limit"]
    if limit:
        pile.append(f"   stall count {obs['stall_count']} of {limit}", style="dim")
    lines.append(pile)
    known = obs["known"][other]
    their_hand = Text(f"{names[other]}: {plural(obs['hand_sizes'][other], 'card')} in hand")
    if known:
        their_hand.append_text(Text.assemble("; known from the discard piles: ", cards_text(sorted_cards(known))))
    lines.append(their_hand)
    mine_hand = Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"])))
    if obs["known"][seat]:
        mine_hand.append_text(Text.assemble(
            (f"   ({names[other]} saw you take ", "dim"), cards_text(sorted_cards(obs["known"][seat])),
            (")", "dim"),
        ))
    lines.append(mine_hand)
    if obs["to_move"] == seat:
        if obs["step"] == "play":
            example = sorted_cards(obs["hand"])[0]
            lines.append(Text(f"Play a card onto your meld (play {example}) or discard it (discard {example}).",
                              style="cyan"))
        elif obs["step"] == "draw":
            takes = [s for s in SUITS if obs["discard_piles"][s] and obs["discard_piles"][s][-1] != obs["discarded"]]
            hint = "Now draw (draw)" + (f" or take a top card (take {'/'.join(takes)})" if takes else "") + "."
            lines.append(Text(hint, style="cyan"))
    return Group(*lines)
