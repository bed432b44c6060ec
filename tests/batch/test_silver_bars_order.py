"""100 Silver Bars' compiled engine gives its legal actions in the rules engine's very order
(issue 36: the lab's random bots, :mod:`parlour.batch.arena`, draw among them as ``rng.choice``
draws among ``SilverBarsState.legal_moves()``).

Seeded deals are set in the engine (``set_match`` from the state's deal and starter) and played
at random in lockstep with the rules engine: at every step the engine's in-order legal actions
(``_legal_in_order``: the locks, then each card of the hand's set ``{*hand}`` in CPython's set
order, its plays and its discard) are the rules engine's legal moves through the space's action
table, in order, and each hand is kept in the rules engine's order (``_apply_in_order``), which
makes the order of its set.  Then a few whole matches of random bots played by
:func:`parlour.batch.arena.play_matches` are the lab's own matches, record for record.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from parlour import games, record  # noqa: E402
from parlour.batch import arena as batch_arena  # noqa: E402
from parlour.batch import silver_bars as compiled  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.games.silver_bars import SilverBarsState  # noqa: E402
from parlour.lab import arena  # noqa: E402

GAME = games.get("silver-bars")
SPACE = space("silver-bars")
POSITION = {c: p for p, c in enumerate(SPACE.CARDS)}  # type: ignore[attr-defined]

VARIANTS: list[dict[str, Any] | None] = [
    None,
    {"hand_size": 4, "lo_thieves": 8, "hi_thieves": 4, "bar_ranks": 3},  # a set of few slots, many thieves
    {"miner_ranks": 0, "rubble": 0, "shovels": 0, "hand_size": 6},
]


def play_in_lockstep(options: dict[str, Any] | None, seed: int, rounds: int) -> tuple[int, int]:
    """Match ``seed`` of ``options`` played at random for ``rounds`` rounds (fewer if it ends),
    each round set in the engine from the state's deal and starter: (steps compared, the most
    legal moves of a step)."""
    batch = compiled.SilverBarsBatch(1, 0, options)
    t = batch._t
    legal = np.zeros(compiled.SCRATCH, np.int64)
    rng = random.Random(seed)
    state = GAME.new_match(seed=seed, options=options)
    assert isinstance(state, SilverBarsState)
    hand = batch.options["hand_size"]
    steps = most = 0
    for _ in range(rounds):
        starter = state.current_player()
        assert starter is not None
        batch.set_match(0, starter, [state.deal])
        ended = False
        while not state.is_round_over():
            assert not ended, "the engine ended the round before the rules engine"
            assert t.hands[0, :, :hand].tolist() == [[POSITION[c] for c in held] for held in state.hands]
            moves = state.legal_moves()
            n = compiled._legal_in_order_slot(t, 0, legal)
            assert legal[:n].tolist() == [SPACE.actions.index(m) for m in moves], (seed, steps)
            move = rng.choice(moves)
            ended = compiled._apply_in_order_slot(t, 0, SPACE.index[move])
            state.apply(move)
            steps += 1
            most = max(most, n)
        assert ended, "the rules engine ended the round before the engine"
        if state.is_match_over():
            break
        state.next_round()
    return steps, most


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "thieves", "plain"])
def test_the_legal_actions_come_in_the_rules_engines_order(options: dict[str, Any] | None) -> None:
    """Four seeded matches of each variant, two rounds each: every step's legal actions, in order."""
    steps = most = 0
    for seed in range(4):
        played, widest = play_in_lockstep(options, 3100 + seed, rounds=2)
        steps += played
        most = max(most, widest)
    assert steps >= 300 and most >= 20


def test_a_pending_strike_is_resolved_first() -> None:
    """A worker's strike against the seat to move leaves it the one move: ``resolve``."""
    for seed in range(40):
        state = GAME.new_match(seed=seed)
        assert isinstance(state, SilverBarsState)
        batch = compiled.SilverBarsBatch(1, 0)
        batch.set_match(0, state.to_move, [state.deal])
        rng = random.Random(seed)
        legal = np.zeros(compiled.SCRATCH, np.int64)
        while not state.is_round_over():
            if state.strike_against == state.to_move:
                assert compiled._legal_in_order_slot(batch._t, 0, legal) == 1
                assert SPACE.actions[legal[0]] == state.legal_moves()[0]
                return
            move = rng.choice(state.legal_moves())
            compiled._apply_in_order_slot(batch._t, 0, SPACE.index[move])
            state.apply(move)
    pytest.fail("no strike in 40 rounds")


@pytest.mark.parametrize("options", [None, VARIANTS[1]], ids=["default", "thieves"])
def test_the_batched_random_bots_play_the_labs_matches(options: dict[str, Any] | None) -> None:
    """Eight whole matches of the lab's random bots (seated both ways), played a round a compiled
    call, are the lab's matches: the same records, events and totals."""
    specs = ("random", "random")
    seeds = [70 + k for k in range(8)]
    seatings = [(0, 1) if k % 2 == 0 else (1, 0) for k in range(8)]
    assert batch_arena.supports("silver-bars", specs)
    played = batch_arena.play_matches("silver-bars", seeds, seatings, arena.player_labels(specs), options=options)
    for seed, seating, state in zip(seeds, seatings, played):
        expected = arena.play_match("silver-bars", specs, seed, seating, options=options)
        assert json.dumps(record.to_data(state, {})) == json.dumps(record.to_data(expected, {}))
        assert state.events == expected.events and state.totals == expected.totals


def test_the_spaces_moves_are_the_rules_engines_own() -> None:
    """Every action of the space is the very object of the rules engine's tables, so a replayed
    move takes ``SilverBarsState.apply``'s fast path (known by its identity)."""
    from parlour.games.silver_bars.tables import ACTIONS

    assert all(id(move) in ACTIONS for move in SPACE.actions)
