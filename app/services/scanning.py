"""Door scanning: the decision order of CONTRACT.md section 5, offline and batch scanning
(section 11), the scan log and ``ticket.scanned``.

A single scan and a batch of 500 run the same code: load the scanner, load every named ticket in
one statement, :func:`plan` the attempts in Python (the decision, :func:`decide`, in one place),
then write them with a fixed number of set-based statements (``db/scans.py``) in one
transaction, whatever the number of attempts or the size of their orders:

1. **Claim**: the attempts go into the scan log in one INSERT; an attempt whose ``nonce`` the
   organization already used is not written (the unique index on ``(organization_id, nonce)``
   decides, also against a concurrent request, which it waits for). Such an attempt answers the
   first result again; the others are planned anew without it (one more read, only then).
2. **Admit**: one conditional UPDATE (``status = 'valid'`` in its WHERE) marks the admitted
   tickets scanned at their attempt's ``scanned_at``. Among any number of simultaneous scans of
   a ticket, on any number of replicas, exactly one becomes ``valid``: the others block on the
   row until the winner commits, find it changed, read the winner's state and are planned anew
   (two more statements, only then), and their log rows are corrected.
3. The outbox rows of the admissions (one INSERT, ``ticket.scanned``), the related tickets of the
   orders that want them (one SELECT), and after the commit the live notices.

Windows and validity are decided at the attempt's ``scanned_at`` (the device's clock, at most
:data:`FUTURE_TOLERANCE` ahead of the server's); the scan log keeps it beside ``received_at``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import msgspec

from app.errors import Conflict, FieldError, Forbidden, InvalidInput, NonceReused, NotFound
from app.money import as_number
from app.principal import Principal, requires
from app.records import mapper
from app.resources import Parent, Resource
from app.runtime import live
from app.runtime.observability import count_scan
from app.schemas.scanning import (
    MAX_BATCH_SCANS,
    MAX_CODE_LENGTH,
    MAX_NONCE_LENGTH,
    BatchScan,
    BatchScanResult,
    Direction,
    EntryPolicy,
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
from app.schemas.webhook_events import TicketScanned
from app.services import scan_keys
from app.services.lookup import owned_row
from app.services.outbox import notify_channel, outbox_rows, record_events, rows_written
from app.services.scanners import targets_of
from app.settings import get_settings
from app.timeutil import as_utc, require_offset, utcnow
from db import scans as statements
from db.tables import Event, Scan, Ticket
from db.transactions import in_transaction, transaction

logger = logging.getLogger("ticketing.scanning")
Outcome = tuple[ScanStatus, ScanReason | None]
Related = dict[UUID, list[RelatedTicket]]
"""Each order's tickets (order scanning), by order id."""
_to_related = mapper(RelatedTicket)

FUTURE_TOLERANCE = timedelta(minutes=5)
"""How far ahead of the server's clock a device's ``scanned_at`` may be (clock skew)."""

SCAN_LOG = Resource(
    table=Scan,
    record=ScanLogEntry,
    kind="scan",
    scope="tickets.read",
    parents={"ticket_id": Parent("ticket_id", Ticket, "ticket")},
)
"""The scan log, listed per ticket: every attempt that reached it, whatever its outcome."""


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
    entry_policy: EntryPolicy = "single"


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
    inside: bool = False
    presence_at: datetime | None = None
    """The ``scanned_at`` of the latest valid scan (presence is its direction)."""

    def after(self, attempt: Attempt) -> TicketState:
        """The ticket after a valid ``attempt``: admitted on its first entry; its presence the
        attempt's direction when the attempt is its latest valid scan by ``scanned_at``."""
        entry = attempt.direction == "entry"
        admitted = entry and self.status == "valid"
        latest = self.presence_at is None or attempt.scanned_at > self.presence_at
        if not (admitted or latest):
            return self
        return replace(  # one copy: ``replace`` costs more than the decision
            self,
            status="scanned" if admitted else self.status,
            scanned_at=attempt.scanned_at if admitted else self.scanned_at,
            inside=entry if latest else self.inside,
            presence_at=attempt.scanned_at if latest else self.presence_at,
        )


@dataclass(frozen=True, slots=True)
class Attempt:
    """One scan to run: the ticket it names (by exactly one of id and code), its nonce, when the
    device scanned, and its place in the request. A signed code names its ticket by the id in it
    (``ticket_id``, None when its signature did not hold) and keeps the code in ``signed_code``:
    the ticket is found only while that is still its code."""

    position: int
    ticket_id: UUID | None
    scannable_code: str | None
    nonce: str | None
    scanned_at: datetime
    direction: Direction = "entry"
    signed_code: str | None = None


