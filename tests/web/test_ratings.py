"""Ratings: the arithmetic against openskill's own, the bot anchors against the stored ladder, rated
matches on a real server (a person against a bot moves the way the result says), the leaderboard and
a player's page, and a database of the release before ratings upgraded in place."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, inspect, text

from conftest import export_release
from parlour import games
from parlour.bots import levels
from parlour.web import players, ratings
from parlour.web.mygames import result_for
from parlour.web.store import NEXT_ROUND, FinishedMatch, MoveRow, RatingWrite, SeatRow, TableRow, TableStore

from .conftest import Client, Person, ServerProcess, play_to_end
from .test_security import player_id

RELEASE_BEFORE_RATINGS = "6754b7b"
"""The last commit before ratings (web schema at revision 0005)."""


# -- the arithmetic ------------------------------------------------------------------------------

def openskill_update(standings: list[ratings.Standing], totals: list[int]) -> list[tuple[float, float]]:
    """openskill's own Plackett–Luce update, ranks from the totals as the ladder takes them."""
    model = PlackettLuce()
    ranks = [1 + sum(1 for o in totals if o > t) for t in totals]
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in standings]
    return [(new.mu, new.sigma) for (new,) in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize("totals", [[30, 12], [12, 30], [20, 20], [5, 40, 5], [40, 5, 12]])
def test_a_rated_match_updates_as_openskill_does(totals: list[int]) -> None:
    standings = [ratings.Standing(27.5, 6.1), ratings.NEWCOMER, ratings.Standing(19.0, 2.5)][:len(totals)]
    entrants = [ratings.Entrant(0, standings[0], player="ann"), ratings.Entrant(1, standings[1], player="ben")]
    if len(totals) == 3:
        entrants.append(ratings.Entrant(2, standings[2], level="hard"))
    updates = ratings.rate(entrants, totals)
    expected = openskill_update(standings, totals)
    assert [u.player for u in updates] == ["ann", "ben"], "a bot's rating never changes"
    for update, (mu, sigma) in zip(updates, expected):
        assert update.after == ratings.Standing(mu, sigma)
    assert [u.place for u in updates] == ratings.places(totals)[:2]


def test_places_share_a_tie_and_the_shown_number_is_conservative() -> None:
    assert ratings.places([10, 10, 3]) == [1, 1, 3]
    assert ratings.places([-4, 7]) == [2, 1]
    assert ratings.NEWCOMER.shown == 0.0
    assert ratings.Standing(30.0, 2.0).shown == 24.0


def test_a_win_raises_mu_a_loss_lowers_it_and_beating_a_stronger_bot_gains_more() -> None:
    easy, expert = ratings.anchors().of("twenty", "easy"), ratings.anchors().of("twenty", "expert")

    def after(bot: ratings.Standing, totals: list[int]) -> ratings.Standing:
        return ratings.rate([ratings.Entrant(0, ratings.NEWCOMER, player="p"), ratings.Entrant(1, bot, level="x")],
                            totals)[0].after

    assert after(easy, [20, 10]).mu > ratings.NEWCOMER.mu > after(easy, [10, 20]).mu
    assert after(expert, [20, 10]).mu - ratings.NEWCOMER.mu > after(easy, [20, 10]).mu - ratings.NEWCOMER.mu


# -- the bot anchors -------------------------------------------------------------------------------

STORED = json.loads(files("parlour").joinpath(ratings.ANCHORS).read_text("utf-8"))


@pytest.mark.parametrize("game_id", sorted(STORED["games"]))
def test_the_anchors_are_the_stored_ladders_numbers(game_id: str) -> None:
    """The code's anchors are the file's numbers, which are what the ladder printed, in its order."""
    anchors = ratings.anchors()
    measured = STORED["games"][game_id]
    stored = measured["levels"]
    names = [level.name for level in levels.LEVELS]
    assert set(stored) == set(names[:len(stored)]) and len(stored) >= 3, "the levels from the weakest up are rated"
    if len(stored) < len(names):
        assert game_id == "progression", "only this expert is too slow to rate here"
    for level, row in stored.items():
        assert anchors.of(game_id, level) == ratings.Standing(row["mu"], row["sigma"])
    printed = [line.split() for line in measured["printed"] if re.match(r"\s*\d+\s+[a-z]+\s", line)]
    assert [p[1] for p in printed] == sorted(stored, key=lambda lv: -(stored[lv]["mu"] - 3 * stored[lv]["sigma"]))
    for _rank, level, shown, mu, sigma, matches in printed:
        row = stored[level]
        assert (float(shown), float(mu), float(sigma), int(matches)) == (
            round(row["mu"] - 3 * row["sigma"], 1), round(row["mu"], 1), round(row["sigma"], 1), row["matches"])
    assert measured["command"].startswith(f"parlour lab ladder {game_id} --levels {','.join(names[:len(stored)])} ")
    assert "--seed" in measured["command"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}", measured["made"])
    assert anchors.measures[game_id] == ratings.Measure(measured["command"], measured["made"])


@pytest.mark.parametrize("game_id", sorted(STORED["games"]))
def test_the_anchors_are_ordered_as_the_levels_strength(game_id: str) -> None:
    """Easy < medium < hard; expert (hard with four times the search) is at least hard's equal within
    the ladder's margin (the two are close: a few ladder matches do not always tell them apart)."""
    a = {level.name: ratings.anchors().of(game_id, level.name) for level in levels.LEVELS
         if ratings.anchors().measured(game_id, level.name)}
    assert a["easy"].mu < a["medium"].mu < a["hard"].mu
    if "expert" in a:
        assert a["expert"].mu > a["hard"].mu - (a["hard"].sigma + a["expert"].sigma)
        assert a["expert"].mu > a["medium"].mu


# -- the store ---------------------------------------------------------------------------------------

def test_a_match_is_rated_once(sqlite_url: str) -> None:
    from parlour.web.store import SeatRow, TableRow

    store = TableStore(sqlite_url)
    try:
        store.add_table(TableRow(id="t1", game="twenty", options={}, seed=1, turn_seconds=None, version=0,
                                 status="finished", host="ann-identity", rated=True),
                        [SeatRow(table_id="t1", seat=0, kind="me", level=None, name="Ann", owner="ann-identity"),
                         SeatRow(table_id="t1", seat=1, kind="bot", level="easy", name="Easy bot")])
        seen: list[dict[str, tuple[float, float]]] = []

        def compute(stored: dict[str, tuple[float, float]]) -> list[RatingWrite]:
            seen.append(stored)
            return [RatingWrite("ann-identity", 0, 1, 25.0, 25 / 3, 27.0, 7.5)]

        assert store.unrated_matches() == ["t1"], "a server that stopped before rating it rates it when it starts"
        assert len(store.rate_match("t1", "twenty", ["ann-identity"], compute)) == 1
        assert store.unrated_matches() == []
        assert store.rate_match("t1", "twenty", ["ann-identity"], compute) == [], "rated again"
        assert seen == [{}]
        (row,), (change,) = store.player_ratings("ann-identity")
        assert (row.mu, row.sigma, row.matches) == (27.0, 7.5, 1) and change.table_id == "t1"
        handle = store.handle_of("ann-identity")
        assert re.fullmatch(r"[0-9a-f]{20}", handle) and "ann" not in handle
        assert store.player_of_handle(handle) == "ann-identity" and store.handles() == {"ann-identity": handle}
    finally:
        store.close()


def test_two_processes_rating_at_once_lose_nothing_and_rate_a_match_once(postgres_url: str) -> None:
    """Two stores on one PostgreSQL database (two server processes): while one rates a match, the other
    neither rates that match again nor reads the rating it is changing (a person's other match, rated
    meanwhile at the other process, starts from the first one's result: no lost update)."""
    stores = [TableStore(postgres_url), TableStore(postgres_url)]
    try:
        for n, (table_id, player) in enumerate((("t1", "ann-identity"), ("t2", "ann-identity"), ("t3", "bea-id"))):
            stores[0].add_table(TableRow(id=table_id, game="twenty", options={}, seed=n, turn_seconds=None,
                                         version=0, status="finished", host=player, rated=True),
                                [SeatRow(table_id=table_id, seat=0, kind="me", level=None, name="P", owner=player),
                                 SeatRow(table_id=table_id, seat=1, kind="bot", level="easy", name="Easy bot")])
        first = [RatingWrite("ann-identity", 0, 1, 25.0, 25 / 3, 27.0, 7.5)]
        stores[0].rate_match("t1", "twenty", ["ann-identity"], lambda stored: first)

        inside, seen = threading.Event(), {}

        def better(step: float, name: str) -> Callable[[dict[str, tuple[float, float]]], list[RatingWrite]]:
            def compute(stored: dict[str, tuple[float, float]]) -> list[RatingWrite]:
                seen[name] = stored
                if name == "slow":
                    inside.set()
                    time.sleep(0.5)  # the other process asks meanwhile: it must wait for this transaction
                mu, sigma = stored["ann-identity"]
                return [RatingWrite("ann-identity", 0, 1, mu, sigma, mu + step, sigma - 0.5)]
            return compute

        results: dict[str, list[RatingWrite]] = {}

        def rate(name: str, store: TableStore, table_id: str, players: list[str], step: float) -> None:
            results[name] = store.rate_match(table_id, "twenty", players, better(step, name))

        slow = threading.Thread(target=rate, args=("slow", stores[0], "t2", ["ann-identity"], 1.0))
        slow.start()
        assert inside.wait(10)
        meanwhile = [threading.Thread(target=rate, args=("again", stores[1], "t2", ["ann-identity"], 5.0)),
                     threading.Thread(target=rate, args=("other", stores[1], "t3", ["bea-id", "ann-identity"], 2.0))]
        for thread in meanwhile:
            thread.start()
        for thread in (slow, *meanwhile):
            thread.join(20)
        assert results["again"] == [] and "again" not in seen, "one match rated by two processes"
        assert seen["slow"] == {"ann-identity": (27.0, 7.5)}
        assert seen["other"] == {"ann-identity": (28.0, 7.0)}, "the second match read the rating before the first"
        (row,), changes = stores[1].player_ratings("ann-identity")
        assert (row.mu, row.sigma, row.matches) == (30.0, 6.5, 3)
        assert [c.table_id for c in changes] == ["t1", "t2", "t3"]
        assert stores[0].rating_changes("t3") == results["other"]
    finally:
        for store in stores:
            store.close()


# -- a real server ---------------------------------------------------------------------------------

def rated_match(server: ServerProcess, person: Person, level: str, seed: int) -> dict[str, Any]:
    """A rated Twenty match of ``person`` (random moves) against the bot ``level``, played to its end."""
    answer = person.post("/api/tables", json={"game": "twenty", "options": {}, "rated": True,
                                              "seats": [{"kind": "me"}, {"kind": "bot", "level": level}]})
    assert answer.status_code == 200, answer.text
    table = answer.json()
    assert table["rated"] is True
    with Client(server, table["table_id"], person) as client:
        first = client.wait_version(0)
        assert first["can_hint"] is False and first["can_undo"] is False, "no hints or undo in a rated match"
        last = play_to_end([client], random.Random(seed))
        assert last["status"] == "finished"
        client.ping()
    return {"table_id": table["table_id"], "totals": last["summary"]["totals"]}


def test_rated_matches_against_a_bot_move_the_rating_the_way_the_result_says(server: ServerProcess) -> None:
    ann = server.person("Ann")
    before = ratings.NEWCOMER
    bot = ratings.anchors().of("twenty", "easy")
    handle = None
    for seed in (341, 342):
        match = rated_match(server, ann, "easy", seed)
        totals = match["totals"]
        (mu, sigma), _bot = openskill_update([before, bot], totals)
        summary = ann.get(f"/api/tables/{match['table_id']}").json()
        assert summary["rated"] is True
        seat = summary["seats"][0]
        assert seat["rating"] == ratings.Standing(mu, sigma).shown, "the seat shows the new rating"
        assert summary["seats"][1]["rating"] == bot.shown and summary["seats"][1]["player"] is None
        handle = seat["player"]
        assert handle and re.fullmatch(r"[0-9a-f]{20}", handle)
        page = ann.get(f"/api/players/{handle}").json()
        (twenty,) = page["ratings"]
        assert twenty["game"] == "twenty" and twenty["mu"] == round(mu, 3) and twenty["sigma"] == round(sigma, 3)
        last = twenty["history"][-1]
        assert last["table_id"] == match["table_id"]
        assert last["before"]["mu"] == round(before.mu, 3), "the next match starts from the stored rating"
        if totals[0] > totals[1]:
            assert mu > before.mu and page["matches"][0]["result"] == "won"
        elif totals[0] < totals[1]:
            assert mu < before.mu and page["matches"][0]["result"] == "lost"
        else:
            assert page["matches"][0]["result"] == "shared the win"
        before = ratings.Standing(mu, sigma)
    assert handle is not None
    page = ann.get(f"/api/players/{handle}").json()
    assert page["name"] == "Ann" and len(page["ratings"][0]["history"]) == 2 and len(page["matches"]) == 2
    assert page["matches"][0]["opponents"] == [{"name": "Easy bot", "kind": "bot", "level": "easy", "player": None}]
    plot = ann.get(f"/api/players/{handle}/ratings.png")
    assert plot.status_code == 200 and plot.headers["content-type"] == "image/png" and plot.content[:4] == b"\x89PNG"
    assert server.get(f"/api/players/{handle}/ratings.png").content == plot.content  # kept until the next rated match
    board = server.get("/api/ratings/twenty").json()
    assert [(p["name"], p["player"], p["matches"]) for p in board["players"]] == [("Ann", handle, 2)]
    assert [b["level"] for b in board["bots"]] == [level.name for level in levels.LEVELS]
    # the identity itself is never shown to anyone: only the page's handle
    identity = player_id(ann)
    for path in ("/api/ratings/twenty", f"/api/players/{handle}", f"/api/tables/{match['table_id']}"):
        assert identity not in server.get(path).text, path


def test_an_unrated_match_changes_no_rating_and_the_lobby_shows_ratings(server: ServerProcess) -> None:
    ann = server.person("Ann")
    answer = ann.post("/api/tables", json={"game": "twenty", "options": {},
                                           "seats": [{"kind": "me"}, {"kind": "bot", "level": "medium"}]})
    table_id = answer.json()["table_id"]
    assert answer.json()["rated"] is False
    with Client(server, table_id, ann) as client:
        assert play_to_end([client], random.Random(7))["status"] == "finished"
    assert server.get("/api/ratings/twenty").json()["players"] == []
    assert ann.get(f"/api/tables/{table_id}").json()["seats"][0]["rating"] is None
    open_table = ann.post("/api/tables", json={"game": "twenty", "rated": True,
                                               "seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    lobby = server.get("/api/tables").json()["tables"]
    shown = next(t for t in lobby if t["table_id"] == open_table["table_id"])
    assert shown["rated"] is True and [s["rating"] for s in shown["seats"]] == [None, None]


def test_a_rated_table_is_refused_without_a_person_or_with_a_bad_flag(server: ServerProcess) -> None:
    ann = server.person("Ann")
    bots = ann.post("/api/tables", json={"game": "twenty", "rated": True, "seats": [
        {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}]})
    assert bots.status_code == 400 and bots.json()["error"].startswith("A rated match needs a person")
    flag = ann.post("/api/tables", json={"game": "twenty", "rated": "yes", "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert flag.status_code == 400 and flag.json()["error"] == "Rated must be true or false"
    for path in ("/api/players/0123456789abcdef0123", "/api/players/not-a-handle",
                 "/api/players/0123456789abcdef0123/ratings.png"):
        missing = server.get(path)
        assert missing.status_code == 404 and "rated match" in missing.json()["error"], path
    assert server.get("/api/ratings/chess").status_code == 404
    if not ratings.anchors().measured("progression", "expert"):
        expert = ann.post("/api/tables", json={"game": "progression", "rated": True, "seats": [
            {"kind": "me"}, {"kind": "bot", "level": "expert"}, {"kind": "open"}]})
        assert expert.status_code == 400, expert.text
        assert expert.json()["error"].startswith("Progression has no measured rating for the expert bot yet")


# -- the database of the release before ratings -------------------------------------------------------

def test_a_database_of_the_release_before_ratings_is_upgraded_in_place(sqlite_url: str,
                                                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    tree = export_release(RELEASE_BEFORE_RATINGS, tmp_path_factory.mktemp("before-ratings"))
    script = ("import sys; from parlour.web.store import TableStore, TableRow, SeatRow; "
              "s = TableStore(sys.argv[1]); "
              "s.add_table(TableRow(id='old', game='twenty', options={}, seed=9, turn_seconds=None, version=0, "
              "status='finished', host='p1'), [SeatRow(table_id='old', seat=0, kind='me', level=None, name='Ann', "
              "owner='p1')]); s.close()")
    done = subprocess.run([sys.executable, "-c", script, sqlite_url], cwd=tree,
                          env=dict(os.environ, PYTHONPATH=str(Path(tree) / "src")), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    engine = create_engine(sqlite_url)
    with engine.connect() as connection:
        assert "web_ratings" not in inspect(connection).get_table_names()
    engine.dispose()
    store = TableStore(sqlite_url)
    try:
        loaded = store.load("old")
        assert loaded is not None and loaded[0].rated is False, "a table of the earlier release is not rated"
        assert store.standings() == [] and store.finished_matches("p1")[0].table.id == "old"
    finally:
        store.close()


def test_a_rated_match_the_server_stopped_before_rating_is_rated_when_it_starts(any_server: ServerProcess) -> None:
    server = any_server
    ann = server.person("Ann")
    match = rated_match(server, ann, "medium", 343)
    rated = server.get("/api/ratings/twenty").json()["players"]
    server.stop()
    engine = create_engine(server.db_url)
    with engine.begin() as connection:  # as if the server had stopped between the last move and the rating
        connection.execute(text("DELETE FROM web_rating_changes"))
        connection.execute(text("DELETE FROM web_ratings"))
    engine.dispose()
    server.start()
    assert server.get("/api/ratings/twenty").json()["players"] == rated
    handle = rated[0]["player"]
    assert [h["table_id"] for h in ann.get(f"/api/players/{handle}").json()["ratings"][0]["history"]] == [
        match["table_id"]]


def test_a_players_page_words_a_result_as_my_games_does_and_skips_a_game_no_longer_installed() -> None:
    """One reading of a finished match for both pages (mygames.outcome_of); a stored match of a game this
    server no longer has is left out, not an error."""
    game = games.get("twenty")
    state = game.new_match(seed=5, names=["Ann", "Bo"])
    rng = random.Random(5)
    moves = []
    while not state.is_match_over():
        if state.current_player() is None:
            state.next_round()
            moves.append(MoveRow(table_id="t", seq=len(moves), seat=None, move=NEXT_ROUND))
            continue
        move = rng.choice(state.legal_moves())
        moves.append(MoveRow(table_id="t", seq=len(moves), seat=state.current_player(), move=str(move)))
        state.apply(move)
    table = TableRow(id="t", game="twenty", options=game.check_options({}), seed=5, status="finished")
    seats = [SeatRow(table_id="t", seat=n, kind="me", name=name) for n, name in enumerate(["Ann", "Bo"])]
    for seat in (0, 1):
        said = players.result_of(FinishedMatch(table, seats, moves, []), seat)
        assert said is not None and said.totals == state.totals
        assert said.word == players.SAID[result_for(seat, 2, state.winners())]
    gone = TableRow(id="t", game="a-game-not-installed", options={}, seed=5, status="finished")
    assert players.result_of(FinishedMatch(gone, seats, moves, []), 0) is None
