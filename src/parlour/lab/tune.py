"""A search over rule values toward a designer's targets (``parlour lab tune``).

The designer names the rule options to vary, each over a range or a list of values
(:class:`Dimension`), and targets for the report's measures (:class:`Target`, the keys of
:data:`MEASURES`: ``first_player=0.5, minutes=20..30, luck<=0.3``).  Each point the search tries is
an experiment of the study ``tune <options>``, played on duplicate deals that every point shares
(one seed) and stored in the lab database like any other; its measures are read back from the store
by the designers' report (:func:`parlour.lab.report.build`).

A point's *loss* is the sum of its targets' misses, each counted in steps of its measure
(:attr:`Measure.step`: 5 points for a rate or a share, a minute, ten moves, a round), from the
estimate alone; the report gives every estimate's 95% interval beside it, and a target is *met*
only when the whole interval meets it.

The search is optuna's TPE sampler (Bergstra et al. 2011).  It keeps nothing of its own: before each
new point an optuna study is built in memory from the points tried so far, and asked with a sampler
seeded from the tune's seed and the number of points, so the points proposed follow from the seed
and the stored points alone: a tune interrupted and run again tries the same points as one never
interrupted, and a point already stored is read back, never played again.  :func:`search` takes
the evaluation as a callable, so the search is tested on measures of known shape;
:func:`tune` passes the one that plays into the store and reads the report.
"""

from __future__ import annotations

import itertools
import logging
import math
import random
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.distributions import BaseDistribution, CategoricalDistribution, IntDistribution

from parlour import games
from parlour.lab import runner, studies
from parlour.lab.report.designer import measure_map
from parlour.lab.spec import ExperimentSpec, StudyShape, make_spec
from parlour.store import Store

FORMAT = "parlour-tune/1"
"""The ``format`` field of a tune's JSON (:meth:`TuneResult.as_json`)."""
STARTUP = 8
"""Points the sampler draws at random before it models the losses (TPE's start-up trials)."""
UNMEASURED = 100.0
"""The miss, in steps, of a target whose measure a point could not give (deal luck when every
deal was played alike): such a point ranks below any measured one."""
ATTEMPTS = 40
"""How often the sampler is asked again when it proposes a point already tried."""


@dataclass(frozen=True)
class Measure:
    """A designer's measure a target may name (:func:`read_measures` reads it from the report)."""

    key: str
    label: str
    step: float
    """One step of a miss, in the measure's own unit."""
    percent: bool
    """A rate or a share (0 to 1), shown in percent; else a count of ``unit``."""
    unit: str = ""
    """What a count counts, in the singular (``minute``)."""
    needs_play: bool = False
    """Read by replaying records (the report's measures of play)."""


MEASURES: dict[str, Measure] = {m.key: m for m in (
    Measure("first_player", "first player's win rate", 0.05, True),
    Measure("luck", "share of the first player's margin the deal decides", 0.05, True),
    Measure("choices", "share of decisions that are real choices", 0.05, True, needs_play=True),
    Measure("decided", "how far into a round its winner leads for good", 0.05, True, needs_play=True),
    Measure("comebacks", "share of the seats behind half-way that win the round", 0.05, True, needs_play=True),
    Measure("minutes", "minutes a match", 1.0, False, "minute"),
    Measure("moves", "moves a match", 10.0, False, "move"),
    Measure("rounds", "rounds a match", 1.0, False, "round"),
    Measure("draws", "share of matches whose win is shared", 0.05, True),
)}
"""The measures a target may name, by key (the keys the verdict table and the export share)."""

VERDICTS = ("met", "perhaps", "unlikely", "missed", "unmeasured")
"""A target against a point's estimate and its 95% interval: the whole interval meets it; the
estimate does but the interval reaches beyond; the estimate misses but the interval reaches it; the
whole interval misses; no estimate."""


@dataclass(frozen=True)
class Estimate:
    """A measure of one point: the estimate and its 95% interval (None when not measured)."""

    value: float | None
    low: float | None = None
    high: float | None = None

    def as_json(self) -> dict[str, Any]:
        """The estimate as stored in the tune's JSON."""
        return {"value": self.value, "ci": None if self.low is None or self.high is None else [self.low, self.high]}


