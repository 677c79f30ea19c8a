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
    return await _read(event_id)


async def _read(event_id: UUID) -> Attendance:
    rows = await statements.by_timeslot(event_id)
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
    event_id: UUID

    async def __aiter__(self) -> AsyncIterator[Attendance]:
        async with self.feed:
            last = await _read(self.event_id)
            yield last
            try:
                async for notice in self.feed:
                    if not _changes_attendance(notice):
                        continue
                    self.feed.skip_waiting()
                    current = await _read(self.event_id)
                    if current != last:
                        last = current
                        yield current
            except SubscriberTooSlow:
                return


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
    return AttendanceFeed(feed, event_id)
