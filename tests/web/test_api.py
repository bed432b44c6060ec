"""The HTTP API of ``parlour serve``, against a real server process on loopback."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour import games
from parlour import record as records

from .conftest import Client, ServerProcess, cards_in, load_record, play_to_end


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the read-mostly API checks of this module (SQLite)."""
    folder: Path = tmp_path_factory.mktemp("api")
    proc = ServerProcess(f"sqlite:///{folder / 'parlour.db'}", log_path=folder / "server.log").start()
    yield proc
    proc.stop()


def one_line_error(answer: Any, status: int) -> str:
    """The ``error`` of a JSON error answer with this status, checked to be one clear line."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    body = answer.json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str), body
    text: str = body["error"]
    assert text.strip() and "\n" not in text and len(text) < 300, text
    assert "Traceback" not in text, text
    return text


def test_games_lists_the_four_games_with_their_options(api: ServerProcess) -> None:
    answer = api.get("/api/games")
    assert answer.status_code == 200
    listed = answer.json()
    assert [g["id"] for g in listed] == games.ids()
    for item in listed:
        game = games.get(item["id"])
        assert item["name"] == game.name and item["players"] == game.players and item["summary"] == game.summary
        assert [o["name"] for o in item["options"]] == [o.name for o in game.options]
        for option, want in zip(item["options"], game.options):
            assert option["default"] == want.default and option["help"] == want.help
            assert option["kind"] == {int: "int", bool: "bool", str: "str"}[want.kind]
            assert (option["minimum"], option["maximum"], option["nullable"]) == (
                want.minimum, want.maximum, want.nullable)


def test_rules_are_the_projects_rules_text(api: ServerProcess) -> None:
    for game_id in games.ids():
        answer = api.get(f"/api/games/{game_id}/rules")
        assert answer.status_code == 200
        assert answer.json() == {"markdown": games.get(game_id).rules()}
    one_line_error(api.get("/api/games/chess/rules"), 404)


def test_levels(api: ServerProcess) -> None:
    answer = api.get("/api/levels")
    assert answer.status_code == 200
    levels = answer.json()
    assert [lv["name"] for lv in levels] == ["easy", "medium", "hard", "expert"]
    assert all(isinstance(lv["description"], str) and lv["description"] for lv in levels)


def test_pages_are_served(api: ServerProcess) -> None:
    for path in ("/", "/replay", "/table/abc"):
        answer = api.get(path)
        assert answer.status_code == 200 and "html" in answer.headers["content-type"], path


def test_create_table_gives_tokens_for_me_and_friend_seats_only(api: ServerProcess) -> None:
    table = api.create_table("minus-twenty", seats=[{"kind": "me", "name": "Ada"}, {"kind": "bot", "level": "easy"}],
                             options={"hand_size": 8})
    table_id = table["table_id"]
    assert table["url"].endswith(f"/table/{table_id}") and table["spectate_url"].endswith(f"/table/{table_id}")
    me, bot = table["seats"]
    assert (me["seat"], me["kind"], me["name"]) == (0, "me", "Ada")
    assert me["token"] and me["url"].endswith(f"#token={me['token']}")
    assert (bot["seat"], bot["kind"], bot["level"]) == (1, "bot", "easy")
    assert "token" not in bot and "url" not in bot
    summary = api.table(table_id)
    for key in ("table_id", "game", "options", "seats", "status", "version", "turn_seconds"):
        assert key in summary, key
    assert summary["game"] == "minus-twenty" and summary["options"]["hand_size"] == 8
    assert summary["status"] == "playing" and summary["turn_seconds"] is None
    assert isinstance(summary["version"], int)
    assert me["token"] not in json.dumps(summary) and "token" not in json.dumps(summary)

    friends = api.create_table("twenty", seats=[{"kind": "friend"}, {"kind": "friend", "name": "Bo"}],
                               turn_seconds=60)
    assert all(s["token"] and s["url"] for s in friends["seats"])
    assert friends["seats"][0]["token"] != friends["seats"][1]["token"]
    summary = api.table(friends["table_id"])
    assert summary["version"] == 0 and summary["turn_seconds"] == 60 and summary["seats"][1]["name"] == "Bo"


@pytest.mark.parametrize(
    ("body", "mentions"),
    [
        ({"game": "chess", "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}, "chess"),
        ({"seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}, "game"),
        ({"game": "twenty", "seats": [{"kind": "me"}]}, "seat"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}]}, "seat"),
        ({"game": "progression", "seats": [{"kind": "me"}, {"kind": "friend"}]}, "seat"),
        ({"game": "twenty", "seats": "two"}, "seat"),
        ({"game": "twenty", "options": {"hand_size": 8}, "seats": [{"kind": "me"}, {"kind": "friend"}]}, "hand_size"),
        ({"game": "twenty", "options": {"open_hands": "yes"}, "seats": [{"kind": "me"}, {"kind": "friend"}]},
         "open_hands"),
        ({"game": "minus-twenty", "options": {"hand_size": 999}, "seats": [{"kind": "me"}, {"kind": "friend"}]},
         "hand_size"),
        ({"game": "twenty", "options": [1], "seats": [{"kind": "me"}, {"kind": "friend"}]}, "option"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "bot", "level": "godlike"}]}, "level"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "bot"}]}, "level"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "wizard"}]}, "kind"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend", "name": "x" * 500}]}, "name"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}], "turn_seconds": "soon"}, "turn_seconds"),
        ([1, 2, 3], ""),
    ],
)
def test_create_table_validation_errors_are_400_with_one_clear_line(
    api: ServerProcess, body: Any, mentions: str
) -> None:
    text = one_line_error(api.post("/api/tables", json=body), 400)
    assert mentions in text.lower(), text


def test_create_table_bodies_that_are_not_json_or_too_big(api: ServerProcess) -> None:
    one_line_error(api.post("/api/tables", content=b"{not json"), 400)
    one_line_error(api.post("/api/tables", content=b"\xff\xfe garbage"), 400)
    huge = json.dumps({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}], "pad": "x" * 2_000_000})
    answer = api.post("/api/tables", content=huge.encode())
    assert answer.status_code in (400, 413), answer.status_code
    assert api.get("/api/games").status_code == 200


def test_unknown_tables_are_404(api: ServerProcess) -> None:
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/nope/replay"):
        one_line_error(api.get(path), 404)
    one_line_error(api.post("/api/tables/nope/join", json={"seat": 0}), 404)


def test_lobby_lists_open_seats_and_a_seat_is_joined_once(any_server: ServerProcess) -> None:
    server = any_server
    closed = server.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    older = server.create_table("twenty", seats=[{"kind": "me", "name": "Ada"}, {"kind": "open"}])
    newer = server.create_table("progression", seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "bot",
                                                                                        "level": "medium"}])
    assert "token" not in older["seats"][1] and "token" not in newer["seats"][0]
    lobby = server.get("/api/tables").json()
    ids = [t["table_id"] for t in lobby]
    assert closed["table_id"] not in ids
    assert ids.index(newer["table_id"]) < ids.index(older["table_id"]), "newest first"
    entry = next(t for t in lobby if t["table_id"] == older["table_id"])
    assert entry["game"] == "twenty" and entry["status"] == "playing"
    created = "created" in entry
    assert [(s["seat"], s["kind"], s["taken"]) for s in entry["seats"]] == [(0, "me", True), (1, "open", False)]
    assert "token" not in json.dumps(lobby)

    joined = server.post(f"/api/tables/{older['table_id']}/join", json={"seat": 1, "name": "Bo"})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    assert token and joined.json()["url"].endswith(f"#token={token}")
    one_line_error(server.post(f"/api/tables/{older['table_id']}/join", json={"seat": 1}), 409)
    one_line_error(server.post(f"/api/tables/{older['table_id']}/join", json={"seat": 0}), 409)
    assert older["table_id"] not in [t["table_id"] for t in server.get("/api/tables").json()]
    assert server.table(older["table_id"])["seats"][1]["name"] == "Bo"
    assert server.post(f"/api/tables/{older['table_id']}/join", json={"seat": 7}).status_code in (400, 404, 409)
    assert server.post(f"/api/tables/{older['table_id']}/join", json={"seat": "one"}).status_code == 400

    # the joined seat plays with its token; a second open seat of the other table is still listed
    with Client(server, older["table_id"], token) as bo:
        assert bo.welcome is not None and bo.welcome["seat"] == 1 and bo.welcome["role"] == "player"
    server.post(f"/api/tables/{newer['table_id']}/join", json={"seat": 0})
    entry = next(t for t in server.get("/api/tables").json() if t["table_id"] == newer["table_id"])
    assert [s["taken"] for s in entry["seats"]] == [True, False, True]
    # the lobby and the joined seat survive a restart
    server.restart()
    entry = next(t for t in server.get("/api/tables").json() if t["table_id"] == newer["table_id"])
    assert [s["taken"] for s in entry["seats"]] == [True, False, True]
    with Client(server, older["table_id"], token) as bo:
        assert bo.welcome is not None and bo.welcome["seat"] == 1
    assert created, "a lobby entry has no 'created' (docs/web-protocol.md: GET /api/tables)"


def test_record_is_409_until_the_match_is_over_then_replays(server: ServerProcess) -> None:
    table = server.create_table("twenty")
    table_id = table["table_id"]
    one_line_error(server.get(f"/api/tables/{table_id}/record"), 409)
    tokens = [s["token"] for s in table["seats"]]
    clients = [Client(server, table_id, t) for t in tokens]
    play_to_end(clients, random.Random(3), stop_at=10)
    one_line_error(server.get(f"/api/tables/{table_id}/record"), 409)
    # during play the replay is only for a seat, and only as that seat sees it
    one_line_error(server.get(f"/api/tables/{table_id}/replay"), 403)
    mine = server.get(f"/api/tables/{table_id}/replay", headers={"X-Parlour-Token": tokens[0]})
    assert mine.status_code == 200 and mine.json()["full"] is False
    steps = mine.json()["steps"]
    assert len(steps) == 11 and all(s["hand"] is not None and "all_hands" not in s for s in steps)
    assert clients[0].state is not None and steps[-1]["hand"] == clients[0].state["view"]["hand"]
    other = server.get(f"/api/tables/{table_id}/replay", headers={"X-Parlour-Token": "not-a-token"})
    assert other.status_code >= 400
    last = play_to_end(clients, random.Random(4))
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200
    state = records.replay(records.loads(answer.text))
    assert state.is_match_over() and state.totals == last["summary"]["totals"]
    full = server.get(f"/api/tables/{table_id}/replay").json()
    assert full["full"] is True and all(len(s["all_hands"]) == 2 for s in full["steps"])
    assert len(full["steps"]) == last["version"] + 1
    for client in clients:
        client.close()


def test_replay_of_a_golden_record_gives_every_step(api: ServerProcess) -> None:
    data = load_record("twenty-illustrative.json")
    answer = api.post("/api/replay", json=data)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["full"] is True
    steps = body["steps"]
    moves = sum(len(r["moves"]) for r in data["rounds"])
    assert len(steps) == 1 + moves + len(data["rounds"]) - 1
    assert all(len(s["all_hands"]) == 2 for s in steps)
    assert steps[-1]["totals"] == data["totals"] and steps[-1]["match_over"] is True
    assert steps[0]["all_hands"] == data["rounds"][0]["deal"]["hands"]
    # every golden record of every game replays
    for path in sorted((Path(__file__).parents[1] / "data").glob("*.json")):
        if "invalid" not in path.name:
            got = api.post("/api/replay", content=path.read_bytes())
            assert got.status_code == 200, (path.name, got.text)


@pytest.mark.parametrize(
    "name", ["silver-bars-invalid-bar-not-higher.json", "progression-invalid-face-after-number.json"]
)
def test_replay_of_a_broken_record_is_422_with_round_and_move(api: ServerProcess, name: str) -> None:
    data = load_record(name)
    with pytest.raises(records.RecordError) as expected:
        records.replay(records.from_data(data))
    answer = api.post("/api/replay", json=data)
    text = one_line_error(answer, 422)
    body = answer.json()
    assert (body["round"], body["move"]) == (expected.value.round, expected.value.move)
    assert expected.value.reason in text


def test_replay_of_a_tampered_golden_record(api: ServerProcess) -> None:
    data = copy.deepcopy(load_record("twenty-illustrative.json"))
    data["rounds"][1]["moves"][4] = "play QQ"
    answer = api.post("/api/replay", json=data)
    one_line_error(answer, 422)
    assert (answer.json()["round"], answer.json()["move"]) == (2, 5)
    data = copy.deepcopy(load_record("twenty-illustrative.json"))
    data["totals"] = [0, 0]
    answer = api.post("/api/replay", json=data)
    one_line_error(answer, 422)
    assert (answer.json()["round"], answer.json()["move"]) == (0, 0)
    answer = api.post("/api/replay", json=[1, 2])
    one_line_error(answer, 422)
    assert answer.json()["round"] == 0
    assert api.post("/api/replay", content=b"not json").status_code in (400, 422)


def test_summary_and_lobby_never_show_cards_or_tokens(api: ServerProcess) -> None:
    table = api.create_table("twenty", seats=[{"kind": "me"}, {"kind": "open"}])
    summary = api.table(table["table_id"])
    assert not cards_in(summary)
    assert table["seats"][0]["token"] not in json.dumps(summary)
    assert table["seats"][0]["token"] not in api.get("/api/tables").text