@dataclass(frozen=True)
class Target:
    """What a designer wants of one measure: within ``low``..``high`` (either end may be open).
    Aiming at a value (``first_player=0.5``) means within half a step of it."""

    measure: str
    low: float | None
    high: float | None
    text: str
    """The target as typed."""

    @property
    def step(self) -> float:
        """One step of a miss (:attr:`Measure.step`)."""
        return MEASURES[self.measure].step

    def miss(self, estimate: Estimate) -> float:
        """How far the estimate lies outside the target, in steps (0 inside)."""
        if estimate.value is None or math.isnan(estimate.value):
            return UNMEASURED
        below = 0.0 if self.low is None else max(0.0, self.low - estimate.value)
        above = 0.0 if self.high is None else max(0.0, estimate.value - self.high)
        return (below + above) / self.step

    def worst_miss(self, estimate: Estimate) -> float:
        """The miss at the worse end of the estimate's interval (the estimate's own without one)."""
        if estimate.value is None or estimate.low is None or estimate.high is None:
            return self.miss(estimate)
        return max(self.miss(Estimate(estimate.low)), self.miss(Estimate(estimate.high)))

    def verdict(self, estimate: Estimate) -> str:
        """One of :data:`VERDICTS`."""
        if estimate.value is None or math.isnan(estimate.value):
            return "unmeasured"
        inside = self.miss(estimate) == 0
        if estimate.low is None or estimate.high is None:
            return "perhaps" if inside else "missed"
        whole = self.miss(Estimate(estimate.low)) == 0 and self.miss(Estimate(estimate.high)) == 0
        touches = (self.low is None or estimate.high >= self.low) and (self.high is None or estimate.low <= self.high)
        if inside:
            return "met" if whole else "perhaps"
        return "unlikely" if touches else "missed"

    def as_json(self) -> dict[str, Any]:
        """The target as stored in the tune's JSON."""
        measure = MEASURES[self.measure]
        return {"measure": self.measure, "label": measure.label, "text": self.text, "low": self.low,
                "high": self.high, "step": self.step, "percent": measure.percent, "unit": measure.unit}


_TARGET = re.compile(r"^\s*(?P<name>[A-Za-z_]+)\s*(?P<op><=|>=|=)\s*(?P<value>[^=<>]+?)\s*$")


def parse_targets(text: str) -> list[Target]:
    """``first_player=0.5, minutes=20..30, luck<=0.3`` → targets: ``name=value`` (aim at it, within
    half a step), ``name=lo..hi``, ``name<=x``, ``name>=x``; each measure at most once.  Raises
    :class:`ValueError` in one line saying what is wrong."""
    targets: list[Target] = []
    for part in text.split(","):
        if not part.strip():
            raise ValueError(f"--target lists targets separated by commas, like 'first_player=0.5, minutes=20..30', "
                             f"not {text!r}")
        found = _TARGET.match(part)
        if found is None:
            raise ValueError(f"a target is NAME=VALUE, NAME=LOW..HIGH, NAME<=VALUE or NAME>=VALUE, like "
                             f"first_player=0.5, not {part.strip()!r}")
        name, op, value = found["name"], found["op"], found["value"]
        if name not in MEASURES:
            raise ValueError(f"no measure {name!r} to aim at (the measures: {', '.join(MEASURES)})")
        if any(t.measure == name for t in targets):
            raise ValueError(f"{name} has two targets; give it one")
        targets.append(_target(name, op, value, part.strip()))
    return targets


