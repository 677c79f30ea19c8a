"""Webhook delivery end to end through the in-process runner (the demo's mode, no Redis), with a
real HTTP receiver on 127.0.0.1 and signatures checked by the stock Standard Webhooks verifier."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from httpx import AsyncClient
from standardwebhooks.webhooks import Webhook as StockVerifier

from app.services.outbox import record_events
from app.services.webhook_delivery import (
    attempt_delivery,
    delivery_client,
    relay_outbox,
)
from app.settings import Settings, get_settings
from db.tables import OutboxEvent, WebhookDelivery
from db.transactions import transaction
from tests.statements import count_statements
from tests.support import Tenant, create_venue, ok, place_order
from tests.webhooks.support import (
    ALL_KINDS,
    Receiver,
    emit,
    payload_of,
    relay_refs,
    settled_log,
    subscribe,
    verified,
)
from workers.in_process import run_in_process


@pytest.fixture
async def runner(database: None) -> AsyncIterator[None]:
    """The in-process delivery loop, as ``ticketing serve`` runs it without Redis."""
    stop = asyncio.Event()
    task = asyncio.create_task(run_in_process(get_settings(), stop))
    yield
    stop.set()
    await asyncio.wait_for(task, 15)


async def test_every_event_kind_arrives_signed_and_verifies_with_a_stock_library(
    client: AsyncClient, tenant: Tenant, runner: None
) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, tenant, receiver.url)
        venue = await create_venue(client, tenant)
        order = await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]],
            confirm=True,
        )  # fmt: skip
        await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers)
        scanned_id = await emit(
            tenant,
            "ticket.scanned",
            order_id=order["id"],
            event_id=venue.event["id"],
        )
        received = await receiver.wait_for(4)

    payloads = [verified(r, hook["secret"]) for r in received]
    by_kind = {p["event_type"]: p for p in payloads}
    assert sorted(by_kind) == sorted(ALL_KINDS)
    confirmed = by_kind["order.confirmed"]
    assert confirmed["data"] == {"order_id": order["id"], "event_id": venue.event["id"]}
    assert set(confirmed) == {"id", "event_type", "timestamp", "data"}
    assert confirmed["timestamp"].endswith("Z")
    assert by_kind["ticket.cancelled"]["data"]["order_id"] == order["id"]
    assert by_kind["ticket.scanned"]["id"] == str(scanned_id)
    for request, payload in zip(received, payloads, strict=True):
        assert request.headers["webhook-id"] == payload["id"]
        assert request.headers["content-type"] == "application/json"
    with pytest.raises(Exception, match="signature"):
        StockVerifier("whsec_" + "A" * 44).verify(received[0].body, received[0].headers)

    log = await settled_log(client, tenant, hook["id"], count=4)
    assert {d["status"] for d in log} == {"delivered"}
    assert all(d["attempts"] == 1 and d["last_status_code"] == 200 for d in log)
    assert all(d["attempt_log"][0]["status_code"] == 200 for d in log)


async def test_subscriptions_receive_only_their_event_types(
    client: AsyncClient, tenant: Tenant, runner: None
) -> None:
    async with Receiver() as created_only, Receiver() as confirmed_only:
        created_hook = await subscribe(client, tenant, created_only.url, ["order.created"])
        confirmed_hook = await subscribe(client, tenant, confirmed_only.url, ["order.confirmed"])
        venue = await create_venue(client, tenant)
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]],
            confirm=True,
        )  # fmt: skip
        created_log = await settled_log(client, tenant, created_hook["id"])
        confirmed_log = await settled_log(client, tenant, confirmed_hook["id"])
    assert [d["event_type"] for d in created_log] == ["order.created"]
    assert [d["event_type"] for d in confirmed_log] == ["order.confirmed"]
    assert [verified(r, created_hook["secret"])["event_type"] for r in created_only.requests] == [
        "order.created"
    ]
    assert [
        verified(r, confirmed_hook["secret"])["event_type"] for r in confirmed_only.requests
    ] == ["order.confirmed"]


async def test_server_errors_are_retried_with_the_same_webhook_id(
    client: AsyncClient, tenant: Tenant, runner: None
) -> None:
    async with Receiver(statuses=[500, 503]) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.confirmed"])
        event_id = await emit(tenant, "order.confirmed")
        received = await receiver.wait_for(3)
        [delivery] = await settled_log(client, tenant, hook["id"])
    assert {r.headers["webhook-id"] for r in received} == {str(event_id)}
    assert all(verified(r, hook["secret"])["id"] == str(event_id) for r in received)
    assert delivery["status"] == "delivered"
    assert delivery["attempts"] == 3
    assert [a["status_code"] for a in delivery["attempt_log"]] == [500, 503, 200]
    assert [a["attempt"] for a in delivery["attempt_log"]] == [1, 2, 3]
    assert delivery["delivered_at"] is not None and delivery["next_attempt_at"] is None


@pytest.mark.parametrize(
    ("statuses", "status", "codes"),
    [
        ([429], "delivered", [429, 200]),
        ([400], "failed", [400]),
        ([302], "failed", [302]),
    ],
)
async def test_outcome_of_each_kind_of_answer(
    client: AsyncClient,
    tenant: Tenant,
    runner: None,
    statuses: list[int],
    status: str,
    codes: list[int],
) -> None:
    async with Receiver(statuses=list(statuses)) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [delivery] = await settled_log(client, tenant, hook["id"])
    assert delivery["status"] == status
    assert [a["status_code"] for a in delivery["attempt_log"]] == codes
    assert len(receiver.requests) == len(codes)


async def test_gone_disables_the_subscription(
    client: AsyncClient, tenant: Tenant, runner: None
) -> None:
    async with Receiver(statuses=[410]) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [delivery] = await settled_log(client, tenant, hook["id"])
        assert delivery["status"] == "failed"
        assert "410" in delivery["last_error"]
        current = ok(await client.get(f"/webhooks/{hook['id']}", headers=tenant.headers))
        assert current["active"] is False
        await emit(tenant, "order.created")
        while await relay_outbox():
            pass
        log = ok(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=tenant.headers))
    assert log["pagination"]["total"] == 1
    assert len(receiver.requests) == 1


async def test_retries_stop_after_the_last_attempt_and_the_delivery_shows_exhausted(
    client: AsyncClient, tenant: Tenant
) -> None:
    settings = replace(get_settings(), webhook_max_attempts=2, webhook_retry_base_seconds=0)
    stop = asyncio.Event()
    task = asyncio.create_task(run_in_process(settings, stop))
    try:
        async with Receiver(otherwise=500) as receiver:
            hook = await subscribe(client, tenant, receiver.url, ["order.created"])
            await emit(tenant, "order.created")
            [delivery] = await settled_log(client, tenant, hook["id"])
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)
    assert delivery["status"] == "exhausted"
    assert [a["status_code"] for a in delivery["attempt_log"]] == [500, 500]
    assert delivery["last_error"] == "HTTP 500"
    assert len(receiver.requests) == 2


async def test_a_target_that_turns_private_is_blocked_at_delivery(
    client: AsyncClient, tenant: Tenant
) -> None:
    """DNS rebinding: the URL passed at creation, now it resolves to a private address."""
    strict: Settings = replace(get_settings(), allow_private_webhooks=False)
    async with Receiver() as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [ref] = await relay_refs(tenant)
        async with delivery_client(strict) as http:
            result = await attempt_delivery(ref, client=http, settings=strict)
    assert receiver.requests == []
    assert result.outcome == "retry"
    log = ok(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=tenant.headers))
    [attempt] = log["data"][0]["attempt_log"]
    assert attempt["status_code"] is None
    host = urlsplit(hook["url"]).hostname
    assert attempt["error"] == f"blocked, nothing sent: {host} is not publicly reachable"
    ok(await client.delete(f"/webhooks/{hook['id']}", headers=tenant.headers))


async def test_deleting_a_subscription_drops_its_pending_deliveries(
    client: AsyncClient, tenant: Tenant
) -> None:
    settings = get_settings()
    async with Receiver(otherwise=500) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        await emit(tenant, "order.created")
        [ref] = await relay_refs(tenant)
        async with delivery_client(settings) as http:
            first = await attempt_delivery(ref, client=http, settings=settings)
            assert first.outcome == "retry"
            ok(await client.delete(f"/webhooks/{hook['id']}", headers=tenant.headers))
            await WebhookDelivery.update({WebhookDelivery.attempts: 1}).where(
                WebhookDelivery.webhook_id == uuid.UUID(hook["id"])
            )
            later = await attempt_delivery(ref, client=http, settings=settings)
    assert later.outcome == "skipped"
    assert len(receiver.requests) == 1
    assert (
        await WebhookDelivery.count().where(WebhookDelivery.organization_id == tenant.org_id) == 0
    )


async def test_ten_thousand_events_are_recorded_in_one_call(tenant: Tenant) -> None:
    """More events than one statement can carry (PostgreSQL's 32,767 parameters, 5 an event):
    all recorded, in the order given, as one unit."""
    events = [payload_of("order.confirmed") for _ in range(10_000)]
    async with transaction():
        ids = await record_events(tenant.org_id, events)
    assert len(set(ids)) == len(events)
    rows = await OutboxEvent.select(OutboxEvent.id, OutboxEvent.payload).where(
        OutboxEvent.organization_id == tenant.org_id
    )
    orders = {row["id"]: json.loads(row["payload"])["order_id"] for row in rows}
    assert [orders[event_id] for event_id in ids] == [str(event.order_id) for event in events]

    with pytest.raises(ValueError, match="boom"):
        async with transaction():
            await record_events(tenant.org_id, events)
            raise ValueError("boom")
    assert await OutboxEvent.count().where(OutboxEvent.organization_id == tenant.org_id) == 10_000
    await OutboxEvent.delete().where(OutboxEvent.organization_id == tenant.org_id)


async def test_concurrent_relays_never_take_the_same_event(
    client: AsyncClient, tenant: Tenant
) -> None:
    await subscribe(client, tenant, "http://127.0.0.1:9/hook", ["order.created"])
    events = {await emit(tenant, "order.created") for _ in range(12)}

    async def relay_all() -> int:
        relayed = 0
        while count := await relay_outbox(batch_size=2):
            relayed += count
        return relayed

    taken = await asyncio.gather(*(relay_all() for _ in range(3)))
    assert sum(1 for count in taken if count) >= 2, "the relays did not run side by side"
    delivered = await WebhookDelivery.select(WebhookDelivery.event_id).where(
        WebhookDelivery.organization_id == tenant.org_id
    )
    assert sorted(row["event_id"] for row in delivered) == sorted(events)


async def test_delivery_log_costs_the_same_statements_for_any_page_size(
    client: AsyncClient, tenant: Tenant
) -> None:
    hook = await subscribe(client, tenant, "http://127.0.0.1:9/hook", ["order.created"])
    url = f"/webhooks/{hook['id']}/deliveries"

    async def statements() -> int:
        with count_statements() as counter:
            ok(await client.get(url, headers=tenant.headers))
        return counter.count

    await emit(tenant, "order.created")
    await relay_refs(tenant)
    one = await statements()
    for _ in range(5):
        await emit(tenant, "order.created")
    await relay_refs(tenant)
    assert await statements() == one
