"""The shared conformance check every game must pass.

Like OpenSpiel's ``random_sim_test`` or pgx's ``api_test``: seeded random
playouts through the public contract, checking at every step that

* legal moves apply without error, and undo restores the exact prior state;
* every card of the game's deck is in exactly one place;
* move text round-trips (context-free and in the position);
* copies are independent of the original;
* every observation is exactly the game's ``observation_type``: the same keys,
  each value of its declared type;
* observations serialise to JSON, never change when only cards hidden from
  that seat change, and ``determinize`` (and ``sampler``) give a state with the same
  observation from which play continues legally;
* writing the record and replaying it gives the same match;
* an error message for a move the seat to move types names no card but
  the ones it typed and the ones its observation shows, and does not change
  when only cards hidden from that seat change;
* every card the game can deal has a role or none (a tag and a kind to print);
* every round keeps within the game's bounds (rounds, moves, points);
* a round the rules deal without chance (``deal_without_chance``) is dealt so, and exactly
  the rounds ``Game.dealt_by_chance`` says.

Games supply ``hide(state, seat, rng)``: a copy of ``state`` in which the
cards that ``seat`` may not see (RULINGS.md) are dealt differently.  The
check is independent of the game's own observation code.
"""

from __future__ import annotations

import json
import random
import re
import typing
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from parlour import record
from parlour.cards import SUITS
from parlour.game import CardRole, Deal, Game, IllegalMoveError, Move, MoveSyntaxError, State

Hide = Callable[[State, int, random.Random], State]


class ConformanceError(AssertionError):
    """A game broke the contract; the message says where and how."""


@dataclass
class Report:
    """What a conformance run covered."""

    matches: int = 0
    moves: int = 0
    deep_checks: int = 0


def _fail(seed: int, state: State, message: str) -> ConformanceError:
    return ConformanceError(
        f"seed {seed}, round {state.round_index + 1}, move {len(state.moves)}: {message}"
    )


def check_cards(game: Game, state: State, seed: int) -> None:
    """Every card of the deck is in exactly one zone."""
    found: Counter[int] = Counter()
    for cards in state.zones().values():
        found.update(cards)
    deck: Counter[int] = Counter(game.deck(state.options))
    if found != deck:
        extra, lost = found - deck, deck - found
        raise _fail(seed, state, f"cards not conserved: extra {extra}, missing {lost}")


def check_card_roles(game: Game) -> None:
    """Each card of the game is of a role with a tag and a kind, or of none."""
    for card in game.card_universe():
        role = game.card_role(card)
        if role is not None and not (isinstance(role, CardRole) and role.tag and role.kind):
            raise ConformanceError(f"{card}: card_role gives {role!r}, not a CardRole with a tag and a kind")


def check_moves_round_trip(state: State, seed: int) -> None:
    """Every legal move prints and parses back to itself."""
    for move in state.legal_moves():
        text = str(move)
        if Move.parse(text) != move or str(Move.parse(text)) != text:
            raise _fail(seed, state, f"move {text!r} does not round-trip")
        if state.parse_move(text) != move:
            raise _fail(seed, state, f"parse_move({text!r}) differs from the legal move")


_SCHEMAS: dict[type[Any], tuple[frozenset[str], TypeAdapter[Any]]] = {}


def _observation_schema(kind: type[Any]) -> tuple[frozenset[str], TypeAdapter[Any]]:
    """The keys of an observation type, and its validator (built once)."""
    if kind not in _SCHEMAS:
        _SCHEMAS[kind] = frozenset(typing.get_type_hints(kind)), TypeAdapter(kind)
    return _SCHEMAS[kind]


def check_observation_type(game: Game, obs: Mapping[str, Any], seed: int, state: State) -> None:
    """``obs`` has exactly the keys of the game's ``observation_type``, each of its type."""
    keys, adapter = _observation_schema(game.observation_type)
    if set(obs) != keys:
        missing, extra = sorted(keys - set(obs)), sorted(set(obs) - keys)
        raise _fail(seed, state, f"observation keys differ from {game.observation_type.__name__}: "
                                 f"missing {missing}, not declared {extra}")
    try:
        adapter.validate_python(obs, strict=True)
    except ValidationError as error:
        wrong = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {e['input']!r})" for e in error.errors())
        raise _fail(seed, state, f"observation is not a {game.observation_type.__name__}: {wrong}") from None


