"""The table as the browser draws it (``parlour.web.layouts``): made for every game, every
seat and a spectator, JSON as it is, naming no card its viewer cannot see, with every legal
move in the narrator's words."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from parlour import games, narrate
from parlour.cards import Card
from parlour.game import Move, State
from parlour.web import layouts, views

from .conftest import cards_in, hidden_cards, load_record
from .test_views import positions

PRINTED = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([♣♦♥♠])")
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def named(value: Any) -> set[str]:
    """Every card a JSON value names, in notation (``9S``) or printed (``9♠``)."""
    printed = PRINTED.sub(lambda m: ("T" if m[1] == "10" else m[1]) + SUIT_LETTER[m[2]], json.dumps(value,
                                                                                                    ensure_ascii=False))
    return cards_in(value) | cards_in(printed)


def viewed(state: State, seat: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The view of ``seat`` (None: a spectator) and its layout, as the server makes them."""
    view = state.observation(seat) if seat is not None else views.public_view(state)
    offered = layouts.offers(state) if seat is not None and seat == state.current_player() else []
    return view, layouts.table_layout(view, offered)


@pytest.mark.parametrize("game_id", games.ids())
def test_every_seat_and_a_spectator_get_a_layout_that_shows_nothing_hidden(game_id: str) -> None:
    for state in positions(game_id, 25):
        for seat in [*range(state.num_players), None]:
            view, layout = viewed(state, seat)
            assert json.loads(json.dumps(layout)) == layout, "the layout is JSON as it is"
            assert layout["name"] == games.get(game_id).name
            assert len(layout["seats"]) == state.num_players
            # nothing the viewer cannot see: no card of another seat's hand (but those everyone knows), none of
            # the stock; and nothing the view itself does not show
            shown = named(layout)
            assert not shown & (hidden_cards(state, seat) - named(view)), (game_id, seat)
            assert shown <= named(view), (game_id, seat, sorted(shown - named(view)))
            for number, part in enumerate(layout["seats"]):
                hand = part["hand"]
                assert len(hand["cards"]) + hand["hidden"] == view["hand_sizes"][number]
                if number == seat:
                    assert hand["open"] and sorted(hand["cards"]) == sorted(view["hand"])
            assert set(layout["roles"]) <= layouts.cards_of(layout)


@pytest.mark.parametrize("game_id", games.ids())
def test_each_legal_move_has_words(game_id: str) -> None:
    for state in positions(game_id, 25, seed=1):
        seat = state.current_player()
        if seat is None:
            continue
        _, layout = viewed(state, seat)
        legal = state.legal_moves()
        assert [o["move"] for o in layout["moves"]] == [str(m) for m in legal]
        assert layout["prompt"]
        for offer, move in zip(layout["moves"], legal, strict=True):
            card = move.args[0] if move.args and isinstance(move.args[0], Card) else None
            assert offer["card"] == (str(card) if card is not None else None)
            said = state.describe_move(move, seat)
            assert said.startswith("You ") and offer["text"] == said[4].upper() + said[5:], (offer, said)
            assert offer["short"] and (card is None or narrate.card_text(card) not in offer["short"]), offer
        others = [s for s in range(state.num_players) if s != seat]
        assert all(viewed(state, s)[1]["moves"] == [] and viewed(state, s)[1]["prompt"] is None for s in others)


def test_short_words_leave_out_the_card_picked() -> None:
    card = Card.parse
    assert narrate.without_card("Play 6♥ on your ♥ meld", card("6H")) == "Play on your ♥ meld"
    assert narrate.without_card("Put a miner (8♣) on your vault 2", card("8C")) == "Put a miner on your vault 2"
    assert narrate.without_card("Shovel the rubble (K♣) off your vault 2 with Q♦", card("QD")) == (
        "Shovel the rubble (K♣) off your vault 2")
    assert narrate.without_card("Discard 10♠", card("TS")) == "Discard"


def test_the_parts_are_the_games_own() -> None:
    """Minus Twenty's melds in suit columns with their values; Silver Bars' vaults with what goes
    on them, locks and kinds of card; Twenty's tally and open hands."""
    state = games.get("minus-twenty").new_match(seed=5)
    rng = random.Random(2)
    while len(state.moves) < 30:
        state.apply(rng.choice(state.legal_moves()))
    view, layout = viewed(state, 0)
    values = games.get("minus-twenty").display_values(view)["melds"][0]
    columns = layout["seats"][0]["parts"]["columns"]
    assert [c["data"]["suit"] for c in columns] == ["C", "D", "H", "S"]
    assert [c["cards"] for c in columns] == [view["melds"][0][s] for s in "CDHS"]
    assert layout["seats"][0]["score"]["value"] == sum(v for v in values.values() if v is not None)
    assert {layout["roles"][c]["kind"] for c in layout["roles"] if c[0] in "JQK"} <= {"invest"}

    silver = games.get("silver-bars").new_match(seed=4)
    while len(silver.moves) < 40 and silver.current_player() is not None:
        silver.apply(random.Random(len(silver.moves)).choice(silver.legal_moves()))
    seat = silver.current_player()
    assert seat is not None
    view, layout = viewed(silver, seat)
    assert layout["seats"][seat]["badges"] == [{"text": f"locks {view['locks_left'][seat]}", "title": "locks left",
                                               "cls": "locks"}]
    vaults = layout["seats"][seat]["parts"]["columns"]
    assert [c["head"]["text"] for c in vaults] == [f"Vault {n}" for n in range(1, 6)]
    for column in vaults:
        lock = f"lock {column['data']['vault']}"
        assert (column["action"] is not None) == (lock in [str(m) for m in silver.legal_moves()])
    for text in (o["move"] for o in layout["moves"]):
        move = Move.parse(text)
        if move.verb == "play" and len(move.args) > 1:  # a play aimed at a vault: some vault takes it
            assert any(text in c["drop"] for s in layout["seats"] for c in s["parts"]["columns"]), text
    for code, role in layout["roles"].items():
        assert role == games.get("silver-bars").card_role(Card.parse(code))._asdict()  # type: ignore[union-attr]

    twenty = games.get("twenty").new_match(seed=1, options={"open_hands": True})
    view, layout = viewed(twenty, None)
    assert all(s["hand"]["open"] and len(s["hand"]["cards"]) == 5 for s in layout["seats"])
    meter = next(i for i in layout["centre"] if i["kind"] == "meter")
    assert meter["value"] == view["tally_value"] and meter["max"] == 20


def test_replay_steps_carry_their_layout_with_every_hand_open() -> None:
    steps = views.record_steps(load_record("twenty-illustrative.json"))
    assert all(step["layout"]["seats"][s]["hand"]["open"] for step in steps for s in (0, 1))
    assert all(sorted(step["layout"]["seats"][s]["hand"]["cards"]) == sorted(step["all_hands"][s])
               for step in steps for s in (0, 1))


def test_a_game_without_a_web_layout_gets_the_hands_and_the_draw_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plug-in game with no web module still gets a table the browser can draw."""
    entry = dataclasses.replace(games.entry("minus-twenty"), web=None)
    monkeypatch.setitem(games.REGISTRY._entries, "minus-twenty", entry)
    state = games.get("minus-twenty").new_match(seed=2)
    view, layout = viewed(state, state.current_player())
    assert layout["centre"] == [layouts.stock(view["stock_count"])]
    assert layout["prompt"] == "make your move" and layout["moves"]
    assert all(s["parts"] is None and s["badges"] == [] for s in layout["seats"])
