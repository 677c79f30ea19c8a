"""Ticket types of an event (scopes events.read / events.write)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.money import amount
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource
from app.schemas.events import TicketType, TicketTypeCreate
from app.services.events import require_event
from db.tables import Event
from db.tables import TicketType as TicketTypeTable

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


async def ticket_types_by_id(
    organization_id: UUID, ticket_type_ids: list[UUID]
) -> dict[UUID, dict[str, Any]]:
    """Rows of the given ticket types of one organization, keyed by id (one statement)."""
    if not ticket_type_ids:
        return {}
    rows = await TicketTypeTable.select().where(
        TicketTypeTable.id.is_in(list(set(ticket_type_ids))),
        TicketTypeTable.organization_id == organization_id,
    )
    return {row["id"]: row for row in rows}
