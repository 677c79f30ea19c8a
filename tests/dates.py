"""The year of test data, relative to today: events start in :data:`YEAR`, a few years ahead, so
that no test depends on the calendar (an event written to start on 2030-06-01 would be in the
past from mid-2030 on, and its scan-window test would fail). Write a future date as
``f"{YEAR}-06-01T18:00:00Z"`` or ``datetime(YEAR, 6, 1, 18, tzinfo=UTC)``, never a fixed year."""

from __future__ import annotations

from datetime import UTC, datetime

YEAR = datetime.now(UTC).year + 4
