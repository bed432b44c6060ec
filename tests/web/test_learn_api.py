"""The lessons' HTTP API on a real server: the list of tutorials, a lesson walked answer by answer,
a refused answer explained and not kept, and requests that are not answers refused in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour import games, learn

from .conftest import ServerProcess

GAME_IDS = [game_id for game_id in games.ids() if games.entry(game_id).tutorial is not None]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("learn-api")
    proc = ServerProcess(f"sqlite:///{folder / 'parlour.db'}", log_path=folder / "server.log",
                         extra=("--lesson-steps-per-minute", "100000")).start()
    yield proc
    proc.stop()


def lesson(api: ServerProcess, game_id: str, answers: list[str]) -> dict[str, Any]:
    answer = api.post(f"/api/learn/{game_id}", json={"answers": answers})
    assert answer.status_code == 200, answer.text
    page: dict[str, Any] = answer.json()
    return page


def refused(answer: Any, status: int) -> str:
    assert answer.status_code == status, (answer.status_code, answer.text)
    text: str = answer.json()["error"]
    assert text and "\n" not in text and "Traceback" not in text
    return text


def test_the_games_with_a_lesson_are_listed(api: ServerProcess) -> None:
    listed = api.get("/api/learn").json()
    assert [item["game"] for item in listed] == GAME_IDS
    assert all(item["title"] == learn.tutorial(item["game"]).title for item in listed)
    page = api.get("/learn/twenty")
    assert page.status_code == 200 and "app.js" in page.text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_lesson_walked_answer_by_answer(api: ServerProcess, game_id: str) -> None:
    tutorial = learn.tutorial(game_id)
    walk = learn.Lesson(tutorial)
    answers: list[str] = []
    page = lesson(api, game_id, answers)
    assert page["said"] == walk.said and page["seat"] == tutorial.seat and not page["done"]
    while not walk.done:
        step = walk.step
        assert step is not None
        assert page["step"]["kind"] == step.kind and page["step"]["text"] == step.text
        offered = [m["move"] for m in page["layout"]["moves"]]
        if step.kind == learn.ASK:
            assert set(step.moves) <= set(offered)
            assert page["view"]["hand"] is not None and page["view"]["seat"] == tutorial.seat
        else:
            assert offered == []
        answer = learn.NEXT if step.kind == learn.SAY else step.moves[0]
        assert walk.answer(answer).ok
        answers.append(answer)
        page = lesson(api, game_id, answers)
        assert page["accepted"] == len(answers) and page["ok"] and page["message"] is None
        assert page["said"] == walk.said
    assert page["done"] and page["step"]["kind"] is None
    assert page["scoring"] == walk.scoring() and page["scoring"][0] == "How your round scored:"


def test_a_refused_answer_is_explained_and_not_kept(api: ServerProcess) -> None:
    page = lesson(api, "twenty", ["next", "next", "play 2C", "play KH"])
    assert page["accepted"] == 2 and not page["ok"]
    walk = learn.Lesson(learn.tutorial("twenty"))
    walk.answer(learn.NEXT)
    walk.answer(learn.NEXT)
    assert page["message"] == walk.answer("play 2C").message
    assert page["message"].endswith(f"This lesson asks you to {walk.wanted_text(walk.asked())}.")
    assert page["step"]["index"] == 3
    page = lesson(api, "twenty", ["play KH"])
    assert page["accepted"] == 0 and page["message"] == "Read this, then go on to the next step."


@pytest.mark.parametrize("body", [
    [], {"answers": "next"}, {"answers": [1]}, {"answers": ["x" * 101]}, {"answers": ["next"] * 401},
    {"more": 1}, {},
])
def test_what_is_not_a_list_of_answers_is_refused(api: ServerProcess, body: Any) -> None:
    refused(api.post("/api/learn/twenty", json=body), 400)


def test_unknown_games_and_odd_text_are_refused(api: ServerProcess) -> None:
    assert "Unknown game 'chess'" in refused(api.post("/api/learn/chess", json={"answers": []}), 404)
    refused(api.post("/api/learn/twenty", content=b'{"answers": ["\\ud800"]}',
                     headers={"Content-Type": "application/json"}), 400)
    refused(api.post("/api/learn/twenty", content=b"not json", headers={"Content-Type": "application/json"}), 400)
    page = lesson(api, "twenty", ["next", "next", "play \x00"])
    assert page["accepted"] == 2 and not page["ok"]


def test_one_address_cannot_ask_for_lesson_steps_without_end(tmp_path: Path) -> None:
    """Each step walks the lesson again on the server's event loop: an address gets its burst (half a
    minute's worth), then 429 with when to try again; another address is served meanwhile."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'parlour.db'}", log_path=tmp_path / "server.log",
                           extra=("--lesson-steps-per-minute", "6")).start()
    try:
        def ask(address: str) -> httpx.Response:
            with httpx.Client(base_url=server.url, trust_env=False, timeout=30,
                              transport=httpx.HTTPTransport(local_address=address)) as http:
                return http.post("/api/learn/twenty", json={"answers": []})

        codes = [ask("127.0.0.5").status_code for _ in range(6)]
        assert codes[:3] == [200, 200, 200] and 429 in codes, codes
        assert "try again" in refused(ask("127.0.0.5"), 429)
        assert ask("127.0.0.6").status_code == 200
    finally:
        server.stop()
