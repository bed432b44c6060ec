"""The HTTP API of ``parlour serve``, against a real server process on loopback."""

from __future__ import annotations

import base64
import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour import games
from parlour import record as records

from .conftest import Client, Person, ServerProcess, cards_in, load_record, play_to_end

SUMMARY_KEYS = {"table_id", "game", "name", "options", "seats", "status", "version", "turn_seconds", "created",
                "you", "invites", "rated"}
SEAT_KEYS = {"seat", "kind", "level", "name", "taken", "connected", "rating", "player"}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the read-mostly API checks of this module (SQLite)."""
    folder: Path = tmp_path_factory.mktemp("api")
    proc = ServerProcess(f"sqlite:///{folder / 'parlour.db'}", log_path=folder / "server.log",
                         extra=("--replays-per-minute", "100000")).start()
    yield proc
    proc.stop()
    proc.close_people()


def one_line_error(answer: Any, status: int) -> str:
    """The ``error`` of a JSON error answer with this status, checked to be one clear line."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    body = answer.json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str), body
    text: str = body["error"]
    assert text.strip() and "\n" not in text and len(text) < 300, text
    assert "Traceback" not in text, text
    return text


def player_id(person: Person) -> str:
    """The player id in a person's session cookie (readable, though signed)."""
    value = person.http.cookies["parlour_session"]
    payload = value.split(".", 1)[0]
    data = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))
    player: str = data["player"]
    return player


def invite_code(url: str) -> str:
    _path, _, code = url.partition("#invite=")
    assert code, url
    return code


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
            assert (option["minimum"], option["maximum"], option["nullable"], option["designer"]) == (
                want.minimum, want.maximum, want.nullable, want.designer)


def test_rules_are_the_projects_rules_text(api: ServerProcess) -> None:
    for game_id in games.ids():
        answer = api.get(f"/api/games/{game_id}/rules")
        assert answer.status_code == 200
        assert answer.json() == {"markdown": games.get(game_id).rules()}
    one_line_error(api.get("/api/games/chess/rules"), 404)


def test_how_a_turn_works_is_the_games_turn_page(api: ServerProcess) -> None:
    for game_id in games.ids():
        answer = api.get(f"/api/games/{game_id}/turn")
        assert answer.status_code == 200
        assert answer.json() == {"markdown": games.get(game_id).turn()}
    one_line_error(api.get("/api/games/chess/turn"), 404)


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


