"""Playing whole matches: seats driven by bots or by a front end.

The controller here holds the state (it is the referee); everything it hands
to a seat goes through :meth:`~parlour.game.State.observation`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from parlour.bots import Bot, view_for
from parlour.game import Game, IllegalMoveError, Move, State


def bot_rng(seed: int | None, seat: int) -> random.Random:
    """The RNG a bot in ``seat`` uses in a match played from ``seed``."""
    return random.Random(f"parlour-bot:{seed}:{seat}") if seed is not None else random.Random()


def play_bots(
    game: Game,
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    names: Sequence[str] | None = None,
    on_move: Callable[[State, int, Move], None] | None = None,
) -> State:
    """Play a whole match between bots and return the final state.

    The same seed gives the same match (deals and bot decisions).
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.name} needs {game.players} players, got {len(bots)}")
    state = game.new_match(seed=seed, options=options, names=names)
    rngs = [bot_rng(seed, seat) for seat in range(game.players)]
    while True:
        seat = state.current_player()
        if seat is None:
            if state.is_match_over():
                return state
            state.next_round()
            continue
        move = bots[seat].choose(view_for(bots[seat], state, seat), state.legal_moves(), rngs[seat])
        state.apply(move)
        if on_move is not None:
            on_move(state, seat, move)


def resolve_shorthand(state: State, text: str) -> Move:
    """Read what a person typed: full notation, or the arguments alone when
    they name exactly one legal move (``8s`` for ``play 8S``).

    Raises the same errors as :meth:`~parlour.game.State.parse_move`.
    """
    try:
        return state.parse_move(text)
    except ValueError as full_error:
        try:
            args = Move.parse("x " + text).args
        except ValueError:
            raise full_error from None
        if not args:
            raise full_error from None
        # A prefix, so that a card alone names every move made with it (in
        # 100 Silver Bars ``4h`` may be ``play 4H 1``, ``play 4H 3`` or ``discard 4H``).
        matches = [m for m in state.legal_moves() if m.args[: len(args)] == args]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = " or ".join(f"'{m}'" for m in matches)
            raise ValueError(f"{text!r} could mean {options}: type the whole move") from None
        for verb in state.move_forms:
            try:
                state.parse_move(f"{verb} {text}")
            except IllegalMoveError as illegal:
                raise illegal from None
            except ValueError:
                continue
        raise full_error from None
