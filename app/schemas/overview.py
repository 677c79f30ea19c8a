"""Records of the dashboard's overview and event pages: events and timeslots with their sales."""

from __future__ import annotations

from datetime import datetime

import msgspec

from app.schemas.events import Event, Timeslot
from app.schemas.scanning import ScanReason, ScanStatus


class EventOverview(Event):
    """An event with what the door and the box office watch: its capacity (the timeslots'
    ``total_available``), tickets sold (not cancelled) and admitted (scanned) so far."""

    capacity: int
    sold: int
    admitted: int


class TimeslotSales(Timeslot):
    """A timeslot with the tickets sold for it (not cancelled); ``total_available`` is its
    capacity."""

    sold: int


class DoorScan(msgspec.Struct):
    """One scan attempt of an event as the door view lists it, whatever its outcome, with the
    names a person at the door reads."""

    status: ScanStatus
    reason: ScanReason | None
    scanned_at: datetime
    owner_name: str
    ticket_type: str
    scanner: str
