"""The Ticket record (the spec's ticket list item)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

TicketStatus = Literal["valid", "scanned", "cancelled"]


class MetadataField(msgspec.Struct):
    id: UUID
    key: str
    name: str
    value: str


class Ticket(msgspec.Struct):
    id: UUID
    scannable_code: str
    signed_code: str
    """``T1.`` and 183 characters: the code a door verifies offline with the event's keys
    (CONTRACT.md section 17, docs/signed-codes.md)."""
    event_timeslot_id: UUID
    ticket_type_id: UUID
    order_id: UUID
    owner_name: str
    owner_email: str
    seat: str | None
    sequence: int
    scanned_at: datetime | None
    status: TicketStatus
    cancelled_at: datetime | None
    swappable: bool
    created_at: datetime
    updated_at: datetime
    metadata: dict[str, Any]
    metadata_fields: list[MetadataField]
