"""The API's OpenAPI description: what FastAPI generates, and what the routes read by hand.

The routes of :mod:`parlour.web.app` read their JSON bodies themselves (``await body(request)``),
and the replays their ``offset`` and ``count``, so FastAPI knows nothing of them.  :func:`describe`
makes ``app.openapi()`` (and ``/openapi.json``) say what they are, and what an error answer is.  The
schemas describe a *valid* request: a client, or a fuzzer such as schemathesis, learns from them
what to send (whatever else it sends must still get a 4xx, never a 500).  Strings are left free (no
patterns) where the server takes any text, so that a fuzzer tries every kind of Unicode in them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from parlour import bots, games, record
from parlour.game import Game, Option
from parlour.names import MAX_NAME
from parlour.web.accounts import MAX_PASSWORD, MIN_PASSWORD, PASSWORD_RULE, USERNAME_RULE
from parlour.web.replays import MAX_PAGE, PAGE
from parlour.web.tables import PERSON_KINDS

Schema = dict[str, Any]

REF = "#/components/schemas/"
INVITE_LENGTH = 100
"""The longest invitation code the server looks at."""
TURN_SECONDS = (5, 3600)
"""The shortest and longest turn timer a table may have."""
LARGEST_PAGING = 10**9 - 1
"""The largest ``offset`` or ``count`` a replay reads (nine digits)."""


def describe(app: FastAPI) -> None:
    """Make ``app.openapi()`` return FastAPI's schema with the bodies and parameters the routes read.

    The schema is made on first use and kept in ``app.openapi_schema``, as FastAPI keeps its own.
    """
    generate: Callable[[], dict[str, Any]] = app.openapi
    app.openapi_schema = None  # one made before now would lack the bodies

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            add_bodies(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def add_bodies(schema: dict[str, Any]) -> None:
    """Add the request bodies, their schemas, the query parameters the routes read by hand, the games' ids
    and the error answers to a generated schema (in place)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(component_schemas())
    paths: dict[str, dict[str, Any]] = schema.get("paths", {})
    for (path, method), (name, example, summary) in BODIES.items():
        operation = paths.get(path, {}).get(method)
        if operation is None:  # the route went away: nothing to describe
            continue
        example_value = example() if callable(example) else copy.deepcopy(example)
        operation["requestBody"] = {
            "required": True,
            "description": summary,
            "content": {"application/json": {"schema": {"$ref": REF + name}, "example": example_value}},
        }
    for (path, method), parameters in QUERIES.items():
        operation = paths.get(path, {}).get(method)
        if operation is None:
            continue
        declared = operation.setdefault("parameters", [])
        names = {(p.get("name"), p.get("in")) for p in declared}
        declared.extend(copy.deepcopy(p) for p in parameters if (p["name"], "query") not in names)
    game_ids = [g.id for g in games.all_games()]
    for path, operations in paths.items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter.get("name") == "game_id" and parameter.get("in") == "path":
                    parameter["schema"]["examples"] = game_ids
            responses = operation.setdefault("responses", {})
            if (path, method) == ("/api/replay", "post"):
                responses.setdefault("422", _json_response("The record cannot be replayed: where and why.",
                                                           "RecordProblem"))
            if (path, method) in QUERIES:  # the replays
                responses.setdefault("503", _json_response("The server is busy replaying: try again (Retry-After).",
                                                           "Error"))
            responses.setdefault("4XX", _json_response("The request was refused: why.", "Error"))


