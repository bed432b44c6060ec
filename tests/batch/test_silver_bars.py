"""The compiled 100 Silver Bars engine against the rules engine (issue 36).

Seeded matches are played in the batch with random legal actions; the rules engine plays the
same matches in lockstep from the batch's records (its deals and first seat): at every step the
batch's legal mask is the rules engine's legal moves through the space's action table, its round
scores are the rules engine's and its observations (both seats) are ``encode_state``'s; at each
match's end the batch's reward is the margin of the rules engine's totals and the batch's record
of the match is the rules engine's own record of it (deals, moves, scores, totals), which
replays.  The golden records of ``tests/data/`` are fed through the batch too.
"""

from __future__ import annotations

import json
import random
import time
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import games, record  # noqa: E402
from parlour.batch.silver_bars import SilverBarsBatch, play_random  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import Move, State  # noqa: E402
from parlour.games import silver_bars as sb  # noqa: E402
from parlour.games.silver_bars.tables import STEAL  # noqa: E402

GAME = games.get("silver-bars")
SPACE = space("silver-bars")
ACTIONS = SPACE.num_actions
DATA = Path(__file__).resolve().parent.parent / "data"


BY_ID = {id(m): SPACE.index[m] for m in (*sb.LOCK, sb.RESOLVE, *sb.DISCARD, *sb.PLAY_ALONE, *chain(*sb.PLAY_AT),
                                        *chain(*chain(*STEAL.values()))) if m in SPACE.index}
"""The action of each move the rules engine builds once (its legal moves are these very objects:
a lookup by identity is quicker than hashing a move)."""


def replayed(data: dict[str, Any]) -> State:
    """The rules engine's state after the record ``data`` (checked as any record is)."""
    return record.replay(record.from_data(json.loads(json.dumps(data))))


def same_record(batch: dict[str, Any], engine: dict[str, Any]) -> None:
    """The batch's record of a match is the rules engine's (the batch's meta aside)."""
    assert {k: v for k, v in batch.items() if k != "meta"} == engine


def mirror(batch: SilverBarsBatch, i: int) -> State:
    """The rules engine's match of slot ``i``, from its first seat and its first round's deal."""
    return GAME.new_match(options=batch.options, first=batch.first(i), deal=batch.deal(i))


