"""The action tables and observation vectors of parlour.envs.spaces."""

from __future__ import annotations

import itertools
import random
import sys

import pytest

np = pytest.importorskip("numpy")

from parlour import games  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import Move  # noqa: E402

GAMES = games.ids()
VARIANTS = [
    ("minus-twenty", {}), ("minus-twenty", {"hand_size": 8, "stall_limit": 3, "best_of": 3}),
    ("progression", {"rounds": 2}), ("progression", {"takeback": False, "stall_limit": 2, "rounds": 2}),
    ("twenty", {}), ("twenty", {"open_hands": True}),
    ("silver-bars", {"target_score": 40}),
    ("silver-bars", {"target_score": 30, "mining_packs": 4, "rubble": 2, "lo_thieves": 8, "hi_thieves": 4,
                     "strikes": 1, "shovels": 3}),
]


def positions(game_id: str, options: dict[str, object], count: int, seed: int = 0):
    """``count`` positions of random matches, played on one state (as an environment
    does), with an occasional undo and redo so that remembered counts must notice."""
    game = games.get(game_id)
    rng = random.Random(seed)
    for number in itertools.count():
        state = game.new_match(seed=seed * 1000 + number, options=options)
        while True:
            legal = state.legal_moves()
            yield state, legal
            count -= 1
            if count <= 0:
                return
            if not legal:
                if state.is_match_over():
                    break
                state.next_round()
                continue
            state.apply(rng.choice(legal))
            if state.moves and rng.random() < 0.05:
                state.undo()
                legal = state.legal_moves()
                state.apply(rng.choice(legal))


@pytest.mark.parametrize("game_id", GAMES)
def test_action_table_round_trips(game_id: str) -> None:
    sp = space(game_id)
    assert sp.num_actions == len(sp.actions) == len(sp.index)
    for i, move in enumerate(sp.actions):
        assert Move.parse(str(move)) == move
        assert sp.index[move] == i
    table = sp.table()
    assert table.count("\n| ") == sp.num_actions + 1  # and the header
    assert f"| 0 | `{sp.actions[0]}` |" in table


@pytest.mark.parametrize(("game_id", "options"), VARIANTS)
def test_masks_and_encodings_are_exact(game_id: str, options: dict[str, object]) -> None:
    """Every legal move has an index, masks are exact, and the fast encoding equals the
    encoding of the observation, for every seat, over whole matches (later rounds too)."""
    sp = space(game_id, options)
    rng = random.Random(1)
    count = 0
    later_rounds = 0
    for state, legal in positions(game_id, options, 1500):
        mask = sp.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (sp.num_actions,)
        assert sorted(np.flatnonzero(mask)) == sorted(sp.index[m] for m in legal)
        assert int(mask.sum()) == len(set(legal))
        seats = range(sp.players) if count % 7 == 0 or not legal else [rng.randrange(sp.players)]
        for seat in seats:
            fast = sp.encode_state(state, seat)
            slow = sp.encode(state.observation(seat))
            assert fast.dtype == np.float32 and fast.shape == sp.obs_shape
            assert np.array_equal(fast, slow), _diff(sp, fast, slow)
            assert np.all(fast >= sp.low) and np.all(fast <= sp.high)
        later_rounds += state.round_index > 0
        count += 1
    assert later_rounds > 0


def test_copies_and_fresh_states_encode_alike() -> None:
    """States met out of order (copies, as search bots make them) encode exactly too."""
    for game_id in GAMES:
        sp = space(game_id)
        seen = [s.copy() for s, _ in positions(game_id, {}, 300, seed=3)]
        random.Random(4).shuffle(seen)
        for state in seen:
            for seat in range(sp.players):
                assert np.array_equal(sp.encode_state(state, seat), sp.encode(state.observation(seat)))


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_cards_do_not_show(game_id: str) -> None:
    """Two states that differ only in hidden cards have the same encoding."""
    sp = space(game_id)
    game = games.get(game_id)
    rng = random.Random(5)
    differed = 0
    for number, (state, legal) in enumerate(positions(game_id, {}, 600, seed=5)):
        if not legal or number % 5:
            continue
        seat = rng.randrange(sp.players)
        other = game.determinize(state.observation(seat), rng)
        differed += other.snapshot() != state.snapshot()
        assert np.array_equal(sp.encode_state(other, seat), sp.encode_state(state, seat))
    assert differed > 10


def test_shapes_are_fixed_and_documented() -> None:
    for game_id in GAMES:
        sp = space(game_id)
        layout = sp.layout()
        assert layout[0].offset == 0
        assert sum(seg.size for seg in layout) == sp.obs_shape[0]
        for a, b in itertools.pairwise(layout):
            assert b.offset == a.offset + a.size
        assert sp.layout_table().count("\n| ") == len(layout) + 1
    assert space("silver-bars", {"mining_packs": 4}) is space("silver-bars")
    with pytest.raises(ValueError):
        space("silver-bars", {"no_such_option": 1})
    with pytest.raises(ValueError):
        space("chess")


def test_encode_refuses_another_games_observation() -> None:
    state = games.get("twenty").new_match(seed=1)
    with pytest.raises(ValueError):
        space("minus-twenty").encode(state.observation(0))


def test_rules_do_not_import_numpy() -> None:
    """Adapters import the rules, never the reverse (STYLE.md)."""
    import subprocess

    code = ("import sys; from parlour import games\n"
            "for g in games.all_games(): g.new_match(seed=1)\n"
            "import parlour.bots, parlour.record\n"
            "print('numpy' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def _diff(sp, fast, slow) -> str:
    where = np.flatnonzero(fast != slow)
    names = [next(s.name for s in sp.layout() if s.offset <= i < s.offset + s.size) for i in where[:5]]
    return f"differ at {where[:5].tolist()} ({names}): {fast[where[:5]]} vs {slow[where[:5]]}"




def test_the_documented_tables_are_current() -> None:
    from pathlib import Path

    from parlour.envs.spaces import actions_markdown

    page = Path(__file__).resolve().parents[2] / "docs" / "envs" / "actions.md"
    assert page.read_text(encoding="utf-8") == actions_markdown(), (
        "regenerate docs/envs/actions.md from parlour.envs.spaces.actions_markdown()"
    )
