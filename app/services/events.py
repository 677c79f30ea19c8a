"""Events: list, read, create and update (scopes events.read / events.write)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from app.errors import InvalidInput
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Resource
from app.schemas.decoding import sent
from app.schemas.events import Event, EventCreate, EventUpdate
from app.services.lookup import owned_row, update_owned
from app.timeutil import utcnow, with_offsets
from db.tables import Event as EventTable
from db.transactions import transaction

EVENTS = Resource(
    table=EventTable,
    record=Event,
    kind="event",
    scope="events.read",
    sort_fields=("created_at", "title", "starts_at"),
)


def _check_period(starts_at: Any, ends_at: Any) -> None:
    if ends_at is not None and ends_at < starts_at:
        raise InvalidInput.field("ends_at", "must not be before starts_at")


async def require_event(principal: Principal, event_id: UUID) -> dict[str, Any]:
    """The event row of the caller's organization, for writes below an event (404 otherwise)."""
    return await owned_row(EventTable, event_id, principal.organization_id, "event")


@requires("events.write")
async def create_event(principal: Principal, data: EventCreate) -> Event:
    fields = with_offsets(msgspec.structs.asdict(data), "starts_at", "ends_at")
    _check_period(fields["starts_at"], fields["ends_at"])
    now = utcnow()
    row = EventTable(
        **fields, organization_id=principal.organization_id, created_at=now, updated_at=now
    )
    await row.save()
    return to_record(Event, row.to_dict())


@requires("events.write")
async def update_event(principal: Principal, event_id: UUID, data: EventUpdate) -> Event:
    """Change the sent fields with one conditional UPDATE; the merged period is checked on the
    returned row, and a bad one rolls the change back."""
    changes = {**with_offsets(sent(data), "starts_at", "ends_at"), "updated_at": utcnow()}
    async with transaction():
        row = await update_owned(EventTable, event_id, principal.organization_id, "event", changes)
        _check_period(row["starts_at"], row["ends_at"])
    return to_record(Event, row)
