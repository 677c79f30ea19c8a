"""GraphQL types of scanners, scanner profiles and the scan result (app/schemas/scanners.py,
app/schemas/scanning.py), each mapped once from its record."""

from __future__ import annotations

from datetime import datetime

import strawberry

from app.ids import parse_id
from app.schemas import scanners as scanner_records
from app.schemas import scanning as scan_records
from graphql_api.context import Info, loaders_of


def _ids(values: list[object]) -> list[strawberry.ID]:
    return [strawberry.ID(str(value)) for value in values]


@strawberry.type(
    description="Empty target lists admit everything; null window bounds do not restrict. "
    "The relative window is measured from the ticket's timeslot."
)
class ScannerProfile:
    id: strawberry.ID
    name: str
    event_ids: list[strawberry.ID]
    ticket_type_ids: list[strawberry.ID]
    timeslot_ids: list[strawberry.ID]
    opens_minutes_before_start: int | None
    closes_minutes_after_end: int | None
    valid_from: datetime | None
    valid_until: datetime | None

    @classmethod
    def from_record(cls, record: scanner_records.ScannerProfile) -> ScannerProfile:
        return cls(
            id=strawberry.ID(str(record.id)),
            name=record.name,
            event_ids=_ids(list(record.event_ids)),
            ticket_type_ids=_ids(list(record.ticket_type_ids)),
            timeslot_ids=_ids(list(record.timeslot_ids)),
            opens_minutes_before_start=record.opens_minutes_before_start,
            closes_minutes_after_end=record.closes_minutes_after_end,
            valid_from=record.valid_from,
            valid_until=record.valid_until,
        )


@strawberry.type(description="A scanner without a profile admits every ticket at any time.")
class Scanner:
    id: strawberry.ID
    name: str
    active: bool
    profile_id: strawberry.ID | None
    created_at: datetime

    @classmethod
    def from_record(cls, record: scanner_records.Scanner) -> Scanner:
        return cls(
            id=strawberry.ID(str(record.id)),
            name=record.name,
            active=record.active,
            profile_id=None if record.profile_id is None else strawberry.ID(str(record.profile_id)),
            created_at=record.created_at,
        )

    @strawberry.field(description="Scope scanners.read. Null when the scanner has no profile.")
    async def profile(self, info: Info) -> ScannerProfile | None:
        if self.profile_id is None:
            return None
        record = await loaders_of(info).scanner_profile.load(parse_id(self.profile_id, "id"))
        return ScannerProfile.from_record(record)


@strawberry.type
class ScanEvent:
    id: strawberry.ID
    title: str
    location: str | None


@strawberry.type
class ScanTimeslot:
    title: str | None
    starts_at: datetime | None
    ends_at: datetime | None


@strawberry.type
class ScanTicketType:
    id: strawberry.ID
    name: str
    price: float


@strawberry.type
class RelatedTicket:
    id: strawberry.ID
    seat: str | None
    owner_name: str
    owner_email: str
    scanned_at: datetime | None
    cancelled_at: datetime | None
    ticket_type_name: str


@strawberry.type(
    description="`status`: valid, scanned, cancelled or not_allowed. `reason` (null when valid): "
    "scanner_inactive, event_not_allowed, ticket_type_not_allowed, timeslot_not_allowed, "
    "too_early, too_late, order_not_confirmed, cancelled, already_scanned. `relatedTickets` is "
    "null unless the event has order scanning enabled."
)
class ScanResult:
    ticket_id: strawberry.ID
    status: str
    reason: str | None
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

    @classmethod
    def from_record(cls, record: scan_records.ScanResult) -> ScanResult:
        related = record.related_tickets
        return cls(
            ticket_id=strawberry.ID(str(record.ticket_id)),
            status=record.status,
            reason=record.reason,
            scanned_before=record.scanned_before,
            event=ScanEvent(
                id=strawberry.ID(str(record.event.id)),
                title=record.event.title,
                location=record.event.location,
            ),
            timeslot=ScanTimeslot(
                title=record.timeslot.title,
                starts_at=record.timeslot.starts_at,
                ends_at=record.timeslot.ends_at,
            ),
            ticket_type=ScanTicketType(
                id=strawberry.ID(str(record.ticket_type.id)),
                name=record.ticket_type.name,
                price=record.ticket_type.price,
            ),
            owner_name=record.owner_name,
            owner_email=record.owner_email,
            seat=record.seat,
            scanned_at=record.scanned_at,
            cancelled_at=record.cancelled_at,
            related_tickets=None
            if related is None
            else [
                RelatedTicket(
                    id=strawberry.ID(str(ticket.id)),
                    seat=ticket.seat,
                    owner_name=ticket.owner_name,
                    owner_email=ticket.owner_email,
                    scanned_at=ticket.scanned_at,
                    cancelled_at=ticket.cancelled_at,
                    ticket_type_name=ticket.ticket_type_name,
                )
                for ticket in related
            ],
        )
