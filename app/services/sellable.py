"""What a timeslot sells: the checks an order and a hold share before they take places."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.errors import InvalidInput, NotFound
from db import holds
from db.locks import locked
from db.tables import Event, TicketType, Timeslot, TimeslotTicketType


async def timeslot_of_event(
    organization_id: UUID, event_id: UUID, timeslot_id: UUID, *, lock: bool
) -> dict[str, Any]:
    """The organization's timeslot, checked to be of the event (404 for an event or timeslot
    that is not the organization's, 400 for a timeslot of another event). With ``lock`` (a
    transaction that writes rows referring to it) the row is read with a key-share lock on
    PostgreSQL, as the foreign keys of those rows will take anyway: a deletion of the timeslot
    then waits for the caller's transaction, or came first and is seen (404)."""
    query = Timeslot.select().where(
        Timeslot.id == timeslot_id, Timeslot.organization_id == organization_id
    )
    rows = await (locked(query, "KEY SHARE") if lock else query)
    if not rows or rows[0]["event_id"] != event_id:
        if not await Event.exists().where(
            Event.id == event_id, Event.organization_id == organization_id
        ):
            raise NotFound.resource("event", event_id)
        if not rows:
            raise NotFound.resource("timeslot", timeslot_id)
        raise InvalidInput.field("event_timeslot_id", "is not a timeslot of this event")
    return rows[0]


async def sellable_ticket_types(
    organization_id: UUID, event_id: UUID, timeslot_id: UUID, wanted: set[UUID], *, lock: bool
) -> dict[UUID, dict[str, Any]]:
    """The wanted ticket types, checked to be sold for the timeslot (else a 400).

    A timeslot that lists ticket types sells only those; one that lists none sells every ticket
    type of its event. With ``lock`` (an order) the rows stay share-locked until the caller's
    transaction commits, so a ticket type cannot be deleted under it, nor its price or
    ``swappable`` change between this read and the tickets that copy them
    (``app.services.ticket_types``).
    """
    query = TicketType.select(TicketType.id, TicketType.price, TicketType.swappable).where(
        TicketType.id.is_in(list(wanted)),
        TicketType.organization_id == organization_id,
        TicketType.event_id == event_id,
    )
    types = {row["id"]: row for row in await (locked(query, "SHARE") if lock else query)}
    linked = {
        row["ticket_type_id"]
        for row in await TimeslotTicketType.select(TimeslotTicketType.ticket_type_id).where(
            TimeslotTicketType.timeslot_id == timeslot_id
        )
    }
    refused = sorted(str(i) for i in wanted if i not in types or (linked and i not in linked))
    if refused:
        raise InvalidInput.field(
            "tickets", f"ticket types not sold for this timeslot: {', '.join(refused)}"
        )
    return types


async def checked_sale(
    organization_id: UUID, event_id: UUID, timeslot_id: UUID, wanted: set[UUID], *, lock: bool
) -> tuple[dict[str, Any], dict[UUID, dict[str, Any]]]:
    """The timeslot and the wanted ticket types, checked as :func:`timeslot_of_event` and
    :func:`sellable_ticket_types` check them, in one statement when all is well (the hot path of
    an on-sale); when it is not, those two run to say what is wrong."""
    rows = await holds.sale(organization_id, timeslot_id, list(wanted), lock=lock)
    types = {row["ticket_type_id"]: row for row in rows}
    if (
        rows
        and rows[0]["event_id"] == event_id
        and set(types) == wanted
        and all(row["sellable"] for row in rows)
    ):
        return rows[0], types
    timeslot = await timeslot_of_event(organization_id, event_id, timeslot_id, lock=lock)
    return timeslot, await sellable_ticket_types(
        organization_id, event_id, timeslot_id, wanted, lock=lock
    )