def _target(name: str, op: str, value: str, text: str) -> Target:
    measure = MEASURES[name]
    low_text, dots, high_text = value.partition("..")
    try:
        numbers = [float(v) for v in ((low_text, high_text) if dots else (value,))]
    except ValueError:
        raise ValueError(f"{text}: {name}'s target is a number{' or a range LOW..HIGH' if op == '=' else ''}, "
                         f"like {'0.5' if measure.percent else '25'}") from None
    if dots and op != "=":
        raise ValueError(f"{text}: a range is given with =, like {name}={value}")
    if any(not math.isfinite(n) for n in numbers) or (measure.percent and not all(0 <= n <= 1 for n in numbers)):
        raise ValueError(f"{text}: {measure.label} is a share from 0 to 1 (0.5 is half)" if measure.percent
                         else f"{text}: {name} is a finite number of {measure.unit}s")
    if dots:
        if numbers[0] > numbers[1]:
            raise ValueError(f"{text}: a range runs upward, like {name}={high_text}..{low_text}")
        return Target(name, numbers[0], numbers[1], text)
    if op == "<=":
        return Target(name, None, numbers[0], text)
    if op == ">=":
        return Target(name, numbers[0], None, text)
    return Target(name, numbers[0] - measure.step / 2, numbers[0] + measure.step / 2, text)


@dataclass(frozen=True)
class Dimension:
    """One option the search varies and the values it may take."""

    option: str
    values: tuple[Any, ...]

    def distribution(self) -> BaseDistribution:
        """Optuna's: whole numbers in a run of equal steps are ordered (the sampler learns that 7 lies
        between 6 and 8); anything else is a set of choices."""
        values = self.values
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values) and len(values) > 1:
            ordered = sorted(values)
            step = ordered[1] - ordered[0]
            if step > 0 and ordered == list(range(ordered[0], ordered[-1] + 1, step)):
                return IntDistribution(ordered[0], ordered[-1], step=step)
        return CategoricalDistribution(values)


def parse_dimension(game: str, text: str) -> Dimension:
    """``hand_size=5..9`` (whole numbers, both ends included) or ``minus=10,15,20`` → a dimension,
    each value checked by the option (whether the game takes it with the other options is
    :meth:`Tuning.valid`'s question: hands of 3 may need a smaller pack).  Raises :class:`ValueError`."""
    name, sep, values = text.partition("=")
    if not sep or not name.strip() or not values.strip():
        raise ValueError(f"an option searched is OPTION=VALUES, like hand_size=5..9 or minus=10,15,20, not {text!r}")
    option = games.get(game).option(name.strip())
    low, dots, high = values.partition("..")
    if dots:
        try:
            ends = int(low), int(high)
        except ValueError:
            raise ValueError(f"{text}: a range is two whole numbers, like {option.name}=5..9") from None
        if ends[0] >= ends[1]:
            raise ValueError(f"{text}: a range runs upward from one number to a larger, like "
                             f"{option.name}={min(ends)}..{max(ends) + (ends[0] == ends[1])}")
        chosen = [option.check(value) for value in range(ends[0], ends[1] + 1)]
    else:
        chosen = [option.parse_text(part) for part in values.split(",")]
    twice = sorted({studies.value_text(v) for v in chosen if chosen.count(v) > 1})
    if twice:
        raise ValueError(f"{option.name}: {', '.join(twice)} given twice; give each value once")
    if len(chosen) < 2:
        raise ValueError(f"{option.name}: a search needs two values or more, like {option.name}=5..9")
    return Dimension(option.name, tuple(chosen))


Point = dict[str, Any]
"""Rule values: option name → value, one per dimension."""
Evaluate = Callable[[Point], Mapping[str, Estimate]]
"""What a point measures: every target's measure, by key."""


@dataclass(frozen=True)
class Tried:
    """A point the search tried, what it measured and its loss."""

    number: int
    point: Point
    measures: Mapping[str, Estimate]
    loss: float


def loss(targets: Sequence[Target], measures: Mapping[str, Estimate]) -> float:
    """The sum of the targets' misses, in steps."""
    return sum(target.miss(measures.get(target.measure, Estimate(None))) for target in targets)


def worst_loss(targets: Sequence[Target], measures: Mapping[str, Estimate]) -> float:
    """The sum of the targets' misses at their intervals' worse ends: of two points of equal loss,
    the one more surely on target has the smaller."""
    return sum(target.worst_miss(measures.get(target.measure, Estimate(None))) for target in targets)


