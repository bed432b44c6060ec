"""What the report's page says, block by block: each experiment's section, each study's comparison and
findings, the ladders, each with the explanation a designer reads beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour import games
from parlour.lab.report.load import position_name
from parlour.lab.report.markup import Block, Cell, Contents, Heading, Image, Link, List, Table, Text
from parlour.lab.report.summary import POWER_WORD, about_bots, luck_text, seat_edges
from parlour.lab.report.text import (
    change_interval,
    change_text,
    ci_text,
    frequency,
    measure_change,
    measure_interval,
    measure_size,
    measure_text,
    num,
    p_text,
    percent,
    variant_name,
)

_EXPLAIN = {
    "scores": (
        "Each match's final total for every seat. A seat is a place at the table; a position counts from the "
        "seat that played first in round 1 (the first player). Wide spreads mean swingy matches; a gap between "
        "positions means moving first (or last) is worth points."
    ),
    "wins": (
        "The share of matches won. A tie for the best total shares the win: each of k tied seats gets 1/k. "
        "The 95% interval holds the true rate 19 times out of 20. It is counted over independent results: "
        "over matches (Wilson's interval) when every match has its own deal, over deals (Student's t over "
        "each deal's mean) when every deal is played in every seating, since those seatings share their "
        "cards and are not independent. In a fair game every position wins 1/n of the time; a first-player "
        "interval that stays clear of that line is a first-player advantage worth fixing (or compensating). "
        "With two players the edge is also given in Elo points: the rating gap that would give the same "
        "win rate between players."
    ),
    "players": (
        "Win rate and mean score margin (own total minus the others' mean) of each player. When the bots are "
        "identical, any gap here is noise — a check on the numbers above."
    ),
    "length": (
        "How long play lasts: moves per round (every move the game's notation writes counts), rounds per match "
        "(always 1 for single-round experiments) and moves per match, with the 95% interval of each mean. "
        "Long tails point at rounds that drag."
    ),
    "events": (
        "How often each thing the rules name happens: the mean number of occurrences per round with its 95% "
        "interval, and the share of rounds where it happens at least once. A bonus that almost never fires is "
        "a rule that hardly matters. Things that happen the same number of times in every round are part of "
        "the rules' clockwork, not of play: they are listed once, below the table."
    ),
    "endings": (
        "How rounds end, judged from their events. Many stall endings mean players stop drawing new cards."
    ),
    "deal": (
        "In duplicate play every deal is played again in every seating, so the same cards are played by "
        "different players. For each position the score margin (own total minus the others' mean) varies "
        "between deals — the cards — and within a deal — who sat there and how they played. The intraclass "
        "correlation ICC = (MSB − MSW) / (MSB + (k − 1)·MSW) is the share that the deal decides; 1 − ICC is "
        "the share left to the players and their play. Near 1, the cards decide the result whoever holds "
        "them; near 0, the play does. With identical bots, 'the players' means the chance in their play, so "
        "run this with the bot strengths whose luck you want to know. The ICC's 95% interval is Shrout and "
        "Fleiss's, from the F distribution. If the bots play a deal the same way in every seating, its "
        "seatings are copies and say nothing about luck: the report then warns and gives no ICC. Below: each "
        "player's mean margin over the deals, with its 95% interval."
    ),
    "duration": (
        "How long a match takes people, at {seconds} seconds a move (set it with --seconds-per-move), with the "
        "95% interval of the mean; against the designer's target range when one is given (--target-minutes)."
    ),
    "play": (
        "Read by replaying {sample} of the {of} matches (spread evenly over them) move by move. A decision "
        "is a real one when the best move is at least {gap} point(s) of expected round score ahead of the "
        "second-best. Each kind of move is "
        "named as the game names it; 'chosen when offered' is how often a move of that kind was made when it "
        "was among several legal moves. The leader is the seat the evaluation expects to score most in the "
        "round: lead changes count how often that changes, 'decided at' is how far into a round the eventual "
        "winner took the lead for good, and the last table gives, at each stage of a round, how often a seat "
        "that was behind then went on to win the round (intervals over seat-rounds, Wilson's). A round "
        "decided early with few comebacks is one whose end is played out, not contested."
    ),
    "judge_advice": (
        "Positions and moves are judged by the game's heuristic evaluation, each move one move ahead on the "
        "cards as they lie: quick, but it sees the hidden cards, so it is the advice's judgement and not only "
        "what the mover knew (--judge search reads each position by a search from the mover's own view)."
    ),
    "judge_search": (
        "Positions and moves are judged by an IS-MCTS search from the mover's own view ({iterations} "
        "iterations a decision, heuristic rollouts): the leader is the mover when it expects to outscore the "
        "others (with two players, the other seat when it expects less), and the gap is between the search's "
        "best move and the best other it looked at seriously."
    ),
    "anomalies": (
        "Things a designer should look at, each with an example match written beside this report: open it "
        "with 'parlour replay FILE', or in the browser on the replay page of 'parlour serve' (Replay, then "
        "the file). Rounds ended by a stall rule are play that went round in circles; a match stopped at the "
        "limit on rounds never reached the rules' own end."
    ),
    "sweep": (
        "One variant for each value of the option, played on the same deals by the same bots: the main "
        "measures against the value, each with its 95% interval (the differences from the baseline and "
        "their tests are in the table above)."
    ),
    "luck": (
        "The same rules played on duplicate deals by copies of one bot, for several bots: the share of the "
        "first player's score margin that the deal decides (ICC, with its 95% interval), labelled with the bots "
        "and their slips, since luck is not a property of the rules alone: it moves with how well, and how "
        "steadily, the players play (Goodman, Perez-Liebana and Lucas, 'Seeding for success'). Whether it "
        "rises or falls with the bots' strength is in the verdict table (deal luck, each level against the "
        "first, by the jackknife over the shared deals). An estimate below zero means the deal decides too "
        "little to measure."
    ),
    "depth": (
        "A search with twice the budget against the same search with the budget, as the budget doubles "
        "(Ludii's SkillTrace): while twice the search still wins clearly more than half, more thinking pays "
        "and the game has depth left; where the 95% interval reaches a fair share, doubling stops paying."
    ),
    "matters": (
        "Restricted play (Jaffe and others, AIIDE 2012): a bot barred from a kind of move (or bound to play it "
        "whenever it can) against unrestricted copies of itself, on duplicate deals. A kind whose barring "
        "costs nothing measurable is one the game could do without; one whose barring costs much carries "
        "the game. The gap is the restricted bot's win rate less a fair share, with its 95% interval over "
        "deals; p-values are corrected together (Holm) for the number of kinds tried."
    ),
    "ladder": (
        "From the matches of 'parlour lab ladder': each pairing of bot levels, the stronger's win rate with its "
        "95% interval, and the same as an Elo gap — the rating difference that gives that win rate. The spread "
        "of the levels is a scale every game shares (Duersch, Lambrecht and Oechssler measure skill by the "
        "spread of players' ratings): the further the best level stands above the weakest, the more the game "
        "rewards skill; levels that stand close together mean the cards decide much. The report does not "
        "anchor this to chess (their 'x%-chess' needs a chess rating pool, which parlour does not have)."
    ),
    "across": (
        "One scale for every game: for each game whose ladder is in this report, its widest pairing of bot "
        "levels as an Elo gap. A game whose strongest level stands far above its weakest rewards skill more than "
        "one whose levels sit close together; compare games at the same levels (their ladders name them)."
    ),
    "compare": (
        "Every measure of the stored matches, each variant against the baseline V1: the difference of the means "
        "with its 95% interval, and the p-value of the test named in the last column. Variants run with the "
        "same seed are played on the same deals, so they are compared deal by deal (a paired t-test, which "
        "cancels the luck of the cards they share); otherwise Welch's t-test, or for win rates over matches a "
        "two-proportion z-test. This table is exploratory: its rows are corrected together (Holm) as one "
        "family of their own, apart from the rows that are verdicts (their p is the verdict table's), rows "
        "the rules fix (the same difference in every deal: no chance in it, so no test) and events that one "
        "of the two never has (a difference of rules, not a finding). ★ marks an adjusted p below 0.05."
    ),
    "verdicts": (
        "What each study's variants do to the game, measure by measure, against the study's baseline. Read a "
        "row across: the baseline's value, then each variant's value, its change from the baseline with the "
        "95% interval and the verdict. 'No clear change' comes with the smallest change the study could have "
        "seen; 'too few deals to say' with how many more would see the smallest change worth having. The "
        "details, plots and every other measure are in the sections listed under Contents."
    ),
    "headline": (
        "The experiments below form no study (run variants from one plan to compare them on the same deals): "
        "each one's measures with their 95% intervals."
    ),
}


_SUMMARY_HEADERS = ["n", "mean", "mean's 95% interval", "sd", "min", "q1", "median", "q3", "max"]


def _summary_row(label: str, summary: dict[str, Any]) -> list[str]:
    return [label, *(num(summary[key]) for key in ("n", "mean")), ci_text(summary.get("mean_ci")),
            *(num(summary[key]) for key in ("sd", "min", "q1", "median", "q3", "max"))]


def _rate_row(label: str, item: dict[str, Any]) -> list[str]:
    low, high = item["ci"]
    return [label, str(item["matches"]), num(item["wins"], 1), percent(item["rate"]), f"{low:.1%} – {high:.1%}",
            item["interval"]]


def _elo_text(item: dict[str, Any]) -> str:
    value, (low, high) = item.get("elo"), item.get("elo_ci", [None, None])
    if value is None:
        return "—"
    ends = "" if low is None or high is None else f" ({low:+.0f} to {high:+.0f})"
    return f"{value:+.0f}{ends}"


def _experiment_blocks(number: int, section: dict[str, Any]) -> list[Block]:
    plots = section.get("plots", {})
    options = ", ".join(f"{k} = {v}" for k, v in section["options"].items()) or "defaults"
    unit = "duplicate deals (each in every seating)" if section["mode"] == "deals" else "matches"
    blocks: list[Block] = [
        Heading(2, f"{number}. {section['name']}"),
        Table(["", ""], [
            ["Game", f"{section['game_name']} (version {section['game_version']})"],
            ["Study", section["study"] or "— (a quick run)"],
            ["Options", options],
            ["Bots", section["bots"]],
            ["Planned", f"{section['count']} {unit}, seed {section['seed']}"
                        + (", first rounds only" if section["rounds_only"] else "")],
            ["Stored", f"{section['matches']} matches, {section['rounds']} rounds: {section['units']} independent "
                       f"{section['unit']}"],
        ]),
    ]
    deal = section["deal_vs_players"]
    if deal is not None and deal["warning"]:
        blocks.append(Text("⚠ " + deal["warning"], warning=True))
    blocks += [Heading(3, "Score distribution"), Text(_EXPLAIN["scores"])]
    if "scores" in plots:
        blocks.append(Image(plots["scores"], "Histograms of match totals by seat and by position"))
    scores = section["scores"]
    blocks.append(Table(["", *_SUMMARY_HEADERS],
                         [_summary_row(f"seat {item['seat']}", item) for item in scores["by_seat"]]
                         + [_summary_row(position_name(item["position"]), item) for item in scores["by_position"]]))
    wins = section["wins"]
    blocks += [Heading(3, "Win rate by seat and position"), Text(_EXPLAIN["wins"])]
    if "wins" in plots:
        blocks.append(Image(plots["wins"], "Win rates with 95% intervals by seat, position and player"))
    headers = ["", "matches", "wins", "win rate", "95% interval", "interval"]
    two = len(wins["by_position"]) == 2
    blocks.append(Table(headers + (["Elo points (95%)"] if two else []),
                         [_rate_row(f"seat {item['seat']}", item) + (["—"] if two else []) for item in wins["by_seat"]]
                         + [_rate_row(position_name(item["position"]), item) + ([_elo_text(item)] if two else [])
                            for item in wins["by_position"]]))
    if wins.get("seats_note"):
        blocks.append(Text(wins["seats_note"]))
    blocks += [Text(_EXPLAIN["players"]),
               Table(["player", "matches", "wins", "win rate", "95% interval", "interval", "mean margin"],
                      [[*_rate_row(f"{item['player']}", item), num(item["mean_margin"])]
                       for item in wins["by_player"]])]
    length = section["length"]
    blocks += [Heading(3, "Round and match length"), Text(_EXPLAIN["length"])]
    if "length" in plots:
        blocks.append(Image(plots["length"], "Histograms of moves per round, rounds per match, moves per match"))
    blocks.append(Table(["", *_SUMMARY_HEADERS], [
        _summary_row("moves per round", length["moves_per_round"]),
        _summary_row("rounds per match", length["rounds_per_match"]),
        _summary_row("moves per match", length["moves_per_match"]),
    ]))
    blocks += _duration_blocks(section["duration"])
    events = section["events"]
    blocks += [Heading(3, "Scoring events and round endings"), Text(_EXPLAIN["events"])]
    if "events" in plots:
        blocks.append(Image(plots["events"], "Occurrences per round of each event, and how rounds end"))
    varying = {kind: item for kind, item in events["kinds"].items() if not item["constant"]}
    blocks.append(Table(["event", "count", "per round", "95% interval", "rounds with one or more"],
                         [[kind, str(item["count"]), frequency(item["per_round"]),
                           ci_text(item["per_round_ci"], frequency), percent(item["share_of_rounds"])]
                          for kind, item in varying.items()]))
    constant = [f"{kind} ({frequency(item['per_round'])} a round)" for kind, item in events["kinds"].items()
                if item["constant"]]
    if constant:
        blocks.append(Text("The same in every round: " + "; ".join(constant) + "."))
    happened = {name: item for name, item in events["endings"].items() if item["rounds"]}
    never = [name for name, item in events["endings"].items() if not item["rounds"]]
    blocks += [Text(_EXPLAIN["endings"]),
               Table(["round ended by", "rounds", "share"],
                      [[ending, str(item["rounds"]), percent(item["share"])] for ending, item in happened.items()])]
    if never and happened:
        blocks.append(Text("No round ended by: " + ", ".join(never) + "."))
    if deal is not None:
        blocks += [Heading(3, f"Deal versus players ({section['bots']})"), Text(_EXPLAIN["deal"])]
        if "deal_vs_players" in plots:
            blocks.append(Image(plots["deal_vs_players"], "Share of the score margin decided by the deal"))
        blocks.append(Table(
            ["position", "deals", "decided by the deal (ICC)", "95% interval", "by the players and their play",
             "MSB", "MSW"],
            [[position_name(item["position"]), str(deal["deals"]),
              "not given (see the warning)" if deal["warning"] and item["icc"] is None else
              luck_text(item["icc"], item.get("icc_raw"), None),
              ci_text(item.get("ci"), percent), percent(item["players_share"]),
              num(item.get("msb")), num(item.get("msw"))] for item in deal["by_position"]]))
        blocks.append(Table(
            ["player", "deals", "mean margin", "95% interval"],
            [[item["player"], str(item["deals"]), num(item["mean_margin"]), ci_text(item["ci"])]
             for item in deal["by_player"]]))
    if section["play"] is not None:
        blocks += _play_blocks(section["play"], plots)
    blocks += _anomaly_blocks(section["anomalies"])
    return blocks


def _duration_blocks(duration: dict[str, Any]) -> list[Block]:
    minutes = duration["minutes"]
    blocks: list[Block] = [
        Text(_EXPLAIN["duration"].format(seconds=f"{duration['seconds_per_move']:g}")),
        Table(["", *_SUMMARY_HEADERS], [_summary_row("minutes per match", minutes)]),
    ]
    target = duration["target"]
    if target is not None:
        low, high = target["minutes"]
        blocks.append(Table(
            [f"target {low:g}–{high:g} minutes", "matches", "share", "95% interval", "interval"],
            [[label, str(item["matches"]), percent(item["rate"]), ci_text(item["ci"], percent), item["interval"]]
             for label, item in (("shorter", target["shorter"]), ("within", target["within"]),
                                 ("longer", target["longer"]))]))
    return blocks


def _play_blocks(play: dict[str, Any], plots: dict[str, str]) -> list[Block]:
    blocks: list[Block] = [
        Heading(3, "Choices, what is played, and when a round is decided"),
        Text(_EXPLAIN["play"].format(sample=play["sample"], of=play["of"], gap=f"{play['real_gap']:g}")
              + " " + (_EXPLAIN["judge_advice"] if play["judge"] == "advice" else
                       _EXPLAIN["judge_search"].format(iterations=play["judge_iterations"]))),
    ]
    if play["unreadable"]:
        blocks.append(Text(f"⚠ {len(play['unreadable'])} sampled record(s) could not be replayed by this version of "
                            f"the game and are left out (matches {', '.join(map(str, play['unreadable'][:10]))}).",
                            warning=True))
    if "play" in plots:
        blocks.append(Image(plots["play"], "Comebacks by stage of a round, and the share of moves by kind"))
    choices, real = play["choices"], play["real_choices"]
    blocks.append(Table(["decisions", "share", "95% interval"], [
        [f"with more than one legal move (of {play['decisions']})", percent(choices["share"]),
         ci_text(choices["ci"], percent)],
        [f"with the best move at least {play['real_gap']:g} point(s) ahead of the next", percent(real["share"]),
         ci_text(real["ci"], percent)],
    ]))
    blocks.append(Table(["kind of move", "moves", "share of moves", "offered among others", "chosen when offered"],
                         [[kind, str(item["played"]), percent(item["share_of_moves"]), str(item["offered"]),
                           percent(item["chosen_when_offered"])] for kind, item in play["kinds"].items()]))
    changes, decided = play["lead_changes"], play["decided_at"]
    blocks.append(Table(["per round", "mean", "95% interval", "median"], [
        ["lead changes", num(changes["mean"]), ci_text(changes["ci"]), "—"],
        ["decided at (share of the round's moves after which the winner led to the end)",
         percent(decided["mean"]), ci_text(decided["ci"], percent), percent(decided["median"])],
    ]))
    blocks.append(Table(["stage of the round", "seats behind", "their wins", "win rate when behind", "95% interval"],
                         [[f"{item['from']:.0%} played", str(item["behind"]), num(item["wins"], 1),
                           percent(item["rate"]), ci_text(item["ci"], percent)] for item in play["comebacks"]]))
    return blocks


def _anomaly_blocks(anomalies: list[dict[str, Any]]) -> list[Block]:
    rows: list[list[Cell]] = []
    for item in anomalies:
        share = item["share"]
        example: Cell = "—"
        if item.get("file"):
            example = Link(f"match {item['example']}: {item['replay']}", item["file"])
        elif item["example"] is not None:
            example = f"match {item['example']}"
        rows.append([item["what"], str(item["count"]),
                     "—" if share is None else f"{percent(share['mean'])} ({ci_text(share['ci'], percent)})", example])
    return [Heading(3, "Anomalies"), Text(_EXPLAIN["anomalies"]),
            Table(["what", "count", "share (95% interval)", "example to replay"], rows)]


def _comparison_blocks(comparison: dict[str, Any]) -> list[Block]:
    names = comparison["experiments"]
    blocks: list[Block] = [
        Heading(2, f"Study {comparison['study']} in detail: variants of {games.get(comparison['game']).name} "
                   "side by side"),
        Text(_EXPLAIN["compare"]),
        Table(["", "experiment", "bots", "compared"],
               [[f"V{i + 1}", name, bots, "baseline" if i == 0 else
                 (f"{comparison['unit']} by {comparison['unit']} (same seeds)" if comparison["paired"][i]
                  else "unpaired (other seeds)")]
                for i, (name, bots) in enumerate(zip(names, comparison["bots"]))]),
    ]
    if not comparison["same_bots"] and not about_bots(comparison):
        blocks.append(Text("⚠ The variants were not all played by the same bots: a difference may come from the "
                            "bots, not the rules.", warning=True))
    if "comparison" in comparison.get("plots", {}):
        blocks.append(Image(comparison["plots"]["comparison"], "Variants compared"))
    rows = []
    for row in comparison["metrics"]:
        key = row["key"]
        show: Callable[[float | None], str] = (
            percent if key.startswith("win_rate") else frequency if key.startswith("event:") else num)
        change: Callable[[float | None], str] = (
            (lambda v: "—" if v is None else f"{v * 100:+.1f} pt") if key.startswith("win_rate")
            else (lambda v: "—" if v is None else f"{v:+.3g}"))
        cells = [show(v) for v in row["values"]]
        others = []
        for i in range(1, len(names)):
            difference = row["differences"][i]
            ci = difference["ci"]
            interval = "" if ci is None else f" [{change(ci[0])}, {change(ci[1])}]"
            family = row["family"][i]
            note = {"fixed": "fixed by the rules: not tested", "never": "a rule difference (never happens in one of "
                    "them): not counted", "verdict": p_text(row["p_values"][i], row["p_adjusted"][i]) + " (verdict)"
                    }.get(family, p_text(row["p_values"][i], row["p_adjusted"][i]))
            others.append(f"{cells[i]}: {change(difference['difference'])}{interval} ({note})")
        rows.append([row["metric"], cells[0], *others, "; ".join(dict.fromkeys(t for t in row["tests"] if t)) or "—"])
    blocks.append(Table(["metric", "V1", *(f"V{i + 1}: change [95% interval] (p, Holm-adjusted p)"
                                            for i in range(1, len(names))), "test"], rows))
    return blocks + _findings_blocks(comparison)


def _findings_blocks(comparison: dict[str, Any]) -> list[Block]:
    findings = comparison["findings"]
    plots = comparison.get("plots", {})
    blocks: list[Block] = []
    sweep = findings["sweep"]
    if sweep is not None:
        blocks += [Heading(3, f"Sweep of {sweep['option']}"), Text(_EXPLAIN["sweep"])]
        if "sweep" in plots:
            blocks.append(Image(plots["sweep"], f"The main measures against {sweep['option']}"))
        blocks.append(Table(
            [sweep["option"], *(series["metric"] for series in sweep["series"])],
            [[str(value), *(_sweep_cell(series["key"], series["points"][i]) for series in sweep["series"])]
             for i, value in enumerate(sweep["values"])]))
    luck = findings["luck"]
    if luck is not None:
        blocks += [Heading(3, "Deal luck across bot strengths"), Text(_EXPLAIN["luck"]),
                   Table(["bots (and their slips)", "deals", "decided by the deal (ICC), first player", "95% interval",
                           "deals played identically"],
                          [[row["bots"], str(row["deals"]), luck_text(row["icc"], row.get("icc_raw"), None),
                            ci_text(row["ci"], percent), percent(row["identical_share"])] for row in luck])]
    return blocks


def _depth_blocks(depth: list[dict[str, Any]], comparison: dict[str, Any]) -> list[Block]:
    """Skill depth's own verdicts: does twice the search still pay, budget by budget."""
    blocks: list[Block] = [Text(_EXPLAIN["depth"])]
    if "depth" in comparison.get("plots", {}):
        blocks.append(Image(comparison["plots"]["depth"], "Win rate of twice the search as the budget doubles"))
    unit = comparison["unit"]
    verdict = {"pays": "pays", "stops": "stops paying (no clear gain)", "too_few": f"too few {unit} to say"}
    blocks.append(Table(["budget (iterations)", "twice the budget wins", "95% interval", "Elo points", "p",
                         "verdict", f"smallest gain it could see ({POWER_WORD} power)"],
                        [[f"{2 * row['budget']} against {row['budget']}", percent(row["rate"]),
                          ci_text(row["rate_ci"], percent),
                          "—" if row["elo"] is None else f"{row['elo']:+.0f}", p_text(row["p"]),
                          verdict[row["verdict"]], _gap_size(row["power"]["detectable"], row["power"]["needed"], unit)]
                         for row in depth]))
    return blocks


