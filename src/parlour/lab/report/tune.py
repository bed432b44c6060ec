"""The tune's report: the best settings first, with each target's estimate, its 95% interval and
whether the target is met; then every point tried, and a plot of the loss by point and of each
measure against each option.  It reads the tune's JSON (:meth:`parlour.lab.tune.TuneResult.as_json`)
alone, lays it out in the report's blocks (:mod:`~parlour.lab.report.markup`) and draws with
matplotlib's Agg canvas.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from parlour.lab.report.markup import Block, Heading, Image, List, Table, Text, html_page, markdown_page
from parlour.lab.report.text import num, percent

FORMATS = ("html", "json", "markdown")
"""The formats :func:`write_tune` can render."""
_MAIN_FILE = {"html": "tune.html", "json": "tune.json", "markdown": "tune.md"}
PLOT = "tune.png"
"""The plot's file, beside the page."""
BEST = 5
"""Points shown under the best settings."""
_WORDS = {"met": "met", "perhaps": "perhaps", "unlikely": "unlikely", "missed": "missed", "unmeasured": "no estimate"}
_LEGEND = ("met: the whole 95% interval meets the target. perhaps: the estimate meets it, the interval reaches "
           "beyond it, so more deals could still show it missed. unlikely: the estimate misses, but the interval "
           "reaches the target. missed: the whole interval misses it.")


def value_of(target: Mapping[str, Any], value: float | None) -> str:
    """A measure's value as the report writes it: a rate in percent, a count with its unit's digits."""
    if value is None:
        return "—"
    return percent(value) if target["percent"] else num(value, 1)


def _step_text(target: Mapping[str, Any]) -> str:
    step = target["step"]
    return f"{step * 100:g} points" if target["percent"] else f"{step:g} {target['unit']}{'' if step == 1 else 's'}"


def _point_text(point: Mapping[str, Any]) -> str:
    return " ".join(f"{option}={json.dumps(value) if value is not None else 'none'}" for option, value in point.items())


def _cell(target: Mapping[str, Any], found: Mapping[str, Any], verdict: str) -> str:
    ci = found["ci"]
    interval = "" if ci is None else f" ({value_of(target, ci[0])}–{value_of(target, ci[1])})"
    return f"{value_of(target, found['value'])}{interval} {_WORDS[verdict]}"


def _rows(numbers: Mapping[str, Any], order: Sequence[int]) -> list[list[str]]:
    by_number = {p["number"]: p for p in numbers["points"]}
    rows = []
    for number in order:
        p = by_number[number]
        label = str(number + 1) + (" (the game's own)" if p["own"] else "")
        rows.append([label, *(_option_cell(p["point"][d["option"]]) for d in numbers["dimensions"]),
                     f"{p['loss']:.2f}",
                     *(_cell(t, p["measures"][t["measure"]], p["verdicts"][t["measure"]]) for t in numbers["targets"])])
    return rows


def _option_cell(value: Any) -> str:
    return "none" if value is None else json.dumps(value)


def _headers(numbers: Mapping[str, Any]) -> list[str]:
    return ["point", *(d["option"] for d in numbers["dimensions"]), "loss (steps)",
            *(t["text"] for t in numbers["targets"])]


def _best_sentence(numbers: Mapping[str, Any]) -> str:
    best = next(p for p in numbers["points"] if p["number"] == numbers["best"][0])
    said = [f"{t['text']} {_WORDS[best['verdicts'][t['measure']]]} "
            f"({value_of(t, best['measures'][t['measure']]['value'])})" for t in numbers["targets"]]
    zero = sum(p["loss"] == 0 for p in numbers["points"])
    tied = (f" {zero} points meet every target by their estimates; first is the one whose intervals reach least "
            f"beyond the targets." if zero > 1 else "")
    return (f"Best of {len(numbers['points'])} points tried: {_point_text(best['point'])}, loss {best['loss']:.2f} "
            f"steps: {'; '.join(said)}.{tied}")


