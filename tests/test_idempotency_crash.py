"""Crash safety of idempotency keys: a real ``ticketing serve`` killed (SIGKILL) while orders with
keys are in flight, then a retry of every key against a restarted server.

Nothing in the server knows about the test: the kill lands wherever each request happens to be
(before its change, between its change and its answer, or after its commit). Whatever the point,
a retry must replay the first answer or run the request once, and the database must hold exactly
one order per key.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
from httpx import AsyncClient

from db.tables import Order, OutboxEvent
from tests.processes import served
from tests.support import Tenant, create_venue
from tests.test_idempotency import keyed, order_body

IN_FLIGHT = 60
ANSWERED_BEFORE_KILL = IN_FLIGHT // 3
RETRY_WITHIN_SECONDS = 30.0


async def _retry(
    http: AsyncClient, body: dict[str, Any], headers: dict[str, str]
) -> httpx.Response:
    """What a client does: retry with the same key while the first attempt is still running
    (409 ``idempotency-key-in-progress`` with ``Retry-After``), bounded."""
    deadline = asyncio.get_running_loop().time() + RETRY_WITHIN_SECONDS
    while True:
        response = await http.post("/orders", json=body, headers=headers)
        if response.status_code != 409:
            return response
        assert response.json()["type"] == "/problems/idempotency-key-in-progress"
        assert asyncio.get_running_loop().time() < deadline, "the key stayed in progress"
        await asyncio.sleep(float(response.headers["retry-after"]) / 10)


async def test_a_killed_server_leaves_every_key_replayed_or_run_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=100_000)
    keys = [f"crash-{index}-{uuid.uuid4().hex[:8]}" for index in range(IN_FLIGHT)]
    bodies = {key: order_body(venue, buyer=key, tickets=5) for key in keys}
    before_kill: dict[str, httpx.Response] = {}

    async with served() as server, httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        attempts = {
            key: asyncio.create_task(
                http.post("/orders", json=bodies[key], headers=keyed(tenant.headers, key))
            )
            for key in keys
        }
        deadline = asyncio.get_running_loop().time() + 60
        while sum(task.done() for task in attempts.values()) < ANSWERED_BEFORE_KILL:
            assert asyncio.get_running_loop().time() < deadline, "no answer before the kill"
            await asyncio.sleep(0.01)
        server.process.kill()
        await server.process.wait()
        await asyncio.gather(*attempts.values(), return_exceptions=True)
        for key, task in attempts.items():
            if task.exception() is None and task.result().status_code == 201:
                before_kill[key] = task.result()
    assert ANSWERED_BEFORE_KILL <= len(before_kill) < IN_FLIGHT

    async with served() as server, httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        retries = {key: await _retry(http, bodies[key], keyed(tenant.headers, key)) for key in keys}

    orders = await Order.select(Order.id, Order.buyer_name).where(
        Order.organization_id == tenant.org_id
    )
    by_key = {key: [row["id"] for row in orders if row["buyer_name"] == key] for key in keys}
    assert all(len(ids) == 1 for ids in by_key.values()), by_key
    replayed = 0
    for key, response in retries.items():
        assert response.status_code == 201, response.text
        assert response.json()["id"] == str(by_key[key][0])
        if response.headers.get("idempotent-replayed") == "true":
            replayed += 1
        if key in before_kill:
            assert response.headers["idempotent-replayed"] == "true"
            assert response.content == before_kill[key].content
    assert replayed >= len(before_kill)
    created = await OutboxEvent.count().where(
        OutboxEvent.organization_id == tenant.org_id, OutboxEvent.event_type == "order.created"
    )
    assert created == IN_FLIGHT
    print(
        f"killed with {IN_FLIGHT - len(before_kill)} of {IN_FLIGHT} requests unanswered; "
        f"retries: {replayed} replayed, {IN_FLIGHT - replayed} ran"
    )
