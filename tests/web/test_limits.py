"""The pieces of fair sharing that need no server: the token bucket's maths and the origin check."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.web import limits
from parlour.web.app import Hosts, same_origin
from parlour.web.limits import KeyedBuckets, Strikes, TokenBucket, address_key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_its_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(limits.time, "monotonic", clock)
    bucket = TokenBucket(rate=10.0, burst=5)
    assert [bucket.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    clock.now += 0.25  # 2.5 tokens come back
    assert [bucket.allow() for _ in range(3)] == [True, True, False]
    clock.now += 60  # never more than the burst
    assert sum(bucket.allow() for _ in range(20)) == 5
    # a steady sender at the rate is never refused
    for _ in range(100):
        clock.now += 0.1
        assert bucket.allow()


def test_only_the_servers_own_origin_may_change_things() -> None:
    assert same_origin(None, "127.0.0.1:8000")  # not from a browser page
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin("https://Cards.Example.org", "cards.example.org", scheme="https")
    assert not same_origin("https://127.0.0.1:8000", "127.0.0.1:8000")  # another scheme is another site
    assert not same_origin("http://cards.example.org", "cards.example.org", scheme="https")
    assert not same_origin("http://evil.example", "127.0.0.1:8000")
    assert not same_origin("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not same_origin("null", "127.0.0.1:8000")
    assert not same_origin("http://[", "127.0.0.1:8000")  # not a URL: no site's own
    assert not same_origin("http://127.0.0.1:8000", None)
    assert same_origin("https://ok.example", "127.0.0.1:8000", frozenset({"https://ok.example"}))


def test_an_answer_of_500_carries_the_security_headers(tmp_path: Path) -> None:
    """A bug of ours answers a plain 500 in JSON, with the same headers as every other answer."""
    from fastapi.testclient import TestClient

    from parlour.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'x.db'}")

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    answer = TestClient(app, raise_server_exceptions=False).get("/boom")
    assert answer.status_code == 500 and answer.json() == {"error": "The server could not handle that request"}
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"


def test_host_names_a_server_answers_to() -> None:
    local = Hosts.for_server("127.0.0.1")
    assert local.allows("127.0.0.1:8000") and local.allows("localhost:8000") and local.allows("[::1]:8000")
    assert not local.allows("evil.example") and not local.allows("192.168.1.5:8000") and not local.allows(None)
    named = Hosts.for_server("127.0.0.1", ["cards.example.org", "*.games.example"])
    assert named.allows("cards.example.org") and named.allows("a.games.example:443")
    assert not named.allows("cards.example.org.evil") and not named.allows("games.example.evil")
    everywhere = Hosts.for_server("0.0.0.0")
    assert everywhere.allows("192.168.1.5:8000") and everywhere.allows("[fe80::1]:8000")
    assert not everywhere.allows("rebind.attacker.test")  # a name: only with --allowed-host


def test_addresses_are_counted_by_client() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key(None) == "unknown"


def test_refusals_add_up_however_they_interleave(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(limits.time, "monotonic", clock)
    strikes = Strikes(seconds=10)
    for _ in range(200):  # one refusal every 0.02 s, whatever was accepted in between
        clock.now += 0.02
        total = strikes.add()
    assert total > 100
    clock.now += 60
    assert strikes.add() < 2, "a minute later the past is forgiven"
    buckets = KeyedBuckets(rate=1.0, burst=2, keys=2)
    assert buckets.allow("a") and buckets.allow("a") and not buckets.allow("a") and buckets.allow("b")
    buckets.allow("c")  # three keys: the least recently used ("a") is forgotten
    assert buckets.allow("a")
