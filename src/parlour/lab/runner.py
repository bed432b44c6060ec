"""Running experiments: every core (processes) or a Ray cluster, streamed into the store.

Each match's seed and seating follow from its experiment and its index
alone, so results do not depend on how many workers play them, nor on the
backend, nor on being interrupted: a run started again skips the matches
already stored and plays the rest.  Finished matches are written in small
batches, each batch one transaction; at most ``jobs × 4`` chunks of work are
in flight, so memory stays flat however many matches run.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import Any

from parlour import batch, record
from parlour.children import die_with_parent
from parlour.game import State
from parlour.lab.arena import outcome, play_match, player_labels
from parlour.lab.spec import ExperimentSpec, Task
from parlour.store import MatchData, Store

CHUNK = 4
"""Matches in an experiment's first units of work sent to a worker."""
CHUNK_SECONDS = 0.1
"""About how long a unit of work should take once an experiment's matches have been timed:
matches of random bots go to workers by the hundred (one at a time, each one's result
crossing between processes cost the run a third of its speed at two jobs), a search bot's
match alone."""
MAX_CHUNK = 256
"""The most matches in one unit of work."""
FLUSH_SECONDS = 1.0
"""Longest time finished matches wait before they are written."""

Work = tuple[int, ExperimentSpec, list[Task]]


def play_task(spec: ExperimentSpec, task: Task) -> MatchData:
    """Play one match of an experiment and describe it for the store."""
    state = play_match(spec.game, spec.players, task.seed, task.seating, options=spec.options,
                       rounds_only=spec.rounds_only, noise=spec.noise)
    return describe(spec, task, state)


def play_tasks(spec: ExperimentSpec, tasks: Sequence[Task]) -> list[MatchData]:
    """Play several matches of an experiment and describe them for the store: matches of random bots
    all at once on the game's batched engine where it is installed (:mod:`parlour.batch.arena`, the
    same matches to the move), any other one by one."""
    if len(tasks) > 1 and on_batched_engine(spec):
        from parlour.batch import arena as batched

        try:
            states = batched.play_matches(spec.game, [task.seed for task in tasks], [task.seating for task in tasks],
                                          player_labels(spec.players), options=spec.options,
                                          rounds_only=spec.rounds_only)
        except batched.Unsupported:
            pass  # options the engine does not take: the rules engine plays them
        else:
            return [describe(spec, task, state) for task, state in zip(tasks, states)]
    return [play_task(spec, task) for task in tasks]


def on_batched_engine(spec: ExperimentSpec) -> bool:
    """Whether the experiment's matches are played on the game's batched engine
    (:func:`parlour.batch.arena.supports`): False at once, without importing numba, for any player but
    the random bot or where numba is not installed (or turned off)."""
    if spec.noise or any(player != "random" for player in spec.players) or spec.game not in batch.ENGINES \
            or not batch.available():
        return False
    from parlour.batch import arena

    return arena.supports(spec.game, spec.players, spec.noise)


def describe(spec: ExperimentSpec, task: Task, state: State) -> MatchData:
    """A finished match of an experiment, as the store keeps it."""
    totals, winners = outcome(state, spec.rounds_only)
    finished = [(r.scores, r.moves, r.events) for r in state.history]
    finished.append((state.scores, state.moves, state.events))
    rounds: list[tuple[int, int, list[int], int]] = []
    events: list[tuple[int, int, int | None, str, int]] = []
    moves = 0
    for number, (scores, played, happened) in enumerate(finished, 1):
        rounds.append((number, state.round_starter(number - 1), list(scores), len(played)))
        events.extend((number, e.move, e.seat, e.kind, e.points) for e in happened)
        moves += len(played)
    meta = {"experiment": spec.name, "index": task.index, "deal": task.deal, "seed": task.seed,
            "bots": [spec.players[p] for p in task.seating], **({"noise": spec.noise} if spec.noise else {})}
    text = json.dumps(record.to_data(state, meta), separators=(",", ":"))
    return MatchData(task.index, task.deal, list(task.seating), task.seed, state.first, totals, winners,
                     moves, text, rounds, events)


