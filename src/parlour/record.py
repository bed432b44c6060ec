"""``parlour-record/1``: read, write, validate and replay match records.

The format is NOTATION.md's: one JSON object holding the game, its options,
the players, the first seat, and every round's deal, moves and scores.  A
record needs no seed to replay: the deals and moves fix everything.

Every problem is reported as one :class:`RecordError` naming the round and
move (both counted from 1; move 0 is a round's deal, round 0 the header).
Its message is one short line; a problem with the file or its header (round
0) carries no "round 0, move 0" prefix.  Nothing else escapes the reader:
unreadable files, bad bytes, deep nesting, huge numbers and wrong types all
become a :class:`RecordError`.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour import games, names
from parlour.game import Deal, Game, Move, State

FORMAT = "parlour-record/1"
_KEYS = {"format", "game", "options", "players", "first", "rounds", "totals", "meta"}
_ROUND_KEYS = {"deal", "moves", "scores"}
MAX_DEPTH = 64  # nesting of arrays and objects: a record needs 4, its free ``meta`` a few more
MAX_REASON = 240  # characters of an error's reason (one readable line)
MAX_ROUNDS = 100
"""The most rounds a record may hold: the most any match lasts.  A match to a target score or a
best-of stops after 100 rounds (Minus Twenty's and Progression's ROUND_CAP), and no game's ``rounds``
option goes higher; a match as the rules set it lasts 2 (Twenty), 3 (Minus Twenty) or 6
(Progression) rounds, and Silver Bars stops after its ``max_rounds`` (50) at the latest."""
MAX_MOVES = 40_000
"""The most moves a record may hold, over all its rounds.  A round played by people or bots takes
50 (Twenty) to about 150 moves; random play is the longest, with rounds of about 180 moves in Minus
Twenty and 230 in Progression, none seen over 400.  So even 100 rounds of random play (about 19,000
and 23,000 moves when a target is never reached) stay well inside this bound, and what a record asks
the server to replay stays bounded whatever it holds."""
# What the engine may raise on data of the wrong type or size (besides ValueError).
_ENGINE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60
_repr.maxlong = 40
_repr.maxlevel = 3


def _show(value: Any) -> str:
    """A short, one-line repr of a value taken from a record (however big or deep)."""
    try:
        return _repr.repr(value)
    except Exception:
        return f"a {type(value).__name__}"


def _one_line(reason: str) -> str:
    text = " ".join(str(reason).split())
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


class RecordError(ValueError):
    """A record that cannot be replayed, with where and why."""

    def __init__(self, round_number: int, move_number: int, reason: str) -> None:
        reason = _one_line(reason)
        # Round 0 is the file or its header: "round 0, move 0" would tell the reader nothing.
        super().__init__(f"round {round_number}, move {move_number}: {reason}" if round_number else reason)
        self.round = round_number
        self.move = move_number
        self.reason = reason

    def __reduce__(self) -> tuple[type[RecordError], tuple[int, int, str]]:
        # Pickled by its parts (a replay worked out in another process raises it there).
        return RecordError, (self.round, self.move, self.reason)

    def as_json(self) -> dict[str, Any]:
        """The error as ``parlour replay --json`` prints it."""
        return {"ok": False, "round": self.round, "move": self.move, "error": self.reason}


@dataclass
class RoundRecord:
    """One round as recorded: the deal, the moves as text, the scores if given."""

    deal: Deal
    moves: list[str]
    scores: list[int] | None = None


@dataclass
class Record:
    """A match record, checked for shape but not yet replayed."""

    game: Game
    options: dict[str, Any]
    players: list[str]
    first: int
    rounds: list[RoundRecord]
    totals: list[int] | None = None
    meta: dict[str, Any] | None = None


def _decode(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (as Windows editors write) is fine
    except UnicodeDecodeError as exc:
        raise RecordError(
            0, 0, f"{what} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None


def loads(text: str | bytes) -> Record:
    """Parse a record from JSON text or UTF-8 bytes (shape only; see :func:`replay`)."""
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), "the record")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordError(0, 0, "the record is empty (a record is a JSON object)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" + " at line …"
        cut = exc.pos >= len(text.rstrip()) or msg.startswith("Unterminated string")
        end = " (the file ends too early: is it cut short?)" if cut else ""
        raise RecordError(0, 0, f"not valid JSON: {msg} at line {exc.lineno} column {exc.colno}{end}") from None
    except RecursionError:
        raise RecordError(0, 0, f"not a record: arrays or objects nested too deeply (more than {MAX_DEPTH})") from None
    except ValueError as exc:  # e.g. a number with more digits than Python converts
        raise RecordError(0, 0, f"not valid JSON: {exc}") from None
    return from_data(data)


def load(path: str | Path) -> Record:
    """Read a record file (shape only; see :func:`replay`)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(0, 0, f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. a NUL in the path
        raise RecordError(0, 0, f"cannot read {path!r}: {exc}") from None
    return loads(_decode(raw, str(path)))


def _too_deep(data: Any) -> bool:
    """Whether ``data`` nests arrays and objects deeper than :data:`MAX_DEPTH` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth > MAX_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _int_list(value: Any, size: int, what: str, where: tuple[int, int]) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != size
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise RecordError(*where, f"{what} must be a list of {size} whole numbers, not {_show(value)}")
    return value


def from_data(data: Any) -> Record:
    """Check a decoded JSON object's shape and build a :class:`Record`."""
    if not isinstance(data, dict):
        raise RecordError(0, 0, f"a record is a JSON object, not {_json_type(data)}")
    if _too_deep(data):
        raise RecordError(0, 0, f"not a record: arrays or objects nested too deeply (more than {MAX_DEPTH})")
    unknown = set(data) - _KEYS
    if unknown:
        raise RecordError(0, 0, f"unknown key(s) {_show(sorted(unknown))} (only 'meta' may hold free data)")
    if data.get("format") != FORMAT:
        raise RecordError(0, 0, f"format must be {FORMAT!r}, not {_show(data.get('format'))}")
    game_id = data.get("game")
    try:
        game = games.get(game_id) if isinstance(game_id, str) else None
    except ValueError:
        game = None
    if game is None:
        raise RecordError(0, 0, f"unknown game {_show(game_id)} (known: {', '.join(games.ids())})")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(0, 0, "options must be an object")
    try:
        options = game.check_options(options)
    except _ENGINE_ERRORS as exc:
        raise RecordError(0, 0, _reason(exc, "options")) from None
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != game.players
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(0, 0, f"players must be a list of {game.players} names")
    try:  # shown beside every move of a replay: names checked as everywhere else (parlour.names)
        players = [names.check_name(p, what=f"player {seat + 1}'s name") or f"Player {seat + 1}"
                   for seat, p in enumerate(players)]
    except names.BadName as exc:
        raise RecordError(0, 0, str(exc)) from None
    first = data.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < game.players:
        raise RecordError(0, 0, f"first must be a seat from 0 to {game.players - 1}, not {_show(first)}")
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list) or not rounds_data:
        raise RecordError(0, 0, "rounds must be a non-empty list")
    if len(rounds_data) > MAX_ROUNDS:
        raise RecordError(0, 0, f"a record holds at most {MAX_ROUNDS} rounds; this one has {len(rounds_data)}")
    moves_so_far = 0
    rounds: list[RoundRecord] = []
    for number, item in enumerate(rounds_data, 1):
        if not isinstance(item, dict):
            raise RecordError(number, 0, "a round is an object with deal, moves and scores")
        bad = set(item) - _ROUND_KEYS
        if bad:
            raise RecordError(number, 0, f"unknown key(s) {_show(sorted(bad))} in round")
        if "deal" not in item:
            raise RecordError(number, 0, "round has no deal")
        try:
            deal = game.deal_from_json(item["deal"])
        except _ENGINE_ERRORS as exc:
            raise RecordError(number, 0, _reason(exc, "deal")) from None
        moves = item.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(number, 0, "moves must be a list of move texts")
        moves_so_far += len(moves)
        if moves_so_far > MAX_MOVES:
            total = sum(len(r.get("moves", [])) for r in rounds_data if isinstance(r, dict)
                        and isinstance(r.get("moves", []), list))
            raise RecordError(0, 0, f"a record holds at most {MAX_MOVES:,} moves; this one has {total:,}")
        scores = item.get("scores")
        if scores is not None:
            scores = _int_list(scores, game.players, "scores", (number, len(moves)))
        rounds.append(RoundRecord(deal, moves, scores))
    totals = data.get("totals")
    if totals is not None:
        totals = _int_list(totals, game.players, "totals", (0, 0))
    meta = data.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise RecordError(0, 0, "meta must be an object")
    return Record(game, options, players, first, rounds, totals, meta)


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return "a number" if isinstance(value, (int, float)) else f"a {type(value).__name__}"


