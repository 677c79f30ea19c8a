"""The real arq worker (``ticketing worker`` as a subprocess) against real Redis: delivery,
idempotent relaying, a Redis outage and a worker killed in the middle of a delivery."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from httpx import AsyncClient

from app.services.webhook_delivery import DeliveryRef
from app.settings import get_settings
from db.tables import WebhookDelivery
from tests.harness import REDIS_URL, free_port
from tests.processes import worker
from tests.support import Tenant, create_venue, ok, place_order
from tests.webhooks_support import Receiver, emit, settled_log, subscribe, verified
from workers.jobs import enqueue_deliveries, relay


class RedisServer:
    """A redis-server of the test's own on a free port, to be stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.process = await asyncio.create_subprocess_exec(
            binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(100):
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            await asyncio.sleep(0.05)
        raise AssertionError("redis-server did not start")

    async def stop(self) -> None:
        if self.process and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 10)


@pytest.fixture
async def own_redis() -> AsyncIterator[RedisServer]:
    server = RedisServer()
    await server.start()
    yield server
    await server.stop()


@pytest.mark.slow
async def test_worker_delivers_an_order_confirmation_signed(
    client: AsyncClient, tenant: Tenant
) -> None:
    async with Receiver() as receiver, worker(REDIS_URL):
        hook = await subscribe(client, tenant, receiver.url, ["order.confirmed"])
        venue = await create_venue(client, tenant)
        order = await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]],
            confirm=True,
        )  # fmt: skip
        [received] = await receiver.wait_for(1, within=30)
        [delivery] = await settled_log(client, tenant, hook["id"])
    payload = verified(received, hook["secret"])
    assert payload["event_type"] == "order.confirmed"
    assert payload["data"] == {"order_id": order["id"], "event_id": venue.event["id"]}
    assert delivery["status"] == "delivered"


async def test_relaying_twice_enqueues_nothing_twice(client: AsyncClient, tenant: Tenant) -> None:
    settings = replace(
        get_settings(), queue_name=f"{get_settings().queue_name}:relay-{uuid.uuid4().hex}"
    )
    pool: ArqRedis = await create_pool(
        RedisSettings.from_dsn(REDIS_URL), default_queue_name=settings.queue_name
    )
    ctx: dict[str, Any] = {"redis": pool, "settings": settings}
    try:
        hook = await subscribe(client, tenant, "http://127.0.0.1:9/hook", ["order.created"])
        event_id = await emit(tenant, "order.created", {"order_id": "o", "event_id": "e"})
        ref = DeliveryRef(event_id, uuid.UUID(hook["id"]))
        assert await relay(ctx) >= 1
        assert await relay(ctx) == 0
        await enqueue_deliveries(pool, [ref], settings)
        assert await pool.enqueue_job("deliver", _job_id=ref.job_id(settings.queue_name)) is None
        queued = [job.decode() for job in await pool.zrange(settings.queue_name, 0, -1)]
        assert queued.count(ref.job_id(settings.queue_name)) == 1
        assert (
            await WebhookDelivery.count().where(WebhookDelivery.organization_id == tenant.org_id)
            == 1
        )
    finally:
        queued = [job.decode() for job in await pool.zrange(settings.queue_name, 0, -1)]
        await pool.delete(settings.queue_name, *[f"arq:job:{job}" for job in queued])
        await pool.aclose()


@pytest.mark.slow
async def test_an_order_confirmed_while_redis_is_down_is_delivered_when_it_is_back(
    client: AsyncClient, tenant: Tenant, own_redis: RedisServer
) -> None:
    async with Receiver() as receiver, worker(own_redis.url) as running:
        hook = await subscribe(client, tenant, receiver.url, ["order.created", "order.confirmed"])
        venue = await create_venue(client, tenant)
        order = await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
        )
        await receiver.wait_for(1, within=30)

        await own_redis.stop()
        ok(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers))
        await running.wait_for_log("Redis is unavailable")
        await own_redis.start()

        received = await receiver.wait_for(2, within=60)
    kinds = [verified(r, hook["secret"])["event_type"] for r in received]
    assert kinds == ["order.created", "order.confirmed"]


@pytest.mark.slow
async def test_a_worker_killed_mid_delivery_leads_to_a_redelivery_with_the_same_id(
    client: AsyncClient, tenant: Tenant
) -> None:
    async with Receiver(release=asyncio.Event()) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        async with worker(REDIS_URL) as first:
            event_id = await emit(tenant, "order.created", {"order_id": "o", "event_id": "e"})
            await receiver.wait_for(1, within=30)
            first.process.kill()
            await first.process.wait()
        assert receiver.release is not None
        receiver.release.set()
        async with worker(REDIS_URL):
            received = await receiver.wait_for(2, within=90)
            [delivery] = await settled_log(client, tenant, hook["id"], within=30)
    assert [r.headers["webhook-id"] for r in received] == [str(event_id)] * 2
    assert verified(received[1], hook["secret"])["id"] == str(event_id)
    assert delivery["status"] == "delivered"
    assert delivery["attempts"] == 2