def compare(slots: int, wanted: int, seed: int, options: dict[str, Any] | None = None, observe: int | None = None,
            both: bool = True, records: int | None = None, replay: int | None = None) -> tuple[int, int]:
    """Play ``wanted`` matches on ``slots`` slots of a batch (each slot plays its matches one after
    the other) and in the rules engine side by side, with random legal moves, each round dealt in
    the rules engine as the batch dealt it.  At every step the legal moves, the seat to move and the
    round's scores are compared; the observations of the seat to move (and of the other seat too
    with ``both``) in the first ``observe`` slots (all: None); at each match's end its reward, and
    for the first ``records`` matches to end (all: None) the batch's record, which must be the rules
    engine's own; the first ``replay`` of those (all: None) are replayed from their text too.
    Returns (matches compared, steps compared)."""
    batch = SilverBarsBatch(slots, seed, options)
    mirrors: list[State | None] = [mirror(batch, i) if i < wanted else None for i in range(slots)]
    started = min(slots, wanted)
    watched = slots if observe is None else observe
    recorded = wanted if records is None else records
    replays = recorded if replay is None else replay
    index = SPACE.index
    known = BY_ID.get
    pick = random.Random(seed).random
    steps = matches = 0
    while True:
        live = [i for i, m in enumerate(mirrors) if m is not None]
        if not live:
            return matches, steps
        mask = batch.legal_mask()
        to_move = batch.to_move().tolist()
        scores = batch.scores().tolist()
        flat = np.flatnonzero(mask)  # row by row, each row's actions in order
        ends = np.cumsum(np.bincount(flat // ACTIONS, minlength=slots)).tolist()
        offered = (flat % ACTIONS).tolist()
        if live[0] < watched:
            mine = batch.observe(np.array(to_move))
            theirs = batch.observe(1 - np.array(to_move)) if both else None
        choice = [-1] * slots
        rounds_over: list[int] = []
        for i in live:
            state = mirrors[i]
            assert state is not None
            moves = state.legal_moves()
            legal = [known(id(m), -1) for m in moves]
            if -1 in legal:  # a move the rules engine made anew
                legal = [index[m] for m in moves]
            if sorted(legal) != offered[ends[i - 1] if i else 0:ends[i]]:
                raise AssertionError(f"slot {i} after {[str(m) for m in state.moves]}: the batch offers "
                                     f"{[SPACE.actions[a] for a in np.flatnonzero(mask[i])]}, the rules {moves}")
            seat = to_move[i]
            assert state.current_player() == seat and state.scores == scores[i], (i, state.moves)
            if i < watched:
                assert np.array_equal(mine[i], SPACE.encode_state(state, seat)), (i, state.moves)
                if theirs is not None:
                    assert np.array_equal(theirs[i], SPACE.encode_state(state, 1 - seat)), (i, state.moves)
            k = int(pick() * len(moves))
            choice[i] = legal[k]
            state.apply(moves[k])
            if state.is_round_over():
                rounds_over.append(i)
        steps += len(live)
        rewards, done = batch.step(np.array(choice))
        ended: list[int] = []
        for i in rounds_over:
            state = mirrors[i]
            assert state is not None
            if state.is_match_over():
                ended.append(i)
                totals = state.totals
                assert rewards[i].tolist() == [totals[0] - totals[1], totals[1] - totals[0]]
                if matches < recorded:
                    last = batch.last_record(i)
                    same_record(last, record.to_data(state))
                    if matches < replays:
                        assert replayed(last).totals == totals
                matches += 1
                mirrors[i] = mirror(batch, i) if started < wanted else None
                started += 1
            else:  # the batch has dealt the next round: the same deal, in the rules engine
                state.next_round(batch.deal(i))
        assert np.flatnonzero(done).tolist() == ended
        assert not rewards[~done].any()


def test_batch_matches_the_rules_engine() -> None:
    matches, steps = compare(20, 40, 36)
    assert matches == 40 and steps > 40 * 400


VARIANTS: list[dict[str, Any]] = [
    dict(GAME.micro_options),
    {"hand_size": 3, "target_score": 40},
    {"mining_packs": 1, "suits": 2, "bar_ranks": 3, "miner_ranks": 2, "target_score": 30},
    {"miner_ranks": 0, "rubble": 0, "shovels": 1, "lo_thieves": 8, "hi_thieves": 4, "max_rounds": 3},
    {"mining_packs": 4, "strikes": 1, "hand_size": 5, "max_rounds": 2},
    {"mining_packs": 3, "suits": 1, "rubble": 2, "shovels": 6, "target_score": 20},
    {"bar_ranks": 1, "miner_ranks": 1, "hand_size": 2, "max_rounds": 4},
]
"""Rule options that change the deck, the hand and the match's length."""


@pytest.mark.parametrize("options", VARIANTS)
def test_every_option_is_a_parameter(options: dict[str, Any]) -> None:
    matches, _ = compare(6, 12, 7, options)
    assert matches == 12


def test_an_unbounded_match_is_refused() -> None:
    with pytest.raises(ValueError, match="max_rounds must be at least 1"):
        SilverBarsBatch(1, 0, {"max_rounds": 0})
    with pytest.raises(ValueError, match="max_rounds must be at least 1"):
        play_random(1, 0, {"max_rounds": 0})
    with pytest.raises(ValueError, match="hand_size"):
        SilverBarsBatch(1, 0, {"hand_size": 8})
    with pytest.raises(ValueError, match="has no option"):
        SilverBarsBatch(1, 0, {"jokers": 2})


@pytest.mark.slow
def test_ten_thousand_matches() -> None:
    """The issue's figure: 10,000 matches on 300 slots, the legal moves, the seat to move and the
    round's scores compared at every step of every match, and its reward at the end (about 57 s of
    CPU on a loaded two-core machine, seven million steps); the first 1,000 records are
    compared with the rules engine's and 100 of them replayed from their text.  The mover's
    observation is compared at every step of 100 more matches (both seats' are in the tests above)."""
    start = time.process_time()
    matches, steps = compare(300, 10_000, 2026, observe=0, records=1000, replay=100)
    assert matches == 10_000
    watched, _ = compare(20, 100, 2027, both=False, records=0)
    assert watched == 100
    print(f"10,000 matches, {steps:,} steps compared in {time.process_time() - start:.0f} s of CPU")


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("silver-bars-*.json")))
def test_golden_records(name: str) -> None:
    """Every golden record of 100 Silver Bars through the batch, beside the rules engine: the same
    legal moves, scores and observations at every move, the same rounds and totals; the records the
    rules engine refuses (a lock in a deal, an illegal move) the batch refuses at the same place."""
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    try:
        replayed(data)
        refused = (0, 0)
    except record.RecordError as error:
        refused = (error.round, error.move)
    rounds = data["rounds"]
    deals = [GAME.deal_from_json(r["deal"]) for r in rounds]
    batch = SilverBarsBatch(1, 0, data["options"])
    if refused[0] and refused[1] == 0:  # a deal that is not the deck: refused, and the rounds before it play
        with pytest.raises(ValueError, match=f"round {refused[0]}: .* not used in 100 Silver Bars"):
            batch.set_match(0, data["first"], deals)
        rounds, deals = rounds[:refused[0] - 1], deals[:refused[0] - 1]
    batch.set_match(0, data["first"], deals)
    state = GAME.new_match(options=data["options"], first=data["first"], deal=deals[0])
    done = np.zeros(1, bool)
    for number, played in enumerate(rounds, 1):
        if number > 1:
            state.next_round(deals[number - 1])
        for index, text in enumerate(played["moves"], 1):
            action = np.array([SPACE.index[Move.parse(text)]])
            if (number, index) == refused:
                with pytest.raises(ValueError, match=f"action {action[0]} .* is illegal in match 0"):
                    batch.step(action)
                return
            seat = state.current_player()
            assert seat is not None and batch.to_move()[0] == seat
            assert np.array_equal(batch.legal_mask()[0], SPACE.mask(state.legal_moves()).astype(bool))
            assert batch.scores()[0].tolist() == state.scores
            for viewer in (seat, 1 - seat):
                assert np.array_equal(batch.observe(viewer)[0], SPACE.encode_state(state, viewer))
            _, done = batch.step(action)
            state.apply(state.parse_move(text))
    assert refused == (0, 0) or refused[1] == 0
    result = batch.last_record(0) if done[0] else batch.record(0)
    assert result["rounds"][:len(rounds)] == rounds
    assert done[0] == state.is_match_over()
    if done[0]:
        assert result["totals"] == data["totals"] == state.totals


