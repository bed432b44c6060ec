"""The summary: a few plain sentences, first in the report, on what is significant and what is not.
"""

from __future__ import annotations

from typing import Any

from parlour.lab.report.experiment import IDENTICAL_LIMIT
from parlour.lab.report.text import (
    change_interval,
    change_text,
    measure_change,
    measure_size,
    measure_text,
    variant_name,
    whole_pct,
)
from parlour.lab.stats import POWER


def _questions(section: dict[str, Any]) -> str:
    """One sentence on how long a match takes, how much the deal decides, how many decisions
    are real choices, and what went wrong, for one experiment."""
    duration = section["duration"]
    parts = [f"a match takes a median of {duration['minutes']['median']:.0f} minutes at "
             f"{duration['seconds_per_move']:g} s a move"]
    target = duration["target"]
    if target is not None:
        low, high = target["minutes"]
        parts[-1] += f" ({whole_pct(target['within']['rate'])} of matches within {low:g}–{high:g} minutes)"
    deal = section["deal_vs_players"]
    first = None if deal is None else deal["by_position"][0]
    if first is not None and first["icc"] is not None:
        parts.append(f"the deal decides {luck_text(first['icc'], first.get('icc_raw'), first.get('ci'))} of the "
                     f"first player's margin ({section['bots']})")
    play = section["play"]
    if play is not None and play["real_choices"]["share"] is not None:
        parts.append(f"{whole_pct(play['real_choices']['share'])} of decisions are real choices (the best move "
                     f"ahead by a fifth of the typical spread of move values)")
        decided = play["decided_at"]["median"]
        if decided is not None:
            parts.append(f"a round's winner leads for good from {whole_pct(decided)} of the way in (median)")
    troubles = [f"{item['count']} {item['what']}" for item in section["anomalies"]
                if item["key"] != "longest" and item["count"]]
    parts.append("anomalies: " + "; ".join(troubles) if troubles else "no stalls or capped matches")
    return f"{section['name']}: " + "; ".join(parts) + "."


def about_bots(comparison: dict[str, Any]) -> bool:
    """Whether a study varies the bots on purpose (deal luck, skill depth, restricted play)."""
    findings = comparison.get("findings", {})
    return any(findings.get(key) is not None for key in ("luck", "depth", "matters"))


def _findings_summary(comparison: dict[str, Any]) -> list[str]:
    """Sentences for what a study's shape answers (see :func:`study_findings`), each "no" with the
    smallest effect it could have seen."""
    findings = comparison["findings"]
    unit = comparison["unit"]
    lines = []
    sweep = findings["sweep"]
    if sweep is not None:
        first = sweep["series"][0]["points"]
        known = [point for point in first if point["mean"] is not None]
        if known:
            lines.append(f"Sweeping {sweep['option']} from {known[0]['value']} to {known[-1]['value']}, the first "
                         f"player's win rate goes from {whole_pct(known[0]['mean'])} to {whole_pct(known[-1]['mean'])} "
                         "(each value against the baseline is in the verdict table)." + _fair_at(sweep))
    luck = findings["luck"]
    if luck is not None:
        parts = [f"{row['bots']}: {luck_text(row['icc'], row.get('icc_raw'), row['ci'])}" for row in luck]
        lines.append("The share of the first player's margin that the deal decides, by bots: " + "; ".join(parts) + ".")
        row = next((row for row in comparison["verdicts"]["rows"] if row["key"] == "luck"), None)
        if row is not None:
            names = comparison["experiments"]
            told = []
            for i in range(1, len(names)):
                cell = row["cells"][i]
                if cell is None:
                    continue
                told.append(f"{comparison['bots'][i]} against {comparison['bots'][0]}: " + cell_sentence(
                    row, cell, row["values"][0]["value"] if row["values"][0] else None,
                    row["values"][i]["value"] if row["values"][i] else None, unit))
            if told:
                lines.append("Does the deal decide more or less as the bots change? " + "; ".join(told) + ".")
    depth = findings["depth"]
    if depth is not None:
        pays = [row["budget"] for row in depth if row["verdict"] == "pays"]
        stops = next((row for row in depth if row["verdict"] == "stops"), None)
        unsure = next((row for row in depth if row["verdict"] == "too_few"), None)
        text = "Twice the search wins " + "; ".join(
            f"{whole_pct(row['rate'])} ({_interval(row['rate_ci'])}) at {row['budget']} iterations" for row in depth)
        if stops is not None:
            text += (f": doubling stops paying from {stops['budget']} iterations (no clear gain, and the study could "
                     f"have seen ±{whole_pct(stops['power']['detectable'])[:-1]} points).")
        elif unsure is not None:
            needed = unsure["power"]["needed"]
            text += (f": too few {unit} to say whether doubling still pays from {unsure['budget']} iterations "
                     f"(it could see only a gain of {whole_pct(unsure['power']['detectable'])[:-1]} points"
                     + ("" if needed is None else f"; about {needed:,} {unit} would see 5 points") + ").")
        elif pays:
            text += ": every doubling tried still pays."
        lines.append(text)
    matters = findings["matters"]
    if matters is not None:
        for row in matters:
            how = "barred from" if row["how"] == "without" else "bound to"
            if row["verdict"] in ("costs", "helps"):
                lines.append(f"A bot {how} '{row['kind']}' wins {whole_pct(row['rate'])} against unrestricted copies "
                             f"({change_text('win_rate', row['gap'])} against a fair share; Holm-adjusted p = "
                             f"{row['p_adjusted']:.3g}).")
        free = [f"'{row['kind']}' (could have seen ±{whole_pct(row['power']['detectable'])[:-1]} points)"
                for row in matters if row["verdict"] == "none"]
        unsure_kinds = [f"'{row['kind']}' (could see only ±{whole_pct(row['power']['detectable'])[:-1]} points"
                        + ("" if row["power"]["needed"] is None else
                           f"; about {row['power']['needed']:,} {unit} would see 5") + ")"
                        for row in matters if row["verdict"] == "too_few"]
        if free:
            lines.append("No effect worth having from restricting: " + ", ".join(free) + ".")
        if unsure_kinds:
            lines.append(f"Too few {unit} to say what restricting these costs: " + ", ".join(unsure_kinds) + ".")
    return lines