def check_views(game: Game, state: State, seed: int, hide: Hide, rng: random.Random) -> None:
    """Observations: their declared type, JSON, no hidden truth, and determinize consistent with them."""
    for seat in range(game.players):
        obs = state.observation(seat)
        check_observation_type(game, obs, seed, state)
        text = json.dumps(obs, sort_keys=True)
        json.dumps(game.display_values(obs))  # made from the view alone, and fit to send
        reloaded = json.loads(text)
        other = hide(state, seat, rng)
        if json.dumps(other.observation(seat), sort_keys=True) != text:
            raise _fail(seed, state, f"seat {seat}'s observation changes when only hidden cards change")
        sample = game.determinize(reloaded, random.Random(rng.random()))
        if json.dumps(sample.observation(seat), sort_keys=True) != text:
            raise _fail(seed, state, f"determinize for seat {seat} gives a different observation")
        check_cards(game, sample, seed)
        quick = game.sampler(reloaded)(random.Random(rng.random()))
        if json.dumps(quick.observation(seat), sort_keys=True) != text:
            raise _fail(seed, state, f"sampler for seat {seat} gives a different observation")
        check_cards(game, quick, seed)
        play_rng = random.Random(rng.random())
        while sample.current_player() is not None:
            sample.apply(play_rng.choice(sample.legal_moves()))


_CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:[A2-9TJQK][CDHS]|10[CDHS]|JK)(?![0-9A-Za-z])")
_GARBAGE = ("", "xyzzy", "play", "play 99", "play ZZ", "play 7", "take", "take Q", "discard 1 2 3", "?!", "10")


def cards_named(text: str) -> set[str]:
    """Every card written in ``text`` as a whole word (``7H``, ``10H``, ``TH``, ``JK``), ten as ``TH``."""
    return {word.replace("10", "T") for word in _CARD_WORD.findall(text)}


def _move_texts(game: Game, state: State, rng: random.Random) -> list[str]:
    """Every verb of the game with every card of its deck, and some garbage."""
    deck = sorted({str(card) for card in game.deck(state.options)})
    texts = list(_GARBAGE)
    for verb, forms in state.move_forms.items():
        for form in forms:
            for card in deck:
                args = [card if kind == "card" else rng.choice(SUITS) if kind == "suit" else str(rng.randint(1, 5))
                        for kind in form]
                texts.append(" ".join((verb, *args)))
    return texts


def _error(state: State, text: str) -> str | None:
    try:
        state.parse_move(text)
    except (MoveSyntaxError, IllegalMoveError) as exc:
        return str(exc)
    return None


def check_errors(game: Game, state: State, seed: int, hide: Hide, rng: random.Random) -> None:
    """What the seat to move is told about a move it types reveals nothing hidden from it."""
    seat = state.current_player()
    if seat is None:
        return
    seen = cards_named(json.dumps(state.observation(seat)))
    other = hide(state, seat, rng)
    for text in _move_texts(game, state, rng):
        message = _error(state, text)
        if message is None:
            continue
        foreign = cards_named(message) - cards_named(text) - seen
        if foreign:
            raise _fail(seed, state, f"the error for {text!r} names {sorted(foreign)}, which seat {seat} "
                        f"did not type and cannot see: {message!r}")
        if _error(other, text) != message:
            raise _fail(seed, state, f"the error for {text!r} changes when only cards hidden from seat {seat} "
                        f"change: {message!r}")


def check_events(game: Game, state: State, seed: int) -> None:
    """A finished round's events are of the kinds the game declares, they are worded for
    every reader, and they show exactly one way the round ended (or the game's usual end)."""
    kinds = [event.kind for event in state.events]
    unknown = sorted(set(kinds) - set(game.event_kinds))
    if unknown:
        raise _fail(seed, state, f"events of kinds the game does not declare: {unknown}")
    signs = [e.kind for e in game.endings if e.kind is not None and e.kind in kinds]
    if len(signs) > 1 or kinds.count(signs[0] if signs else "") > 1:
        raise _fail(seed, state, f"the round ended in more than one way: {signs}")
    if not signs and all(e.kind is not None for e in game.endings):
        raise _fail(seed, state, f"the round ended in none of its ways ({[e.name for e in game.endings]})")
    for event in state.events:
        for viewer in (*range(state.num_players), None):
            text = event.describe(state.names, viewer)
            if not text or "{" in text or "}" in text:
                raise _fail(seed, state, f"event {event.kind!r} is not worded for seat {viewer}: {text!r}")


def check_bounds(game: Game, state: State, seed: int) -> None:
    """A finished round keeps within the game's :meth:`~parlour.game.Game.bounds` (when the
    options bound the match at all)."""
    try:
        bounds = game.bounds(state.options)
    except ValueError:
        return
    if len(state.moves) > bounds.moves:
        raise _fail(seed, state, f"a round of {len(state.moves)} moves, beyond the game's bound of {bounds.moves}")
    if max(state.scores) - min(state.scores) >= bounds.points:
        raise _fail(seed, state, f"round scores {state.scores} differ by the game's bound of {bounds.points} or more")
    if state.round_index + 1 > bounds.rounds:
        raise _fail(seed, state, f"round {state.round_index + 1}, beyond the game's bound of {bounds.rounds}")


