"""Timeslots of an event and the ticket types sold for them (scopes events.read / events.write).

``total_available`` is the capacity. Selling against it is the orders service's job, through a
single conditional UPDATE of ``sold``.
"""

from __future__ import annotations

from collections import defaultdict
from uuid import UUID

from app.errors import InvalidInput
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource, since, until
from app.schemas.events import Timeslot, TimeslotCreate
from app.services.events import require_event
from app.services.ticket_types import ticket_types_by_id
from app.timeutil import require_offset
from db.lists import Row
from db.tables import Event, TimeslotTicketType
from db.tables import Timeslot as TimeslotTable
from db.transactions import transaction


async def ticket_type_ids_of(timeslot_ids: list[UUID]) -> dict[UUID, list[UUID]]:
    """The ticket type ids linked to each timeslot (one statement for any number of timeslots)."""
    linked: dict[UUID, list[UUID]] = defaultdict(list)
    if not timeslot_ids:
        return linked
    rows = (
        await TimeslotTicketType.select(
            TimeslotTicketType.timeslot_id, TimeslotTicketType.ticket_type_id
        )
        .where(TimeslotTicketType.timeslot_id.is_in(timeslot_ids))
        .order_by(TimeslotTicketType.ticket_type_id)
    )
    for row in rows:
        linked[row["timeslot_id"]].append(row["ticket_type_id"])
    return linked


async def _with_ticket_type_ids(rows: list[Row]) -> None:
    linked = await ticket_type_ids_of([row["id"] for row in rows])
    for row in rows:
        row["ticket_type_ids"] = linked[row["id"]]


TIMESLOTS = Resource(
    table=TimeslotTable,
    record=Timeslot,
    kind="timeslot",
    scope="events.read",
    sort_fields=("created_at", "starts_at", "ends_at", "title"),
    parents={"event_id": Parent("event_id", Event, "event")},
    filters={
        "starts_from": since(
            "starts_at", "from", "Only timeslots starting at or after this RFC 3339 timestamp"
        ),
        "starts_until": until(
            "starts_at", "until", "Only timeslots starting before this RFC 3339 timestamp"
        ),
    },
    enrich=_with_ticket_type_ids,
)


@requires("events.write")
async def create_timeslot(principal: Principal, event_id: UUID, data: TimeslotCreate) -> Timeslot:
    starts_at = require_offset(data.starts_at, "starts_at")
    ends_at = require_offset(data.ends_at, "ends_at")
    if ends_at < starts_at:
        raise InvalidInput.field("ends_at", "must not be before starts_at")
    await require_event(principal, event_id)
    wanted = list(dict.fromkeys(data.ticket_type_ids))
    found = await ticket_types_by_id(principal.organization_id, wanted)
    strangers = [str(i) for i in wanted if i not in found or found[i]["event_id"] != event_id]
    if strangers:
        raise InvalidInput.field(
            "ticket_type_ids", f"not ticket types of this event: {', '.join(strangers)}"
        )
    async with transaction():
        row = TimeslotTable(
            organization_id=principal.organization_id,
            event_id=event_id,
            title=data.title,
            starts_at=starts_at,
            ends_at=ends_at,
            total_available=data.total_available,
        )
        await row.save()
        if wanted:
            await TimeslotTicketType.insert(
                *[TimeslotTicketType(timeslot_id=row.id, ticket_type_id=i) for i in wanted]
            )
    return to_record(Timeslot, {**row.to_dict(), "ticket_type_ids": sorted(wanted)})
