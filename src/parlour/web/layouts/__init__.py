"""What the browser draws: a table described from a seat's view, so that the front end
knows no game.

Each game's registry entry names a web layout module (``parlour.web.layouts.<game>``)
whose ``layout(view, legal)`` turns a view (a seat's observation, the public view, or a
replay step) and the legal moves of its seat (``[]`` when it is not to move) into the
game's part of the description; :func:`table_layout` adds what every game shares — the
game's name, each seat's hand, the card roles, and each legal move in the narrator's
words — and ``static/js/board.js`` renders the result as it is.  Nothing in it names a card
the view does not show.  The description (all JSON):

- ``name``: the game's name; ``target``: what follows "Round 3" (``" · to 100"``);
  ``prompt``: what the seat to move does now (``"now draw a card"``), else null;
- ``seats``: one per seat: ``hand`` (``cards`` shown, in display order; ``hidden``: how many
  are face down; ``open``: the whole hand is shown; ``known``: cards everyone has seen),
  ``score`` (what the seat's table is worth now: ``label``, ``value``, ``plain`` (no sign),
  ``title``; null where the round's score is the live one), ``badges`` (``text``, ``title``,
  ``cls``), ``parts`` (the seat's columns: ``cls`` and ``columns``, see :func:`column`) and
  ``summary`` (the parts' values in the round's breakdown: ``label`` and ``items``, each
  ``text``, ``cls`` and maybe a ``suit`` and its ``sym``), each null or empty when the game
  has none;
- ``centre``: the middle of the table, a list of items, each with a ``kind``: ``stock``,
  ``piles``, ``pile``, ``note``, ``group``, ``label``, ``text``, ``cards``, ``meter`` (see the
  helpers below); a text that names a seat says ``{name}`` and gives the ``seat``;
- ``moves``: each legal move (:func:`offers`): ``move`` (notation), ``card`` (the card it
  moves, or null), ``text`` (``Play 6♥ on your ♥ meld``), ``short`` (the same without the
  card, for a button under it), ``main`` (the move to stress);
- ``roles``: what each card shown is in the game (:meth:`~parlour.game.Game.card_role`):
  ``{"QS": {"tag": "strike", "kind": "strike", "note": "strike"}}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from parlour import games, narrate
from parlour.cards import SUITS, Card, sort_hand, to_text
from parlour.game import Move, State

View = Mapping[str, Any]
Layout = dict[str, Any]
Item = dict[str, Any]

CARD_KEYS = ("cards", "under", "known")
"""The keys of a layout whose lists hold cards (the roles are given for those cards)."""


# -- the whole description -------------------------------------------------------------
def table_layout(view: View, offered: Sequence[Item] = ()) -> Layout:
    """The table in ``view`` as the browser draws it; ``offered``: the legal moves of the
    view's seat in words (:func:`offers`), when it is to move."""
    game = games.get(view["game"])
    module = games.entry(game.id).load_web()
    legal = [o["move"] for o in offered]
    drawn = module.layout(view, legal) if module is not None else plain(view, legal)
    seats = drawn.get("seats") or [{} for _ in view["names"]]
    for seat, part in enumerate(seats):
        part.setdefault("hand", hand(view, seat))
        part.setdefault("score", None)
        part.setdefault("badges", [])
        part.setdefault("parts", None)
        part.setdefault("summary", None)
    layout: Layout = {
        "name": game.name,
        "target": drawn.get("target", ""),
        "prompt": (drawn.get("prompt") or "make your move") if legal else None,
        "seats": seats,
        "centre": drawn.get("centre", []),
        "moves": list(offered),
    }
    layout["roles"] = {code: role._asdict() for code in sorted(cards_of(layout))
                       if (role := game.card_role(Card.parse(code))) is not None}
    return layout


def offers(state: State) -> list[Item]:
    """The legal moves of the player to move, as the table offers them, in the narrator's
    words for that player (:func:`parlour.narrate.offer_text`)."""
    legal = state.legal_moves()
    out = []
    for move in legal:
        text = narrate.offer_text(state, move)
        card = move.args[0] if move.args and isinstance(move.args[0], Card) else None
        draws, _ = state.stock_draws(move)
        out.append({
            "move": str(move), "card": str(card) if card is not None else None, "text": text,
            "short": narrate.without_card(text, card) if card is not None else text,
            # the move to stress: a draw from the stock that plays no card, or the only move there is
            "main": card is None and (draws > 0 or len(legal) == 1),
        })
    return out


