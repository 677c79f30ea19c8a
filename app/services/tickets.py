"""Tickets: the per-event list, one ticket, and cancellation.

A cancelled ticket gives its place back to the timeslot's capacity and emits ``ticket.cancelled``.
"""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

import msgspec
from piccolo.columns.combination import Combinable

from app.pagination import Page, fetch_page, fetch_pages, list_params
from app.principal import Principal
from app.schemas.tickets import MetadataField, Ticket
from app.services.events import require_event
from app.services.lookup import owned_row
from app.services.outbox import record_events
from app.timeutil import as_utc, maybe_utc, utcnow
from db.tables import Ticket as TicketTable
from db.tables import Timeslot

SORT_FIELDS = ("created_at", "sequence", "owner_name", "owner_email", "scanned_at", "status")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 20


def new_scannable_code() -> str:
    """20 characters from a 32-letter alphabet without look-alikes: 100 random bits."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def to_ticket(row: dict[str, Any]) -> Ticket:
    return Ticket(
        id=row["id"],
        scannable_code=row["scannable_code"],
        event_timeslot_id=row["event_timeslot_id"],
        ticket_type_id=row["ticket_type_id"],
        order_id=row["order_id"],
        owner_name=row["owner_name"],
        owner_email=row["owner_email"],
        seat=row["seat"],
        sequence=row["sequence"],
        scanned_at=maybe_utc(row["scanned_at"]),
        status=row["status"],
        cancelled_at=maybe_utc(row["cancelled_at"]),
        swappable=row["swappable"],
        created_at=as_utc(row["created_at"]),
        metadata=_json(row["metadata"]),
        metadata_fields=[MetadataField(**field) for field in _json(row["metadata_fields"])],
    )


def _json(value: Any) -> Any:
    """Piccolo hands JSON columns back as text unless asked otherwise."""
    return msgspec.json.decode(value) if isinstance(value, str) else value


async def list_event_tickets(
    principal: Principal,
    event_id: UUID,
    *,
    order_id: UUID | None = None,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Ticket]:
    principal.require("tickets.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    await require_event(principal, event_id)
    where: list[Combinable] = [TicketTable.event_id == event_id]
    if order_id is not None:
        where.append(TicketTable.order_id == order_id)
    return await fetch_page(TicketTable, where, params, to_ticket)


async def tickets_of_events(
    principal: Principal,
    event_ids: list[UUID],
    *,
    order_id: UUID | None = None,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> dict[UUID, Page[Ticket]]:
    """One page of tickets per event of the caller (two statements; for dataloaders)."""
    principal.require("tickets.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    where: list[Combinable] = [TicketTable.organization_id == principal.organization_id]
    if order_id is not None:
        where.append(TicketTable.order_id == order_id)
    return await fetch_pages(TicketTable, TicketTable.event_id, event_ids, where, params, to_ticket)


async def tickets_of_orders(
    principal: Principal,
    order_ids: list[UUID],
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> dict[UUID, Page[Ticket]]:
    """One page of tickets per order of the caller (two statements; for dataloaders)."""
    principal.require("tickets.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    return await fetch_pages(
        TicketTable,
        TicketTable.order_id,
        order_ids,
        [TicketTable.organization_id == principal.organization_id],
        params,
        to_ticket,
    )


async def get_ticket(principal: Principal, ticket_id: UUID) -> Ticket:
    principal.require("tickets.read")
    return to_ticket(await owned_row(TicketTable, ticket_id, principal.organization_id, "ticket"))


async def cancel_tickets(organization_id: UUID, where: list[Combinable]) -> list[dict[str, Any]]:
    """Cancel the live tickets matching ``where``; call inside a transaction.

    One UPDATE picks exactly the tickets that were not yet cancelled, so a repeated or concurrent
    cancellation changes nothing twice: capacity is given back and ``ticket.cancelled`` emitted
    once per ticket.
    """
    now = utcnow()
    cancelled = (
        await TicketTable.update({TicketTable.status: "cancelled", TicketTable.cancelled_at: now})
        .where(
            TicketTable.organization_id == organization_id,
            TicketTable.status != "cancelled",
            *where,
        )
        .returning(*TicketTable.all_columns())
    )
    freed: dict[UUID, int] = {}
    for row in cancelled:
        freed[row["event_timeslot_id"]] = freed.get(row["event_timeslot_id"], 0) + 1
    for timeslot_id, count in freed.items():
        await Timeslot.update({Timeslot.sold: Timeslot.sold - count}).where(
            Timeslot.id == timeslot_id
        )
    await record_events(
        organization_id,
        [
            (
                "ticket.cancelled",
                {
                    "ticket_id": row["id"],
                    "order_id": row["order_id"],
                    "event_id": row["event_id"],
                    "cancelled_at": now,
                },
            )
            for row in cancelled
        ],
    )
    return cancelled


async def cancel_ticket(principal: Principal, ticket_id: UUID) -> Ticket:
    """Cancel one ticket; cancelling a cancelled ticket returns it unchanged."""
    principal.require("orders.write")
    async with TicketTable._meta.db.transaction():
        current = await owned_row(TicketTable, ticket_id, principal.organization_id, "ticket")
        cancelled = await cancel_tickets(principal.organization_id, [TicketTable.id == ticket_id])
    return to_ticket(cancelled[0] if cancelled else current)
