"""Events: list, read, create and update (scopes events.read / events.write)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from app.errors import InvalidInput
from app.pagination import Page, fetch_page, list_params
from app.principal import Principal
from app.schemas.events import Event, EventCreate, EventUpdate
from app.services.lookup import owned_row
from app.timeutil import as_utc, maybe_utc, require_offset, utcnow
from db.tables import Event as EventTable

SORT_FIELDS = ("created_at", "title", "starts_at")


def to_event(row: dict[str, Any]) -> Event:
    return Event(
        id=row["id"],
        title=row["title"],
        description=row["description"],
        location=row["location"],
        starts_at=as_utc(row["starts_at"]),
        ends_at=maybe_utc(row["ends_at"]),
        order_scanning_enabled=row["order_scanning_enabled"],
        created_at=as_utc(row["created_at"]),
        updated_at=as_utc(row["updated_at"]),
    )


def _check_period(starts_at: Any, ends_at: Any) -> None:
    if ends_at is not None and ends_at < starts_at:
        raise InvalidInput.field("ends_at", "must not be before starts_at")


async def list_events(
    principal: Principal,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Event]:
    principal.require("events.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    return await fetch_page(
        EventTable, [EventTable.organization_id == principal.organization_id], params, to_event
    )


async def get_event(principal: Principal, event_id: UUID) -> Event:
    principal.require("events.read")
    return to_event(await owned_row(EventTable, event_id, principal.organization_id, "event"))


async def load_events(principal: Principal, event_ids: list[UUID]) -> dict[UUID, Event]:
    """The caller's events among ``event_ids``, keyed by id (one statement; for dataloaders)."""
    principal.require("events.read")
    if not event_ids:
        return {}
    rows = await EventTable.select().where(
        EventTable.id.is_in(list(set(event_ids))),
        EventTable.organization_id == principal.organization_id,
    )
    return {row["id"]: to_event(row) for row in rows}


async def require_event(principal: Principal, event_id: UUID) -> dict[str, Any]:
    """The event row of the caller's organization, for services that work below an event."""
    return await owned_row(EventTable, event_id, principal.organization_id, "event")


async def create_event(principal: Principal, data: EventCreate) -> Event:
    principal.require("events.write")
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
    return to_event(row.to_dict())


async def update_event(principal: Principal, event_id: UUID, data: EventUpdate) -> Event:
    principal.require("events.write")
    changes = {
        field: getattr(data, field)
        for field in data.__struct_fields__
        if getattr(data, field) is not msgspec.UNSET
    }
    for field in ("starts_at", "ends_at"):
        if changes.get(field) is not None:
            changes[field] = require_offset(changes[field], field)
    async with EventTable._meta.db.transaction():
        current = await owned_row(EventTable, event_id, principal.organization_id, "event")
        merged = {**current, **changes}
        _check_period(as_utc(merged["starts_at"]), maybe_utc(merged["ends_at"]))
        changes["updated_at"] = utcnow()
        await EventTable.update(changes).where(EventTable.id == event_id)
    return to_event({**current, **changes})
