"""Clients of the drills: they place orders and read through the load balancer as an integration
would, retrying what the API says may be retried (a 502, 503 or 504, a connection that failed, or
a 409 ``idempotency-key-in-progress`` after its ``Retry-After``) with the same ``Idempotency-Key``,
and count what they saw."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.support import Tenant

RETRYABLE = {502, 503, 504}
IN_PROGRESS = "/problems/idempotency-key-in-progress"
"""A 409 of this type: the key's first attempt still runs, or ran on a node that has just died and
whose database session has not ended yet (CONTRACT.md section 10: send it again after
``Retry-After``)."""
ATTEMPTS = 40
"""Attempts of one request before its client gives up (a failover takes a few seconds)."""
BACKOFF_SECONDS = (0.1, 0.2, 0.4, 0.8, 1.0)


@dataclass
class Figures:
    """What the clients of one drill saw."""

    requests: int = 0
    """Requests the clients wanted answered (each may take several attempts)."""
    attempts: int = 0
    failures: int = 0
    """Requests never answered with success."""
    statuses: Counter[int] = field(default_factory=Counter)
    """Every answer's status, retried ones included."""
    unretryable: list[str] = field(default_factory=list)
    """5xx answers a client could not retry: not 502/503/504, or not a problem document."""
    transport_errors: int = 0
    orders: dict[str, str] = field(default_factory=dict)
    """Idempotency-Key -> the order id every answer for it carried."""
    key_conflicts: list[str] = field(default_factory=list)
    """Keys answered with two different order ids."""

    @property
    def retries(self) -> int:
        return self.attempts - self.requests

    def report(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "attempts": self.attempts,
            "retries": self.retries,
            "failures": self.failures,
            "transport_errors": self.transport_errors,
            "statuses": dict(sorted(self.statuses.items())),
            "unretryable_5xx": len(self.unretryable),
        }


@dataclass
class Shop:
    """An organization's event on the topology, and the keys its clients use."""

    lb_url: str
    keys: list[str]
    event_id: str
    timeslot_id: str
    ticket_type_id: str
    tenant: Tenant

    def order_body(self) -> dict[str, Any]:
        return {
            "event_id": self.event_id,
            "event_timeslot_id": self.timeslot_id,
            "buyer_name": "Drill Buyer",
            "buyer_email": "drill@example.com",
            "channel": "online",
            "payment_method": "card",
            "tickets": [{"ticket_type_id": self.ticket_type_id}],
        }


async def _attempt(
    client: httpx.AsyncClient, figures: Figures, method: str, path: str, **options: Any
) -> httpx.Response | float | None:
    """One attempt: its answer; or the seconds the API asked to wait before the next attempt, or
    None when the next attempt waits the next step of ``BACKOFF_SECONDS``."""
    figures.attempts += 1
    try:
        response = await client.request(method, path, **options)
    except httpx.TransportError:
        figures.transport_errors += 1
        return None
    figures.statuses[response.status_code] += 1
    problem = response.headers.get("content-type", "").startswith("application/problem+json")
    if response.status_code == 409 and problem and response.json()["type"] == IN_PROGRESS:
        return float(response.headers["retry-after"])
    if response.status_code >= 500:
        if response.status_code not in RETRYABLE or not problem:
            figures.unretryable.append(f"{method} {path}: {response.status_code} {response.text}")
            return response
        return None
    return response


async def call(
    client: httpx.AsyncClient, figures: Figures, method: str, path: str, **options: Any
) -> httpx.Response | None:
    """A request, retried while the answer says it may be; its last answer (None: none came)."""
    figures.requests += 1
    for attempt in range(ATTEMPTS):
        answer = await _attempt(client, figures, method, path, **options)
        if isinstance(answer, httpx.Response):
            if answer.status_code >= 400:
                figures.failures += 1
            return answer
        backoff = BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)]
        await asyncio.sleep(backoff if answer is None else answer)
    figures.failures += 1
    return None


async def place_order(client: httpx.AsyncClient, shop: Shop, figures: Figures, key: str) -> None:
    """``POST /orders`` with ``Idempotency-Key: key``, retried with the same key."""
    headers = {"Idempotency-Key": key}
    response = await call(
        client, figures, "POST", "/orders", json=shop.order_body(), headers=headers
    )
    if response is not None and response.status_code == 201:
        order_id = response.json()["id"]
        if figures.orders.setdefault(key, order_id) != order_id:
            figures.key_conflicts.append(key)


async def shop_and_browse(
    shop: Shop, figures: Figures, *, orders: int, reads: int, stop: asyncio.Event | None = None
) -> None:
    """One client per key: each places ``orders`` orders and makes ``reads`` reads, in turns,
    until done or ``stop`` is set."""

    async def client_loop(key: str) -> None:
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=shop.lb_url, headers=headers, timeout=30) as client:
            for turn in range(max(orders, reads)):
                if stop is not None and stop.is_set():
                    return
                if turn < orders:
                    await place_order(client, shop, figures, f"drill-{uuid.uuid4()}")
                if turn < reads:
                    await call(client, figures, "GET", f"/events/{shop.event_id}")

    await asyncio.gather(*(client_loop(key) for key in shop.keys))
