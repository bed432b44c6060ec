"""No observer leaks: every OpenSpiel observation type over many positions of all four games,
and the vectors behind PettingZoo and Gymnasium.

* Public-only observations (``public_info=True``, ``private_info=NONE``) are identical for every
  seat: the old observer ignored ``public_info`` and ``private_info`` and gave each seat its own
  hand there (this test failed on it).
* A seat's view (the default, the PettingZoo and Gymnasium vector) and its private-only part do
  not change when the cards hidden from it are exchanged (another hand's card for a stock card).
* No observer shows every seat's private information; perfect recall only with a seat's own view.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

from parlour import games  # noqa: E402
from parlour.envs import openspiel as pos  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402

T = pyspiel.IIGObservationType
NONE, SINGLE, ALL = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                     pyspiel.PrivateInfoType.ALL_PLAYERS)
GAMES = games.ids()


def positions(game: pyspiel.Game, seed: int, count: int) -> list[pyspiel.State]:
    """Decision positions of seeded random play, across rounds."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found = []
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_public_only_observations_are_the_same_for_every_seat(game_id: str) -> None:
    game = pos.load(game_id)
    public = make_observation(game, T(public_info=True, perfect_recall=False, private_info=NONE))
    own = make_observation(game, T(public_info=True, perfect_recall=False, private_info=SINGLE))
    private = make_observation(game, T(public_info=False, perfect_recall=False, private_info=SINGLE))
    nothing = make_observation(game, T(public_info=False, perfect_recall=False, private_info=NONE))
    space_ = game.spec.space
    assert public.tensor.size == space_.public_size and private.tensor.size == space_.private_size
    assert nothing.tensor.size == 0
    (hand,) = [segment for segment in space_.layout() if segment.name == "hand"]
    for state in positions(game, seed=1, count=600):
        seen = []
        for seat in range(game.num_players()):
            public.set_from(state, seat)
            seen.append((public.tensor.copy(), public.string_from(state, seat)))
            own.set_from(state, seat)
            private.set_from(state, seat)
            # The private part is the seat's hand as its own view shows it (then, in 100 Silver Bars,
            # what it has not seen): nothing of another seat.
            assert np.array_equal(private.tensor[:hand.size], own.tensor[hand.offset:hand.offset + hand.size])
            assert (private.tensor[:hand.size].sum() > 0) == bool(state.engine.hands[seat])
        assert all(np.array_equal(seen[0][0], t) and seen[0][1] == s for t, s in seen[1:])


@pytest.mark.parametrize("game_id", GAMES)
def test_views_do_not_change_with_cards_hidden_from_the_seat(game_id: str) -> None:
    """Exchange a card of another hand with a card of the stock: what seat 0 sees (its vector,
    as PettingZoo and Gymnasium give it, its private part, the public part) stays the same."""
    game = games.get(game_id)
    sp = space(game_id)
    checked = 0
    for seed in range(200):
        state = game.new_match(rng=random.Random(seed))
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 3)):  # a move or two in, before the stock is drawn from
            legal = [m for m in state.legal_moves() if state.stock_draws(m)[0] == 0]
            if not legal or state.current_player() is None:
                break
            state.apply(rng.choice(legal))
        hand = state.hands[1]
        at = next((i for i, c in enumerate(hand) if c not in state.stock_left()
                   and not getattr(state, "was_on_pile", [False] * 64)[c]), None)
        if at is None or state.current_player() is None:
            continue
        where = state.stock_pos + rng.randrange(len(state.stock_left()))
        before = (sp.encode_state(state, 0).copy(), sp.encode_private(state, 0).copy(), sp.encode_public(state).copy(),
                  sp.encode_private(state, 1).copy())
        # Another deal, as far as seat 0 can tell the same: seat 1 holds a stock card instead.
        state.stock = list(state.stock)
        hand[at], state.stock[where] = state.stock[where], hand[at]
        state.deal = None
        after = (sp.encode_state(state, 0), sp.encode_private(state, 0), sp.encode_public(state))
        assert all(np.array_equal(a, b) for a, b in zip(before, after)), (seed, at, where)
        assert not np.array_equal(before[3], sp.encode_private(state, 1))  # seat 1's own part did change
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("game_id", GAMES)
def test_unsupported_observation_types_are_refused(game_id: str) -> None:
    game = pos.load(game_id, rounds_only=True)
    for public in (False, True):
        for recall in (False, True):
            with pytest.raises(ValueError, match="every seat's private information"):
                game.make_py_observer(T(public_info=public, perfect_recall=recall, private_info=ALL))
        with pytest.raises(ValueError, match="perfect recall is given only with a seat's own view"):
            game.make_py_observer(T(public_info=public, perfect_recall=True, private_info=NONE))
    with pytest.raises(ValueError, match="perfect recall is given only with a seat's own view"):
        game.make_py_observer(T(public_info=False, perfect_recall=True, private_info=SINGLE))
