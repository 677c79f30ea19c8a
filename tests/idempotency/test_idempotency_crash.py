"""Crash safety of idempotency keys: a real ``ticketing serve`` killed (SIGKILL) while orders with
keys are in flight, then a retry of every key against a restarted server.

Nothing in the server knows about the test: the kill lands wherever each request happens to be
(before its change, between its change and its answer, or after its commit). Whatever the point,
a retry must replay the first answer or run the request once, and the database must hold exactly
one order per key.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
from httpx import AsyncClient

from db.tables import Order, OutboxEvent
from tests.idempotency.test_idempotency import keyed, order_body
from tests.processes import served
from tests.support import Tenant, create_venue

IN_FLIGHT = 60
ANSWERED_BEFORE_KILL = IN_FLIGHT // 3
RETRY_WITHIN_SECONDS = 30.0


async def _send(http: AsyncClient, body: bytes, headers: dict[str, str]) -> httpx.Response:
    """``POST /orders`` with these bytes: a retry must send the same bytes as the first try."""
    return await http.post(
        "/orders", content=body, headers={**headers, "Content-Type": "application/json"}
    )


async def _retry(http: AsyncClient, body: bytes, headers: dict[str, str]) -> httpx.Response:
    """What a client does: retry with the same key while the first attempt is still running
    (409 ``idempotency-key-in-progress`` with ``Retry-After``), bounded."""
    deadline = asyncio.get_running_loop().time() + RETRY_WITHIN_SECONDS
    while True:
        response = await _send(http, body, headers)
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
    bodies = {key: json.dumps(order_body(venue, buyer=key, tickets=5)).encode() for key in keys}
    before_kill: dict[str, httpx.Response] = {}

    async with served() as server, httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        attempts = {
            key: asyncio.create_task(_send(http, bodies[key], keyed(tenant.headers, key)))
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


async def test_an_answer_lost_on_the_way_is_replayed(client: AsyncClient, tenant: Tenant) -> None:
    """The order is placed, but the client never reads the answer (it timed out, the network
    dropped it) and closes the connection: the retry gets the same order back, not a second."""
    venue = await create_venue(client, tenant)
    key = f"lost-{uuid.uuid4().hex[:8]}"
    body = json.dumps(order_body(venue, buyer=key)).encode()

    async def placed() -> list[dict[str, Any]]:
        return await Order.select(Order.id).where(
            Order.organization_id == tenant.org_id, Order.buyer_name == key
        )

    async with served() as server:
        host, port = server.url.removeprefix("http://").split(":")
        _, writer = await asyncio.open_connection(host, int(port))
        head = (
            f"POST /orders HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {tenant.key}\r\nIdempotency-Key: {key}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        await writer.drain()
        deadline = asyncio.get_running_loop().time() + RETRY_WITHIN_SECONDS
        while not await placed():  # committed: its answer is on its way, never to be read
            assert asyncio.get_running_loop().time() < deadline, "the order was never placed"
            await asyncio.sleep(0.05)
        writer.close()
        await writer.wait_closed()
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            retried = await _retry(http, body, keyed(tenant.headers, key))
    assert retried.status_code == 201, retried.text
    assert retried.headers["idempotent-replayed"] == "true"
    assert [str(row["id"]) for row in await placed()] == [retried.json()["id"]]
