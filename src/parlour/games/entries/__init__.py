"""The registry entries of parlour's own games, one light module per game.

Each module here defines ``ENTRY``, the game's :class:`~parlour.games.registry.GameEntry`,
with an explicit ``order`` for listing; :mod:`parlour.games` finds them all with
:mod:`pkgutil` on start-up.  An entry module names where each part of its game lives
and imports nothing of it (not its rules), so listing the games stays cheap; a game
added to the tree adds its entry module here and edits no shared file.

The figures the entries give:

* ``levels``: search iterations; ``hard`` decides within one second on one core
  (``benchmarks/search.py`` measures it), ``expert`` four times as many.
* ``reward_scale``: one over random play's 90th-percentile match margin, rounded
  (:mod:`parlour.envs.rewards`).
* ``sparring``: the cheapest setting measured to beat ``medium`` on duplicate deals
  (``docs/strength-sparring.md``; :mod:`parlour.bots.sparring`).
"""
