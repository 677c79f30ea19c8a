"""Door scanning: the decision order of CONTRACT.md section 5, the scan log and ``ticket.scanned``.

A scan is one transaction on one connection, with a fixed number of statements whatever the size
of the order: the scanner joined with its profile (plus the profile's targets when it has one),
the ticket joined with its order, event, timeslot and ticket type, the related tickets in one
query when the event wants them, and the writes. (Statements outside a transaction would each
take a pooled connection of their own.) Admission is one conditional UPDATE
(``status = 'valid'`` in its WHERE) in the transaction that also writes the scan log and the
outbox row, so among any number of simultaneous scans of a ticket, on any number of replicas,
exactly one becomes ``valid``; the others block on the row until the winner commits, find it
changed, and report ``scanned`` with the winner's ``scanned_at``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.money import as_number
from app.observability import count_scan
from app.principal import Principal, requires
from app.records import mapper
from app.resources import Parent, Resource
from app.schemas.scanning import (
    MAX_CODE_LENGTH,
    RelatedTicket,
    ScanEvent,
    ScanLogEntry,
    ScanNotice,
    ScanReason,
    ScanResult,
    ScanStatus,
    ScanTicketType,
    ScanTimeslot,
)
from app.services import live
from app.services.outbox import record_event
from app.services.scanners import targets_of
from app.timeutil import as_utc, utcnow
from db.tables import Scan, Scanner, Ticket
from db.transactions import transaction

Outcome = tuple[ScanStatus, ScanReason | None]

SCAN_LOG = Resource(
    table=Scan,
    record=ScanLogEntry,
    kind="scan",
    scope="tickets.read",
    parents={"ticket_id": Parent("ticket_id", Ticket, "ticket")},
)
"""The scan log, listed per ticket: every attempt that reached it, whatever its outcome."""

# The statements of a scan are fixed SQL (plain enough for PostgreSQL and SQLite alike): building
# them with Piccolo's query builder costs up to 1 ms of CPU each, on every scan.
_SCANNER_COLUMNS = """
    SELECT c.id, c.active, c.profile_id, p.opens_minutes_before_start,
           p.closes_minutes_after_end, p.valid_from, p.valid_until
    FROM scanners c LEFT JOIN scanner_profiles p ON p.id = c.profile_id
    WHERE c.organization_id = {}"""
SCANNER_BY_ID = _SCANNER_COLUMNS + " AND c.id = {}"
FIRST_ACTIVE_SCANNER = _SCANNER_COLUMNS + " AND c.active ORDER BY c.created_at, c.id LIMIT 1"
_TICKET_COLUMNS = """
    SELECT t.id, t.event_id, t.event_timeslot_id, t.ticket_type_id, t.order_id, t.owner_name,
           t.owner_email, t.seat, t.status, t.scanned_at, t.cancelled_at,
           o.status AS order_status, e.title AS event_title, e.location AS event_location,
           e.order_scanning_enabled, s.title AS timeslot_title,
           s.starts_at AS timeslot_starts_at, s.ends_at AS timeslot_ends_at,
           y.name AS ticket_type_name, y.price AS ticket_type_price
    FROM tickets t
    JOIN orders o ON o.id = t.order_id
    JOIN events e ON e.id = t.event_id
    JOIN timeslots s ON s.id = t.event_timeslot_id
    JOIN ticket_types y ON y.id = t.ticket_type_id
    WHERE t.organization_id = {}"""
TICKET_BY_ID = _TICKET_COLUMNS + " AND t.id = {}"
TICKET_BY_CODE = _TICKET_COLUMNS + " AND t.scannable_code = {}"
ADMIT = """
    UPDATE tickets SET status = 'scanned', scanned_at = {}, updated_at = {}
    WHERE id = {} AND status = 'valid' RETURNING id"""
LOG_ATTEMPT = """
    INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, reason, created_at)
    VALUES ({}, {}, {}, {}, {}, {}, {})"""
RELATED_TICKETS = """
    SELECT t.id, t.seat, t.owner_name, t.owner_email, t.scanned_at, t.cancelled_at,
           y.name AS ticket_type_name
    FROM tickets t JOIN ticket_types y ON y.id = t.ticket_type_id
    WHERE t.organization_id = {} AND t.order_id = {} AND t.id <> {}
    ORDER BY t.sequence"""


@dataclass(frozen=True, slots=True)
class ScannerRules:
    """A scanner and what its profile allows; ``None`` sets and bounds do not restrict."""

    id: UUID
    active: bool
    event_ids: frozenset[UUID] | None = None
    ticket_type_ids: frozenset[UUID] | None = None
    timeslot_ids: frozenset[UUID] | None = None
    opens_minutes_before_start: int | None = None
    closes_minutes_after_end: int | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class TicketState:
    """The scanned ticket with what the decision and the result need from its related rows."""

    id: UUID
    event_id: UUID
    timeslot_id: UUID
    ticket_type_id: UUID
    order_id: UUID
    status: str
    scanned_at: datetime | None
    cancelled_at: datetime | None
    order_status: str
    starts_at: datetime
    ends_at: datetime
    row: dict[str, Any]


def decide(scanner: ScannerRules, ticket: TicketState, now: datetime) -> Outcome:
    """Steps 3 to 7 of the decision order (the scanner and the ticket are known)."""
    if not scanner.active:
        return "not_allowed", "scanner_inactive"
    if scanner.event_ids is not None and ticket.event_id not in scanner.event_ids:
        return "not_allowed", "event_not_allowed"
    if scanner.ticket_type_ids is not None and ticket.ticket_type_id not in scanner.ticket_type_ids:
        return "not_allowed", "ticket_type_not_allowed"
    if scanner.timeslot_ids is not None and ticket.timeslot_id not in scanner.timeslot_ids:
        return "not_allowed", "timeslot_not_allowed"
    opens = scanner.opens_minutes_before_start
    if opens is not None and now < ticket.starts_at - timedelta(minutes=opens):
        return "not_allowed", "too_early"
    closes = scanner.closes_minutes_after_end
    if closes is not None and now > ticket.ends_at + timedelta(minutes=closes):
        return "not_allowed", "too_late"
    if scanner.valid_from is not None and now < scanner.valid_from:
        return "not_allowed", "too_early"
    if scanner.valid_until is not None and now > scanner.valid_until:
        return "not_allowed", "too_late"
    if ticket.status == "cancelled" or ticket.order_status == "cancelled":
        return "cancelled", "cancelled"
    if ticket.order_status == "pending":
        return "not_allowed", "order_not_confirmed"
    if ticket.status == "scanned":
        return "scanned", "already_scanned"
    return "valid", None


@requires("tickets.write")
async def scan_ticket(
    principal: Principal,
    *,
    ticket_id: UUID | None = None,
    scannable_code: str | None = None,
    scanner_id: UUID | None = None,
    now: datetime | None = None,
) -> ScanResult:
    """Scan the ticket named by exactly one of ``ticket_id`` and ``scannable_code``.

    ``now`` is the moment of the scan (tests pin it to probe the window edges).
    """
    _check_target(ticket_id, scannable_code)
    now = utcnow() if now is None else as_utc(now)
    organization_id = principal.organization_id
    async with transaction():
        scanner = await _scanner(organization_id, scanner_id)
        ticket = await _ticket(organization_id, ticket_id, scannable_code)
        scanned_before = ticket.scanned_at is not None
        status, reason = decide(scanner, ticket, now)
        if status == "valid":
            admitted = await _admit(organization_id, ticket, scanner.id, now)
            if admitted is None:
                ticket = await _lost_race(ticket)
                scanned_before = ticket.scanned_at is not None
                status, reason = decide(scanner, ticket, now)
            else:
                ticket = admitted
        await _log(organization_id, ticket.id, scanner.id, status, reason, now)
        result = await _result(organization_id, ticket, status, reason, scanned_before)
        notice = ScanNotice(ticket.id, ticket.event_id, scanner.id, status, reason, now)
        await live.publish_after_commit(organization_id, "scans", ticket.event_id, notice)
    count_scan(status, reason)
    return result


@requires("tickets.read")
async def watch_scans(
    principal: Principal,
    event_id: UUID | None = None,
    on_overflow: Callable[[], None] | None = None,
) -> live.Feed:
    """The organization's scan attempts (of one event, when named) as they commit: a feed of
    :class:`ScanNotice` (see ``app.services.live`` for its bound and ``on_overflow``)."""
    return await live.watch(principal, "scans", event_id, on_overflow)


async def _admit(
    organization_id: UUID, ticket: TicketState, scanner_id: UUID, now: datetime
) -> TicketState | None:
    """Step 7: the conditional UPDATE; ``None`` when a concurrent change got there first."""
    if not await Ticket.raw(ADMIT, now, utcnow(), ticket.id):
        return None
    await record_event(
        organization_id,
        "ticket.scanned",
        {
            "ticket_id": ticket.id,
            "order_id": ticket.order_id,
            "event_id": ticket.event_id,
            "scanner_id": scanner_id,
            "scanned_at": now,
        },
    )
    return replace(ticket, status="scanned", scanned_at=now)


def _check_target(ticket_id: UUID | None, scannable_code: str | None) -> None:
    if (ticket_id is None) == (scannable_code is None):
        raise InvalidInput("Name the ticket by exactly one of ticket_id and scannable_code")
    if scannable_code is None:
        return
    if not 1 <= len(scannable_code) <= MAX_CODE_LENGTH:
        raise InvalidInput.field(
            "scannable_code", f"must be 1 to {MAX_CODE_LENGTH} characters long"
        )
    if "\x00" in scannable_code:
        raise InvalidInput.field("scannable_code", "must not contain U+0000")


async def _scanner(organization_id: UUID, scanner_id: UUID | None) -> ScannerRules:
    """Step 1: the named scanner (403 when not ours) or the oldest active one (409 when none)."""
    if scanner_id is not None:
        rows = await Scanner.raw(SCANNER_BY_ID, organization_id, scanner_id)
        if not rows:
            raise Forbidden(f"Scanner {scanner_id} does not belong to your organization")
    else:
        rows = await Scanner.raw(FIRST_ACTIVE_SCANNER, organization_id)
        if not rows:
            raise Conflict("The organization has no active scanner; create one with POST /scanners")
    row = rows[0]
    if row["profile_id"] is None:
        return ScannerRules(id=row["id"], active=row["active"])
    targets = (await targets_of([row["profile_id"]]))[row["profile_id"]]

    def allowed(field: str) -> frozenset[UUID] | None:
        return frozenset(targets[field]) if targets.get(field) else None

    return ScannerRules(
        id=row["id"],
        active=row["active"],
        event_ids=allowed("event_ids"),
        ticket_type_ids=allowed("ticket_type_ids"),
        timeslot_ids=allowed("timeslot_ids"),
        opens_minutes_before_start=row["opens_minutes_before_start"],
        closes_minutes_after_end=row["closes_minutes_after_end"],
        valid_from=row["valid_from"],
        valid_until=row["valid_until"],
    )


async def _ticket(
    organization_id: UUID, ticket_id: UUID | None, scannable_code: str | None
) -> TicketState:
    """Step 2: the ticket with its order, event, timeslot and ticket type, in one statement."""
    if ticket_id is not None:
        rows = await Ticket.raw(TICKET_BY_ID, organization_id, ticket_id)
    else:
        rows = await Ticket.raw(TICKET_BY_CODE, organization_id, scannable_code)
    row = rows[0] if rows else None
    if row is None:
        if ticket_id is not None:
            raise NotFound.resource("ticket", ticket_id)
        raise NotFound("No ticket with this scannable_code")
    return TicketState(
        id=row["id"],
        event_id=row["event_id"],
        timeslot_id=row["event_timeslot_id"],
        ticket_type_id=row["ticket_type_id"],
        order_id=row["order_id"],
        status=row["status"],
        scanned_at=row["scanned_at"],
        cancelled_at=row["cancelled_at"],
        order_status=row["order_status"],
        starts_at=row["timeslot_starts_at"],
        ends_at=row["timeslot_ends_at"],
        row=row,
    )


async def _lost_race(ticket: TicketState) -> TicketState:
    """The ticket as a concurrent change left it (another scan won, or it was cancelled)."""
    current = (
        await Ticket.select(Ticket.status, Ticket.scanned_at, Ticket.cancelled_at)
        .where(Ticket.id == ticket.id)
        .first()
    )
    if current is None:
        raise NotFound.resource("ticket", ticket.id)
    return replace(
        ticket,
        status=current["status"],
        scanned_at=current["scanned_at"],
        cancelled_at=current["cancelled_at"],
    )


async def _log(
    organization_id: UUID,
    ticket_id: UUID,
    scanner_id: UUID,
    status: ScanStatus,
    reason: ScanReason | None,
    now: datetime,
) -> None:
    await Scan.raw(
        LOG_ATTEMPT, uuid4(), organization_id, ticket_id, scanner_id, status, reason, now
    )


async def _related_tickets(organization_id: UUID, ticket: TicketState) -> list[RelatedTicket]:
    rows = await Ticket.raw(RELATED_TICKETS, organization_id, ticket.order_id, ticket.id)
    to_related = mapper(RelatedTicket)
    return [to_related(row) for row in rows]


async def _result(
    organization_id: UUID,
    ticket: TicketState,
    status: ScanStatus,
    reason: ScanReason | None,
    scanned_before: bool,
) -> ScanResult:
    row = ticket.row
    related = (
        await _related_tickets(organization_id, ticket) if row["order_scanning_enabled"] else None
    )
    return ScanResult(
        ticket_id=ticket.id,
        status=status,
        scanned_before=scanned_before,
        event=ScanEvent(
            id=ticket.event_id, title=row["event_title"], location=row["event_location"]
        ),
        timeslot=ScanTimeslot(
            title=row["timeslot_title"], starts_at=ticket.starts_at, ends_at=ticket.ends_at
        ),
        ticket_type=ScanTicketType(
            id=ticket.ticket_type_id,
            name=row["ticket_type_name"],
            price=as_number(row["ticket_type_price"]),
        ),
        owner_name=row["owner_name"],
        owner_email=row["owner_email"],
        seat=row["seat"],
        scanned_at=ticket.scanned_at,
        cancelled_at=ticket.cancelled_at,
        related_tickets=related,
        reason=reason,
    )
