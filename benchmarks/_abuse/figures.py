"""The figures of ``benchmarks/web_abuse.py``: percentiles, the abuses' counts in words, the aims, the rows
and the Markdown table."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

AIM_RATIO, AIM_PING, AIM_RSS = 1.5, 0.100, 500.0
"""The aims (issue 31): p99 under abuse at most 1.5× quiet, pings under 100 ms, peak RSS under 500 MB."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def stats(values: list[float], scale: float) -> dict[str, float]:
    return {"n": len(values), "p50": percentile(values, 0.5) * scale, "p90": percentile(values, 0.9) * scale,
            "p99": percentile(values, 0.99) * scale, "max": (max(values) * scale) if values else math.nan}


def merge(tallies: list[dict[str, Any]]) -> dict[str, Any]:
    """The abuse phases' tallies in one: numbers added, counts merged, lists joined, text kept from the first."""
    out: dict[str, Any] = {}
    for tally in tallies:
        for key, value in tally.items():
            if isinstance(value, bool) or value is None or isinstance(value, str):
                out.setdefault(key, value)
                if out[key] in (None, "") and value not in (None, ""):
                    out[key] = value
            elif isinstance(value, (int, float)):
                out[key] = out.get(key, 0) + value
            elif isinstance(value, list):
                out[key] = out.get(key, []) + value
            elif isinstance(value, dict):
                out[key] = merge([out.get(key, {}), value])
    return out


def counts(found: dict[str, Any] | None) -> str:
    if not found:
        return "none"
    return ", ".join(f"{n} × {code}" for code, n in sorted(found.items()))


def median(values: list[float], unit: str = "s", digits: int = 2) -> str:
    """The median with its unit, or ``-`` when there is nothing to take it of."""
    return f"{percentile(values, 0.5):.{digits}f} {unit}" if values else "-"


