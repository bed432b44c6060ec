"""Every message the engine gives a player reads well to that player (issue 33).

For every game, seeded positions are sampled from random play; at each, every move of
every form with every card of the deck (and every vault, suit or number the form takes),
and a handful of garbage texts, are typed by the player to move.  Each refusal, worded
for that player as the terminal and the web word it, must be in the second person (never
the reader's own name, never "You's" or "You has"), capitalised, with the log's card
names (9♣, 10♣, never 9C or TC), and name no card the reader cannot see.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from parlour import games, narrate
from parlour.cards import Card
from parlour.game import IllegalMoveError, MoveSyntaxError, State

NAMES = ("Ann", "Bob", "Cleo")
POSITIONS = (0, 1, 2, 3, 7, 12, 20, 31, 45)
"""After how many random moves a position is sampled (odd and even: both steps of a turn)."""
GARBAGE = ("", "   ", "hello", "play", "play 9", "play xx", "take", "take Z", "draw 3", "lock",
           "lock 0", "lock 9", "resolve 2", "play 2c 3c", "discard", "public", "42", "!?", "play 2c 0")
CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS](?![A-Za-z0-9])|(?<![A-Za-z])JK(?![A-Za-z])")
"""A card in notation (``9C``, ``TC``, ``JK``) rather than as the log writes it."""
THIRD_PERSON_YOU = re.compile(r"\b[Yy]ou(?:'s| has| is| was| must now draws| plays)\b")


def positions(game_id: str, seed: int) -> Iterator[State]:
    """Positions of a seeded match of random play, each with a player to move."""
    game = games.get(game_id)
    state = game.new_match(seed=seed, names=NAMES[: game.players])
    rng = random.Random(seed)
    made = 0
    while made <= POSITIONS[-1]:
        if state.current_player() is None:
            if state.is_match_over():
                return
            state.next_round()
            continue
        if made in POSITIONS:
            yield state.copy()
        state.apply(rng.choice(state.legal_moves()))
        made += 1


def deck(state: State) -> list[Card]:
    """Every card of the round, wherever it lies now."""
    return sorted({card for cards in state.zones().values() for card in cards})


def attempts(state: State) -> Iterator[str]:
    """Every move of every form of the game, with every card, suit and number; then garbage."""
    cards = deck(state)
    choices = {"card": [str(c) for c in cards], "suit": ["C", "D", "H", "S"],
               "number": ["0", "1", "2", "3", "5", "6"], "vault": ["0", "1", "3", "5", "6"]}
    for verb, forms in state.move_forms.items():
        for form in forms:
            for args in itertools.product(*(choices[kind] for kind in form)):
                yield " ".join([verb, *args])
    yield from GARBAGE


def seen_cards(observation: Any) -> set[str]:
    """Every card named anywhere in what a seat may see, as the log writes it."""
    seen: set[str] = set()
    if isinstance(observation, dict):
        for value in observation.values():
            seen |= seen_cards(value)
    elif isinstance(observation, list):
        for value in observation:
            seen |= seen_cards(value)
    elif isinstance(observation, str):
        for word in observation.split():
            try:
                seen.add(narrate.card_text(Card.parse(word)))
            except ValueError:
                continue
    return seen


def named_cards(text: str, cards: list[Card]) -> set[str]:
    """The cards of ``cards`` that ``text`` names as the log writes them."""
    named = set()
    for card in cards:
        shown = narrate.card_text(card)
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(shown)}", text):
            named.add(shown)
    return named


def message(state: State, text: str) -> str | None:
    """What the player to move reads after typing ``text`` (None: the move is legal)."""
    try:
        state.parse_move(text)
    except IllegalMoveError as error:
        assert error.seat == state.current_player() and error.wrong is not None, text
        return narrate.illegal_text(error, state.current_player())
    except MoveSyntaxError as error:
        return str(error)
    return None


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_refusal_reads_well_to_its_reader(game_id: str) -> None:
    checked = 0
    for seed in (3, 11):
        for state in positions(game_id, seed):
            seat = state.current_player()
            assert seat is not None
            reader = NAMES[seat]
            cards = deck(state)
            visible = seen_cards(state.observation(seat))
            for text in attempts(state):
                said = message(state, text)
                if said is None:
                    continue
                checked += 1
                where = f"{game_id} seed {seed}, move {len(state.moves)}, {reader} typed {text!r}: {said!r}"
                assert said and not said[0].islower(), f"not capitalised: {where}"
                assert not re.search(rf"\b{reader}\b", said), f"the reader's own name: {where}"
                assert not THIRD_PERSON_YOU.search(said), f"'you' in the third person: {where}"
                assert not CODE.search(said), f"a card in notation: {where}"
                hidden = named_cards(said, cards) - visible - seen_cards(text)
                assert not hidden, f"names {sorted(hidden)}, which {reader} cannot see: {where}"
    assert checked > 100


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_a_refusal_told_to_anyone_else_lists_no_hand(game_id: str) -> None:
    """The error's own text (what a record's check or a log says) is for a spectator: the mover by
    name, and never the cards of the mover's hand."""
    state = next(positions(game_id, 5))
    seat = state.current_player()
    assert seat is not None
    refusals = []
    for card in deck(state):
        try:
            state.parse_move(f"discard {card}" if "discard" in state.move_forms else f"play {card}")
        except IllegalMoveError as error:
            assert error.wrong is not None
            if error.wrong.kind == "not_in_hand":
                refusals.append((card, error))
        except MoveSyntaxError:
            continue
    absent, error = refusals[0]
    spectator = str(error)
    assert spectator == f"{narrate.card_text(absent)} is not in {NAMES[seat]}'s hand"
    other = (seat + 1) % state.num_players
    assert narrate.illegal_text(error, other) == spectator
    assert narrate.illegal_text(error, seat).startswith(f"{narrate.card_text(absent)} is not in your hand (you hold ")


def test_a_theft_in_silver_bars_is_told_once() -> None:
    """The thief's move says the theft; the log beside the moves does not say it again."""
    game = games.get("silver-bars")
    for seed in range(40):
        state = game.new_match(seed=seed, names=NAMES[:2])
        rng = random.Random(seed)
        while state.current_player() is not None and not any(e.kind == "Theft" for e in state.events):
            state.apply(rng.choice(state.legal_moves()))
        if any(e.kind == "Theft" for e in state.events):
            break
    thefts = sum(e.kind == "Theft" for e in state.events)
    assert thefts == 1
    for viewer in (0, 1, None):
        told = [m["text"] for m in narrate.move_log(state, viewer)]
        told += [e["text"] for e in narrate.event_log(state, viewer)]
        assert sum("thief" in text for text in told) == thefts, told