@dataclass(frozen=True, slots=True)
class FirstAttempt:
    """What the scan log answered for a nonce the first time."""

    ticket_id: UUID
    status: ScanStatus
    reason: ScanReason | None
    result_scanned_at: datetime | None
    scanned_at: datetime
    direction: Direction
    inside: bool | None
    """The presence the first answer carried (None when logged before it was kept)."""

    @property
    def scanned_before(self) -> bool:
        """Whether the ticket had been admitted before this attempt: only a first admission
        carries the attempt's own moment as the ticket's ``scanned_at``."""
        if self.result_scanned_at is None:
            return False
        return not (
            self.status == "valid"
            and self.direction == "entry"
            and self.result_scanned_at == self.scanned_at
        )


@dataclass(frozen=True, slots=True)
class Answer:
    """The outcome of one attempt. ``ticket`` is None when no ticket has the id or code, else
    the ticket after the attempt (``before``: as the attempt found it); ``scanned_at`` is the
    result's (the ticket's admission time, when it has one); ``replayed`` when the nonce was
    used before (nothing is recorded for it)."""

    attempt: Attempt
    ticket: TicketState | None
    status: ScanStatus | None = None
    reason: ScanReason | None = None
    scanned_before: bool = False
    scanned_at: datetime | None = None
    replayed: bool = False
    before: TicketState | None = None

    @property
    def recorded(self) -> bool:
        """Whether this attempt is written to the scan log (it reached a ticket, and is new)."""
        return self.ticket is not None and not self.replayed


@dataclass(slots=True)
class Tickets:
    """The tickets an operation named, by id and by code, as they were before it."""

    by_id: dict[UUID, TicketState]
    by_code: dict[str, TicketState]

    @classmethod
    def of(cls, rows: Sequence[dict[str, Any]]) -> Tickets:
        found = cls({}, {})
        found.add(rows)
        return found

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        for row in rows:
            ticket = _ticket_state(row)
            self.by_id[ticket.id] = ticket
            self.by_code[row["scannable_code"]] = ticket

    def find(self, attempt: Attempt) -> TicketState | None:
        if attempt.signed_code is not None:
            found = self.by_id.get(attempt.ticket_id) if attempt.ticket_id else None
            return found if found and found.row["signed_code"] == attempt.signed_code else None
        if attempt.ticket_id is not None:
            return self.by_id.get(attempt.ticket_id)
        return self.by_code.get(attempt.scannable_code or "")

    def update(self, rows: Sequence[dict[str, Any]]) -> None:
        """Take the committed state of these tickets (a concurrent change got there first)."""
        for row in rows:
            ticket = self.by_id[row["id"]]
            changed = replace(
                ticket,
                status=row["status"],
                scanned_at=row["scanned_at"],
                cancelled_at=row["cancelled_at"],
                inside=row["inside"],
                presence_at=row["presence_at"],
            )
            self.by_id[ticket.id] = changed
            self.by_code[ticket.row["scannable_code"]] = changed


def decide(
    scanner: ScannerRules,
    ticket: TicketState,
    now: datetime,
    received_at: datetime | None = None,
    direction: Direction = "entry",
) -> Outcome:
    """Steps 3 to 7 of the decision order (the scanner and the ticket are known), at ``now``
    (the moment the device scanned). A profile past its validity when the scan arrives
    (``received_at``) refuses it whatever ``now`` (CONTRACT.md section 11).

    Section 17: an exit lets out a ticket that is inside (after the scanner's rules, before the
    ticket's: a ticket cancelled while its holder is inside may still leave, so the count of
    those inside stays true); an entry of a ticket admitted before follows the profile's
    ``entry_policy``."""
    arrived = now if received_at is None else received_at
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
    if scanner.valid_from is not None and min(now, arrived) < scanner.valid_from:
        return "not_allowed", "too_early"
    if scanner.valid_until is not None and max(now, arrived) > scanner.valid_until:
        return "not_allowed", "too_late"
    if direction == "exit":
        return ("valid", None) if ticket.inside else ("not_allowed", "not_inside")
    if ticket.status == "cancelled" or ticket.order_status == "cancelled":
        return "cancelled", "cancelled"
    if ticket.order_status == "pending":
        return "not_allowed", "order_not_confirmed"
    if ticket.status == "scanned":
        if scanner.entry_policy == "single":
            return "scanned", "already_scanned"
        if scanner.entry_policy == "reentry" and ticket.inside:
            return "scanned", "already_inside"
    return "valid", None


