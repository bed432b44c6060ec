"""The lab: plans, a real SQLite database, resuming, determinism, Ray, the ladder."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import parlour_command
from parlour import record
from parlour.lab import ladder, plan, runner
from parlour.store import Store

PLAN = """
name = "hand size"
game = "minus-twenty"
players = ["random", "random"]
deals = 3
seed = 5
rounds_only = true

[[variant]]
name = "seven"

[[variant]]
name = "eight"
options = { hand_size = 8 }
"""


def quick(matches: int = 12, **kw: object) -> plan.ExperimentSpec:
    return plan.make_spec(game="twenty", players=["heuristic", "random"], matches=matches, seed=4, **kw)  # type: ignore[arg-type]


def test_plan_file_gives_one_experiment_per_variant(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(PLAN)
    seven, eight = plan.load_plan(path)
    assert (seven.name, eight.name) == ("hand size/seven", "hand size/eight")
    assert seven.options["hand_size"] == 7 and eight.options["hand_size"] == 8
    assert seven.mode == "deals" and seven.total == 6 and seven.rounds_only
    tasks = list(seven.tasks())
    assert [(t.deal, t.seating) for t in tasks] == [(0, (0, 1)), (0, (1, 0)), (1, (0, 1)), (1, (1, 0)),
                                                    (2, (0, 1)), (2, (1, 0))]
    assert tasks[0].seed == tasks[1].seed != tasks[2].seed  # a deal's seatings share its cards
    # A plan is a study: its variants know it, the baseline is its first variant, and they share
    # their seeds, so variant i's deal d is the same deal as variant j's.
    assert seven.study == eight.study == "hand size"
    assert seven.baseline == eight.baseline == "hand size/seven"
    assert [t.seed for t in seven.tasks()] == [t.seed for t in eight.tasks()]
    assert seven.noise == 0.0


def test_a_plan_chooses_its_baseline_and_playtest_noise(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(PLAN.replace('rounds_only = true', 'rounds_only = true\nbaseline = "eight"\nnoise = 0.1'))
    seven, eight = plan.load_plan(path)
    assert seven.baseline == eight.baseline == "hand size/eight"
    assert seven.noise == eight.noise == 0.1
    store = Store(tmp_path / "lab.sqlite")
    runner.run([seven, eight], store, jobs=1)
    stored = store.experiment("hand size/seven")
    assert stored is not None
    assert (stored.study, stored.baseline, stored.noise) == ("hand size", "hand size/eight", 0.1)
    # Another baseline does not change results: the plan run again files it and plays nothing.
    path.write_text(PLAN.replace('rounds_only = true', 'rounds_only = true\nbaseline = "seven"\nnoise = 0.1'))
    assert runner.run(plan.load_plan(path), store, jobs=1) == 0
    again = store.experiment("hand size/eight")
    assert again is not None and again.baseline == "hand size/seven"
    # The noise is part of what an experiment is: the same name with other noise is refused.
    with pytest.raises(ValueError, match="already stored with other settings"):
        runner.run([plan.make_spec(game="minus-twenty", players=["random", "random"], deals=3, seed=5,
                                   rounds_only=True, name="hand size/seven", options={"hand_size": 7})], store)


@pytest.mark.parametrize(("text", "message"), [
    ('baseline = "nine"', "baseline 'nine' is not one of the variants"),
    ('noise = 2', "noise is a chance between 0 and 1"),
    ('noise = "some"', "noise is a chance between 0 and 1"),
])
def test_bad_baselines_and_noise_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "study.toml"
    path.write_text(PLAN.replace('rounds_only = true', f'rounds_only = true\n{text}'))
    with pytest.raises(ValueError, match=message):
        plan.load_plan(path)
    path.write_text(PLAN.replace('name = "eight"', 'name = "eight"\nbaseline = "seven"'))
    with pytest.raises(ValueError, match="baseline is set once for the whole plan, not in a variant"):
        plan.load_plan(path)


def test_playtest_noise_slips_as_often_as_asked() -> None:
    """A deterministic bot with slips plays a random legal move with the chance given (counted over
    a seeded run: 2,000 choices at 30%), and its own move otherwise; with no choice, no slip."""
    import random as random_module

    from parlour import bots
    from parlour.game import Move

    class First(bots.Bot):
        def choose(self, observation, legal, rng, budget=None):  # type: ignore[no-untyped-def]
            return legal[0]

    slips = bots.Slips(First(), 0.3)
    rng = random_module.Random(11)
    legal = [Move("play", (n,)) for n in range(10)]
    chosen = [slips.choose({}, legal, rng) for _ in range(2000)]
    others = sum(1 for move in chosen if move != legal[0])
    assert 0.3 * 0.9 * 2000 * 0.85 < others < 0.3 * 0.9 * 2000 * 1.15  # 9 in 10 slips land elsewhere
    assert slips.choose({}, legal[:1], rng) == legal[0]
    assert slips.describe() == "bot with 30% slips"
    with pytest.raises(ValueError, match="between 0 and 1"):
        bots.Slips(First(), 1.5)


@pytest.mark.parametrize(("text", "message"), [
    ('game = "twenty"\nplayers = ["random", "random"]\nmatches = 3\ncolour = 1', "unknown key"),
    ('game = "twenty"\nplayers = ["random", "random"]\nmatches = 3\noptions = { jokers = 8 }', "no option"),
    ('game = "twenty"\nplayers = ["random", "random"]\nmatches = 3\ndeals = 2', "exactly one"),
    ('game = "twenty"\nplayers = ["random"]\nmatches = 3', "needs 2 players"),
    ('game = "twenty"\nplayers = ["random", "wizard"]\nmatches = 3', "unknown bot"),
    ('game = "chess"\nplayers = ["random", "random"]\nmatches = 3', "unknown game"),
    ('game = "twenty"\nplayers = ["random", "random"]\nmatches = 0', "positive"),
    ('game = "silver-bars"\nplayers = ["medium/without:play thif", "medium"]\nmatches = 3',
     "'play thif' is not a kind of move silver-bars offers among others"),
    ("game = [", "not valid TOML"),
])
def test_bad_plans_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        plan.load_plan(path)


def test_run_streams_matches_rounds_and_events_into_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "lab.sqlite"
    spec = quick()
    assert runner.run([spec], Store(db), jobs=1) == 12
    with sqlite3.connect(db) as raw:
        assert raw.execute("select count(*) from experiments").fetchone() == (1,)
        assert raw.execute("select count(*) from matches").fetchone() == (12,)
        stored_rounds = raw.execute("select count(*) from rounds").fetchone()[0]
        stored_events = raw.execute("select count(*) from events").fetchone()[0]
        texts = [row[0] for row in raw.execute('select record from matches order by "index"')]
    states = [record.replay(record.from_data(json.loads(t))) for t in texts]
    assert stored_rounds == sum(s.round_index + 1 for s in states) == 24
    assert stored_events == sum(len(r.events) for s in states for r in [*s.history, s])
    assert all(s.is_match_over() for s in states)
    assert runner.run([spec], Store(db), jobs=1) == 0  # nothing left to play


def test_same_name_other_settings_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "lab.sqlite")
    runner.run([quick(3, name="study")], store)
    with pytest.raises(ValueError, match="other settings"):
        runner.run([quick(4, name="study")], store)


def test_results_do_not_depend_on_jobs(tmp_path: Path) -> None:
    one, two = Store(tmp_path / "one.sqlite"), Store(tmp_path / "two.sqlite")
    specs = [quick(10), plan.make_spec(game="progression", players=["random"] * 3, deals=3, seed=2, rounds_only=True)]
    runner.run(specs, one, jobs=1)
    runner.run(specs, two, jobs=2)
    assert one.dump() == two.dump()


def test_units_of_work_grow_for_quick_matches_and_stay_single_for_slow_ones() -> None:
    sizer = runner._Sizer()
    assert sizer.size(1) == runner.CHUNK  # nothing timed yet
    sizer.timed(1, 4, 4 * runner.CHUNK_SECONDS / 100)  # a hundred such matches fill a unit
    sizer.timed(2, 1, 30.0)  # a search bot's match
    sizer.timed(3, 8, 0.0)  # too quick to time
    assert (sizer.size(1), sizer.size(2), sizer.size(3)) == (100, 1, runner.MAX_CHUNK)


def test_results_do_not_depend_on_how_work_is_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Units of work of every size the runner may choose (here one to three matches, changing
    as matches are timed) store the same matches as one job does."""
    one, two = Store(tmp_path / "one.sqlite"), Store(tmp_path / "two.sqlite")
    specs = [quick(14)]
    runner.run(specs, one, jobs=1)
    monkeypatch.setattr(runner, "CHUNK", 1)
    monkeypatch.setattr(runner, "MAX_CHUNK", 3)
    runner.run(specs, two, jobs=2)
    assert one.dump() == two.dump()


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as raw:
            return int(raw.execute("select count(*) from matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


KILLED_RUN = ["lab", "run", "twenty", "--players", "heuristic,heuristic", "--matches", "5000", "--seed", "9",
              "--jobs", "2"]
"""A run long enough (a few seconds on a quiet machine) that the first write, a second in, is never the
last: random play stores thousands of matches a second."""


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """What :data:`KILLED_RUN` stores when nothing stops it (played once for both ways of stopping it)."""
    whole = tmp_path_factory.mktemp("whole") / "whole.sqlite"
    done = subprocess.run([*parlour_command(), *KILLED_RUN, "--db", str(whole)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Store(whole).dump()


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_run_killed_midway_continues_where_it_stopped(tmp_path: Path, how: signal.Signals, whole_run: Any) -> None:
    broken = tmp_path / "broken.sqlite"
    proc = subprocess.Popen([*parlour_command(), *KILLED_RUN, "--db", str(broken)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            # Ctrl-C must reach it as a person's would, even if this test runs with SIGINT ignored.
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while _count(broken) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(how)
    _, stderr = proc.communicate(timeout=60)
    stored = _count(broken)
    assert 0 < stored < 5000, "the run should have been stopped mid-way"
    if how == signal.SIGINT:
        assert proc.returncode == 130 and "run the same command to continue" in stderr, stderr
    again = subprocess.run([*parlour_command(), *KILLED_RUN, "--db", str(broken)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert Store(broken).dump() == whole_run


def test_ctrl_c_during_a_write_waits_for_the_write_to_finish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a batch is being written is raised once the batch is stored, whole and once,
    so a run interrupted at any moment continues cleanly (it could end in a database error)."""
    spec = quick(6)
    store = Store(tmp_path / "lab.sqlite")
    experiment_id, _ = runner.prepare(store, spec)
    played = [runner.play_task(spec, task) for task in spec.tasks()]
    write = store.add_matches

    def interrupted_write(experiment: int, data: list[object]) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # as if Ctrl-C were pressed now, in the middle of the write
        write(experiment, data)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "add_matches", interrupted_write)
    writer = runner._Writer(store, None, runner._Sizer())
    writer.add(experiment_id, played, 0.1)
    # Ctrl-C as a person at a terminal has it: a suite started in the background (``&``, nohup)
    # runs with SIGINT ignored, and then there is nothing to hold back or raise.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            writer.flush()
    finally:
        signal.signal(signal.SIGINT, before)
    assert store.done(experiment_id) == {t.index for t in spec.tasks()}
    writer.flush()  # nothing is written twice
    assert len(store.matches(experiment_id)) == len(played)


@pytest.mark.slow
def test_ray_backend_gives_the_same_numbers(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    local, cluster = Store(tmp_path / "local.sqlite"), Store(tmp_path / "ray.sqlite")
    specs = [quick(8), plan.make_spec(game="silver-bars", players=["random", "random"], deals=2, seed=3,
                                      rounds_only=True)]
    runner.run(specs, local, jobs=1)
    runner.run(specs, cluster, jobs=2, backend="ray")
    assert local.dump() == cluster.dump()


@pytest.mark.slow
def test_memory_stays_flat(tmp_path: Path) -> None:
    """The peak memory of a run does not grow with the number of matches."""
    def peak(matches: int) -> int:
        code = (
            "import resource, sys\n"
            "from parlour.lab import plan, runner\nfrom parlour.store import Store\n"
            f"spec = plan.make_spec(game='twenty', players=['random', 'random'], matches={matches})\n"
            f"runner.run([spec], Store(sys.argv[1]), jobs=1)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        )
        import sys

        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / f"m{matches}.sqlite")],
                             capture_output=True, text=True, check=True)
        return int(out.stdout.strip())

    small, large = peak(200), peak(3000)
    assert large < small * 1.15


def test_ladder_rates_the_stronger_level_higher(tmp_path: Path) -> None:
    store = Store(tmp_path / "lab.sqlite")
    specs = ladder.ladder_specs("twenty", ["random", "medium"], matches=12)
    assert [s.name for s in specs] == ["ladder twenty: random vs medium"]
    runner.run(specs, store)
    ratings = ladder.rate(store, "twenty")
    assert ratings["medium"][0] > ratings["random"][0] and ratings["medium"][2] == 12
    store.save_ratings("twenty", ratings)
    assert [r.player for r in store.ratings("twenty")] == ["medium", "random"]
    assert ladder.rate(store, "twenty") == ratings  # same database, same ratings


def test_lab_cli_quick_run_plan_and_ladder(tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    out = subprocess.run([*parlour_command(), "lab", "run", "twenty", "--players", "random,random", "--matches", "6",
                          "--db", db], capture_output=True, text=True)
    assert out.returncode == 0 and "6 matches stored" in out.stdout
    path = tmp_path / "study.toml"
    path.write_text(PLAN)
    out = subprocess.run([*parlour_command(), "lab", "run", str(path), "--db", db], capture_output=True, text=True)
    assert out.returncode == 0 and "hand size/eight: 6 matches stored" in out.stdout
    out = subprocess.run([*parlour_command(), "lab", "run", "twenty", "--db", db], capture_output=True, text=True)
    assert out.returncode == 2 and "needs --players" in out.stderr
    out = subprocess.run([*parlour_command(), "lab", "ladder", "twenty", "--levels", "random,easy", "--matches", "4",
                          "--db", db], capture_output=True, text=True)
    assert out.returncode == 0 and "easy" in out.stdout and "μ" in out.stdout


def test_lab_report_cli_writes_html_json_and_markdown(tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    runner.run([quick(4, name="tiny")], Store(db))
    for fmt, main in (("html", "report.html"), ("json", "report.json"), ("markdown", "report.md")):
        out = subprocess.run([*parlour_command(), "lab", "report", "--db", db, "--out", str(tmp_path / fmt),
                              "--format", fmt], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert (tmp_path / fmt / main).stat().st_size > 0
    out = subprocess.run([*parlour_command(), "lab", "report", "nothing", "--db", db, "--out", str(tmp_path / "x")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "no experiment named 'nothing'" in out.stderr
    out = subprocess.run([*parlour_command(), "lab", "report", "--db", str(tmp_path / "none.sqlite")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "no lab database" in out.stderr
    out = subprocess.run([*parlour_command(), "lab", "report", "--db", db, "--baseline", "nonesuch", "--out",
                          str(tmp_path / "b")], capture_output=True, text=True)
    assert out.returncode == 2 and "no study in the report has a variant named 'nonesuch'" in out.stderr


def test_lab_cli_quick_run_with_playtest_noise_and_a_study_report(tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    out = subprocess.run([*parlour_command(), "lab", "run", "twenty", "--players", "medium,medium", "--deals", "2",
                          "--rounds-only", "--noise", "0.1", "--db", db, "--jobs", "1"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    (stored,) = Store(db).experiments()
    assert stored.noise == 0.1 and stored.study is None and stored.name.endswith(" noise 0.1")
    out = subprocess.run([*parlour_command(), "lab", "run", "twenty", "--players", "medium,medium", "--deals", "2",
                          "--noise", "3", "--db", db], capture_output=True, text=True)
    assert out.returncode == 2 and "--noise" in out.stderr
    plan_file = tmp_path / "study.toml"
    plan_file.write_text(PLAN.replace("deals = 3", "deals = 2"))
    out = subprocess.run([*parlour_command(), "lab", "run", str(plan_file), "--noise", "0.1", "--db", db],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "--noise: only for a quick run" in out.stderr
    out = subprocess.run([*parlour_command(), "lab", "run", str(plan_file), "--db", db, "--jobs", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([*parlour_command(), "lab", "report", "--db", db, "--baseline", "eight", "--format", "json",
                          "--smallest-difference", "0.1", "--seconds-per-move", "3", "--target-minutes", "1-2",
                          "--sample", "2", "--out", str(tmp_path / "r")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    numbers = json.loads((tmp_path / "r" / "report.json").read_text())
    assert numbers["settings"] == {"seconds_per_move": 3.0, "sample": 2, "target_minutes": [1.0, 2.0]}
    assert all(e["play"]["sample"] == 2 for e in numbers["experiments"])
    out = subprocess.run([*parlour_command(), "lab", "report", "--db", db, "--target-minutes", "40",
                          "--out", str(tmp_path / "r2")], capture_output=True, text=True)
    assert out.returncode == 2 and "--target-minutes is a range like 20-40, not '40'" in out.stderr
    (comparison,) = numbers["comparisons"]
    assert comparison["experiments"] == ["hand size/eight", "hand size/seven"]
    (primary,) = [row for row in comparison["verdicts"]["rows"] if row["primary"]]
    assert primary["key"] == "first_player" and primary["smallest"] == 0.1


_ORPHAN = """
import multiprocessing, os, sys, time

def worker(pid_file, started):
    with open(pid_file, "w") as out:
        out.write(str(os.getpid()))
    started.set()
    while os.getppid() == multiprocessing.parent_process().pid:
        time.sleep(0.05)  # a worker still starting when its parent is killed
    from parlour.children import die_with_parent
    die_with_parent()
    time.sleep(600)

if __name__ == "__main__":
    spawn = multiprocessing.get_context("spawn")
    started = spawn.Event()
    spawn.Process(target=worker, args=(sys.argv[1], started)).start()
    started.wait()
    os._exit(0)  # gone without a word, as when killed
"""


def test_a_worker_whose_parent_dies_while_it_starts_leaves(tmp_path: Path) -> None:
    """Idle bot workers of killed test servers were found alive after CI runs, handed to
    init: a server killed while a worker was still starting.  By the time the worker asks
    for Linux's parent-death signal, its parent is gone; it must see that and leave."""
    script, pid_file = tmp_path / "orphan.py", tmp_path / "worker.pid"
    script.write_text(_ORPHAN)
    subprocess.run([sys.executable, str(script), str(pid_file)], stderr=subprocess.DEVNULL, timeout=60, check=True)
    worker = int(pid_file.read_text())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _running(worker):
        time.sleep(0.2)
    alive = _running(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)  # leave nothing behind
    assert not alive, "the worker outlived its parent"


def _running(pid: int) -> bool:
    """Whether a process is there and not a zombie."""
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except FileNotFoundError:
        return False
