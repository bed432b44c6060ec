"""Issue 17 on the web: ``POST /api/replay`` against a real server process.

Random bytes and mutated golden records (the strategies of
``tests/test_record_robust.py``) each get a one-line JSON error (422 for a bad
record, 400 for a body that is not JSON at all) or 200 for a valid one —
never a 500 — and the server stays up.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.test_record_robust import TWENTY, data_mutants, text_mutants

from .conftest import ServerProcess

# Deeper than Python's recursion limit would hit the app.py bug above at every such example.
WEB_DEPTHS = (1, 3, 100, 400)
FUZZ = settings(
    derandomize=True, max_examples=150, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check(server: ServerProcess, body: bytes) -> httpx.Response:
    """Post ``body``: 200 with steps, or a one-line JSON error (422: bad record, 400: not JSON)."""
    answer = server.post("/api/replay", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code in (200, 400, 422), (answer.status_code, answer.text[:300], server.output(30))
    data: Any = answer.json()
    assert isinstance(data, dict), data
    if answer.status_code == 200:
        assert isinstance(data.get("steps"), list) and data["steps"], data
    else:
        error = data.get("error")
        assert isinstance(error, str) and error.strip() and "\n" not in error and len(error) < 300, data
        assert "Traceback" not in error
        if answer.status_code == 422:
            assert "round" in data and "move" in data, data
    return answer


def test_the_nested_brackets_file_over_the_web(server: ServerProcess) -> None:
    nested = check(server, b"[" * 100_000 + b"]" * 100_000)
    assert nested.status_code in (400, 422), nested.text
    assert server.alive()


def test_the_issue_files_over_the_web(server: ServerProcess) -> None:
    assert check(server, b"\xef\xbb\xbf" + TWENTY.encode()).status_code == 200
    truncated = check(server, TWENTY[: len(TWENTY) // 2].encode())
    assert truncated.status_code in (400, 422)
    for body in (b"", b"\xff\xfe\x00", b"[1, 2]", b"1" * 5000, b'{"format": "[bold]"}'):
        assert check(server, body).status_code in (400, 422)
    deep = json.loads(TWENTY)
    value: Any = 1
    for _ in range(500):
        value = [value]
    deep["meta"] = {"x": value}
    answer = check(server, json.dumps(deep).encode())
    assert answer.status_code == 422 and "nested too deeply" in answer.json()["error"]
    assert server.alive()
    assert server.post("/api/replay", content=TWENTY.encode()).status_code == 200


@FUZZ
@given(st.one_of(st.binary(max_size=300), text_mutants(WEB_DEPTHS).map(str.encode), data_mutants().map(str.encode)))
def test_fuzzed_records_never_crash_the_replay_endpoint(server: ServerProcess, body: bytes) -> None:
    check(server, body)
    assert server.alive(), server.output(30)
