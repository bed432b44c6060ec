"""Studies by name: restricted play, sweeps, skill depth, deal luck — the bots, the specs, the
plans and the commands, on a real SQLite database with real, seeded bots."""

from __future__ import annotations

import json
import random
import subprocess
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import parlour_command
from parlour import bots, games
from parlour.bots import Budget, MoveEstimate
from parlour.cli import app
from parlour.game import Move, Observation
from parlour.lab import arena, plan, runner, studies
from parlour.lab.spec import ExperimentSpec
from parlour.store import Store

BARRED = [("silver-bars", "play thief"), ("minus-twenty", "discard invest"), ("progression", "take"),
          ("twenty", "play 10")]
BOUND = [("silver-bars", "lock"), ("minus-twenty", "take"), ("progression", "public invest"), ("twenty", "play 1")]


def decisions(game_id: str, spec: str, seed: int, seating: tuple[int, ...], noise: float = 0.0):  # type: ignore[no-untyped-def]
    """Play one seeded round with ``spec`` as player 0 and random bots in the other seats, then
    replay its moves: player 0's every decision, as (the legal moves, the move made)."""
    players = [spec] + ["random"] * (len(seating) - 1)
    played = arena.play_match(game_id, players, seed, seating, rounds_only=True, noise=noise)
    state = games.get(game_id).new_match(seed=seed)
    mine = seating.index(0)
    found = []
    for move in played.moves:
        if state.current_player() == mine:
            found.append((state.legal_moves(), move))
        state.apply(move)
    return found


@pytest.mark.parametrize(("game_id", "kind"), BARRED)
@pytest.mark.parametrize("noise", [0.0, 0.5])
def test_a_barred_bot_never_plays_the_kind_while_it_has_another_move(game_id: str, kind: str, noise: float) -> None:
    """In every seat of 30 seeded rounds, with or without playtest noise (a barred player's slips
    keep to its bar too)."""
    kind_of = games.get(game_id).move_kind
    bit = 0
    for seed in range(30):
        for seating in arena.seatings(games.get(game_id).players):
            for legal, move in decisions(game_id, f"random/without:{kind}", seed, seating, noise):
                if any(kind_of(m) == kind for m in legal) and any(kind_of(m) != kind for m in legal):
                    bit += 1
                    assert kind_of(move) != kind, (seed, seating, move)
    assert bit > 20  # the bar was put to the test: the kind was offered beside others, often


@pytest.mark.parametrize(("game_id", "kind"), BOUND)
def test_a_bound_bot_plays_the_kind_whenever_it_can(game_id: str, kind: str) -> None:
    kind_of = games.get(game_id).move_kind
    bit = 0
    for seed in range(30):
        for seating in arena.seatings(games.get(game_id).players):
            for legal, move in decisions(game_id, f"random/always:{kind}", seed, seating):
                if any(kind_of(m) == kind for m in legal):
                    bit += any(kind_of(m) != kind for m in legal)
                    assert kind_of(move) == kind, (seed, seating, move)
    assert bit > 20


def test_a_search_bot_keeps_to_its_restriction() -> None:
    """IS-MCTS (a small budget) searches only the moves it is allowed; the heuristic levels too."""
    kind_of = games.get("silver-bars").move_kind
    for spec in ("ismcts:iterations=12,rollout=heuristic/without:play thief", "medium/without:play thief",
                 "easy/without:play thief"):
        bit = 0
        for seed in range(3):
            for legal, move in decisions("silver-bars", spec, seed, (0, 1)):
                if any(kind_of(m) == "play thief" for m in legal):
                    bit += 1
                    assert kind_of(move) != "play thief"
        assert bit > 0, spec


class Elsewhere(bots.Bot):
    """Answers with a move it was not offered (as a bot with reasons of its own might)."""

    def choose(self, observation: Observation, legal: Sequence[Move], rng: random.Random,
               budget: Budget | None = None) -> Move:
        return Move("lock", (9,))


