"""The report's plots (PNG), drawn with matplotlib's Agg canvas: each experiment's scores, win rates,
lengths, events, deal against players and play; each study's comparison, sweep and skill depth.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from parlour import games
from parlour.lab.report.compare import ROUND_MOVES, ROUNDS
from parlour.lab.report.load import FloatArray, Played, position_name
from parlour.lab.report.text import frequency, percent, variant_name

_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def _figure(width: float, height: float) -> Figure:
    """A figure drawn by the Agg canvas: no pyplot, so no global backend is switched."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: Path) -> str:
    figure.savefig(path, dpi=110)
    return path.name


def _bins(values: FloatArray) -> list[float] | int:
    """Bin edges: whole numbers fall in the middle of equal bins (at most 40), so no bin
    gets one more possible value than its neighbours; other data gets numpy's choice."""
    if values.size == 0:
        return 10
    low, high = float(values.min()), float(values.max())
    if np.all(values == np.round(values)):
        width = max(1, math.ceil((high - low + 1) / 40))
        return [float(edge) for edge in np.arange(low - 0.5, high + width, width)]
    edges = np.histogram_bin_edges(values, bins="auto")
    return [float(edge) for edge in edges] if len(edges) <= 41 else 40


def _wrap(text: str, width: int = 28) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _plot_scores(p: Played, path: Path) -> str:
    figure = _figure(3.2 * p.seats + 0.6, 5.4)
    axes = figure.subplots(2, p.seats, sharex=True, squeeze=False)
    positions = p.by_position(p.totals)
    bins = _bins(p.totals.ravel())
    for column in range(p.seats):
        for row, (data, title) in enumerate(((p.totals[:, column], f"Seat {column}"),
                                             (positions[:, column], position_name(column).capitalize()))):
            ax: Axes = axes[row][column]
            ax.hist(data, bins=bins, color=_COLOURS[column], alpha=0.8)
            if data.size:
                ax.axvline(float(data.mean()), color="black", linestyle="--", linewidth=1, label="mean")
                ax.legend(loc="best", fontsize=8)
            ax.set_title(f"{title} (mean {data.mean():.1f})" if data.size else title, fontsize=10)
            ax.set_xlabel("match total")
            ax.set_ylabel("matches")
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Score distribution — {_wrap(p.experiment.name, 70)}", fontsize=11)
    return _save(figure, path)


def _rate_bars(ax: Axes, items: Sequence[dict[str, Any]], labels: Sequence[str], fair: float, title: str) -> None:
    rates = [item["rate"] or 0.0 for item in items]
    low = [r - item["ci"][0] for r, item in zip(rates, items)]
    high = [item["ci"][1] - r for r, item in zip(rates, items)]
    ax.bar(range(len(items)), rates, yerr=[low, high], capsize=6, color=_COLOURS[: len(items)], alpha=0.85,
           label="win rate (95% interval)")
    ax.axhline(fair, color="black", linestyle="--", linewidth=1, label=f"fair share {fair:.2f}")
    ax.set_xticks(range(len(items)), [_wrap(label, 14) for label in labels], fontsize=9)
    ax.set_ylim(0, 1.25)  # room for the legend above a rate near 1
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("win rate")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper right", fontsize=8)