def _matters_blocks(matters: list[dict[str, Any]], unit: str) -> list[Block]:
    """Restricted play's own verdicts: what barring (or binding to) each kind of move costs."""
    verdict = {"costs": "costs the bot", "helps": "helps the bot", "none": "no effect worth having",
               "too_few": f"too few {unit} to say"}
    return [Text(_EXPLAIN["matters"]),
            Table(["kind of move", "restriction", "share of moves (unrestricted)", "restricted bot wins",
                   "gap to a fair share [95% interval]", "p (Holm-adjusted)", "verdict",
                   f"smallest gap it could see ({POWER_WORD} power)"],
                  [[row["kind"], "never plays it" if row["how"] == "without" else "always plays it",
                    percent(row["played_share"]), percent(row["rate"]),
                    f"{change_text('win_rate', row['gap'])} [{ci_text(row['ci'], _points)}]",
                    p_text(row["p"], row["p_adjusted"]), verdict[row["verdict"]],
                    _gap_size(row["power"]["detectable"], row["power"]["needed"], unit)] for row in matters])]


def _points(value: float | None) -> str:
    return change_text("win_rate", value)


def _gap_size(detectable: float | None, needed: int | None, unit: str) -> str:
    if detectable is None:
        return "—"
    return f"±{detectable * 100:.1f} points" + ("" if needed is None else f" ({needed:,} {unit} see ±5)")


