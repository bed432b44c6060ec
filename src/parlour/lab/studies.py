"""Studies a designer asks for by name: each returns the experiments of one study.

Every experiment of a study carries the study's name, its baseline's and the study's shape
(:class:`parlour.lab.spec.StudyShape`: what the study varies, which the report reads), its name is
``"<study>/<variant>"``, and all of them share one seed, so they are played on the same
deals and the report compares them deal by deal against the baseline.

- :func:`sweep`: one rule option over several values (``hand_size=5..9``).
- :func:`matters`: what each kind of move is worth — restricted play (Jaffe et al. 2012):
  one seat's bot barred from a kind of move (or bound to it) against the unrestricted bot.
- :func:`depth`: skill depth (SkillTrace): a search with twice the budget against the
  same search, budget after budget; while doubling still wins, there is skill left to learn.
- :func:`luck`: deal luck across bot strengths: how much the deal decides, when every seat
  is the same level.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from parlour import games
from parlour.game import Option
from parlour.lab.census import kinds_of
from parlour.lab.spec import ExperimentSpec, StudyShape, make_spec


def value_text(value: Any) -> str:
    """An option's value as it is typed after ``NAME=`` (``8``, ``true``, ``none``): how a
    sweep's variants are named."""
    return "none" if value is None else json.dumps(value)


def sweep_values(game_id: str, option: str, values: str | Sequence[Any]) -> list[Any]:
    """The values of ``option`` a sweep plays, checked by the game: given as text (``5..9``,
    whole numbers from 5 to 9; ``0,10,20``; ``true,false``; ``none,60``) or as a list.
    Raises :class:`ValueError` saying what is wrong."""
    game = games.get(game_id)
    definition = game.option(option)
    if isinstance(values, str):
        chosen = _parse_values(definition, values)
    elif isinstance(values, Sequence):
        chosen = [definition.check(value) for value in values]
    else:
        raise ValueError(f"the values of {option} are a list or a text like 5..9, not {values!r}")
    if len(chosen) < 2:
        raise ValueError(f"a sweep compares values: give {option} two or more, not {len(chosen)}")
    twice = sorted({value_text(v) for v in chosen if chosen.count(v) > 1})
    if twice:
        raise ValueError(f"{option}: {', '.join(twice)} given twice; give each value once")
    for value in chosen:
        game.check_options({option: value})
    return chosen


def _parse_values(definition: Option, text: str) -> list[Any]:
    """``5..9`` (a range of whole numbers, both ends included) or ``a,b,c``."""
    low, dots, high = text.partition("..")
    if dots:
        ends = []
        for end in (low, high):
            try:
                ends.append(int(end.strip()))
            except ValueError:
                raise ValueError(f"{definition.name}={text}: a range is two whole numbers, like 5..9") from None
        if ends[0] > ends[1]:
            raise ValueError(f"{definition.name}={text}: a range runs upward, like {ends[1]}..{ends[0]}")
        return [definition.check(value) for value in range(ends[0], ends[1] + 1)]
    return [definition.parse_text(part) for part in text.split(",")]


def parse_sweep(game_id: str, text: str) -> tuple[str, list[Any]]:
    """``hand_size=5..9`` → (``hand_size``, [5, 6, 7, 8, 9]): an option and its values
    (:func:`sweep_values`).  Raises :class:`ValueError`."""
    option, sep, values = text.partition("=")
    if not sep or not option.strip() or not values.strip():
        raise ValueError(f"a sweep is OPTION=VALUES, like hand_size=5..9, stall_limit=0,10,20 or "
                         f"open_hands=true,false, not {text!r}")
    return option.strip(), sweep_values(game_id, option.strip(), values)


def sweep(
    game: str,
    option: str,
    values: str | Sequence[Any],
    players: Sequence[str],
    *,
    deals: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    noise: float = 0.0,
    rounds_only: bool = False,
    options: Mapping[str, Any] | None = None,
    name: str | None = None,
) -> list[ExperimentSpec]:
    """Study ``sweep <option>``: one variant per value, named ``<option>=<value>``, each with
    the other ``options``.  The baseline is the variant that plays the option's default,
    when it is among the values (the game as it stands), else the first."""
    chosen = sweep_values(game, option, values)
    if option in (options or {}):
        raise ValueError(f"{option} is the option swept: do not also fix it")
    study = name or f"sweep {option}"
    default = games.get(game).option(option).default
    base = chosen.index(default) if default in chosen else 0
    baseline = f"{study}/{option}={value_text(chosen[base])}"
    return [make_spec(game=game, players=players, deals=deals, matches=matches,
                      options={**(options or {}), option: value}, seed=seed, rounds_only=rounds_only,
                      name=f"{study}/{option}={value_text(value)}", noise=noise, study=study, baseline=baseline,
                      shape=StudyShape("sweep", option, value))
            for value in chosen]