def plan(
    scanner: ScannerRules,
    attempts: Sequence[Attempt],
    tickets: Tickets,
    firsts: dict[str, FirstAttempt],
    received_at: datetime | None = None,
) -> dict[int, Answer]:
    """Every attempt's answer (by position), running them in order of ``scanned_at`` (ties: the
    request's order): an attempt sees what the earlier ones did to its ticket. A nonce in
    ``firsts`` (used by an earlier request), or already seen in this one, answers that first
    result again instead of running; used for another ticket, it is :class:`NonceReused`."""
    current = dict(tickets.by_id)
    seen: dict[str, Answer] = {}
    answers: dict[int, Answer] = {}
    for attempt in sorted(attempts, key=lambda item: (item.scanned_at, item.position)):
        nonce = attempt.nonce
        found = tickets.find(attempt)
        if nonce is not None and nonce in firsts:
            _same_ticket(attempt, found, firsts[nonce].ticket_id)
            answer = _replay(attempt, firsts[nonce], current)
        elif nonce is not None and nonce in seen:
            first = seen[nonce].ticket
            _same_ticket(attempt, found, first.id if first else None)
            first_attempt = replace(attempt, direction=seen[nonce].attempt.direction)
            answer = replace(seen[nonce], attempt=first_attempt, replayed=True)
        else:
            answer = _decide_attempt(scanner, attempt, found, current, received_at)
        if nonce is not None:
            seen.setdefault(nonce, answer)
        answers[attempt.position] = answer
    return answers


def _same_ticket(attempt: Attempt, found: TicketState | None, first: UUID | None) -> None:
    """A nonce answers again only for the ticket it was first used for."""
    if (found.id if found else None) != first:
        raise NonceReused(
            f"The nonce {attempt.nonce!r} was already used for another ticket; "
            "give each scan its own nonce"
        )


def _decide_attempt(
    scanner: ScannerRules,
    attempt: Attempt,
    found: TicketState | None,
    current: dict[UUID, TicketState],
    received_at: datetime | None = None,
) -> Answer:
    if found is None:
        return Answer(attempt, None)
    before = current[found.id]
    status, reason = decide(scanner, before, attempt.scanned_at, received_at, attempt.direction)
    ticket = before.after(attempt) if status == "valid" else before
    current[ticket.id] = ticket
    scanned_before = before.scanned_at is not None
    return Answer(attempt, ticket, status, reason, scanned_before, ticket.scanned_at, before=before)


def _replay(attempt: Attempt, first: FirstAttempt, current: dict[UUID, TicketState]) -> Answer:
    """The first result of a nonce: its status, reason, direction and ``scanned_at`` (and so
    whether the ticket had been scanned before it) and presence."""
    ticket = current[first.ticket_id]
    inside = ticket.inside if first.inside is None else first.inside
    return Answer(
        replace(attempt, direction=first.direction),
        replace(ticket, inside=inside),
        first.status,
        first.reason,
        first.scanned_before,
        first.result_scanned_at,
        replayed=True,
    )


@requires("tickets.write")
async def scan_ticket(
    principal: Principal,
    *,
    ticket_id: UUID | None = None,
    scannable_code: str | None = None,
    signed_code: str | None = None,
    scanner_id: UUID | None = None,
    nonce: str | None = None,
    scanned_at: datetime | None = None,
    direction: Direction = "entry",
    now: datetime | None = None,
    admit_in_sql: bool = True,
) -> ScanResult:
    """Scan the ticket named by exactly one of ``ticket_id``, ``scannable_code`` and
    ``signed_code``, as the device did at ``scanned_at`` (default: now), on its way in or out
    (``direction``). A ``nonce`` used before answers its first result again. A signed code's
    signature is checked before anything else (CONTRACT.md section 17): a bad one is a 404, as
    for an unknown ticket.

    ``now`` is the server's clock (tests pin it to probe the window edges). ``admit_in_sql``
    False: no scan is written or answered by the statement that reads (``db.scans.admit``);
    Python decides every scan after its read (a retry meets its used nonce in the write and
    runs in the transaction), which the parity test compares it with.
    """
    _check_target(ticket_id, scannable_code, "", signed_code)
    _check_nonce(nonce, "nonce")
    received_at = utcnow() if now is None else as_utc(now)
    at = _scanned_at(scanned_at, received_at, "scanned_at")
    organization_id = principal.organization_id
    if signed_code is not None:
        ticket_id = await scan_keys.verified_ticket(organization_id, signed_code)
        if ticket_id is None:
            raise NotFound("No ticket with this signed_code")
    attempt = Attempt(0, ticket_id, scannable_code, nonce, at, direction, signed_code)
    done = None
    if statements.writes_at_once() and not in_transaction():
        done = await _scan_at_once(organization_id, scanner_id, attempt, received_at, admit_in_sql)
    if done is None:
        async with transaction():
            scanner = await _scanner(organization_id, scanner_id)
            tickets = await _load(organization_id, [attempt])
            _found(tickets, attempt)
            [answer] = await _execute(organization_id, scanner, [attempt], tickets, received_at)
            related = await _related(organization_id, [answer])
    else:
        answer, related = done
    _count([answer])
    return _result(answer, related)