def _sweep_cell(key: str, point: dict[str, Any]) -> str:
    """A measure at one value of a sweep, with its interval."""
    def show(value: float | None) -> str:
        return percent(value) if key.startswith(("win_rate", "icc")) else num(value)

    return f"{show(point['mean'])} ({ci_text(point['ci'], show)})"


def _anchor(text: str) -> str:
    """A heading's id: its words in lower case, joined by dashes."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _verdict_cell(row: dict[str, Any], cell: dict[str, Any] | None, value: dict[str, Any] | None) -> str:
    """A variant's cell of the verdict table: the verdict first (in capitals when it is a clear
    change), then the value, the change from the baseline with its interval and p, and for a "no"
    its power."""
    rate = row["rate"]
    if value is None:
        return "—"
    if cell is None:
        return measure_text(rate, value["value"]) + measure_interval(rate, value.get("ci"))
    p = "" if cell["p_adjusted"] is None else f", p {cell['p_adjusted']:.2g}"
    figures = (f"{measure_text(rate, value['value'])}, {measure_change(rate, cell['difference'])}"
               f"{change_interval(rate, cell['ci'])}{p}")
    power = cell["power"]
    verdict = cell["text"].upper() if cell["verdict"] in ("up", "down") else cell["text"]
    if cell["verdict"] == "none":
        figures += f"; could have seen {measure_size(rate, power['detectable'])}"
    elif cell["verdict"] == "too_few":
        more = None if cell.get("stop") is None else cell["stop"]["more"]
        figures += f"; sees only {measure_size(rate, power['detectable'])}" + (
            f", ~{more:,} more for {measure_size(rate, power['smallest'])}" if more else
            "" if power["needed"] is None else f", ~{power['needed']:,} for {measure_size(rate, power['smallest'])}")
    return f"{verdict}: {figures}"


def _verdict_blocks(comparison: dict[str, Any]) -> list[Block]:
    """A study's verdicts: restricted play's and skill depth's own first, then the table of measures."""
    verdicts = comparison["verdicts"]
    names = comparison["experiments"]
    study = comparison["study"]
    primary = next((row for row in verdicts["rows"] if row["primary"]), None)
    title = f"Study {study} ({games.get(comparison['game']).name})"
    blocks: list[Block] = [Heading(3, title, _anchor(f"verdict {study}"))]
    findings = comparison["findings"]
    if findings["matters"] is not None:
        blocks += [Heading(4, "What matters: restricted play"),
                   *_matters_blocks(findings["matters"], comparison["unit"])]
    if findings["depth"] is not None:
        blocks += [Heading(4, "Skill depth: twice the search against the search"),
                   *_depth_blocks(findings["depth"], comparison)]
    if findings["matters"] is not None or findings["depth"] is not None:
        blocks.append(Heading(4, "Every measure against the baseline"))
    bots = comparison["bots"]
    blocks.append(Text("Played by " + (bots[0] if comparison["same_bots"] else "; ".join(
        f"V{i + 1}: {who}" for i, who in enumerate(bots))) + f", {comparison['unit']} shared by the variants "
        "when they share their seed. Luck, choices and the rest move with the bots and their slips "
        "(--check-robust plays the study again to see which verdicts hold)."))
    if primary is not None:
        blocks.append(Text(f"Primary question: {primary['measure'].lower()}, tested on its own "
                           f"({verdicts['family_sizes']['primary']} test(s), Holm). The other measures are corrected "
                           f"together ({verdicts['family_sizes']['secondary']} tests, Holm). Each change is the "
                           f"variant less the baseline, {verdicts['unit'][:-1]} by {verdicts['unit'][:-1]} when they "
                           "share their seeds, with its 95% interval; a 'no' says the smallest change the study "
                           f"could have seen ({POWER_WORD} power)."))
    headers = ["measure", f"V1 {variant_name(names[0], study)} (baseline)",
               *(f"V{i + 1} {variant_name(name, study)}" for i, name in enumerate(names[1:], 1))]
    rows: list[list[Cell]] = []
    for row in verdicts["rows"]:
        label = row["measure"] + (" ★ primary" if row["primary"] else "")
        rows.append([label, *(_verdict_cell(row, cell, value) for cell, value in zip(row["cells"], row["values"]))])
    blocks.append(Table(headers, rows, words=True))
    if "verdicts" in comparison.get("plots", {}):
        blocks.append(Image(comparison["plots"]["verdicts"], "Each variant's change from the baseline, measure "
                                                              "by measure, with 95% intervals"))
    if primary is not None:
        stops = []
        for i in range(1, len(names)):
            cell = primary["cells"][i]
            if cell is None:
                continue
            stop = cell["stop"]
            size = measure_size(primary["rate"], primary["smallest"])
            more = "" if stop["more"] is None else f": about {stop['more']:,} more {comparison['unit']} of each"
            stops.append(f"V{i + 1}: " + {"apart": "told apart: the difference is clear",
                                          "enough": f"enough: any difference is within {size}",
                                          "more": "more needed" + more}[stop["verdict"]])
        if stops:
            blocks.append(Text("Stop rule (primary question): " + "; ".join(stops) + "."))
    blocks += [Text(line) for line in seat_edges(comparison)]
    robust = verdicts.get("robust")
    if robust is not None:
        by_key = {row["key"]: row for row in verdicts["rows"]}
        checks = []
        for check in robust["rows"]:
            for i, cell in enumerate(check["cells"]):
                if cell is not None:
                    label = by_key[check["key"]]["measure"].split(":")[0]
                    checks.append(f"{label}, V{i + 1}: " + ("holds" if cell["holds"] else f"changes ({cell['text']})"))
        blocks.append(Text(f"Robustness at {robust['how']} (study {robust['study']}): " + "; ".join(checks) + "."))
    return blocks



