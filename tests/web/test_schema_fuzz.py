"""The HTTP API fuzzed from its own OpenAPI schema with schemathesis, on SQLite and on PostgreSQL.

Every operation of the schema (``parlour.web.openapi`` adds the JSON bodies and query parameters the
routes read by hand) gets schemathesis's three phases: the schema's examples, its coverage cases
(boundaries, missing and extra fields, wrong types, other content types, other methods) and
Hypothesis's fuzzing, in positive and negative mode, NUL included.  Each case goes twice, with a
player's session cookie and without one (a new visitor), then once more with a lone surrogate or a
NUL added to every string of its JSON body and its path (schemathesis itself only sends text UTF-8
can carry, and seldom a NUL).  Cases on ``/api/tables/{table_id}/…`` mostly go to real tables: three
made first (a live one with an open seat, one with an invitation, a finished bots-only one) and those
the fuzzing made.  Besides: the headers the server reads outside the schema (``Origin``, ``Host``,
the session cookie) fuzzed by Hypothesis, and every table made read back after a restart.

No answer may be a 5xx, answers must be the JSON the schema says, and the server must log no
traceback.  The run is deterministic: a fixed seed, Hypothesis derandomized, no example database, no
feedback from the server's answers; ``PARLOUR_FUZZ_SEED`` and ``PARLOUR_FUZZ_EXAMPLES`` explore further.

The schema is the app's own (``create_app`` + ``openapi.describe``, made here because schemathesis
needs it when the tests are collected); once ``create_app`` publishes it at ``/openapi.json``, the
server's must be the same.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.core import NotSet
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from parlour.web import openapi
from parlour.web.app import SESSION_COOKIE, create_app

from .conftest import FAST_CLIENTS, ServerProcess

SEED = int(os.environ.get("PARLOUR_FUZZ_SEED", "20260517"))
"""The run's seed: the same seed sends the same requests (set the variable to explore further)."""
FUZZ_EXAMPLES = int(os.environ.get("PARLOUR_FUZZ_EXAMPLES", "150"))
"""Hypothesis examples per operation and mode in the fuzzing phase (examples and coverage cases come on top)."""
TIMEOUT = 30.0
ODD = (("\udc80", "%ED%B2%80"), ("\x00", "%00"))
"""What is added to every string of a JSON body and of the path once more (in the path as the bytes a
URL would carry): a lone surrogate, or a NUL."""
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]
GENEROUS = {
    "--max-open": "100000", "--max-per-hour": "1000000", "--max-tables": "100000", "--max-waiting": "100000",
    "--max-address-open": "100000", "--max-address-per-hour": "1000000", "--new-players-per-hour": "1000000",
    "--replays-per-minute": "1000000", "--lesson-steps-per-minute": "1000000",
}
"""Limits raised far out of the way, so that valid requests get past "too many" to the code behind it
(the limits themselves are tested in test_limits.py and test_abuse.py); bots-only tables keep theirs,
they cost CPU."""
GENEROUS_FLAGS = tuple(item for pair in GENEROUS.items() for item in pair)


def _has_bodies(schema: dict[str, Any]) -> bool:
    operation = schema.get("paths", {}).get("/api/tables", {}).get("post", {})
    return "requestBody" in operation


