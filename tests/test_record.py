"""parlour-record/1: writing, reading, replaying, and the exact place of every error."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import games, record
from parlour.record import RecordError

TWENTY = games.get("twenty")


@pytest.fixture
def golden(data_dir: Path) -> dict[str, Any]:
    return json.loads((data_dir / "twenty-illustrative.json").read_text())


def replay_data(data: dict[str, Any]) -> Any:
    return record.replay(record.loads(json.dumps(data)))


def error_of(data: dict[str, Any] | str) -> RecordError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        record.replay(record.loads(text))
    return info.value


def test_written_record_replays_to_the_same_match(tmp_path: Path) -> None:
    rng = random.Random(1)
    state = TWENTY.new_match(seed=77, names=["Ann", "Bo"])
    while not state.is_match_over():
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    path = tmp_path / "m.json"
    record.save(state, path, meta={"event": "test"})
    data = json.loads(path.read_text())
    assert data["format"] == "parlour-record/1" and data["players"] == ["Ann", "Bo"]
    assert data["options"] == {} and data["meta"] == {"event": "test"}
    assert all("scores" in r for r in data["rounds"]) and data["totals"] == state.totals
    again = record.replay(record.load(path))
    assert again.round_scores() == state.round_scores() and again.snapshot() == state.snapshot()
    assert record.result(again) == {
        "ok": True, "rounds": state.round_scores(), "totals": state.totals,
        "complete": True, "winners": state.winners(),
    }


def test_replay_shows_each_round_at_its_end() -> None:
    """``after_round`` sees every round's final position (its moves made, before the next deal)."""
    rng = random.Random(3)
    state = TWENTY.new_match(seed=8)
    ends = []
    while not state.is_match_over():
        if state.is_round_over():
            ends.append(state.snapshot())
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    ends.append(state.snapshot())
    seen: list[Any] = []
    record.replay(record.loads(json.dumps(record.to_data(state))), after_round=lambda s: seen.append(s.snapshot()))
    assert len(seen) == 2 and seen == ends


def test_unfinished_match_is_written_and_replayed() -> None:
    rng = random.Random(2)
    state = TWENTY.new_match(seed=5)
    for _ in range(17):
        state.apply(rng.choice(state.legal_moves()))
    data = record.to_data(state)
    assert "scores" not in data["rounds"][-1] and data["totals"] == [0, 0]
    again = replay_data(data)
    assert again.snapshot() == state.snapshot()
    assert record.result(again)["complete"] is False


def test_options_are_recorded_only_when_not_default() -> None:
    state = TWENTY.new_match(seed=5, options={"open_hands": True})
    assert record.to_data(state)["options"] == {"open_hands": True}


def test_hand_typed_record_without_scores_replays(golden: dict[str, Any]) -> None:
    for rnd in golden["rounds"]:
        del rnd["scores"]
    del golden["totals"]
    assert replay_data(golden).totals == [82, 110]


# -- errors name the round and the move ------------------------------------------------

def test_malformed_json() -> None:
    err = error_of('{"format": "parlour-record/1", ')
    assert (err.round, err.move) == (0, 0) and "not valid JSON" in err.reason


def test_unknown_card(golden: dict[str, Any]) -> None:
    golden["rounds"][1]["deal"]["stock"][3] = "1X"
    err = error_of(golden)
    assert (err.round, err.move) == (2, 0) and "not a card" in err.reason


def test_wrong_deck(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["deal"]["stock"][0] = golden["rounds"][0]["deal"]["stock"][1]
    err = error_of(golden)
    assert (err.round, err.move) == (1, 0) and "52-card pack" in err.reason


def test_joker_in_the_deal(golden: dict[str, Any]) -> None:
    golden["rounds"][1]["deal"]["stock"][-1] = "JK"
    err = error_of(golden)
    assert (err.round, err.move) == (2, 0)


def test_illegal_move(golden: dict[str, Any]) -> None:
    moves = golden["rounds"][1]["moves"]
    moves[6], moves[7] = moves[7], moves[6]  # Albert plays Bertha's card
    err = error_of(golden)
    assert (err.round, err.move) == (2, 7) and "not in Bertha's hand" in err.reason


def test_bad_move_syntax(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["moves"][4] = "draw"
    err = error_of(golden)
    assert (err.round, err.move) == (1, 5) and "Unknown move 'draw'" in err.reason


def test_non_canonical_move_text(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["moves"][0] = "play 8c"
    err = error_of(golden)
    assert (err.round, err.move) == (1, 1) and "canonical" in err.reason


def test_wrong_scores(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["scores"] = [60, 58]
    err = error_of(golden)
    assert (err.round, err.move) == (1, 50) and "[60, 58]" in err.reason and "[60, 59]" in err.reason


def test_wrong_totals(golden: dict[str, Any]) -> None:
    golden["totals"] = [82, 111]
    err = error_of(golden)
    assert (err.round, err.move) == (0, 0) and "totals" in err.reason


def test_moves_after_the_round_ended(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["moves"].append("play 2C")
    err = error_of(golden)
    assert (err.round, err.move) == (1, 51) and "after the round has ended" in err.reason


def test_unfinished_round_followed_by_another(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["moves"] = golden["rounds"][0]["moves"][:20]
    del golden["rounds"][0]["scores"]
    err = error_of(golden)
    assert (err.round, err.move) == (1, 20) and "not finished" in err.reason


def test_scores_on_an_unfinished_round(golden: dict[str, Any]) -> None:
    golden["rounds"][1]["moves"] = golden["rounds"][1]["moves"][:12]
    del golden["totals"]
    err = error_of(golden)
    assert (err.round, err.move) == (2, 12) and "not finished" in err.reason


def test_too_many_rounds(golden: dict[str, Any]) -> None:
    golden["rounds"].append(copy.deepcopy(golden["rounds"][0]))
    err = error_of(golden)
    assert (err.round, err.move) == (3, 0) and "already over" in err.reason


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": "pgn"}, "format must be"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"options": {"jokers": 3}}, "no option 'jokers'"),
        ({"options": {"open_hands": "yes"}}, "true or false"),
        ({"players": ["Albert"]}, "players must be a list of 2"),
        ({"first": 2}, "first must be a seat"),
        ({"colour": "red"}, "unknown key"),
        ({"rounds": []}, "rounds must be"),
        ({"totals": [1, 2, 3]}, "totals must be a list of 2"),
    ],
)
def test_header_errors_are_round_zero(golden: dict[str, Any], change: dict[str, Any], expected: str) -> None:
    golden.update(change)
    err = error_of(golden)
    assert (err.round, err.move) == (0, 0) and expected in err.reason


def test_deal_shape_errors(golden: dict[str, Any]) -> None:
    golden["rounds"][1]["deal"]["extra"] = []
    err = error_of(golden)
    assert (err.round, err.move) == (2, 0) and "unknown key" in err.reason


def test_error_is_one_line_and_json(golden: dict[str, Any]) -> None:
    golden["rounds"][0]["scores"] = [1, 2]
    err = error_of(golden)
    assert "\n" not in str(err) and str(err).startswith("round 1, move 50: ")
    assert err.as_json() == {"ok": False, "round": 1, "move": 50, "error": err.reason}
