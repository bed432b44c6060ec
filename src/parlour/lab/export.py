"""Export: the lab's stored results as CSV files for a designer's spreadsheet.

:func:`export` writes, into one folder, ``matches.csv`` (a row per stored match: who sat where,
each seat's total and share of the win, length and minutes), ``deals.csv`` (a row per duplicate
deal: the first player's mean margin and share of the win over the deal's seatings, and whether
every seating was played move for move the same), ``measures.csv`` (a row per experiment and
designer measure, with its 95% interval, from the report's numbers) and ``comparisons.csv`` (a
row per variant and compared measure of each study: the difference from the baseline, its
interval and tests).  Every file is UTF-8 with a header row, one column per thing, numbers as
they are (no rounding, no units in the cells).  Matches are read a few columns at a time and
written as they come, so a big database stays quick and memory stays flat.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import select

from parlour import games
from parlour.lab import report
from parlour.lab.arena import player_labels
from parlour.lab.report.designer import designer_measures, ends
from parlour.lab.report.load import Played, load_played
from parlour.lab.studies import value_text
from parlour.store import Experiment, Match, Store

FILES = ("matches.csv", "deals.csv", "measures.csv", "comparisons.csv")
"""The files :func:`export` writes, in order."""
MEASURE_COLUMNS = ["experiment", "study", "measure", "value", "low", "high", "units", "unit"]
COMPARISON_COLUMNS = ["study", "baseline", "experiment", "measure", "label", "baseline_value", "value",
                      "difference", "low", "high", "p", "p_holm", "test"]
DEAL_COLUMNS = ["experiment", "study", "deal", "seatings", "first_mean_margin", "first_mean_share", "identical"]
_BATCH = 2000
"""Match rows fetched from the database at a time."""


@dataclass(frozen=True)
class Written:
    """A file the export wrote, and how many rows (besides the header) it holds."""

    path: Path
    rows: int


class _Options:
    """How an experiment's rule options are written: ``NAME=VALUE;…``, naming every option that some
    exported experiment of the same game sets away from its default (so that a sweep's baseline
    says its value too), in the game's order."""

    def __init__(self, experiments: Sequence[Experiment]) -> None:
        self._shown: dict[str, list[str]] = {}
        for e in experiments:
            try:
                game = games.get(e.game)
            except ValueError:  # a game no longer installed: every option stored
                self._shown[e.game] = list(e.options)
                continue
            changed = set(self._shown.get(e.game, []))
            changed.update(name for name, value in e.options.items()
                           if name in {o.name for o in game.options} and value != game.option(name).default)
            self._shown[e.game] = [o.name for o in game.options if o.name in changed]

    def text(self, e: Experiment) -> str:
        return ";".join(f"{name}={value_text(e.options[name])}" for name in self._shown[e.game]
                        if name in e.options)


