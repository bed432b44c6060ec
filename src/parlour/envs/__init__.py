"""The standard interfaces for AI research (install extra ``parlour[rl]``).

* :mod:`parlour.envs.spaces` — each game's fixed discrete action table
  (index ↔ move) and its fixed-shape observation encoding, made from the
  seat's :meth:`~parlour.game.State.observation` only.
* :mod:`parlour.envs.pettingzoo` — PettingZoo AEC environments:
  ``parlour.envs.pettingzoo.env("minus-twenty", **options)``.
* :mod:`parlour.envs.gymnasium` — one seat against parlour bots:
  ``gymnasium.make("parlour/MinusTwenty-v0", opponent="hard")``.
* :mod:`parlour.envs.openspiel` — OpenSpiel Python games with explicit
  chance nodes: ``pyspiel.load_game("python_parlour_minus_twenty")``.
"""

from contextlib import suppress as _suppress

with _suppress(ImportError):  # without Gymnasium the other interfaces still work
    from parlour.envs.gymnasium import register_envs as _register_envs

    _register_envs()