def _fair_at(sweep: dict[str, Any]) -> str:
    """Where a sweep evens out the seats, as a sentence."""
    found = sweep.get("fair_at")
    if found is None:
        return ""
    low, high = found["between"]
    holds = ", ".join(str(v) for v in found["holds"]) or "none of the values tried"
    return (f" The first player's rate reaches a fair {whole_pct(found['fair_share'])} at {sweep['option']} ≈ "
            f"{found['value']:.3g} (between {low} and {high}); the values whose interval holds it: {holds}.")


def compensation_sentence(found: dict[str, Any] | None) -> str:
    """The points that would even out the first player's edge, with their interval, as a sentence
    (empty when there is nothing to say: no matches, or results not decided on totals)."""
    if found is None or found["points"] == 0:
        return ""
    given = found["points"]
    ci = found["ci"]
    interval = ""
    if ci is not None:
        low = "…" if ci[0] is None else f"{ci[0]:+g}"
        high = "…" if ci[1] is None else f"{ci[1]:+g}"
        interval = f" (95% interval {low} to {high})"
    who = "given to" if given > 0 else "taken from"
    return (f" {abs(given):g} points {who} the first player{interval} would bring the rate to "
            f"{found['rate']:.1%}.")


def _interval(ci: list[float] | None) -> str:
    return "—" if ci is None else f"{whole_pct(ci[0])}–{whole_pct(ci[1])}"


def luck_text(icc: float | None, raw: float | None, ci: list[float] | None) -> str:
    """How much the deal decides, honest at the edges: an estimate below zero is "too little to
    measure", with the interval's top as the most it could be."""
    if icc is None:
        return "not given"
    if raw is not None and raw < 0:
        top = None if ci is None else ci[1]
        return ("too little to measure" + ("" if top is None else
                                           f" (at most {whole_pct(top)})" if top > 0 else " (no sign of any)"))
    return whole_pct(icc) + ("" if ci is None or ci[0] is None else f" ({_interval(ci)})")


