"""What the compiled engines share: numba's cached compilations are thrown away when what they were
compiled from changes (numba itself looks at each engine's own file only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("numba")

from parlour.batch import common


def test_cached_compilations_go_when_a_source_they_use_changes(tmp_path: Path) -> None:
    package = tmp_path / "parlour"
    for relative in ("batch/common.py", "batch/twenty.py", "games/twenty.py", "games/silver_bars/tables.py",
                     "envs/spaces/twenty.py", "cards.py", "game.py"):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(common.PACKAGE / relative, package / relative)
    cache = package / "batch" / "__pycache__"

    def compiled() -> list[Path]:
        cache.mkdir(exist_ok=True)
        made = [cache / "twenty._step-1.py311.nbi", cache / "twenty._step-1.py311.1.nbc"]
        for path in made:
            path.write_bytes(b"compiled")
        return made

    made = compiled()
    assert common.discard_stale_compilations(package)  # no fingerprint yet: nothing is trusted
    assert not any(path.exists() for path in made)
    made = compiled()
    assert not common.discard_stale_compilations(package)  # the same sources: the cache stays
    assert all(path.exists() for path in made)
    tables = package / "games" / "silver_bars" / "tables.py"
    tables.write_text(tables.read_text() + "\nCHANGED = 1\n")  # a rule's table, not an engine's file
    assert common.discard_stale_compilations(package)
    assert not any(path.exists() for path in made)
    (package / "envs" / "spaces" / "twenty.py").unlink()  # a source gone counts as a change too
    compiled()
    assert common.discard_stale_compilations(package)


def test_an_unwritable_cache_is_left_alone(tmp_path: Path) -> None:
    package = tmp_path / "parlour"
    (package / "batch").mkdir(parents=True)
    (package / "batch" / "__pycache__").write_text("a file where the folder should be")
    assert not common.discard_stale_compilations(package)