def _found(tickets: Tickets, attempt: Attempt) -> None:
    """Step 2 of a single scan: 404 when no ticket of the organization has its id or code."""
    if tickets.find(attempt) is None:
        if attempt.signed_code is not None:
            raise NotFound("No ticket with this signed_code")
        if attempt.ticket_id is not None:
            raise NotFound.resource("ticket", attempt.ticket_id)
        raise NotFound("No ticket with this scannable_code")


async def _scan_at_once(
    organization_id: UUID,
    scanner_id: UUID | None,
    attempt: Attempt,
    received_at: datetime,
    admit_in_sql: bool,
) -> tuple[Answer, Related] | None:
    """The common case of a single scan in one round trip and no transaction: a first
    admission, an exit, a re-entry or a pass (``multiple``) that is certain, early or late, a
    refusal (a duplicate, a ticket not inside, a scanner's rule...), and the retry of a used
    nonce, are read and written (or answered) by one statement (``db.scans.admit``); any other
    scan is read by it (or by ``db.scans.context``), decided in Python (the same
    :func:`plan`, which also builds the answer of the scans the statement wrote, and the first
    result of a retry), and written by a second statement that commits by itself
    (``db.scans.write_one``: the log row, the ticket's state on the condition that it is still
    the one decided on, the attendance, the outbox event). None when a write finds the nonce
    used (a concurrent first use) or the ticket changed since the read: the caller then runs the
    scan in a transaction (which reads both again)."""
    notify = notify_channel()
    try:
        async with statements.connection() as held:
            if admit_in_sql:
                row = await _admit(held, organization_id, scanner_id, attempt, received_at, notify)
            else:
                row = await statements.context(
                    held, organization_id, scanner_id, attempt.ticket_id, attempt.scannable_code
                )
            row = _scanner_found(row, scanner_id)
            targets = {
                field: row[f"target_{field}"] or []
                for field in ("event_ids", "ticket_type_ids", "timeslot_ids")
            }
            scanner = _scanner_rules(row["scanner_id"], row["scanner_active"], row, targets)
            tickets = Tickets.of([row] if row["id"] is not None else [])
            _found(tickets, attempt)
            firsts = {}
            if attempt.nonce is not None and row.get("first_ticket_id") is not None:
                firsts[attempt.nonce] = _first_attempt(row, "first_")
            [answer] = plan(scanner, [attempt], tickets, firsts, received_at).values()
            if answer.replayed:  # nothing to write: the first result again
                return answer, _related_of(row)
            events, notices = _consequences(scanner.id, [answer])
            written = row.get("written")
            if written in ("written", "relay"):
                _agrees(answer, row)
            elif written is None:
                changes = _changes({0: answer}, tickets, set())
                outbox = outbox_rows(organization_id, events)
                written = await statements.write_one(
                    held,
                    organization_id,
                    scanner.id,
                    received_at,
                    _log_row(uuid4(), answer),
                    changes[0] if changes else None,
                    outbox[0] if outbox else None,
                    notify,
                )
    except statements.TicketChanged:
        return None
    if written == "nonce_used":
        return None
    await rows_written(written == "relay")
    await live.publish_all_after_commit(organization_id, "scans", notices)
    return answer, _related_of(row)


def _related_of(row: dict[str, Any]) -> Related:
    """The other tickets of the scanned ticket's order, as :func:`db.scans.context` read them."""
    related = row["related_json"]
    others = [] if related is None else _related_tickets(related)
    return {row["order_id"]: others} if row["order_scanning_enabled"] else {}


_encode = msgspec.json.Encoder().encode
_PAYLOAD_STAND_INS = {field: stand_in for field, (stand_in, _) in statements.PAYLOAD_IDS.items()}


