"""Reading attendance: the sum of a few counter rows per timeslot (``attendance_counts``, written
by the scans' statements in ``db/scans.py``), whatever the number of scans."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from db.tables import AttendanceCount

BY_TIMESLOT = """
    SELECT s.id AS timeslot_id,
           COALESCE(SUM(c.admitted), 0) AS admitted, COALESCE(SUM(c.inside), 0) AS inside,
           COALESCE(SUM(c.entries), 0) AS entries, COALESCE(SUM(c.exits), 0) AS exits
    FROM timeslots s LEFT JOIN attendance_counts c ON c.timeslot_id = s.id
    WHERE s.event_id = {}
    GROUP BY s.id, s.starts_at ORDER BY s.starts_at, s.id"""


async def by_timeslot(event_id: UUID) -> list[dict[str, Any]]:
    """Each timeslot of the event (by start) with its admitted, inside, entries and exits."""
    rows: list[dict[str, Any]] = await AttendanceCount.raw(BY_TIMESLOT, event_id)
    return rows