class Target:
    """The server under test, a player of it (the session cookie), and tables made for the fuzzing."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.offset = server.log_path.stat().st_size if server.log_path.exists() else 0
        host = server.person("Fuzz Host")
        self.cookie = host.http.cookies[SESSION_COOKIE]
        self.tables: list[str] = []
        """Tables made here: a live one with an open seat, one with an invitation, a finished one."""
        self.made: list[str] = []
        """Tables the fuzzing made (``POST /api/tables`` answered 200), with whatever options and seats."""
        self.invites: dict[str, str] = {}
        """Each table's invitation (the code after ``#invite=``)."""
        self.sent = 0
        self.reported = 0
        """Tracebacks of the server's log that a failing request has shown already."""
        self.answers: Counter[tuple[str, int]] = Counter()
        """How many answers of each status each operation got."""
        for seats in ([{"kind": "me"}, {"kind": "open"}], [{"kind": "me"}, {"kind": "friend"}]):
            made = host.post("/api/tables", json={"game": "twenty", "seats": seats})
            assert made.status_code == 200, made.text
            table = made.json()
            self.tables.append(table["table_id"])
            self.note_invites(table)
        bots = host.post("/api/tables", json={
            "game": "twenty", "options": {"suits": 1, "hands": 1, "rounds": 1},
            "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
        assert bots.status_code == 200, bots.text
        finished = bots.json()["table_id"]
        self.tables.append(finished)
        deadline = time.monotonic() + 30
        while server.table(finished)["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish their match"
            time.sleep(0.1)
        self.read_log()

    def read_log(self, wait: float = 0.0) -> str:
        """What the server printed since last asked; with ``wait``, up to that many seconds for it to print
        something and then fall quiet (a traceback may come just after the answer)."""
        deadline = time.monotonic() + wait
        text = b""
        while True:
            with open(self.server.log_path, "rb") as log:
                log.seek(self.offset)
                data = log.read()
            self.offset += len(data)
            text += data
            if time.monotonic() >= deadline or (text and not data):
                return text.decode("utf-8", "replace")
            time.sleep(0.2 if text else 0.02)

    def send(self, case: Case[Any]) -> None:
        """Send ``case`` with the cookie and without, then once more with odd strings, if it has any.

        The case is changed only for the while (copies: its values may be shared with other cases)."""
        generated_path, generated_body = case.path_parameters, case.body
        shown = None if isinstance(generated_body, NotSet) else generated_body  # (NotSet's repr holds an address)
        # Choices made from the case itself, so that the same case is always sent the same way.
        pick = zlib.crc32(repr((case.operation.label, generated_path, case.query, shown)).encode())
        path, body = dict(generated_path or {}), generated_body
        if "table_id" in path and pick % 3:
            pool = self.made if self.made and pick >> 2 & 1 else self.tables
            path["table_id"] = pool[(pick >> 4) % len(pool)]
            if path["table_id"] in self.invites and isinstance(body, dict) and "invite" in body and pick >> 8 & 1:
                body = {**body, "invite": self.invites[path["table_id"]]}
        odd, quoted = ODD[(pick >> 12) % len(ODD)]
        odd_path = {name: value + quoted if isinstance(value, str) else value for name, value in path.items()}
        odd_body = _with_odd_strings(body, odd) if isinstance(body, (dict, list)) else body
        try:
            case.path_parameters, case.body = path, body
            self.call(case, {SESSION_COOKIE: self.cookie}, "with the session cookie")
            self.call(case, None, "without a cookie")
            if odd_path != path or odd_body != body:
                case.path_parameters, case.body = odd_path, odd_body
                self.call(case, {SESSION_COOKIE: self.cookie}, f"with {odd!r} added to every string")
        finally:
            case.path_parameters, case.body = generated_path, generated_body

    def call(self, case: Case[Any], cookies: dict[str, str] | None, how: str) -> None:
        self.sent += 1
        response = case.call(base_url=self.server.url, cookies=cookies, timeout=TIMEOUT)
        self.answers[case.operation.label, response.status_code] += 1
        if case.operation.label == "POST /api/tables" and response.status_code == 200:
            self.made.append(response.json()["table_id"])
            self.note_invites(response.json())
        self.check(response.status_code, response.text, lambda: (
            f"{case.method} {case.formatted_path} {how}\nbody: {_shown(case.body)}\n"
            f"{case.as_curl_command(base_url=self.server.url)}"))
        case.validate_response(response, checks=CHECKS)

    def note_invites(self, table: dict[str, Any]) -> None:
        for invite in table.get("invites", []):
            self.invites[table["table_id"]] = invite["url"].partition("#invite=")[2]

    def check(self, status: int, text: str, request: Callable[[], str]) -> None:
        """Fail, saying ``request()`` and what the server printed, on a 5xx answer or a traceback."""
        failed = status >= 500
        printed = self.read_log(wait=2.0 if failed else 0.0)
        if failed or "Traceback" in printed:
            self.reported += printed.count("Traceback")
            raise AssertionError(f"{request()}\n--- answered {status} {text[:300]}\n"
                                 f"--- the server printed:\n{digest(printed)}")


def _shown(body: Any) -> str:
    """A request body as a failure shows it."""
    if isinstance(body, NotSet):
        return "(none)"
    if isinstance(body, (bytes, str)):
        return repr(body)[:3000]
    return json.dumps(body, default=repr)[:3000]


def digest(printed: str) -> str:
    """The lines of a server's output that say what went wrong: each traceback's first line, its frames in
    parlour's own code, and the exception; everything else the server printed."""
    kept: list[str] = []
    lines = printed.splitlines()
    in_traceback = False
    for number, line in enumerate(lines):
        if line.startswith("Traceback"):
            in_traceback = True
            kept.append(line)
        elif in_traceback and line.startswith("  File "):
            if "/parlour/" in line and "site-packages" not in line:
                kept.extend(lines[number:number + 2])
        elif in_traceback and line.startswith(" "):
            continue
        else:
            in_traceback = in_traceback and not line.strip()
            kept.append(line)
    return "\n".join(kept)[-8000:]


def _with_odd_strings(value: Any, odd: str) -> Any:
    """``value`` with ``odd`` added to the end of every string in it (keys too)."""
    if isinstance(value, str):
        return value + odd
    if isinstance(value, list):
        return [_with_odd_strings(v, odd) for v in value]
    if isinstance(value, dict):
        return {_with_odd_strings(k, odd): _with_odd_strings(v, odd) for k, v in value.items()}
    return value


def _described() -> dict[str, Any]:
    """The app's own schema with its request bodies: ``create_app`` + ``openapi.describe``."""
    app = create_app("sqlite://", secret_key="only the schema is used")
    openapi.describe(app)
    return app.openapi()


DESCRIBED = _described()
CONFIG = schemathesis.Config.from_dict({
    "seed": SEED,
    "suppress-health-check": ["all"],
    "request-timeout": TIMEOUT,
    "generation": {"mode": "all", "max-examples": FUZZ_EXAMPLES, "deterministic": True, "database": "none",
                   "allow-x00": True},
    "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True},
               "fuzzing": {"enabled": True, "error-feedback": {"enabled": False},
                           "extra-data-sources": {"responses": False}},
               "stateful": {"enabled": False}},
})
schema = schemathesis.openapi.from_dict(DESCRIBED, config=CONFIG)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """A server on SQLite, then one on PostgreSQL, with its tables, for every test of the module; afterwards
    its log must hold no traceback that no failing request has shown already."""
    folder = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'parlour.db'}"
    else:
        url = request.getfixturevalue("postgres_server").create_database()
    server = ServerProcess(url, log_path=folder / "server.log", extra=(*FAST_CLIENTS, *GENEROUS_FLAGS)).start()
    try:
        published = server.get("/openapi.json").json()
        if _has_bodies(published):  # create_app describes the bodies itself: the test fuzzes what it publishes
            assert published == json.loads(json.dumps(DESCRIBED)), "the server publishes another schema"
        made = Target(server)
        started = time.monotonic()
        yield made
        log = server.log_path.read_text(encoding="utf-8", errors="replace")
        unexplained = log.count("Traceback") - made.reported
        assert unexplained <= 0, f"the server logged {unexplained} traceback(s) no answer showed:\n{digest(log)}"
        assert server.alive(), "the server died"
        print(f"\n{request.param}: {made.sent} requests in {time.monotonic() - started:.0f} s")
        for label in sorted({label for label, _status in made.answers}):
            counts = sorted((status, n) for (named, status), n in made.answers.items() if named == label)
            print(f"  {label}: " + ", ".join(f"{n} × {status}" for status, n in counts))
    finally:
        server.stop()
        server.close_people()


@pytest.fixture
def fuzzed_server(target: Target) -> ServerProcess:
    """The server of the test (a failing test shows its output)."""
    return target.server


@pytest.mark.slow
@schema.parametrize()
def test_no_request_gets_a_server_error(case: Case[Any], target: Target, fuzzed_server: ServerProcess) -> None:
    target.send(case)


HEADER_EXAMPLES = 200
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"),
                      max_size=40).map(str.strip)
