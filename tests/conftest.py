"""Shared test helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    """The folder of golden records."""
    return DATA


def parlour_command() -> list[str]:
    """The real entry point, as a user would run it."""
    script = Path(sys.executable).parent / "parlour"
    return [str(script)] if script.exists() else [sys.executable, "-m", "parlour"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The conformance playouts are the slow suites: mark them (CI still runs them)."""
    for item in items:
        if "conformance" in item.name:
            item.add_marker(pytest.mark.slow)
