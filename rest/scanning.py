"""Door scanning: by ticket id (the spec's route) and by scannable code (what a door app reads)."""

from __future__ import annotations

from litestar import post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from app.ids import parse_id
from app.principal import Principal
from app.schemas.scanning import CodeScan, ScanResult, TicketScan
from app.services import scanning
from rest.docs import problems, scoped

OUTCOMES = (
    "Every outcome is a 200 whose `status` (valid, scanned, cancelled, not_allowed) and `reason` "
    "tell the door what to do. Without `scanner_id` the organization's oldest active scanner is "
    "used (409 when there is none); a scanner of another organization is a 403."
)


@post(
    "/tickets/{ticket_id:str}/scan",
    status_code=200,
    tags=["scanning"],
    summary="Scan a ticket by id",
    description=scoped("tickets.write", f"The body may be omitted. {OUTCOMES}"),
    responses=problems(400, 403, 404, 409, 413, 415),
)
async def scan_ticket(
    principal: NamedDependency[Principal],
    ticket_id: FromPath[str],
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
    summary="Scan a ticket by its scannable code",
    description=scoped("tickets.write", OUTCOMES),
    responses=problems(400, 403, 404, 409, 413, 415),
)
async def scan_code(principal: NamedDependency[Principal], data: JSONBody[CodeScan]) -> ScanResult:
    return await scanning.scan_ticket(
        principal, scannable_code=data.scannable_code, scanner_id=data.scanner_id
    )


SCANNING_ROUTES = [scan_ticket, scan_code]
