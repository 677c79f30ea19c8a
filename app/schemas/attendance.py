"""Attendance of an event (CONTRACT.md section 17): who came, who is inside now."""

from __future__ import annotations

from uuid import UUID

import msgspec


class TimeslotAttendance(msgspec.Struct):
    timeslot_id: UUID
    admitted: int
    inside: int


class Attendance(msgspec.Struct):
    """``admitted``: distinct tickets ever admitted; ``inside``: tickets present now (their
    latest valid scan by ``scanned_at`` is an entry); ``entries`` / ``exits``: valid scans of
    each direction. Exact under any concurrency, read from counters (no count of the scan
    log)."""

    event_id: UUID
    admitted: int
    inside: int
    entries: int
    exits: int
    timeslots: list[TimeslotAttendance]
