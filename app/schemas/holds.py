"""Records and inputs of holds and of a timeslot's availability (CONTRACT.md section 16)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

HoldStatus = Literal["active", "converted", "released", "expired"]
MAX_TICKETS_PER_HOLD = 50
TTL_SECONDS_MIN = 60
TTL_SECONDS_MAX = 1800
TTL_SECONDS_DEFAULT = 600


class HeldTicket(msgspec.Struct, forbid_unknown_fields=True):
    """One place of a hold: its ticket type."""

    ticket_type_id: UUID


class Hold(msgspec.Struct):
    id: UUID
    event_id: UUID
    event_timeslot_id: UUID
    status: HoldStatus
    tickets: list[HeldTicket]
    expires_at: datetime
    created_at: datetime


class HoldCreate(msgspec.Struct, forbid_unknown_fields=True):
    event_id: UUID
    event_timeslot_id: UUID
    tickets: Annotated[
        list[HeldTicket], msgspec.Meta(min_length=1, max_length=MAX_TICKETS_PER_HOLD)
    ]
    ttl_seconds: Annotated[int, msgspec.Meta(ge=TTL_SECONDS_MIN, le=TTL_SECONDS_MAX)] = (
        TTL_SECONDS_DEFAULT
    )


class TimeslotAvailability(msgspec.Struct):
    """A timeslot's figures when read: ``sold`` tickets not cancelled of orders not cancelled,
    ``held`` the places of holds that are active and not expired, ``available`` what is left."""

    timeslot_id: UUID
    total_available: int
    sold: int
    held: int
    available: int


class Availability(msgspec.Struct):
    """``GET /events/{id}/availability``: every timeslot of the event."""

    data: list[TimeslotAvailability]


class AvailabilityChanged(msgspec.Struct):
    """A live notice that a timeslot's figures changed (``app.services.availability``): only its
    id; a subscriber reads the figures themselves, the latest, when it sends them."""

    timeslot_id: UUID
