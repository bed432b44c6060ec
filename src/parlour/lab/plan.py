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
primary = "first_player"      # the study's question, tested on its own (first_player, luck, choices,
                              # decided, comebacks, minutes or draws; default first_player)

[[variant]]
name = "standard"

[[variant]]
name = "eight cards"
options = { hand_size = 8 }   # any top-level key may be overridden here
```

The plan is a *study*: its variants are stored under its name and compared with
one another (never with another study's experiments), each against the baseline;
with the same seed they are played on the same deals, so they are compared deal by
deal.  A plan whose variants differ in one option alone is stored as a sweep of it (the report
then plots the measures against the option's value); other plans' variants as plain variants.

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
import tomllib
from pathlib import Path
from typing import Any

from parlour.lab import studies
from parlour.lab.spec import ExperimentSpec, StudyShape, Task, check_measure, make_spec

__all__ = ["ExperimentSpec", "Task", "load_plan", "make_spec"]
"""A plan's own name, and the experiments it makes (:mod:`parlour.lab.spec`), named here too so
that ``plan.make_spec`` reads as what it is: one variant of a plan."""

_KEYS = {"name", "game", "players", "deals", "matches", "seed", "rounds_only", "options", "noise"}
_PLAN_KEYS = {"baseline", "sweep", "primary"}
"""Keys of the plan as a whole, not of a variant."""


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
    primary = data.pop("primary", None)
    if primary is not None:
        try:
            check_measure(primary)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
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
    return [dataclasses.replace(s, baseline=chosen, shape=s.shape if primary is None or s.shape is None
                                else dataclasses.replace(s.shape, primary=primary)) for s in specs]


def _sweep(path: Path, data: dict[str, Any], study: str) -> list[ExperimentSpec]:
    """The variants of a plan's ``[sweep]`` table, with the plan's other keys."""
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
    return _shaped(specs)


def _shaped(specs: list[ExperimentSpec]) -> list[ExperimentSpec]:
    """A plan's variants with their study's shape: a sweep of the one option they differ in when
    they differ in that alone (the same bots, noise and mode), else variants that vary more."""
    first = specs[0]
    changed = {key for s in specs for key, value in s.options.items() if first.options.get(key) != value}
    alike = all((s.players, s.noise, s.mode) == (first.players, first.noise, first.mode) for s in specs)
    if len(changed) == 1 and alike:
        (option,) = changed
        return [dataclasses.replace(s, shape=StudyShape("sweep", option, s.options[option])) for s in specs]
    return [dataclasses.replace(s, shape=StudyShape("variants", None)) for s in specs]
