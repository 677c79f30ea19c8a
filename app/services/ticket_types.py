"""Ticket types of an event (scopes events.read / events.write).

A ticket type is deleted only while nothing has been ordered of it, no scanner profile names it
and it is not the last ticket type a timeslot sells (its links would cascade away and turn
"sells only this" into "sells everything"). The deletion first locks the row: an order in flight
holds a share lock on the ticket types it sells (``app.services.orders``), so the checks after the
lock see every order that got there first, and an order that comes later waits and then finds
the ticket type gone.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.errors import Conflict
from app.money import amount
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource
from app.schemas.decoding import sent
from app.schemas.events import Deleted, TicketType, TicketTypeCreate, TicketTypeUpdate
from app.services.events import require_event
from app.services.lookup import owned_row, update_owned
from app.services.scanners import refuse_if_profiles_name
from app.timeutil import utcnow
from db.locks import Strength, locked
from db.tables import Event, Ticket
from db.tables import TicketType as TicketTypeTable
from db.tables import Timeslot as TimeslotTable
from db.transactions import transaction

TICKET_TYPES = Resource(
    table=TicketTypeTable,
    record=TicketType,
    kind="ticket type",
    scope="events.read",
    parents={"event_id": Parent("event_id", Event, "event")},
)


@requires("events.write")
async def create_ticket_type(
    principal: Principal, event_id: UUID, data: TicketTypeCreate
) -> TicketType:
    price = amount(data.price, "price")
    await require_event(principal, event_id)
    row = TicketTypeTable(
        organization_id=principal.organization_id,
        event_id=event_id,
        name=data.name,
        price=price,
        swappable=data.swappable,
    )
    await row.save()
    return to_record(TicketType, row.to_dict())


@requires("events.write")
async def update_ticket_type(
    principal: Principal,
    ticket_type_id: UUID,
    data: TicketTypeUpdate,
    *,
    event_id: UUID | None = None,
) -> TicketType:
    """Change the sent fields with one conditional UPDATE. A new ``swappable`` is inherited by
    the ticket type's tickets that are not cancelled (their ``updated_at`` moves, so devices
    syncing with ``updated_since`` see it); a new ``price`` applies to later orders only."""
    changes = sent(data)
    if "price" in changes:
        changes["price"] = amount(changes["price"], "price")
    async with transaction():
        row = await update_owned(
            TicketTypeTable,
            ticket_type_id,
            principal.organization_id,
            "ticket type",
            changes,
            event_id=event_id,
        )
        if "swappable" in changes:
            await Ticket.update(
                {Ticket.swappable: changes["swappable"], Ticket.updated_at: utcnow()}
            ).where(
                Ticket.ticket_type_id == ticket_type_id,
                Ticket.status != "cancelled",
                Ticket.swappable != changes["swappable"],
            )
    return to_record(TicketType, row)


@requires("events.write")
async def delete_ticket_type(
    principal: Principal, ticket_type_id: UUID, *, event_id: UUID | None = None
) -> Deleted:
    """Delete a ticket type nothing was ordered of; 409 naming why otherwise (see the module)."""
    async with transaction():
        await owned_row(
            TicketTypeTable,
            ticket_type_id,
            principal.organization_id,
            "ticket type",
            event_id=event_id,
            lock="UPDATE",
        )
        ordered = await Ticket.count().where(Ticket.ticket_type_id == ticket_type_id)
        if ordered:
            raise Conflict(
                f"{ordered} tickets of this ticket type were ordered (cancelled ones count: "
                "they belong to orders); it cannot be deleted"
            )
        await refuse_if_profiles_name("ticket_type_ids", ticket_type_id, "ticket type")
        only_type_of = await _timeslots_selling_only(ticket_type_id)
        if only_type_of:
            raise Conflict(
                "It is the only ticket type of timeslots "
                f"{', '.join(only_type_of)}; deleting it would let them sell every ticket type "
                "of the event. Change their ticket_type_ids first"
            )
        await TicketTypeTable.delete().where(TicketTypeTable.id == ticket_type_id)
    return Deleted(id=ticket_type_id, deleted=True)


async def _timeslots_selling_only(ticket_type_id: UUID) -> list[str]:
    """Titles and ids of the timeslots whose list of ticket types is just this one."""
    rows = await TimeslotTable.raw(
        "SELECT t.id, t.title FROM timeslot_ticket_types l "
        "JOIN timeslots t ON t.id = l.timeslot_id "
        "WHERE l.ticket_type_id = {} AND NOT EXISTS (SELECT 1 FROM timeslot_ticket_types o "
        "WHERE o.timeslot_id = l.timeslot_id AND o.ticket_type_id <> l.ticket_type_id) "
        "ORDER BY t.title, t.id",
        ticket_type_id,
    )
    return [f"{row['title']!r} ({row['id']})" for row in rows]


async def ticket_types_by_id(
    organization_id: UUID, ticket_type_ids: list[UUID], *, lock: Strength | None = None
) -> dict[UUID, dict[str, Any]]:
    """Rows of the given ticket types of one organization, keyed by id (one statement). With
    ``lock`` (inside a transaction) the rows are locked until it ends, so a deletion (and with
    ``SHARE`` an update) of them waits for it."""
    if not ticket_type_ids:
        return {}
    query = TicketTypeTable.select().where(
        TicketTypeTable.id.is_in(list(set(ticket_type_ids))),
        TicketTypeTable.organization_id == organization_id,
    )
    rows = await (query if lock is None else locked(query, lock))
    return {row["id"]: row for row in rows}