def matters(
    game: str,
    bot: str,
    *,
    deals: int,
    seed: int = 0,
    noise: float = 0.0,
    kinds: Sequence[str] | None = None,
    always: bool = False,
    options: Mapping[str, Any] | None = None,
    rounds_only: bool = False,
    name: str | None = None,
) -> list[ExperimentSpec]:
    """Study ``what matters``: the baseline ``unrestricted`` (every seat ``bot``) and, for each
    kind (default: :func:`kinds_of`), ``without <kind>``: the first player barred from that
    kind (``<bot>/without:<kind>``) against ``bot`` in the other seats; with ``always``,
    ``always <kind>`` too (bound to it).  Duplicate deals, so the restricted player plays
    every seat of every deal: what barring a kind costs it is the value of that option."""
    seats = games.get(game).players
    if kinds is None:
        kinds = kinds_of(game, options)
    else:
        _check_kinds(game, kinds, options)
    study = name or "what matters"
    baseline = f"{study}/unrestricted"
    variants: list[tuple[str, list[str], dict[str, str] | None]] = [("unrestricted", [bot] * seats, None)]
    for kind in kinds:
        for how in ("without", "always") if always else ("without",):
            restricted = [f"{bot}/{how}:{kind}", *[bot] * (seats - 1)]
            variants.append((f"{how} {kind}", restricted, {"how": how, "kind": kind}))
    return [make_spec(game=game, players=players, deals=deals, options=options, seed=seed, rounds_only=rounds_only,
                      name=f"{study}/{variant}", noise=noise, study=study, baseline=baseline,
                      shape=StudyShape("matters", "restriction", restriction))
            for variant, players, restriction in variants]


