"""The compiled Twenty (parlour.batch.twenty) against the rules engine: seeded matches played in the
batch with random legal actions, each turned into a record and replayed through the rules engine,
with the same legal moves and observations at every step and the same scores; and the golden record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from parlour import games
from parlour.envs.spaces import space
from parlour.game import Move, State
from parlour.record import from_data, replay

from parlour.batch.twenty import TwentyBatch, play_random  # isort: skip

DATA = Path(__file__).resolve().parent.parent / "data"
SPACE = space("twenty")

VARIANTS: list[dict[str, Any]] = [
    {},
    {"open_hands": True},
    games.get("twenty").micro_options,
    {"suits": 2, "ranks": 9, "hand_size": 3, "hands": 2, "rounds": 3},
    {"hand_size": 4, "hands": 3, "rounds": 1, "ranks": 12},
    {"suits": 3, "ranks": 10, "hands": 2, "open_hands": True, "rounds": 4},
    {"hand_size": 1, "hands": 12, "suits": 2, "ranks": 13},
]


def _check_match(record: dict[str, Any], trace: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                 reward: np.ndarray) -> int:
    """Replay ``record`` through the rules engine: at each move the batch's mask and both seats'
    observations (``trace``) are the engine's; the record's scores and totals are checked by
    :func:`replay`, the reward against the totals.  Returns the moves compared."""
    steps = iter(trace)
    seen = 0

    def before(state: State, move: Move) -> None:
        nonlocal seen
        mask, mover, other = next(steps)
        legal = SPACE.mask(state.legal_moves()).astype(bool)
        assert np.array_equal(legal, mask), (seen, np.flatnonzero(legal), np.flatnonzero(mask))
        seat = state.current_player()
        assert seat is not None
        assert np.array_equal(SPACE.encode_state(state, seat), mover), seen
        assert np.array_equal(SPACE.encode_state(state, 1 - seat), other), seen
        seen += 1

    state = replay(from_data(record), before_move=before)
    assert seen == len(trace)
    assert state.is_match_over()
    totals = state.totals
    assert list(reward) == [totals[0] - totals[1], totals[1] - totals[0]]
    return seen


def _differential(games_wanted: int, slots: int, seed: int, options: dict[str, Any] | None) -> tuple[int, int]:
    """Play ``games_wanted`` matches in a batch of ``slots``; check each (:func:`_check_match`).
    Returns (matches, moves) compared."""
    batch = TwentyBatch(slots, seed, options)
    rng = np.random.default_rng(seed)
    traces: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[] for _ in range(slots)]
    finished = moves = 0
    while finished < games_wanted:
        mask = batch.legal_mask()
        seats = batch.to_move()
        mover, other = batch.observe(seats), batch.observe(1 - seats)
        for i in range(slots):
            traces[i].append((mask[i], mover[i], other[i]))
        pick = rng.random(mask.shape)
        pick[~mask] = -1.0
        rewards, done = batch.step(pick.argmax(axis=1))
        for i in np.flatnonzero(done):
            if finished < games_wanted:
                moves += _check_match(batch.last_record(int(i)), traces[i], rewards[i])
                finished += 1
            traces[i] = []
    return finished, moves


def test_differential_default_rules() -> None:
    matches, moves = _differential(200, 50, 2026, None)
    assert matches == 200
    assert moves == 200 * 100


@pytest.mark.parametrize("options", VARIANTS[1:])
def test_differential_options(options: dict[str, Any]) -> None:
    matches, _ = _differential(30, 10, 36, options)
    assert matches == 30


@pytest.mark.slow
def test_differential_ten_thousand_matches() -> None:
    start = time.perf_counter()
    _, moves = _differential(10_000, 256, 10_000, None)
    print(f"\n10,000 matches, {moves} moves compared in {time.perf_counter() - start:.1f} s")
    assert moves == 10_000 * 100


def test_golden_record() -> None:
    data = json.loads((DATA / "twenty-illustrative.json").read_text(encoding="utf-8"))
    batch = TwentyBatch(1, 0, data.get("options"))
    batch.load(0, data)
    state = games.get("twenty").new_match(options=data.get("options"), first=data["first"],
                                          deal=games.get("twenty").deal_from_json(data["rounds"][0]["deal"]))
    for number, rnd in enumerate(data["rounds"]):
        if number:
            state.next_round(games.get("twenty").deal_from_json(rnd["deal"]))
        for text in rnd["moves"]:
            assert np.array_equal(batch.legal_mask()[0], SPACE.mask(state.legal_moves()).astype(bool))
            seat = state.current_player()
            assert seat is not None and batch.to_move()[0] == seat
            assert np.array_equal(batch.observe(seat)[0], SPACE.encode_state(state, seat))
            move = state.parse_move(text)
            rewards, done = batch.step(np.array([SPACE.index[move]]))
            state.apply(move)
    assert done[0] and state.is_match_over()
    record = batch.last_record(0)
    assert [r["scores"] for r in record["rounds"]] == [r["scores"] for r in data["rounds"]]
    assert record["totals"] == data["totals"] == state.totals
    assert list(rewards[0]) == [data["totals"][0] - data["totals"][1], data["totals"][1] - data["totals"][0]]
    assert [r["moves"] for r in record["rounds"]] == [r["moves"] for r in data["rounds"]]


def test_record_of_a_match_in_play_replays() -> None:
    batch = TwentyBatch(3, 5)
    rng = np.random.default_rng(5)
    for _ in range(63):  # into round 2
        mask = batch.legal_mask()
        batch.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    for i in range(3):
        record = batch.record(i)
        assert len(record["rounds"]) == 2 and "scores" not in record["rounds"][1]
        state = replay(from_data(record))
        assert state.current_player() == batch.to_move()[i]
        assert np.array_equal(SPACE.mask(state.legal_moves()).astype(bool), batch.legal_mask()[i])


def test_a_slots_deals_depend_on_seed_and_slot_only() -> None:
    small, big = TwentyBatch(4, 7), TwentyBatch(9, 7)
    assert np.array_equal(small.deals, big.deals[:4])
    assert np.array_equal(small.g, big.g[:4])
    assert not np.array_equal(TwentyBatch(4, 8).deals, small.deals)
    assert len(set(big.g[:, 3].tolist())) == 2  # both seats start some matches


def test_illegal_action_and_bad_options_refused() -> None:
    batch = TwentyBatch(2, 1)
    before = batch.g.copy()
    mask = batch.legal_mask()
    actions = np.array([np.flatnonzero(mask[0])[0], np.flatnonzero(~mask[1])[0]])
    with pytest.raises(ValueError, match="match 1"):
        batch.step(actions)
    assert np.array_equal(batch.g, before)
    with pytest.raises(ValueError):
        TwentyBatch(1, 0, {"suits": 1})  # too small a pack for the default hands
    with pytest.raises(ValueError):
        TwentyBatch(1, 0, {"jokers": 2})


def test_play_random() -> None:
    decisions, total = play_random(100, 1)
    assert decisions == 100 * 100
    assert total > 0
    assert play_random(100, 1) == (decisions, total)
    micro, _ = play_random(10, 1, games.get("twenty").micro_options)
    assert micro == 10 * 4
