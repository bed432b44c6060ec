"""Every part of each game's space stays bit for bit what it was before ``envs/spaces`` became a
package (issue 32): the vector of an observation (``encode``), the public and private parts
(``encode_public``, ``encode_private``), the bounds, the layout and the action table, along a few
seeded random matches per game.  ``test_encoding_speed.py`` holds ``encode_state`` and ``mask``.

To make the digests again from another checkout's ``src`` (they must not change):

    PYTHONPATH=/tmp/old/src python tests/envs/test_space_digests.py
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from parlour import games  # noqa: E402
from parlour.envs.spaces import space  # noqa: E402

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "minus-twenty": ("minus-twenty", {}),
    "progression": ("progression", {"rounds": 2}),
    "twenty": ("twenty", {}),
    "twenty-open-hands": ("twenty", {"open_hands": True}),
    "silver-bars": ("silver-bars", {"target_score": 40, "rubble": 2}),
}

DIGESTS = {
    "minus-twenty": "b7ac72de58d8c9f3db4c7864667f53c22741481be80b21b346666440a128f1a9",
    "progression": "fa66be7a46ca7b4f2efdb2e0130a6df9e884d5ee9d8dfbb24b92a81303a6cd94",
    "twenty": "15dbc1a811b3c2adabacf945aeb3befa0d9b6fb6c3e18e41e37b2e94b9bcf645",
    "twenty-open-hands": "7ae79cdd54d525f4cf4046b4d1aa674c2bfe9cd555931333766aeef1ea0c4760",
    "silver-bars": "4e55932adba44bf4a60b96a4e21d803693f50426ac51074f89b7dfa2d822587d",
}
"""SHA-256 of :func:`digest` for each variant, made by the single-module ``spaces.py``."""


def digest(game_id: str, options: dict[str, Any]) -> str:
    """SHA-256 of the space's tables and bounds, then of every seat's ``encode``, ``encode_public``
    and ``encode_private`` at each position of two seeded random matches."""
    sp = space(game_id, options)
    sha = hashlib.sha256()
    sha.update(sp.table().encode())
    sha.update(sp.layout_table().encode())
    sha.update(sp.low.tobytes())
    sha.update(sp.high.tobytes())
    for seed in range(2):
        rng = random.Random(seed)
        state = games.get(game_id).new_match(seed=seed, options=options)
        while True:
            for seat in range(sp.players):
                sha.update(sp.encode(state.observation(seat)).tobytes())
                sha.update(sp.encode_private(state, seat).tobytes())
            sha.update(sp.encode_public(state).tobytes())
            legal = state.legal_moves()
            if legal:
                state.apply(rng.choice(legal))
            elif not state.advance():
                break
    return sha.hexdigest()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_encodings_as_the_single_module(variant: str) -> None:
    assert digest(*VARIANTS[variant]) == DIGESTS[variant]


if __name__ == "__main__":
    for name, variant in VARIANTS.items():
        sys.stdout.write(f"    {name!r}: {digest(*variant)!r},\n")
