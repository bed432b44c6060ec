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


def test_the_shuffle_deals_every_order_alike() -> None:
    """Two places a word: each of the 24 orders of 4 cards (and each of the 120 of 5, an odd count)
    comes out about as often as the others over 60,000 seeded shuffles, each card everywhere."""
    import numpy as np

    for n, draws in ((4, 48_000), (5, 60_000)):
        rng = np.array([common.mix(np.uint64(2026 + n))], np.uint64)
        counts: dict[bytes, int] = {}
        for _ in range(draws):
            deck = np.arange(n, dtype=np.int8)
            common.shuffle(rng, 0, deck, n)
            counts[deck.tobytes()] = counts.get(deck.tobytes(), 0) + 1
        orders = 24 if n == 4 else 120
        assert len(counts) == orders
        expected = draws / orders
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < 2 * orders  # about `orders` − 1 for a fair shuffle; a place drawn from a wrong range is far off
