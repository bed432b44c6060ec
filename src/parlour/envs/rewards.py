"""The reward scale that the RL adapters (:mod:`parlour.envs.gymnasium`,
:mod:`parlour.envs.pettingzoo`, :mod:`parlour.envs.selfplay`) multiply points by.

Raw points are large for a learner: a match of Twenty is won or lost by tens to
hundreds of points, and sb3-contrib's ``MaskablePPO`` learned nothing in four
minutes on them (58% against random), where the same points divided by 50
reached 80%.  Each game's default scale puts a typical match margin (the
learner's total minus the mean of the others') within about ±1: it is one
over the 90th percentile of that margin in 300 seeded matches between random
bots (seeds 0–299, full rules), rounded to 50 or 100 points::

    game          |margin| median   90th percentile   scale
    twenty              26                57          1/50
    minus-twenty        33                88          1/100
    progression         23                65          1/50
    silver-bars         20                44          1/50

Between heuristic bots the figures are alike (90th percentiles 62, 76, 80
and 60).  A round's margin is smaller (90th percentiles 43, 46, 26 and 17),
so ``reward="round"`` pays less than ±1 a round under the same scale, and
the rounds of a match add up to its match reward.  ``reward_scale=1`` gives
raw points.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from parlour import games

__all__ = ["default_reward_scale", "reward_scale_for"]


def default_reward_scale(game_id: str, options: Mapping[str, Any] | None = None) -> float:
    """The scale the adapters use for ``game_id`` when none is given: its registry entry's
    (:attr:`parlour.games.registry.GameEntry.reward_scale`; 1, raw points, for a plug-in that
    gives none), the same for every choice of rule options (a smaller variant pays smaller
    rewards)."""
    return games.entry(game_id).reward_scale


def reward_scale_for(game_id: str, reward_scale: float | None, options: Mapping[str, Any] | None = None) -> float:
    """``reward_scale`` checked (a finite number above 0), or the game's default for ``None``."""
    if reward_scale is None:
        return default_reward_scale(game_id, options)
    if isinstance(reward_scale, bool) or not isinstance(reward_scale, int | float):
        raise ValueError(f"reward_scale must be a number above 0 (or None for the game's default), "
                         f"not {reward_scale!r}")
    scale = float(reward_scale)
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"reward_scale must be a finite number above 0, not {reward_scale!r}")
    return scale
