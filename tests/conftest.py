"""Shared test helpers."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest

from parlour import games

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(str(files("parlour"))).parent
"""The folder the imported ``parlour`` package lies in."""
STATE_HOME = Path(tempfile.gettempdir()) / "parlour-tests-state"
"""``$XDG_STATE_HOME`` of the ``parlour`` that :func:`run_parlour` runs: a match quit there is kept here,
never in the home folder of whoever runs the tests."""


def export_release(commit: str, folder: Path) -> Path:
    """An earlier release's source tree (``src/``) exported from git into ``folder``, for tests that
    run it for real (a database it made must open and go on after an upgrade)."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], capture_output=True,
                              timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.fail(f"cannot run git to export the previous release ({commit}): {exc}; these tests need a "
                    "git clone of the project with its history", pytrace=False)
    if done.returncode != 0:
        pytest.fail(f"git archive {commit} failed: {done.stderr.decode(errors='replace').strip()}; these "
                    "tests need a git clone of the project with its history (not a shallow one)", pytrace=False)
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def newest_revision(package: str) -> str:
    """The head revision of a package's Alembic migrations (``parlour.web``, ``parlour.store``)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(files(package).joinpath("migrations")))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@pytest.fixture
def data_dir() -> Path:
    """The folder of golden records."""
    return DATA


def run_parlour(
    *args: str, stdin: str = "", columns: int = 100, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``parlour`` command as a person at a plain terminal would (the parlour these
    tests import: a worktree's, not the one the virtual environment installed)."""
    return subprocess.run(
        [*parlour_command(), *args], input=stdin, capture_output=True, text=True, timeout=timeout,
        env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin", "TERM": "dumb", "PYTHONPATH": str(SOURCE),
             "XDG_STATE_HOME": str(STATE_HOME)},
    )


def parlour_command() -> list[str]:
    """The real entry point, as a user would run it."""
    script = Path(sys.executable).parent / "parlour"
    return [str(script)] if script.exists() else [sys.executable, "-m", "parlour"]


LONGEST_FIRST = (
    "web/test_cluster.py", "envs/test_solve.py", "web/test_browser.py", "web/test_abuse.py",
    "batch/test_silver_bars.py", "web/test_schema_fuzz.py", "test_lab.py", "batch/test_minus_twenty.py",
)
"""The files that take longest (a minute or more each on two cores), run first: ``make test`` hands each
worker a whole file at a time, and a long file started last would keep one worker busy alone at the end."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The conformance playouts are the slow suites: mark them (CI still runs them).  The longest files
    go first (:data:`LONGEST_FIRST`); the order of the tests within a file is kept."""
    for item in items:
        if "conformance" in item.name:
            item.add_marker(pytest.mark.slow)

    def rank(item: pytest.Item) -> int:
        path = item.path.as_posix()
        return next((n for n, name in enumerate(LONGEST_FIRST) if path.endswith("/tests/" + name)), len(LONGEST_FIRST))

    items.sort(key=rank)


@pytest.fixture
def ladder() -> Iterator[object]:
    """Ladder (the plug-in example, tests/ladder.py) registered for one test, and gone again after it
    (other tests list the games)."""
    import ladder as module

    module.register()
    try:
        yield module
    finally:
        games.REGISTRY.unregister("ladder")