def cell_sentence(row: dict[str, Any], cell: dict[str, Any], base: float | None, value: float | None,
                  unit: str) -> str:
    """One verdict in words, with its figures and, for a "no", its power."""
    rate = row["rate"]
    figures = (f"{measure_text(rate, base)} → {measure_text(rate, value)}, {measure_change(rate, cell['difference'])}"
               f"{change_interval(rate, cell['ci'])}")
    power = cell["power"]
    verdict = cell["verdict"]
    if verdict in ("up", "down"):
        return f"{cell['text']} ({figures}; {cell['test']}, Holm-adjusted p = {cell['p_adjusted']:.2g})"
    if verdict == "fixed":
        return f"fixed by the rules ({measure_change(rate, cell['difference'])} in every one of the {unit})"
    if verdict == "none":
        return (f"no clear change ({figures}); the study could have seen {measure_size(rate, power['detectable'])} "
                f"with {POWER_WORD} power")
    if verdict == "too_few":
        more = None if cell.get("stop") is None else cell["stop"]["more"]
        needed = ("" if power["needed"] is None else
                  f"; about {more:,} more {unit} of each would see {measure_size(rate, power['smallest'])}"
                  if more else f"; about {power['needed']:,} {unit} would see {measure_size(rate, power['smallest'])}")
        return (f"too few {unit} to say ({figures}): it could see only {measure_size(rate, power['detectable'])} "
                f"with {POWER_WORD} power{needed}")
    return f"{cell['text']} ({figures})"


POWER_WORD = f"{POWER:.0%}"
"""The power every "no" is stated at (:data:`parlour.lab.stats.POWER`), in words."""


def verdict_sentences(comparison: dict[str, Any]) -> list[str]:
    """The verdict table in a few sentences: the primary question variant by variant with its stop
    rule, then the other measures' clear changes and those with none."""
    verdicts = comparison["verdicts"]
    names = comparison["experiments"]
    study = comparison["study"]
    unit = verdicts["unit"]
    lines = []
    rows = verdicts["rows"]
    primary = next((row for row in rows if row["primary"]), None)
    if primary is not None:
        label = primary["measure"].split(":")[0].lower()
        parts = []
        for i in range(1, len(names)):
            cell = primary["cells"][i]
            if cell is None:
                continue
            value = primary["values"][i]
            text = cell_sentence(primary, cell, primary["values"][0]["value"] if primary["values"][0] else None,
                                 None if value is None else value["value"], unit)
            stop = cell["stop"]
            if stop["verdict"] == "more" and stop["more"] is not None and cell["verdict"] == "none":
                text += f"; about {stop['more']:,} more {unit} of each would settle it"
            elif stop["verdict"] == "enough":
                size = measure_size(primary["rate"], primary["smallest"])
                text += f"; more {unit} would not change the answer (any change is within {size})"
            parts.append(f"{variant_name(names[i], study)}: {text}")
        lines.append(f"Study {study!r} asks about {label} (its primary question, tested on its own against "
                     f"{variant_name(names[0], study)}): " + "; ".join(parts) + ".")
    lines += seat_edges(comparison)
    clear, quiet = [], []
    for row in rows:
        if row["primary"]:
            continue
        for i in range(1, len(names)):
            cell = row["cells"][i]
            if cell is None:
                continue
            if cell["verdict"] in ("up", "down"):
                base, value = row["values"][0], row["values"][i]
                clear.append(f"{variant_name(names[i], study)}: " + cell_sentence(
                    row, cell, None if base is None else base["value"], None if value is None else value["value"],
                    unit))
            elif cell["verdict"] in ("none", "too_few"):
                quiet.append(f"{row['measure'].split(':')[0].lower()} in {variant_name(names[i], study)} ("
                             + ("could have seen " if cell["verdict"] == "none" else "could see only ")
                             + measure_size(row["rate"], cell["power"]["detectable"]) + ")")
    if clear:
        lines.append(f"Study {study!r}, the other measures (corrected together, Holm): " + "; ".join(clear) + ".")
    if quiet:
        lines.append(f"Study {study!r}, no clear change in: " + "; ".join(quiet) + ".")
    robust = verdicts.get("robust")
    if robust is not None:
        changed = [f"{row['key']} ({variant_name(names[i], study)})" for row in robust["rows"]
                   for i, cell in enumerate(row["cells"]) if cell is not None and not cell["holds"]]
        lines.append(f"Study {study!r} at {robust['how']} ({robust['study']}): " + (
            "every verdict holds." if not changed else "these verdicts change: " + ", ".join(changed)
            + " — they depend on how the bots play as much as on the rules."))
    if not comparison["same_bots"] and not about_bots(comparison):
        lines.append(f"Study {study!r}: the variants were not all played by the same bots "
                     f"({'; '.join(dict.fromkeys(comparison['bots']))}): a difference may come from the bots, "
                     "not the rules.")
    return lines


