"""Metrics in Prometheus' text format, through ``prometheus_client`` (the library Litestar's own
Prometheus plugin uses; its middleware is not used here because it labels by raw path unless
told otherwise, and builds a ``Request`` for every request).

Each app has a registry of its own: two apps in one process (the tests) count apart. Each
server process counts for itself; a scrape reads the process that answers it (docs/operations.md).
Gauges that are states rather than events (the connection pool, live streams) are read when
scraped, so they cost nothing between scrapes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from service.ports.metrics import CommandOutcome, DeliveryOutcome

# Request latency buckets, in seconds: a command takes a few milliseconds; a live stream
# holds its request open for as long as it is watched.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)

# What psycopg_pool's get_stats() reports that is a state, and how it is exposed.
POOL_GAUGES = {
    "pool_size": "Connections the pool holds, busy or idle",
    "pool_available": "Idle connections in the pool",
    "pool_max": "The most connections the pool may hold",
    "requests_waiting": "Requests waiting for a connection",
}


class PrometheusMetrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self._requests = Counter(
            "gin_http_requests", "HTTP requests answered", ["method", "route", "status"], registry=r
        )
        self._latency = Histogram(
            "gin_http_request_duration_seconds",
            "Time from a request's arrival to its answer's end",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self._problems = Counter(
            "gin_problems", "problem+json answers, by kind", ["type", "status"], registry=r
        )
        self._commands = Counter(
            "gin_commands", "Commands handled, by type and outcome", ["type", "outcome"], registry=r
        )
        self._appends = Counter("gin_appends", "Appends committed to the event store", registry=r)
        self._appended_events = Counter("gin_appended_events", "Events appended", registry=r)
        self._conflicts = Counter(
            "gin_append_conflicts", "Appends refused: the stream had moved on", registry=r
        )
        self._deliveries = Counter(
            "gin_webhook_deliveries",
            "Webhook delivery attempts, by outcome",
            ["outcome"],
            registry=r,
        )
        # Made ahead so a family is exposed, at zero, before its first event.
        for outcome in ("delivered", "refused", "unreachable"):
            self._deliveries.labels(outcome)
        # Children by label values: labels() takes a lock and builds a key on every call.
        self._request_children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}
        self._command_children: dict[tuple[str, str], Counter] = {}
        self._pool_stats: Callable[[], Mapping[str, int]] = dict
        self._waiting: Callable[[], int] = int
        r.register(_StateCollector(self))

    def command(self, command_type: str, outcome: CommandOutcome) -> None:
        child = self._command_children.get((command_type, outcome))
        if child is None:
            child = self._commands.labels(command_type, outcome)
            self._command_children[command_type, outcome] = child
        child.inc()

    def appended(self, events: int) -> None:
        self._appends.inc()
        self._appended_events.inc(events)

    def append_conflict(self) -> None:
        self._conflicts.inc()

    def webhook_delivery(self, outcome: DeliveryOutcome) -> None:
        self._deliveries.labels(outcome).inc()

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        children = self._request_children.get((method, route, status))
        if children is None:
            children = (
                self._requests.labels(method, route, str(status)),
                self._latency.labels(method, route),
            )
            self._request_children[method, route, status] = children
        children[0].inc()
        children[1].observe(seconds)

    def problem(self, kind: str, status: int) -> None:
        self._problems.labels(kind, str(status)).inc()

    def watch(self, *, pool: Callable[[], Mapping[str, int]], waiting: Callable[[], int]) -> None:
        """Read the connection pool's state from ``pool`` (psycopg_pool's ``get_stats``) and
        how many live readers wait for new events from ``waiting``, at each scrape."""
        self._pool_stats, self._waiting = pool, waiting

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _StateCollector(Collector):
    def __init__(self, metrics: PrometheusMetrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        stats = self._metrics._pool_stats()
        for key, documentation in POOL_GAUGES.items():
            yield GaugeMetricFamily(f"gin_db_{key}", documentation, value=stats.get(key, 0))
        yield GaugeMetricFamily(
            "gin_stream_subscribers",
            "Live readers (event streams, the bot runner) waiting for new events",
            value=self._metrics._waiting(),
        )