def _plot_wins(p: Played, numbers: dict[str, Any], path: Path) -> str:
    wins = numbers["wins"]
    figure = _figure(11, 3.8)
    axes = figure.subplots(1, 3)
    fair = wins["fair_share"]
    _rate_bars(axes[0], wins["by_seat"], [f"seat {s}" for s in range(p.seats)], fair, "By seat")
    _rate_bars(axes[1], wins["by_position"], [position_name(q) for q in range(p.seats)], fair,
               "By position (first-player advantage)")
    _rate_bars(axes[2], wins["by_player"], p.labels, fair, "By player")
    figure.suptitle(f"Win rates — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_lengths(p: Played, path: Path) -> str:
    figure = _figure(11, 3.6)
    axes = figure.subplots(1, 3)
    for ax, data, title, unit in (
        (axes[0], p.round_moves.astype(np.float64), "Moves per round", "rounds"),
        (axes[1], p.rounds.astype(np.float64), "Rounds per match", "matches"),
        (axes[2], p.moves.astype(np.float64), "Moves per match", "matches"),
    ):
        ax.hist(data, bins=_bins(data), color="#4c72b0", alpha=0.85)
        if data.size:
            ax.axvline(float(data.mean()), color="black", linestyle="--", linewidth=1,
                       label=f"mean {data.mean():.1f}")
            ax.legend(loc="best", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(title.lower())
        ax.set_ylabel(unit)
        # Every length is a whole number of moves or rounds, and so is every count.
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Round and match length — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_events(p: Played, numbers: dict[str, Any], path: Path) -> str:
    kinds = numbers["events"]["kinds"]
    endings = numbers["events"]["endings"]
    figure = _figure(11, max(3.2, 0.42 * max(len(kinds), len(endings)) + 1.4))
    left, right = figure.subplots(1, 2, width_ratios=[3, 2])
    names = list(reversed(kinds))  # most frequent at the top
    per_round = [kinds[k]["per_round"] or 0.0 for k in names]
    left.barh(names, per_round, color="#55a868")
    for y, kind in enumerate(names):
        left.text(per_round[y], y, f" {frequency(per_round[y])} ({percent(kinds[kind]['share_of_rounds'])} of rounds)",
                  va="center", fontsize=8)
    left.set_xlim(0, max([*per_round, 0.01]) * 1.45)
    left.set_xlabel("occurrences per round (mean)")
    left.set_title("Scoring events", fontsize=10)
    left.tick_params(axis="y", labelsize=9)
    ending_names = list(reversed(endings))
    shares = [endings[e]["share"] or 0.0 for e in ending_names]
    right.barh(ending_names, shares, color="#c44e52")
    for y, share in enumerate(shares):
        right.text(share, y, f" {share:.0%}", va="center", fontsize=8)
    right.set_xlim(0, 1.15)
    right.set_xlabel("share of rounds")
    right.set_title("How rounds end", fontsize=10)
    figure.suptitle(f"Events — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_deal(p: Played, numbers: dict[str, Any], path: Path) -> str:
    deal = numbers["deal_vs_players"]
    figure = _figure(11, 3.6)
    left, right = figure.subplots(1, 2)
    names = [position_name(item["position"]) for item in deal["by_position"]]
    shares = [item["icc"] or 0.0 for item in deal["by_position"]]
    left.barh(names, shares, color="#8172b2", label="the deal")
    left.barh(names, [1 - s for s in shares], left=shares, color="#ccb974", label="the players and their play")
    for y, share in enumerate(shares):
        left.text(0.01, y, f"deal {share:.0%} | players {1 - share:.0%}", va="center", fontsize=9)
    left.set_xlim(0, 1)
    left.set_xlabel("share of the variance of the score margin")
    left.set_title(f"What decides the margin ({deal['deals']} deals)", fontsize=10)
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, fontsize=8)
    players = deal["by_player"]
    means = [item["mean_margin"] or 0.0 for item in players]
    errors = [(item["ci"][1] - item["ci"][0]) / 2 if item["ci"] else 0.0 for item in players]
    right.bar(range(len(players)), means, yerr=errors, capsize=6, color=_COLOURS[: len(players)], alpha=0.85)
    right.axhline(0, color="black", linewidth=1)
    right.set_xticks(range(len(players)), [_wrap(item["player"], 14) for item in players], fontsize=9)
    right.set_ylabel("points above the others' mean")
    right.set_title("Mean score margin by player (95% interval over deals)", fontsize=10)
    figure.suptitle(f"Deal versus players — {_wrap(p.experiment.name, 80)}", fontsize=11)
    return _save(figure, path)


def _plot_play(p: Played, play: dict[str, Any], path: Path) -> str:
    figure = _figure(11, max(3.6, 0.32 * len(play["kinds"]) + 1.4))
    left, right = figure.subplots(1, 2)
    stages = [item for item in play["comebacks"] if item["rate"] is not None]
    xs = [item["from"] * 100 for item in stages]
    rates = [item["rate"] for item in stages]
    left.errorbar(xs, rates, yerr=_error_bars(rates, [item["ci"] for item in stages]), marker="o", capsize=4,
                  color="#4c72b0", label="win rate of a seat behind (95% interval)")
    left.axhline(1 / p.seats, color="black", linestyle="--", linewidth=1, label=f"fair share {1 / p.seats:.2f}")
    left.set_ylim(0, 1)
    left.set_xlim(-5, 100)
    left.set_xlabel("share of the round played (%)")
    left.set_ylabel("win rate when behind")
    left.set_title("Comebacks: how often a seat behind then wins the round", fontsize=10)
    left.legend(loc="upper right", fontsize=8)
    names = list(reversed(play["kinds"]))
    shares = [play["kinds"][k]["share_of_moves"] for k in names]
    right.barh(names, shares, color="#55a868")
    for y, share in enumerate(shares):
        right.text(share, y, f" {share:.1%}", va="center", fontsize=8)
    right.set_xlim(0, max([*shares, 0.01]) * 1.3)
    right.set_xlabel("share of moves")
    right.set_title("What is played", fontsize=10)
    right.tick_params(axis="y", labelsize=9)
    figure.suptitle(f"Play — {_wrap(p.experiment.name, 80)} ({play['sample']} matches replayed)", fontsize=11)
    return _save(figure, path)


def _plot_comparison(group: Sequence[Played], numbers: dict[str, Any], path: Path) -> str:
    labels = [f"V{i + 1}" for i in range(len(group))]
    rows = {row["key"]: row for row in numbers["metrics"]}
    events = [row for row in numbers["metrics"] if row["key"].startswith("event:")]
    figure = _figure(12, 4.2 + 0.3 * len(group) * len(events))
    grid = figure.add_gridspec(2, 3, height_ratios=[3.2, max(1.0, 0.3 * len(group) * len(events))])
    axes = [figure.add_subplot(grid[0, column]) for column in range(3)]
    for ax, metric in zip(axes, (ROUND_MOVES, ROUNDS)):
        key, title = metric.key, metric.label
        values = [v or 0.0 for v in rows[key]["values"]]
        ax.bar(labels, values, yerr=_error_bars(values, rows[key]["cis"]), capsize=6,
               color=_COLOURS[: len(group)], alpha=0.85)
        _mark_significant(ax, rows[key], values)
        ax.set_title(f"{title} (95% interval)", fontsize=10)
        ax.set_ylabel(title.lower())
    win = rows["win_rate_position_0"]
    rates = [v or 0.0 for v in win["values"]]
    axes[2].bar(labels, rates, yerr=_error_bars(rates, win["cis"]), capsize=6, color=_COLOURS[: len(group)],
                alpha=0.85)
    axes[2].axhline(1 / group[0].seats, color="black", linestyle="--", linewidth=1, label="fair share")
    _mark_significant(axes[2], win, rates)
    axes[2].set_ylim(0, 1.25)  # room for the legend above a rate near 1
    axes[2].set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    axes[2].set_ylabel("win rate")
    axes[2].set_title("First player's win rate (95% interval)", fontsize=10)
    axes[2].legend(loc="upper right", fontsize=8)
    ax = figure.add_subplot(grid[1, :])
    height = 0.8 / len(group)
    for i in range(len(group)):
        # V1 on top of each group (the axis is inverted below)
        ys = [y + (2 * i - (len(group) - 1)) * height / 2 for y in range(len(events))]
        ax.barh(ys, [row["values"][i] or 0.0 for row in events], height=height, color=_COLOURS[i % len(_COLOURS)],
                label=f"{labels[i]}: {_wrap(group[i].experiment.name, 40)}")
    ax.set_yticks(range(len(events)),
                  [row["key"][len("event:"):] + (" *" if any(row["significant"][1:]) else "") for row in events],
                  fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("occurrences per round (mean); * marks a difference from V1 significant after Holm's correction")
    ax.set_title("Scoring events per round", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    figure.suptitle(f"Variants of {games.get(group[0].experiment.game).name} side by side (V1 is the baseline)",
                    fontsize=11)
    return _save(figure, path)


def _error_bars(values: Sequence[float], cis: Sequence[list[float] | None]) -> list[list[float]]:
    """Matplotlib's error bars (below, above) from 95% intervals (none where there is none)."""
    return [[v - ci[0] if ci else 0.0 for v, ci in zip(values, cis)],
            [ci[1] - v if ci else 0.0 for v, ci in zip(values, cis)]]


def _plot_sweep(sweep: dict[str, Any], path: Path) -> str:
    series = sweep["series"]
    figure = _figure(3.6 * len(series) + 0.4, 3.6)
    axes = figure.subplots(1, len(series), squeeze=False)[0]
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in sweep["values"])
    for ax, line in zip(axes, series):
        points = [point for point in line["points"] if point["mean"] is not None]
        # Numbers on their own scale; none, yes/no or words as evenly spaced labels.
        xs = [float(point["value"]) if numeric else float(sweep["values"].index(point["value"])) for point in points]
        ys = [point["mean"] for point in points]
        ax.errorbar(xs, ys, yerr=_error_bars(ys, [point["ci"] for point in points]), marker="o", capsize=4,
                    color="#4c72b0")
        if not numeric:
            ax.set_xticks(range(len(sweep["values"])), [str(v).lower() for v in sweep["values"]])
        if line["key"].startswith(("win_rate", "icc")):
            ax.set_ylim(0, 1)
        ax.set_xlabel(sweep["option"])
        ax.set_title(_wrap(line["metric"] + " (95% interval)", 40), fontsize=10)
        if numeric:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(f"Sweep of {sweep['option']}", fontsize=11)
    return _save(figure, path)


def _plot_depth(depth: list[dict[str, Any]], path: Path) -> str:
    figure = _figure(6.5, 3.8)
    ax = figure.subplots()
    xs = [row["budget"] for row in depth]
    rates = [row["rate"] or 0.0 for row in depth]
    ax.errorbar(xs, rates, yerr=_error_bars(rates, [row["rate_ci"] for row in depth]), marker="o", capsize=4,
                color="#c44e52", label="twice the budget wins (95% interval)")
    ax.axhline(0.5, color="black", linestyle="--", linewidth=1, label="no gain")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1)
    ax.set_xlabel("budget of the weaker search (iterations)")
    ax.set_ylabel("win rate of twice the budget")
    ax.set_title("Skill depth: does twice the search pay?", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return _save(figure, path)


def _mark_significant(ax: Axes, row: dict[str, Any], values: Sequence[float]) -> None:
    """A star over each bar that differs from the baseline significantly (Holm-adjusted p < ALPHA)."""
    for x, (value, significant) in enumerate(zip(values, row["significant"])):
        if significant:
            ax.annotate("*", (x, value), textcoords="offset points", xytext=(8, 2), fontsize=14, ha="center")


def _plot_verdicts(comparison: dict[str, Any], path: Path) -> str:
    """The verdict table at a glance: one panel a measure, each variant's change from the baseline
    with its 95% interval (filled where the verdict is a clear change), zero marked."""
    verdicts = comparison["verdicts"]
    rows = [row for row in verdicts["rows"] if any(cell is not None for cell in row["cells"][1:])]
    study = comparison["study"]
    names = [variant_name(name, study) for name in comparison["experiments"][1:]]
    columns = min(4, max(1, len(rows)))
    lines = math.ceil(len(rows) / columns)
    figure = _figure(3.2 * columns, 0.5 + lines * (0.6 + 0.35 * len(names)))
    axes = figure.subplots(lines, columns, squeeze=False)
    for ax, row in zip(axes.ravel(), rows):
        scale = 100 if row["rate"] else 1
        for y, cell in enumerate(row["cells"][1:]):
            if cell is None or cell["difference"] is None:
                continue
            x = cell["difference"] * scale
            clear = cell["verdict"] in ("up", "down", "fixed")
            if cell["ci"] is not None:
                low, high = (v * scale for v in cell["ci"])
                ax.errorbar([x], [y], xerr=[[x - low], [high - x]], fmt="o", color=_COLOURS[y % len(_COLOURS)],
                            markerfacecolor=_COLOURS[y % len(_COLOURS)] if clear else "white", capsize=3)
            else:
                ax.plot([x], [y], "o", color=_COLOURS[y % len(_COLOURS)])
        ax.axvline(0, color="#444", linewidth=0.8)
        ax.set_yticks(range(len(names)), [_wrap(name, 16) for name in names], fontsize=7)
        ax.set_ylim(len(names) - 0.5, -0.5)
        ax.set_title(_wrap(row["measure"].split(":")[0] + (" (primary)" if row["primary"] else ""), 30), fontsize=8)
        ax.set_xlabel("change, points" if row["rate"] else "change, minutes", fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
    for ax in axes.ravel()[len(rows):]:
        ax.set_visible(False)
    figure.suptitle(f"{study}: each variant against {variant_name(comparison['experiments'][0], study)} "
                    "(filled: a clear change)", fontsize=9)
    return _save(figure, path)


def draw_plots(played: Sequence[Played], numbers: dict[str, Any], out: Path) -> None:
    """Draw every plot into ``out`` and note the file names in ``numbers``."""
    for p, section in zip(played, numbers["experiments"]):
        stem = f"exp{p.experiment.id}"
        section["plots"] = {
            "scores": _plot_scores(p, out / f"{stem}-scores.png"),
            "wins": _plot_wins(p, section, out / f"{stem}-wins.png"),
            "length": _plot_lengths(p, out / f"{stem}-length.png"),
            "events": _plot_events(p, section, out / f"{stem}-events.png"),
        }
        if section["deal_vs_players"] is not None:
            section["plots"]["deal_vs_players"] = _plot_deal(p, section, out / f"{stem}-deal.png")
        if section["play"] is not None:
            section["plots"]["play"] = _plot_play(p, section["play"], out / f"{stem}-play.png")
    by_name = {p.experiment.name: p for p in played}
    for comparison in numbers["comparisons"]:
        group = [by_name[name] for name in comparison["experiments"]]
        stem = f"compare-{comparison['game']}-{group[0].experiment.id}"
        comparison["plots"] = {"comparison": _plot_comparison(group, comparison, out / f"{stem}.png")}
        if any(cell is not None for row in comparison["verdicts"]["rows"] for cell in row["cells"][1:]):
            comparison["plots"]["verdicts"] = _plot_verdicts(comparison, out / f"{stem}-verdicts.png")
        findings = comparison["findings"]
        if findings["sweep"] is not None:
            comparison["plots"]["sweep"] = _plot_sweep(findings["sweep"], out / f"{stem}-sweep.png")
        if findings["depth"] is not None:
            comparison["plots"]["depth"] = _plot_depth(findings["depth"], out / f"{stem}-depth.png")
