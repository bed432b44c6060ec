"""Experiments as files: a TOML plan names one or more variants of a game.

```toml
name = "hand size"            # optional: prefixes every variant's name
game = "minus-twenty"
players = ["hard", "hard"]    # bot levels or names, one per seat
deals = 200                   # duplicate deals (each played in every seating) …
# matches = 500               # … or independent matches (seats rotate)
seed = 1
rounds_only = false           # single rounds instead of whole matches
noise = 0.05                  # playtest noise: each bot's chance of a random move
baseline = "standard"         # the variant the others are compared with (default: the first)

[[variant]]
name = "standard"

[[variant]]
name = "eight cards"
options = { hand_size = 8 }   # any top-level key may be overridden here
```

The plan is a *study*: its variants are stored under its name and compared with
one another (never with another study's experiments), each against the baseline;
with the same seed they are played on the same deals, so they are compared deal by
deal.

A plan that sweeps one option over several values gives a ``[sweep]`` table instead of
its variants (one variant per value, named ``hand_size=5`` and so on; the baseline is
the option's default value when it is swept, else the first —
:func:`parlour.lab.studies.sweep`):

```toml
name = "hand size"
game = "minus-twenty"
players = ["hard", "hard"]
deals = 200
options = { stall_limit = 10 }    # the other options, the same in every variant

[sweep]
option = "hand_size"
values = "5..9"                   # or a list: [5, 6, 7, 8, 9]; "0,10,20"; "true,false"
```
"""

from __future__ import annotations

import dataclasses
import random
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour import bots, games
from parlour.lab.arena import seatings

_KEYS = {"name", "game", "players", "deals", "matches", "seed", "rounds_only", "options", "noise"}
_PLAN_KEYS = {"baseline", "sweep"}
"""Keys of the plan as a whole, not of a variant."""


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
    return ExperimentSpec(name, game, values, tuple(players), mode, count, seed, rounds_only, noise, study, baseline)


def _check_restrictions(game: str, options: Mapping[str, Any], spec: str, bot: bots.Bot) -> None:
    """A restricted bot's kind of move must be one the game offers beside others, under its
    default options or these (a misspelt kind would restrict nothing and quietly play
    unrestricted; a kind these options take away is a fair question: it should cost nothing)."""
    from parlour.lab.studies import kinds_of

    while isinstance(bot, bots.Restricted):
        known = list(dict.fromkeys([*kinds_of(game), *kinds_of(game, options)]))
        if bot.kind not in known:
            raise ValueError(f"bot {spec!r}: {bot.kind!r} is not a kind of move {game} offers among others "
                             f"(its kinds: {', '.join(known)})")
        bot = bot.bot


def load_plan(path: str | Path) -> list[ExperimentSpec]:
    """Read a TOML plan; raises :class:`ValueError` naming the file and the problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    baseline = data.pop("baseline", None)
    prefix = data.get("name", path.stem)
    if "sweep" in data:
        specs = _sweep(path, data, prefix)
    else:
        specs = _variants(path, data, prefix)
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: variant names must differ")
    short = [s.name.removeprefix(f"{prefix}/") for s in specs]
    if baseline is None:  # a sweep's own choice (the default value), else the first variant
        chosen = specs[0].baseline or specs[0].name
    elif baseline in short:
        chosen = specs[short.index(baseline)].name
    else:
        raise ValueError(f"{path}: baseline {baseline!r} is not one of the variants ({', '.join(map(repr, short))})")
    return [dataclasses.replace(s, baseline=chosen) for s in specs]


def _sweep(path: Path, data: dict[str, Any], study: str) -> list[ExperimentSpec]:
    """The variants of a plan's ``[sweep]`` table, with the plan's other keys."""
    from parlour.lab import studies

    table = data.pop("sweep")
    if "variant" in data:
        raise ValueError(f"{path}: give [sweep] or [[variant]], not both (a sweep makes its own variants)")
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [sweep] must be a table, with option and values")
    unknown = set(table) - {"option", "values"}
    missing = [key for key in ("option", "values") if key not in table]
    if unknown or missing:
        wrong = f"unknown key(s) {sorted(unknown)}" if unknown else f"no {' or '.join(missing)}"
        raise ValueError(f'{path}: [sweep] has {wrong} (it takes option = "hand_size" and values = "5..9")')
    unknown = set(data) - _KEYS
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {sorted(unknown)} (known: {sorted(_KEYS | _PLAN_KEYS)})")
    for required in ("game", "players"):
        if required not in data:
            raise ValueError(f"{path}: a plan needs {required!r}")
    try:
        return studies.sweep(
            data["game"], table["option"], table["values"], list(data["players"]), deals=data.get("deals"),
            matches=data.get("matches"), seed=data.get("seed", 0), noise=data.get("noise", 0.0),
            rounds_only=bool(data.get("rounds_only", False)), options=data.get("options", {}), name=study)
    except ValueError as exc:
        raise ValueError(f"{path}, [sweep]: {exc}") from None


def _variants(path: Path, data: dict[str, Any], prefix: str) -> list[ExperimentSpec]:
    """The experiments of a plan's ``[[variant]]`` tables (one, the plan itself, without any)."""
    variants = data.pop("variant", [{}])
    if not isinstance(variants, list) or not variants:
        raise ValueError(f"{path}: [[variant]] must be a list of tables")
    specs = []
    for number, variant in enumerate(variants, 1):
        merged = {**data, **variant}
        unknown = set(merged) - _KEYS
        if unknown:
            inside = sorted(unknown & _PLAN_KEYS)
            if inside:
                raise ValueError(f"{path}: {', '.join(inside)} is set once for the whole plan, not in a variant")
            raise ValueError(f"{path}: unknown key(s) {sorted(unknown)} (known: {sorted(_KEYS | _PLAN_KEYS)})")
        for required in ("game", "players"):
            if required not in merged:
                raise ValueError(f"{path}: every variant needs {required!r}")
        variant_name = variant.get("name", f"variant {number}") if len(variants) > 1 or "name" in variant else None
        name = f"{prefix}/{variant_name}" if variant_name else prefix
        try:
            specs.append(make_spec(
                game=merged["game"], players=list(merged["players"]), matches=merged.get("matches"),
                deals=merged.get("deals"), options=merged.get("options", {}), seed=merged.get("seed", 0),
                rounds_only=bool(merged.get("rounds_only", False)), name=name, noise=merged.get("noise", 0.0),
                study=prefix,
            ))
        except ValueError as exc:
            raise ValueError(f"{path}, {name}: {exc}") from None
    return specs
