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