def check_deal_without_chance(game: Game, state: State, seed: int) -> Deal | None:
    """The next round's deal without chance, if any, where :meth:`~parlour.game.Game.dealt_by_chance`
    says the next round is not dealt by chance, and nowhere else (asked at a round's end)."""
    fixed = state.deal_without_chance()
    if (fixed is None) != game.dealt_by_chance(state.options, state.round_index + 1):
        said = "is not" if fixed is None else "is"
        raise _fail(seed, state, f"dealt_by_chance says round {state.round_index + 2} {said} dealt by chance, "
                                 f"deal_without_chance gives {fixed}")
    return fixed


def check_copy(state: State, seed: int, rng: random.Random) -> None:
    """Playing on in a copy leaves the original untouched."""
    before = state.snapshot()
    other = state.copy()
    if other.snapshot() != before:
        raise _fail(seed, state, "copy differs from the original")
    while other.current_player() is not None:
        other.apply(rng.choice(other.legal_moves()))
    if state.snapshot() != before:
        raise _fail(seed, state, "playing in a copy changed the original")


def check_record(game: Game, state: State, seed: int) -> None:
    """Writing the record and replaying it gives the same match."""
    text = json.dumps(record.to_data(state))
    again = record.replay(record.loads(text))
    if again.round_scores() != state.round_scores() or again.totals != state.totals:
        raise _fail(seed, state, "record replay gives different scores")
    if again.snapshot() != state.snapshot():
        raise _fail(seed, state, "record replay gives a different position")
    if again.winners() != state.winners():
        raise _fail(seed, state, "record replay gives different winners")


def run(
    game: Game,
    hide: Hide,
    *,
    matches: int = 200,
    seed: int = 0,
    deep_every: int = 25,
    options: dict[str, object] | None = None,
) -> Report:
    """Play ``matches`` seeded random matches of ``game``, checking the contract.

    Cheap checks run at every move; the costly ones (views, determinize,
    copies, all legal moves undone) about once every ``deep_every`` moves.
    Raises :class:`ConformanceError` at the first failure.
    """
    report = Report()
    check_card_roles(game)
    for number in range(matches):
        match_seed = seed + number
        rng = random.Random(match_seed)
        state = game.new_match(seed=match_seed, options=options)
        while True:
            check_cards(game, state, match_seed)
            legal = state.legal_moves()
            if not legal:
                if state.current_player() is not None:
                    raise _fail(match_seed, state, "a player is to move but has no legal move")
                if state.is_round_over():
                    check_record(game, state, match_seed)
                    check_events(game, state, match_seed)
                    check_bounds(game, state, match_seed)
                if state.is_match_over():
                    break
                fixed = check_deal_without_chance(game, state, match_seed)
                state.next_round()
                if fixed is not None and state.deal != fixed:
                    raise _fail(match_seed, state, f"dealt {state.deal}, not the deal without chance {fixed}")
                continue
            if len(set(legal)) != len(legal):
                raise _fail(match_seed, state, "legal moves repeat")
            if rng.randrange(deep_every) == 0:
                report.deep_checks += 1
                check_moves_round_trip(state, match_seed)
                check_views(game, state, match_seed, hide, rng)
                check_errors(game, state, match_seed, hide, rng)
                check_copy(state, match_seed, random.Random(rng.random()))
                before = state.snapshot()
                for move in legal:
                    count, receiver = state.stock_draws(move)
                    left = state.stock_left()
                    state.apply(move)
                    taken = left[:len(left) - len(state.stock_left())]
                    if len(taken) != count:
                        raise _fail(match_seed, state, f"{move} took {len(taken)} stock cards, not {count}")
                    if taken and not Counter(taken) <= Counter(state.zones().get(f"hand {receiver}", [])):
                        raise _fail(match_seed, state, f"{move} drew {taken}, not into seat {receiver}'s hand")
                    state.undo()
                    if state.snapshot() != before:
                        raise _fail(match_seed, state, f"undo after {move} does not restore the position")
                if rng.randrange(4) == 0:
                    check_record(game, state, match_seed)
            move = rng.choice(legal)
            before = state.snapshot()
            state.apply(move)
            report.moves += 1
            if rng.randrange(8) == 0:
                state.undo()
                if state.snapshot() != before:
                    raise _fail(match_seed, state, f"undo after {move} does not restore the position")
                state.apply(move)
        report.matches += 1
    return report
