"""The lab's matches of random bots, played many at a time on a batched engine, to the very same
results as :func:`parlour.lab.arena.play_match`.

Each match is the rules engine's own :class:`~parlour.game.State`, dealt from the match's seed as
the lab deals it.  What the batched engine does is the part that costs: every decision (the legal
moves, in the rules engine's order, and each random bot's ``rng.choice`` among them, drawn from
the bot's own generator, seeded and continued by :mod:`parlour.batch.mt`), for all the matches of a unit of work in
one compiled call a round.  A round at a time: every match's round is set in the engine from the
state's deal and starter and played out there, and its moves are then made on the state, which
scores them, words their events and deals the next round from its own generator, exactly as in a
match played in Python.  So the stored records, totals and events are the same whether or not
numba is installed (``tests/batch/test_arena.py`` compares them match for match).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour import batch, games
from parlour.batch.common import generic
from parlour.batch.mt import below as mt_below
from parlour.batch.mt import seeded as mt_seeded
from parlour.game import State

RANDOM = "random"
"""The one bot spec these matches play (the lab's uniformly random bot, without slips)."""
ROUND_LOG = 1024
"""Actions a match's row of the log holds in one call (a longer round continues in the next)."""


class Unsupported(ValueError):
    """The game's batched engine does not take these options (the rules engine plays them)."""


def supports(game_id: str, specs: Sequence[str], noise: float = 0.0) -> bool:
    """Whether :func:`play_matches` can play these matches: numba installed and turned on, every
    player the plain random bot (no slips), and a batched engine for the game that gives its legal
    moves in the rules engine's order (``plays_random_rounds``)."""
    if noise or any(spec != RANDOM for spec in specs) or game_id not in batch.ENGINES or not batch.available():
        return False
    module, name = batch.ENGINES[game_id]
    return getattr(getattr(importlib.import_module(module), name), "plays_random_rounds", False) is True


def warm() -> list[str]:
    """Compile (or load from numba's cache) the random rounds of every game whose engine plays them:
    the set-up calls it once, so that no lab run waits for numba.  Returns those games' ids."""
    from parlour.lab.arena import player_labels

    warmed = []
    for game_id in games.ids():
        specs = [RANDOM] * games.get(game_id).players
        if supports(game_id, specs):
            play_matches(game_id, [0], [tuple(range(len(specs)))], player_labels(specs), rounds_only=True)
            warmed.append(game_id)
    return warmed


@generic
def random_rounds(legal_in_order: Any, apply_in_order: Any, t: Any, to_move: int, slots: npt.NDArray[np.int64],
                  words: npt.NDArray[np.uint32], positions: npt.NDArray[np.int64], players: int,
                  log: npt.NDArray[np.int64], made: npt.NDArray[np.int64],
                  legal: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The lab's random bots (``RandomBot.choose``: ``rng.choice(legal)``) play the round in play of
    each match ``slots[s]`` of ``t`` to its end, for any engine that keeps its matches in one
    ``Tables`` (column ``to_move`` of ``t.info`` the seat to move): the seat to move draws from
    generator ``slots[s] * players + seat`` of ``words``/``positions`` (:mod:`parlour.batch.mt`, CPython's
    own generator continued) among the legal actions in the rules engine's order.  Row ``s`` of
    ``log`` gets the actions, ``made[s]`` how many.  Returns how many slots were played to the end of
    their round: fewer when slot ``slots[r]``'s row of ``log`` filled up (its ``made`` is the row's
    length and its round goes on; call again from ``r`` with ``log`` emptied).

    ``legal_in_order(t, g, out) -> count`` and ``apply_in_order(t, g, a) -> round over`` are the
    engine's, each naming the rules engine's function it mirrors; the round's end is not followed
    by the next deal (the rules engine deals it, from its own generator)."""
    info = t.info
    most = log.shape[1]
    for s in range(slots.shape[0]):
        g = slots[s]
        k = 0
        while True:
            if k == most:
                made[s] = k
                return s
            a = legal[mt_below(words, positions, g * players + info[g, to_move], legal_in_order(t, g, legal))]
            log[s, k] = a
            k += 1
            if apply_in_order(t, g, a):
                break
        made[s] = k
    return len(slots)


def play_matches(game_id: str, seeds: Sequence[int], seatings: Sequence[Sequence[int]], names: Sequence[str], *,
                 options: Mapping[str, Any] | None = None, rounds_only: bool = False) -> list[State]:
    """Match ``k`` of random bots dealt from ``seeds[k]`` with players seated as ``seatings[k]``, each
    as :func:`parlour.lab.arena.play_match` plays it (``names``: the players' names, by player, as
    :func:`parlour.lab.arena.player_labels` gives them).  Raises :class:`Unsupported` for options the
    batched engine does not take (the rules engine plays them)."""
    from parlour.envs.spaces import space
    from parlour.lab.arena import arena_bot_seed

    game = games.get(game_id)
    players = game.players
    n = len(seeds)
    if n == 0:
        return []
    try:
        engine = batch.engine(game_id, n, 0, options)
    except ValueError as refused:
        raise Unsupported(str(refused)) from refused
    moves = space(game_id).actions
    states = [game.new_match(seed=seed, options=options, names=[names[p] for p in seating])
              for seed, seating in zip(seeds, seatings)]
    words, positions = mt_seeded([arena_bot_seed(seed, seating, seat)
                                  for seed, seating in zip(seeds, seatings) for seat in range(players)])
    log = np.empty((n, ROUND_LOG), np.int64)
    made = np.zeros(n, np.int64)
    playing = list(range(n))
    while playing:
        for i in playing:
            state = states[i]
            starter = state.current_player()
            assert starter is not None, "a round in play has a seat to move"
            engine.set_match(i, starter, [state.deal])
        slots = np.array(playing, np.int64)
        start = 0
        while start < len(slots):
            played = engine.random_rounds(slots[start:], words, positions, log, made)
            rows = played if played == len(slots) - start else played + 1  # the last one goes on
            for s in range(rows):
                apply = states[slots[start + s]].apply
                for action in log[s, :made[s]].tolist():
                    apply(moves[action])
            start += played
        going = []
        for i in playing:
            state = states[i]
            if not (rounds_only or state.is_match_over()):
                state.next_round()
                going.append(i)
        playing = going
    return states

