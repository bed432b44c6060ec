"""What one client may take from the server, and how it is counted.

An identity (the signed cookie) costs nothing to make, so every limit that
matters is kept twice: per identity, and per client address, which a script
cannot change at will.  The address is the peer of the TCP connection, or,
behind a reverse proxy named with ``--trust-proxy``, the address that proxy
forwards (uvicorn's proxy-headers middleware puts it in the ASGI scope); an
IPv6 address counts as its /64 network, the block one subscriber is given.

The counting is token buckets (:class:`TokenBucket`, one per key in
:class:`KeyedBuckets`), concurrent holdings (:class:`Gauge`) and a decaying
count of refusals (:class:`Strikes`).  With one server process all of it lives
in its memory: a restart forgives, and what must survive one (tables started in
the last hour) is counted in the database.  With several processes on one
PostgreSQL database (:mod:`parlour.web.cluster`) the budgets and holdings of
clients are kept in the database instead (:class:`Shared`), so that a client
connected to several processes has one budget, not one a process; what belongs
to one connection (its messages and bytes a second) stays with its process.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Limits:
    """What one player, one address and the whole server may hold (``parlour serve`` sets them)."""

    open_tables: int = 10
    """Live tables a player may have created and not finished."""
    tables_per_hour: int = 30
    """Tables a player may create in an hour."""
    live_tables: int = 1000
    """Live tables on the whole server that people play (a person has moved there)."""
    waiting_tables: int = 1000
    """Live tables nobody has moved at yet (waiting for their first move, and bots-only tables): when the
    server holds this many, a new one ends the oldest of them nobody is sitting at."""
    bot_tables: int = 2
    """Live bots-only tables a player may have."""
    idle_seconds: float = 24 * 3600
    """A table nobody is at and nobody moved at for this long ends as abandoned."""
    first_move_seconds: float = 600.0
    """A table nobody has moved at ends as abandoned when no player has sat at it for this long (watching
    does not count)."""
    messages_per_second: float = 20.0
    message_burst: int = 40
    """A connection's message rate (a token bucket): more get ``rate_limited``."""
    flood_strikes: int = 100
    """A connection closed for flooding: this many refused messages, counted over :data:`STRIKE_SECONDS`
    (each refusal's weight halves every ``STRIKE_SECONDS * ln 2``), whatever was accepted between them."""
    bytes_per_second: int = 64 * 1024
    byte_burst: int = 2 * 1024 * 1024
    """What a connection may send, in bytes (a token bucket): more closes it."""
    # -- per client address ---------------------------------------------------
    address_open_tables: int = 30
    """Live tables started from one address and not finished."""
    address_tables_per_hour: int = 120
    """Tables started from one address in an hour."""
    address_bot_tables: int = 4
    """Live bots-only tables started from one address."""
    new_players_per_hour: int = 120
    """New identities (first visits without a cookie) one address may make in an hour (in bursts of a fifth)."""
    sockets: int = 60
    """WebSocket connections open at once from one address."""
    spectators: int = 12
    """Of them, connections watching a table (not sitting at it)."""
    sockets_per_minute: int = 120
    """WebSocket connections one address may open in a minute (in bursts of half as many)."""
    replays_per_minute: int = 20
    """Replays (uploaded records, finished tables) one address may ask for in a minute."""
    hints_per_minute: int = 20
    """Hints one seat may ask for in a minute (a hint already worked out costs nothing)."""
    health_checks_per_minute: int = 120
    """``GET /healthz`` one address may ask in a minute (a load balancer asks every few seconds)."""
    lesson_steps_per_minute: int = 120
    """Steps of the guided first matches one address may ask for in a minute (each walks the lesson
    again from its start, some 20 ms of the server's one event loop; a learner reads between steps)."""
    # -- chat --
    chat_length: int = 300
    """The longest chat message, in characters (once trimmed)."""
    chat_per_minute: int = 20
    chat_burst: int = 8
    """Chat messages one identity (an address, without one) may send in a minute, at all its tables and
    connections together, and at once."""
    socket_chat_per_minute: int = 30
    socket_chat_burst: int = 5
    """Chat messages one connection may send in a minute, and at once."""
    address_chat_per_minute: int = 60
    address_chat_burst: int = 20
    """Chat messages one address may send in a minute, and at once (identities cost nothing to make)."""
    chat_kept: int = 500
    """Chat messages stored a table: older ones are dropped."""
    chat_shown: int = 50
    """The newest chat messages a newcomer to a table is sent."""
    # -- accounts --
    signins_per_hour: int = 30
    """Sign-in attempts one username may take in an hour (in bursts of a fifth), whoever makes them."""
    address_signins_per_hour: int = 120
    """Sign-in attempts one address may make in an hour (in bursts of a fifth), whatever the usernames."""
    registrations_per_hour: int = 20
    """Accounts one address may register in an hour (in bursts of half as many)."""


STRIKE_SECONDS = 10.0


def address_key(host: str | None) -> str:
    """The key an address is counted under: an IPv4 address itself, an IPv6 address its /64 network
    (an IPv4 address mapped into IPv6 counts as the IPv4 address)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # a Unix socket's path, a test client's name
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def address_of(scope: Any) -> str:
    """The client address of an ASGI ``scope`` (a request or a WebSocket), as :func:`address_key`."""
    client = scope.get("client") if isinstance(scope, dict) else getattr(scope, "client", None)
    if client is None:
        return address_key(None)
    host = client[0] if isinstance(client, (tuple, list)) else getattr(client, "host", None)
    return address_key(host)


class TokenBucket:
    """``rate`` tokens a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens if there are that many."""
        clock = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (clock - self.stamp) * self.rate)
        self.stamp = clock
        if self.tokens >= cost - 1e-9:  # a sender at exactly the rate is never refused for rounding
            self.tokens -= cost
            return True
        return False

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` tokens are there (0: now)."""
        clock = time.monotonic()
        tokens = min(self.burst, self.tokens + (clock - self.stamp) * self.rate)
        return 0.0 if tokens >= cost else (cost - tokens) / self.rate


