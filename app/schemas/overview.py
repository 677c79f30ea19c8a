"""Records of the dashboard's overview and event pages: events and timeslots with their sales."""

from __future__ import annotations

from app.schemas.events import Event, Timeslot


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