def test_deals_depend_on_seed_slot_and_match_only() -> None:
    one, other = SilverBarsBatch(3, 5), SilverBarsBatch(5, 5)
    for i in range(3):
        assert one.record(i)["rounds"] == other.record(i)["rounds"]
    assert one.record(0)["rounds"] != one.record(1)["rounds"]
    assert SilverBarsBatch(3, 6).record(0)["rounds"] != one.record(0)["rounds"]
    one.step(one.legal_mask().argmax(axis=1))
    one.reset()
    assert one.record(0)["rounds"] == other.record(0)["rounds"]


def test_illegal_actions_are_refused_and_nothing_moves() -> None:
    batch = SilverBarsBatch(2, 3)
    before = [batch.record(i) for i in range(2)]
    legal = batch.legal_mask().argmax(axis=1)
    with pytest.raises(ValueError, match=r"action 389 \(resolve\) is illegal in match 1"):
        batch.step(np.array([legal[0], 389]))
    assert [batch.record(i) for i in range(2)] == before
    with pytest.raises(ValueError, match="one action per match"):
        batch.step(np.array([0]))
    with pytest.raises(ValueError, match="has not finished"):
        batch.last_record(0)
    with pytest.raises(IndexError, match="no match 2"):
        batch.record(2)
    deal = GAME.deal_from_json(before[0]["rounds"][0]["deal"])
    with pytest.raises(ValueError, match=r"round 1: \w\w appear"):
        batch.set_match(0, 0, [{"hands": deal["hands"], "stock": [*deal["stock"][:-1], deal["hands"][0][0]]}])
    with pytest.raises(ValueError, match="first must be a seat from 0 to 1"):
        batch.set_match(0, 2, [deal])
    assert [batch.record(i) for i in range(2)] == before


def test_play_random() -> None:
    decisions, points = play_random(20, 1)
    assert decisions > 20 * 300
    assert play_random(20, 1) == (decisions, points)
    assert play_random(50, 1, GAME.micro_options)[0] < 50 * 5