def describe(scenario: str, tally: dict[str, Any], phases: list[dict[str, Any]]) -> str:
    """The abuse's own counts in a line."""
    if "error" in tally:
        return f"abuser failed: {tally['error']}"
    if scenario == "flood":
        closed = sum(tally.get("closed", {}).values())
        rate = tally.get("sent", 0) / tally["seconds"] if tally.get("seconds") else math.nan
        return (f"{tally.get('sent', 0):,} messages ({rate:,.0f}/s) over {tally.get('connections', 0):,} "
                f"connections; the server closed {closed:,} ({counts(tally.get('closed'))}), median after "
                f"{median(tally.get('lifetimes', []))}; {tally.get('refused', 0):,} connections refused; "
                f"{tally.get('rate_limited', 0):,} rate_limited answers"
                + (f"; table refused: {tally['table_refused']}" if tally.get("table_refused") else ""))
    if scenario == "bots":
        refused = sum(tally.get("refused", {}).values())
        return (f"{len(tally.get('tables', []))} bots-only tables made by {tally.get('persons', 0)} identities, "
                f"{refused} refused" + (f" ({tally.get('refusal')})" if refused else "")
                + f"; {tally.get('changes', 0):,} changes watched; {tally.get('watchers_refused', 0)} spectators "
                f"refused")
    if scenario == "tables":
        first = phases[0] if phases else {}
        after = first.get("first_refusal_after")
        return (f"{tally.get('made', 0):,} tables made in all ({first.get('made', 0):,} in the first abuse phase, "
                + (f"refused first after {after:,} tables and {first.get('first_refusal_seconds', 0):.1f} s: "
                   f"{first.get('refusal', '')}" if after is not None else "never refused")
                + f"); {sum(tally.get('refused', {}).values()):,} refusals ({counts(tally.get('refused'))})")
    if scenario == "replay":
        answered = tally.get("answered", 0)
        size = f"{tally.get('bytes', 0) / answered / 1e6:.0f} MB" if answered else "-"
        cut = tally.get("unfinished", 0)
        return (f"{answered} of {tally.get('requests', 0)} replays answered ({size} each, median "
                f"{median(tally.get('times', []), digits=1)}), refused {counts(tally.get('refused'))}"
                + "".join(f" ({text})" for _code, text in sorted(tally.get("refusals", {}).items()))
                + f", {cut} cut off unanswered at a phase's end"
                + (f" (after {median(tally.get('cut_after', []), digits=1)} in the median)" if cut else "")
                + f", {tally.get('errors', 0)} errors; the record "
                f"{tally.get('record_bytes', 0) / 1000 / max(1, len(phases)):.0f} kB")
    if scenario == "starve":
        made = len(tally.get("tables", []))
        return (f"{made} tables made ({counts(tally.get('refused'))} refused"
                + (f": {tally.get('refusal')}" if tally.get("refusal") else "")
                + f"); {tally.get('timer_changes', 0):,} changes at the timer tables; hints: "
                f"{tally.get('hints', 0):,} answered of {tally.get('hints_asked', 0):,} asked (median "
                f"{median(tally.get('hint_times', []))}), errors {counts(tally.get('errors'))}; "
                f"{tally.get('tabs', 0)} tabs, closed {counts(tally.get('tabs_closed'))}, refused "
                f"{tally.get('tabs_refused', 0)}")
    if scenario == "paced":
        parts = []
        for kind, name in (("messages", "message sockets"), ("bytes", "1 MB-frame sockets")):
            one = tally.get(kind, {})
            closed = sum(one.get("closed", {}).values())
            parts.append(f"{name}: the server closed {closed} of {one.get('connections', 0)} connections "
                         f"({counts(one.get('closed'))}), median after {median(one.get('lifetimes', []))}, "
                         f"{one.get('refused', 0)} refused; {one.get('sent', 0):,} sent"
                         + (f" ({one.get('bytes', 0) / 1e9:.2f} GB)" if kind == "bytes" else
                            f", {one.get('rate_limited', 0):,} rate_limited"))
        if tally.get("table_refused"):
            parts.append(f"table refused: {tally['table_refused']}")
        return "; ".join(parts)
    if scenario == "swarm":
        closed = sum(tally.get("closed", {}).values())
        opened_in = [p["open_seconds"] for p in phases if p.get("open_seconds") is not None]
        tried = tally.get("opened", 0) + sum(tally.get("refused", {}).values())
        return (f"{tally.get('opened', 0)} spectators opened of {tried} tried"
                + (f" (all tried within {max(opened_in):.1f} s)" if opened_in else "")
                + f", refused {counts(tally.get('refused'))}; the server closed {closed} "
                f"({counts(tally.get('closed'))}); {tally.get('received', 0):,} messages, "
                f"{tally.get('bytes', 0) / 1e6:.0f} MB to the swarm")
    return json.dumps(tally)[:300]


def aims(out: dict[str, Any]) -> dict[str, bool]:
    ping, reply = out["ping_ms"], out["reply_s"]
    return {
        "ping": ping["abuse"]["p99"] <= AIM_RATIO * ping["quiet"]["p99"] and ping["abuse"]["p99"] < AIM_PING * 1000,
        "bot": reply["abuse"]["p99"] <= AIM_RATIO * reply["quiet"]["p99"],
        "rss": out["rss_mb"]["abuse"] < AIM_RSS,
        "new person": all(n["served"] for n in out["new_person"]["abuse"]) and bool(out["new_person"]["abuse"]),
    }


def ratio(quiet: float, abused: float) -> str:
    return f"{abused / quiet:.2f}×" if quiet > 0 and not math.isnan(quiet) and not math.isnan(abused) else "-"


def served(newcomers: list[dict[str, Any]]) -> str:
    if not newcomers:
        return "-"
    ok = [n for n in newcomers if n["served"]]
    slowest = max(n["seconds"] for n in ok) if ok else None
    if len(ok) == len(newcomers):
        return f"yes ({len(ok)}/{len(newcomers)}, ≤ {slowest:.1f} s)"
    failed = next(n for n in newcomers if not n["served"])
    return f"no ({len(ok)}/{len(newcomers)}; {failed['step']}: {failed['detail'][:90]})"