def _json_response(description: str, name: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": REF + name}}}}


# -- schemas -------------------------------------------------------------------------------------------
def _text(max_length: int | None = None, min_length: int = 0, description: str | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if min_length:
        out["minLength"] = min_length
    if max_length is not None:
        out["maxLength"] = max_length
    if description:
        out["description"] = description
    return out


def _name(description: str) -> Schema:
    return _text(MAX_NAME, description=f"{description} (spaces are collapsed; at most {MAX_NAME} characters)")


def _list(items: Schema, size: int | None = None, min_items: int = 0) -> Schema:
    out: Schema = {"type": "array", "items": items}
    if size is not None:
        out["minItems"] = out["maxItems"] = size
    elif min_items:
        out["minItems"] = min_items
    return out


def option_schema(option: Option) -> Schema:
    """One rule option's values."""
    out: Schema
    if option.kind is bool:
        out = {"type": "boolean"}
    else:
        out = {"type": ["integer", "null"] if option.nullable else "integer"}
        if option.minimum is not None:
            out["minimum"] = option.minimum
        if option.maximum is not None:
            out["maximum"] = option.maximum
    out["default"] = option.default
    if option.help:
        out["description"] = option.help
    return out


def options_schema(game: Game) -> Schema:
    """A game's rule options by name (unknown names are refused; combinations the rules forbid too)."""
    return {"type": "object", "properties": {o.name: option_schema(o) for o in game.options},
            "additionalProperties": False}


def _title(game: Game) -> str:
    return "".join(part.capitalize() for part in game.id.replace("_", "-").split("-"))


def new_table_schema(game: Game) -> Schema:
    return {
        "type": "object",
        "title": f"NewTable{_title(game)}",
        "required": ["game", "seats"],
        "properties": {
            "game": {"const": game.id},
            "options": options_schema(game),
            "seats": {**_list({"$ref": REF + "Seat"}, game.players),
                      "description": f"{game.players} seats, in order; at most one of them 'me'"},
            "turn_seconds": {"type": ["integer", "null"], "minimum": TURN_SECONDS[0], "maximum": TURN_SECONDS[1],
                             "description": "The turn timer (a bot moves for a player who runs out), or null"},
            "rated": {"type": "boolean", "default": False,
                      "description": "Whether the match updates the people's ratings (no undo, no hints; a "
                                     "person must sit at it)"},
        },
    }


def record_schema(game: Game) -> Schema:
    """A ``parlour-record/1`` of one game (NOTATION.md): the deals and moves fix the match."""
    card = _text(description="A card in notation, such as 7H, TS or JK")
    players = game.players
    deal: Schema = {
        "type": "object",
        "required": list(game.deal_zones),
        "properties": {zone: _list(_list(card), players) if zone == "hands" else _list(card)
                       for zone in game.deal_zones},
        "additionalProperties": False,
    }
    round_schema: Schema = {
        "type": "object",
        "required": ["deal"],
        "properties": {"deal": deal, "moves": _list(_text(description="A move in notation, such as 'play 7H'")),
                       "scores": _list({"type": "integer"}, players)},
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "title": f"Record{_title(game)}",
        "required": ["format", "game", "players", "rounds"],
        "properties": {
            "format": {"const": record.FORMAT},
            "game": {"const": game.id},
            "options": options_schema(game),
            "players": _list(_name("A player's name"), players),
            "first": {"type": "integer", "minimum": 0, "maximum": players - 1, "default": 0},
            "rounds": {**_list(round_schema, min_items=1), "maxItems": record.MAX_ROUNDS,
                       "description": f"At most {record.MAX_ROUNDS} rounds, {record.MAX_MOVES} moves in all"},
            "totals": _list({"type": "integer"}, players),
            "meta": {"type": "object", "description": "Free data: date, place, event, bot settings"},
        },
        "additionalProperties": False,
    }


def component_schemas() -> dict[str, Schema]:
    """The schemas the bodies and error answers refer to."""
    all_games = list(games.all_games())
    levels = list(bots.LEVELS)
    return {
        "Name": {"type": "object", "required": ["name"], "properties": {"name": _name("Your name")}},
        "Seat": {
            "oneOf": [
                {"type": "object", "required": ["kind"], "title": "PersonSeat",
                 "properties": {"kind": {"enum": list(PERSON_KINDS),
                                         "description": "me: yours; friend: by invitation; open: anyone's"}}},
                {"type": "object", "required": ["kind", "level"], "title": "BotSeat",
                 "properties": {"kind": {"const": "bot"}, "level": {"enum": levels},
                                "name": _name("The bot's name")}},
            ],
        },
        "NewTable": {"oneOf": [new_table_schema(g) for g in all_games]},
        "Join": {
            "type": "object", "required": ["seat"],
            "properties": {"seat": {"type": "integer", "minimum": 0,
                                    "maximum": max(g.players for g in all_games) - 1,
                                    "description": "A free open seat, counted from 0"},
                           "name": _name("Your name (it becomes your name here)")},
        },
        "Accept": {
            "type": "object", "required": ["invite"],
            "properties": {"invite": _text(INVITE_LENGTH, 1, "The code after #invite= in the invitation link"),
                           "name": _name("Your name (it becomes your name here)")},
        },
        "Record": {"oneOf": [record_schema(g) for g in all_games]},
        "Error": {"type": "object", "properties": {
            "error": {"type": "string", "description": "What was wrong"},
            "detail": {"description": "FastAPI's own answer, for a request no route took"}}},
        "RecordProblem": {"type": "object", "required": ["error", "round", "move"], "properties": {
            "error": {"type": "string"},
            "round": {"type": "integer", "description": "Counted from 1; 0: the header"},
            "move": {"type": "integer", "description": "Counted from 1; 0: the round's deal"}}},
        # -- accounts --
        "Credentials": {
            "type": "object", "required": ["username", "password"],
            "properties": {
                "username": _text(24, 3, USERNAME_RULE.capitalize() + " (unique whatever its case)"),
                "password": _text(MAX_PASSWORD, MIN_PASSWORD, PASSWORD_RULE.capitalize() + ", any of them")},
            # (other fields are ignored; saying so keeps schemathesis's validator, jsonschema_rs, from failing
            # on a lone surrogate in a field name when two fields are required)
            "additionalProperties": False},
    }


# -- examples --------------------------------------------------------------------------------------------
def example_record() -> dict[str, Any]:
    """A real record to show (and to try): the first moves of a Twenty match."""
    game = games.get("twenty")
    state = game.new_match(seed=1, names=["Ada", "Bo"])
    for _ in range(6):
        legal = state.legal_moves()
        if state.is_round_over() or not legal:
            break
        state.apply(legal[0])
    return record.to_data(state, {"event": "an example"})


BODIES: dict[tuple[str, str], tuple[str, Any, str]] = {
    ("/api/me", "put"): ("Name", {"name": "Ada"}, "The name you choose"),
    ("/api/tables", "post"): (
        "NewTable",
        {"game": "twenty", "options": {}, "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
         "turn_seconds": None},
        "The game, its rule options, who sits where, and the turn timer",
    ),
    ("/api/tables/{table_id}/join", "post"): ("Join", {"seat": 1, "name": "Ada"}, "The open seat to take"),
    ("/api/tables/{table_id}/accept", "post"): (
        "Accept", {"invite": "bXktaW52aXRhdGlvbi1jb2Rl", "name": "Ada"}, "The invitation to accept"),
    ("/api/replay", "post"): ("Record", example_record, "A parlour-record/1 match record (NOTATION.md)"),
    # -- accounts --
    ("/api/account/register", "post"): (
        "Credentials", {"username": "bea", "password": "correct horse battery"},
        "The username and password of the new account"),
    ("/api/account/signin", "post"): (
        "Credentials", {"username": "bea", "password": "correct horse battery"}, "Your username and password"),
}
"""Each route that reads a JSON body: its schema's name, an example (or a function making one), and
what it is.  ``POST /api/tables/{table_id}/seats/{seat}/reopen``, ``POST /api/tables/{table_id}/review`` and
``POST /api/account/signout`` read none."""


PAGING: list[dict[str, Any]] = [
    {"name": "offset", "in": "query", "required": False,
     "description": "The first step of the page, counted from 0; negative: from the end (-100: the last hundred)",
     "schema": {"type": "integer", "minimum": -LARGEST_PAGING, "maximum": LARGEST_PAGING, "default": 0}},
    {"name": "count", "in": "query", "required": False,
     "description": f"How many steps (at most {MAX_PAGE} are sent)",
     "schema": {"type": "integer", "minimum": 1, "maximum": LARGEST_PAGING, "default": PAGE}},
]
QUERIES: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("/api/tables/{table_id}/replay", "get"): PAGING,
    ("/api/replay", "post"): PAGING,
}
"""The query parameters each route reads by hand (FastAPI declares those of its functions' signatures)."""
