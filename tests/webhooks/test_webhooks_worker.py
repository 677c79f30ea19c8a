"""The real arq worker (``ticketing worker`` as a subprocess) against real Redis: delivery,
idempotent relaying, a Redis outage and a worker killed in the middle of a delivery."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import pytest
from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from httpx import AsyncClient

from app.services.outbox import record_event
from app.services.webhook_delivery import DeliveryRef, dispatch_due, relay_outbox
from app.settings import get_settings
from db.tables import WebhookDelivery
from db.transactions import transaction
from tests.harness import REDIS_URL
from tests.processes import RedisServer, worker
from tests.support import Tenant, create_venue, ok, place_order
from tests.webhooks.support import (
    Operations,
    Receiver,
    emit,
    payload_of,
    relay_refs,
    settled_log,
    subscribe,
    verified,
)
from workers.arq_worker import MAX_ATTEMPTS, PER_SUBSCRIPTION
from workers.jobs import enqueue_deliveries


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

    handed: list[DeliveryRef] = []

    async def schedule(refs: Sequence[DeliveryRef]) -> None:
        handed.extend(refs)
        await enqueue_deliveries(pool, refs, settings)

    try:
        hook = await subscribe(client, tenant, "http://127.0.0.1:9/hook", ["order.created"])
        event_id = await emit(tenant, "order.created")
        ref = DeliveryRef(event_id, uuid.UUID(hook["id"]))
        while await relay_outbox():
            pass
        while await dispatch_due(schedule):  # the database is shared: others' may be due too
            pass
        assert ref in handed
        handed.clear()
        assert await relay_outbox() == 0
        while await dispatch_due(schedule):
            pass
        assert ref not in handed, "a handed-out delivery was handed out again"
        jobs = await pool.queued_jobs(queue_name=settings.queue_name)
        carried = [tuple(pair) for job in jobs for pair in job.args[0]]
        assert carried.count((str(ref.event_id), str(ref.webhook_id))) == 1
        assert (
            await WebhookDelivery.count().where(WebhookDelivery.organization_id == tenant.org_id)
            == 1
        )
    finally:
        queued = [job.decode() for job in await pool.zrange(settings.queue_name, 0, -1)]
        await pool.delete(settings.queue_name, *[f"arq:job:{job}" for job in queued])
        await pool.aclose()


async def jobs_queued(pool: ArqRedis, queue_name: str) -> bool:
    """Whether jobs wait in ``queue_name``. arq's ``queued_jobs`` lists the queue's ids, then
    reads each job, and raises for a job that finished in between: that counts as still queued."""
    try:
        return bool(await pool.queued_jobs(queue_name=queue_name))
    except RuntimeError:
        return True


async def test_pairs_in_several_jobs_are_each_attempted_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The delivery row and its lease are the deduplication, not arq: pairs enqueued in two jobs
    at once (and handed out by the worker's own relay as well) arrive once each, in jobs that
    carry several pairs."""
    settings = get_settings()
    pool: ArqRedis = await create_pool(
        RedisSettings.from_dsn(REDIS_URL), default_queue_name=settings.queue_name
    )
    try:
        async with Receiver() as receiver:
            hook = await subscribe(client, tenant, receiver.url, ["order.created"])
            for _ in range(3):
                await emit(tenant, "order.created")
            refs = await relay_refs(tenant)
            assert len(refs) == 3
            await enqueue_deliveries(pool, refs, settings)
            await enqueue_deliveries(pool, refs, settings)
            async with worker(REDIS_URL):
                log = await settled_log(client, tenant, hook["id"], count=3)
                for _ in range(300):  # until both jobs have run (bounded poll)
                    if not await jobs_queued(pool, settings.queue_name):
                        break
                    await asyncio.sleep(0.1)
                else:
                    raise AssertionError("the jobs did not run within 30 s")
            received = list(receiver.requests)
    finally:
        await pool.aclose()
    assert [d["status"] for d in log] == ["delivered"] * 3
    assert [d["attempts"] for d in log] == [1, 1, 1]
    assert sorted(r.headers["webhook-id"] for r in received) == sorted(
        str(ref.event_id) for ref in refs
    )


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
            event_id = await emit(tenant, "order.created")
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
    cut_short, redelivered = delivery["attempt_log"]
    assert (cut_short["attempt"], cut_short["status_code"]) == (1, None)
    assert cut_short["error"].startswith("cut short")
    assert (redelivered["attempt"], redelivered["status_code"]) == (2, 200)


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["rest", "graphql"])
async def test_every_operation_works_through_the_worker(
    client: AsyncClient, tenant: Tenant, transport: str
) -> None:
    """Create, retry, test, edit, rotate, list and delete, each through ``transport``, delivered
    by a real worker."""
    ops = Operations(client, tenant, transport)
    async with (
        Receiver(statuses=[400]) as first,
        Receiver() as second,
        Receiver() as sentinel,
        worker(REDIS_URL),
    ):
        hook = await ops.create(first.url, ["order.created"])
        order_id = uuid.uuid4()
        created = await emit(tenant, "order.created", order_id=order_id)
        [failed] = await ops.settled(hook["id"])
        assert failed["status"] == "failed"
        assert await ops.retry(hook["id"], failed["id"]) == failed["id"]
        retried = (await first.wait_for(2, within=30))[1]

        test_delivery = await ops.test(hook["id"])
        tested = (await first.wait_for(3, within=30))[2]

        new_url = second.url
        edited = await ops.update(hook["id"], url=new_url, event_types=["order.confirmed"])
        await emit(tenant, "order.created")
        confirmed = await emit(tenant, "order.confirmed")
        moved = (await second.wait_for(1, within=30))[0]

        rotated = await ops.rotate(hook["id"])
        after_rotation = await emit(tenant, "order.confirmed")
        signed_twice = (await second.wait_for(2, within=30))[1]
        log = await ops.settled(hook["id"], count=4)

        assert hook["id"] in await ops.listed()
        await ops.delete(hook["id"])
        await subscribe(client, tenant, sentinel.url, ["order.confirmed"])
        after_deletion = await emit(tenant, "order.confirmed")
        [witness] = await sentinel.wait_for(1, within=30)
        assert hook["id"] not in await ops.listed()
        relayed = await WebhookDelivery.select(WebhookDelivery.webhook_id).where(
            WebhookDelivery.event_id == after_deletion
        )

    assert retried.headers["webhook-id"] == str(created)
    assert verified(retried, hook["secret"])["data"]["order_id"] == str(order_id)
    assert verified(tested, hook["secret"])["data"] == {"webhook_id": hook["id"]}
    assert (edited["url"], edited["event_types"]) == (new_url, ["order.confirmed"])
    assert verified(moved, hook["secret"])["id"] == str(confirmed)
    assert signed_twice.headers["webhook-id"] == str(after_rotation)
    assert len(signed_twice.headers["webhook-signature"].split(" ")) == 2
    assert verified(signed_twice, rotated["secret"]) == verified(signed_twice, hook["secret"])
    assert len(first.requests) == 3 and len(second.requests) == 2, "sent after the deletion"
    assert witness.headers["webhook-id"] == str(after_deletion)
    assert str(hook["id"]) not in {str(row["webhook_id"]) for row in relayed}
    by_id = {d["id"]: d for d in log}
    assert {d["status"] for d in log} == {"delivered"}
    assert [a["status_code"] for a in by_id[failed["id"]]["attempt_log"]] == [400, 200]
    assert by_id[test_delivery]["event_type"] == "webhook.test"


