"""Post-game reviews on a real server: asked for after a finished match, worked out in the background with
progress, stored with the match and served again after a restart, shown to the seat's own player only."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

import httpx

from parlour import record, review

from .conftest import DATA, Client, Person, ServerProcess, play_to_end


def finished_table(server: ServerProcess, host: Person | None = None) -> tuple[str, Person]:
    """A Twenty match of a person (``host``, else a new Ann; random moves) against the hard bot, played to its end."""
    host = host or server.person("Ann")
    answer = host.post("/api/tables", json={"game": "twenty", "options": {},
                                            "seats": [{"kind": "me"}, {"kind": "bot", "level": "hard"}]})
    assert answer.status_code in (200, 201), answer.text
    table_id: str = answer.json()["table_id"]
    with Client(server, table_id, host) as client:
        assert play_to_end([client], random.Random(33))["status"] == "finished"
    return table_id, host


def wait_for_review(person: Person, table_id: str, timeout: float = 120.0) -> list[dict[str, Any]]:
    """Every status answer of the review of ``person``'s seat at a table, polled until it is done."""
    return wait_until_done(lambda: person.get(f"/api/tables/{table_id}/review"), timeout)


def wait_until_done(ask: Callable[[], httpx.Response], timeout: float) -> list[dict[str, Any]]:
    """Every status answer ``ask`` gets, polled until the review is done."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = ask()
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        if seen[-1]["status"] == "done":
            return seen
        assert seen[-1]["status"] == "running", seen[-1]
        time.sleep(0.05)
    raise AssertionError(f"no review after {timeout} s: {seen[-3:]}")


def test_a_review_runs_with_progress_is_kept_and_is_the_players_only(server: ServerProcess) -> None:
    table_id, ann = finished_table(server)
    path = f"/api/tables/{table_id}/review"
    assert ann.get(path).json() == {"table_id": table_id, "seat": 0, "status": "none", "done": 0, "total": None,
                                    "review": None, "steps": None}
    started = ann.post(path)
    assert started.status_code == 200 and started.json()["status"] in ("running", "done")
    assert ann.post(path).json()["status"] in ("running", "done")  # asking again starts nothing new
    seen = wait_for_review(ann, table_id)
    running = [s for s in seen if s["status"] == "running" and s["total"] is not None]
    assert running, "no progress was seen"
    assert all(0 <= s["done"] <= s["total"] for s in running)
    assert [s["done"] for s in running] == sorted(s["done"] for s in running)
    done = seen[-1]
    data = done["review"]
    assert done["done"] == done["total"] == len(data["judgements"]) > 0
    assert data["seat"] == 0 and data["player"] == "Ann" and data["analyst"] == "hard"
    assert 0 <= data["accuracy"] <= 100
    # Each decision's step in the table's replay: the position before its move, Ann's seat to move.
    steps = done["steps"]
    assert len(steps) == len(data["judgements"]) and all(isinstance(step, int) for step in steps)
    first = data["judgements"][0]
    page = ann.get(f"/api/tables/{table_id}/replay", params={"offset": steps[0], "count": 2}).json()
    assert page["steps"][0]["round"] == first["round"] and page["steps"][1]["change"] == first["played"]

    # The same verdicts as parlour review of the downloaded record (the same seeds, from Ann's observations).
    match = record.from_data(ann.get(f"/api/tables/{table_id}/record").json())
    assert review.review(match, 0).to_data() == data

    # Nobody else sees it: a spectator, a visitor without a cookie; and nobody starts one for a seat not theirs.
    spectator = server.person("Eve")
    for answer in (spectator.get(path), spectator.post(path), server.get(path), server.post(path)):
        assert answer.status_code == 403, answer.text
        assert "only to the player of its seat" in answer.json()["error"]

    server.restart()
    again = ann.get(path)
    assert again.status_code == 200 and again.json() == done
    assert ann.post(path).json() == done  # kept: not worked out again


def test_a_review_waits_for_the_end_of_the_match(server: ServerProcess) -> None:
    host = server.person("Ann")
    table_id = host.post("/api/tables", json={"game": "twenty", "options": {},
                                              "seats": [{"kind": "me"}, {"kind": "bot", "level": "easy"}]}
                         ).json()["table_id"]
    for answer in (host.get(f"/api/tables/{table_id}/review"), host.post(f"/api/tables/{table_id}/review")):
        assert answer.status_code == 409 and "once the match is over" in answer.json()["error"]
    missing = host.post("/api/tables/nosuchtable/review")
    assert missing.status_code == 404


def test_an_uploaded_record_is_reviewed_for_the_seat_asked_and_kept_by_its_digest(server: ServerProcess) -> None:
    raw = (DATA / "twenty-illustrative.json").read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    ann = server.person("Ann")
    assert ann.get(f"/api/reviews/{digest}", params={"seat": 1}).json() == {
        "review_id": digest, "seat": 1, "status": "none", "done": 0, "total": None, "review": None, "steps": None}
    started = ann.post("/api/reviews", params={"seat": 1}, content=raw)
    assert started.status_code == 200, started.text
    assert started.json()["review_id"] == digest and started.json()["status"] in ("running", "done")
    seen = wait_until_done(lambda: ann.get(f"/api/reviews/{digest}", params={"seat": 1}), 120.0)
    done = seen[-1]
    data = done["review"]
    # The same verdicts as parlour review of the file (the same seeds, from the seat's observations).
    assert review.review(record.loads(raw), 1).to_data() == data
    assert data["player"] == "Bertha" and done["done"] == done["total"] == len(data["judgements"]) > 0
    # Each decision's step in the record's replay: the position before its move, the seat to move.
    for judged, step in list(zip(data["judgements"], done["steps"], strict=True))[::7]:
        page = ann.post("/api/replay", params={"offset": step, "count": 2}, content=raw).json()
        assert page["steps"][0]["round"] == judged["round"] and page["steps"][0]["to_move"] == 1
        assert page["steps"][1]["change"] == judged["played"]

    server.restart()  # kept: served again after a restart, and asking again works nothing out
    assert ann.get(f"/api/reviews/{digest}", params={"seat": 1}).json() == done
    assert server.post("/api/reviews", params={"seat": 1}, content=raw).json() == done


def test_what_a_record_review_refuses(server: ServerProcess) -> None:
    ann = server.person("Ann")
    raw = (DATA / "progression-six-rounds.json").read_bytes()
    for seat, status, words in ((3, 400, "There is no seat 3; the seats are 0 (Ada), 1 (Ben), 2 (Cleo)"),
                                (10**30, 400, "There is no seat 1000000000000000000000000000000: seats are numbered"),
                                (-1, 400, "There is no seat -1")):
        answer = ann.post("/api/reviews", params={"seat": seat}, content=raw)
        assert answer.status_code == status and answer.json()["error"].startswith(words), answer.text
    wrong = ann.post("/api/reviews", params={"seat": 0}, content=b'{"format": "parlour-record/0"}')
    assert wrong.status_code == 422 and wrong.json()["error"].startswith("Format must be"), wrong.text
    assert ann.get("/api/reviews/not-a-digest").status_code == 404
    # One review of an uploaded record at a time for each player: the second waits for the first.
    first = ann.post("/api/reviews", params={"seat": 0}, content=raw)  # some 140 decisions: still running below
    assert first.status_code == 200 and first.json()["status"] == "running", first.text
    second = ann.post("/api/reviews", params={"seat": 1}, content=raw)
    assert second.status_code == 429, second.text
    assert second.json()["error"] == "Your other review is still being worked out: ask again once it is done"
    assert ann.post("/api/reviews", params={"seat": 0}, content=raw).json()["status"] == "running"  # the same one
