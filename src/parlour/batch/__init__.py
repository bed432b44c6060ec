"""Compiled, batched engines: many matches of a game held in flat arrays and stepped in one call
(numba), for self-play at scale, fast rollouts and the lab's many matches.

An optional extra (``pip install parlour[fast]``): nothing else in parlour imports numba, and
:func:`available` says whether it is installed.  Each engine is a *second* implementation of its
game's rules: the rules engine (:mod:`parlour.games`) stays the reference and the home of every
rule, each compiled step names the function of the rules engine it mirrors, and the tests
(``tests/batch/``) replay thousands of the batched engine's games through the rules engine, step
by step.  Actions are indices into the game's fixed action table
(:func:`parlour.envs.spaces.space`), observations the same vectors as its ``encode_state``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Mapping
from typing import Any

ENGINES: dict[str, tuple[str, str]] = {
    "minus-twenty": ("parlour.batch.minus_twenty", "MinusTwentyBatch"),
    "progression": ("parlour.batch.progression", "ProgressionBatch"),
    "silver-bars": ("parlour.batch.silver_bars", "SilverBarsBatch"),
    "twenty": ("parlour.batch.twenty", "TwentyBatch"),
}
"""Each game with a batched engine: its module and class (imported only when asked for)."""


OFF = "PARLOUR_BATCH"
"""The environment variable that, set to ``off``, makes parlour leave the compiled engines alone as if
numba were not installed (to compare the two, or to rule the engines out)."""


def available() -> bool:
    """Whether the compiled engines can run here: numba is installed (``parlour[fast]``) and
    ``PARLOUR_BATCH`` is not ``off``."""
    if os.environ.get(OFF, "").strip().lower() == "off":
        return False
    return importlib.util.find_spec("numba") is not None


def ids() -> list[str]:
    """The games with a batched engine."""
    return list(ENGINES)


def engine(game_id: str, n: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> Any:
    """``n`` matches of ``game_id`` in a batched engine, dealt from ``seed`` (raises
    :class:`ValueError` for a game without one, :class:`ImportError` without numba)."""
    if game_id not in ENGINES:
        raise ValueError(f"no batched engine for {game_id!r} (there is one for {', '.join(ENGINES)})")
    if not available():
        if importlib.util.find_spec("numba") is not None:
            raise ImportError(f"the batched engines are turned off ({OFF}=off)")
        raise ImportError("the batched engines need numba: pip install 'parlour[fast]'")
    module, name = ENGINES[game_id]
    return getattr(importlib.import_module(module), name)(n, seed, options)

