"""Events: list, read, create and update (scopes events.read / events.write)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from app.errors import InvalidInput
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Resource
from app.schemas.events import Event, EventCreate, EventUpdate
from app.services.lookup import owned_row
from app.timeutil import require_offset, utcnow
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
    starts_at = require_offset(data.starts_at, "starts_at")
    ends_at = None if data.ends_at is None else require_offset(data.ends_at, "ends_at")
    _check_period(starts_at, ends_at)
    now = utcnow()
    row = EventTable(
        organization_id=principal.organization_id,
        title=data.title,
        description=data.description,
        location=data.location,
        starts_at=starts_at,
        ends_at=ends_at,
        order_scanning_enabled=data.order_scanning_enabled,
        created_at=now,
        updated_at=now,
    )
    await row.save()
    return to_record(Event, row.to_dict())


@requires("events.write")
async def update_event(principal: Principal, event_id: UUID, data: EventUpdate) -> Event:
    changes = {
        field: getattr(data, field)
        for field in data.__struct_fields__
        if getattr(data, field) is not msgspec.UNSET
    }
    for field in ("starts_at", "ends_at"):
        if changes.get(field) is not None:
            changes[field] = require_offset(changes[field], field)
    async with transaction():
        current = await owned_row(EventTable, event_id, principal.organization_id, "event")
        merged = {**current, **changes}
        _check_period(merged["starts_at"], merged["ends_at"])
        changes["updated_at"] = utcnow()
        await EventTable.update(**changes).where(EventTable.id == event_id)
    return to_record(Event, {**current, **changes})