class ElsewhereWithEstimates(Elsewhere):
    """The same, but it can say what it thinks of each move it was offered: the last one best."""

    def analyse(self, observation: Observation, legal: Sequence[Move], rng: random.Random) -> list[MoveEstimate]:
        return [MoveEstimate(m, float(i), 0.0, 1, 0.0) for i, m in enumerate(legal)][::-1]


def test_a_move_outside_the_allowed_ones_is_replaced_by_an_allowed_one() -> None:
    legal = [Move.parse("play 7H"), Move.parse("play KS"), Move.parse("play 2C"), Move.parse("play QD")]
    view = bots.blind_view("twenty", 0)
    barred = bots.Restricted(ElsewhereWithEstimates(), "play 10")  # K and Q add 10 to the tally
    assert barred.choose(view, legal, random.Random(1)) == Move.parse("play 2C")  # its best allowed
    rng = random.Random(1)
    chosen = {bots.Restricted(Elsewhere(), "play 10").choose(view, legal, rng) for _ in range(50)}
    assert chosen == {Move.parse("play 7H"), Move.parse("play 2C")}  # an allowed move, any of them
    bound = bots.Restricted(ElsewhereWithEstimates(), "play 10", always=True)
    assert bound.choose(view, legal, random.Random(1)) == Move.parse("play QD")


def test_restricted_specs_name_and_describe_the_bot() -> None:
    barred = bots.make("medium/without:play thief")
    assert isinstance(barred, bots.Restricted) and barred.kind == "play thief" and not barred.always
    assert barred.name == "medium/without:play thief"
    assert barred.describe() == "medium (temperature club) without play thief"
    bound = bots.make("random/always:lock")
    assert bound.describe() == "random always lock" and not bound.reads_observation  # still a blind bot
    search = bots.make("ismcts:iterations=40,rollout=heuristic/ Always:take ")
    assert isinstance(search, bots.Restricted) and search.always and search.kind == "take"
    assert search.budget == Budget(40) and search.reads_observation
    twice = bots.make("random/without:lock/without:play thief")  # restrictions stack
    assert twice.name == "random/without:lock/without:play thief"


@pytest.mark.parametrize("spec", ["random/sometimes:lock", "random/without:", "random/without", "random/",
                                  "random/always: "])
def test_bad_restrictions_say_which_forms_there_are(spec: str) -> None:
    with pytest.raises(ValueError, match=r"may end in /without:KIND or /always:KIND"):
        bots.make(spec)
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        bots.make("wizard/without:lock")


def win_shares(store: Store, name: str) -> dict[int, float]:
    """Player 0's share of the wins, deal by deal (a shared win counts its share)."""
    row = store.experiment(name)
    assert row is not None
    shares: dict[int, list[float]] = defaultdict(list)
    for match in store.matches(row.id):
        seat = match.seating.index(0)
        shares[match.deal].append(1 / len(match.winners) if seat in match.winners else 0.0)  # type: ignore[index]
    return {deal: sum(s) / len(s) for deal, s in shares.items()}


