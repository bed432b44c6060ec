"""What the set-up compiles once (``make serve``), so that no player's first move and no lab run waits
for numba: the search's compiled rollouts and the lab's random rounds.  (A module of its own: the
package itself imports none of the engines.)"""

from __future__ import annotations

from parlour import batch


def warm() -> list[str]:
    """Compile (or load from numba's cache) the search's compiled rollouts
    (:func:`parlour.batch.rollout.warm`) and the lab's random rounds (:func:`parlour.batch.arena.warm`).
    Returns what it warmed, as ``kind:game`` (nothing without numba, or with it turned off)."""
    if not batch.available():
        return []
    from parlour.batch import arena, rollout

    return [f"rollouts:{g}" for g in rollout.warm()] + [f"random:{g}" for g in arena.warm()]