def _check_kinds(game: str, kinds: Sequence[str], options: Mapping[str, Any] | None) -> None:
    """Raise :class:`ValueError` unless ``kinds`` are kinds of move of ``game``, each once: a
    kind the game never offers would give a restriction that restricts nothing.  A kind that
    the options take out (a shovel's play without rubble) is still a kind of the game."""
    if not kinds:
        raise ValueError("name at least one kind of move")
    known = kinds_of(game, options)
    known += [kind for kind in kinds_of(game) if kind not in known]
    unknown = [kind for kind in kinds if kind not in known]
    if unknown:
        raise ValueError(f"{game} has no kind of move {', '.join(map(repr, unknown))} "
                         f"(its kinds: {', '.join(known)})")
    twice = sorted({kind for kind in kinds if list(kinds).count(kind) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} given twice; name each kind once")


def depth(
    game: str,
    budgets: Sequence[int],
    *,
    deals: int,
    seed: int = 0,
    noise: float = 0.0,
    options: Mapping[str, Any] | None = None,
    rounds_only: bool = False,
    name: str | None = None,
) -> list[ExperimentSpec]:
    """Study ``skill depth`` (SkillTrace): for each budget ``b``, smallest first, a variant
    ``"<2b> vs <b>"``: IS-MCTS with heuristic rollouts at ``2b`` iterations against the same
    at ``b`` (in the other seats).  The first player's win rate, budget after budget, traces
    how far more thought still pays; the smallest budget's variant is the baseline."""
    if not budgets:
        raise ValueError("name at least one budget (search iterations), like 50,100,200")
    bad = [b for b in budgets if isinstance(b, bool) or not isinstance(b, int) or b < 1]
    if bad:
        raise ValueError(f"a budget is a positive whole number of search iterations, not {bad[0]!r}")
    twice = sorted({b for b in budgets if list(budgets).count(b) > 1})
    if twice:
        raise ValueError(f"budget {', '.join(map(str, twice))} given twice; give each once")
    seats = games.get(game).players
    study = name or "skill depth"
    ordered = sorted(budgets)
    baseline = f"{study}/{2 * ordered[0]} vs {ordered[0]}"
    specs = []
    for budget in ordered:
        strong, weak = (f"ismcts:iterations={n},rollout=heuristic" for n in (2 * budget, budget))
        specs.append(make_spec(game=game, players=[strong, *[weak] * (seats - 1)], deals=deals, options=options,
                               seed=seed, rounds_only=rounds_only, name=f"{study}/{2 * budget} vs {budget}",
                               noise=noise, study=study, baseline=baseline,
                               shape=StudyShape("depth", "budget", budget)))
    return specs


def luck(
    game: str,
    levels: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    noise: float = 0.0,
    options: Mapping[str, Any] | None = None,
    rounds_only: bool = False,
    name: str | None = None,
) -> list[ExperimentSpec]:
    """Study ``deal luck``: one variant per level (or bot), named by it, every seat that level,
    on the same duplicate deals: how much the deal decides, across bot strengths.  The
    first level is the baseline.  A bot that plays a deal the same way in every seating makes
    its seatings copies: give it a little ``noise``."""
    if not levels:
        raise ValueError("name at least one level, like easy,medium,hard")
    twice = sorted({level for level in levels if list(levels).count(level) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} given twice; name each level once")
    seats = games.get(game).players
    study = name or "deal luck"
    return [make_spec(game=game, players=[level] * seats, deals=deals, options=options, seed=seed,
                      rounds_only=rounds_only, name=f"{study}/{level}", noise=noise, study=study,
                      baseline=f"{study}/{levels[0]}", shape=StudyShape("luck", "level", level))
            for level in levels]


ROBUST = ("slips", "stronger")
"""How ``--check-robust`` repeats a study: at a second slip rate, or with stronger bots."""
_STRONGER = {"random": "easy", "easy": "medium", "medium": "hard"}
"""The next level up of each bot level (``hard`` is the strongest)."""


def robust(specs: Sequence[ExperimentSpec], how: str) -> list[ExperimentSpec]:
    """The study of ``specs`` repeated under other playing conditions, as a study of its own that
    names the one it checks (the report sets their verdicts side by side): ``slips``, twice the
    bots' slips (5% when they had none); ``stronger``, every bot one level up (``easy`` plays as
    ``medium``, a restricted bot keeps its restriction).  Raises :class:`ValueError` when the study
    cannot be repeated that way."""
    import dataclasses

    if how not in ROBUST:
        raise ValueError(f"--check-robust is {' or '.join(ROBUST)}, not {how!r}")
    study = specs[0].study
    if study is None or any(s.study != study for s in specs):
        raise ValueError("--check-robust repeats a study: run the variants of one plan or study command")
    if how == "slips":
        noises = {s.noise for s in specs}
        noise = 2 * max(noises) if max(noises) > 0 else 0.05
        if noise > 1:
            raise ValueError("the bots already slip more than half the time: --check-robust slips has no second rate")
        label = f"{noise:.0%} slips"
    else:
        label = "stronger bots"
        if any(s.shape is not None and s.shape.kind in ("depth", "luck") for s in specs):
            raise ValueError("this study varies the bots' strength itself: check it with --check-robust slips")
    repeated = []
    for s in specs:
        players = list(s.players) if how == "slips" else [_stronger(p) for p in s.players]
        if how == "stronger" and players == list(s.players):
            raise ValueError(f"{s.name}: no bot can be made stronger ({', '.join(s.players)}: hard is the strongest)")
        name = f"{study} ({label})/{s.name.removeprefix(f'{study}/')}"
        baseline = None if s.baseline is None else f"{study} ({label})/{s.baseline.removeprefix(f'{study}/')}"
        shape = None if s.shape is None else dataclasses.replace(s.shape, robust_of=study, robust=label)
        repeated.append(make_spec(game=s.game, players=players,
                                  **({"deals": s.count} if s.mode == "deals" else {"matches": s.count}),
                                  options=s.options, seed=s.seed, rounds_only=s.rounds_only, name=name,
                                  noise=noise if how == "slips" else s.noise, study=f"{study} ({label})",
                                  baseline=baseline, shape=shape))
    return repeated


def _stronger(player: str) -> str:
    """A bot spec one level up: its level (before any ``/restriction``) replaced by the next."""
    level, slash, rest = player.partition("/")
    return _STRONGER.get(level, level) + slash + rest
