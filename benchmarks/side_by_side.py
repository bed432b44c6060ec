"""Run a benchmark against two versions of parlour alternately, for ratios a noisy machine
does not blur: each run is a fresh process with one version's ``src`` first on the path,
and the two versions take turns, so a slow spell of the machine falls on both."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "src"
"""This checkout's ``src``."""


def against_path(parser: argparse.ArgumentParser, path: Path) -> Path:
    """``path`` resolved, or a parser error if it holds no parlour."""
    if not (path / "parlour" / "__init__.py").exists():
        parser.error(f"{path} is not a src directory holding parlour")
    return path.resolve()


def alternate(script: str, args: list[str], against: Path, pairs: int) -> tuple[list[float], list[float]]:
    """Medians, figure by figure, of ``script args`` run ``pairs`` times by this version and by
    the one at ``against``, in turns; the script prints its figures on one line."""
    runs: dict[Path, list[list[float]]] = {HERE: [], against: []}
    for _ in range(pairs):
        for src in (HERE, against):
            env = {**os.environ, "PYTHONPATH": str(src)}
            out = subprocess.run([sys.executable, script, *args], env=env,
                                 capture_output=True, text=True, check=True).stdout
            runs[src].append([float(x) for x in out.split()])
    here, other = ([statistics.median(column) for column in zip(*runs[src])] for src in (HERE, against))
    return here, other
