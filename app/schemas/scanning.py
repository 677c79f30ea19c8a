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
    "not_inside",
    "already_inside",
]
Direction = Literal["entry", "exit"]
EntryPolicy = Literal["single", "reentry", "multiple"]
BatchScanStatus = Literal["valid", "scanned", "cancelled", "not_allowed", "not_found"]
MAX_CODE_LENGTH = 64
ScannableCode = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_CODE_LENGTH, pattern=NO_NUL)
]
SIGNED_CODE_LENGTH = 186
SignedCode = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=SIGNED_CODE_LENGTH,
        pattern=NO_NUL,
        description="The ticket's signed code (`T1.` and 183 characters, docs/signed-codes.md): "
        "its signature is checked first; a bad one is not found.",
    ),
]
MAX_NONCE_LENGTH = 64
Nonce = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_NONCE_LENGTH,
        pattern=NO_NUL,
        description="The device's id of this attempt, unique per organization: a repeated "
        "nonce answers the first result again and records nothing new.",
    ),
]
ScannedAt = Annotated[
    datetime,
    msgspec.Meta(
        description="When the device scanned (RFC 3339 with an offset); default now, at most 5 "
        "minutes in the future. Windows and validity are decided at this moment."
    ),
]
ScanDirection = Annotated[
    Direction,
    msgspec.Meta(
        description="entry (default) or exit: an exit of a ticket inside lets it out (CONTRACT.md "
        "section 17)."
    ),
]
MAX_BATCH_SCANS = 500


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
    direction: Direction
    inside: bool
    """The ticket's presence after the scan."""


class BatchScanResult(msgspec.Struct):
    """One item's answer in ``POST /scans/batch``: the Scan result plus the item's ``nonce``.
    An unknown ticket is ``status: not_found`` with every ticket field null."""

    nonce: str
    status: BatchScanStatus
    ticket_id: UUID | None
    scanned_before: bool
    event: ScanEvent | None
    timeslot: ScanTimeslot | None
    ticket_type: ScanTicketType | None
    owner_name: str | None
    owner_email: str | None
    seat: str | None
    scanned_at: datetime | None
    cancelled_at: datetime | None
    related_tickets: list[RelatedTicket] | None
    reason: ScanReason | None
    direction: Direction
    inside: bool | None
    """The ticket's presence after the scan; null when not found."""


class BatchScanResults(msgspec.Struct):
    """The answer of ``POST /scans/batch``, in the order of the request's ``scans``."""

    results: list[BatchScanResult]


class TicketScan(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /tickets/{ticket_id}/scan``; no scanner means the first active one."""

    scanner_id: UUID | None = None
    nonce: Nonce | None = None
    scanned_at: ScannedAt | None = None
    direction: ScanDirection = "entry"


class CodeScan(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /scans``: the code a door app reads from the ticket, by exactly one of
    ``scannable_code`` and ``signed_code``."""

    scannable_code: ScannableCode | None = None
    signed_code: SignedCode | None = None
    scanner_id: UUID | None = None
    nonce: Nonce | None = None
    scanned_at: ScannedAt | None = None
    direction: ScanDirection = "entry"


class BatchScanItem(msgspec.Struct, forbid_unknown_fields=True):
    """One scan of a batch: the ticket by exactly one of ``ticket_id``, ``scannable_code`` and
    ``signed_code``."""

    nonce: Nonce
    ticket_id: UUID | None = None
    scannable_code: ScannableCode | None = None
    signed_code: SignedCode | None = None
    scanned_at: ScannedAt | None = None
    direction: ScanDirection = "entry"


class BatchScan(msgspec.Struct, forbid_unknown_fields=True):
    """Body of ``POST /scans/batch``: what a door device recorded while offline."""

    scans: Annotated[list[BatchScanItem], msgspec.Meta(min_length=1, max_length=MAX_BATCH_SCANS)]
    scanner_id: UUID | None = None


class ScanLogEntry(msgspec.Struct):
    """One scan attempt as the scan log keeps it: ``scanned_at`` is when the device scanned (the
    moment decided at), ``received_at`` (and ``created_at``) when the server received it."""

    id: UUID
    ticket_id: UUID
    scanner_id: UUID
    status: ScanStatus
    reason: ScanReason | None
    nonce: str | None
    scanned_at: datetime
    received_at: datetime
    created_at: datetime
    direction: Direction


class ScanNotice(msgspec.Struct):
    """A scan attempt as live subscribers see it (CONTRACT.md section 12): every outcome, once
    its transaction committed; ``scanned_at`` is the moment of the attempt (the device's)."""

    ticket_id: UUID
    event_id: UUID
    scanner_id: UUID
    status: ScanStatus
    reason: ScanReason | None
    scanned_at: datetime
    direction: Direction
