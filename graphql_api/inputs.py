"""Input objects of the write mutations, converted into the services' msgspec input structs.

The conversion is the strict one REST bodies get (``app.schemas.decoding``), so a GraphQL input
is held to exactly the bounds of the REST body (lengths, enums, ranges, metadata rules) and fails
with the same BAD_USER_INPUT field errors. Fields left out stay unset, which is what gives the
update mutations their PATCH semantics.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

import msgspec
import strawberry

from app.schemas.decoding import convert
from app.schemas.events import (
    EventCreate,
    EventUpdate,
    TicketTypeCreate,
    TicketTypeUpdate,
    TimeslotCreate,
    TimeslotUpdate,
)
from app.schemas.holds import HeldTicket, HoldCreate
from app.schemas.orders import OrderCreate, RefundCreate, TicketInput
from app.schemas.scanners import (
    ScannerCreate,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.schemas.scanning import BatchScan, BatchScanItem
from app.schemas.webhooks import WebhookUpdate
from graphql_api.derive import INPUT_OF, input_class

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


def body_of(value: Any) -> Any:
    """The service input Struct that ``value``'s class (an ``input_class``) was made from, built
    from its fields but the ones the class declares itself (the ids a resolver reads by name)."""
    struct, own = getattr(type(value), INPUT_OF)
    return to_struct(value, struct, exclude=own)


@input_class(EventCreate)
class CreateEventInput:
    pass


@input_class(
    EventUpdate, description="Only the fields sent are changed; null clears a nullable field."
)
class UpdateEventInput:
    id: strawberry.ID


@input_class(TicketTypeCreate)
class CreateTicketTypeInput:
    event_id: strawberry.ID


@input_class(
    TicketTypeUpdate,
    description="Only the fields sent are changed. A new `price` applies to later orders; a new "
    "`swappable` also to the ticket type's tickets that are not cancelled.",
)
class UpdateTicketTypeInput:
    id: strawberry.ID


@input_class(TimeslotCreate)
class CreateTimeslotInput:
    event_id: strawberry.ID


@input_class(
    TimeslotUpdate,
    description="Only the fields sent are changed; a sent `ticketTypeIds` replaces the list. "
    "`totalAvailable` may not go below the tickets sold (CONFLICT).",
)
class UpdateTimeslotInput:
    id: strawberry.ID


@input_class(TicketInput, description="One ticket of a new order; the owner defaults to the buyer.")
class OrderTicketInput:
    pass


@input_class(
    OrderCreate,
    description="`channel`: online, box_office, reseller or api. `paymentMethod`: card, ideal, "
    "paypal, bank_transfer, cash, invoice or free. Outright: `eventId`, `eventTimeslotId` and 1 "
    "or more `tickets`. From a hold: `holdId`, and `tickets` left out or naming exactly the held "
    "ticket types (with owners and metadata).",
)
class PlaceOrderInput:
    pass


@input_class(HeldTicket, description="One place.")
class HeldTicketInput:
    pass


@input_class(
    HoldCreate,
    description="1 to 50 places of one timeslot; `ttlSeconds` 60 to 1800 (default 600).",
)
class CreateHoldInput:
    pass


@input_class(RefundCreate)
class RefundOrderInput:
    id: strawberry.ID


@input_class(ScannerCreate)
class CreateScannerInput:
    pass


@input_class(
    ScannerUpdate, description="Only the fields sent are changed; `profileId: null` detaches."
)
class UpdateScannerInput:
    id: strawberry.ID


@input_class(
    ScannerProfileCreate,
    description="Empty target lists admit everything; null bounds do not restrict.",
)
class CreateScannerProfileInput:
    pass


@input_class(
    ScannerProfileUpdate,
    description="Only the fields sent are changed; a sent list replaces the old one.",
)
class UpdateScannerProfileInput:
    id: strawberry.ID


@input_class(
    BatchScanItem,
    description="One recorded scan: the ticket by exactly one of `ticketId`, "
    "`scannableCode` and `signedCode` (a bad signature: `not_found`), its `nonce` (1 to 64 "
    "characters, unique per organization) and when the "
    "device scanned (`scannedAt`, default now, at most 5 minutes in the future).",
)
class ScanTicketsItemInput:
    pass


@input_class(
    BatchScan,
    description="1 to 500 scans recorded by a door device; without `scannerId` the "
    "organization's oldest active scanner.",
)
class ScanTicketsInput:
    pass


@input_class(
    WebhookUpdate,
    description="Only the fields sent are changed; `active: true` re-enables a subscription "
    "that a 410 answer disabled.",
)
class UpdateWebhookInput:
    id: strawberry.ID


@strawberry.input
class OrderIdInput:
    id: strawberry.ID


@strawberry.input
class TicketIdInput:
    id: strawberry.ID


@strawberry.input
class TicketTypeIdInput:
    id: strawberry.ID


@strawberry.input
class TimeslotIdInput:
    id: strawberry.ID
