"""The compiled Progression engine against the rules engine (issue 36).

Seeded matches are played in the batch with random legal actions; the rules engine plays the
same matches in lockstep from the batch's records (its deals and first seat): at every step
the batch's legal mask is the rules engine's legal moves through the space's action table and
its observations (every seat's) are ``encode_state``'s; at each match's end the batch's rewards
are each seat's total less the mean of the others' (the rules engine's totals) and the batch's
record of the match is the rules engine's own record of it (deals, moves, scores, totals),
which replays.  The golden records of ``tests/data/`` are fed through the batch too.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import games, record  # noqa: E402
from parlour.batch.progression import ProgressionBatch, play_random  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import Move, State  # noqa: E402

GAME = games.get("progression")
SPACE = space("progression")
PLAYERS = 3


def replayed(data: dict[str, Any]) -> State:
    """The rules engine's state after the record ``data`` (checked as any record is)."""
    return record.replay(record.from_data(json.loads(json.dumps(data))))


def same_record(batch: dict[str, Any], engine: dict[str, Any]) -> None:
    """The batch's record of a match is the rules engine's (the batch's meta aside)."""
    assert {k: v for k, v in batch.items() if k != "meta"} == engine


def margins(totals: list[int]) -> list[float]:
    """Each seat's total less the mean of the others' (the PettingZoo env's ``reward="match"``)."""
    whole = sum(totals)
    return [float(np.float32(t - (whole - t) / (PLAYERS - 1))) for t in totals]


def compare(n: int, seed: int, options: dict[str, Any] | None = None, observe: int | None = None,
            every_seat: bool = True, replay: bool = True) -> tuple[int, int]:
    """Play each of ``n`` slots' first match in the batch and the rules engine side by side,
    comparing the legal moves at every step and the observations of the seat to move (of every
    seat with ``every_seat``) in the first ``observe`` slots (all by default); at each match's
    end, the rewards, and the batch's record with the rules engine's (replayed once more through
    :func:`parlour.record.replay` with ``replay``).  Return (matches compared, steps compared)."""
    batch = ProgressionBatch(n, seed, options)
    mirrors: list[State] = [replayed(batch.record(i)) for i in range(n)]
    live = list(range(n))
    watched = n if observe is None else observe
    index = SPACE.index.__getitem__
    actions = SPACE.actions
    rng = np.random.default_rng(seed)
    steps = matches = 0
    while live:
        mask = batch.legal_mask()
        to_move = batch.to_move().tolist()
        if live[0] < watched:
            seen = [batch.observe((batch.to_move() + k) % PLAYERS) for k in range(PLAYERS if every_seat else 1)]
        rows: list[int] = []
        cols: list[int] = []
        for i in live:
            state = mirrors[i]
            seat = state.current_player()
            assert seat == to_move[i], (i, state.moves)
            legal = list(map(index, state.legal_moves()))
            rows += [i] * len(legal)
            cols += legal
            if i < watched:
                for k, vectors in enumerate(seen):
                    assert np.array_equal(vectors[i], SPACE.encode_state(state, (seat + k) % PLAYERS)), (i, k)
        expected = np.zeros_like(mask)
        expected[rows, cols] = True
        bad = np.flatnonzero((expected != mask)[live].any(axis=1))
        assert not bad.size, [(live[b], mirrors[live[b]].moves) for b in bad]
        steps += len(live)
        choice = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        rewards, done = batch.step(choice)
        chosen = choice.tolist()
        ended = done.tolist()
        going = []
        for i in live:
            state = mirrors[i]
            state.apply(actions[chosen[i]])
            if state.is_round_over():
                if state.is_match_over():
                    assert ended[i]
                    totals = state.totals
                    assert rewards[i].tolist() == margins(totals)
                    last = batch.last_record(i)
                    same_record(last, record.to_data(state))
                    if replay:
                        assert replayed(last).totals == totals
                    matches += 1
                    continue
                # the batch has dealt the next round: the same deal, in the rules engine
                state.next_round(GAME.deal_from_json(batch.record(i)["rounds"][state.round_index + 1]["deal"]))
            assert not ended[i]
            going.append(i)
        assert not rewards[going].any()
        live = going
    return matches, steps


def test_batch_matches_the_rules_engine() -> None:
    matches, steps = compare(30, 36)
    assert matches == 30 and steps > 30 * 450


