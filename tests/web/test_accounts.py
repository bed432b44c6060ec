"""Accounts and My games over a real server: a guest registers and keeps their identity, signs in on a
second browser (a second cookie) and finds the same name, seats and matches there, signs out to a new
guest; a taken username, a wrong password and a bad shape each get their own clear answer (an unknown
username the same words as a wrong password); sign-in attempts are limited per username and per
address, registrations per address; a finished match stays in the list after a restart.

The matches are Twenty's micro rules (one suit, two cards a hand, one round: four moves) against a bot,
played with seeded random moves."""

from __future__ import annotations

import random
from typing import Any

import httpx

from parlour import games
from parlour.narrate import sentence
from parlour.web.accounts import NO_MATCH, PASSWORD_RULE, USERNAME_RULE
from parlour.web.mygames import result_for
from parlour.web.store import TableStore

from .conftest import Client, Person, ServerProcess, play_to_end

SHORT = {"suits": 1, "ranks": 7, "hand_size": 2, "hands": 1, "rounds": 1}
"""Twenty in four moves."""
PASSWORD = "correct horse battery"


def register(person: Person, username: str, password: str = PASSWORD) -> httpx.Response:
    return person.post("/api/account/register", json={"username": username, "password": password})


def sign_in(person: Person, username: str, password: str = PASSWORD) -> httpx.Response:
    return person.post("/api/account/signin", json={"username": username, "password": password})


