"""Twenty in the browser: the revealed cards and the End of Round Bonus, the tally with
what it comes to, the stock and the cards set aside; open hands face up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.games.twenty import HANDS_A_ROUND, ROUNDS, TWENTY
from parlour.web.layouts import Layout, badge, card_row, group, hand, label, meter, stock, text


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> Layout:
    """The tally between the bonus and the stock (see :mod:`parlour.web.layouts`)."""
    tally = view["tally"]
    value = view["tally_value"]
    scorer = view["last_scorer"]
    options = view.get("options") or {}
    hands_a_round = options.get("hands", HANDS_A_ROUND)
    seats = [{
        "hand": hand(view, seat, view["hands"]),
        "badges": [badge(f"hand {dealt}/{hands_a_round}", "hands dealt this round")],
    } for seat, dealt in enumerate(view["hands_dealt"])]
    bonus = f"+{view['bonus']} to the last scorer" + (" (now: {name})" if scorer is not None else "")
    centre = [
        group("twenty-side", [
            label("End of round bonus"),
            card_row(view["revealed"], "revealed", "small dim"),
            text(bonus, "bonus", scorer),
        ]),
        meter("Tally", value, TWENTY, tally, hot=value >= 15,
              badge=f"{len(tally)} cards" if len(tally) >= 3 and value < TWENTY else None,
              empty="empty — any card starts it", id="tally-value"),
        group("twenty-side", [stock(view["stock_count"], "Stock", None),
                              label(f"Set aside: {len(view['set_aside'])}")]),
    ]
    return {"target": f" of {options.get('rounds', ROUNDS)}", "prompt": "play a card", "seats": seats, "centre": centre}