def _reason(exc: BaseException, what: str) -> str:
    """The reason of an engine error: a ValueError speaks for itself, anything else is a malformed ``what``."""
    if isinstance(exc, ValueError) and not isinstance(exc, RecordError):
        return str(exc) or f"bad {what}"
    if isinstance(exc, RecursionError):
        return f"the {what} is nested too deeply"
    return f"the {what} is malformed ({type(exc).__name__}: {exc})"


def replay(record: Record, before_move: Callable[[State, Move], None] | None = None,
           after_round: Callable[[State], None] | None = None) -> State:
    """Play a record through the engine, checking every deal, move and score.

    ``before_move(state, move)``, if given, is called with each checked move
    just before it is made (to word it, say); ``after_round(state)`` with the
    position at the end of each round's moves, before the next is dealt.
    Returns the final state; raises :class:`RecordError` at the first problem.
    """
    game = record.game
    state: State | None = None
    for number, rnd in enumerate(record.rounds, 1):
        try:
            if state is None:
                state = game.new_match(
                    options=record.options, first=record.first, names=record.players, deal=rnd.deal
                )
            else:
                if not state.is_round_over():
                    raise RecordError(
                        number - 1, len(state.moves), "the round is not finished but another round follows"
                    )
                if state.is_match_over():
                    raise RecordError(number, 0, "the match was already over after the previous round")
                state.next_round(rnd.deal)
        except RecordError:
            raise
        except _ENGINE_ERRORS as exc:
            raise RecordError(number, 0, _reason(exc, "deal")) from None
        for index, text in enumerate(rnd.moves, 1):
            if state.is_round_over():
                raise RecordError(number, index, f"{_show(text)} comes after the round has ended")
            try:
                move = state.parse_move(text)
            except _ENGINE_ERRORS as exc:
                raise RecordError(number, index, _reason(exc, "move")) from None
            if str(move) != text:
                raise RecordError(number, index, f"{_show(text)} is not in canonical notation (write {str(move)!r})")
            if before_move is not None:
                before_move(state, move)
            try:
                state.apply(move)
            except _ENGINE_ERRORS as exc:
                raise RecordError(number, index, _reason(exc, "move")) from None
        if rnd.scores is not None:
            if not state.is_round_over():
                raise RecordError(number, len(rnd.moves), "scores are given but the round is not finished")
            if list(rnd.scores) != state.scores:
                raise RecordError(
                    number, len(rnd.moves), f"recorded scores {rnd.scores} but the moves give {state.scores}"
                )
        if after_round is not None:
            after_round(state)
    assert state is not None
    if record.totals is not None and list(record.totals) != state.totals:
        raise RecordError(0, 0, f"recorded totals {record.totals} but the rounds give {state.totals}")
    return state