def cells(out: dict[str, Any]) -> list[str]:
    """A scenario's row: scenario, ping, bot reply, RSS, new person, aims, abuse."""
    if "failed" in out:
        return [out["scenario"], "-", "-", "-", "-", "-", f"failed: {out['failed'][:200]}"]
    ping, reply, rss = out["ping_ms"], out["reply_s"], out["rss_mb"]
    met = out["aims"]
    return [
        out["scenario"],
        f"{ping['quiet']['p50']:.1f}/{ping['quiet']['p99']:.1f} → {ping['abuse']['p50']:.1f}/{ping['abuse']['p99']:.1f}"
        f" ({ratio(ping['quiet']['p99'], ping['abuse']['p99'])})",
        f"{reply['quiet']['p50']:.2f}/{reply['quiet']['p99']:.2f} → {reply['abuse']['p50']:.2f}/"
        f"{reply['abuse']['p99']:.2f} ({ratio(reply['quiet']['p99'], reply['abuse']['p99'])})",
        f"{rss['quiet']:.0f} → {rss['abuse']:.0f}",
        f"{served(out['new_person']['quiet'])} / {served(out['new_person']['abuse'])}",
        ", ".join(f"{name} {'✓' if ok else '✗'}" for name, ok in met.items()),
        out["abuse_summary"],
    ]


HEAD = ["scenario", "ping p50/p99 ms quiet → abuse (p99 ×)", "bot reply p50/p99 s quiet → abuse (p99 ×)",
        "peak RSS MB quiet → abuse", "new person served quiet / abuse", "aims", "abuse"]


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "|".join("---" for _ in HEAD) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def report(out: dict[str, Any], command: list[str]) -> None:
    """One scenario's figures, as soon as it is over."""
    print(f"\n## {out['scenario']}  ({' '.join(command[1:])})")
    print(markdown([cells(out)]))
    if "failed" in out:
        return
    ping, reply = out["ping_ms"], out["reply_s"]
    rss = out["rss_mb"]
    print(f"  pings: {ping['quiet']['n']} quiet / {ping['abuse']['n']} under abuse; under abuse p90 "
          f"{ping['abuse']['p90']:.1f} ms, max {ping['abuse']['max']:.1f} ms (quiet max {ping['quiet']['max']:.1f}); "
          f"without pong {out['pings_lost']['quiet']} / {out['pings_lost']['abuse']}")
    print(f"  bot replies: {reply['quiet']['n']} quiet / {reply['abuse']['n']} under abuse; max "
          f"{reply['quiet']['max']:.2f} / {reply['abuse']['max']:.2f} s; victims' tables {out['victim_tables']}, "
          f"errors {counts(out['victim_errors'])}")
    print(f"  peak RSS: server VmHWM {rss['server_hwm_quiet']:.0f} MB after the first quiet phase, "
          f"{rss['server_hwm_end']:.0f} MB at the end; its children's RSS summed, the most sampled (0.2 s) "
          f"{rss['children_max_quiet']:.0f} MB quiet, {rss['children_max_abuse']:.0f} MB under abuse; sampled "
          f"server + children at most {rss['sampled_total_max_quiet']:.0f} / {rss['sampled_total_max_abuse']:.0f} MB")
    print(f"  abuse: {out['abuse_summary']}")
    print("  after each abuse phase, until the server was idle again: " + ", ".join(
        f"{s['seconds']:.1f} s" + (f" ({s['live']:.0f} of the abuser's tables still live, the server using "
                                   f"{s['busy'] * 100:.0f}% of a core)" if s["live"] or s["busy"] >= 0.1 else "")
        for s in out["settle"]))
    shares = out["cpu_share"]
    print("  CPU, share of one core (server loop / people's bot pool / niced bots-only worker / abuser): quiet "
          + " / ".join(f"{shares['quiet'][p] * 100:3.0f}%" for p in ("server", "pool", "niced"))
          + "; under abuse " + " / ".join(f"{shares['abuse'][p] * 100:3.0f}%"
                                          for p in ("server", "pool", "niced", "abuser")))
    sys.stdout.flush()
