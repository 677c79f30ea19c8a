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
Capacity = Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]


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


class TicketTypeUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed. A new ``price`` applies to orders placed from
    then on; a new ``swappable`` also applies to the ticket type's tickets that are not cancelled
    (they inherit it)."""

    name: Title | msgspec.UnsetType = msgspec.UNSET
    price: Amount | msgspec.UnsetType = msgspec.UNSET
    swappable: bool | msgspec.UnsetType = msgspec.UNSET


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
    total_available: Capacity
    ticket_type_ids: list[UUID] = []


class TimeslotUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed; a sent ``ticket_type_ids`` replaces the old
    list. ``total_available`` may not go below the tickets sold (409)."""

    title: Title | msgspec.UnsetType = msgspec.UNSET
    starts_at: datetime | msgspec.UnsetType = msgspec.UNSET
    ends_at: datetime | msgspec.UnsetType = msgspec.UNSET
    total_available: Capacity | msgspec.UnsetType = msgspec.UNSET
    ticket_type_ids: list[UUID] | msgspec.UnsetType = msgspec.UNSET


class Deleted(msgspec.Struct):
    """The answer to a delete: the id of the row that is gone."""

    id: UUID
    deleted: bool
