"""Attendance (CONTRACT.md section 17): an event's admitted, inside, entries and exits, read from
the counters the scans write in their own statements (``db/scans.py``), so a read costs the same
at ten scans as at ten million; and the same figures live, after every admission or exit."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from app.principal import Principal, requires
from app.runtime import live
from app.runtime.live import SubscriberTooSlow
from app.schemas.attendance import Attendance, TimeslotAttendance
from app.schemas.scanning import ScanNotice
from app.services.lookup import owned_row
from db import attendance as statements
from db.tables import Event

COUNTS = ("admitted", "inside", "entries", "exits")


@requires("tickets.read")
async def event_attendance(principal: Principal, event_id: UUID) -> Attendance:
    """The event's attendance; :class:`NotFound` when the event is not the caller's."""
    await owned_row(Event, event_id, principal.organization_id, "event")
    return (await _read(principal.organization_id, [event_id]))[event_id]


@requires("tickets.read")
async def attendance_by_event(
    principal: Principal, event_ids: list[UUID]
) -> dict[UUID, Attendance]:
    """The attendance of each of the caller's events named, in one statement (GraphQL's
    ``Event.attendance`` for a page of events); events of others count nothing."""
    return await _read(principal.organization_id, event_ids)


async def _read(organization_id: UUID, event_ids: list[UUID]) -> dict[UUID, Attendance]:
    rows: dict[UUID, list[dict[str, Any]]] = {event_id: [] for event_id in event_ids}
    for row in await statements.by_timeslot(organization_id, event_ids):
        rows[row["event_id"]].append(row)
    return {event_id: _attendance(event_id, found) for event_id, found in rows.items()}


def _attendance(event_id: UUID, rows: list[dict[str, Any]]) -> Attendance:
    totals = {name: sum(int(row[name]) for row in rows) for name in COUNTS}
    return Attendance(
        event_id=event_id,
        **totals,
        timeslots=[
            TimeslotAttendance(
                timeslot_id=row["timeslot_id"],
                admitted=int(row["admitted"]),
                inside=int(row["inside"]),
            )
            for row in rows
        ],
    )


@dataclass
class AttendanceFeed:
    """The event's attendance now, then again after each commit of scans that changed it (an
    admission or an exit). Notifications that arrive while it reads are read once together."""

    feed: live.Feed
    organization_id: UUID
    event_id: UUID

    async def __aiter__(self) -> AsyncIterator[Attendance]:
        async with self.feed:
            last = await self._read()
            yield last
            try:
                async for notice in self.feed:
                    if not _changes_attendance(notice):
                        continue
                    self.feed.skip_waiting()
                    current = await self._read()
                    if current != last:
                        last = current
                        yield current
            except SubscriberTooSlow:
                return

    async def _read(self) -> Attendance:
        return (await _read(self.organization_id, [self.event_id]))[self.event_id]


def _changes_attendance(notice: Any) -> bool:
    return isinstance(notice, ScanNotice) and notice.status == "valid"


@requires("tickets.read")
async def watch_attendance(
    principal: Principal, event_id: UUID, on_overflow: Callable[[], None] | None = None
) -> AttendanceFeed:
    """The event's attendance as it changes (see :class:`AttendanceFeed`); live from the first
    figure on, so that no change between it and the feed is missed."""
    await owned_row(Event, event_id, principal.organization_id, "event")
    feed = live.watch(principal.organization_id, "scans", event_id, on_overflow)
    return AttendanceFeed(feed, principal.organization_id, event_id)