def test_create_table_gives_the_host_its_seat_and_invites_for_friend_seats_only(api: ServerProcess) -> None:
    ada = api.person("Ada")
    answer = ada.post("/api/tables", json={"game": "minus-twenty", "options": {"hand_size": 8},
                                           "seats": [{"kind": "me", "name": "Not Ada"},
                                                     {"kind": "bot", "level": "easy"}]})
    assert answer.status_code == 200, answer.text
    table = answer.json()
    table_id = table["table_id"]
    assert table["url"] == f"/table/{table_id}"
    assert table["you"] == {"seat": 0, "host": True} and table["invites"] == []
    me, bot = table["seats"]
    assert set(me) == SEAT_KEYS and set(bot) == SEAT_KEYS
    assert (me["seat"], me["kind"], me["name"], me["taken"]) == (0, "me", "Ada", True), "named after the creator"
    assert (bot["seat"], bot["kind"], bot["level"], bot["taken"]) == (1, "bot", "easy", True)
    assert "token" not in json.dumps(table)
    summary = api.table(table_id)
    assert set(summary) == SUMMARY_KEYS
    assert summary["game"] == "minus-twenty" and summary["options"]["hand_size"] == 8
    assert summary["status"] == "playing" and summary["turn_seconds"] is None
    assert isinstance(summary["version"], int)
    assert summary["you"] == {"seat": None, "host": False} and summary["invites"] == []
    assert ada.get(f"/api/tables/{table_id}").json()["you"] == {"seat": 0, "host": True}

    # friend seats: one invitation each, for the host only; a name on a friend seat is not used
    host = api.person()
    answer = host.post("/api/tables", json={"game": "twenty", "turn_seconds": 60,
                                            "seats": [{"kind": "friend"}, {"kind": "friend", "name": "Bo"}]})
    assert answer.status_code == 200, answer.text
    friends = answer.json()
    table_id = friends["table_id"]
    assert friends["you"] == {"seat": None, "host": True}
    invites = {i["seat"]: i["url"] for i in friends["invites"]}
    assert sorted(invites) == [0, 1]
    assert all(url.startswith(f"/table/{table_id}#invite=") for url in invites.values())
    assert invite_code(invites[0]) != invite_code(invites[1])
    assert [s["taken"] for s in friends["seats"]] == [False, False]
    assert [s["name"] for s in friends["seats"]] == ["Player 1", "Player 2"]
    summary = api.table(table_id)
    assert summary["version"] == 0 and summary["turn_seconds"] == 60 and summary["invites"] == []
    assert host.get(f"/api/tables/{table_id}").json()["invites"] == friends["invites"]

    # accepting takes the seat and names it; the host's list loses that invitation
    bo = api.person()
    accepted = bo.accept(invites[1], name="Bo")
    assert accepted.status_code == 200, accepted.text
    assert accepted.json() == {"seat": 1}
    assert bo.get("/api/me").json() == {"name": "Bo", "account": None, "page": None}, \
        "the name given becomes the player's name"
    mine = bo.get(f"/api/tables/{table_id}").json()
    assert mine["you"] == {"seat": 1, "host": False} and mine["invites"] == []
    assert mine["seats"][1]["name"] == "Bo" and mine["seats"][1]["taken"] is True
    hosted = host.get(f"/api/tables/{table_id}").json()
    assert [i["seat"] for i in hosted["invites"]] == [0]
    assert invite_code(invites[1]) not in json.dumps(hosted)