async def _admit(
    held: Any,
    organization_id: UUID,
    scanner_id: UUID | None,
    attempt: Attempt,
    received_at: datetime,
    notify: str | None,
) -> dict[str, Any] | None:
    """``db.scans.admit`` for ``attempt``, with its ``ticket.scanned`` payload encoded here as
    the Python path encodes it (``outbox_rows``), the ids the statement reads left as stand-ins
    (a field of :class:`TicketScanned` that it does not fill makes this fail at once)."""
    payload = _encode(TicketScanned(scanned_at=attempt.scanned_at, **_PAYLOAD_STAND_INS))
    return await statements.admit(
        held,
        organization_id,
        scanner_id,
        attempt.ticket_id,
        attempt.scannable_code,
        attempt.signed_code,
        attempt.scanned_at,
        received_at,
        attempt.direction,
        attempt.nonce,
        (TicketScanned.kind, payload.decode()),
        notify,
    )


def _agrees(answer: Answer, row: dict[str, Any]) -> None:
    """The statement wrote the scan as its ``kind`` or its ``refusal``: :func:`plan` must find
    the same."""
    before = answer.before
    if answer.status != "valid":
        agreed = row["kind"] is None and answer.reason == row["refusal"]
    elif answer.attempt.direction == "exit":
        agreed = row["kind"] == "exit"
    else:
        admitted = before is not None and before.status == "valid"
        agreed = row["kind"] == ("admit" if admitted else "reenter")
    if not agreed:
        logger.error(
            "scan of ticket %s: the statement wrote it as %s, Python decided %s (%s): "
            "db.scans._KIND or _REFUSAL and decide() disagree",
            row["id"],
            row["kind"] or row["refusal"],
            answer.status,
            answer.reason,
        )


@requires("tickets.write")
async def scan_tickets(
    principal: Principal, data: BatchScan, *, now: datetime | None = None
) -> list[BatchScanResult]:
    """Run a door device's recorded scans (CONTRACT.md section 11) in order of ``scanned_at``,
    as one transaction of a fixed number of statements; the results in the request's order.

    An invalid item is a 400 naming it (``scans[3].scanned_at``) and nothing runs; an unknown
    ticket is that item's ``not_found``.
    """
    received_at = utcnow() if now is None else as_utc(now)
    organization_id = principal.organization_id
    attempts = await _verified(organization_id, _attempts(data, received_at))
    async with transaction():
        scanner = await _scanner(organization_id, data.scanner_id)
        tickets = await _load(organization_id, attempts)
        answers = await _execute(organization_id, scanner, attempts, tickets, received_at)
        related = await _related(organization_id, answers)
    _count(answers)
    return [_batch_result(answer, related) for answer in answers]


@requires("tickets.read")
async def watch_scans(
    principal: Principal,
    event_id: UUID | None = None,
    on_overflow: Callable[[], None] | None = None,
) -> live.Feed:
    """The organization's scan attempts (of one event, when named) as they commit: a feed of
    :class:`ScanNotice` (see ``app.runtime.live`` for its bound and ``on_overflow``)."""
    if event_id is not None:
        await owned_row(Event, event_id, principal.organization_id, "event")
    return live.watch(principal.organization_id, "scans", event_id, on_overflow)


def _attempts(data: BatchScan, received_at: datetime) -> list[Attempt]:
    """The batch's items as attempts, or a 400 naming every invalid item (nothing runs)."""
    if not 1 <= len(data.scans) <= MAX_BATCH_SCANS:
        raise InvalidInput.field("scans", f"must hold 1 to {MAX_BATCH_SCANS} scans")
    attempts: list[Attempt] = []
    errors: list[FieldError] = []
    for position, item in enumerate(data.scans):
        prefix = f"scans[{position}]."
        try:
            _check_target(item.ticket_id, item.scannable_code, prefix, item.signed_code)
            _check_nonce(item.nonce, f"{prefix}nonce", required=True)
            at = _scanned_at(item.scanned_at, received_at, f"{prefix}scanned_at")
        except InvalidInput as error:
            errors += error.errors
            continue
        attempts.append(
            Attempt(
                position,
                item.ticket_id,
                item.scannable_code,
                item.nonce,
                at,
                item.direction,
                item.signed_code,
            )
        )
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    return attempts


async def _verified(organization_id: UUID, attempts: list[Attempt]) -> list[Attempt]:
    """The attempts with each signed code's ticket id once its signature holds (None when it does
    not: that attempt is ``not_found``), checked before anything else."""
    verified: dict[str, UUID | None] = {}
    for attempt in attempts:
        code = attempt.signed_code
        if code is not None and code not in verified:
            verified[code] = await scan_keys.verified_ticket(organization_id, code)
    return [
        attempt if attempt.signed_code is None else replace(attempt, ticket_id=verified[code])
        for attempt in attempts
        for code in [attempt.signed_code or ""]
    ]


