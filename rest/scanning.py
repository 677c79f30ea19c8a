"""Door scanning: by ticket id (the spec's route) and by scannable code (what a door app reads)."""

from __future__ import annotations

from litestar import get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.scanning import CodeScan, ScanLogEntry, ScanResult, TicketScan
from app.services import scanning
from rest.docs import IdPath, operation
from rest.lists import ListQuery

OUTCOMES = (
    "Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and `reason` "
    "tell the door what to do. Without `scanner_id` the organization's oldest active scanner is "
    "used (409 when there is none); a scanner of another organization is a 403."
)


@post(
    "/tickets/{ticket_id:str}/scan",
    status_code=200,
    tags=["scanning"],
    **operation(
        "Scan a ticket by id",
        service=scanning.scan_ticket,
        errors=(400, 403, 404, 409, 413, 415),
        text=f"The body may be omitted. {OUTCOMES}",
    ),
)
async def scan_ticket(
    principal: NamedDependency[Principal],
    ticket_id: IdPath,
    data: JSONBody[TicketScan | None] = None,
) -> ScanResult:
    return await scanning.scan_ticket(
        principal,
        ticket_id=parse_id(ticket_id, "ticket_id"),
        scanner_id=None if data is None else data.scanner_id,
    )


@post(
    "/scans",
    status_code=200,
    tags=["scanning"],
    **operation(
        "Scan a ticket by its scannable code",
        service=scanning.scan_ticket,
        errors=(400, 403, 404, 409, 413, 415),
        text=OUTCOMES,
    ),
)
async def scan_code(principal: NamedDependency[Principal], data: JSONBody[CodeScan]) -> ScanResult:
    return await scanning.scan_ticket(
        principal, scannable_code=data.scannable_code, scanner_id=data.scanner_id
    )


@get(
    "/tickets/{ticket_id:str}/scans",
    tags=["scanning"],
    **operation(
        "List the scan attempts of a ticket",
        service=scanning.SCAN_LOG,
        errors=(400, 403, 404),
        text="The scan log: every attempt that reached the ticket (all 200 answers of the scan "
        "routes), with scanner, status, reason and time (`created_at`).",
    ),
)
async def list_ticket_scans(
    principal: NamedDependency[Principal],
    ticket_id: IdPath,
    listing: NamedDependency[ListQuery],
) -> Page[ScanLogEntry]:
    return await scanning.SCAN_LOG.page(
        principal, within=("ticket_id", parse_id(ticket_id, "ticket_id")), **listing.as_kwargs()
    )


SCANNING_ROUTES = [scan_ticket, scan_code, list_ticket_scans]
