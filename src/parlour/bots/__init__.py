"""Computer players.

A bot sees a game only through the shared contract: it is given its seat's
:meth:`~parlour.game.State.observation`, the legal moves, a seeded RNG and a
:class:`Budget`, and returns one of the legal moves.  It never receives the
state itself.  With an iteration budget, the same seed gives the same
decisions.

Bots are named by a spec: a bot name (``random``, ``heuristic``,
``ismcts``, ``sparring``: the cheap training opponent of :mod:`parlour.bots.sparring`),
optionally with settings (``ismcts:iterations=400,rollout=heuristic``),
or a level (``easy``, ``medium``, ``hard``, ``expert``) — see :data:`LEVELS`.
A spec may end in a restriction, for playtests that ask what an option is
worth (:class:`Restricted`): ``medium/without:play thief`` never plays a
thief while it has another move, ``medium/always:lock`` locks whenever it can.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from parlour.bots import levels
from parlour.bots.base import (
    RESTRICTIONS,
    Analyst,
    Bot,
    Budget,
    Evaluation,
    MoveEstimate,
    RandomBot,
    Restricted,
    RolloutPolicy,
    Slips,
    blind_view,
    slipping,
    view_for,
)
from parlour.game import Move, Observation
from parlour.narrate import estimate_text

__all__ = [
    "BOTS",
    "HINT_LEGEND",
    "HINT_LEVEL",
    "LEVELS",
    "RESTRICTIONS",
    "SEARCH_LEVELS",
    "Analyst",
    "Bot",
    "Budget",
    "Evaluation",
    "MoveEstimate",
    "RandomBot",
    "Restricted",
    "RolloutPolicy",
    "Slips",
    "blind_view",
    "format_estimate",
    "hint",
    "level_iterations",
    "make",
    "parse_spec",
    "slipping",
    "view_for",
]


def _heuristic(**settings: Any) -> Bot:
    from parlour.bots.heuristic import HeuristicBot

    return HeuristicBot(**settings)


def _ismcts(**settings: Any) -> Bot:
    from parlour.bots.ismcts import ISMCTSBot

    return ISMCTSBot(**settings)


def _sparring(**settings: Any) -> Bot:
    from parlour.bots.sparring import SparringBot

    return SparringBot(make, **settings)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": lambda **settings: RandomBot(**settings),
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "sparring": _sparring,
}
"""Bot factories by name; settings are keyword arguments."""

LEVELS: dict[str, str] = {level.name: level.spec for level in levels.LEVELS}
"""Levels used everywhere a bot is named: each is a bot and a budget (see :mod:`parlour.bots.levels`)."""


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``ismcts:iterations=400,rollout=random`` → (``ismcts``, settings)."""
    text = LEVELS.get(spec.strip().lower(), spec.strip())
    name, _, rest = text.partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"bot setting {item!r} must be NAME=VALUE")
        settings[key.strip()] = _value(value.strip())
    return name.strip().lower(), settings


def make(spec: str) -> Bot:
    """The bot named by ``spec`` (a level, a name, or name:settings), optionally restricted
    (``…/without:KIND``, ``…/always:KIND``: :class:`Restricted`).

    Raises :class:`ValueError` listing the known names, or the forms of a restriction.
    """
    inner, slash, restriction = spec.rpartition("/")
    if slash:
        mode, colon, kind = restriction.partition(":")
        if not colon or mode.strip().lower() not in RESTRICTIONS or not kind.strip():
            raise ValueError(f"bad restriction {restriction!r} in bot {spec!r}: a bot spec may end in "
                             f"/without:KIND or /always:KIND, like medium/without:play thief")
        return Restricted(make(inner), kind.strip(), always=mode.strip().lower() == "always")
    name, settings = parse_spec(spec)
    factory = BOTS.get(name)
    if factory is None:
        known = ", ".join([*LEVELS, *BOTS])
        raise ValueError(f"unknown bot {spec!r} (known: {known})")
    try:
        bot = factory(**settings)
    except TypeError as exc:
        raise ValueError(f"bad settings for bot {name!r}: {exc}") from None
    bot.name = spec.strip().lower() if spec.strip().lower() in LEVELS else name
    return bot



HINT_LEVEL = levels.HINT_LEVEL
HINT_LEGEND = levels.HINT_LEGEND
SEARCH_LEVELS = levels.SEARCH_LEVELS
level_iterations = levels.level_iterations


def hint(observation: Observation, legal: Sequence[Move], rng: random.Random, top: int = 3) -> list[MoveEstimate]:
    """The hint level's ``top`` best moves for the observing seat, with estimates."""
    bot = make(HINT_LEVEL)
    if not isinstance(bot, Analyst):
        raise TypeError(f"the hint level {HINT_LEVEL!r} is not an Analyst: it cannot estimate moves")
    return bot.analyse(observation, legal, rng)[:top]


def format_estimate(estimate: MoveEstimate, *, players: int = 2, only: bool = False) -> str:
    """``play 7H        about 4.2 points better for you than your opponent, give or take 1.3``: the
    move, then the estimate in the words the browser's hints use (:func:`parlour.narrate.estimate_text`);
    ``players`` at the table, ``only``: the move is the only legal one (``your only move``)."""
    return f"{estimate.move!s:<14} {estimate_text(estimate.value, estimate.margin, players=players, only=only)}"
