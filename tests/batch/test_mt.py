"""The compiled Mersenne Twister (:mod:`parlour.batch.mt`) draws what ``random.Random.choice`` draws."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from parlour.batch import mt  # noqa: E402


def test_below_is_random_choice_draw_by_draw() -> None:
    """Two generators, seeded as the lab seeds its bots, give the same picks for 3,000 draws each
    (several refills of the 624 words) over every kind of size: 1 (still a word drawn), powers of
    two, sizes that reject often (``2**k + 1``) and large ones."""
    sizes = [1, 2, 3, 5, 8, 9, 17, 33, 64, 65, 100, 1000, 2**31 - 1, 2**31 + 1]
    python = [random.Random(f"parlour-arena-bot:{seed}:0,1:0") for seed in (7, 8)]
    words, positions = mt.states([random.Random(f"parlour-arena-bot:{seed}:0,1:0") for seed in (7, 8)])
    for draw in range(3000):
        n = sizes[draw % len(sizes)]
        for row, generator in enumerate(python):
            items = range(n)
            assert mt.below(words, positions, row, n) == generator.choice(items), (draw, n, row)
    for row, generator in enumerate(python):  # the states agree after it all
        assert list(words[row]) == list(generator.getstate()[1][:mt.N])
        assert positions[row] == generator.getstate()[1][mt.N]


def test_states_refuse_another_generator() -> None:
    class Other(random.Random):
        def getstate(self):  # type: ignore[no-untyped-def]
            return (2, (0,) * 10, None)

    with pytest.raises(ValueError, match="Mersenne Twister"):
        mt.states([Other(1)])