class Shared(Protocol):
    """Budgets and holdings kept where every server process counts them (the database)."""

    async def spend(self, name: str, key: str, rate: float, burst: float, cost: float, take: bool) -> float:
        """Take ``cost`` of ``key``'s budget ``name`` (if ``take``) when it holds that much: 0; else the
        seconds until it will."""

    async def hold(self, name: str, key: str, limit: int) -> bool:
        """One more of ``name`` held by ``key`` here, if all processes together hold fewer than ``limit``."""

    async def release(self, name: str, key: str) -> None:
        """One fewer of ``name`` held by ``key`` here."""


class KeyedBuckets:
    """A token bucket per key (an address, a player, a seat), made on first use.  At most ``keys`` are
    remembered: the least recently used goes first (it would have refilled by then, unless the server is
    under a flood of more keys than that, when forgetting one is the lesser harm).  Once :meth:`share`-d,
    :meth:`spend` and :meth:`waiting` count in the database, for every server process together."""

    def __init__(self, rate: float, burst: float, keys: int = 100_000) -> None:
        self.rate, self.burst, self.keys = rate, burst, keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._shared: Shared | None = None
        self._name = ""

    def share(self, shared: Shared, name: str) -> None:
        """Count this budget in ``shared`` under ``name`` from now on."""
        self._shared, self._name = shared, name

    async def spend(self, key: str, cost: float = 1.0) -> float:
        """Take ``cost`` from ``key``'s budget if it holds that much: 0; else the seconds to wait."""
        if self._shared is not None:
            return await self._shared.spend(self._name, key, self.rate, self.burst, cost, True)
        return 0.0 if self.allow(key, cost) else self.wait(key, cost)

    async def waiting(self, key: str, cost: float = 1.0) -> float:
        """Seconds until ``key`` may spend ``cost`` (0: now), spending nothing."""
        if self._shared is not None:
            return await self._shared.spend(self._name, key, self.rate, self.burst, cost, False)
        return self.wait(key, cost)

    @classmethod
    def per_hour(cls, count: int, burst_share: float = 0.2) -> KeyedBuckets:
        return cls(count / 3600, max(1.0, math.ceil(count * burst_share)))

    @classmethod
    def per_minute(cls, count: int, burst_share: float = 0.5) -> KeyedBuckets:
        return cls(count / 60, max(1.0, math.ceil(count * burst_share)))

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            while len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def allow(self, key: str, cost: float = 1.0) -> bool:
        return self._bucket(key).allow(cost)

    def wait(self, key: str, cost: float = 1.0) -> float:
        """Seconds until ``key`` may spend ``cost`` (0: now)."""
        return self._bucket(key).wait(cost)


class Gauge:
    """How many of something each key holds at once (open sockets of an address).  Once :meth:`share`-d,
    :meth:`hold` and :meth:`release` also count in the database, for every server process together."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        self._shared: Shared | None = None
        self._name = ""

    def share(self, shared: Shared, name: str) -> None:
        """Count these holdings in ``shared`` under ``name`` too, from now on."""
        self._shared, self._name = shared, name

    async def hold(self, key: str, limit: int) -> bool:
        """One more for ``key`` if it holds fewer than ``limit`` (at every server process together)."""
        if self._shared is None:
            return self.take(key, limit)
        if not await self._shared.hold(self._name, key, limit):
            return False
        self._count(key)  # the database said yes: here it is only counted
        return True

    async def release(self, key: str) -> None:
        """One fewer for ``key``."""
        self.give_back(key)
        if self._shared is not None:
            await self._shared.release(self._name, key)

    def __getitem__(self, key: str) -> int:
        return self._held.get(key, 0)

    def take(self, key: str, limit: int) -> bool:
        """One more for ``key`` if it holds fewer than ``limit``."""
        if self._held.get(key, 0) >= limit:
            return False
        self._count(key)
        return True

    def _count(self, key: str) -> None:
        self._held[key] = self._held.get(key, 0) + 1

    def total(self) -> int:
        """Everything taken, over every key."""
        return sum(self._held.values())

    def give_back(self, key: str) -> None:
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)


class Strikes:
    """Refusals counted with exponential decay: the weight of each halves every
    ``seconds * ln 2``, so a steady ``r`` refusals a second settles at ``r * seconds``.  A paced flood
    adds up however it interleaves refused and accepted messages."""

    def __init__(self, seconds: float = STRIKE_SECONDS) -> None:
        self.seconds = seconds
        self.count, self.stamp = 0.0, time.monotonic()

    def add(self, weight: float = 1.0) -> float:
        """Count one refusal (of ``weight``); the decayed total."""
        clock = time.monotonic()
        self.count = self.count * math.exp(-(clock - self.stamp) / self.seconds) + weight
        self.stamp = clock
        return self.count


def retry_text(seconds: float) -> str:
    """"in N seconds" / "in N minutes", for a refusal's message."""
    if seconds < 90:
        return f"in {max(1, math.ceil(seconds))} s"
    return f"in {math.ceil(seconds / 60)} minutes"
