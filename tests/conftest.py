"""Shared test helpers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    """The folder of golden records."""
    return DATA


def run_parlour(
    *args: str, stdin: str = "", columns: int = 100, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``parlour`` command as a person at a plain terminal would."""
    return subprocess.run(
        [*parlour_command(), *args], input=stdin, capture_output=True, text=True, timeout=timeout,
        env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
    )


def parlour_command() -> list[str]:
    """The real entry point, as a user would run it."""
    script = Path(sys.executable).parent / "parlour"
    return [str(script)] if script.exists() else [sys.executable, "-m", "parlour"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The conformance playouts are the slow suites: mark them (CI still runs them)."""
    for item in items:
        if "conformance" in item.name:
            item.add_marker(pytest.mark.slow)
