"""Records and inputs of orders (spec table plus ``status``; CONTRACT.md section 4)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from app.money import Amount
from app.schemas.text import NO_NUL

Channel = Literal["online", "box_office", "reseller", "api"]
PaymentMethod = Literal["card", "ideal", "paypal", "bank_transfer", "cash", "invoice", "free"]
OrderStatus = Literal["pending", "confirmed", "cancelled"]

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=NO_NUL)]
Email = Annotated[str, msgspec.Meta(min_length=3, max_length=320, pattern=NO_NUL)]
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
    metadata: dict[str, Any] = {}
    metadata_fields: list[MetadataFieldInput] = []

    def __post_init__(self) -> None:
        check_metadata(self.metadata)


class OrderCreate(msgspec.Struct, forbid_unknown_fields=True):
    event_id: UUID
    event_timeslot_id: UUID
    buyer_name: Name
    buyer_email: Email
    channel: Channel
    payment_method: PaymentMethod
    tickets: Annotated[
        list[TicketInput], msgspec.Meta(min_length=1, max_length=MAX_TICKETS_PER_ORDER)
    ]


class RefundCreate(msgspec.Struct, forbid_unknown_fields=True):
    amount: Amount