def deal_next_round(match: Record, state: State) -> bool:
    """Deal the next round of ``state`` (replayed from ``match``) as the match itself deals it.

    A record needs no seed, but ``parlour play`` and the lab keep theirs in its
    ``meta``: replayed with that seed's shuffles, the match deals what it would
    have dealt.  Only a seed that gives every recorded deal is used.  Returns
    whether the round was dealt.
    """
    seed = (match.meta or {}).get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        return False
    game = match.game
    shuffled = game.new_match(seed=seed, options=match.options, names=match.players)
    if shuffled.first != match.first:
        return False
    for number, played in enumerate(match.rounds):
        if number:
            shuffled.next_round()
        assert shuffled.deal is not None
        if game.deal_to_json(shuffled.deal) != game.deal_to_json(played.deal):
            return False
        for text in played.moves:
            shuffled.apply(shuffled.parse_move(text))
    shuffled.next_round()
    assert shuffled.deal is not None
    state.next_round(shuffled.deal)
    return True


def to_data(state: State, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``state``'s match so far, as JSON-ready data."""
    game = state.game
    rounds: list[dict[str, Any]] = []
    finished = [(r.deal, r.moves, r.scores, True) for r in state.history]
    finished.append((state.deal, state.moves, state.scores, state.is_round_over()))
    for deal, moves, scores, over in finished:
        if deal is None:
            raise ValueError("this state has no deals to record (a determinized state?)")
        item: dict[str, Any] = {"deal": game.deal_to_json(deal), "moves": [str(m) for m in moves]}
        if over:
            item["scores"] = list(scores)
        rounds.append(item)
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": game.id,
        "options": game.non_default_options(state.options),
        "players": list(state.names),
        "first": state.first,
        "rounds": rounds,
        "totals": state.totals,
    }
    if meta:
        data["meta"] = meta
    return data


def dumps(state: State, meta: dict[str, Any] | None = None) -> str:
    """The record of ``state`` as JSON text: one round per line block, readable."""
    return json.dumps(to_data(state, meta), indent=1) + "\n"


def save(state: State, path: str | Path, meta: dict[str, Any] | None = None) -> None:
    """Write the record of ``state`` to ``path`` (atomically: never half a file)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".part")
    tmp.write_text(dumps(state, meta), encoding="utf-8")
    tmp.replace(target)


def result(state: State) -> dict[str, Any]:
    """The replay result as ``parlour replay --json`` prints it."""
    finished = [list(r.scores) for r in state.history]
    if state.is_round_over():
        finished.append(list(state.scores))
    return {
        "ok": True,
        "rounds": finished,
        "totals": state.totals,
        "complete": state.is_match_over(),
        "winners": state.winners(),
    }
