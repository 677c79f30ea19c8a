"""What each timeslot has left, exact when read (CONTRACT.md section 16): its capacity, its
sold and held places from the counters the write side keeps (``db.holds``), without counting
tickets or holds per request."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from uuid import UUID

from app.principal import Principal, requires
from app.schemas.holds import Availability, TimeslotAvailability
from app.services.events import require_event
from app.timeutil import utcnow
from db import holds


def figures_record(row: dict[str, Any]) -> TimeslotAvailability:
    sold, held = int(row["sold"]), int(row["held"])
    return TimeslotAvailability(
        timeslot_id=row["timeslot_id"],
        total_available=row["total_available"],
        sold=sold,
        held=held,
        available=max(row["total_available"] - sold - held, 0),
    )


@requires("events.read")
async def event_availability(principal: Principal, event_id: UUID) -> Availability:
    """Every timeslot of the event, by start (404 for an event that is not the caller's)."""
    await require_event(principal, event_id)
    return Availability(data=(await availability_by_event(principal, [event_id]))[event_id])


@requires("events.read")
async def availability_by_event(
    principal: Principal, event_ids: list[UUID]
) -> dict[UUID, list[TimeslotAvailability]]:
    """The figures of the timeslots of each event named (of the caller's), in one statement."""
    rows = await holds.figures(principal.organization_id, utcnow(), event_ids=event_ids)
    found: dict[UUID, list[TimeslotAvailability]] = defaultdict(list)
    for row in rows:
        found[row["event_id"]].append(figures_record(row))
    return {event_id: found[event_id] for event_id in event_ids}


@requires("events.read")
async def timeslot_figures(
    principal: Principal, timeslot_ids: list[UUID]
) -> dict[UUID, TimeslotAvailability]:
    """The figures of each timeslot named that is the caller's, in one statement."""
    rows = await holds.figures(principal.organization_id, utcnow(), timeslot_ids=timeslot_ids)
    return {row["timeslot_id"]: figures_record(row) for row in rows}
