"""What an experiment plays: a game, its options, the bots, how many matches and the seed,
and — for an experiment of a study — the study, its baseline and the study's shape.

Every match's seed and seating follow from the experiment alone (:meth:`ExperimentSpec.task`),
so results do not depend on how, where or in how many pieces the matches are played.  Plans
(:mod:`parlour.lab.plan`) and studies (:mod:`parlour.lab.studies`) make these.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour import bots, games
from parlour.lab.arena import seatings
from parlour.lab.census import kinds_of

STUDY_KINDS = ("sweep", "matters", "depth", "luck", "variants", "tune")
"""The shapes of study :class:`StudyShape` names."""


MEASURES = ("first_player", "luck", "choices", "decided", "comebacks", "minutes", "draws")
"""The designer's measures a study can ask about (its primary question; the report's verdict
table, :mod:`parlour.lab.report.verdicts`, has a row for each)."""


def check_measure(key: str) -> str:
    """``key`` if it names one of :data:`MEASURES`; else :class:`ValueError` naming them."""
    if key not in MEASURES:
        raise ValueError(f"the primary question is one of the measures {', '.join(MEASURES)}, not {key!r}")
    return key


@dataclass(frozen=True)
class StudyShape:
    """What a study varies, written when the study is planned and stored with each of its
    experiments, so that the report reads the study's question instead of guessing it."""

    kind: str
    """``sweep`` (one rule option over several values), ``matters`` (restricted play), ``depth``
    (twice the search against the search), ``luck`` (every seat one level, level after level),
    ``variants`` (a plan's own variants, which vary more than one thing) or ``tune`` (the points a
    search over rule values tried, :mod:`parlour.lab.tune`)."""
    varied: str | None
    """What the variants vary: the option swept, ``restriction``, ``budget`` or ``level``; None
    for ``variants``."""
    value: Any = None
    """This variant's: the option's value; its restriction as ``{"how": "without", "kind":
    "lock"}`` (None for the unrestricted baseline); the weaker search's budget; its level."""
    primary: str | None = None
    """The study's primary question: the measure it was made to answer, tested on its own
    (:data:`parlour.lab.report.verdicts.MEASURES`' keys); None: the seat balance."""
    robust_of: str | None = None
    """For a study that repeats another under other playing conditions (``--check-robust``):
    that study's name."""
    robust: str | None = None
    """What such a repeat changes, in words (``"10% slips"``, ``"stronger bots"``)."""

    def as_json(self) -> dict[str, Any]:
        """The shape as it is stored (the later fields only when set)."""
        data = {"kind": self.kind, "varied": self.varied, "value": self.value}
        for key in ("primary", "robust_of", "robust"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudyShape:
        """The shape :meth:`as_json` stored."""
        return cls(data["kind"], data["varied"], data.get("value"), data.get("primary"), data.get("robust_of"),
                   data.get("robust"))


@dataclass(frozen=True)
class Task:
    """One match of an experiment: its place, deal, seating and seed."""

    index: int
    deal: int | None
    seating: tuple[int, ...]
    seed: int


@dataclass(frozen=True)
class ExperimentSpec:
    """What an experiment plays: everything needed to reproduce its results."""

    name: str
    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    mode: str
    """``matches`` or ``deals``."""
    count: int
    seed: int = 0
    rounds_only: bool = False
    noise: float = 0.0
    """Playtest noise: each bot's chance of a random legal move instead of its own
    (:class:`parlour.bots.Slips`)."""
    study: str | None = None
    """The study (plan) the experiment belongs to; None for a quick run."""
    baseline: str | None = None
    """The name of the study's baseline experiment, which the others are compared with."""
    shape: StudyShape | None = None
    """What the study varies and what this variant is in it; None for a quick run (and for
    experiments made without a study's or a plan's help)."""

    @property
    def total(self) -> int:
        """How many matches the experiment plays."""
        return self.count * len(self.players) if self.mode == "deals" else self.count

    def task(self, index: int) -> Task:
        """Match number ``index``: its seed and seating follow from the experiment's seed alone."""
        orders = seatings(len(self.players))
        if self.mode == "deals":
            deal, turn = divmod(index, len(self.players))
            return Task(index, deal, orders[turn], _derive(self.seed, deal))
        return Task(index, None, orders[index % len(orders)], _derive(self.seed, index))

    def tasks(self, skip: set[int] | None = None) -> Iterator[Task]:
        """Every task not in ``skip``, in order (generated lazily)."""
        for index in range(self.total):
            if skip is None or index not in skip:
                yield self.task(index)

    def definition(self) -> dict[str, Any]:
        """The fields that define the results (to check a stored experiment matches)."""
        return {"game": self.game, "options": self.options, "players": list(self.players),
                "mode": self.mode, "count": self.count, "seed": self.seed, "rounds_only": self.rounds_only,
                "noise": self.noise}


def _derive(seed: int, number: int) -> int:
    return random.Random(f"parlour-lab:{seed}:{number}").randrange(2**62)


def make_spec(
    *,
    game: str,
    players: Sequence[str],
    matches: int | None = None,
    deals: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    rounds_only: bool = False,
    name: str | None = None,
    noise: float = 0.0,
    study: str | None = None,
    baseline: str | None = None,
    shape: StudyShape | None = None,
) -> ExperimentSpec:
    """A checked experiment (exactly one of ``matches`` and ``deals``)."""
    definition = games.get(game)
    values = definition.check_options(dict(options or {}))
    if len(players) != definition.players:
        raise ValueError(f"{definition.name} needs {definition.players} players, got {len(players)}")
    for spec in players:
        _check_restrictions(game, values, spec, bots.make(spec))
    if (matches is None) == (deals is None):
        raise ValueError("give exactly one of matches and deals")
    count = matches if matches is not None else deals
    assert count is not None
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"matches/deals must be a positive whole number, not {count!r}")
    mode = "matches" if matches is not None else "deals"
    if isinstance(noise, bool) or not isinstance(noise, int | float) or not 0 <= noise <= 1:
        raise ValueError(f"noise is a chance between 0 and 1, not {noise!r}")
    noise = float(noise)
    if name is None:
        changed = definition.non_default_options(values)
        opts = "".join(f" {k}={v}" for k, v in changed.items())
        name = (f"{game}{opts} {','.join(players)} {count} {mode} seed {seed}" + (" rounds" if rounds_only else "")
                + (f" noise {noise:g}" if noise else ""))
    return ExperimentSpec(name, game, values, tuple(players), mode, count, seed, rounds_only, noise, study, baseline,
                          shape)


def _check_restrictions(game: str, options: Mapping[str, Any], spec: str, bot: bots.Bot) -> None:
    """A restricted bot's kind of move must be one the game offers beside others, under its
    default options or these (a misspelt kind would restrict nothing and quietly play
    unrestricted; a kind these options take away is a fair question: it should cost nothing)."""
    while isinstance(bot, bots.Restricted):
        known = list(dict.fromkeys([*kinds_of(game), *kinds_of(game, options)]))
        if bot.kind not in known:
            raise ValueError(f"bot {spec!r}: {bot.kind!r} is not a kind of move {game} offers among others "
                             f"(its kinds: {', '.join(known)})")
        bot = bot.bot
