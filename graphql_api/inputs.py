"""Input objects of the write mutations, converted into the services' msgspec input structs.

The conversion is the strict one REST bodies get (``app.schemas.decoding``), so a GraphQL input
is held to exactly the bounds of the REST body (lengths, enums, ranges, metadata rules) and fails
with the same BAD_USER_INPUT field errors.
Fields left out stay unset, which is what gives the update mutations their PATCH semantics.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any, TypeVar

import msgspec
import strawberry
from strawberry.scalars import JSON

from app.schemas.decoding import convert

S = TypeVar("S", bound=msgspec.Struct)


def _plain(value: Any) -> Any:
    """Strawberry input objects as dicts without their unset fields, recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: _plain(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if getattr(value, field.name) is not strawberry.UNSET
        }
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def to_struct(value: Any, struct: type[S], *, exclude: tuple[str, ...] = ()) -> S:
    """The service input ``struct`` built from a GraphQL input, minus the ``exclude`` fields."""
    data = {k: v for k, v in _plain(value).items() if k not in exclude}
    return convert(data, struct)


@strawberry.input
class CreateEventInput:
    title: str
    starts_at: datetime
    description: str | None = strawberry.UNSET
    location: str | None = strawberry.UNSET
    ends_at: datetime | None = strawberry.UNSET
    order_scanning_enabled: bool | None = strawberry.UNSET


@strawberry.input(description="Only the fields sent are changed; null clears a nullable field.")
class UpdateEventInput:
    id: strawberry.ID
    title: str | None = strawberry.UNSET
    description: str | None = strawberry.UNSET
    location: str | None = strawberry.UNSET
    starts_at: datetime | None = strawberry.UNSET
    ends_at: datetime | None = strawberry.UNSET
    order_scanning_enabled: bool | None = strawberry.UNSET


@strawberry.input
class CreateTicketTypeInput:
    event_id: strawberry.ID
    name: str
    price: float
    swappable: bool | None = strawberry.UNSET


@strawberry.input
class CreateTimeslotInput:
    event_id: strawberry.ID
    title: str
    starts_at: datetime
    ends_at: datetime
    total_available: int
    ticket_type_ids: list[strawberry.ID] | None = strawberry.UNSET


@strawberry.input
class MetadataFieldInput:
    key: str
    name: str
    value: str


@strawberry.input(description="One ticket of a new order; the owner defaults to the buyer.")
class OrderTicketInput:
    ticket_type_id: strawberry.ID
    owner_name: str | None = strawberry.UNSET
    owner_email: str | None = strawberry.UNSET
    seat: str | None = strawberry.UNSET
    metadata: JSON | None = strawberry.UNSET
    metadata_fields: list[MetadataFieldInput] | None = strawberry.UNSET


@strawberry.input(
    description="`channel`: online, box_office, reseller or api. `paymentMethod`: card, ideal, "
    "paypal, bank_transfer, cash, invoice or free."
)
class PlaceOrderInput:
    event_id: strawberry.ID
    event_timeslot_id: strawberry.ID
    buyer_name: str
    buyer_email: str
    channel: str
    payment_method: str
    tickets: list[OrderTicketInput]


@strawberry.input
class OrderIdInput:
    id: strawberry.ID


@strawberry.input
class RefundOrderInput:
    id: strawberry.ID
    amount: float


@strawberry.input
class TicketIdInput:
    id: strawberry.ID


@strawberry.input
class CreateScannerInput:
    name: str
    active: bool | None = strawberry.UNSET
    profile_id: strawberry.ID | None = strawberry.UNSET


@strawberry.input(description="Only the fields sent are changed; `profileId: null` detaches.")
class UpdateScannerInput:
    id: strawberry.ID
    name: str | None = strawberry.UNSET
    active: bool | None = strawberry.UNSET
    profile_id: strawberry.ID | None = strawberry.UNSET


@strawberry.input(description="Empty target lists admit everything; null bounds do not restrict.")
class CreateScannerProfileInput:
    name: str
    event_ids: list[strawberry.ID] | None = strawberry.UNSET
    ticket_type_ids: list[strawberry.ID] | None = strawberry.UNSET
    timeslot_ids: list[strawberry.ID] | None = strawberry.UNSET
    opens_minutes_before_start: int | None = strawberry.UNSET
    closes_minutes_after_end: int | None = strawberry.UNSET
    valid_from: datetime | None = strawberry.UNSET
    valid_until: datetime | None = strawberry.UNSET


@strawberry.input(description="Only the fields sent are changed; a sent list replaces the old one.")
class UpdateScannerProfileInput:
    id: strawberry.ID
    name: str | None = strawberry.UNSET
    event_ids: list[strawberry.ID] | None = strawberry.UNSET
    ticket_type_ids: list[strawberry.ID] | None = strawberry.UNSET
    timeslot_ids: list[strawberry.ID] | None = strawberry.UNSET
    opens_minutes_before_start: int | None = strawberry.UNSET
    closes_minutes_after_end: int | None = strawberry.UNSET
    valid_from: datetime | None = strawberry.UNSET
    valid_until: datetime | None = strawberry.UNSET
