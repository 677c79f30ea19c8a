"""Door scanning: by ticket id (the spec's route) and by scannable code (what a door app reads)."""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from app.ids import parse_id
from app.schemas.scanning import (
    BatchScan,
    BatchScanResults,
    CodeScan,
    ScanResult,
    TicketScan,
)
from app.services import scanning
from rest.auth import Caller
from rest.docs import IdPath, operation
from rest.list_routes import list_route

OUTCOMES = (
    "Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and `reason` "
    "tell the door what to do. Without `scanner_id` the organization's oldest active scanner is "
    "used (409 when there is none); a scanner of another organization is a 403. `direction`: "
    "`entry` (default) or `exit` (a ticket inside goes out; otherwise `not_inside`); a re-entry "
    "follows the scanner profile's `entry_policy`; `inside` is the ticket's presence after."
)
OFFLINE = (
    "An offline device sends `scanned_at` (when it scanned; windows are decided then; at most 5 "
    "minutes in the future, at most TICKETING_OFFLINE_MAX_AGE_HOURS old) and a `nonce` (1 to 64 "
    "characters, unique per organization): a repeated nonce answers the first result again "
    "(same status, reason and scanned_at) and records nothing new; a nonce used for another "
    "ticket is a 409 `/problems/nonce-reused`."
)

SIGNED = (
    "a signed code's signature is checked before anything else, with its event's key named by "
    "the code; a bad signature, an unknown or retired key, or a code the ticket no longer has "
    "is a 404 like an unknown ticket (docs/signed-codes.md)"
)


@post(
    "/tickets/{ticket_id:str}/scan",
    status_code=200,
    tags=["scanning"],
    **operation(
        "Scan a ticket by id",
        service=scanning.scan_ticket,
        errors=(400, 403, 404, 409, 413, 415),
        text=f"The body may be omitted. {OUTCOMES} {OFFLINE}",
    ),
)
async def scan_ticket(
    request: Caller, ticket_id: IdPath, data: JSONBody[TicketScan | None] = None
) -> ScanResult:
    body = TicketScan() if data is None else data
    return await scanning.scan_ticket(
        request.user,
        ticket_id=parse_id(ticket_id, "ticket_id"),
        scanner_id=body.scanner_id,
        nonce=body.nonce,
        scanned_at=body.scanned_at,
        direction=body.direction,
    )


@post(
    "/scans",
    status_code=200,
    tags=["scanning"],
    **operation(
        "Scan a ticket by its scannable code or its signed code",
        service=scanning.scan_ticket,
        errors=(400, 403, 404, 409, 413, 415),
        text=f"The ticket by exactly one of `scannable_code` and `signed_code` ({SIGNED}). "
        f"{OUTCOMES} {OFFLINE}",
    ),
)
async def scan_code(request: Caller, data: JSONBody[CodeScan]) -> ScanResult:
    return await scanning.scan_ticket(
        request.user,
        scannable_code=data.scannable_code,
        signed_code=data.signed_code,
        scanner_id=data.scanner_id,
        nonce=data.nonce,
        scanned_at=data.scanned_at,
        direction=data.direction,
    )


@post(
    "/scans/batch",
    status_code=200,
    tags=["scanning"],
    **operation(
        "Upload a batch of scans recorded offline",
        service=scanning.scan_tickets,
        errors=(400, 403, 409, 413, 415),
        text="1 to 500 scans, each naming its ticket by `ticket_id`, `scannable_code` or "
        "`signed_code` (a bad signature: `not_found`), with a "
        "`nonce` (required) and `scanned_at`. They run in order of `scanned_at` (ties: the "
        "array's order) in one transaction; `results` are in the request's order, each the Scan "
        "result plus its `nonce`. An invalid item is a 400 naming it (`scans[3].scanned_at`) and "
        "nothing runs; an unknown ticket is that item's `status: not_found`. " + OFFLINE,
    ),
)
async def scan_batch(request: Caller, data: JSONBody[BatchScan]) -> BatchScanResults:
    return BatchScanResults(results=await scanning.scan_tickets(request.user, data))


list_ticket_scans = list_route(
    scanning.SCAN_LOG,
    "/tickets/{ticket_id:str}/scans",
    "list_ticket_scans",
    "List the scan attempts of a ticket",
    within="ticket_id",
    text="The scan log: every attempt that reached the ticket (all 200 answers of the scan "
    "routes, a repeated nonce excepted), with scanner, status, reason, `nonce`, `scanned_at` "
    "(the device's moment) and `received_at` (= `created_at`, the server's).",
    tags=["scanning"],
)


SCANNING_ROUTES = [scan_ticket, scan_code, scan_batch, list_ticket_scans]
