"""100 Silver Bars in the browser: each seat's five vaults with the bars in them (locked
ones ship), what may go on each, the draw pile, the discard pile and a pending strike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.cards import Card
from parlour.game import Move
from parlour.games.silver_bars import GAME, HI_THIEF, KIND, LO_THIEF, RUBBLE, vault_takes
from parlour.web.layouts import Layout, badge, column, note, pile, stock

SHOWN_DISCARDS = 6
"""The top cards of the discard pile that are shown."""


def layout(view: Mapping[str, Any], legal: Sequence[str]) -> Layout:
    """The vaults, the piles and the strike (see :mod:`parlour.web.layouts`)."""
    values = GAME.display_values(view)["vaults"]
    me = view["seat"]
    seats = []
    for seat, vaults in enumerate(view["vaults"]):
        locked = sum(bars for bars, vault in zip(values[seat], vaults, strict=True) if vault["locked"])
        seats.append({
            "parts": {"cls": "vaults", "columns": [
                _vault(vault, number, values[seat][number - 1], _drops(legal, number, mine=seat == me),
                       f"lock {number}" if seat == me and f"lock {number}" in legal else None)
                for number, vault in enumerate(vaults, 1)
            ]},
            "score": {"label": "locked bars", "value": locked, "plain": True,
                      "title": "bars in locked vaults: what ships at the end of the round"},
            "badges": [badge(f"locks {view['locks_left'][seat]}", "locks left", "locks")],
            "summary": {"label": "vaults: ", "items": [
                {"text": f"{number}: {bars}" + (" locked" if vault["locked"] else ""),
                 "cls": "locked" if vault["locked"] else "unlocked"}
                for number, (bars, vault) in enumerate(zip(values[seat], vaults, strict=True), 1)
            ]},
        })
    discards = view["discard_pile"]
    strike = view["strike"]
    centre = [
        stock(view["stock_count"]),
        pile(discards[-SHOWN_DISCARDS:], f"Discard pile ({len(discards)})", fan="horizontal", cls="discard"),
        *([note("Strike against {name} — their next turn is spent resolving it", "strike-banner",
                strike["against"])] if strike else []),
    ]
    prompt = "resolve the strike" if list(legal) == ["resolve"] else "play, discard or lock"
    return {"target": f" · to {view['options']['target_score']}", "prompt": prompt, "seats": seats,
            "centre": centre}


def _vault(vault: Mapping[str, Any], number: int, bars: int, drop: list[str], lock: str | None) -> dict[str, Any]:
    cls = " ".join(c for c, on in (("vault", True), ("locked", vault["locked"]), ("rubbled", vault["rubble"])) if on)
    value = {"text": str(bars), "cls": "pos" if vault["locked"] else "",
             "title": "bars locked in (they score)" if vault["locked"]
             else "bars in the vault (score only once locked)"}
    return column(vault["cards"], {"text": f"Vault {number}", "cls": "vault-no"}, value, data={"vault": str(number)},
                  cls=cls, under=[vault["rubble"]] if vault["rubble"] else [], note=_what_goes(vault), drop=drop,
                  action={"move": lock, "text": "Lock", "cls": "lock-btn"} if lock else None)


TAKES_CLASS = {"locked": "vault-state locked", "rubble": "vault-state warn", "empty": "vault-state",
               "miner": "vault-state", "bar": "vault-state"}
"""How each case of what a vault takes next is shown."""


def _what_goes(vault: Mapping[str, Any]) -> dict[str, str]:
    """What the vault takes next, in the game's words (:func:`parlour.games.silver_bars.vault_takes`)."""
    words, case = vault_takes([Card.parse(c) for c in vault["cards"]], bool(vault["rubble"]), vault["locked"])
    return {"text": words, "cls": TAKES_CLASS[case]}


def _drops(legal: Sequence[str], number: int, *, mine: bool) -> list[str]:
    """The legal plays that put a card on vault ``number``: of the mover's own vaults, the one a
    card goes into (a thief's second vault); of the other's, the one rubble or a thief aims at."""
    found = []
    for text in legal:
        move = Move.parse(text)
        if move.verb != "play" or len(move.args) < 2:
            continue
        kind = KIND[move.args[0]]  # type: ignore[index]
        thief = kind in (LO_THIEF, HI_THIEF)
        if mine and kind != RUBBLE and move.args[2 if thief else 1] == number:
            found.append(text)
        elif not mine and (kind == RUBBLE or thief) and move.args[1] == number:
            found.append(text)
    return found