Played = tuple[int, list[MatchData], float]
"""A unit of work done: the experiment's id, its matches, and the CPU seconds they took."""


def play_chunk(experiment_id: int, spec: ExperimentSpec, tasks: Sequence[Task]) -> Played:
    """Play several tasks of one experiment (a worker's unit of work)."""
    start = time.process_time()
    played = play_tasks(spec, tasks)
    return experiment_id, played, time.process_time() - start


class _Sizer:
    """How many matches of each experiment go into the next unit of work: :data:`CHUNK` at
    first, then as many as take about :data:`CHUNK_SECONDS` by the matches timed so far."""

    def __init__(self) -> None:
        self.sizes: dict[int, int] = {}

    def size(self, experiment_id: int) -> int:
        return self.sizes.get(experiment_id, CHUNK)

    def timed(self, experiment_id: int, matches: int, seconds: float) -> None:
        if matches:
            per_match = max(seconds / matches, 1e-6)
            self.sizes[experiment_id] = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_match)))


def prepare(store: Store, spec: ExperimentSpec) -> tuple[int, set[int]]:
    """The experiment's id (stored now if new) and the indices already played.

    A stored experiment of the same name must have the same definition.
    """
    from parlour import games

    _check_stored(store, spec)
    row = store.experiment(spec.name)
    shape = None if spec.shape is None else spec.shape.as_json()
    if row is None:
        row = store.add_experiment(
            name=spec.name, game=spec.game, game_version=games.get(spec.game).version, options=spec.options,
            players=list(spec.players), mode=spec.mode, count=spec.count, seed=spec.seed,
            rounds_only=spec.rounds_only, noise=spec.noise, study=spec.study, baseline=spec.baseline, shape=shape)
        return row.id, set()
    if spec.study is not None and (row.study, row.baseline, row.shape) != (spec.study, spec.baseline, shape):
        store.set_study(row.id, spec.study, spec.baseline, shape)
    return row.id, store.done(row.id)


def _check_stored(store: Store, spec: ExperimentSpec) -> None:
    """Raise :class:`ValueError` if an experiment of ``spec``'s name is stored with another definition."""
    from parlour import games

    row = store.experiment(spec.name)
    if row is None:
        return
    # A release that knew fewer options stored fewer: the ones added since play at their defaults.
    options = games.get(row.game).check_options(row.options) if row.game in games.ids() else row.options
    stored = {"game": row.game, "options": options, "players": row.players, "mode": row.mode,
              "count": row.count, "seed": row.seed, "rounds_only": row.rounds_only, "noise": row.noise}
    if stored != spec.definition():
        raise ValueError(f"experiment {spec.name!r} is already stored with other settings; give it another name")


def _work(store: Store, specs: Sequence[ExperimentSpec], sizer: _Sizer) -> tuple[Iterator[Work], int, int]:
    """Chunks of pending tasks (as many in each as ``sizer`` says when it is made), and how
    many matches are pending and already done."""
    pending = done = 0
    plans = []
    for spec in specs:
        experiment_id, finished = prepare(store, spec)
        done += len(finished)
        pending += spec.total - len(finished)
        plans.append((experiment_id, spec, finished))

    def chunks() -> Iterator[Work]:
        for experiment_id, spec, finished in plans:
            tasks = spec.tasks(finished)
            while batch := list(islice(tasks, sizer.size(experiment_id))):
                yield experiment_id, spec, batch

    return chunks(), pending, done


