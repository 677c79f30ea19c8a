"""The Scan result (the spec's table plus ``reason``) and the scan inputs (CONTRACT.md section 5).

Every field is always present; nullable ones are sent as ``null``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from app.schemas.text import NO_NUL

ScanStatus = Literal["valid", "scanned", "cancelled", "not_allowed"]
ScanReason = Literal[
    "scanner_inactive",
    "event_not_allowed",
    "ticket_type_not_allowed",
    "timeslot_not_allowed",
    "too_early",
    "too_late",
    "order_not_confirmed",
    "cancelled",
    "already_scanned",
]
MAX_CODE_LENGTH = 64
ScannableCode = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_CODE_LENGTH, pattern=NO_NUL)
]


class ScanEvent(msgspec.Struct):
    id: UUID
    title: str
    location: str | None


class ScanTimeslot(msgspec.Struct):
    title: str | None
    starts_at: datetime | None
    ends_at: datetime | None


class ScanTicketType(msgspec.Struct):
    id: UUID
    name: str
    price: float


class RelatedTicket(msgspec.Struct):
    id: UUID
    seat: str | None
    owner_name: str
    owner_email: str
    scanned_at: datetime | None
    cancelled_at: datetime | None
    ticket_type_name: str


class ScanResult(msgspec.Struct):
    ticket_id: UUID
    status: ScanStatus
    scanned_before: bool
    event: ScanEvent
    timeslot: ScanTimeslot
    ticket_type: ScanTicketType
    owner_name: str
    owner_email: str
    seat: str | None
    scanned_at: datetime | None
    cancelled_at: datetime | None
    related_tickets: list[RelatedTicket] | None
    reason: ScanReason | None


class TicketScan(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /tickets/{ticket_id}/scan``; no scanner means the first active one."""

    scanner_id: UUID | None = None


class CodeScan(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /scans``: the code a door app reads from the ticket."""

    scannable_code: ScannableCode
    scanner_id: UUID | None = None


class ScanLogEntry(msgspec.Struct):
    """One scan attempt as the scan log keeps it; ``created_at`` is the moment of the scan."""

    id: UUID
    ticket_id: UUID
    scanner_id: UUID
    status: ScanStatus
    reason: ScanReason | None
    created_at: datetime


class ScanNotice(msgspec.Struct):
    """A scan attempt as live subscribers see it (CONTRACT.md section 12): every outcome, once
    its transaction committed; ``scanned_at`` is the moment of the attempt."""

    ticket_id: UUID
    event_id: UUID
    scanner_id: UUID
    status: ScanStatus
    reason: ScanReason | None
    scanned_at: datetime