def me(person: Person) -> dict[str, Any]:
    answer = person.get("/api/me")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def my_games(person: Person, **params: Any) -> dict[str, Any]:
    answer = person.get("/api/me/games", params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def play_against_a_bot(server: ServerProcess, person: Person, seed: int, level: str = "easy") -> dict[str, Any]:
    """A short match of ``person`` against a bot, played to its end: the last state."""
    answer = person.post("/api/tables", json={"game": "twenty", "options": SHORT,
                                              "seats": [{"kind": "me"}, {"kind": "bot", "level": level}]})
    assert answer.status_code == 200, answer.text
    with Client(server, answer.json()["table_id"], person) as client:
        final = play_to_end([client], random.Random(seed))
    return final | {"table_id": answer.json()["table_id"]}


def test_a_guest_registers_and_signs_in_on_a_second_browser_to_the_same_games(server: ServerProcess) -> None:
    ada = server.person("Ada")
    final = play_against_a_bot(server, ada, seed=1)
    assert me(ada) == {"name": "Ada", "account": None, "page": None}

    answer = register(ada, "Ada_1")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": "Ada", "account": "Ada_1", "page": None}  # the display name stays the one chosen
    assert me(ada)["account"] == "Ada_1"

    second = server.person()  # another browser: a guest of its own, with no games
    assert my_games(second)["total"] == 0
    answer = sign_in(second, "ada_1")  # the username in any case
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": "Ada", "account": "Ada_1", "page": None}
    listed = my_games(second)
    assert listed == my_games(ada)
    assert listed["total"] == 1 and listed["pages"] == 1
    (line,) = listed["matches"]
    table_id = final["table_id"]
    winners = final["summary"]["winners"]
    assert line["table_id"] == table_id and line["game"] == "twenty" and line["game_name"] == "Twenty"
    assert line["seat"] == 0 and line["name"] == "Ada" and line["rated"] is False
    assert line["result"] == result_for(0, 2, winners)
    assert line["total"] == final["summary"]["totals"][0]
    (bot,) = line["opponents"]
    assert bot["bot"] == "easy" and bot["total"] == final["summary"]["totals"][1]
    assert line["links"] == {"table": f"/table/{table_id}", "replay": f"/table/{table_id}#replay",
                             "review": f"/table/{table_id}#review", "record": f"/api/tables/{table_id}/record"}
    assert second.get(line["links"]["record"]).status_code == 200
    with Client(server, table_id, second) as client:  # the seat is the account's in the second browser too
        assert client.seat == 0

    answer = second.post("/api/account/signout")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": None, "account": None, "page": None}
    assert my_games(second)["total"] == 0
    with Client(server, table_id, second) as client:
        assert client.seat is None  # a new guest only watches
    assert me(ada)["account"] == "Ada_1"  # the first browser is still signed in
    again = second.post("/api/account/signout")
    assert again.status_code == 409 and "not signed in" in again.json()["error"]


def test_a_guest_without_a_name_takes_the_username_and_a_name_change_keeps_the_account(
        server: ServerProcess) -> None:
    bea = server.person()
    answer = register(bea, "bea")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": "bea", "account": "bea", "page": None}
    renamed = bea.put("/api/me", json={"name": "Beatrice"})
    assert renamed.status_code == 200, renamed.text
    assert me(bea) == {"name": "Beatrice", "account": "bea", "page": None}
    other = server.person()
    assert sign_in(other, "BEA").json() == {"name": "Beatrice", "account": "bea", "page": None}


def test_clear_errors_for_a_taken_username_a_wrong_password_and_bad_shapes(server: ServerProcess) -> None:
    cy = server.person("Cy")
    assert register(cy, "cyd").status_code == 200
    again = register(cy, "cyd2")
    assert again.status_code == 409 and again.json()["error"] == "You are signed in as cyd already: sign out to " \
        "register another account"
    taken = register(server.person(), "CYD")
    assert taken.status_code == 409 and taken.json()["error"] == "The username CYD is taken: choose another"

    stranger = server.person()
    wrong = sign_in(stranger, "cyd", "not the password")
    unknown = sign_in(stranger, "nobody-here", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": NO_MATCH.capitalize()}
    assert me(stranger)["account"] is None

    bad: list[tuple[Any, str]] = [
        ({"username": "ab", "password": PASSWORD}, USERNAME_RULE),
        ({"username": "x" * 25, "password": PASSWORD}, USERNAME_RULE),
        ({"username": "bea bea", "password": PASSWORD}, USERNAME_RULE),
        ({"username": "_bea", "password": PASSWORD}, USERNAME_RULE),
        ({"username": "zoë", "password": PASSWORD}, USERNAME_RULE),
        ({"username": 12345, "password": PASSWORD}, USERNAME_RULE),
        ({"username": "bea2", "password": "short"}, PASSWORD_RULE),
        ({"username": "bea2", "password": "x" * 129}, PASSWORD_RULE),
        ({"username": "bea2"}, PASSWORD_RULE),
        (["bea2", PASSWORD], 'give your username and password, as {"username": "…", "password": "…"}'),
    ]
    for route in ("/api/account/register", "/api/account/signin"):
        for request, words in bad:
            answer = stranger.post(route, json=request)
            assert answer.status_code == 400, (route, request, answer.text)
            assert answer.json()["error"] == sentence(words), (route, request)


def test_sign_in_attempts_are_limited_per_username_and_per_address(server: ServerProcess) -> None:
    dee = server.person()
    assert register(dee, "dee").status_code == 200
    # Per username: 30 an hour in bursts of 6, whoever tries, from anywhere.
    for attempt in range(6):
        answer = sign_in(server.person(address=f"127.0.0.{10 + attempt}"), "dee", "a wrong password")
        assert answer.status_code == 401, (attempt, answer.text)
    refused = sign_in(server.person(address="127.0.0.20"), "dee")  # even the right password, now
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"].startswith("Too many sign-in attempts for this username: try again in ")
    assert 60 <= int(refused.headers["Retry-After"]) <= 120
    assert sign_in(server.person(address="127.0.0.20"), "someone-else").status_code == 401  # another username

    # Per address: 120 an hour in bursts of 24, whatever the usernames.
    prober = server.person(address="127.0.0.30")
    for attempt in range(24):
        answer = sign_in(prober, f"probe-{attempt}")
        assert answer.status_code == 401, (attempt, answer.text)
    refused = sign_in(prober, "probe-last")
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Too many sign-in attempts from your address: try again in ")
    assert int(refused.headers["Retry-After"]) >= 1
    assert sign_in(server.person(address="127.0.0.31"), "probe-last").status_code == 401  # another address


def test_registrations_are_limited_per_address(server: ServerProcess) -> None:
    for number in range(10):  # 20 an hour, in bursts of 10
        answer = register(server.person(address="127.0.0.40"), f"many-{number}")
        assert answer.status_code == 200, (number, answer.text)
    refused = register(server.person(address="127.0.0.40"), "many-last")
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Too many accounts registered from your address: try again in ")
    assert register(server.person(address="127.0.0.41"), "many-last").status_code == 200


def test_my_games_pages_newest_first_and_keeps_finished_matches_across_a_restart(server: ServerProcess) -> None:
    eve = server.person("Eve")
    finals = [play_against_a_bot(server, eve, seed=seed, level=level)
              for seed, level in ((1, "easy"), (2, "medium"), (3, "easy"))]
    live = eve.post("/api/tables", json={"game": "twenty", "options": SHORT,
                                         "seats": [{"kind": "me"}, {"kind": "friend"}]})
    assert live.status_code == 200
    newest_first = [live.json()["table_id"]] + [f["table_id"] for f in reversed(finals)]
    listed = my_games(eve, per_page=3)
    assert (listed["total"], listed["pages"], listed["page"]) == (4, 2, 1)
    assert [m["table_id"] for m in listed["matches"]] == newest_first[:3]
    playing = listed["matches"][0]
    assert playing["result"] == "playing" and playing["total"] is None
    assert playing["links"]["replay"] is None and playing["links"]["record"] is None
    assert playing["opponents"] == [{"name": "Player 2", "bot": None, "total": None}]
    rest = my_games(eve, per_page=3, page=2)
    assert [m["table_id"] for m in rest["matches"]] == newest_first[3:]
    assert my_games(eve, per_page=3, page=10**30)["page"] == 2  # past the end: the last page
    assert my_games(eve, per_page=0)["matches"][0]["table_id"] == newest_first[0]  # at least one a page
    assert [m["opponents"][0]["bot"] for m in my_games(eve)["matches"][1:]] == ["easy", "medium", "easy"]

    before = my_games(eve)
    server.restart()
    assert my_games(eve) == before
    assert my_games(server.person())["total"] == 0  # nobody else's


def test_results_for_a_seat() -> None:
    assert result_for(0, 2, [0]) == "won"
    assert result_for(1, 2, [0]) == "lost"
    assert result_for(0, 3, [0, 2]) == "shared"
    assert result_for(1, 3, [0, 2]) == "lost"
    assert result_for(1, 2, [0, 1]) == "drawn"


def test_usernames_are_unique_whatever_their_case_in_the_database(sqlite_url: str) -> None:
    store = TableStore(sqlite_url)
    try:
        assert store.add_account("Fay", "hash", "player-one-id")
        assert not store.add_account("fAY", "hash", "player-two-id")
        assert store.account_of("player-one-id") == "Fay" and store.account_of("player-two-id") is None
        account = store.account_named("FAY")
        assert account is not None and account.player == "player-one-id"
    finally:
        store.close()


def test_the_short_match_is_short() -> None:
    """The matches above really are four moves (so the tests stay quick)."""
    state = games.get("twenty").new_match(seed=1, options=SHORT, names=["A", "B"])
    moves = 0
    while not state.is_match_over():
        state.apply(state.legal_moves()[0])
        moves += 1
    assert moves == 4