def tune_blocks(numbers: Mapping[str, Any], plot: str | None = PLOT) -> list[Block]:
    """The page: what was searched and how, the best settings, the plot, every point."""
    targets = numbers["targets"]
    options = "".join(f" {k}={_option_cell(v)}" for k, v in numbers["options"].items())
    varied = ", ".join(f"{d['option']} over {', '.join(map(_option_cell, d['values']))}" for d in numbers["dimensions"])
    blocks: list[Block] = [
        Heading(1, f"Search over rule values: {numbers['study']}"),
        Text(f"{numbers['game_name']}{options}, {', '.join(numbers['players'])}, {numbers['deals']} duplicate deals a "
             f"point (seed {numbers['seed']}, the same deals at every point), playtest noise {numbers['noise']:g}, "
             f"{numbers['seconds_per_move']:g} seconds a move. Searched: {varied}, by {numbers['sampler']}. "
             f"Every point is an experiment in {numbers['database']}, named '{numbers['study']}/<option>=<value> …'; "
             f"'parlour lab report' gives its full report. Point 1 is the game's own values when they are among "
             f"those searched."),
        Heading(2, "Best settings"),
        List([_best_sentence(numbers)]),
        Table(_headers(numbers), _rows(numbers, numbers["best"][:BEST])),
        Text("Each target's cell: the estimate, its 95% interval, and whether the target is met. " + _LEGEND),
        Text("The best point is picked from noisy estimates, and the best of many looks better than it is by "
             "chance: before changing the rules, confirm it on fresh deals (parlour lab run with its options, "
             "another --seed and more --deals)."),
        Text("A point's loss is the sum of its targets' misses from the estimate, in steps: "
             + "; ".join(f"{t['text']}: {_step_text(t)}" for t in targets)
             + ". Aiming at a value counts as met within half a step of it. A loss of 0 means every estimate meets "
               "its target; the intervals say how sure that is. Points of equal loss are ranked by the misses at "
               "their intervals' worse ends."),
    ]
    if any(p["verdicts"][t["measure"]] == "unmeasured" for p in numbers["points"] for t in targets):
        blocks.append(Text("Some points gave no estimate of a target's measure (deal luck when every deal was "
                           "played alike, or a measure of play without replays): each such miss counts "
                           "100 steps.", warning=True))
    if plot is not None:
        blocks.append(Image(plot, "the loss of each point in the order tried, and each target's measure against "
                                  "each option searched"))
    blocks += [Heading(2, "Every point, in the order tried"),
               Table(_headers(numbers), _rows(numbers, [p["number"] for p in numbers["points"]]))]
    return blocks


def _wrap(text: str, width: int = 44) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def draw_tune_plot(numbers: Mapping[str, Any], path: Path) -> str:
    """The loss of each point in the order tried, with the best so far; below, each target's measure
    against each option, with its interval and the target's band.  Returns the file's name."""
    dimensions, targets, points = numbers["dimensions"], numbers["targets"], numbers["points"]
    columns = max(len(dimensions), 1)
    figure = _figure(max(4.2 * columns, 7.0), 2.8 * (1 + len(targets)))
    grid = figure.add_gridspec(1 + len(targets), columns)
    ax: Axes = figure.add_subplot(grid[0, :])
    order = np.arange(1, len(points) + 1)
    losses = np.array([p["loss"] for p in points], dtype=np.float64)
    ax.plot(order, losses, "o", color="#1f77b4", label="loss of the point")
    ax.step(order, np.minimum.accumulate(losses), where="post", color="#d62728", label="best so far")
    ax.set_xlabel("point, in the order tried")
    ax.set_ylabel("loss (steps)")
    ax.set_title("Loss by point", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    best = numbers["best"][0]
    for row, target in enumerate(targets, 1):
        scale = 100.0 if target["percent"] else 1.0
        for column, dimension in enumerate(dimensions):
            ax = figure.add_subplot(grid[row, column])
            labels = [_option_cell(v) for v in dimension["values"]]
            where = {label: i for i, label in enumerate(labels)}
            for p in points:
                found = p["measures"][target["measure"]]
                if found["value"] is None:
                    continue
                x = where[_option_cell(p["point"][dimension["option"]])]
                y = found["value"] * scale
                ci = found["ci"]
                error = None if ci is None else [[y - ci[0] * scale], [ci[1] * scale - y]]
                mine = p["number"] == best
                ax.errorbar(x, y, yerr=error, fmt="*" if mine else "o", color="#d62728" if mine else "#1f77b4",
                            markersize=11 if mine else 5, alpha=1.0 if mine else 0.55, capsize=2, elinewidth=0.8,
                            zorder=3 if mine else 2)
            bottom, top = ax.get_ylim()
            ax.axhspan(bottom if target["low"] is None else target["low"] * scale,
                       top if target["high"] is None else target["high"] * scale,
                       color="#2ca02c", alpha=0.15, label="target")
            ax.set_xticks(range(len(labels)), labels, fontsize=8)
            ax.set_xlabel(dimension["option"])
            ax.set_ylabel("%" if target["percent"] else f"{target['unit']}s")
            ax.set_title(_wrap(f"{target['label']} ({target['text']})"), fontsize=9)
            if row == 1 and column == 0:
                ax.legend(loc="best", fontsize=8)
    figure.suptitle(f"{numbers['study']} (★ the best point; bars: 95% intervals; green: the target)",
                    fontsize=11)
    figure.savefig(path, dpi=110)
    return path.name


def write_tune(numbers: Mapping[str, Any], out: Path, fmt: str = "html") -> Path:
    """Write the tune's report into the folder ``out`` (created if needed) and return its main file:
    ``tune.html``, ``tune.md`` or ``tune.json`` (the numbers), with the plot ``tune.png`` beside it
    in every format."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot = draw_tune_plot(numbers, out / PLOT)
    target = out / _MAIN_FILE[fmt]
    if fmt == "json":
        text = json.dumps({**numbers, "plot": plot}, indent=1) + "\n"
    elif fmt == "markdown":
        text = markdown_page(tune_blocks(numbers, plot))
    else:
        text = html_page(tune_blocks(numbers, plot))
    target.write_text(text, encoding="utf-8")
    return target
