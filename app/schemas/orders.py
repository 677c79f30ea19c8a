"""Records and inputs of orders (spec table plus ``status``; CONTRACT.md section 4)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from app.money import PositiveAmount
from app.schemas.text import EMAIL, NO_NUL

Channel = Literal["online", "box_office", "reseller", "api"]
PaymentMethod = Literal["card", "ideal", "paypal", "bank_transfer", "cash", "invoice", "free"]
OrderStatus = Literal["pending", "confirmed", "cancelled"]

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=NO_NUL)]
Email = Annotated[str, msgspec.Meta(min_length=3, max_length=320, pattern=EMAIL)]
MAX_TICKETS_PER_ORDER = 100


class Order(msgspec.Struct):
    id: UUID
    event_id: UUID
    event_timeslot_id: UUID
    buyer_name: str
    buyer_email: str
    channel: str
    payment_method: str
    total_price: float
    refunded: float
    payed_at: datetime | None
    created_at: datetime
    updated_at: datetime
    status: OrderStatus


MAX_METADATA_DEPTH = 32
METADATA_VALUE = "MetadataValue"
_METADATA_VALUE_REF = {"$ref": f"#/components/schemas/{METADATA_VALUE}"}
METADATA_VALUE_SCHEMA: dict[str, Any] = {
    "description": f"Any JSON value without U+0000 in a key or string, up to "
    f"{MAX_METADATA_DEPTH} levels deep",
}
"""The OpenAPI schema of a metadata value: what :func:`check_metadata` enforces, in words. Any
JSON value as far as the schema goes: a schema of its nesting refers to itself through a union,
which SDK generators (openapi-python-client) cannot turn into types, so they dropped
``POST /orders`` altogether (docs/decisions.md, "Names in the OpenAPI document")."""
Metadata = Annotated[
    dict[str, Any],
    msgspec.Meta(
        extra_json_schema={
            "extra": {
                "property_names": {"pattern": NO_NUL},
                "additional_properties": _METADATA_VALUE_REF,
            }
        }
    ),
]


def check_metadata(metadata: dict[str, Any]) -> None:
    """Ticket metadata is free JSON, so its rules are checked by walking it (without recursion):
    no U+0000 in any key or string (PostgreSQL text cannot hold it) and at most
    ``MAX_METADATA_DEPTH`` levels of nesting."""
    pending: list[tuple[Any, int]] = [(metadata, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_METADATA_DEPTH:
            raise ValueError(f"metadata may nest at most {MAX_METADATA_DEPTH} levels")
        if isinstance(value, str) and "\x00" in value:
            raise ValueError("metadata must not contain U+0000")
        if isinstance(value, dict):
            pending += [(key, depth) for key in value]
            pending += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            pending += [(item, depth + 1) for item in value]


OrderChangeType = Literal["CREATED", "CONFIRMED", "CANCELLED"]


class OrderChange(msgspec.Struct):
    """An order as live subscribers see it (CONTRACT.md section 12), once its change committed."""

    type: OrderChangeType
    order: Order


class MetadataFieldInput(msgspec.Struct, forbid_unknown_fields=True):
    key: Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=NO_NUL)]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=NO_NUL)]
    value: Annotated[str, msgspec.Meta(max_length=2000, pattern=NO_NUL)]


class TicketInput(msgspec.Struct, forbid_unknown_fields=True):
    """One ticket of a new order; the owner defaults to the buyer."""

    ticket_type_id: UUID
    owner_name: Name | None = None
    owner_email: Email | None = None
    seat: Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=NO_NUL)] | None = None
    metadata: Metadata = {}
    metadata_fields: list[MetadataFieldInput] = []

    def __post_init__(self) -> None:
        check_metadata(self.metadata)


class OrderCreate(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An order outright (``event_id``, ``event_timeslot_id`` and 1 or more ``tickets``) or
    from a hold (``hold_id``; ``tickets`` left out, or naming exactly the held ticket types with
    their owners and metadata)."""

    event_id: UUID | None = None
    event_timeslot_id: UUID | None = None
    buyer_name: Name
    buyer_email: Email
    channel: Channel
    payment_method: PaymentMethod
    tickets: Annotated[list[TicketInput], msgspec.Meta(max_length=MAX_TICKETS_PER_ORDER)] = []
    hold_id: UUID | None = None


class RefundCreate(msgspec.Struct, forbid_unknown_fields=True):
    amount: PositiveAmount
