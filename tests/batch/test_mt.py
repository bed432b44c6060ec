"""The compiled Mersenne Twister (:mod:`parlour.batch.mt`) draws what ``random.Random.choice`` draws."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from parlour.batch import mt


def test_below_is_random_choice_draw_by_draw() -> None:
    """Two generators, seeded as the lab seeds its bots, give the same picks for 3,000 draws each
    (several refills of the 624 words) over every kind of size: 1 (still a word drawn), powers of
    two, sizes that reject often (``2**k + 1``) and large ones."""
    sizes = [1, 2, 3, 5, 8, 9, 17, 33, 64, 65, 100, 1000, 2**31 - 1, 2**31 + 1]
    python = [random.Random(f"parlour-arena-bot:{seed}:0,1:0") for seed in (7, 8)]
    words, positions = mt.seeded([f"parlour-arena-bot:{seed}:0,1:0" for seed in (7, 8)])
    for draw in range(3000):
        n = sizes[draw % len(sizes)]
        for row, generator in enumerate(python):
            items = range(n)
            assert mt.below(words, positions, row, n) == generator.choice(items), (draw, n, row)
    for row, generator in enumerate(python):  # the states agree after it all
        assert list(words[row]) == list(generator.getstate()[1][:mt.N])
        assert positions[row] == generator.getstate()[1][mt.N]


def test_seeded_is_random_random_of_the_text() -> None:
    """The states :func:`mt.seeded` makes are ``random.Random(text)``'s, word for word, for the
    lab's seeds and for texts of every length (an empty one, one whose key is a single word's
    worth, one longer than the generator's 624 words)."""
    texts = [f"parlour-arena-bot:{seed}:1,0:{seat}" for seed in range(40) for seat in (0, 1)]
    texts += ["", "a", "é" * 2000]
    words, positions = mt.seeded(texts)
    for row, text in enumerate(texts):
        state = random.Random(text).getstate()[1]
        assert list(words[row]) == list(state[:mt.N]), text[:20]
        assert positions[row] == state[mt.N]
