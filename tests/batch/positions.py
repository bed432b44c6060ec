"""Positions in a round in play, for the tests of the compiled rollout plug-ins."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from parlour import games
from parlour.game import State


def round_positions(game_id: str, count: int, seed: int, options: Mapping[str, Any] | None = None,
                    most: int = 220) -> list[State]:
    """``count`` seeded matches of ``game_id`` played at random for fewer than ``most`` moves, each
    position whose round is in play followed by a world the search would sample from it
    (``Game.sampler``, from the seat to move's observation)."""
    game = games.get(game_id)
    rng = random.Random(seed)
    found: list[State] = []
    for number in range(count):
        state = game.new_match(options=options, seed=seed * 1000 + number)
        for _ in range(rng.randrange(0, most)):
            if state.is_round_over():
                if state.is_match_over():
                    break
                state.next_round()
            state.apply(rng.choice(state.legal_moves()))
        if state.is_round_over():
            continue
        seat = state.current_player()
        assert seat is not None
        found += [state, game.sampler(state.observation(seat))(rng)]
    return found
