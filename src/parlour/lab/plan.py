"""Experiments as files: a TOML plan names one or more variants of a game.

```toml
name = "hand size"            # optional: prefixes every variant's name
game = "minus-twenty"
players = ["hard", "hard"]    # bot levels or names, one per seat
deals = 200                   # duplicate deals (each played in every seating) …
# matches = 500               # … or independent matches (seats rotate)
seed = 1
rounds_only = false           # single rounds instead of whole matches

[[variant]]
name = "standard"

[[variant]]
name = "eight cards"
options = { hand_size = 8 }   # any top-level key may be overridden here
```
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour import bots, games
from parlour.lab.arena import seatings

_KEYS = {"name", "game", "players", "deals", "matches", "seed", "rounds_only", "options"}


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
                "mode": self.mode, "count": self.count, "seed": self.seed, "rounds_only": self.rounds_only}


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
) -> ExperimentSpec:
    """A checked experiment (exactly one of ``matches`` and ``deals``)."""
    definition = games.get(game)
    values = definition.check_options(dict(options or {}))
    if len(players) != definition.players:
        raise ValueError(f"{definition.name} needs {definition.players} players, got {len(players)}")
    for spec in players:
        bots.make(spec)
    if (matches is None) == (deals is None):
        raise ValueError("give exactly one of matches and deals")
    count = matches if matches is not None else deals
    assert count is not None
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"matches/deals must be a positive whole number, not {count!r}")
    mode = "matches" if matches is not None else "deals"
    if name is None:
        changed = definition.non_default_options(values)
        opts = "".join(f" {k}={v}" for k, v in changed.items())
        name = f"{game}{opts} {','.join(players)} {count} {mode} seed {seed}" + (" rounds" if rounds_only else "")
    return ExperimentSpec(name, game, values, tuple(players), mode, count, seed, rounds_only)


def load_plan(path: str | Path) -> list[ExperimentSpec]:
    """Read a TOML plan; raises :class:`ValueError` naming the file and the problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    variants = data.pop("variant", [{}])
    if not isinstance(variants, list) or not variants:
        raise ValueError(f"{path}: [[variant]] must be a list of tables")
    prefix = data.get("name", path.stem)
    specs = []
    for number, variant in enumerate(variants, 1):
        merged = {**data, **variant}
        unknown = set(merged) - _KEYS
        if unknown:
            raise ValueError(f"{path}: unknown key(s) {sorted(unknown)} (known: {sorted(_KEYS)})")
        for required in ("game", "players"):
            if required not in merged:
                raise ValueError(f"{path}: every variant needs {required!r}")
        variant_name = variant.get("name", f"variant {number}") if len(variants) > 1 or "name" in variant else None
        name = f"{prefix}/{variant_name}" if variant_name else prefix
        try:
            specs.append(make_spec(
                game=merged["game"], players=list(merged["players"]), matches=merged.get("matches"),
                deals=merged.get("deals"), options=merged.get("options", {}), seed=merged.get("seed", 0),
                rounds_only=bool(merged.get("rounds_only", False)), name=name,
            ))
        except ValueError as exc:
            raise ValueError(f"{path}, {name}: {exc}") from None
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: variant names must differ")
    return specs