"""What an HTTP header value can carry (latin-1 without control characters, nor spaces around it)."""
URLISH = st.text(st.sampled_from("[]:/.@%#?-_0aZ\u00e9"), max_size=12)


def _origins(own: str) -> st.SearchStrategy[str | None]:
    """``Origin`` headers: none, the server's own, other sites', and text shaped, more or less, like one."""
    return st.one_of(
        st.none(), st.just(own), st.sampled_from(["null", "http://localhost", "https://127.0.0.1", "file://"]),
        st.builds("{}://{}{}".format, st.sampled_from(["http", "https", "ws", ""]), URLISH, URLISH), HEADER_TEXT)


@pytest.mark.slow
@settings(derandomize=True, database=None, max_examples=HEADER_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_origin_host_or_cookie_gets_a_server_error(target: Target, fuzzed_server: ServerProcess,
                                                      data: st.DataObject) -> None:
    """The headers the server reads besides the schema's parameters: ``Origin`` (state-changing requests
    from another site's page are refused), ``Host`` (names this server does not answer to are refused)
    and the session cookie, whatever they hold."""
    own = target.server.url
    table = target.tables[0]
    method, path, body = data.draw(st.sampled_from([
        ("GET", "/api/me", None), ("PUT", "/api/me", {"name": "Ada"}),
        ("POST", "/api/tables", {"game": "twenty", "seats": [{"kind": "me"}, {"kind": "open"}]}),
        ("POST", f"/api/tables/{table}/join", {"seat": 1}), ("GET", f"/api/tables/{table}", None),
    ]), label="request")
    headers: list[tuple[str, str]] = []
    origin = data.draw(_origins(own), label="origin")
    if origin is not None:
        headers.append(("Origin", origin))
    host = data.draw(st.one_of(st.none(), HEADER_TEXT, URLISH.map(lambda h: h + own.rpartition(":")[2])),
                     label="host")
    if host is not None:
        headers.append(("Host", host))
    cookie = data.draw(st.one_of(st.none(), st.just(target.cookie), HEADER_TEXT,
                                 st.builds(str.__add__, st.just(target.cookie[:-4]), HEADER_TEXT)), label="cookie")
    if cookie is not None:
        headers.append(("Cookie", f"{SESSION_COOKIE}={cookie}"))
    with httpx.Client(base_url=own, trust_env=False, timeout=TIMEOUT) as client:
        response = client.request(method, path, json=body,
                                  headers=[(k.encode(), v.encode("latin-1")) for k, v in headers])
    target.check(response.status_code, response.text, lambda: f"{method} {path} {json.dumps(body)} {headers!r}")


@pytest.mark.slow
def test_every_table_the_fuzzing_made_loads_after_a_restart(target: Target, fuzzed_server: ServerProcess) -> None:
    """What the requests stored, the server reads back when it starts again (live tables at once,
    the others when asked for)."""
    target.server.restart()
    for table_id in [*target.tables, *target.made]:
        request = f"GET /api/tables/{table_id} after a restart"
        answer = target.server.get(f"/api/tables/{table_id}")
        target.check(answer.status_code, answer.text, request.__str__)
        assert answer.status_code == 200, (request, answer.text)


def test_the_schema_describes_every_body_the_api_reads() -> None:
    with_body = {(path, method) for path, operations in DESCRIBED["paths"].items()
                 for method, operation in operations.items() if "requestBody" in operation}
    assert with_body == {("/api/me", "put"), ("/api/tables", "post"), ("/api/tables/{table_id}/join", "post"),
                         ("/api/tables/{table_id}/accept", "post"), ("/api/replay", "post"),
                         ("/api/learn/{game_id}", "post"), ("/api/reviews", "post"),
                         ("/api/account/register", "post"), ("/api/account/signin", "post")}
    changing = {(path, method) for path, operations in DESCRIBED["paths"].items() for method in operations
                if method in ("post", "put", "patch", "delete")}
    assert changing - with_body == {("/api/tables/{table_id}/seats/{seat}/reopen", "post"),
                                    ("/api/tables/{table_id}/review", "post"), ("/api/account/signout", "post")}


def test_the_schema_examples_are_accepted() -> None:
    """The examples of the schema are valid requests: the replay example replays."""
    from parlour.web.views import record_steps

    content = DESCRIBED["paths"]["/api/replay"]["post"]["requestBody"]["content"]["application/json"]
    assert len(record_steps(content["example"])) > 1