def test_a_card_that_cannot_matter_has_no_gap_and_one_that_can_has_one(tmp_path: Path) -> None:
    """Restricted play as a measure of what a card is worth.  Without rubble in the deck a
    shovel can only be discarded, so barring its play changes nothing: the barred player
    plays every move the unrestricted one does, and its gap is exactly zero (medium plays a
    deal the same way from either seat, so each player wins exactly half of every deal).
    With rubble (the default), barring the thief costs the barred player: over these 40
    seeded deals it wins far less than half."""
    assert "play shovel" not in studies.kinds_of("silver-bars", {"rubble": 0})
    inert = studies.matters("silver-bars", "medium", deals=40, seed=3, kinds=["play shovel"],
                            options={"rubble": 0}, rounds_only=True, name="no rubble")
    thief = studies.matters("silver-bars", "medium", deals=40, seed=3, kinds=["play thief"], rounds_only=True)
    store = Store(tmp_path / "lab.sqlite")
    runner.run(inert + thief, store, jobs=1)

    free, barred = (store.experiment(f"no rubble/{v}") for v in ("unrestricted", "without play shovel"))
    assert free is not None and barred is not None
    for a, b in zip(store.matches(free.id), store.matches(barred.id), strict=True):
        assert json.loads(a.record)["rounds"] == json.loads(b.record)["rounds"]  # the same deals, the same moves
        assert (a.totals, a.winners) == (b.totals, b.winners)
    free_shares = win_shares(store, "no rubble/unrestricted")
    barred_shares = win_shares(store, "no rubble/without play shovel")
    assert len(barred_shares) == 40
    assert set(free_shares.values()) == set(barred_shares.values()) == {0.5}
    assert all(barred_shares[d] - free_shares[d] == 0 for d in free_shares)

    unrestricted = win_shares(store, "what matters/unrestricted")
    without_thief = win_shares(store, "what matters/without play thief")
    assert set(unrestricted.values()) == {0.5}
    assert sum(without_thief.values()) / 40 < 0.3


@pytest.mark.parametrize(("game_id", "text", "option", "values"), [
    ("minus-twenty", "hand_size=5..9", "hand_size", [5, 6, 7, 8, 9]),
    ("minus-twenty", " stall_limit = 0,10,20", "stall_limit", [0, 10, 20]),
    ("minus-twenty", "target_score=none,50", "target_score", [None, 50]),
    ("twenty", "open_hands=true,false", "open_hands", [True, False]),
    ("progression", "takeback=no,yes", "takeback", [False, True]),
])
def test_sweeps_read_ranges_lists_and_booleans(game_id: str, text: str, option: str, values: list[object]) -> None:
    assert studies.parse_sweep(game_id, text) == (option, values)


@pytest.mark.parametrize(("text", "message"), [
    ("hand_size", "a sweep is OPTION=VALUES"),
    ("hand_size=", "a sweep is OPTION=VALUES"),
    ("colour=1,2", "minus-twenty has no option 'colour'"),
    ("hand_size=a..9", "a range is two whole numbers"),
    ("hand_size=9..5", "a range runs upward, like 5..9"),
    ("hand_size=0..3", "must be at least 1, not 0"),
    ("hand_size=7", "give hand_size two or more"),
    ("hand_size=7,8,7", "7 given twice"),
    ("hand_size=7,eight", "must be a whole number, not 'eight'"),
    ("stall_limit=none,5", "must be a whole number"),
])
def test_bad_sweeps_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        studies.parse_sweep("minus-twenty", text)


def same_deals(specs: list[ExperimentSpec]) -> bool:
    return len({tuple(t.seed for t in s.tasks()) for s in specs}) == 1


def test_a_sweep_is_a_study_on_the_same_deals_against_the_default() -> None:
    specs = studies.sweep("minus-twenty", "hand_size", "6..8", ["random", "random"], deals=3, seed=9,
                          options={"stall_limit": 10})
    assert [s.name for s in specs] == [f"sweep hand_size/hand_size={n}" for n in (6, 7, 8)]
    assert {s.study for s in specs} == {"sweep hand_size"}
    assert {s.baseline for s in specs} == {"sweep hand_size/hand_size=7"}  # seven cards: the game as it stands
    assert [s.options["hand_size"] for s in specs] == [6, 7, 8] and {s.options["stall_limit"] for s in specs} == {10}
    assert same_deals(specs)
    larger = studies.sweep("minus-twenty", "hand_size", [9, 8], ["random", "random"], matches=4, name="big hands")
    assert larger[0].baseline == "big hands/hand_size=9" and larger[0].mode == "matches"  # no default: the first
    hands = studies.sweep("twenty", "open_hands", "true,false", ["random", "random"], deals=2)
    assert [s.name for s in hands] == ["sweep open_hands/open_hands=true", "sweep open_hands/open_hands=false"]
    assert hands[0].baseline == "sweep open_hands/open_hands=false"
    with pytest.raises(ValueError, match="hand_size is the option swept"):
        studies.sweep("minus-twenty", "hand_size", "6..8", ["random", "random"], deals=3, options={"hand_size": 8})
    with pytest.raises(ValueError, match="exactly one of matches and deals"):
        studies.sweep("minus-twenty", "hand_size", "6..8", ["random", "random"])