def cards_of(value: Any) -> set[str]:
    """Every card in the card lists of a layout (:data:`CARD_KEYS`) and the moves' cards."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in CARD_KEYS and isinstance(item, list):
                found.update(c for c in item if isinstance(c, str))
            elif key == "card" and isinstance(item, str):
                found.add(item)
            else:
                found |= cards_of(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_of(item)
    return found


def plain(view: View, legal: Sequence[str]) -> Layout:
    """The layout of a game without a web layout module: the hands and the draw pile."""
    centre = [stock(view["stock_count"])] if isinstance(view.get("stock_count"), int) else []
    return {"centre": centre}


# -- the parts every game may use --------------------------------------------------------
def display_order(cards: Iterable[str]) -> list[str]:
    """Cards in the order a hand is shown: by suit (♣ ♦ ♥ ♠, jokers last), then rank (A low)."""
    return to_text(sort_hand(map(Card.parse, cards)))


def hand(view: View, seat: int, open_hands: Sequence[Sequence[str] | None] | None = None) -> Item:
    """What ``view`` shows of ``seat``'s hand: every card of a replay after the match
    (``all_hands``), of the view's own seat and of the ``open_hands`` a game shows; else the
    cards everyone knows (``known``, where the game has them) and the rest face down."""
    every = view.get("all_hands")
    if every is not None:
        return {"cards": display_order(every[seat]), "hidden": 0, "open": True, "known": []}
    known = list((view.get("known") or [[]] * len(view["names"]))[seat] or [])
    if seat == view.get("seat") and view.get("hand") is not None:
        return {"cards": display_order(view["hand"]), "hidden": 0, "open": True, "known": known}
    shown = (open_hands or [None] * len(view["names"]))[seat]
    if shown is not None:
        return {"cards": display_order(shown), "hidden": 0, "open": True, "known": []}
    size = (view.get("hand_sizes") or [0] * len(view["names"]))[seat]
    return {"cards": display_order(known), "hidden": max(0, size - len(known)), "open": False, "known": known}


def signed(value: int | None) -> str:
    """A score with its sign: ``+7``, ``−11`` (a true minus), ``0``; ``–`` for none."""
    if value is None:
        return "–"
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def sign_class(value: int | None) -> str:
    """``pos``, ``neg`` or nothing, for a value's colour."""
    return "pos" if value is not None and value > 0 else "neg" if value is not None and value < 0 else ""


def badge(text: str, title: str | None = None, cls: str = "") -> Item:
    """A badge by a seat's name: ``locks 3``."""
    return {"text": text, "title": title, "cls": cls}


def column(cards: Sequence[str], head: Item, value: Item, *, data: Mapping[str, str], cls: str = "",
           under: Sequence[str] = (), note: Item | None = None, drop: Sequence[str] = (),
           action: Item | None = None) -> Item:
    """One column of a seat's parts: a meld, a stack, a vault.

    ``head``: ``text``, ``cls`` and maybe ``suit``; ``value``: ``text``, ``cls``, ``title``;
    ``cards``: bottom first; ``under``: cards shown apart below them (rubble); ``note``:
    ``text`` and ``cls`` under the cards; ``drop``: the legal moves that put a card here (the
    column is a target while one of them uses the card picked); ``action``: a button of its
    own (``move``, ``text``, ``cls``); ``data``: the column's ``data-*`` attributes.
    """
    return {"cls": cls, "data": dict(data), "head": head, "value": value, "cards": list(cards),
            "under": list(under), "note": note, "drop": list(drop), "action": action}


def suit_columns(piles: Mapping[str, Sequence[str]], values: Mapping[str, int | None], what: str,
                 drops: Mapping[str, Sequence[str]]) -> Item:
    """A seat's melds or stacks, a column a suit, each with its value if the round ended now."""
    return {"cls": "suits", "columns": [
        column(piles[suit], {"text": narrate.suit_text(suit), "cls": "sym", "suit": suit},
               {"text": signed(values[suit]) if piles[suit] else "", "cls": sign_class(values[suit]),
                "title": f"{what} score if the round ended now"},
               data={"suit": suit}, drop=drops.get(suit, ()))
        for suit in SUITS
    ]}


def suit_seat(piles: Mapping[str, Sequence[str]], values: Mapping[str, int | None], what: str, title: str,
              drops: Mapping[str, Sequence[str]]) -> Item:
    """A seat whose table is a meld or stack a suit (``what``): its columns, what they add up to
    now (``title`` says how), and their values in the round's breakdown."""
    return {"parts": suit_columns(piles, values, what, drops),
            "score": {"label": f"{what}s", "value": total(values.values()), "plain": False, "title": title},
            "summary": suit_summary(f"{what}s", values)}


