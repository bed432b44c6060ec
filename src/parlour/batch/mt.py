"""Python's own random numbers inside compiled code: the Mersenne Twister (MT19937) of
:class:`random.Random`, seeded from a text as ``random.Random(text)`` seeds it, and the draw of
:meth:`random.Random.choice` on top of it.

The lab's bots choose with a :class:`random.Random` each (:func:`parlour.lab.arena.arena_bot_rng`).
For the lab to store the same results whether or not the compiled engines are installed, a
compiled match must draw exactly the numbers the Python match draws: this module makes each
generator's state in arrays, as CPython lays it out, and runs it there, word for word
(``tests/batch/test_mt.py`` holds it to ``random.Random`` draw by draw).  It is not new
randomness, only CPython's generator run where the moves are made.
"""

from __future__ import annotations

import hashlib
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


def seeded(seeds: Sequence[str]) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]]:
    """The states of ``random.Random(seed)`` for each text ``seed``, as arrays (``words (k, 624)
    uint32, positions (k,) int64``, CPython's own layout), made here without the generators (a
    generator's ``getstate`` alone costs more than this whole seeding).  Mirrors ``Random.seed``
    (version 2: the text's bytes and their SHA-512 as one integer) and ``random_seed``'s
    ``init_by_array`` in CPython's ``_randommodule.c``."""
    keys = []
    for seed in seeds:
        text = seed.encode()
        number = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
        size = max(1, (number.bit_length() + 31) // 32)
        keys.append(np.frombuffer(number.to_bytes(size * 4, "little"), np.uint32))
    longest = max((len(key) for key in keys), default=1)
    key_words = np.zeros((len(keys), longest), np.uint32)
    lengths = np.empty(len(keys), np.int64)
    for row, key in enumerate(keys):
        key_words[row, :len(key)] = key
        lengths[row] = len(key)
    words = np.empty((len(keys), N), np.uint32)
    _init_by_array(words, key_words, lengths)
    return words, np.full(len(keys), N, np.int64)


@lean
def _init_by_array(words: npt.NDArray[np.uint32], keys: npt.NDArray[np.uint32],
                   lengths: npt.NDArray[np.int64]) -> None:  # pragma: no cover - compiled
    """Each row's generator seeded from its key: mirrors ``init_genrand(19650218)`` then ``init_by_array``."""
    low = np.uint64(0xFFFFFFFF)
    for row in range(words.shape[0]):
        mt = words[row]
        mt[0] = np.uint32(19650218)
        for i in range(1, N):
            previous = np.uint64(mt[i - 1])
            mt[i] = np.uint32((np.uint64(1812433253) * (previous ^ (previous >> np.uint64(30))) + np.uint64(i)) & low)
        length = lengths[row]
        i = 1
        j = 0
        for _ in range(max(N, length)):
            previous = np.uint64(mt[i - 1])
            mixed = (np.uint64(mt[i]) ^ (((previous ^ (previous >> np.uint64(30))) * np.uint64(1664525)) & low))
            mt[i] = np.uint32((mixed + np.uint64(keys[row, j]) + np.uint64(j)) & low)
            i += 1
            j += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
            if j >= length:
                j = 0
        for _ in range(N - 1):
            previous = np.uint64(mt[i - 1])
            mixed = (np.uint64(mt[i]) ^ (((previous ^ (previous >> np.uint64(30))) * np.uint64(1566083941)) & low))
            mt[i] = np.uint32((mixed - np.uint64(i)) & low)
            i += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
        mt[0] = np.uint32(0x80000000)


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
def next_word(words: npt.NDArray[np.uint32], positions: npt.NDArray[np.int64],
              row: int) -> np.uint32:  # pragma: no cover - compiled
    """Generator ``row``'s next 32-bit word: mirrors ``genrand_uint32`` (with its tempering)."""
    if positions[row] >= N:
        _twist(words, row)
        positions[row] = 0
    y: np.uint32 = words[row, positions[row]]
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
