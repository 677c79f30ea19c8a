"""Helpers of the offline and batch scanning tests: doors whose timeslot is in the past (so that a
device's ``scanned_at`` can fall inside or outside its window) and many tickets at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec
from httpx import AsyncClient

from app.principal import Principal
from app.services.authentication import authenticate
from app.settings import get_settings
from db.tables import OutboxEvent, Scan
from tests.support import (
    Door,
    Tenant,
    Venue,
    create_event,
    create_scanner,
    create_ticket_type,
    create_timeslot,
    ok,
    order_tickets,
    place_order,
)


def stamp(moment: datetime) -> str:
    """A timestamp as the API writes it (UTC, ``Z``)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


async def principal_of(tenant: Tenant) -> Principal:
    return await authenticate(f"Bearer {tenant.key}", get_settings())


async def door_at(
    client: AsyncClient,
    tenant: Tenant,
    starts_at: datetime,
    ends_at: datetime,
    *,
    tickets: int = 1,
    orders: int = 1,
    scanner: dict[str, Any] | None = None,
    **event: Any,
) -> Door:
    """An event with one timeslot ``starts_at``..``ends_at``, ``orders`` confirmed orders of
    ``tickets`` tickets (all their tickets, order by order), and ``scanner`` or a new one."""
    created = await create_event(client, tenant, starts_at=stamp(starts_at), **event)
    ticket_type = await create_ticket_type(client, tenant, created["id"])
    timeslot = await create_timeslot(
        client,
        tenant,
        created["id"],
        starts_at=stamp(starts_at),
        ends_at=stamp(ends_at),
        total_available=tickets * orders,
        ticket_type_ids=[ticket_type["id"]],
    )
    found: list[dict[str, Any]] = []
    order: dict[str, Any] = {}
    for _ in range(orders):
        order = await place_order(
            client,
            tenant,
            created["id"],
            timeslot["id"],
            [ticket_type["id"]] * tickets,
            confirm=True,
        )
        found += await order_tickets(client, tenant, order)
    venue = Venue(event=created, ticket_type=ticket_type, timeslot=timeslot)
    return Door(venue, order, found, scanner or await create_scanner(client, tenant))


async def scan_log(tenant: Tenant, ticket_id: str | UUID) -> list[dict[str, Any]]:
    """The ticket's scan log rows (every column), oldest first."""
    return (
        await Scan.select()
        .where(Scan.organization_id == tenant.org_id, Scan.ticket_id == ticket_id)
        .order_by(Scan.created_at)
    )


async def scanned_events(tenant: Tenant) -> list[dict[str, Any]]:
    """The ``ticket.scanned`` payloads of the tenant's outbox."""
    rows = await OutboxEvent.select(OutboxEvent.payload).where(
        OutboxEvent.organization_id == tenant.org_id, OutboxEvent.event_type == "ticket.scanned"
    )
    return [msgspec.json.decode(row["payload"]) for row in rows]


async def ticket(client: AsyncClient, tenant: Tenant, ticket_id: str) -> dict[str, Any]:
    return ok(await client.get(f"/tickets/{ticket_id}", headers=tenant.headers))


def now() -> datetime:
    return datetime.now(UTC)


HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)
