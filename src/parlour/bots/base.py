"""What every bot is: the :class:`Bot` contract, its :class:`Budget` and :class:`MoveEstimate`, the
simple bots (random play, playtest slips, restrictions) and what a bot is handed to choose from.

The search and the heuristic bots build on these; :mod:`parlour.bots` makes bots by spec.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from parlour.game import Move, Observation, State

RolloutPolicy = Callable[[State, random.Random], Move]
"""How a search plays a rollout: the move the player to move makes in ``state`` (a game's
advice, or a random legal move); :mod:`parlour.bots.infer` also reads it as the model of
how the others play."""
Evaluation = Callable[[State], Sequence[float]]
"""How a search judges a rollout cut short: each seat's expected round score in ``state``."""


@dataclass(frozen=True)
class Budget:
    """How much thinking a bot may do for one decision."""

    iterations: int | None = None
    """Search iterations (deterministic for a given seed)."""
    seconds: float | None = None
    """Wall-clock limit (a safety cap when iterations are also given)."""

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " / ".join(parts) or "no budget"


@dataclass(frozen=True)
class MoveEstimate:
    """A bot's opinion of one move, for hints."""

    move: Move
    value: float
    """Expected round score difference (own score minus the others' mean) after this move."""
    margin: float
    """Half-width of the 95% interval around ``value`` (how sure the bot is)."""
    visits: int
    """How many search iterations went through this move."""
    share: float
    """The move's share of the search (0–1)."""


class Bot(ABC):
    """What every computer player offers."""

    name: str = "bot"
    budget: Budget = Budget()
    reads_observation: bool = True
    """Whether :meth:`choose` reads its observation: a bot that does not is handed only
    ``{"game": …, "seat": …}`` (see :func:`view_for`), and nobody builds it a view."""

    @abstractmethod
    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """Pick one of ``legal`` for the seat that ``observation`` belongs to."""

    def probabilities(self, observation: Observation, legal: Sequence[Move]) -> list[float] | None:
        """The chance that :meth:`choose` picks each of ``legal``, where the bot knows it
        exactly (a random mover, a judgement at a temperature); ``None`` where only its
        decisions tell (a search)."""
        return None

    def describe(self) -> str:
        """The bot and its budget, for tables and records."""
        return f"{self.name} ({self.budget})" if self.budget != Budget() else self.name


class RandomBot(Bot):
    """Plays a legal move chosen uniformly at random."""

    name = "random"
    reads_observation = False

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """Any legal move, uniformly."""
        return rng.choice(legal)

    def probabilities(self, observation: Observation, legal: Sequence[Move]) -> list[float] | None:
        return [1.0 / len(legal)] * len(legal)


class Slips(Bot):
    """A playtester's slips: ``bot``, except that with chance ``chance`` a move is any legal
    move, uniformly (playtest noise).  A deterministic bot plays a duplicate deal the same
    way in every seating, so its seatings are copies; a few slips make each seating a
    try of its own, which is what the lab's deal-luck figures need."""

    def __init__(self, bot: Bot, chance: float) -> None:
        if not 0.0 <= chance <= 1.0:
            raise ValueError(f"the chance of a slip is between 0 and 1, not {chance}")
        self.bot = bot
        self.chance = chance
        self.name = bot.name
        self.budget = bot.budget
        self.reads_observation = bot.reads_observation

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """Any legal move with chance :attr:`chance`, else the bot's own."""
        if len(legal) > 1 and rng.random() < self.chance:
            return rng.choice(legal)
        return self.bot.choose(observation, legal, rng, budget)

    def probabilities(self, observation: Observation, legal: Sequence[Move]) -> list[float] | None:
        inner = self.bot.probabilities(observation, legal)
        if inner is None or len(legal) == 1:
            return inner
        return [(1.0 - self.chance) * p + self.chance / len(legal) for p in inner]

    def describe(self) -> str:
        return f"{self.bot.describe()} with {self.chance:.0%} slips"


class Restricted(Bot):
    """``bot`` barred from one kind of move, or bound to it: the restricted-play bots of
    Jaffe et al. (2012), who turn a balance question ("is the thief too strong?") into the
    win rate of a bot that may not use an option — or must — against one that may.

    A kind is a :meth:`parlour.game.Game.move_kind` (``play thief``, ``lock``).  Barred
    (``always=False``), the bot never plays that kind while it has another legal move;
    bound (``always=True``), it plays that kind whenever one is legal.  The inner bot is
    handed only the moves it may play; should it answer with another (a bot may have
    reasons of its own), its best allowed move by its own estimates is played, or, from a
    bot that gives none, an allowed move chosen uniformly.
    """

    def __init__(self, bot: Bot, kind: str, always: bool = False) -> None:
        if not kind:
            raise ValueError("a restriction needs a kind of move, like without:play thief")
        self.bot = bot
        self.kind = kind
        self.always = always
        self.name = f"{bot.name}/{'always' if always else 'without'}:{kind}"
        self.budget = bot.budget
        self.reads_observation = bot.reads_observation

    def allowed(self, game_id: str, legal: Sequence[Move]) -> list[Move]:
        """The moves of ``legal`` the restriction leaves (all of them, when it would leave none)."""
        from parlour import games

        kind_of = games.get(game_id).move_kind
        allowed = [m for m in legal if (kind_of(m) == self.kind) == self.always]
        return allowed or list(legal)

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """The inner bot's choice among the allowed moves."""
        allowed = self.allowed(observation["game"], legal)
        move = self.bot.choose(observation, allowed, rng, budget)
        if move in allowed:
            return move
        if isinstance(self.bot, Analyst):
            best = next((e.move for e in self.bot.analyse(observation, allowed, rng) if e.move in allowed), None)
            if best is not None:
                return best
        return rng.choice(allowed)

    def describe(self) -> str:
        return f"{self.bot.describe()} {'always' if self.always else 'without'} {self.kind}"


RESTRICTIONS = ("without", "always")
"""How a spec's restriction begins: ``/without:KIND`` or ``/always:KIND``."""


def slipping(bot: Bot, chance: float) -> Bot:
    """``bot`` with playtest noise (:class:`Slips`).  A restricted bot slips inside its
    restriction: a playtester barred from a card does not play it by mistake either."""
    if isinstance(bot, Restricted):
        return Restricted(slipping(bot.bot, chance), bot.kind, bot.always)
    return Slips(bot, chance)


def blind_view(game_id: str, seat: int) -> Observation:
    """What a bot that reads no observation is handed instead: the game and the seat."""
    return {"game": game_id, "seat": seat}


def view_for(bot: Bot, state: State, seat: int) -> Observation:
    """What ``bot``, in ``seat``, is handed to choose from: the seat's observation, or, for a
    bot that reads none, only :func:`blind_view` (a view costs far more than a random move)."""
    if bot.reads_observation:
        return state.observation(seat)
    return blind_view(state.game.id, seat)


@runtime_checkable
class Analyst(Protocol):
    """A bot that can say what it thinks of every move, not only choose one (for hints)."""

    def analyse(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> list[MoveEstimate]:
        """Every legal move with the bot's estimate, best first."""
