"""Computer players.

A bot sees a game only through the shared contract: it is given its seat's
:meth:`~parlour.game.State.observation`, the legal moves and a seeded RNG,
and returns one of the legal moves.  It never receives the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from parlour.game import Move, Observation


class Bot(Protocol):
    """What every computer player offers."""

    name: str

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        """Pick one of ``legal`` for the seat that ``observation`` belongs to."""
        ...


class RandomBot:
    """Plays a legal move chosen uniformly at random."""

    name = "random"

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
        """Any legal move, uniformly."""
        return rng.choice(legal)


BOTS = {"random": RandomBot}


def make(spec: str) -> Bot:
    """The bot named ``spec``; :class:`ValueError` listing the known names."""
    factory = BOTS.get(spec.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {spec!r} (known: {', '.join(BOTS)})")
    return factory()
