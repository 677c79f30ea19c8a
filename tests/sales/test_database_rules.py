"""Rules the database keeps by itself, whatever writes to it: a status or kind column holds only
the values the service knows, and a scanner profile's targets are foreign keys."""

from __future__ import annotations

import typing
import uuid
from typing import Any

import asyncpg
import pytest
from httpx import AsyncClient
from piccolo.columns import Column
from piccolo.table import Table

from app.schemas.orders import Channel, OrderStatus, PaymentMethod
from app.schemas.scanning import ScanReason, ScanStatus
from app.schemas.tickets import TicketStatus
from app.schemas.webhook_events import ALL_KINDS
from app.schemas.webhooks import DeliveryStatus
from db.tables import (
    Event,
    Order,
    OutboxEvent,
    Scan,
    ScannerProfileTarget,
    Ticket,
    TicketType,
    Timeslot,
    WebhookDelivery,
)
from tests.support import Tenant, create_profile, create_venue, ok, open_door
from tests.webhooks.support import emit, relay_refs, subscribe

RULES: list[tuple[Column, tuple[str, ...]]] = [
    (Ticket.status, typing.get_args(TicketStatus)),
    (Order.status, typing.get_args(OrderStatus)),
    (Order.channel, typing.get_args(Channel)),
    (Order.payment_method, typing.get_args(PaymentMethod)),
    (Scan.status, typing.get_args(ScanStatus)),
    (Scan.reason, typing.get_args(ScanReason)),
    (WebhookDelivery.status, typing.get_args(DeliveryStatus)),
    (OutboxEvent.event_type, ALL_KINDS),
]


async def _one_row_of_each_table(client: AsyncClient, tenant: Tenant) -> dict[type[Table], Any]:
    """A ticket, its order, a scan of it, an outbox event and a webhook delivery of ``tenant``."""
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    body = {"scannable_code": door.tickets[0]["scannable_code"], "scanner_id": door.scanner["id"]}
    ok(await client.post("/scans", json=body, headers=tenant.headers))
    await subscribe(client, tenant, "http://127.0.0.1:9/hook", ["order.created"])
    event_id = await emit(tenant, "order.created", order_id=door.order["id"])
    await relay_refs(tenant)
    return {
        Ticket: uuid.UUID(ticket_id),
        Order: uuid.UUID(door.order["id"]),
        Scan: (await Scan.select(Scan.id).where(Scan.ticket_id == ticket_id).first())["id"],
        OutboxEvent: event_id,
        WebhookDelivery: (
            await WebhookDelivery.select(WebhookDelivery.id)
            .where(WebhookDelivery.event_id == event_id)
            .first()
        )["id"],
    }


async def test_status_and_kind_columns_hold_only_known_values(
    client: AsyncClient, tenant: Tenant
) -> None:
    rows = await _one_row_of_each_table(client, tenant)
    for column, values in RULES:
        table = column._meta.table
        where = table._meta.primary_key == rows[table]
        original = (await table.select(column).where(where).first())[column._meta.name]
        for value in values:
            await table.update({column: value}).where(where)
        for bad in ("bogus", values[0].upper(), values[0] + " "):
            with pytest.raises(asyncpg.CheckViolationError, match=column._meta.name):
                await table.update({column: bad}).where(where)
        await table.update({column: original}).where(where)


async def test_a_new_row_with_an_unknown_status_is_refused(
    client: AsyncClient, tenant: Tenant
) -> None:
    with pytest.raises(asyncpg.CheckViolationError, match="event_type"):
        await OutboxEvent.insert(
            OutboxEvent(organization_id=tenant.org_id, event_type="order.shipped", payload={})
        )
    door = await open_door(client, tenant)
    row = await Order.select().where(Order.id == door.order["id"]).first()
    with pytest.raises(asyncpg.CheckViolationError, match="channel"):
        await Order.insert(Order(**{**row, "id": uuid.uuid4(), "channel": "fax"}))


async def _profile(client: AsyncClient, tenant: Tenant, profile_id: str) -> dict[str, Any]:
    page = ok(await client.get("/scanner_profiles", headers=tenant.headers))
    [profile] = [p for p in page["data"] if p["id"] == profile_id]
    return profile


async def test_deleting_a_targeted_row_removes_it_from_the_profile(
    client: AsyncClient, tenant: Tenant
) -> None:
    kept, dropped = await create_venue(client, tenant), await create_venue(client, tenant)
    lists = {
        "event_ids": [kept.event["id"], dropped.event["id"]],
        "ticket_type_ids": [kept.ticket_type["id"], dropped.ticket_type["id"]],
        "timeslot_ids": [kept.timeslot["id"], dropped.timeslot["id"]],
    }
    profile = await create_profile(client, tenant, **lists)
    assert {field: sorted(profile[field]) for field in lists} == {
        field: sorted(ids) for field, ids in lists.items()
    }

    await Timeslot.delete().where(Timeslot.id == dropped.timeslot["id"])
    await TicketType.delete().where(TicketType.id == dropped.ticket_type["id"])
    current = await _profile(client, tenant, profile["id"])
    assert current["timeslot_ids"] == [kept.timeslot["id"]]
    assert current["ticket_type_ids"] == [kept.ticket_type["id"]]
    assert sorted(current["event_ids"]) == sorted(lists["event_ids"])
    await Event.delete().where(Event.id == dropped.event["id"])
    current = await _profile(client, tenant, profile["id"])
    assert current["event_ids"] == [kept.event["id"]]


async def test_a_target_names_exactly_one_event_ticket_type_or_timeslot(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    profile_id = uuid.UUID((await create_profile(client, tenant))["id"])
    for targets in (
        {},
        {"event_id": venue.event["id"], "timeslot_id": venue.timeslot["id"]},
    ):
        with pytest.raises(asyncpg.CheckViolationError, match="one_target"):
            await ScannerProfileTarget.insert(
                ScannerProfileTarget(profile_id=profile_id, **targets)
            )
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await ScannerProfileTarget.insert(
            ScannerProfileTarget(profile_id=profile_id, event_id=uuid.uuid4())
        )
