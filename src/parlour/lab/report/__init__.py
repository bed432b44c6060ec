"""The designers' report: what the lab's stored matches say about a game.

First the verdicts: for each study (one plan) a table with a row per designer measure (seat
balance, deal luck, real choices, when a round is decided, comebacks, length, draws) and a column
per variant, each a paired difference from the baseline with its 95% interval and a plain verdict
with its power; the study's primary question tested on its own, the other measures corrected
together (Holm); restricted play and skill depth lead with their own verdicts; a seat edge comes
with the points that would even it out.  Then a table of contents, a summary in plain sentences
and, for every experiment: score distributions by seat and by position, win rates with 95%
intervals (the first-player advantage, also in Elo points), round and match length, how often each
scoring event happens and how rounds end, how much the deal decides (for duplicate deals), the
measures of play from replayed records, duration and anomalies.  Every interval and test counts
independent units: deals when deals are duplicated, matches otherwise.  The variants of each study
are then compared with its baseline measure by measure in an exploratory table.  Experiments of
different studies are never compared.

:func:`build` gives the numbers as JSON-ready data; :func:`write` adds the plots (PNG) and renders an
HTML page, a Markdown page or a JSON file.  The numbers come from the store's match, round and event
rows, and a sample of records replayed for the measures of play.

The package, one job a module: :mod:`~parlour.lab.report.load` reads the store into arrays;
:mod:`~parlour.lab.report.numbers` holds the small statistics; :mod:`~parlour.lab.report.experiment`
gives one experiment's section, :mod:`~parlour.lab.report.designer` reads the designer's measures
from it, :mod:`~parlour.lab.report.compensation` finds the points that even a seat's edge;
:mod:`~parlour.lab.report.verdicts` gives a study's verdict table, :mod:`~parlour.lab.report.compare`
its exploratory table, :mod:`~parlour.lab.report.studies` what the study's shape asks;
:mod:`~parlour.lab.report.summary` words the summary; :mod:`~parlour.lab.report.plots` draws,
:mod:`~parlour.lab.report.pages` lays out the page and :mod:`~parlour.lab.report.markup` renders it
as HTML or Markdown; :mod:`~parlour.lab.report.tune` is the page of a search over rule values.
"""


from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select

from parlour.lab.report.compare import comparison_numbers, study_groups
from parlour.lab.report.experiment import IDENTICAL_LIMIT, Settings, experiment_numbers, identical_deals, who_played
from parlour.lab.report.load import Played, load_played
from parlour.lab.report.markup import html_page, markdown_page
from parlour.lab.report.numbers import ALPHA, elo, icc, two_proportions_p, welch_p
from parlour.lab.report.pages import page_blocks
from parlour.lab.report.plots import draw_plots
from parlour.lab.report.studies import ladders, study_findings
from parlour.lab.report.summary import summary
from parlour.lab.report.verdicts import DEFAULT_PRIMARY, check_primary, headline, robustness, verdict_table
from parlour.lab.spec import StudyShape
from parlour.store import Match, Store

__all__ = ["ALPHA", "FORMAT", "FORMATS", "IDENTICAL_LIMIT", "Settings", "build", "elo", "icc", "identical_deals",
           "summary", "two_proportions_p", "welch_p", "write"]


FORMAT = "parlour-report/1"
"""The ``format`` field of the JSON report."""
FORMATS = ("html", "json", "markdown")
"""The formats :func:`write` can render."""
_MAIN_FILE = {"html": "report.html", "json": "report.json", "markdown": "report.md"}


def _numbers(store: Store, played: Sequence[Played], settings: Settings) -> dict[str, Any]:
    numbers: dict[str, Any] = {
        "format": FORMAT,
        "database": store.url,
        "alpha": ALPHA,
        "settings": {"seconds_per_move": settings.seconds_per_move, "sample": settings.sample,
                     "target_minutes": None if settings.target_minutes is None else list(settings.target_minutes)},
        "experiments": [experiment_numbers(p, store, settings) for p in played],
        "uncompared": [p.experiment.name for p in played if p.experiment.study is None],
        "ladders": ladders(played),
    }
    sections = {section["name"]: section for section in numbers["experiments"]}
    numbers["comparisons"] = []
    for group in study_groups(played, settings.baseline):
        verdicts = verdict_table(group, sections, primary=_primary(group, settings), smallest=settings.smallest,
                                 seconds=settings.seconds_per_move)
        comparison = comparison_numbers(group, verdicts)
        comparison["compensation"] = [sections[p.experiment.name]["compensation"] for p in group]
        comparison["findings"] = study_findings(group, sections)
        numbers["comparisons"].append(comparison)
    robustness(numbers["comparisons"], played)
    numbers["headlines"] = [{"name": p.experiment.name, "bots": who_played(p),
                             "measures": headline(sections[p.experiment.name])}
                            for p in played]
    numbers["summary"] = summary(numbers)
    return numbers


def _primary(group: Sequence[Played], settings: Settings) -> str:
    """The study's primary question: the report's setting, else its plan's, else the seat balance."""
    if settings.primary is not None:
        return check_primary(settings.primary)
    shape = group[0].experiment.shape
    stored = None if shape is None else StudyShape.from_json(shape).primary
    return DEFAULT_PRIMARY if stored is None else check_primary(stored)


def build(store: Store, names: Sequence[str] | None = None, **settings: Any) -> dict[str, Any]:
    """The report's numbers for the named experiments (all if ``names`` is empty), JSON-ready.

    Experiments come in the order named (else the order stored).  The variants of each study
    are compared with its baseline (``baseline``: a variant's name; default: the plan's).
    ``settings`` are :class:`Settings`' fields.  Unknown names raise :class:`ValueError`.
    """
    return _numbers(store, load_played(store, names), Settings(**settings))


def _examples(store: Store, played: Sequence[Played], numbers: dict[str, Any], out: Path) -> None:
    """Write the record of each anomaly's example match beside the report (``examples/``), for
    ``parlour replay`` and the web's replay page, and note its file in ``numbers``."""
    for p, section in zip(played, numbers["experiments"]):
        for item in section["anomalies"]:
            if item["example"] is None:
                continue
            with store.session() as session:
                text = session.scalar(select(Match.record).where(Match.experiment_id == p.experiment.id,
                                                                 Match.index == item["example"]))
            if text is None:
                continue
            name = f"examples/exp{p.experiment.id}-{item['key']}-match{item['example']}.json"
            (out / "examples").mkdir(exist_ok=True)
            (out / name).write_text(text, encoding="utf-8")
            item["file"] = name
            item["replay"] = f"parlour replay {out / name}"


def write(store: Store, names: Sequence[str] | None, out: Path, fmt: str = "html", **settings: Any) -> Path:
    """Write the report into the folder ``out`` (created if needed) and return its main file.

    ``fmt`` is ``html`` (``report.html``, a page with explanations, plots and
    tables), ``markdown`` (``report.md``) or ``json`` (``report.json``, the
    numbers of :func:`build` with the plot file names).  The PNG plots are
    written in every format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    played = load_played(store, names)
    numbers = _numbers(store, played, Settings(**settings))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    draw_plots(played, numbers, out)
    _examples(store, played, numbers, out)
    target = out / _MAIN_FILE[fmt]
    if fmt == "json":
        text = json.dumps(numbers, indent=1) + "\n"
    elif fmt == "markdown":
        text = markdown_page(page_blocks(numbers))
    else:
        text = html_page(page_blocks(numbers))
    target.write_text(text, encoding="utf-8")
    return target