@pytest.mark.slow
async def test_a_redis_outage_during_a_rotation_loses_nothing(
    client: AsyncClient, tenant: Tenant, own_redis: RedisServer
) -> None:
    async with Receiver() as receiver, worker(own_redis.url) as running:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        before = await emit(tenant, "order.created")
        await receiver.wait_for(1, within=30)

        await own_redis.stop()
        rotated = ok(
            await client.post(f"/webhooks/{hook['id']}/rotate-secret", headers=tenant.headers)
        )
        during = [await emit(tenant, "order.created") for n in (2, 3)]
        await running.wait_for_log("Redis is unavailable")
        await own_redis.start()

        received = await receiver.wait_for(3, within=60)
        await settled_log(client, tenant, hook["id"], count=3)
    by_id = {r.headers["webhook-id"]: r for r in received}
    assert set(by_id) == {str(before), *map(str, during)}
    verified(by_id[str(before)], hook["secret"])
    for event_id in during:
        request = by_id[str(event_id)]
        assert verified(request, rotated["secret"]) == verified(request, hook["secret"])


@pytest.mark.slow
async def test_a_worker_killed_during_a_rotation_loses_nothing(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The attempt in flight when the secret changes is cut short by the kill; it goes out again
    signed with both secrets, and so does everything else."""
    async with Receiver(release=asyncio.Event()) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        async with worker(REDIS_URL) as first:
            in_flight = await emit(tenant, "order.created")
            await receiver.wait_for(1, within=30)
            rotated = ok(
                await client.post(f"/webhooks/{hook['id']}/rotate-secret", headers=tenant.headers)
            )
            after = await emit(tenant, "order.created")
            await receiver.wait_for(2, within=30)
            await _recorded(client, tenant, hook["id"], after)
            first.process.kill()
            await first.process.wait()
        assert receiver.release is not None
        receiver.release.set()
        async with worker(REDIS_URL):
            received = await receiver.wait_for(3, within=90)
            log = await settled_log(client, tenant, hook["id"], count=2, within=30)
    first_try, delivered_after, second_try = received
    assert first_try.headers["webhook-id"] == second_try.headers["webhook-id"] == str(in_flight)
    assert delivered_after.headers["webhook-id"] == str(after)
    verified(first_try, hook["secret"])
    for request in (delivered_after, second_try):
        assert verified(request, rotated["secret"]) == verified(request, hook["secret"])
    assert {d["status"] for d in log} == {"delivered"}
    cut = next(d for d in log if d["event_id"] == str(in_flight))
    assert [a["status_code"] for a in cut["attempt_log"]] == [None, 200]


async def _recorded(client: AsyncClient, tenant: Tenant, hook_id: str, event_id: uuid.UUID) -> None:
    """Bounded poll until the delivery of ``event_id`` is logged as delivered."""
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        log = await client.get(f"/webhooks/{hook_id}/deliveries", headers=tenant.headers)
        if any(
            d["event_id"] == str(event_id) and d["status"] == "delivered" for d in ok(log)["data"]
        ):
            return
        assert asyncio.get_running_loop().time() < deadline, log.text
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_dead_subscriber_does_not_delay_the_others(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A subscriber that never answers has a backlog larger than all of the worker's slots
    (written first, so that it is the most overdue); it gets only its share of them, and every
    delivery to a healthy subscriber arrives while the dead one's first attempts are still
    waiting (they give up after 10 s). The rest of its backlog waits in the database: never
    attempted, never handed to arq."""
    dead_events, healthy_events = MAX_ATTEMPTS + 100, 50
    async with (
        Receiver(release=asyncio.Event(), hold_all=True) as dead,
        Receiver() as healthy,
        worker(REDIS_URL),
    ):
        dead_hook = await subscribe(client, tenant, dead.url, ["order.created"])
        await subscribe(client, tenant, healthy.url, ["order.confirmed"])
        async with transaction():
            for _ in range(dead_events):
                await record_event(tenant.org_id, payload_of("order.created"))
            for _ in range(healthy_events):
                await record_event(tenant.org_id, payload_of("order.confirmed"))
        await healthy.wait_for_events(healthy_events, within=60)
        dead_deliveries = await WebhookDelivery.select(
            WebhookDelivery.attempts, WebhookDelivery.dispatched_at
        ).where(WebhookDelivery.webhook_id == uuid.UUID(dead_hook["id"]))
        dead_log = await ok_log(client, tenant, dead_hook["id"])
        most_open = dead.most_open
        assert dead.release is not None
        dead.release.set()
    assert len(dead_deliveries) == dead_events
    handed_out = [d for d in dead_deliveries if d["dispatched_at"] is not None]
    assert 0 < len(handed_out) <= PER_SUBSCRIPTION
    assert sum(d["attempts"] for d in dead_deliveries) <= PER_SUBSCRIPTION
    assert 0 < most_open <= PER_SUBSCRIPTION
    assert all(d["attempt_log"] == [] for d in dead_log), "a dead attempt ended first"


async def ok_log(client: AsyncClient, tenant: Tenant, hook_id: str) -> list[dict[str, object]]:
    """The first page (100) of a subscription's delivery log."""
    path = f"/webhooks/{hook_id}/deliveries"
    return ok(await client.get(path, params={"limit": 100}, headers=tenant.headers))["data"]
