"""The views the web server sends: a seat's observation, the public view
(what every seat has in common) and replay steps."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import games, record
from parlour.cards import Card
from parlour.web import views

DATA = Path(__file__).resolve().parent.parent / "data"


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        try:
            return {str(Card.parse(value))}
        except ValueError:
            return set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def positions(game_id: str, count: int, seed: int = 0, **options: Any) -> list[Any]:
    game = games.get(game_id)
    rng = random.Random(seed)
    found = []
    for n in range(count):
        state = game.new_match(seed=seed * 1000 + n, options=options)
        for _ in range(rng.randrange(120)):
            if state.current_player() is None:
                if state.is_match_over():
                    break
                state.next_round()
                continue
            state.apply(rng.choice(state.legal_moves()))
        found.append(state)
    return found


@pytest.mark.parametrize("game_id", games.ids())
def test_public_view_shows_no_card_from_any_hand(game_id: str) -> None:
    for state in positions(game_id, 60):
        view = views.public_view(state)
        hidden = set().union(*(set(map(str, state.zones()[f"hand {s}"])) for s in range(state.num_players)))
        shown_publicly = cards_in({k: v for k, v in state.observation(0).items() if k not in ("hand", "hands")})
        # A card can be both in a hand and public only where the game says so (cards taken from a
        # discard pile are 'known'); what must never appear is a hand card nobody else could know.
        assert not (cards_in(view) & (hidden - shown_publicly)), game_id
        assert view["seat"] is None
        assert view["hand"] is None or view["hand"] == [], "only an empty hand is common to every seat"
        assert view["moves"] == [str(m) for m in state.moves]
        assert view["totals"] == state.totals


@pytest.mark.parametrize("game_id", games.ids())
def test_public_view_keeps_everything_every_seat_sees(game_id: str) -> None:
    for state in positions(game_id, 20, seed=1):
        view = views.public_view(state)
        observations = [state.observation(s) for s in range(state.num_players)]
        for key, value in view.items():
            if value is not None and key != "seat":
                assert all(obs[key] == value or isinstance(value, (list, dict)) for obs in observations), key
        for key in ("round", "scores", "stock_count", "moves", "history"):
            if key in observations[0]:
                assert view[key] == observations[0][key]


def test_public_view_of_open_hands_shows_the_hands() -> None:
    state = games.get("twenty").new_match(seed=5, options={"open_hands": True})
    view = views.public_view(state)
    assert view["hands"] == [[str(c) for c in state.zones()[f"hand {s}"]] for s in (0, 1)]
    assert view["hand"] is None


def test_common_hides_lists_of_cards_that_differ_whole() -> None:
    assert views.common([["8D", "7H"], ["8D", "9S"]]) is None
    assert views.common([[["8D"], None], [None, ["7H"]]]) == [None, None]
    assert views.common([{"a": 1, "b": [1]}, {"a": 1, "b": [2]}]) == {"a": 1, "b": None}


def test_display_values_follow_the_games_scoring() -> None:
    from parlour.games.minus_twenty import meld_score
    from parlour.games.progression import stack_score
    from parlour.games.silver_bars import vault_bars

    for state in positions("minus-twenty", 10, seed=2):
        view = state.observation(0)
        values = views.display_values(view)["melds"]
        for seat in (0, 1):
            for suit, meld in view["melds"][seat].items():
                want = meld_score([Card.parse(c) for c in meld]) if meld else None
                assert values[seat][suit] == want
    for state in positions("progression", 10, seed=2):
        view = state.observation(1)
        stacks = views.display_values(view)["stacks"]
        assert stacks[2] == {s: (stack_score([Card.parse(c) for c in p]) if p else None)
                             for s, p in view["private_stacks"][2].items()}
    for state in positions("silver-bars", 10, seed=2):
        view = state.observation(0)
        vaults = views.display_values(view)["vaults"]
        assert vaults[1] == [vault_bars([Card.parse(c) for c in v["cards"]]) for v in view["vaults"][1]]
    state = positions("twenty", 1)[0]
    assert views.display_values(state.observation(0)) == {"tally": state.tally_value}  # type: ignore[attr-defined]


def test_record_steps_replay_a_golden_record_with_all_cards() -> None:
    data = json.loads((DATA / "twenty-illustrative.json").read_text())
    steps = views.record_steps(data)
    final = record.replay(record.from_data(data))
    assert len(steps) == 1 + sum(len(r["moves"]) for r in data["rounds"]) + len(data["rounds"]) - 1
    assert steps[-1]["totals"] == final.totals
    assert all(len(step["all_hands"]) == 2 for step in steps)
    assert steps[1]["change"] == data["rounds"][0]["moves"][0]


def test_record_steps_report_where_a_record_is_wrong() -> None:
    data = json.loads((DATA / "twenty-illustrative.json").read_text())
    data["rounds"][0]["moves"][3] = "play 2Z"
    with pytest.raises(record.RecordError) as info:
        views.record_steps(data)
    assert (info.value.round, info.value.move) == (1, 4)