def _check_target(
    ticket_id: UUID | None, scannable_code: str | None, prefix: str, signed_code: str | None = None
) -> None:
    if [ticket_id, scannable_code, signed_code].count(None) != 2:
        message = "name the ticket by exactly one of ticket_id, scannable_code and signed_code"
        raise InvalidInput.field(f"{prefix}ticket_id" if prefix else "scannable_code", message)
    if scannable_code is None:
        return
    field = f"{prefix}scannable_code"
    if not 1 <= len(scannable_code) <= MAX_CODE_LENGTH:
        raise InvalidInput.field(field, f"must be 1 to {MAX_CODE_LENGTH} characters long")
    if "\x00" in scannable_code:
        raise InvalidInput.field(field, "must not contain U+0000")


def _check_nonce(nonce: str | None, field: str, *, required: bool = False) -> None:
    if nonce is None:
        if required:
            raise InvalidInput.field(field, "is required")
        return
    if not 1 <= len(nonce) <= MAX_NONCE_LENGTH:
        raise InvalidInput.field(field, f"must be 1 to {MAX_NONCE_LENGTH} characters long")
    if "\x00" in nonce:
        raise InvalidInput.field(field, "must not contain U+0000")


def _scanned_at(value: datetime | None, received_at: datetime, field: str) -> datetime:
    """The device's moment of the scan: given with an offset, at most 5 minutes ahead and at
    most ``TICKETING_OFFLINE_MAX_AGE_HOURS`` old."""
    if value is None:
        return received_at
    scanned_at = require_offset(value, field)
    if scanned_at > received_at + FUTURE_TOLERANCE:
        raise InvalidInput.field(
            field, "is more than 5 minutes in the future (the server's clock is the reference)"
        )
    hours = get_settings().offline_max_age_hours
    if scanned_at < received_at - timedelta(hours=hours):
        raise InvalidInput.field(
            field, f"is more than {hours:g} hours in the past (TICKETING_OFFLINE_MAX_AGE_HOURS)"
        )
    return scanned_at


async def _scanner(organization_id: UUID, scanner_id: UUID | None) -> ScannerRules:
    """Step 1: the named scanner (403 when not ours) or the oldest active one (409 when none)."""
    row = _scanner_found(await statements.scanner(organization_id, scanner_id), scanner_id)
    if row["profile_id"] is None:
        return ScannerRules(id=row["id"], active=row["active"])
    targets = (await targets_of([row["profile_id"]]))[row["profile_id"]]
    return _scanner_rules(row["id"], row["active"], row, targets)


def _scanner_found(row: dict[str, Any] | None, scanner_id: UUID | None) -> dict[str, Any]:
    if row is None and scanner_id is not None:
        raise Forbidden(f"Scanner {scanner_id} does not belong to your organization")
    if row is None:
        raise Conflict("The organization has no active scanner; create one with POST /scanners")
    return row


def _scanner_rules(
    scanner_id: UUID, active: bool, row: dict[str, Any], targets: Mapping[str, Sequence[UUID]]
) -> ScannerRules:
    """A scanner's rules from its profile's columns in ``row`` and its target lists."""
    if row["profile_id"] is None:
        return ScannerRules(id=scanner_id, active=active)

    def allowed(field: str) -> frozenset[UUID] | None:
        return frozenset(targets[field]) if targets.get(field) else None

    return ScannerRules(
        id=scanner_id,
        active=active,
        event_ids=allowed("event_ids"),
        ticket_type_ids=allowed("ticket_type_ids"),
        timeslot_ids=allowed("timeslot_ids"),
        opens_minutes_before_start=row["opens_minutes_before_start"],
        closes_minutes_after_end=row["closes_minutes_after_end"],
        valid_from=row["valid_from"],
        valid_until=row["valid_until"],
        entry_policy=row["entry_policy"],
    )


async def _load(organization_id: UUID, attempts: Sequence[Attempt]) -> Tickets:
    """Step 2: every named ticket with its order, event, timeslot and type, in one statement."""
    ids = list(dict.fromkeys(a.ticket_id for a in attempts if a.ticket_id is not None))
    codes = list(dict.fromkeys(a.scannable_code for a in attempts if a.scannable_code))
    return Tickets.of(await statements.tickets(organization_id, ids, codes))


def _ticket_state(row: dict[str, Any]) -> TicketState:
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
        inside=bool(row["inside"]),
        presence_at=row["presence_at"],
    )