VARIANTS: list[dict[str, Any]] = [
    {"takeback": False},
    dict(GAME.micro_options),
    {"hand_size": 8, "rounds": 2},
    {"suits": 2, "numbers": 5, "faces": 1, "hand_size": 3, "stall_limit": 2, "rounds": 3},
    {"suits": 3, "numbers": 2, "faces": 0, "hand_size": 1, "rounds": 4},
    {"suits": 1, "numbers": 9, "faces": 4, "hand_size": 2, "takeback": False, "stall_limit": 5, "rounds": 2},
    {"stall_limit": 0, "rounds": 1},
    {"target_score": 15, "suits": 2, "hand_size": 4},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_every_option_is_a_parameter(options: dict[str, Any]) -> None:
    matches, _ = compare(12, 7, options)
    assert matches == 12


@pytest.mark.parametrize("options", [
    {"target_score": 20, "suits": 2, "numbers": 5},
    {"target_score": 1000, "suits": 1, "numbers": 3, "faces": 1, "hand_size": 1},
])
def test_a_target_never_reached_stops_at_the_round_cap(options: dict[str, Any]) -> None:
    """Random play does not reach these targets: the matches stop at the rules' 100-round cap."""
    batch = ProgressionBatch(3, 7, options)
    assert compare(3, 7, options)[0] == 3
    rng = np.random.default_rng(7)
    rounds = []
    while len(rounds) < 3:
        mask = batch.legal_mask()
        _, done = batch.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
        rounds += [len(batch.last_record(int(i))["rounds"]) for i in np.flatnonzero(done)]
    assert rounds[:3] == [100, 100, 100]


@pytest.mark.slow
def test_ten_thousand_deals() -> None:
    """The issue's figure: 10,000 deals played out, in 1,667 matches of six rounds (10,002 rounds):
    the legal moves compared at every step of all of them, every round's scores, every match's
    rewards and record, and every seat's observation at every step of one match in twenty (the
    tests above compare every observation, on fewer matches).  10,000 whole matches (13.7 million
    steps) would take the rules engine about 100 s of CPU."""
    start = time.process_time()
    matches = steps = 0
    for chunk, n in enumerate((417, 417, 417, 416)):
        m, s = compare(n, 1000 + chunk, observe=21, replay=False)
        matches += m
        steps += s
    assert matches == 1667
    print(f"\n{matches * 6:,} deals in {matches:,} matches, {steps:,} steps compared in "
          f"{time.process_time() - start:.0f} s of CPU")


@pytest.mark.parametrize("name", ["six-rounds", "stall"])
def test_golden_records(name: str, data_dir: Path) -> None:
    data = json.loads((data_dir / f"progression-{name}.json").read_text())
    game_record = record.from_data(data)
    batch = ProgressionBatch(1, 0, game_record.options)
    batch.set_match(0, game_record.first, [r.deal for r in game_record.rounds])
    state = GAME.new_match(options=game_record.options, first=game_record.first, deal=game_record.rounds[0].deal)
    done = np.zeros(1, bool)
    for number, played in enumerate(game_record.rounds):
        if number:
            state.next_round(played.deal)
        for text in played.moves:
            seat = state.current_player()
            assert batch.to_move()[0] == seat
            assert np.array_equal(batch.legal_mask()[0], SPACE.mask(state.legal_moves()).astype(bool))
            for other in range(PLAYERS):
                assert np.array_equal(batch.observe(other)[0], SPACE.encode_state(state, other))
            move = state.parse_move(text)
            rewards, done = batch.step(np.array([SPACE.index[move]]))
            state.apply(move)
    assert done[0]
    assert rewards[0].tolist() == margins(data["totals"])
    result = batch.last_record(0)
    assert [r["scores"] for r in result["rounds"]] == [r["scores"] for r in data["rounds"]]
    assert result["totals"] == data["totals"]
    same_record(result, record.to_data(state))


def test_golden_record_with_an_illegal_move_is_refused(data_dir: Path) -> None:
    """The batch refuses the move the rules refuse (a face card onto a stack that holds a number),
    at the same place, and leaves the match as it was."""
    data = json.loads((data_dir / "progression-invalid-face-after-number.json").read_text())
    game_record = record.from_data(data)
    with pytest.raises(record.RecordError):
        record.replay(game_record)
    batch = ProgressionBatch(1, 0, game_record.options)
    batch.set_match(0, game_record.first, [r.deal for r in game_record.rounds])
    state = GAME.new_match(options=game_record.options, first=game_record.first, deal=game_record.rounds[0].deal)
    refused = None
    for number, played in enumerate(game_record.rounds):
        if number:
            state.next_round(played.deal)
        for text in played.moves:
            move = Move.parse(text)
            if move not in state.legal_moves():
                refused = (number, text)
                before = batch.record(0)
                with pytest.raises(ValueError, match=rf"action {SPACE.index[move]} \({text}\) is illegal in match 0"):
                    batch.step(np.array([SPACE.index[move]]))
                assert batch.record(0) == before
                break
            batch.step(np.array([SPACE.index[move]]))
            state.apply(move)
        if refused:
            break
    assert refused == (1, "play AD")


def test_deals_depend_on_seed_slot_and_match_only() -> None:
    one, other = ProgressionBatch(3, 5), ProgressionBatch(5, 5)
    for i in range(3):
        assert one.record(i)["rounds"] == other.record(i)["rounds"]
    assert one.record(0)["rounds"] != one.record(1)["rounds"]
    assert ProgressionBatch(3, 6).record(0)["rounds"] != one.record(0)["rounds"]
    assert {ProgressionBatch(1, seed).record(0)["first"] for seed in range(12)} == {0, 1, 2}
    one.step(one.legal_mask().argmax(axis=1))
    one.reset()
    assert one.record(0)["rounds"] == other.record(0)["rounds"]


def test_illegal_actions_and_bad_options_are_refused() -> None:
    batch = ProgressionBatch(2, 3)
    before = [batch.record(i) for i in range(2)]
    legal = batch.legal_mask().argmax(axis=1)
    with pytest.raises(ValueError, match=r"action 104 \(draw\) is illegal in match 1"):
        batch.step(np.array([legal[0], 104]))
    with pytest.raises(ValueError, match="action -2 is illegal in match 0"):
        batch.step(np.array([-2, legal[1]]))
    assert [batch.record(i) for i in range(2)] == before
    with pytest.raises(ValueError, match="one action per match"):
        batch.step(np.array([0]))
    with pytest.raises(ValueError, match="has not finished"):
        batch.last_record(0)
    with pytest.raises(IndexError, match="no match 2"):
        batch.record(2)
    with pytest.raises(ValueError, match="seats are 0 to 2"):
        batch.observe(3)
    deal = GAME.deal_from_json(before[0]["rounds"][0]["deal"])
    with pytest.raises(ValueError, match=r"round 1: \w\w appear"):
        batch.set_match(0, 0, [{"hands": deal["hands"], "stock": [*deal["stock"][:-1], deal["stock"][0]]}])
    with pytest.raises(ValueError, match="each hand must hold 5 cards"):
        batch.set_match(0, 0, [{"hands": deal["hands"][:2], "stock": deal["stock"]}])
    with pytest.raises(ValueError, match="first must be a seat from 0 to 2"):
        batch.set_match(0, 3, [deal])
    assert [batch.record(i) for i in range(2)] == before
    with pytest.raises(ValueError, match="jokers"):
        ProgressionBatch(1, 0, {"jokers": 2})
    with pytest.raises(ValueError, match="draw pile would be empty"):
        ProgressionBatch(1, 0, {"suits": 1, "hand_size": 5})
    with pytest.raises(ValueError, match="at least one match"):
        ProgressionBatch(0, 0)


def test_record_of_a_match_in_play_replays() -> None:
    batch = ProgressionBatch(3, 5)
    rng = np.random.default_rng(5)
    for _ in range(400):  # into round 2 or beyond
        mask = batch.legal_mask()
        batch.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
    for i in range(3):
        data = batch.record(i)
        assert len(data["rounds"]) >= 2 and "scores" not in data["rounds"][-1]
        state = replayed(data)
        assert state.current_player() == batch.to_move()[i]
        assert np.array_equal(SPACE.mask(state.legal_moves()).astype(bool), batch.legal_mask()[i])


def test_long_matches_grow_the_log() -> None:
    """A match longer than the log first allotted (a target score no one reaches) is still recorded."""
    batch = ProgressionBatch(1, 11, {"target_score": 1000, "suits": 1, "numbers": 9, "faces": 4, "hand_size": 2})
    rng = np.random.default_rng(0)
    done = np.zeros(1, bool)
    for _ in range(3000):
        mask = batch.legal_mask()
        _, done = batch.step(np.array([int(rng.choice(np.flatnonzero(mask[0])))]))
        if done[0]:
            break
    data = batch.last_record(0) if done[0] else batch.record(0)
    assert sum(len(r["moves"]) for r in data["rounds"]) > 1024
    assert replayed(data).totals == data["totals"]


def test_play_random() -> None:
    decisions, points = play_random(20, 1)
    assert decisions > 20 * 450
    assert play_random(20, 1) == (decisions, points)
    assert play_random(20, 2) != (decisions, points)
    assert play_random(5, 1, dict(GAME.micro_options))[0] >= 5 * 6
    assert play_random(5, 1, {"target_score": 40, "suits": 2, "takeback": False})[0] > 0
