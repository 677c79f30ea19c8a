"""The SQL of the dashboard's overview: events with their capacity, sales and admissions.

One statement for a page of events: each event's capacity and sold tickets are sums of its
timeslots (``timeslots.sold`` is kept by the orders in their transactions) and its admissions a
sum of its ``ticket_counts`` rows (kept by triggers, ``db/counts.py``), so no ticket is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from db.lists import Row
from db.tables import Event

_SUMMARY = """
    SELECT e.*,
        COALESCE((SELECT SUM(t.total_available) FROM timeslots t WHERE t.event_id = e.id), 0)
            AS capacity,
        COALESCE((SELECT SUM(t.sold) FROM timeslots t WHERE t.event_id = e.id), 0) AS sold,
        COALESCE((SELECT SUM(c.scanned) FROM ticket_counts c WHERE c.event_id = e.id), 0)
            AS admitted
    FROM ({}) AS e ORDER BY e.starts_at, e.id"""
UPCOMING = (
    "SELECT * FROM events WHERE organization_id = {} AND COALESCE(ends_at, starts_at) >= {} "
    "ORDER BY starts_at, id LIMIT {}"
)
"""Served by ``events_org_effective_end`` (migration 2026-11-23T04:05)."""
ONE = "SELECT * FROM events WHERE organization_id = {} AND id = {}"


async def _summaries(events: str, *args: Any) -> list[Row]:
    rows: list[Row] = await Event.raw(_SUMMARY.format(events), *args)
    for row in rows:
        for name in ("capacity", "sold", "admitted"):
            row[name] = int(row[name])
    return rows


async def upcoming(organization_id: UUID, ending_after: datetime, limit: int) -> list[Row]:
    """The organization's events whose end (their start when they have none) is at or after
    ``ending_after``, soonest first, with capacity, sold and admitted."""
    return await _summaries(UPCOMING, organization_id, ending_after, limit)


async def one(organization_id: UUID, event_id: UUID) -> Row | None:
    """The event ``event_id`` of the organization with its capacity, sold and admitted."""
    rows = await _summaries(ONE, organization_id, event_id)
    return rows[0] if rows else None
