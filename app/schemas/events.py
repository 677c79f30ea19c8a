"""Records and inputs of events, ticket types and timeslots (spec tables; CONTRACT.md section 4)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec

from app.money import Amount
from app.schemas.text import NO_NUL

Title = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=NO_NUL)]
Description = Annotated[str, msgspec.Meta(max_length=10_000, pattern=NO_NUL)]
Location = Annotated[str, msgspec.Meta(max_length=500, pattern=NO_NUL)]


class Event(msgspec.Struct):
    id: UUID
    title: str
    description: str
    location: str | None
    starts_at: datetime
    ends_at: datetime | None
    order_scanning_enabled: bool
    created_at: datetime
    updated_at: datetime


class EventCreate(msgspec.Struct, forbid_unknown_fields=True):
    title: Title
    starts_at: datetime
    description: Description = ""
    location: Location | None = None
    ends_at: datetime | None = None
    order_scanning_enabled: bool = False


class EventUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed."""

    title: Title | msgspec.UnsetType = msgspec.UNSET
    description: Description | msgspec.UnsetType = msgspec.UNSET
    location: Location | msgspec.UnsetType | None = msgspec.UNSET
    starts_at: datetime | msgspec.UnsetType = msgspec.UNSET
    ends_at: datetime | msgspec.UnsetType | None = msgspec.UNSET
    order_scanning_enabled: bool | msgspec.UnsetType = msgspec.UNSET


class TicketType(msgspec.Struct):
    id: UUID
    event_id: UUID
    name: str
    price: float
    swappable: bool
    created_at: datetime


class TicketTypeCreate(msgspec.Struct, forbid_unknown_fields=True):
    name: Title
    price: Amount
    swappable: bool = False


class Timeslot(msgspec.Struct):
    id: UUID
    title: str
    starts_at: datetime
    ends_at: datetime
    total_available: int
    ticket_type_ids: list[UUID]


class TimeslotCreate(msgspec.Struct, forbid_unknown_fields=True):
    title: Title
    starts_at: datetime
    ends_at: datetime
    total_available: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]
    ticket_type_ids: list[UUID] = []