def _headline_blocks(numbers: dict[str, Any]) -> list[Block]:
    """Without a study: each experiment's measures, with their intervals."""
    keys = [m for m in ("first_player", "luck", "choices", "decided", "comebacks", "minutes", "draws")]
    labels = {item["key"]: item["measure"].split(":")[0] for h in numbers["headlines"] for item in h["measures"]}
    shown = [k for k in keys if k in labels]
    rows: list[list[Cell]] = []
    for h in numbers["headlines"]:
        found = {item["key"]: item for item in h["measures"]}
        rows.append([h["name"], h["bots"], *(
            "—" if k not in found else measure_text(found[k]["rate"], found[k]["value"])
            + measure_interval(found[k]["rate"], found[k]["ci"])
            for k in shown)])
    return [Table(["experiment", "bots", *(labels[k] for k in shown)], rows)]


def page_blocks(numbers: dict[str, Any]) -> list[Block]:
    """The page: the verdicts first, a table of contents, the summary, then every section."""
    head: list[Block] = [
        Heading(1, "Parlour lab report"),
        Text(f"{len(numbers['experiments'])} experiment(s) from {numbers['database']}. Every number comes from "
              "the stored matches; the plots show the same numbers."),
        Heading(2, "Verdicts", "verdicts"),
    ]
    if numbers["comparisons"]:
        head.append(Text(_EXPLAIN["verdicts"]))
        for comparison in numbers["comparisons"]:
            head += _verdict_blocks(comparison)
    else:
        head += [Text(_EXPLAIN["headline"]), *_headline_blocks(numbers)]
    body: list[Block] = []
    if numbers["summary"]:
        body += [Heading(2, "Summary", "summary"), List(numbers["summary"])]
    for number, section in enumerate(numbers["experiments"], 1):
        body += _experiment_blocks(number, section)
    for comparison in numbers["comparisons"]:
        body += _comparison_blocks(comparison)
    if len(numbers["ladders"]) > 1:
        spreads = [(ladder["game_name"], max(ladder["pairings"], key=lambda row: row["elo"] or 0))
                   for ladder in numbers["ladders"]]
        spreads.sort(key=lambda item: -(item[1]["elo"] or 0))
        body += [Heading(2, "Skill across games"), Text(_EXPLAIN["across"]),
                 Table(["game", "widest pairing", "stronger wins", "Elo gap (95%)"],
                       [[game, f"{row['stronger']} over {row['weaker']}", percent(row["rate"]), _elo_text(row)]
                        for game, row in spreads])]
    for ladder in numbers["ladders"]:
        body += [Heading(2, f"Skill against chance: the ladder of {ladder['game_name']}"), Text(_EXPLAIN["ladder"]),
                 Table(["stronger", "weaker", "matches", "stronger wins", "95% interval", "Elo gap (95%)"],
                       [[row["stronger"], row["weaker"], str(row["matches"]), percent(row["rate"]),
                         ci_text(row["ci"], percent), _elo_text(row)] for row in ladder["pairings"]])]
    entries = []
    seen: set[str] = set()
    for block in [*head, *body]:
        if not isinstance(block, Heading) or block.level == 1:
            continue
        anchor = block.anchor or _anchor(block.text)
        while anchor in seen:  # the same sub-heading in every experiment's section
            anchor += "-"
        block.anchor = anchor
        seen.add(anchor)
        if block.level == 2 or (block.level == 3 and block in head):  # the verdicts' studies, and every section
            entries.append((block.level, block.text, block.anchor))
    return [*head, Heading(2, "Contents", "contents"), Contents(entries), *body]