SWEEP_PLAN = """
name = "hand size"
game = "minus-twenty"
players = ["random", "random"]
deals = 2
seed = 4
rounds_only = true
options = { stall_limit = 10 }

[sweep]
option = "hand_size"
values = VALUES
"""


@pytest.mark.parametrize("values", ['"6..8"', "[6, 7, 8]", '"6,7,8"'])
def test_a_sweep_plan_expands_to_its_variants(tmp_path: Path, values: str) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP_PLAN.replace("VALUES", values))
    specs = plan.load_plan(path)
    assert [s.name for s in specs] == ["hand size/hand_size=6", "hand size/hand_size=7", "hand size/hand_size=8"]
    assert {s.baseline for s in specs} == {"hand size/hand_size=7"} and {s.study for s in specs} == {"hand size"}
    assert {s.options["stall_limit"] for s in specs} == {10} and all(s.rounds_only and s.total == 4 for s in specs)
    assert same_deals(specs)
    path.write_text(SWEEP_PLAN.replace("VALUES", values).replace("seed = 4", 'seed = 4\nbaseline = "hand_size=8"'))
    assert {s.baseline for s in plan.load_plan(path)} == {"hand size/hand_size=8"}
    store = Store(tmp_path / "lab.sqlite")
    assert runner.run(specs, store, jobs=1) == 12


