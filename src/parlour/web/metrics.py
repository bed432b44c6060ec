"""What a server process tells Prometheus (``GET /metrics``, through prometheus-client): its tables,
connections, moves, how long a move takes, the bots' queue, and what the limits refuse.

Each process has its own figures (with several processes, Prometheus scrapes each of them: the
process's id is in ``parlour_process_info``).  ``/metrics`` answers only addresses in ``allowed``
(loopback by default, ``--metrics-from``): behind a reverse proxy the client's own address is the
one checked, so the public never reads them through the proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, Info, generate_latest

LOOPBACK = ("127.0.0.0/8", "::1/128")
"""Who may read ``/metrics`` unless told otherwise."""
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds, from a move's message read to its state sent to the table's connections."""

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """One server process's figures, in a registry of its own (an app made twice in one process, as the
    tests do, does not count twice)."""

    def __init__(self, allowed: Sequence[str] = LOOPBACK) -> None:
        self.allowed = [ipaddress.ip_network(network, strict=False) for network in allowed]
        self.registry = CollectorRegistry()
        r = self.registry
        self.info = Info("parlour_process", "This server process", registry=r)
        self.tables_held = Gauge("parlour_tables_held", "Tables in this process's memory", registry=r)
        self.tables_owned = Gauge("parlour_tables_owned",
                                  "Live tables whose bots and timers this process runs (its leases)", registry=r)
        self.connections = Gauge("parlour_connections", "Open WebSocket connections", registry=r)
        self.bot_queue = Gauge("parlour_bot_queue", "Bot moves, hints and review steps waiting for a worker",
                               registry=r)
        self.moves = Counter("parlour_moves", "Changes made at tables (moves, next rounds, undos) by this process",
                             ["by"], registry=r)
        self.move_seconds = Histogram("parlour_move_seconds",
                                      "A person's move, from its message read to its state sent", registry=r,
                                      buckets=MOVE_BUCKETS)
        self.refused = Counter("parlour_limit_refusals", "Requests and messages refused by a limit", ["limit"],
                               registry=r)
        self.conflicts = Counter("parlour_move_conflicts",
                                 "Moves refused because another process moved the table on first", registry=r)
        self.followed = Counter("parlour_moves_followed",
                                "Moves made at another process and taken here: as the notification told them "
                                "(how=told) or read from the database (how=read)", ["how"], registry=r)

    def watch(self, node: str, processes: str, tables: Callable[[], tuple[int, int]],
              connections: Callable[[], int], queued: Callable[[], int]) -> None:
        """Read the gauges from the running server when scraped."""
        self.info.info({"node": node, "processes": processes})
        self.tables_held.set_function(lambda: tables()[0])
        self.tables_owned.set_function(lambda: tables()[1])
        self.connections.set_function(connections)
        self.bot_queue.set_function(queued)

    def allows(self, address: str) -> bool:
        """Whether a client at ``address`` may read the figures."""
        try:
            where = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(where in network for network in self.allowed)

    def text(self) -> bytes:
        """The figures in Prometheus's text format."""
        found: Any = generate_latest(self.registry)
        return bytes(found)
