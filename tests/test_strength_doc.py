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
from parlour.lab import arena

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


def test_hard_meets_medium_and_where_medium_wavers_the_advice_too() -> None:
    """Where medium is the advice itself, *hard vs heuristic* is hard against medium with the
    65% goal; where medium weighs the advice at a temperature (Minus Twenty), hard meets
    medium with that goal and the advice with a goal of its own (more than half)."""
    bench = strength()
    names = {g: [name for name, _, _ in bench.pairings(g)] for g in games.ids()}
    assert names["minus-twenty"] == ["heuristic vs random", "medium vs easy", "hard vs medium", "hard vs heuristic"]
    assert names["twenty"] == ["heuristic vs random", "medium vs easy", "hard vs heuristic"]
    assert bench.wanted("hard vs medium", "hard") and bench.wanted("hard vs medium", "hard-vs-medium")
    assert not bench.wanted("hard vs heuristic", "hard-vs-medium") and bench.wanted("medium vs easy", None)

    def stats(win_rate: float) -> list[object]:
        return [arena.PlayerStats("hard", 100, 0, 0, 0, win_rate, (0.0, 1.0), 0.0, 0.0)]

    assert bench.met("minus-twenty", "hard vs heuristic", stats(0.56))
    assert not bench.met("minus-twenty", "hard vs medium", stats(0.60))
    assert bench.met("minus-twenty", "hard vs medium", stats(0.65))
    assert not bench.met("twenty", "hard vs heuristic", stats(0.56))