class _Writer:
    """Buffers finished matches and writes them in batches."""

    def __init__(self, store: Store, progress: Callable[[int], None] | None, sizer: _Sizer) -> None:
        self.store = store
        self.sizer = sizer
        self.progress = progress
        self.buffer: dict[int, list[MatchData]] = {}
        self.last = time.monotonic()

    def add(self, experiment_id: int, played: list[MatchData], seconds: float) -> None:
        self.sizer.timed(experiment_id, len(played), seconds)
        self.buffer.setdefault(experiment_id, []).extend(played)
        if self.progress is not None:
            self.progress(len(played))
        if time.monotonic() - self.last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Write what is buffered.  A Ctrl-C that arrives meanwhile waits until the write is
        done (so a batch is stored whole, once) and is then raised as usual."""
        buffer, self.buffer = self.buffer, {}
        self.last = time.monotonic()
        with _ctrl_c_deferred():
            for experiment_id, played in buffer.items():
                if played:
                    self.store.add_matches(experiment_id, played)


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold back SIGINT (Ctrl-C) inside the block and raise it as :class:`KeyboardInterrupt`
    when the block ends (a no-op outside the main thread, where Python delivers no signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(signal.SIGINT, None)  # Python's own handler raises KeyboardInterrupt


BACKENDS = ("processes", "ray")
"""Where matches are played: this machine's processes, or a Ray cluster."""


def check_backend(backend: str) -> None:
    """Raise :class:`ValueError` unless ``backend`` is one of :data:`BACKENDS` and can run here."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (processes or ray)")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ValueError("the ray backend needs Ray, which is not installed: pip install 'parlour[ray]'")


def check(specs: Sequence[ExperimentSpec], store: Store, backend: str = "processes") -> None:
    """What :func:`run` checks before its first match, for front ends to call before they
    show any progress: the backend, and that no experiment is stored under the same name
    with other settings.  Raises :class:`ValueError`."""
    check_backend(backend)
    for spec in specs:
        _check_stored(store, spec)


def run(
    specs: Sequence[ExperimentSpec],
    store: Store,
    *,
    jobs: int = 1,
    backend: str = "processes",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    started: Callable[[int, int], None] | None = None,
) -> int:
    """Play every match of ``specs`` not yet stored; return how many were played.

    ``started(pending, done)`` is called once the work is known; ``progress(n)``
    as matches finish.  An interruption (Ctrl-C) writes what has finished
    before it propagates.
    """
    check(specs, store, backend)
    sizer = _Sizer()
    work, pending, done = _work(store, specs, sizer)
    if started is not None:
        started(pending, done)
    writer = _Writer(store, progress, sizer)
    try:
        if backend == "ray":
            _run_ray(work, writer, jobs, address)
        elif jobs <= 1:
            for experiment_id, spec, tasks in work:
                writer.add(*play_chunk(experiment_id, spec, tasks))
        else:
            _run_processes(work, writer, jobs)
    finally:
        writer.flush()
    return pending


def _run_processes(work: Iterable[Work], writer: _Writer, jobs: int) -> None:
    with ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent) as pool:
        running: set[Future[Played]] = set()
        source = iter(work)
        try:
            while True:
                while len(running) < jobs * 4 and (item := next(source, None)) is not None:
                    running.add(pool.submit(play_chunk, *item))
                if not running:
                    break
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    writer.add(*future.result())
        except BaseException:
            for future in running:
                future.cancel()
            raise


def start(backend: str, jobs: int = 1, address: str | None = None) -> None:
    """Check ``backend`` and, for Ray, connect to the cluster (or start a local one) now, so
    that a wrong address is reported before the first match.  Raises :class:`ValueError`."""
    check_backend(backend)
    if backend == "ray":
        _init_ray(jobs, address)


def _init_ray(jobs: int, address: str | None) -> None:
    import ray

    if ray.is_initialized():
        return
    try:
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            ray.init(num_cpus=max(jobs, 1), include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    except ConnectionError:
        raise ValueError(f"cannot connect to the Ray cluster at {address} (is it running there?)") from None


def _run_ray(work: Iterable[Work], writer: _Writer, jobs: int, address: str | None) -> None:
    import ray

    _init_ray(jobs, address)
    remote = ray.remote(play_chunk)
    running: list[Any] = []
    source = iter(work)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    limit = max(jobs, int(cpus)) * 4
    while True:
        while len(running) < limit and (item := next(source, None)) is not None:
            running.append(remote.remote(*item))
        if not running:
            break
        finished, running = ray.wait(running, num_returns=1)
        for ref in finished:
            writer.add(*ray.get(ref))