def _log_row(log_id: UUID, answer: Answer) -> dict[str, Any]:
    assert answer.ticket is not None
    return {
        "id": log_id,
        "ticket_id": answer.ticket.id,
        "status": answer.status,
        "reason": answer.reason,
        "scanned_at": answer.attempt.scanned_at,
        "nonce": answer.attempt.nonce,
        "result_scanned_at": answer.scanned_at,
        "direction": answer.attempt.direction,
        "result_inside": answer.ticket.inside,
    }


async def _execute(
    organization_id: UUID,
    scanner: ScannerRules,
    attempts: Sequence[Attempt],
    tickets: Tickets,
    received_at: datetime,
) -> list[Answer]:
    """Plan, claim, admit and record the attempts (see the module's docstring); the answers in
    the attempts' order. Call inside the transaction."""
    firsts: dict[str, FirstAttempt] = {}
    answers = plan(scanner, attempts, tickets, firsts, received_at)
    logged = {a.attempt.position: uuid4() for a in answers.values() if a.recorded}
    written = {position: _log_row(log_id, answers[position]) for position, log_id in logged.items()}
    claimed = await statements.claim(
        organization_id, scanner.id, received_at, list(written.values())
    )
    if len(claimed) < len(written):
        taken = [row["nonce"] for row in written.values() if row["id"] not in claimed]
        firsts = await _first_attempts(organization_id, taken)
        written = {p: row for p, row in written.items() if row["id"] in claimed}
        answers = plan(scanner, attempts, tickets, firsts, received_at)
    applied: set[UUID] = set()
    while wanted := _changes(answers, tickets, applied):
        won = await statements.apply(organization_id, wanted, utcnow())
        applied |= won
        lost = [change.id for change in wanted if change.id not in won]
        if not lost:
            break
        tickets.update(await statements.ticket_states(lost))
        answers = plan(scanner, attempts, tickets, firsts, received_at)
    final = {position: answers[position] for position in written}
    await statements.correct(
        [
            (row["id"], *outcome)
            for position, row in written.items()
            if (row["status"], row["reason"], row["result_scanned_at"], row["result_inside"])
            != (outcome := _outcome(final[position]))
        ]
    )
    in_order = sorted(final.values(), key=lambda a: (a.attempt.scanned_at, a.attempt.position))
    await _announce(organization_id, scanner.id, in_order)
    return [answers[attempt.position] for attempt in attempts]


def _outcome(answer: Answer) -> tuple[Any, ...]:
    """What the scan log keeps of an answer, for a repeated nonce."""
    assert answer.ticket is not None
    return answer.status, answer.reason, answer.scanned_at, answer.ticket.inside


_NO_CHANGE = statements.Change(UUID(int=0), UUID(int=0), UUID(int=0), "", False, None)
"""What a ticket's first valid attempt adds to (its counts are zero)."""


def _changes(
    answers: dict[int, Answer], tickets: Tickets, applied: set[UUID]
) -> list[statements.Change]:
    """What the valid attempts do to each ticket not yet ``applied``: its state before the
    operation (the condition of the write), after it, and what it adds to the attendance."""
    changes: dict[UUID, statements.Change] = {}
    for answer in sorted(
        answers.values(), key=lambda a: (a.attempt.scanned_at, a.attempt.position)
    ):
        ticket, before = answer.ticket, answer.before
        if answer.status != "valid" or answer.replayed or ticket is None or before is None:
            continue
        if ticket.id in applied:
            continue
        first = tickets.by_id[ticket.id]
        change = changes.get(ticket.id) or _NO_CHANGE
        entry = answer.attempt.direction == "entry"
        changes[ticket.id] = statements.Change(
            id=ticket.id,
            event_id=ticket.event_id,
            timeslot_id=ticket.timeslot_id,
            old_status=first.status,
            old_inside=first.inside,
            old_presence_at=first.presence_at,
            status=ticket.status,
            scanned_at=ticket.scanned_at,
            inside=ticket.inside,
            presence_at=ticket.presence_at,
            admitted=change.admitted + (before.status == "valid" and ticket.status == "scanned"),
            inside_change=change.inside_change + ticket.inside - before.inside,
            entries=change.entries + entry,
            exits=change.exits + (not entry),
        )
    return list(changes.values())


async def _first_attempts(organization_id: UUID, nonces: Sequence[str]) -> dict[str, FirstAttempt]:
    """The first results of nonces used before (a nonce names its ticket for good)."""
    rows = await statements.first_attempts(organization_id, nonces)
    return {row["nonce"]: _first_attempt(row) for row in rows}


