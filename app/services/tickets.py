"""Tickets: the per-event list, one ticket, and cancellation.

A cancelled ticket gives its place back to the timeslot's capacity and emits ``ticket.cancelled``.
"""

from __future__ import annotations

import secrets
from typing import Any, get_args
from uuid import UUID

from piccolo.custom_types import Combinable

from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource, Rows, choice_filter, id_filter, since, text_filter
from app.schemas.scanning import MAX_CODE_LENGTH
from app.schemas.tickets import Ticket, TicketStatus
from app.schemas.webhook_events import TicketCancelled
from app.services import availability, scan_keys
from app.services.lookup import owned_row
from app.services.outbox import record_events
from app.timeutil import utcnow
from db import revocations
from db.counts import Counts
from db.tables import Event, Order, Timeslot
from db.tables import Ticket as TicketTable
from db.transactions import transaction


async def fill_signed_codes(rows: Rows) -> Rows:
    """Sign the tickets that an earlier release wrote without a code (rare: only while a rolling
    upgrade runs the previous release beside this one; the migration signed the others). The
    rows themselves when every one has its code."""
    missing = [row for row in rows if row.get("signed_code") is None]
    if not missing:
        return rows
    codes = await scan_keys.sign_unsigned_tickets(missing)
    return [
        row if row.get("signed_code") is not None else {**row, "signed_code": codes[row["id"]]}
        for row in rows
    ]


TICKETS = Resource(
    table=TicketTable,
    record=Ticket,
    kind="ticket",
    scope="tickets.read",
    sort_fields=(
        "created_at",
        "sequence",
        "owner_name",
        "owner_email",
        "scanned_at",
        "status",
        "updated_at",
    ),
    parents={
        "event_id": Parent("event_id", Event, "event"),
        "order_id": Parent("order_id", Order, "order"),
    },
    filters={
        "order_id": id_filter("order_id", "Only the tickets of this order"),
        "status": choice_filter("status", get_args(TicketStatus), "Only tickets in this status"),
        "scannable_code": text_filter(
            "scannable_code", "Only the ticket with this code", max_length=MAX_CODE_LENGTH
        ),
        "owner_email": text_filter(
            "owner_email",
            "Only tickets of this owner e-mail (case-insensitive)",
            max_length=320,
            lower=True,
        ),
        "updated_since": since(
            "updated_at",
            "updated_since",
            "Only tickets changed at or after this RFC 3339 timestamp (sync)",
        ),
    },
    counts=Counts("ticket_counts", get_args(TicketStatus)),
    enrich=fill_signed_codes,
)
"""Tickets are listed per event or per order; each filter is served by an index of the event's
tickets (see ``db/migrations``)."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 20


_CODE_LETTERS = bytes(ord(CODE_ALPHABET[byte % len(CODE_ALPHABET)]) for byte in range(256))
"""Each byte's letter: its low 5 bits (256 is a multiple of 32, so every letter is as likely)."""


def new_scannable_code() -> str:
    """20 characters from a 32-letter alphabet without look-alikes: 100 random bits, from one
    read of the system's random source."""
    return secrets.token_bytes(CODE_LENGTH).translate(_CODE_LETTERS).decode()


async def cancel_tickets(organization_id: UUID, where: list[Combinable]) -> list[dict[str, Any]]:
    """Cancel the live tickets matching ``where``; call inside a transaction.

    One UPDATE picks exactly the tickets that were not yet cancelled, so a repeated or concurrent
    cancellation changes nothing twice: capacity is given back and ``ticket.cancelled`` emitted
    once per ticket.
    """
    now = utcnow()
    cancelled = (
        await TicketTable.update(
            {
                TicketTable.status: "cancelled",
                TicketTable.cancelled_at: now,
                TicketTable.updated_at: now,
            }
        )
        .where(
            TicketTable.organization_id == organization_id,
            TicketTable.status != "cancelled",
            *where,
        )
        .returning(*TicketTable.all_columns())
    )
    freed: dict[tuple[UUID, UUID], int] = {}
    revoked: dict[UUID, list[tuple[UUID, str, str | None]]] = {}
    for row in cancelled:
        revoked.setdefault(row["event_id"], []).append((row["id"], "cancelled", None))
        place = (row["event_id"], row["event_timeslot_id"])
        freed[place] = freed.get(place, 0) + 1
    for (event_id, timeslot_id), count in freed.items():
        await Timeslot.update({Timeslot.sold: Timeslot.sold - count}).where(
            Timeslot.id == timeslot_id
        )
        await availability.announce(organization_id, event_id, timeslot_id)
    for event_id, entries in revoked.items():
        await revocations.record(organization_id, event_id, entries)
    await record_events(
        organization_id,
        [
            TicketCancelled(
                ticket_id=row["id"],
                order_id=row["order_id"],
                event_id=row["event_id"],
                cancelled_at=now,
            )
            for row in cancelled
        ],
    )
    return cancelled


@requires("orders.write")
async def cancel_ticket(principal: Principal, ticket_id: UUID) -> Ticket:
    """Cancel one ticket; cancelling a cancelled ticket returns it unchanged."""
    async with transaction():
        current = await owned_row(TicketTable, ticket_id, principal.organization_id, "ticket")
        cancelled = await cancel_tickets(principal.organization_id, [TicketTable.id == ticket_id])
    [row] = await fill_signed_codes([cancelled[0] if cancelled else current])
    return to_record(Ticket, row)