def point_key(point: Mapping[str, Any]) -> str:
    """A point as text, the same whatever its order: ``hand_size=7 minus=15``."""
    return " ".join(f"{option}={studies.value_text(value)}" for option, value in sorted(point.items()))


def search(
    dimensions: Sequence[Dimension],
    targets: Sequence[Target],
    evaluate: Evaluate,
    *,
    budget: int,
    seed: int = 0,
    stored: Sequence[Point] = (),
    first: Point | None = None,
    valid: Callable[[Point], bool] | None = None,
    tried: Callable[[Tried], None] | None = None,
) -> list[Tried]:
    """Try ``budget`` points (or every point in the space, if fewer) and return them in order.

    Points already ``stored`` come first, in their order, and are evaluated again (an evaluation
    that reads them from the store plays nothing); the points after them are proposed by TPE from
    the points before them, with a sampler seeded from ``seed`` and their number, so a search
    stopped after some points and run again with them stored proposes what it would have.
    ``first`` (the game's own values, when they are in the space) is tried first.  Only points
    ``valid`` accepts are tried (the game refuses some combinations of its options); the search
    stops early when every valid point has been tried.  ``tried`` is called after each point."""
    if budget < 1:
        raise ValueError(f"the budget is a positive number of points, not {budget!r}")
    done: list[Tried] = []
    for number in range(max(budget, len(stored))):
        proposed: Point | None
        if number < len(stored):
            proposed = dict(stored[number])
        elif number == 0 and first is not None:
            proposed = dict(first)
        else:
            proposed = _propose(dimensions, done, seed, valid or (lambda point: True))
        if proposed is None:
            break
        point = proposed
        measures = evaluate(point)
        done.append(Tried(number, point, dict(measures), loss(targets, measures)))
        if tried is not None:
            tried(done[-1])
    return done


