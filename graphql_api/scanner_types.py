"""GraphQL types of scanners, scanner profiles and the scan result (app/schemas/scanners.py,
app/schemas/scanning.py), derived from their records."""

from __future__ import annotations

from app.schemas import scanners as scanner_records
from app.schemas import scanning as scan_records
from app.services.scanners import PROFILES
from graphql_api.derive import record_type
from graphql_api.scopes import relation


@record_type(
    scanner_records.ScannerProfile,
    description="Empty target lists admit everything; null window bounds do not restrict. "
    "The relative window is measured from the ticket's timeslot.",
)
class ScannerProfile:
    pass


@record_type(
    scanner_records.Scanner,
    description="A scanner without a profile admits every ticket at any time.",
)
class Scanner:
    profile: ScannerProfile | None = relation(
        PROFILES, "profile_id", "Null when the scanner has no profile."
    )


@record_type(
    scan_records.ScanResult,
    description="`status`: valid, scanned, cancelled or not_allowed. `reason` (null when valid): "
    "scanner_inactive, event_not_allowed, ticket_type_not_allowed, timeslot_not_allowed, "
    "too_early, too_late, order_not_confirmed, cancelled, already_scanned. `relatedTickets` is "
    "null unless the event has order scanning enabled.",
)
class ScanResult:
    pass


@record_type(
    scan_records.BatchScanResult,
    name="ScanBatchResult",
    description="One scan of a batch: the scan result plus its `nonce`; `status` is also "
    "not_found (every ticket field null) when no ticket has the id or code.",
)
class ScanBatchResult:
    pass


@record_type(
    scan_records.BatchScanResults,
    name="ScanBatch",
    description="The results of `scanTickets`, in the order of the input's `scans`.",
)
class ScanBatch:
    pass
