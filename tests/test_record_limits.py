"""What a record may hold: at most ``MAX_ROUNDS`` rounds and ``MAX_MOVES`` moves, bounds that no
match the rules allow reaches, each refused with one clear line before anything is replayed."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from parlour import games, record
from parlour.game import State
from parlour.record import MAX_MOVES, MAX_ROUNDS, RecordError

DATA = Path(__file__).parent / "data"


def random_match(game_id: str, seed: int, options: dict[str, Any] | None = None,
                 names: list[str] | None = None) -> tuple[State, list[str]]:
    """A whole match of random legal moves, and its changes as a table stores them (moves in
    notation, ``next round`` between rounds)."""
    rng = random.Random(seed)
    state = games.get(game_id).new_match(seed=seed, options=options or {}, names=names)
    changes: list[str] = []
    while not state.is_match_over():
        if state.is_round_over():
            state.next_round()
            changes.append("next round")
        else:
            move = rng.choice(state.legal_moves())
            state.apply(move)
            changes.append(str(move))
    return state, changes


def capped_record() -> dict[str, Any]:
    """A Minus Twenty match to 1000 points of random play: nobody gets there, so it stops after
    the rules' 100 rounds, as long a record as a match can make (about 19,000 moves, 360 kB)."""
    state, _changes = random_match("minus-twenty", 3, {"target_score": 1000})
    return record.to_data(state)


def error_of(data: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        record.replay(record.from_data(data))
    return info.value


def test_no_game_lets_a_match_last_longer_than_a_record_may() -> None:
    for game_id in ("minus-twenty", "progression", "twenty"):
        game = games.get(game_id)
        rounds = next(o for o in game.options if o.name == "rounds")
        assert rounds.maximum is not None and rounds.maximum <= MAX_ROUNDS, game_id
        longest = dict(game.check_options({}), rounds=rounds.maximum)
        assert game.bounds(longest).rounds <= MAX_ROUNDS
    for game_id in ("minus-twenty", "progression"):
        game = games.get(game_id)
        target = next(o for o in game.options if o.name == "target_score")
        assert target.maximum is not None
        assert game.bounds(game.check_options({"target_score": target.maximum})).rounds <= MAX_ROUNDS
    minus_twenty = games.get("minus-twenty")
    best_of = next(o for o in minus_twenty.options if o.name == "best_of")
    assert best_of.maximum is not None
    assert minus_twenty.bounds(minus_twenty.check_options({"best_of": best_of.maximum})).rounds <= MAX_ROUNDS
    silver_bars = games.get("silver-bars")
    assert silver_bars.bounds(silver_bars.check_options({})).rounds <= MAX_ROUNDS


def test_the_longest_match_the_rules_allow_reads_and_replays() -> None:
    data = capped_record()
    moves = sum(len(r["moves"]) for r in data["rounds"])
    assert len(data["rounds"]) == MAX_ROUNDS and moves < MAX_MOVES / 2
    assert 250_000 < len(json.dumps(data, indent=1)) < 500_000
    state = record.replay(record.loads(json.dumps(data)))
    assert state.is_match_over() and state.totals == data["totals"]


def test_a_record_of_120_rounds_is_refused_with_one_clear_line() -> None:
    data = capped_record()
    data["rounds"] += copy.deepcopy(data["rounds"][:20])
    assert len(json.dumps(data, indent=1)) > 300_000
    error = error_of(data)
    assert str(error) == "a record holds at most 100 rounds; this one has 120"
    assert (error.round, error.move) == (0, 0)


def test_a_match_of_120_rounds_is_refused_by_its_options() -> None:
    data = json.loads(json.dumps(record.to_data(random_match("twenty", 1)[0])))
    data["options"] = {"rounds": 120}
    assert str(error_of(data)) == "option 'rounds' must be at most 100, not 120"
    for game_id, option in (("minus-twenty", "rounds"), ("progression", "rounds"), ("minus-twenty", "best_of"),
                            ("minus-twenty", "target_score"), ("progression", "target_score")):
        game = games.get(game_id)
        maximum = next(o.maximum for o in game.options if o.name == option)
        assert maximum is not None
        game.check_options({option: maximum})
        with pytest.raises(ValueError, match=f"must be at most {maximum}, not {maximum + 1}"):
            game.check_options({option: maximum + 1})


def test_a_record_of_too_many_moves_is_refused_before_it_is_replayed() -> None:
    data = record.to_data(random_match("twenty", 2)[0])
    data["rounds"][0]["moves"] = ["play 7H"] * (MAX_MOVES - 10)
    data["rounds"][1]["moves"] = ["play 8H"] * 11
    error = error_of(data)
    assert str(error) == f"a record holds at most {MAX_MOVES:,} moves; this one has {MAX_MOVES + 1:,}"
    assert (error.round, error.move) == (0, 0)
    data["rounds"][1]["moves"] = data["rounds"][1]["moves"][:10]  # exactly MAX_MOVES: read, then replayed
    error = error_of(data)
    assert (error.round, error.move) != (0, 0)


def test_a_record_error_crosses_processes_whole() -> None:
    error = RecordError(2, 5, "play QQ is not a move")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RecordError and str(again) == str(error)
    assert (again.round, again.move, again.reason) == (2, 5, "play QQ is not a move")
    header = pickle.loads(pickle.dumps(RecordError(0, 0, "x " * 200)))
    assert str(header) == str(RecordError(0, 0, "x " * 200))


def test_players_names_are_checked_as_everywhere_else() -> None:
    """A record's names are shown beside every move of a replay: a lone surrogate, a NUL or a direction
    override is refused in one line naming the character (parlour.names), as at a table."""
    data = json.loads((DATA / "twenty-illustrative.json").read_text())
    for bad, says in (("\ud800", "U+D800"), ("A\u0000", "U+0000"), ("\u202eevE", "U+202E")):
        broken = dict(data, players=[bad, data["players"][1]])
        with pytest.raises(record.RecordError, match=re.escape(says)) as info:
            record.from_data(broken)
        assert str(info.value).startswith("player 1's name") and "\n" not in str(info.value)
    assert record.from_data(dict(data, players=["  Zoë   Ann ", "Bo"])).players == ["Zoë Ann", "Bo"]
