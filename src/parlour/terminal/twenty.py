"""Twenty in the terminal: the tally, the hands, the bonus, the scores."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from parlour.narrate import plural
from parlour.terminal.views import cards_text, scoreboard, sorted_cards


def render(obs: dict[str, Any]) -> RenderableType:
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
                plural(obs['hand_sizes'][other], 'card'), style="dim")
            lines.append(Text.assemble(f"{name}: ", shown))
    lines.append(Text.assemble("Your hand: ", cards_text(sorted_cards(obs["hand"]))))
    return Group(*lines)