def _propose(dimensions: Sequence[Dimension], done: Sequence[Tried], seed: int,
             valid: Callable[[Point], bool]) -> Point | None:
    """The next point: TPE over the points ``done``, asked again while it proposes one already
    tried (each repeat told its known loss, as a repeat would measure) or one not ``valid`` (told
    :data:`UNMEASURED`), then the first valid point not tried in a seeded order; None when there
    is none left."""
    distributions = {d.option: d.distribution() for d in dimensions}
    losses = {point_key(t.point): t.loss for t in done}
    rng = random.Random(f"parlour-tune:{seed}:{len(done)}")
    sampler = optuna.samplers.TPESampler(seed=rng.randrange(2**31), n_startup_trials=STARTUP, multivariate=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        optuna.logging.set_verbosity(logging.WARNING)
        study = optuna.create_study(direction="minimize", sampler=sampler)
        for t in done:
            study.add_trial(optuna.trial.create_trial(params=dict(t.point), distributions=distributions,
                                                      value=t.loss))
        for _ in range(ATTEMPTS):
            trial = study.ask(distributions)
            point = {d.option: trial.params[d.option] for d in dimensions}
            key = point_key(point)
            if key in losses:
                study.tell(trial, losses[key])
            elif not valid(point):
                study.tell(trial, UNMEASURED)
            else:
                return point
    everything = [dict(zip((d.option for d in dimensions), values))
                  for values in itertools.product(*(d.values for d in dimensions))]
    rng.shuffle(everything)
    return next((point for point in everything if point_key(point) not in losses and valid(point)), None)


@dataclass(frozen=True)
class Tuning:
    """What a tune plays and aims at: everything that defines its points."""

    game: str
    dimensions: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    players: tuple[str, ...]
    deals: int
    seed: int = 0
    noise: float = 0.05
    options: Mapping[str, Any] = field(default_factory=dict)
    """The other rule options, the same at every point."""
    rounds_only: bool = False
    name: str | None = None
    """The study's name (default ``tune <options>``)."""
    seconds_per_move: float = 5.0
    sample: int = 30
    """Matches of each point replayed for the measures of play, when a target needs them."""

    @property
    def study(self) -> str:
        """The study every point belongs to."""
        return self.name or "tune " + ",".join(d.option for d in self.dimensions)

    @property
    def varied(self) -> str:
        """The options varied, as the study's shape names them."""
        return ",".join(d.option for d in self.dimensions)

    def spec(self, point: Mapping[str, Any]) -> ExperimentSpec:
        """The experiment of one point: ``<study>/<option>=<value> …``, on the tune's deals."""
        own = self.first()
        return make_spec(game=self.game, players=self.players, deals=self.deals,
                         options={**self.options, **point}, seed=self.seed, rounds_only=self.rounds_only,
                         name=f"{self.study}/{point_key(point)}", noise=self.noise, study=self.study,
                         baseline=None if own is None else f"{self.study}/{point_key(own)}",
                         shape=StudyShape("tune", self.varied, dict(point)))

    def first(self) -> Point | None:
        """The game's own values of the options varied, when every one is among its values (and
        the game takes them with the other options)."""
        game = games.get(self.game)
        point = {d.option: game.option(d.option).default for d in self.dimensions}
        inside = all(point[d.option] in d.values for d in self.dimensions)
        return point if inside and self.valid(point) else None

    def valid(self, point: Mapping[str, Any]) -> bool:
        """Whether the game takes these values with the other options (a pack must hold the hands)."""
        try:
            games.get(self.game).check_options({**self.options, **point})
        except ValueError:
            return False
        return True

    @property
    def sample_needed(self) -> int:
        """Matches to replay for the measures: none unless a target needs the measures of play."""
        return self.sample if any(MEASURES[t.measure].needs_play for t in self.targets) else 0


def make_tuning(
    game: str,
    dimensions: Sequence[str],
    targets: str,
    players: Sequence[str],
    *,
    deals: int,
    options: Mapping[str, Any] | None = None,
    **settings: Any,
) -> Tuning:
    """A checked tune: ``dimensions`` as typed (``hand_size=5..9``), ``targets`` as typed
    (:func:`parse_targets`); ``settings`` are :class:`Tuning`'s other fields.  Raises
    :class:`ValueError` in one line."""
    if not dimensions:
        raise ValueError("a tune needs an option with several values to search, like -o hand_size=5..9")
    varied = [parse_dimension(game, text) for text in dimensions]
    names = [d.option for d in varied]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} given twice; give each option's values once")
    fixed = dict(options or {})
    both = [n for n in names if n in fixed]
    if both:
        raise ValueError(f"{both[0]} is searched: do not also fix it")
    tuning = Tuning(game, tuple(varied), tuple(parse_targets(targets)), tuple(players), deals, options=fixed,
                    **settings)
    for dimension in varied:
        refused = [value for value in dimension.values
                   if not any(tuning.valid({**point, dimension.option: value}) for point in _others(varied, dimension))]
        if refused:
            value = refused[0]
            try:
                games.get(game).check_options({**fixed, dimension.option: value})
            except ValueError as exc:
                raise ValueError(f"{dimension.option}={studies.value_text(value)}: {exc}") from None
            raise ValueError(f"{dimension.option}={studies.value_text(value)} goes with none of the other values "
                             f"searched") from None
    tuning.spec(next(p for p in _others(varied, None) if tuning.valid(p)))  # checks the players and the deals
    return tuning


def _others(dimensions: Sequence[Dimension], leave: Dimension | None) -> Iterator[Point]:
    """Every point of the dimensions but ``leave`` (each point's values, lazily)."""
    kept = [d for d in dimensions if d is not leave]
    for values in itertools.product(*(d.values for d in kept)):
        yield dict(zip((d.option for d in kept), values))


def stored_points(store: Store, tuning: Tuning) -> list[Point]:
    """The points of the tune's study already in the store, in the order they were tried.
    Raises :class:`ValueError` when the study varies other options (another tune of that name)."""
    points = []
    for experiment in store.experiments():
        if experiment.study != tuning.study:
            continue
        shape = experiment.shape or {}
        if shape.get("kind") != "tune" or shape.get("varied") != tuning.varied:
            raise ValueError(f"the study {tuning.study!r} is already stored, varying "
                             f"{shape.get('varied') or 'something else'}; give the tune another --name")
        points.append(dict(shape["value"]))
    return points


