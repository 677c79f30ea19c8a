"""Every Prometheus metric of the service, and the functions that count them (CONTRACT.md 13).

Services count what only they know by calling the functions here (a scan's status and reason, a
delivery attempt's outcome); the HTTP layer counts requests; ``/metrics`` and the worker's metrics
port render :func:`exposition`. docs/operations.md explains each metric.

With ``ticketing serve --workers N`` every process writes its figures into one directory of that
run (prometheus-client's multiprocess mode, chosen by ``PROMETHEUS_MULTIPROC_DIR``, which ``serve``
sets before it starts the processes), and a scrape answered by any of them adds up all of them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from uuid import UUID

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROCESS_DIRECTORY_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
UNMATCHED_ROUTE = "unmatched"
"""The route label of a request that matched no route (a 404 for an unknown path)."""

REQUESTS = Counter(
    "ticketing_http_requests",
    "HTTP requests answered, by route template, method and status",
    ["route", "method", "status"],
)
REQUEST_DURATION = Histogram(
    "ticketing_http_request_duration_seconds",
    "Time from the request's arrival to the end of its response, by route template and method",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
SCANS = Counter(
    "ticketing_scans",
    "Ticket scans by outcome status and reason (reason none for valid scans)",
    ["status", "reason"],
)
DELIVERY_ATTEMPTS = Counter(
    "ticketing_webhook_delivery_attempts",
    "Webhook delivery attempts by outcome: delivered, retry (will be tried again), failed, gone",
    ["outcome"],
)
POOL_IN_USE = Gauge(
    "ticketing_db_pool_connections_in_use",
    "Database connections checked out of the pool (summed over the live processes)",
    multiprocess_mode="livesum",
)
POOL_OPEN = Gauge(
    "ticketing_db_pool_connections_open",
    "Database connections the pool holds open (summed over the live processes)",
    multiprocess_mode="livesum",
)

LIVE_SUBSCRIBERS = Gauge(
    "ticketing_live_subscribers",
    "GraphQL subscriptions being served, by topic (summed over the live processes)",
    ["topic"],
    multiprocess_mode="livesum",
)
DROPPED_SUBSCRIBERS = Counter(
    "ticketing_live_dropped_subscribers",
    "Subscribers disconnected because they could not keep up with their notifications, by topic",
    ["topic"],
)

webhook_logger = logging.getLogger("ticketing.webhooks")


@dataclass(frozen=True, slots=True)
class OutboxBacklog:
    """Outbox rows not yet relayed into deliveries, and the age of the oldest one."""

    rows: int
    oldest_age_seconds: float


def count_request(route: str, method: str, status: int, seconds: float) -> None:
    _request_counter(route, method, status).inc()
    _request_timer(route, method).observe(seconds)


@functools.cache
def _request_counter(route: str, method: str, status: int) -> Counter:
    """The child of :data:`REQUESTS` of one route (its template), method and status, as
    :func:`_scan_counter` (the labels' values are few: half of ``count_request``'s CPU)."""
    return REQUESTS.labels(route, method, str(status))


@functools.cache
def _request_timer(route: str, method: str) -> Histogram:
    return REQUEST_DURATION.labels(route, method)


def count_scan(status: str, reason: str | None) -> None:
    _scan_counter(status, reason or "none").inc()


@functools.cache
def _scan_counter(status: str, reason: str) -> Counter:
    """The child of :data:`SCANS` of one outcome: ``labels`` checks and locks on every call
    (the outcomes are a few fixed pairs, so the cache stays small)."""
    return SCANS.labels(status, reason)


def track_live_subscribers(topic: str, change: int) -> None:
    LIVE_SUBSCRIBERS.labels(topic).inc(change)


def count_dropped_subscriber(topic: str) -> None:
    DROPPED_SUBSCRIBERS.labels(topic).inc()


def count_delivery_attempt(
    event_id: UUID,
    subscription_id: UUID,
    attempt: int,
    outcome: str,
    status_code: int | None,
    duration_ms: int,
) -> None:
    """Count one attempt and log it (never the URL: subscribers put tokens in query strings)."""
    DELIVERY_ATTEMPTS.labels(outcome).inc()
    webhook_logger.info(
        "webhook delivery attempt %s: %s %d ms",
        attempt,
        outcome,
        duration_ms,
        extra={
            "job": "deliver",
            "event_id": str(event_id),
            "subscription": str(subscription_id),
            "attempt": attempt,
            "outcome": outcome,
            "status_code": status_code,
            "duration_ms": duration_ms,
        },
    )


async def sample_pool_usage(read: Callable[[], tuple[int, int] | None], every: float) -> None:
    """Keep this process's pool gauges current: ``read`` gives (open, in use) connections."""
    while True:
        usage = read()
        if usage is not None:
            POOL_OPEN.set(usage[0])
            POOL_IN_USE.set(usage[1])
        await asyncio.sleep(every)


class _Families:
    """A collector of figures computed for one scrape."""

    def __init__(self, families: Sequence[Metric]) -> None:
        self._families = families

    def collect(self) -> Iterable[Metric]:
        return self._families


def _outbox_families(backlog: OutboxBacklog | None) -> list[Metric]:
    if backlog is None:
        return []
    rows = GaugeMetricFamily(
        "ticketing_outbox_backlog", "Outbox events not yet relayed to webhook deliveries"
    )
    rows.add_metric([], backlog.rows)
    age = GaugeMetricFamily(
        "ticketing_outbox_oldest_age_seconds",
        "Age of the oldest outbox event not yet relayed (0 when there is none)",
    )
    age.add_metric([], backlog.oldest_age_seconds)
    return [rows, age]


def exposition(backlog: OutboxBacklog | None) -> bytes:
    """The Prometheus text of every metric: this process's (or, in multiprocess mode, those of all
    the processes of the run), plus the outbox figures read for this scrape."""
    directory = os.environ.get(MULTIPROCESS_DIRECTORY_VARIABLE)
    if directory:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=directory)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    scrape = CollectorRegistry()
    scrape.register(_Families(_outbox_families(backlog)))
    return text + generate_latest(scrape)
