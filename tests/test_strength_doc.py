"""docs/strength.md is exactly what benchmarks/strength.py writes from docs/strength.json (no
figure in it that the benchmark did not print), and the benchmark reads each round of a stored
match through the one record reader."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

from parlour import games, record

ROOT = Path(__file__).resolve().parent.parent


def strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_strength_page_is_the_benchmarks_rendering_of_its_figures() -> None:
    figures = json.loads((ROOT / "docs" / "strength.json").read_text())
    assert strength().render(figures) == (ROOT / "docs" / "strength.md").read_text()


def test_each_round_of_a_stored_match_is_read_at_its_end() -> None:
    rng = random.Random(4)
    state = games.get("twenty").new_match(seed=4)
    while not state.is_match_over():
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    ends = strength().round_ends(json.dumps(record.to_data(state)))
    assert [end.scores for end in ends] == state.round_scores()
    assert all(end.is_round_over() for end in ends)
