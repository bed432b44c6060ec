"""Fixed action tables and fixed-shape observation vectors, one pair per game.

* :mod:`~parlour.envs.spaces.base` — the machinery every game's space is made of
  (:class:`GameSpace`, :class:`Layout`, the picture kept for ``encode_state``) and
  :func:`space`, which finds a game's space through its registry entry (``space=``);
* :mod:`~parlour.envs.spaces.turn` — the blocks the play-then-draw games share;
* one module per game (``minus_twenty``, ``progression``, ``twenty``, ``silver_bars``):
  its action table and its own blocks.  A new game adds its module and names it in its
  registry entry; nothing here lists the games.
"""

from parlour.envs.spaces.base import GameSpace, Layout, Segment, actions_markdown, space

__all__ = ["GameSpace", "Layout", "Segment", "actions_markdown", "space"]