def _first_attempt(row: dict[str, Any], prefix: str = "") -> FirstAttempt:
    """A nonce's first attempt from the scan log's columns in ``row``, each named ``prefix``
    and the column (``first_`` in ``db.scans.admit``'s row)."""
    return FirstAttempt(
        row[f"{prefix}ticket_id"],
        row[f"{prefix}status"],
        row[f"{prefix}reason"],
        row[f"{prefix}result_scanned_at"],
        row[f"{prefix}scanned_at"],
        row[f"{prefix}direction"],
        row[f"{prefix}result_inside"],
    )


async def _announce(organization_id: UUID, scanner_id: UUID, new: Sequence[Answer]) -> None:
    """``ticket.scanned`` for each admission (one INSERT), and every new attempt to live
    subscribers once the transaction commits."""
    events, notices = _consequences(scanner_id, new)
    await record_events(organization_id, events)
    await live.publish_all_after_commit(organization_id, "scans", notices)


def _consequences(
    scanner_id: UUID, new: Sequence[Answer]
) -> tuple[list[TicketScanned], list[tuple[UUID | None, ScanNotice]]]:
    """The ``ticket.scanned`` events of the admissions among these new attempts (in order), and
    the live notice of each attempt."""
    events: list[TicketScanned] = []
    notices: list[tuple[UUID | None, ScanNotice]] = []
    for answer in new:
        ticket = answer.ticket
        assert ticket is not None and answer.status is not None
        at = answer.attempt.scanned_at
        direction = answer.attempt.direction
        if answer.status == "valid" and direction == "entry":
            events.append(
                TicketScanned(
                    ticket_id=ticket.id,
                    order_id=ticket.order_id,
                    event_id=ticket.event_id,
                    scanner_id=scanner_id,
                    scanned_at=at,
                )
            )
        notice = ScanNotice(
            ticket.id, ticket.event_id, scanner_id, answer.status, answer.reason, at, direction
        )
        notices.append((ticket.event_id, notice))
    return events, notices


async def _related(organization_id: UUID, answers: Sequence[Answer]) -> Related:
    """The tickets of every answered order whose event has order scanning (one statement),
    mapped once per order (a batch holds the orders' tickets side by side)."""
    orders = list(
        dict.fromkeys(
            a.ticket.order_id
            for a in answers
            if a.ticket is not None and a.ticket.row["order_scanning_enabled"]
        )
    )
    found: Related = {order_id: [] for order_id in orders}
    for row in await statements.related(organization_id, orders):
        found[row["order_id"]].append(_to_related(row))
    return found


_related_tickets = msgspec.json.Decoder(list[RelatedTicket]).decode


def _count(answers: Sequence[Answer]) -> None:
    for answer in answers:
        if answer.recorded:
            count_scan(answer.status or "", answer.reason)


def _result_fields(answer: Answer, related: Related) -> dict[str, Any]:
    ticket = answer.ticket
    assert ticket is not None
    row = ticket.row
    others = related.get(ticket.order_id) if row["order_scanning_enabled"] else None
    return {
        "ticket_id": ticket.id,
        "status": answer.status,
        "scanned_before": answer.scanned_before,
        "event": ScanEvent(
            id=ticket.event_id, title=row["event_title"], location=row["event_location"]
        ),
        "timeslot": ScanTimeslot(
            title=row["timeslot_title"], starts_at=ticket.starts_at, ends_at=ticket.ends_at
        ),
        "ticket_type": ScanTicketType(
            id=ticket.ticket_type_id,
            name=row["ticket_type_name"],
            price=as_number(row["ticket_type_price"]),
        ),
        "owner_name": row["owner_name"],
        "owner_email": row["owner_email"],
        "seat": row["seat"],
        "scanned_at": answer.scanned_at,
        "cancelled_at": ticket.cancelled_at,
        "related_tickets": None
        if others is None
        else [other for other in others if other.id != ticket.id],
        "reason": answer.reason,
        "direction": answer.attempt.direction,
        "inside": ticket.inside,
    }


def _result(answer: Answer, related: Related) -> ScanResult:
    return ScanResult(**_result_fields(answer, related))


def _batch_result(answer: Answer, related: Related) -> BatchScanResult:
    nonce = answer.attempt.nonce or ""
    if answer.ticket is None:
        return BatchScanResult(
            nonce=nonce,
            status="not_found",
            ticket_id=answer.attempt.ticket_id if answer.attempt.signed_code is None else None,
            scanned_before=False,
            event=None,
            timeslot=None,
            ticket_type=None,
            owner_name=None,
            owner_email=None,
            seat=None,
            scanned_at=None,
            cancelled_at=None,
            related_tickets=None,
            reason=None,
            direction=answer.attempt.direction,
            inside=None,
        )
    return BatchScanResult(nonce=nonce, **_result_fields(answer, related))