@pytest.mark.parametrize(("old", "new", "message"), [
    ("[sweep]", '[[variant]]\nname = "x"\n\n[sweep]', r"give \[sweep\] or \[\[variant\]\], not both"),
    ('option = "hand_size"', 'option = "colour"', "minus-twenty has no option 'colour'"),
    ('"6..8"', '"9..5"', "a range runs upward"),
    ('"6..8"', "[7]", "give hand_size two or more"),
    ('"6..8"', '[7, "eight"]', "must be a whole number, not 'eight'"),
    ('"6..8"', "7", "the values of hand_size are a list or a text"),
    ('option = "hand_size"\n', "", r"\[sweep\] has no option"),
    ('"6..8"', '"6..8"\nstep = 2', r"\[sweep\] has unknown key\(s\) \['step'\]"),
    ("[sweep]", 'baseline = "hand_size=5"\n[sweep]', "baseline 'hand_size=5' is not one of the variants"),
    ("deals = 2", "deals = 2\nmatches = 2", "exactly one of matches and deals"),
    ("deals = 2", "deals = 2\ncolour = 2", r"unknown key\(s\) \['colour'\]"),
])
def test_bad_sweep_plans_say_what_is_wrong(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(SWEEP_PLAN.replace("VALUES", '"6..8"').replace(old, new, 1))
    with pytest.raises(ValueError, match=message):
        plan.load_plan(path)


def test_the_census_of_kinds_is_deterministic_and_finds_the_choices() -> None:
    kinds = studies.kinds_of("silver-bars")
    assert kinds == studies.kinds_of("silver-bars")
    assert {"play thief", "lock", "play shovel", "discard bar"} <= set(kinds)
    assert "resolve" not in kinds  # a strike is resolved when nothing else may be done: no choice
    assert studies.kinds_of("silver-bars", {"rubble": 0}) == studies.kinds_of("silver-bars", {"rubble": 0})
    assert set(studies.kinds_of("twenty")) == {f"play {n}" for n in range(1, 11)}
    assert {"take", "draw", "play invest", "discard number"} <= set(studies.kinds_of("minus-twenty"))


def test_what_matters_bars_the_first_player_from_each_kind_in_turn() -> None:
    specs = studies.matters("progression", "medium", deals=2, seed=5, kinds=["take", "public invest"], always=True)
    assert [s.name.removeprefix("what matters/") for s in specs] == [
        "unrestricted", "without take", "always take", "without public invest", "always public invest"]
    assert specs[0].players == ("medium", "medium", "medium")
    assert specs[1].players == ("medium/without:take", "medium", "medium")
    assert specs[2].players == ("medium/always:take", "medium", "medium")
    assert {s.baseline for s in specs} == {"what matters/unrestricted"} and {s.study for s in specs} == {"what matters"}
    assert all(s.mode == "deals" for s in specs) and same_deals(specs)
    every = studies.matters("silver-bars", "random", deals=1)
    assert [s.name.removeprefix("what matters/without ") for s in every[1:]] == studies.kinds_of("silver-bars")
    with pytest.raises(ValueError, match="silver-bars has no kind of move 'play thif' \\(its kinds: "):
        studies.matters("silver-bars", "medium", deals=2, kinds=["play thif"])
    with pytest.raises(ValueError, match="lock given twice"):
        studies.matters("silver-bars", "medium", deals=2, kinds=["lock", "lock"])
    with pytest.raises(ValueError, match="unknown bot"):
        studies.matters("silver-bars", "wizard", deals=2, kinds=["lock"])


def test_skill_depth_doubles_the_search_budget_after_budget() -> None:
    specs = studies.depth("progression", [100, 50], deals=2, seed=1)
    assert [s.name for s in specs] == ["skill depth/100 vs 50", "skill depth/200 vs 100"]
    assert specs[0].players == ("ismcts:iterations=100,rollout=heuristic", "ismcts:iterations=50,rollout=heuristic",
                                "ismcts:iterations=50,rollout=heuristic")
    assert {s.baseline for s in specs} == {"skill depth/100 vs 50"} and same_deals(specs)
    assert len(studies.depth("twenty", [10], deals=1)[0].players) == 2
    for budgets, message in (([], "at least one budget"), ([0], "positive whole number"), ([5, 5], "5 given twice")):
        with pytest.raises(ValueError, match=message):
            studies.depth("twenty", budgets, deals=1)


def test_deal_luck_puts_each_level_in_every_seat() -> None:
    specs = studies.luck("twenty", ["easy", "medium"], deals=3, noise=0.05, name="luck")
    assert [(s.name, s.players, s.baseline) for s in specs] == [
        ("luck/easy", ("easy", "easy"), "luck/easy"), ("luck/medium", ("medium", "medium"), "luck/easy")]
    assert all(s.noise == 0.05 and s.study == "luck" for s in specs) and same_deals(specs)
    with pytest.raises(ValueError, match="easy given twice"):
        studies.luck("twenty", ["easy", "easy"], deals=1)


def lab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*parlour_command(), "lab", *args], capture_output=True, text=True, timeout=300)


def test_each_study_command_runs_end_to_end(tmp_path: Path) -> None:
    db = str(tmp_path / "lab db.sqlite")
    tiny = ("--deals", "2", "--rounds-only", "--jobs", "1", "--db", db)
    for args, study, variants in [
        (("sweep", "minus-twenty", "-o", "hand_size=6..7", "-o", "stall_limit=10", "--players", "random,random",
          *tiny), "sweep hand_size", 2),
        (("matters", "silver-bars", "--kinds", "play thief, lock", "--always", *tiny), "what matters", 5),
        (("depth", "twenty", "--budgets", "4,2", *tiny), "skill depth", 2),
        (("luck", "progression", "--levels", "random,medium", "--noise", "0.1", *tiny), "deal luck", 2),
    ]:
        out = lab(*args)
        assert out.returncode == 0, out.stderr
        assert f"next: parlour lab report --db '{db}'" in out.stdout
        stored = [e for e in Store(db).experiments() if e.study == study]
        assert len(stored) == variants and all(e.baseline is not None for e in stored)
        assert all(len(Store(db).matches(e.id)) == e.count * len(e.players) for e in stored)
    again = lab("luck", "progression", "--levels", "random,medium", "--noise", "0.1", *tiny)
    assert again.returncode == 0 and "played 0 new matches" in again.stdout  # stored already: nothing to play


