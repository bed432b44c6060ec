"""The pieces of fair sharing that need no server: the token bucket's maths and the origin check."""

from __future__ import annotations

import pytest

from parlour.web import tables
from parlour.web.app import same_origin
from parlour.web.tables import TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_its_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(tables.time, "monotonic", clock)
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
    assert not same_origin("http://127.0.0.1:8000", None)
    assert same_origin("https://ok.example", "127.0.0.1:8000", frozenset({"https://ok.example"}))