def _write(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Written:
    """Write a CSV file (UTF-8, a header row); None is an empty cell."""
    count = 0
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow(row)
            count += 1
    return Written(path, count)


def _match_header(seats: int) -> list[str]:
    per_seat = [f"seat_{s}_{what}" for s in range(seats) for what in ("player", "total", "share")]
    return ["experiment", "study", "game", "options", "players", "noise", "match", "deal", *per_seat,
            "first_seat", "winners", "rounds", "moves", "minutes"]


def _match_rows(store: Store, experiments: Sequence[Experiment], seats: int,
                seconds_per_move: float, done: Callable[[], None]) -> Iterator[list[Any]]:
    """Every stored match of ``experiments``, a row each, read in batches of plain columns."""
    options = _Options(experiments)
    for e in experiments:
        labels = player_labels(e.players)
        described = [e.name, e.study, e.game, options.text(e), ";".join(e.players), e.noise]
        query = (select(Match.index, Match.deal, Match.seating, Match.first, Match.totals, Match.winners,
                        Match.rounds, Match.moves)
                 .where(Match.experiment_id == e.id).order_by(Match.index).execution_options(yield_per=_BATCH))
        with store.session() as session:
            for row in session.execute(query):
                per_seat: list[Any] = []
                for seat in range(seats):
                    if seat < len(row.totals):
                        share = 1 / len(row.winners) if seat in row.winners else 0.0
                        per_seat += [labels[row.seating[seat]], row.totals[seat], share]
                    else:
                        per_seat += [None, None, None]
                yield [*described, row.index, row.deal, *per_seat, row.first, ";".join(map(str, row.winners)),
                       row.rounds, row.moves, row.moves * seconds_per_move / 60]
        done()


def _deal_rows(p: Played) -> list[list[Any]]:
    """A row per duplicate deal of one experiment, by deal: the seatings played, the first player's
    mean margin and share of the win over them, and — for a deal played in every seating — whether
    every seating was played move for move the same (``identical``: yes or no, by the signature
    :func:`parlour.lab.report.experiment.identical_deals` compares)."""
    if not p.duplicate or not len(p.totals):
        return []
    margins = p.by_position(p.margins())[:, 0]
    shares = p.by_position(p.share)[:, 0]
    complete = {int(p.deal[rows[0]]): rows for rows in p.complete_deals()}
    result = []
    for deal in np.unique(p.deal).tolist():
        rows = np.flatnonzero(p.deal == deal)
        identical = None
        if deal in complete:
            identical = "yes" if len({p.signature[r] for r in complete[deal]}) == 1 else "no"
        result.append([p.experiment.name, p.experiment.study, deal, len(rows), float(margins[rows].mean()),
                       float(shares[rows].mean()), identical])
    return result


def _comparison_rows(comparisons: Sequence[Mapping[str, Any]]) -> Iterator[list[Any]]:
    """A row per variant and compared measure of every study: the variant against the baseline."""
    for comparison in comparisons:
        names = comparison["experiments"]
        for metric in comparison["metrics"]:
            for i in range(1, len(names)):
                difference = metric["differences"][i] or {}
                low, high = ends(difference.get("ci"))
                yield [comparison["study"], comparison["baseline"], names[i], metric["key"], metric["metric"],
                       metric["values"][0], metric["values"][i], difference.get("difference"), low, high,
                       metric["p_values"][i], metric["p_adjusted"][i], metric["tests"][i]]


def check(store: Store, names: Sequence[str] | None, out: Path) -> list[Experiment]:
    """The experiments :func:`export` would write (all if ``names`` is empty), in the order named:
    what it checks before it writes anything, for front ends to call before they show progress.
    Raises :class:`ValueError` for an ``out`` that is a file, an empty database or an unknown name."""
    if Path(out).exists() and not Path(out).is_dir():
        raise ValueError(f"{out} is a file; the export is a folder of CSV files")
    experiments = store.experiments(names)
    if not experiments:
        raise ValueError(f"there are no experiments in {store.url} yet (run 'parlour lab run' first)")
    if names:
        order = {name: i for i, name in enumerate(dict.fromkeys(names))}
        experiments.sort(key=lambda e: order[e.name])
    return experiments


def export(store: Store, names: Sequence[str] | None, out: Path, *, seconds_per_move: float = 5.0,
           sample: int = 100, advance: Callable[[int, int], None] | None = None) -> list[Written]:
    """Write the named experiments' results (all if ``names`` is empty) as CSV files into the folder
    ``out`` (:data:`FILES`; created if needed) and return what was written.

    ``seconds_per_move`` gives a match's minutes; ``sample`` matches of each experiment are replayed
    for the measures of play (0: none, and choices and decided are left empty).  ``advance(done,
    total)`` is called as the work goes.  Raises :class:`ValueError` as :func:`check` does.
    """
    experiments = check(store, names, out)
    total = 2 * len(experiments) + 1
    steps = iter(range(1, total + 1))

    def done() -> None:
        step = next(steps)
        if advance is not None:
            advance(step, total)

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seats = max(len(e.players) for e in experiments)
    written = [_write(out / FILES[0], _match_header(seats),
                      _match_rows(store, experiments, seats, seconds_per_move, done))]
    deals: list[list[Any]] = []
    for e in experiments:
        deals += _deal_rows(load_played(store, [e.name])[0])
        done()
    written.append(_write(out / FILES[1], DEAL_COLUMNS, deals))
    numbers = report.build(store, [e.name for e in experiments], seconds_per_move=seconds_per_move, sample=sample)
    measures = []
    for section in numbers["experiments"]:  # each section carries its compensation (report/compensation.py)
        measures += [[section["name"], section["study"], m.key, m.value, m.low, m.high, m.units, m.unit]
                     for m in designer_measures(section)]
    written.append(_write(out / FILES[2], MEASURE_COLUMNS, measures))
    written.append(_write(out / FILES[3], COMPARISON_COLUMNS, _comparison_rows(numbers["comparisons"])))
    done()
    return written