def suit_piles_centre(count: int, suit_piles: Mapping[str, Sequence[str]], name: str, stall: int,
                      stall_limit: int) -> list[Item]:
    """The middle of a table where a turn is a play, then a draw: the draw pile, a face-up pile a
    suit that the draw may take from instead (``name``: ``"{suit} pile"``, ``"public {suit}"``),
    and the stall count while the stall rule is counting."""
    return [
        stock(count),
        piles([pile(suit_piles[suit], name.format(suit=narrate.suit_text(suit)), suit=suit, move=f"take {suit}",
                    data={"suit": suit}) for suit in SUITS]),
        *([note(f"stall count {stall}/{stall_limit}")] if stall_limit and stall else []),
    ]


def step_prompt(view: View) -> str:
    """What the player to move does now, in a game whose turn is a play, then a draw."""
    return "now draw a card" if view["step"] == "draw" else "play a card"


def rounds_target(options: Mapping[str, Any]) -> str:
    """How the match ends, after the round's number: ``" · to 100"``, ``" · best of 5"``, ``" of 3"``."""
    if options.get("target_score"):
        return f" · to {options['target_score']}"
    if options.get("best_of"):
        return f" · best of {options['best_of']}"
    return f" of {options['rounds']}"


def plays_by_suit(legal: Sequence[str]) -> dict[str, list[str]]:
    """The legal ``play <card>`` moves by the card's suit: where a game puts a card played on the
    mover's own meld or stack of its suit, these are the moves that land on each."""
    plays: dict[str, list[str]] = {}
    for text in legal:
        move = Move.parse(text)
        if move.verb == "play" and isinstance(move.args[0], Card):
            plays.setdefault(move.args[0].suit, []).append(text)
    return plays


def suit_summary(label: str, values: Mapping[str, int | None]) -> Item:
    """``melds: ♣ −11 · ♦ +6``: the value of each started meld or stack, for the round's breakdown."""
    return {"label": f"{label}: ", "items": [
        {"suit": suit, "sym": narrate.suit_text(suit), "text": signed(value), "cls": "neg" if value < 0 else ""}
        for suit, value in values.items() if value is not None
    ]}


def total(values: Iterable[int | None]) -> int:
    """The values added up (parts not started count nothing)."""
    return sum(v for v in values if v is not None)


def stock(count: int, label: str = "Draw pile", move: str | None = "draw") -> Item:
    """The face-down draw pile; ``move`` draws from it."""
    return {"kind": "stock", "count": count, "label": label, "move": move}


def pile(cards: Sequence[str], label: str, *, suit: str | None = None, move: str | None = None,
         data: Mapping[str, str] | None = None, fan: str = "vertical", cls: str = "") -> Item:
    """A face-up pile (``suit`` colours its label); ``move`` takes from it."""
    return {"kind": "pile", "cards": list(cards), "label": label, "suit": suit, "move": move,
            "data": dict(data or {}), "fan": fan, "cls": cls}


def piles(items: Sequence[Item], cls: str = "suits piles") -> Item:
    """Piles side by side."""
    return {"kind": "piles", "cls": cls, "piles": list(items)}


def note(text: str, cls: str = "note", seat: int | None = None) -> Item:
    """A line of text about the table (``{name}`` in it is ``seat``'s name)."""
    return {"kind": "note", "text": text, "cls": cls, "seat": seat}


def group(cls: str, items: Sequence[Item]) -> Item:
    """Items stacked together."""
    return {"kind": "group", "cls": cls, "items": list(items)}


def label(text: str) -> Item:
    """A small heading."""
    return {"kind": "label", "text": text}


def text(words: str, cls: str = "", seat: int | None = None) -> Item:
    """A line of text (``{name}`` in it is ``seat``'s name)."""
    return {"kind": "text", "text": words, "cls": cls, "seat": seat}


def card_row(cards: Sequence[str], cls: str = "", card_cls: str = "small") -> Item:
    """Cards side by side, not fanned."""
    return {"kind": "cards", "cards": list(cards), "cls": cls, "card_cls": card_cls}


def meter(title: str, value: int, top: int, cards: Sequence[str], *, hot: bool, badge: str | None,
          empty: str, id: str) -> Item:
    """A count towards ``top`` with a bar, and the cards that make it (``empty`` when none)."""
    return {"kind": "meter", "label": title, "value": value, "max": top, "cards": list(cards), "hot": hot,
            "badge": badge, "empty": empty, "id": id}
