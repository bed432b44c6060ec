"""The fast path of parlour.envs.spaces: ``encode_state`` keeps a picture of each state
from call to call and must give, every time, exactly the vector of the seat's observation
(``encode``) — after moves, undos, new rounds, several moves between calls, copies, more
states than it keeps, hidden cards swapped by a search and draw piles arranged by a
referee — and exactly the vectors and masks it gave before it kept pictures (the digests
in ``encodings_before.json``, made by the version before the speed work).

To make the digests again from another checkout's ``src`` (they must not change):

    PYTHONPATH=/tmp/old/src python tests/envs/test_encoding_speed.py > tests/envs/encodings_before.json
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from parlour import games  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402
from parlour.game import Move, State  # noqa: E402

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "minus-twenty": ("minus-twenty", {}),
    "minus-twenty-options": ("minus-twenty", {"hand_size": 8, "stall_limit": 3, "best_of": 3}),
    "progression": ("progression", {"rounds": 2}),
    "progression-options": ("progression", {"takeback": False, "stall_limit": 2, "rounds": 2}),
    "twenty": ("twenty", {}),
    "twenty-open-hands": ("twenty", {"open_hands": True}),
    "silver-bars": ("silver-bars", {"target_score": 40}),
    "silver-bars-options": ("silver-bars", {"target_score": 30, "mining_packs": 4, "rubble": 2, "lo_thieves": 8,
                                            "hi_thieves": 4, "strikes": 1, "shovels": 3}),
}
DIGESTS = Path(__file__).with_name("encodings_before.json")


def walk(game_id: str, options: dict[str, Any], seed: int, count: int) -> Iterator[tuple[State, list[Move]]]:
    """``count`` positions of seeded random matches played on one state, as an environment
    plays them: now and then a move is taken back (and another one may follow), a round
    over is followed by the next deal, a match over by a new match.  Only the game's public
    contract is used, so that any version of parlour walks the same positions."""
    game = games.get(game_id)
    rng = random.Random(seed)
    state = game.new_match(seed=seed, options=options)
    for _ in range(count):
        legal = state.legal_moves()
        yield state, legal
        if not legal:
            if state.is_match_over():
                state = game.new_match(seed=rng.getrandbits(32), options=options)
            else:
                state.next_round()
        elif state.moves and rng.random() < 0.1:
            state.undo()
        else:
            state.apply(legal[rng.randrange(len(legal))])


def digest(game_id: str, options: dict[str, Any]) -> str:
    """SHA-256 of every seat's vector and the legal moves' mask along three walks."""
    sp = space(game_id, options)
    sha = hashlib.sha256()
    for seed in range(3):
        for state, legal in walk(game_id, options, seed, 400):
            for seat in range(sp.players):
                sha.update(sp.encode_state(state, seat).tobytes())
            sha.update(sp.mask(legal).tobytes())
    return sha.hexdigest()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_vectors_and_masks_as_before(variant: str) -> None:
    """Vector for vector and mask for mask, what the encoder gave before it kept pictures
    (a difference here is a changed encoding, or a changed engine: seeded walks replay)."""
    before = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert digest(*VARIANTS[variant]) == before[variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pictures_follow_walks_with_undos_and_skipped_calls(variant: str) -> None:
    """Along walks with undos, reading a random seat after a random number of moves (as a
    Gymnasium env reads its learner's seat after the bots' moves), the vector is the
    observation's; so is every seat's, now and then."""
    game_id, options = VARIANTS[variant]
    sp = space(game_id, options)
    rng = random.Random(11)
    checked = 0
    for seed in range(4):
        for state, legal in walk(game_id, options, 100 + seed, 500):
            if rng.random() < 0.4:
                continue
            seats = range(sp.players) if rng.random() < 0.2 or not legal else [rng.randrange(sp.players)]
            for seat in seats:
                assert np.array_equal(sp.encode_state(state, seat), sp.encode(state.observation(seat))), (
                    f"seed {100 + seed}, seat {seat}, moves {[str(m) for m in state.moves]}")
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("game_id", games.ids())
def test_a_picture_kept_equals_one_made_afresh(game_id: str) -> None:
    """The picture brought up to date move by move gives the vector of a picture made from
    scratch (a copy of the state is a state never seen), for every seat."""
    sp = space(game_id)
    for state, _legal in walk(game_id, {}, 7, 600):
        fresh = state.copy()
        for seat in range(sp.players):
            assert np.array_equal(sp.encode_state(state, seat), sp.encode_state(fresh, seat))


@pytest.mark.parametrize("game_id", games.ids())
def test_hidden_cards_swapped_or_arranged_without_a_move(game_id: str) -> None:
    """A search swapping hidden cards (``exchange``) and a referee arranging the draw pile
    (``arrange_stock``) change a state without a move; so does marking a card in a hand as
    taken from a face-up pile, in the games that mark them.  Its picture notices."""
    sp = space(game_id)
    rng = random.Random(3)
    changed = 0
    for number, (state, legal) in enumerate(walk(game_id, {}, 21, 400)):
        seat = state.current_player()
        if seat is None or not legal:
            continue
        sp.encode_state(state, seat)  # the picture as it was
        left = state.stock_left()
        # exchange() finds each card in one place: in a hand or the draw pile, without a twin.
        piles = [*state.hands, state.stock]
        alone = {c for pile in piles for c in pile if sum(p.count(c) for p in piles) == 1}
        hidden = [c for c in state.hands[(seat + 1) % sp.players] if c in alone]
        unheld = [c for c in left if c in alone]
        if number % 2 and hidden and unheld:
            state.exchange(rng.choice(hidden), rng.choice(unheld))
            changed += 1
        elif left:
            offset = rng.randrange(len(left))
            state.arrange_stock(offset, rng.choice(left[offset:]))
            changed += 1
        marks = getattr(state, "was_on_pile", None)
        if marks is not None and number % 3 == 0:
            card = rng.choice(state.hands[rng.randrange(sp.players)])
            marks[card] = not marks[card]
        for seat in range(sp.players):
            assert np.array_equal(sp.encode_state(state, seat), sp.encode(state.observation(seat)))
    assert changed > 50


def test_more_states_than_pictures_kept() -> None:
    """Many states encoded in turn (more than the pictures kept): each stays exact."""
    for game_id in games.ids():
        sp = space(game_id)
        states = [games.get(game_id).new_match(seed=seed) for seed in range(300)]
        rng = random.Random(5)
        for _ in range(3):
            for state in states:
                legal = state.legal_moves()
                if legal:
                    state.apply(legal[rng.randrange(len(legal))])
                seat = rng.randrange(sp.players)
                assert np.array_equal(sp.encode_state(state, seat), sp.encode(state.observation(seat)))


def test_vectors_are_fresh_writable_arrays() -> None:
    """Each call gives a new array of its own: changing it changes no later vector."""
    sp = space("minus-twenty")
    state = games.get("minus-twenty").new_match(seed=2)
    first = sp.encode_state(state, 0)
    expected = first.copy()
    first[:] = 7.0
    second = sp.encode_state(state, 0)
    assert second is not first and np.array_equal(second, expected)
    assert second.flags.writeable and second.dtype == np.float32 and second.shape == sp.obs_shape


if __name__ == "__main__":
    json.dump({name: digest(*variant) for name, variant in VARIANTS.items()}, sys.stdout, indent=1)
    print()
