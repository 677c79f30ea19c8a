"""What the dashboard's overview, event and door pages show about sales, admissions and scans.

The numbers come from the counters the write side keeps (``timeslots.sold``, ``ticket_counts``),
so a page costs a statement or two however many tickets an event has.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import cast
from uuid import UUID

from app.errors import InvalidInput, NotFound
from app.pagination import Page
from app.principal import Principal, requires
from app.records import mapper, to_record
from app.resources import Resource
from app.schemas.overview import DoorScan, EventOverview, TimeslotSales
from app.services.timeslots import TIMESLOTS
from app.timeutil import utcnow
from db import door, overview

RECENT = timedelta(hours=12)
"""How long after its end (its start, when it has none) an event stays on the overview: the
night's event is still there while its door closes."""
MAX_UPCOMING = 100

# dataclasses.replace keeps the declared type parameter when ``record`` changes.
TIMESLOT_SALES = cast(Resource[TimeslotSales], dataclasses.replace(TIMESLOTS, record=TimeslotSales))
"""The timeslots of an event with their sales: the timeslots' list, another record."""


@requires("events.read")
async def upcoming_events(principal: Principal, *, limit: int = 20) -> list[EventOverview]:
    """Events that are on, to come or ended within :data:`RECENT`, soonest first."""
    if not 1 <= limit <= MAX_UPCOMING:
        raise InvalidInput.field("limit", f"must be between 1 and {MAX_UPCOMING}, got {limit}")
    rows = await overview.upcoming(principal.organization_id, utcnow() - RECENT, limit)
    as_overview = mapper(EventOverview)
    return [as_overview(row) for row in rows]


@requires("events.read")
async def event_overview(principal: Principal, event_id: UUID) -> EventOverview:
    """One event with its capacity, sold and admitted; :class:`NotFound` when not the caller's."""
    row = await overview.one(principal.organization_id, event_id)
    if row is None:
        raise NotFound.resource("event", event_id)
    return to_record(EventOverview, row)


@requires("tickets.read")
async def latest_scans(principal: Principal, event_id: UUID, *, limit: int = 25) -> list[DoorScan]:
    """The event's latest scan attempts, newest first: admissions, refusals and repeats, with
    the owner, ticket type and scanner of each (one statement)."""
    if not 1 <= limit <= MAX_UPCOMING:
        raise InvalidInput.field("limit", f"must be between 1 and {MAX_UPCOMING}, got {limit}")
    as_scan = mapper(DoorScan)
    return [
        as_scan(row) for row in await door.latest_scans(principal.organization_id, event_id, limit)
    ]


@requires("events.read")
async def timeslot_sales(principal: Principal, event_id: UUID) -> Page[TimeslotSales]:
    """The event's timeslots (up to 100, by start) with the tickets sold for each."""
    return await TIMESLOT_SALES.page(
        principal, within=("event_id", event_id), sort="starts_at:asc", limit=100
    )