@pytest.mark.parametrize(
    ("body", "mentions"),
    [
        ({"game": "chess", "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}, "chess"),
        ({"seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}, "game"),
        ({"game": "twenty", "seats": [{"kind": "me"}]}, "seat"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}]}, "seat"),
        ({"game": "progression", "seats": [{"kind": "me"}, {"kind": "friend"}]}, "seat"),
        ({"game": "twenty", "seats": "two"}, "seat"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "me"}]}, "seat"),
        ({"game": "twenty", "options": {"hand_size": 8}, "seats": [{"kind": "me"}, {"kind": "friend"}]}, "hand_size"),
        ({"game": "twenty", "options": {"open_hands": "yes"}, "seats": [{"kind": "me"}, {"kind": "friend"}]},
         "open_hands"),
        ({"game": "minus-twenty", "options": {"hand_size": 999}, "seats": [{"kind": "me"}, {"kind": "friend"}]},
         "hand_size"),
        ({"game": "twenty", "options": [1], "seats": [{"kind": "me"}, {"kind": "friend"}]}, "option"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "bot", "level": "godlike"}]}, "level"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "bot"}]}, "level"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "wizard"}]}, "kind"),
        ({"game": "twenty", "seats": [{"kind": "me"}, "friend"]}, "kind"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy", "name": "x" * 500}]}, "name"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}], "turn_seconds": "soon"}, "turn_seconds"),
        ({"game": "twenty", "seats": [{"kind": "me"}, {"kind": "friend"}], "turn_seconds": 1}, "turn_seconds"),
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
    one_line_error(answer, answer.status_code)
    assert api.get("/api/games").status_code == 200


def test_unknown_tables_are_404(api: ServerProcess) -> None:
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/nope/replay"):
        one_line_error(api.get(path), 404)
    one_line_error(api.post("/api/tables/nope/join", json={"seat": 0}), 404)
    one_line_error(api.post("/api/tables/nope/accept", json={"invite": "abc"}), 404)
    one_line_error(api.post("/api/tables/nope/seats/0/reopen"), 404)


def lobby_ids(server: ServerProcess) -> list[str]:
    answer = server.get("/api/tables")
    assert answer.status_code == 200, answer.text
    return [t["table_id"] for t in answer.json()["tables"]]


def test_lobby_lists_open_seats_and_a_seat_is_joined_once(any_server: ServerProcess) -> None:
    server = any_server
    closed = server.create_table("twenty", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    older = server.create_table("twenty", seats=[{"kind": "me"}, {"kind": "open"}], host=server.person("Ada"))
    newer = server.create_table("progression", seats=[{"kind": "open"}, {"kind": "open"},
                                                      {"kind": "bot", "level": "medium"}])
    assert older["invites"] == [] and newer["invites"] == [], "open seats need no invitation"
    lobby = server.get("/api/tables").json()
    assert set(lobby) == {"tables", "page", "pages", "total"}
    assert (lobby["page"], lobby["pages"], lobby["total"]) == (1, 1, 2)
    ids = [t["table_id"] for t in lobby["tables"]]
    assert closed["table_id"] not in ids
    assert ids == [newer["table_id"], older["table_id"]], "newest first"
    entry = lobby["tables"][1]
    assert set(entry) == SUMMARY_KEYS
    assert entry["game"] == "twenty" and entry["status"] == "playing" and entry["created"]
    assert [(s["seat"], s["kind"], s["taken"], s["name"]) for s in entry["seats"]] == [
        (0, "me", True, "Ada"), (1, "open", False, "Player 2")]
    assert entry["invites"] == [] and entry["you"] == {"seat": None, "host": False}

    bo = server.person()
    table_id = older["table_id"]
    joined = bo.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo"})
    assert joined.status_code == 200, joined.text
    assert joined.json() == {"seat": 1}
    again = bo.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert again.status_code == 200 and again.json() == {"seat": 1}, "joining your own seat again is harmless"
    one_line_error(bo.post(f"/api/tables/{table_id}/join", json={"seat": 0}), 409)
    late = server.person()
    one_line_error(late.post(f"/api/tables/{table_id}/join", json={"seat": 1}), 409)
    one_line_error(late.post(f"/api/tables/{table_id}/join", json={"seat": 0}), 409)
    assert table_id not in lobby_ids(server)
    assert server.table(table_id)["seats"][1]["name"] == "Bo"
    assert late.post(f"/api/tables/{table_id}/join", json={"seat": 7}).status_code in (400, 404, 409)
    one_line_error(late.post(f"/api/tables/{table_id}/join", json={"seat": "one"}), 400)
    one_line_error(late.post(f"/api/tables/{table_id}/join", json={"seat": True}), 400)

    # the joined seat is Bo's on the WebSocket; a second open seat of the other table is still listed
    with Client(server, table_id, bo) as client:
        assert client.welcome is not None and client.welcome["seat"] == 1 and client.welcome["role"] == "player"
    with Client(server, table_id, late) as client:
        assert client.welcome is not None and client.welcome["seat"] is None
    assert late.post(f"/api/tables/{newer['table_id']}/join", json={"seat": 0}).status_code == 200
    entry = next(t for t in server.get("/api/tables").json()["tables"] if t["table_id"] == newer["table_id"])
    assert [s["taken"] for s in entry["seats"]] == [True, False, True]
    # the lobby and the joined seat survive a restart
    server.restart()
    entry = next(t for t in server.get("/api/tables").json()["tables"] if t["table_id"] == newer["table_id"])
    assert [s["taken"] for s in entry["seats"]] == [True, False, True]
    assert table_id not in lobby_ids(server)
    with Client(server, table_id, bo) as client:
        assert client.welcome is not None and client.welcome["seat"] == 1


def test_record_is_409_until_the_match_is_over_then_replays(server: ServerProcess) -> None:
    table = server.create_table("twenty")
    table_id = table["table_id"]
    one_line_error(server.get(f"/api/tables/{table_id}/record"), 409)
    people: list[Person] = [s["person"] for s in table["seats"]]
    clients = [Client(server, table_id, p) for p in people]
    play_to_end(clients, random.Random(3), stop_at=10)
    one_line_error(server.get(f"/api/tables/{table_id}/record"), 409)
    # during play the replay is only for a seat, and only as that seat sees it
    one_line_error(server.get(f"/api/tables/{table_id}/replay"), 403)
    one_line_error(server.person().get(f"/api/tables/{table_id}/replay"), 403)
    mine = people[0].get(f"/api/tables/{table_id}/replay")
    assert mine.status_code == 200 and mine.json()["full"] is False
    steps = mine.json()["steps"]
    assert len(steps) == 11 and all(s["hand"] is not None and "all_hands" not in s for s in steps)
    assert clients[0].state is not None and steps[-1]["hand"] == clients[0].state["view"]["hand"]
    theirs = people[1].get(f"/api/tables/{table_id}/replay").json()["steps"]
    assert clients[1].state is not None and theirs[-1]["hand"] == clients[1].state["view"]["hand"]
    assert steps[-1]["hand"] != theirs[-1]["hand"]
    last = play_to_end(clients, random.Random(4))
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200
    state = records.replay(records.loads(answer.text))
    assert state.is_match_over() and state.totals == last["summary"]["totals"]
    full = server.get(f"/api/tables/{table_id}/replay").json()
    assert full["full"] is True and all(len(s["all_hands"]) == 2 for s in full["steps"])
    assert full["total"] == last["version"] + 1 and full["offset"] == 0
    assert len(full["steps"]) == min(100, full["total"]), "a page at a time: 100 steps by default"
    # paged: the pages put together are the whole match, the last page ends where the match ended
    pages = [server.get(f"/api/tables/{table_id}/replay", params={"offset": o, "count": 40}).json()["steps"]
             for o in range(0, full["total"], 40)]
    whole = [step for page in pages for step in page]
    assert len(whole) == full["total"] and whole[:len(full["steps"])] == full["steps"]
    tail = server.get(f"/api/tables/{table_id}/replay", params={"offset": -1}).json()
    assert tail["steps"] == whole[-1:] and tail["steps"][0]["totals"] == last["summary"]["totals"]
    for client in clients:
        client.close()


def test_replay_of_a_golden_record_gives_every_step(api: ServerProcess) -> None:
    data = load_record("twenty-illustrative.json")
    answer = api.post("/api/replay", json=data, params={"count": 200})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["full"] is True
    steps = body["steps"]
    moves = sum(len(r["moves"]) for r in data["rounds"])
    assert len(steps) == body["total"] == 1 + moves + len(data["rounds"]) - 1
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


def test_summary_and_lobby_never_show_cards_or_secrets(api: ServerProcess) -> None:
    host = api.person("Hosta")
    answer = host.post("/api/tables", json={"game": "progression",
                                            "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "open"}]})
    assert answer.status_code == 200, answer.text
    created = answer.json()
    table_id = created["table_id"]
    assert not cards_in(created)
    codes = [invite_code(i["url"]) for i in created["invites"]]
    assert len(codes) == 1
    friend = api.person("Fren")
    secrets = [*codes, player_id(host), player_id(friend), host.http.cookies["parlour_session"],
               friend.http.cookies["parlour_session"]]

    def shown(text: str) -> list[str]:
        return [s for s in secrets if s in text]

    # before the invitation is accepted: only the host's own summary holds it
    for who in (None, friend, api.person()):
        summary = (who.get if who else api.get)(f"/api/tables/{table_id}")
        assert summary.status_code == 200
        assert summary.json()["invites"] == [] and not shown(summary.text), who
        assert not cards_in(summary.json())
    lobby = api.get("/api/tables")
    assert table_id in [t["table_id"] for t in lobby.json()["tables"]]
    assert not shown(lobby.text) and not cards_in(lobby.json())
    assert not shown(host.get("/api/tables").text)
    hosted = host.get(f"/api/tables/{table_id}")
    assert shown(hosted.text) == codes and not cards_in(hosted.json())

    # after it: nobody's summary or lobby holds it, nor anyone's identity
    assert friend.accept(created["invites"][0]["url"]).status_code == 200
    for who in (None, friend, host, api.person()):
        summary = (who.get if who else api.get)(f"/api/tables/{table_id}")
        assert summary.json()["invites"] == [] and not shown(summary.text), who
        assert not cards_in(summary.json())
        lobby = (who.get if who else api.get)("/api/tables")
        assert not shown(lobby.text) and not cards_in(lobby.json())
