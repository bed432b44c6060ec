"""Play over the WebSocket protocol against a real server process: whole
matches, what each connection may see, errors, and persistence through a
SIGKILL of the server (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import narrate
from parlour import record as records
from parlour.cards import Card
from parlour.game import State

from .conftest import (
    KNOWN_CODES,
    Client,
    Person,
    ServerProcess,
    assert_public,
    cards_in,
    hidden_cards,
    jsonable,
    play_to_end,
    states_by_version,
)

AGAINST_BOT = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


def record_of(server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def check_frames(client: Client, states: list[State], seat: int | None) -> int:
    """Every ``state`` frame ``client`` got is its seat's observation (or the public view)
    at that version, with the right legal moves and display values; no frame names a
    card hidden from it at that point.  Returns how many state frames were checked."""
    checked = 0
    last_version = 0
    for frame in client.frames:
        version = frame.get("version")
        if version is None:
            version = last_version
        assert 0 <= version < len(states), frame
        state = states[version]
        leaked = cards_in(frame) & hidden_cards(state, seat)
        assert not leaked, f"{frame['type']} at version {version} to seat {seat} shows hidden {sorted(leaked)}"
        if frame["type"] != "state":
            continue
        assert version >= last_version, "versions went back"
        last_version = version
        view = frame["view"]
        observations = [jsonable(state.observation(s)) for s in range(state.num_players)]
        if seat is None:
            assert view["hand"] is None or view["hand"] == [], view["hand"]  # [] when every hand is empty
            assert_public(view, observations)
            assert frame["legal"] == []
        else:
            assert view == observations[seat], f"version {version}: the view is not observation({seat})"
            to_move = state.current_player()
            assert frame["legal"] == ([str(m) for m in state.legal_moves()] if to_move == seat else [])
        assert frame["log"] == jsonable(narrate.event_log(state, seat)), f"version {version}: events in words"
        assert frame["moves"] == jsonable(narrate.move_log(state, seat)), f"version {version}: moves in words"
        if state.game.id == "twenty":
            assert frame["values"] == {"tally": state.tally_value}  # type: ignore[attr-defined]
        status = "finished" if state.is_match_over() else "round_over" if state.is_round_over() else "playing"
        assert frame["status"] == status
        if state.moves:
            assert frame["last"] is not None and frame["last"]["move"] == str(state.moves[-1])
        else:
            assert frame["last"] is None
        if status != "playing":
            assert frame["summary"]["totals"] == state.totals
            assert frame["summary"]["winners"] == state.winners()
        else:
            assert frame["summary"] is None
        checked += 1
    return checked


def friends_table(server: ServerProcess, game: str = "twenty") -> tuple[str, list[Person]]:
    table = server.create_table(game)
    return table["table_id"], [s["person"] for s in table["seats"]]


@pytest.mark.slow
def test_two_people_play_a_whole_match_of_twenty_and_see_only_their_own_cards(any_server: ServerProcess) -> None:
    server = any_server
    table_id, tokens = friends_table(server)
    seated = [Client(server, table_id, t) for t in tokens]
    assert [c.welcome["seat"] for c in seated if c.welcome] == [0, 1]
    assert all(c.welcome and c.welcome["role"] == "player" and c.welcome["table"]["table_id"] == table_id
               for c in seated)
    watcher = Client(server, table_id, None)
    assert watcher.welcome is not None and watcher.welcome["seat"] is None and watcher.welcome["role"] == "spectator"
    last = play_to_end(seated, random.Random(11), watchers=(watcher,))
    assert last["status"] == "finished" and last["legal"] == []

    data = record_of(server, table_id)
    final = records.replay(records.from_data(data))
    assert final.is_match_over()
    assert final.totals == last["summary"]["totals"] and final.winners() == last["summary"]["winners"]
    assert server.table(table_id)["status"] == "finished"

    states = states_by_version(data)
    assert len(states) == last["version"] + 1  # 100 moves and one new round
    assert check_frames(seated[0], states, 0) > 100
    assert check_frames(seated[1], states, 1) > 100
    assert check_frames(watcher, states, None) > 100
    for client in (*seated, watcher):
        client.close()


@pytest.mark.slow
def test_a_person_plays_a_bot_to_the_end(any_server: ServerProcess) -> None:
    server = any_server
    table = server.create_table("twenty", seats=AGAINST_BOT, host=server.person("Ada"))
    table_id = table["table_id"]
    with Client(server, table_id, table["seats"][0]["person"]) as ada:
        last = play_to_end([ada], random.Random(5))
        assert last["status"] == "finished"
        data = record_of(server, table_id)
        assert data["players"][0] == "Ada"
        final = records.replay(records.from_data(data))
        assert final.totals == last["summary"]["totals"]
        states = states_by_version(data)
        assert check_frames(ada, states, 0) > 50
        bot_moves = {f["version"] for f in ada.frames if f["type"] == "state" and f["last"] and f["last"]["seat"] == 1}
        assert len(bot_moves) >= 45, "the bot played its share"


def test_minus_twenty_progression_and_silver_bars_views_are_observations(server: ServerProcess) -> None:
    """A few moves of every other game: seat views are observations, the public view is common ground."""
    for game, seats in (("minus-twenty", 2), ("silver-bars", 2), ("progression", 3)):
        table = server.create_table(game, seats=[{"kind": "friend"}] * seats)
        table_id = table["table_id"]
        seated = [Client(server, table_id, s["person"]) for s in table["seats"]]
        watcher = Client(server, table_id, None)
        play_to_end(seated, random.Random(2), stop_at=12, watchers=(watcher,))
        for client in seated:
            assert client.state is not None
            view = client.state["view"]
            assert view["seat"] == client.seat and view["hand"] is not None
        assert watcher.state is not None
        public = watcher.state["view"]
        assert public["hand"] is None
        assert_public(public, [c.state["view"] for c in seated if c.state])
        # a card in a hand shows only if everyone saw it go there (taken from a discard pile)
        hands = set().union(*(cards_in(c.state["view"]["hand"]) for c in seated if c.state))
        public = cards_in(public["moves"])
        for frame in watcher.frames:
            if frame.get("version") == watcher.state["version"]:
                assert cards_in(frame) & hands <= public, (game, sorted(cards_in(frame) & hands - public))
        for client in (*seated, watcher):
            client.close()


def test_errors_stale_not_your_turn_illegal_syntax(server: ServerProcess) -> None:
    table_id, tokens = friends_table(server)
    clients = [Client(server, table_id, t) for t in tokens]
    state = clients[0].state
    assert state is not None
    version = state["version"]
    mover = next(c for c in clients if c.state and c.state["legal"])
    waiter = next(c for c in clients if c is not mover)
    assert mover.state is not None and waiter.state is not None
    opponent_hand = waiter.state["view"]["hand"]

    def expect(client: Client, message: dict[str, Any], code: str) -> dict[str, Any]:
        client.send(message)
        error = client.recv_until("error")
        assert error["code"] == code, error
        # before hello the connection has no table yet: the server answers version null there
        assert error["version"] == version or (code == "hello_required" and error["version"] is None), error
        assert isinstance(error["message"], str) and error["message"]
        assert "\n" not in error["message"]
        assert client.ping() == [], "nothing else happened"
        return error

    legal = mover.state["legal"][0]
    expect(mover, {"type": "move", "move": legal, "version": version + 1}, "stale")
    expect(mover, {"type": "move", "move": legal, "version": version - 1}, "stale")
    expect(waiter, {"type": "move", "move": waiter.state["legal"][0] if waiter.state["legal"] else "play "
                    + opponent_hand[0], "version": version}, "not_your_turn")
    expect(waiter, {"type": "move", "move": legal, "version": version}, "not_your_turn")
    error = expect(mover, {"type": "move", "move": f"play {opponent_hand[0]}", "version": version}, "illegal")
    asked = narrate.card_text(Card.parse(opponent_hand[0]))
    assert error["message"].startswith(f"{asked} is not in your hand (you hold ")  # the asked card, no other of theirs
    assert not (cards_in(error) & set(opponent_hand[1:]))
    expect(mover, {"type": "move", "move": "dance 7H", "version": version}, "syntax")
    expect(mover, {"type": "move", "move": "play", "version": version}, "syntax")
    expect(mover, {"type": "move", "move": "play ZZ", "version": version}, "syntax")
    expect(mover, {"type": "move", "move": "", "version": version}, "syntax")
    expect(mover, {"type": "next_round", "version": version}, "not_allowed")
    expect(mover, {"type": "hint", "version": version}, "not_allowed")
    expect(mover, {"type": "undo", "version": version}, "not_allowed")
    expect(mover, {"type": "move", "move": legal}, "malformed")
    expect(mover, {"type": "move", "move": 7, "version": version}, "malformed")
    expect(mover, {"type": "shuffle", "version": version}, "malformed")
    with Client(server, table_id, None) as watcher:
        expect(watcher, {"type": "move", "move": legal, "version": version}, "unauthorized")
        expect(watcher, {"type": "next_round", "version": version}, "unauthorized")
    with Client(server, table_id, hello=False) as early:
        expect(early, {"type": "move", "move": legal, "version": version}, "hello_required")
    assert server.table(table_id)["version"] == version
    # and the table still plays
    mover.send({"type": "move", "move": legal, "version": version})
    for client in clients:
        client.wait_version(version + 1)
    assert server.table(table_id)["version"] == version + 1
    for client in clients:
        client.close()


def test_a_connection_acts_only_for_its_own_seat(server: ServerProcess) -> None:
    table_id, people = friends_table(server)
    other_id, _other = friends_table(server)
    clients = [Client(server, table_id, p) for p in people]
    assert [c.seat for c in clients] == [0, 1]
    mover = next(c for c in clients if c.state and c.state["legal"])
    waiter = next(c for c in clients if c is not mover)
    assert mover.state is not None
    version = mover.state["version"]
    move = mover.state["legal"][0]
    # the waiter cannot make the mover's move, whatever the message claims
    for message in (
        {"type": "move", "move": move, "version": version},
        {"type": "move", "move": move, "version": version, "token": "x" * 32},
        {"type": "move", "move": move, "version": version, "seat": mover.seat},
    ):
        waiter.send(message)
        error = waiter.recv_until("error")
        assert error["code"] in {"not_your_turn", "malformed"}, error
    # another person, or a browser without a cookie, only watches; made-up links claim nothing
    stranger_person = server.person("Mallory")
    for person, token in ((stranger_person, None), (None, None), (stranger_person, "x" * 32),
                          (None, "not-a-link")):
        with Client(server, table_id, person, hello=False) as stranger:
            stranger.send({"type": "hello", "token": token} if token else {"type": "hello"})
            reply = stranger.recv_until("error") if token else stranger.recv_until("welcome")
            if token:
                assert reply["code"] == "unauthorized", reply
                stranger.send({"type": "move", "move": move, "version": version})
                assert stranger.recv_until("error")["code"] in {"hello_required", "unauthorized"}
            else:
                assert reply["seat"] is None and reply["role"] == "spectator"
                stranger.send({"type": "move", "move": move, "version": version})
                assert stranger.recv_until("error")["code"] == "unauthorized"
            assert [f for f in stranger.frames if f["type"] == "welcome" and f["seat"] is not None] == []
    with Client(server, table_id, hello=False) as stranger:
        stranger.send({"type": "hello", "token": 12345})
        assert stranger.recv_until("error")["code"] in {"malformed", "unauthorized"}
    # a seated connection that says hello again keeps its own seat only
    waiter.hello()
    assert waiter.seat == 1 - (mover.seat or 0)
    waiter.send({"type": "move", "move": move, "version": version})
    assert waiter.recv_until("error")["code"] == "not_your_turn"
    # the same person on a second connection (another tab) is the same seat
    with Client(server, table_id, people[0]) as again:
        assert again.seat == 0
    assert server.table(table_id)["version"] == version
    assert server.table(other_id)["version"] == 0
    for client in clients:
        client.close()


def reconnect(server: ServerProcess, table_id: str, people: list[Person]) -> list[Client]:
    return [Client(server, table_id, p) for p in people]


@pytest.mark.slow
def test_a_killed_server_comes_back_where_it_was(any_server: ServerProcess) -> None:
    """SIGKILL mid-round and at a round's end: after the restart the same people see
    the same version and view, and the match goes on to the end."""
    server = any_server
    table_id, tokens = friends_table(server)
    watcher_frames: list[dict[str, Any]] = []
    clients = reconnect(server, table_id, tokens)
    rng = random.Random(17)
    stops = [23, 50, 71]  # mid-round 1, round 1 over (50 moves), mid-round 2
    for index, stop in enumerate(stops):
        before = play_to_end(clients, rng, stop_at=stop)
        seen = [c.state for c in clients]
        server.kill()
        for client in clients:
            client.close()
        server.restart()
        summary = server.table(table_id)
        assert summary["version"] == before["version"] == stop
        clients = reconnect(server, table_id, tokens)
        for client, old in zip(clients, seen):
            assert client.state is not None and old is not None
            for key in ("version", "view", "legal", "status", "log", "values", "summary", "last"):
                assert client.state[key] == old[key], (index, key)
        if stop == 50:
            assert before["status"] == "round_over"
        watcher = Client(server, table_id, None)
        watcher_frames += watcher.frames
        watcher.close()
    last = play_to_end(clients, rng)
    assert last["status"] == "finished"
    data = record_of(server, table_id)
    final = records.replay(records.from_data(data))
    assert final.totals == last["summary"]["totals"]
    states = states_by_version(data)
    assert len(states) == last["version"] + 1
    for frame in watcher_frames:
        if frame["type"] == "state":
            assert not cards_in(frame) & hidden_cards(states[frame["version"]], None)
    assert server.output().count("Traceback") == 0, server.output()
    for client in clients:
        client.close()


@pytest.mark.slow
def test_a_killed_server_lets_the_bot_go_on(any_server: ServerProcess) -> None:
    """Killed right after a person's move, with the bot to move: after the restart
    the bot moves by itself, and nothing the person saw is lost."""
    server = any_server
    table = server.create_table("twenty", seats=AGAINST_BOT)
    table_id, token = table["table_id"], table["seats"][0]["person"]
    rng = random.Random(8)
    ada = Client(server, table_id, token)
    for _ in range(3):
        state = ada.state if ada.state and ada.state["legal"] else ada.recv_until(
            "state", lambda m: bool(m["legal"]), timeout=30)
        ada.send({"type": "move", "move": rng.choice(state["legal"]), "version": state["version"]})
        seen = ada.recv_until("state", lambda m, v=state["version"]: m["version"] > v)
        server.kill()
        ada.close()
        server.restart()
        ada = Client(server, table_id, token)
        assert ada.state is not None and ada.state["version"] >= seen["version"]
        if ada.state["version"] == seen["version"]:
            assert ada.state["view"] == seen["view"]
    last = play_to_end([ada], rng)
    assert last["status"] == "finished"
    final = records.replay(records.from_data(record_of(server, table_id)))
    assert final.totals == last["summary"]["totals"]
    ada.close()


def test_errors_use_known_codes_and_keep_the_connection(server: ServerProcess) -> None:
    table_id, tokens = friends_table(server)
    with Client(server, table_id, tokens[0]) as client:
        for message in ({"type": "undo", "version": "x"}, {"type": "hint"}, {"type": 1}, {"nope": 1}):
            client.send(message)
            error = client.recv_until("error")
            assert error["code"] in KNOWN_CODES, error
            client.ping()
    with Client(server, "no-such-table", hello=False) as lost:
        lost.send({"type": "hello"})
        error = lost.recv_until("error")
        assert error["code"] in KNOWN_CODES, f"{error['code']!r} is not an error code of docs/web-protocol.md"


@pytest.mark.parametrize("game", ["twenty", "minus-twenty"])
def test_the_server_reads_what_a_player_typed_as_one_of_their_legal_moves(server: ServerProcess, game: str) -> None:
    """``resolve``: a shorthand (a card alone) or a whole move in any case becomes the move in full
    notation, for the seat to move only, against the current version; several matching moves are
    ``ambiguous``, none a ``syntax`` or ``illegal`` error; the table never changes."""
    table_id, people = friends_table(server, game)
    clients = [Client(server, table_id, p) for p in people]
    mover = next(c for c in clients if c.state and c.state["legal"])
    waiter = next(c for c in clients if c is not mover)
    assert mover.state is not None and waiter.state is not None
    version = mover.state["version"]
    legal = mover.state["legal"]
    card = legal[0].split()[1]
    opponent_card = waiter.state["view"]["hand"][0]

    def resolve(client: Client, text: Any, kind: str = "resolved", **extra: Any) -> dict[str, Any]:
        client.send({"type": "resolve", "text": text, "version": version, **extra})
        reply = client.recv_until(kind)
        assert client.ping() == [], "nothing else happened"
        return reply

    assert resolve(mover, legal[0].lower()) == {"type": "resolved", "text": legal[0].lower(), "move": legal[0],
                                                "confirm": None}
    assert resolve(mover, f"  {legal[0]} ")["move"] == legal[0]
    if game == "twenty":  # one move per card: the card alone names it
        assert resolve(mover, card.lower()) == {"type": "resolved", "text": card.lower(), "move": f"play {card}",
                                                "confirm": None}
    else:  # a card may be played or discarded: the player is told both, and asked for the whole move
        error = resolve(mover, card.lower(), "error")
        assert error["code"] == "ambiguous" and error["version"] == version, error
        assert f"'play {card}'" in error["message"] and f"'discard {card}'" in error["message"], error
    for text, code in (("zz", "syntax"), ("play", "syntax"), ("", "syntax"),
                       (f"play {opponent_card}", "illegal"), (opponent_card.lower(), "illegal")):
        error = resolve(mover, text, "error")
        assert error["code"] == code and error["version"] == version, (text, error)
        hidden = set(waiter.state["view"]["hand"]) - {opponent_card}
        assert not cards_in(error) & hidden, error  # it names no card the mover cannot see
    for text in (7, None, ["play"], "x" * 61):
        assert resolve(mover, text, "error")["code"] == "malformed", text
    assert resolve(mover, legal[0], "error", version=version + 1)["code"] == "stale"
    mover.send({"type": "resolve", "text": legal[0]})
    assert mover.recv_until("error")["code"] == "malformed"
    assert resolve(waiter, legal[0], "error")["code"] == "not_your_turn"
    with Client(server, table_id, None) as watcher:
        assert resolve(watcher, legal[0], "error")["code"] == "unauthorized"
    with Client(server, table_id, hello=False) as early:
        early.send({"type": "resolve", "text": legal[0], "version": version})
        assert early.recv_until("error")["code"] == "hello_required"
    assert server.table(table_id)["version"] == version
    for client in clients:
        client.close()


def test_resolving_counts_against_the_message_budget(tmp_path: Path) -> None:
    """A burst of ``resolve`` messages over the connection's rate (the default: 20 a second, bursts of
    40) is refused as any other message is."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'parlour.db'}", log_path=tmp_path / "server.log").start()
    table_id, people = friends_table(server)
    clients = [Client(server, table_id, p) for p in people]
    mover = next(c for c in clients if c.state and c.state["legal"])
    assert mover.state is not None
    message = json.dumps({"type": "resolve", "text": mover.state["legal"][0], "version": mover.state["version"]})
    for _ in range(60):  # the burst is 40 (twice --message-rate)
        mover.send_raw(message)
    replies = [mover.recv() for _ in range(60)]
    kinds = {(r["type"], r.get("code")) for r in replies}
    assert ("resolved", None) in kinds and ("error", "rate_limited") in kinds, kinds
    for client in clients:
        client.close()