def seat_edges(comparison: dict[str, Any]) -> list[str]:
    """A sentence for each variant whose first player's 95% interval misses the fair share, with the
    points that would even it out (:mod:`~parlour.lab.report.compensation`)."""
    verdicts = comparison["verdicts"]
    seats = next((row for row in verdicts["rows"] if row["key"] == "first_player"), None)
    lines = []
    for i, name in enumerate(comparison["experiments"]):
        value = None if seats is None else seats["values"][i]
        fair = verdicts["fair_share"]
        if value is None or value["ci"] is None or value["ci"][0] <= fair <= value["ci"][1]:
            continue
        side = "favours" if value["value"] > fair else "is unfair to"
        who = variant_name(name, comparison["study"])
        lines.append(f"{who} {side} the first player ({whole_pct(value['value'])}, 95% interval "
                     f"{_interval(value['ci'])})." + compensation_sentence(comparison["compensation"][i]))
    return lines



def summary(numbers: dict[str, Any]) -> list[str]:
    """A few plain sentences, first in the report: what is significant and what is not."""
    lines: list[str] = []
    for section in numbers["experiments"]:
        deal = section["deal_vs_players"]
        if deal is not None and deal["warning"] and deal["identical_share"] > IDENTICAL_LIMIT:
            lines.append(f"{section['name']}: {deal['warning']}")
        note = section["wins"].get("seats_note")
        if note:
            lines.append(f"{section['name']}: {note}")
    compared = {name for comparison in numbers["comparisons"] for name in comparison["experiments"]}
    even = []
    for section in numbers["experiments"]:
        if not section["matches"] or section["name"] in compared:
            continue  # a study's variants are told in its verdicts
        first = section["wins"]["by_position"][0]
        fair = section["wins"]["fair_share"]
        low, high = first["ci"]
        figures = f"{whole_pct(first['rate'])}, 95% interval {whole_pct(low)}–{whole_pct(high)}"
        if low > fair or high < fair:
            side = "an advantage to" if low > fair else "a disadvantage to"
            lines.append(f"{section['name']} ({section['bots']}; {section['units']} {section['unit']}): {side} the "
                         f"first player, who wins {figures} against a fair {whole_pct(fair)}."
                         + compensation_sentence(section.get("compensation")))
        else:
            even.append(f"{section['name']} ({figures})")
        lines.append(_questions(section))
    if even:
        lines.append("No clear advantage to either seat (the first player's 95% interval holds the fair share) in: "
                     + "; ".join(even) + ".")
    for comparison in numbers["comparisons"]:
        own = comparison["findings"]["matters"] is not None or comparison["findings"]["depth"] is not None
        if own:  # restricted play and skill depth lead with their own verdicts
            lines += _findings_summary(comparison)
        lines += verdict_sentences(comparison)
        if not own:
            lines += _findings_summary(comparison)
        explored = [f"{row['metric'].lower()} ({variant_name(comparison['experiments'][i], comparison['study'])})"
                    for row in comparison["metrics"] for i in range(1, len(comparison["experiments"]))
                    if row["family"][i] == "exploratory" and row["significant"][i]]
        if explored:
            more = f"; and {len(explored) - 6} more (see the detailed table)" if len(explored) > 6 else ""
            lines.append(f"Study {comparison['study']!r}, exploratory (the detailed table's {comparison['tests_made']} "
                         "tests, corrected together): clear changes in " + "; ".join(explored[:6]) + more + ".")
    for ladder in numbers["ladders"]:
        lines.append(f"Skill against chance in {ladder['game_name']} (the ladder's pairings): " + "; ".join(
            f"{row['stronger']} beats {row['weaker']} {whole_pct(row['rate'])} of matches"
            + ("" if row["elo"] is None else f" ({row['elo']:+.0f} Elo)") for row in ladder["pairings"]) + ".")
    if numbers["uncompared"] and len(numbers["experiments"]) > 1:
        lines.append("Experiments run one by one (not from one plan) are not compared with each other: run the "
                     "variants from one plan, a study, to compare them on the same deals.")
    return lines
