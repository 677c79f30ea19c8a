"""Reading attendance: the sum of a few counter rows per timeslot (``attendance_counts``, written
by the scans' statements in ``db/scans.py``), whatever the number of scans."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from db.tables import AttendanceCount


async def by_timeslot(organization_id: UUID, event_ids: Sequence[UUID]) -> list[dict[str, Any]]:
    """Each timeslot of the organization's events named (by event, then start) with its
    admitted, inside, entries and exits: one statement."""
    placeholders = ", ".join("{}" for _ in event_ids) or "NULL"
    rows: list[dict[str, Any]] = await AttendanceCount.raw(
        "SELECT s.event_id, s.id AS timeslot_id, "
        "COALESCE(SUM(c.admitted), 0) AS admitted, COALESCE(SUM(c.inside), 0) AS inside, "
        "COALESCE(SUM(c.entries), 0) AS entries, COALESCE(SUM(c.exits), 0) AS exits "
        "FROM timeslots s LEFT JOIN attendance_counts c ON c.timeslot_id = s.id "
        f"WHERE s.organization_id = {{}} AND s.event_id IN ({placeholders}) "
        "GROUP BY s.event_id, s.id, s.starts_at ORDER BY s.event_id, s.starts_at, s.id",
        organization_id,
        *event_ids,
    )
    return rows
