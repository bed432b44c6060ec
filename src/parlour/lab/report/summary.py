"""The summary: a few plain sentences, first in the report, on what is significant and what is not.
"""

from __future__ import annotations

from typing import Any

from parlour.lab.report.compare import FIRST_WINS
from parlour.lab.report.experiment import IDENTICAL_LIMIT
from parlour.lab.report.text import change_text, value_text, whole_pct


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
        ci = first.get("ci")
        interval = "" if not ci or ci[0] is None else f" ({whole_pct(ci[0])}–{whole_pct(ci[1])})"
        parts.append(f"the deal decides {whole_pct(first['icc'])}{interval} of the first player's margin")
    play = section["play"]
    if play is not None and play["real_choices"]["share"] is not None:
        parts.append(f"{whole_pct(play['real_choices']['share'])} of decisions are real choices (the best move "
                     f"{play['real_gap']:g}+ points ahead)")
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


def _findings_summary(findings: dict[str, Any]) -> list[str]:
    """Sentences for what a study's shape answers (see :func:`study_findings`)."""
    lines = []
    sweep = findings["sweep"]
    if sweep is not None:
        first = sweep["series"][0]["points"]
        known = [point for point in first if point["mean"] is not None]
        if known:
            lines.append(f"Sweeping {sweep['option']} from {known[0]['value']} to {known[-1]['value']}, the first "
                         f"player's win rate goes from {whole_pct(known[0]['mean'])} to {whole_pct(known[-1]['mean'])} "
                         "(each value against the baseline is tested in the comparison).")
    luck = findings["luck"]
    if luck is not None:
        parts = [f"{row['bots']}: {whole_pct(row['icc'])}" + (
            "" if row["ci"] is None else f" ({whole_pct(row['ci'][0])}–{whole_pct(row['ci'][1])})") for row in luck]
        lines.append("The share of the first player's margin that the deal decides, by bots: " + "; ".join(parts) + ".")
    depth = findings["depth"]
    if depth is not None:
        stops = next((row["budget"] for row in depth if not row["pays"]), None)
        lines.append("Twice the search wins " + "; ".join(
            f"{whole_pct(row['rate'])} at {row['budget']} iterations" for row in depth) + ": " + (
            f"doubling stops paying clearly from {stops} iterations." if stops is not None else
            "every doubling tried still pays."))
    matters = findings["matters"]
    if matters is not None:
        costly = [row for row in matters if row["significant"]]
        free = [row["kind"] for row in matters if not row["significant"]]
        for row in costly:
            how = "barred from" if row["how"] == "without" else "bound to"
            lines.append(f"A bot {how} '{row['kind']}' wins {whole_pct(row['rate'])} against unrestricted copies "
                         f"({change_text('win_rate', row['gap'])} against a fair share; Holm-adjusted p = "
                         f"{row['p_adjusted']:.3g}).")
        if free:
            lines.append("No measurable effect of restricting: " + ", ".join(f"'{kind}'" for kind in free) + ".")
    return lines


def summary(numbers: dict[str, Any]) -> list[str]:
    """A few plain sentences, first in the report: what is significant and what is not."""
    lines, even = [], []
    for section in numbers["experiments"]:
        if not section["matches"]:
            continue
        first = section["wins"]["by_position"][0]
        fair = section["wins"]["fair_share"]
        low, high = first["ci"]
        figures = f"{whole_pct(first['rate'])}, 95% interval {whole_pct(low)}–{whole_pct(high)}"
        if low > fair or high < fair:
            side = "an advantage to" if low > fair else "a disadvantage to"
            lines.append(f"{section['name']} ({section['bots']}; {section['units']} {section['unit']}): {side} the "
                         f"first player, who wins {figures} against a fair {whole_pct(fair)}.")
        else:
            even.append(f"{section['name']} ({figures})")
        deal = section["deal_vs_players"]
        if deal is not None and deal["warning"] and deal["identical_share"] > IDENTICAL_LIMIT:
            lines.append(f"{section['name']}: {deal['warning']}")
        lines.append(_questions(section))
    if even:
        lines.append("No clear advantage to either seat (the first player's 95% interval holds the fair share) in: "
                     + "; ".join(even) + ".")
    for comparison in numbers["comparisons"]:
        names = comparison["experiments"]
        base = names[0]
        found, quiet = [], []
        for row in comparison["metrics"]:
            for i in range(1, len(names)):
                if row["significant"][i]:
                    change = row["differences"][i]
                    ci = change["ci"]
                    interval = "" if ci is None else (
                        f", 95% interval {change_text(row['key'], ci[0])} to {change_text(row['key'], ci[1])}")
                    key = row["key"]
                    found.append(f"{names[i]} changes {row['metric'].lower()} from {value_text(key, row['values'][0])} "
                                 f"to {value_text(key, row['values'][i])} ({change_text(key, change['difference'])}"
                                 f"{interval}; {row['tests'][i]}, p = {row['p_adjusted'][i]:.3g} after Holm's "
                                 "correction).")
            if not any(row["significant"][1:]):
                quiet.append(row["metric"].lower())
        study = comparison["study"]
        lines.append(f"Study {study!r}: {len(names) - 1} variant(s) against the baseline {base}, "
                     f"{comparison['tests_made']} tests in all, corrected together (Holm).")
        if not comparison["same_bots"] and not about_bots(comparison):
            lines.append(f"Study {study!r}: the variants were not all played by the same bots "
                         f"({'; '.join(dict.fromkeys(comparison['bots']))}): a difference may come from the bots, "
                         "not the rules.")
        lines += found or [f"Study {study!r}: no variant differs significantly from {base} in any measure."]
        if found and quiet:
            lines.append(f"No significant change in: {'; '.join(quiet)}.")
        first = next(row for row in comparison["metrics"] if row["key"] == FIRST_WINS.key)
        smallest = comparison["smallest_difference"]
        for i in range(1, len(names)):
            stop = first["stop"][i]
            if stop["verdict"] == "enough":
                lines.append(f"{names[i]}: the first player's win rate is within ±{smallest:.0%} of the baseline's; "
                             "more deals would not change the conclusion.")
            elif stop["verdict"] == "more":
                more = "more" if stop["more"] is None else f"about {stop['more']} more"
                lines.append(f"{names[i]}: not yet told apart from the baseline on the first player's win rate; "
                             f"{more} {comparison['unit']} of each would tell apart a difference of "
                             f"{smallest * 100:.0f} points.")
        lines += _findings_summary(comparison["findings"])
    for ladder in numbers["ladders"]:
        lines.append(f"Skill against chance in {ladder['game_name']} (the ladder's pairings): " + "; ".join(
            f"{row['stronger']} beats {row['weaker']} {whole_pct(row['rate'])} of matches"
            + ("" if row["elo"] is None else f" ({row['elo']:+.0f} Elo)") for row in ladder["pairings"]) + ".")
    if numbers["uncompared"] and len(numbers["experiments"]) > 1:
        lines.append("Experiments run one by one (not from one plan) are not compared with each other: run the "
                     "variants from one plan, a study, to compare them on the same deals.")
    return lines
