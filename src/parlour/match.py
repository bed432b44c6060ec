"""Playing whole matches: seats driven by bots or by a front end.

The controller here holds the state (it is the referee); everything it hands
to a seat goes through :meth:`~parlour.game.State.observation`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from parlour import narrate
from parlour.bots import Bot, blind_view
from parlour.cards import Card
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
    return play_out(state, bots, [bot_rng(seed, seat) for seat in range(game.players)], on_move=on_move)


def play_out(
    state: State,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    *,
    rounds_only: bool = False,
    on_move: Callable[[State, int, Move], None] | None = None,
) -> State:
    """Play ``state`` on to the end of its match (with ``rounds_only``, of its round), the bot in
    each seat choosing with that seat's RNG from ``rngs``, and return it: the one match loop of
    :func:`play_bots` and the lab's arena, which seed their bots' RNGs each their own way.

    A bot that reads no observation gets the same blind view every move, built once, and the
    state's methods are looked up once: this is the lab's inner loop."""
    game_id = state.game.id
    chooses = [bot.choose for bot in bots]
    blind = [None if bot.reads_observation else blind_view(game_id, seat) for seat, bot in enumerate(bots)]
    current_player, legal_moves, apply, observation = (
        state.current_player, state.legal_moves, state.apply, state.observation)
    while True:
        seat = current_player()
        if seat is None:
            if state.is_match_over() or rounds_only:
                return state
            state.next_round()
            continue
        view = blind[seat]
        move = chooses[seat](observation(seat) if view is None else view, legal_moves(), rngs[seat])
        apply(move)
        if on_move is not None:
            on_move(state, seat, move)


FACE_RANKS = (11, 12, 13)
"""Jack, Queen, King."""


def face_card_thrown_away(text: str, move: Move) -> Card | None:
    """The face card that what a person typed (``kd``, ``play kd``; not ``discard kd``) throws away because it
    could only be discarded: they are asked first (a King thrown away by a slip of the keyboard is not taken
    back).  The one rule of the terminal and the web."""
    card = move.args[0] if move.args else None
    if move.verb != "discard" or not isinstance(card, Card) or card.rank not in FACE_RANKS:
        return None
    return None if text.split()[0].lower() == "discard" else card


def discard_question(card: Card) -> str:
    """``K♦ can only be discarded now: discard it?``"""
    return f"{narrate.card_text(card)} can only be discarded now: discard it?"


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