def read_measures(section: Mapping[str, Any]) -> dict[str, Estimate]:
    """Every measure of :data:`MEASURES` from one experiment's report section, read where the report
    keeps them (:func:`parlour.lab.report.designer.designer_measures`)."""
    found = measure_map(section)
    return {key: Estimate(found[key].value, found[key].low, found[key].high) if key in found else Estimate(None)
            for key in MEASURES}


@dataclass(frozen=True)
class TuneResult:
    """A tune's points, in the order tried, with what they measured."""

    tuning: Tuning
    points: tuple[Tried, ...]
    names: tuple[str, ...]
    """Each point's experiment."""
    database: str

    def ranked(self) -> list[Tried]:
        """The points, best (least loss) first; of equal loss, the one more surely on target
        (:func:`worst_loss`), then the one tried first."""
        targets = self.tuning.targets
        return sorted(self.points, key=lambda t: (t.loss, worst_loss(targets, t.measures), t.number))

    def as_json(self) -> dict[str, Any]:
        """Everything the tune's report shows, JSON-ready (``format`` :data:`FORMAT`)."""
        tuning = self.tuning
        keys = [t.measure for t in tuning.targets]
        own = tuning.first()
        points = []
        for tried, name in zip(self.points, self.names):
            points.append({
                "number": tried.number, "experiment": name, "point": tried.point, "own": tried.point == own,
                "loss": tried.loss, "worst_loss": worst_loss(tuning.targets, tried.measures),
                "measures": {key: tried.measures.get(key, Estimate(None)).as_json() for key in keys},
                "misses": {t.measure: t.miss(tried.measures.get(t.measure, Estimate(None))) for t in tuning.targets},
                "verdicts": {t.measure: t.verdict(tried.measures.get(t.measure, Estimate(None)))
                             for t in tuning.targets},
            })
        return {
            "format": FORMAT, "database": self.database, "study": tuning.study, "game": tuning.game,
            "game_name": games.get(tuning.game).name,
            "dimensions": [{"option": d.option, "values": list(d.values)} for d in tuning.dimensions],
            "options": dict(tuning.options), "players": list(tuning.players), "deals": tuning.deals,
            "seed": tuning.seed, "noise": tuning.noise, "rounds_only": tuning.rounds_only,
            "seconds_per_move": tuning.seconds_per_move, "sample": tuning.sample_needed,
            "targets": [t.as_json() for t in tuning.targets],
            "sampler": f"optuna {optuna.__version__} TPE (multivariate, {STARTUP} random points first)",
            "points": points, "best": [t.number for t in self.ranked()],
        }


def tune(
    store: Store,
    tuning: Tuning,
    *,
    budget: int,
    jobs: int = 1,
    playing: Callable[[Point, int, int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    tried: Callable[[Tried], None] | None = None,
) -> TuneResult:
    """Search ``budget`` points of ``tuning`` (more when more are stored), each played into
    ``store`` and measured by the report; a point already stored plays only its matches not yet
    stored (none, once finished).  ``playing(point, pending, done)`` is called before a point's
    matches, ``progress(n)`` as they finish, ``tried`` after each point.  Raises
    :class:`ValueError` (a study or an experiment stored with other settings) before any match."""
    from parlour.lab import report

    stored = stored_points(store, tuning)
    runner.check([tuning.spec(point) for point in stored], store)

    def evaluate(point: Point) -> dict[str, Estimate]:
        spec = tuning.spec(point)

        def started(pending: int, done: int) -> None:
            if playing is not None:
                playing(point, pending, done)

        runner.run([spec], store, jobs=jobs, progress=progress, started=started)
        numbers = report.build(store, [spec.name], seconds_per_move=tuning.seconds_per_move,
                               sample=tuning.sample_needed)
        return read_measures(numbers["experiments"][0])

    points = search(tuning.dimensions, tuning.targets, evaluate, budget=budget, seed=tuning.seed, stored=stored,
                    first=tuning.first(), valid=tuning.valid, tried=tried)
    return TuneResult(tuning, tuple(points), tuple(tuning.spec(t.point).name for t in points), store.url)
