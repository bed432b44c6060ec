"""Python's own random numbers inside compiled code: the Mersenne Twister (MT19937) of
:class:`random.Random`, continued from a ``Random``'s state, and the draw of
:meth:`random.Random.choice` on top of it.

The lab's bots choose with a :class:`random.Random` each (:func:`parlour.lab.arena.arena_bot_rng`).
For the lab to store the same results whether or not the compiled engines are installed, a
compiled match must draw exactly the numbers the Python match draws: this module takes each
generator's state (:meth:`random.Random.getstate`) into arrays and continues it there, word for
word (``tests/batch/test_mt.py`` holds it to ``random.Random`` draw by draw).  It is not new
randomness, only CPython's generator run where the moves are made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from parlour.batch.common import inlined, lean

N = 624
"""Words of the generator's state."""
_M = 397
_MATRIX = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)


def states(generators: Sequence[random.Random]) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]]:
    """The generators' states as arrays: ``(words (k, 624) uint32, positions (k,) int64)``."""
    words = np.empty((len(generators), N), np.uint32)
    positions = np.empty(len(generators), np.int64)
    for row, generator in enumerate(generators):
        version, internal, _ = generator.getstate()
        if version != 3 or len(internal) != N + 1:
            raise ValueError("not a Mersenne Twister state of this Python")
        words[row] = internal[:N]
        positions[row] = internal[N]
    return words, positions


@lean
def _twist(words: npt.NDArray[np.uint32], row: int) -> None:  # pragma: no cover - compiled
    """The generator's next 624 words: mirrors ``genrand_uint32``'s refill in CPython's ``_randommodule.c``."""
    mt = words[row]
    for k in range(N):
        y = (mt[k] & _UPPER) | (mt[(k + 1) % N] & _LOWER)
        value = mt[(k + _M) % N] ^ (y >> np.uint32(1))
        if y & np.uint32(1):
            value ^= _MATRIX
        mt[k] = value


@inlined
def next_word(words: npt.NDArray[np.uint32], positions: npt.NDArray[np.int64], row: int) -> np.uint32:  # pragma: no cover
    """Generator ``row``'s next 32-bit word: mirrors ``genrand_uint32`` (with its tempering)."""
    if positions[row] >= N:
        _twist(words, row)
        positions[row] = 0
    y = words[row, positions[row]]
    positions[row] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@inlined
def below(words: npt.NDArray[np.uint32], positions: npt.NDArray[np.int64], row: int, n: int) -> int:  # pragma: no cover
    """A number from 0 to ``n - 1`` (``1 <= n < 2**32``), as ``Random.choice`` picks an index: mirrors
    ``Random._randbelow_with_getrandbits`` (``k = n.bit_length()`` bits a try, again while too large)."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    shift = np.uint32(32 - k)
    r = int(next_word(words, positions, row) >> shift)
    while r >= n:
        r = int(next_word(words, positions, row) >> shift)
    return r
