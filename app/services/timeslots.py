"""Timeslots of an event and the ticket types sold for them (scopes events.read / events.write).

``total_available`` is the capacity. Selling against it is the orders service's job, through a
single conditional UPDATE of ``sold``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any
from uuid import UUID

from piccolo.columns.combination import Combinable

from app.errors import InvalidInput
from app.pagination import Page, fetch_page, fetch_pages, list_params
from app.principal import Principal
from app.schemas.events import Timeslot, TimeslotCreate
from app.services.events import require_event
from app.services.ticket_types import ticket_types_by_id
from app.timeutil import as_utc, require_offset
from db.tables import Timeslot as TimeslotTable
from db.tables import TimeslotTicketType

SORT_FIELDS = ("created_at", "starts_at", "ends_at", "title")


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


def to_timeslot(row: dict[str, Any], ticket_type_ids: list[UUID]) -> Timeslot:
    return Timeslot(
        id=row["id"],
        title=row["title"],
        starts_at=as_utc(row["starts_at"]),
        ends_at=as_utc(row["ends_at"]),
        total_available=row["total_available"],
        ticket_type_ids=ticket_type_ids,
    )


def _period(starts_from: datetime | None, starts_until: datetime | None) -> list[Combinable]:
    """Conditions keeping the timeslots that start in ``[starts_from, starts_until)``."""
    where: list[Combinable] = []
    if starts_from is not None:
        where.append(TimeslotTable.starts_at >= require_offset(starts_from, "from"))
    if starts_until is not None:
        where.append(TimeslotTable.starts_at < require_offset(starts_until, "until"))
    return where


async def list_timeslots(
    principal: Principal,
    event_id: UUID,
    *,
    starts_from: datetime | None = None,
    starts_until: datetime | None = None,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Timeslot]:
    """Timeslots starting in ``[starts_from, starts_until)``; three statements per page."""
    principal.require("events.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    where = [TimeslotTable.event_id == event_id, *_period(starts_from, starts_until)]
    await require_event(principal, event_id)
    page = await fetch_page(TimeslotTable, where, params, lambda row: row)
    links = await ticket_type_ids_of([row["id"] for row in page.data])
    return Page(
        data=[to_timeslot(row, links[row["id"]]) for row in page.data],
        pagination=page.pagination,
    )


async def timeslots_of_events(
    principal: Principal,
    event_ids: list[UUID],
    *,
    starts_from: datetime | None = None,
    starts_until: datetime | None = None,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> dict[UUID, Page[Timeslot]]:
    """One page of timeslots per event of the caller (three statements; for dataloaders)."""
    principal.require("events.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    where = [
        TimeslotTable.organization_id == principal.organization_id,
        *_period(starts_from, starts_until),
    ]
    pages = await fetch_pages(
        TimeslotTable, TimeslotTable.event_id, event_ids, where, params, lambda row: row
    )
    links = await ticket_type_ids_of([row["id"] for page in pages.values() for row in page.data])
    return {
        event_id: Page(
            data=[to_timeslot(row, links[row["id"]]) for row in page.data],
            pagination=page.pagination,
        )
        for event_id, page in pages.items()
    }


async def load_timeslots(principal: Principal, timeslot_ids: list[UUID]) -> dict[UUID, Timeslot]:
    """The caller's timeslots among ``timeslot_ids``, keyed by id (two statements)."""
    principal.require("events.read")
    if not timeslot_ids:
        return {}
    rows = await TimeslotTable.select().where(
        TimeslotTable.id.is_in(list(set(timeslot_ids))),
        TimeslotTable.organization_id == principal.organization_id,
    )
    links = await ticket_type_ids_of([row["id"] for row in rows])
    return {row["id"]: to_timeslot(row, links[row["id"]]) for row in rows}


async def create_timeslot(principal: Principal, event_id: UUID, data: TimeslotCreate) -> Timeslot:
    principal.require("events.write")
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
    async with TimeslotTable._meta.db.transaction():
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
    return to_timeslot(row.to_dict(), sorted(wanted))
