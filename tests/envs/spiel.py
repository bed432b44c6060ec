"""What the OpenSpiel tests share (this module imports no OpenSpiel: it drives any state it is handed)."""

from __future__ import annotations

import random
from typing import Any


def play_random(state: Any, rng: random.Random) -> Any:
    """Play an OpenSpiel ``state`` to its end with uniformly random actions and chance outcomes by their
    probabilities; the same state, terminal."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