def test_lab_run_plays_a_sweep_plan(tmp_path: Path) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP_PLAN.replace("VALUES", "[6, 8]"))
    db = str(tmp_path / "lab.sqlite")
    out = lab("run", str(path), "--jobs", "1", "--db", db)
    assert out.returncode == 0, out.stderr
    assert "hand size/hand_size=8: 4 matches stored" in out.stdout
    assert f"next: parlour lab report --db {db}" in out.stdout
    assert {e.baseline for e in Store(db).experiments()} == {"hand size/hand_size=6"}


@pytest.mark.parametrize(("args", "says"), [
    (("sweep", "twenty", "--players", "random,random", "--deals", "2", "-o", "open_hands=true"),
     "a sweep needs one option with several values, like -o hand_size=5..9"),
    (("sweep", "minus-twenty", "--players", "random,random", "--deals", "2", "-o", "hand_size=5..6",
      "-o", "stall_limit=1,2"), "sweep one option at a time"),
    (("sweep", "minus-twenty", "--deals", "2", "-o", "hand_size=5..6"), "a sweep needs --players"),
    (("sweep", "minus-twenty", "--players", "random,random", "-o", "hand_size=5..6"), "a sweep needs --matches N"),
    (("sweep", "minus-twenty", "--players", "random,random", "--deals", "2", "-o", "hand_size=9..5"),
     "a range runs upward"),
    (("sweep", "chess", "--players", "random,random", "--deals", "2", "-o", "hand_size=5..6"), "unknown game 'chess'"),
    (("matters", "silver-bars", "--deals", "2", "--kinds", "play thif"), "silver-bars has no kind of move 'play thif'"),
    (("matters", "silver-bars", "--deals", "2", "--kinds", "lock,,take"), "--kinds names a kind of move"),
    (("matters", "silver-bars", "--deals", "2", "--bot", "medium/sometimes:lock"), "/without:KIND or /always:KIND"),
    (("matters", "silver-bars"), "Missing option '--deals'"),
    (("depth", "twenty", "--deals", "2", "--budgets", "4,x"), "--budgets takes whole numbers"),
    (("depth", "twenty", "--deals", "2", "--budgets", "0"), "a budget is a positive whole number"),
    (("luck", "twenty", "--deals", "2", "--levels", "easy,wizard"), "unknown bot 'wizard'"),
    (("luck", "twenty", "--deals", "2", "--backend", "cloud"), "unknown backend 'cloud'"),
    (("luck", "twenty", "--deals", "2", "--address", "10.0.0.1:6379"), "--address is the Ray cluster's"),
    (("luck", "twenty", "--deals", "2", "-o", "colour=red"), "twenty has no option 'colour'"),
])
def test_bad_study_commands_say_what_is_wrong_in_one_line(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    db = tmp_path / "lab.sqlite"
    result = CliRunner().invoke(app, ["lab", *args, "--db", str(db)])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.stderr
    assert result.stdout == "" and not db.exists()  # nothing stored: the study never started


def test_a_bad_study_command_through_the_real_entry_point(tmp_path: Path) -> None:
    out = lab("matters", "silver-bars", "--deals", "2", "--kinds", "play thif", "--db", str(tmp_path / "lab.sqlite"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: silver-bars has no kind of move 'play thif'") and "Traceback" not in out.stderr
