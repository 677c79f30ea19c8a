"""What one admission costs the database (issue 26 item 3): the decision order of CONTRACT.md
section 5 unchanged, the scan log, the outbox event and the attendance written together, in as
few round trips as the common case allows."""

from __future__ import annotations

import asyncio

from httpx import AsyncClient

from app.services import scanning
from tests.scanning.support import HOUR, door_at, now, principal_of, scan_log, scanned_events
from tests.statements import count_statements
from tests.support import Tenant, create_profile, create_scanner


async def test_an_admission_is_one_read_and_one_write(client: AsyncClient, tenant: Tenant) -> None:
    profile = await create_profile(client, tenant, closes_minutes_after_end=60)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    door = await door_at(
        client, tenant, now() - HOUR, now() + HOUR, tickets=2, scanner=scanner,
        order_scanning_enabled=True,
    )  # fmt: skip
    principal = await principal_of(tenant)
    first, second = door.tickets
    await scanning.scan_ticket(principal, scannable_code=first["scannable_code"])  # warm
    with count_statements() as counter:
        result = await scanning.scan_ticket(
            principal, scannable_code=second["scannable_code"], scanner_id=scanner["id"],
            nonce="cost-1",
        )  # fmt: skip
    assert result.status == "valid"
    [related] = result.related_tickets or []
    assert str(related.id) == first["id"] and related.scanned_at is not None
    # Before issue 26: BEGIN, scanner, its targets, ticket, scan log, admission, outbox, the
    # order's other tickets, COMMIT.
    assert counter.count == 2, counter.statements
    [row] = await scan_log(tenant, second["id"])
    assert row["status"] == "valid" and row["nonce"] == "cost-1"
    assert len(await scanned_events(tenant)) == 2


async def test_a_scan_that_meets_a_used_nonce_or_a_changed_ticket_runs_in_a_transaction(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The one-statement write writes nothing when the nonce was used (the transaction then
    answers the first result) or the ticket changed after the read (it is decided again)."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    principal = await principal_of(tenant)
    first, second = door.tickets
    code = first["scannable_code"]
    admitted = await scanning.scan_ticket(principal, scannable_code=code, nonce="n-1")
    with count_statements() as counter:
        again = await scanning.scan_ticket(principal, scannable_code=code, nonce="n-1")
    assert again == admitted and counter.count > 2
    results = await asyncio.gather(
        *(
            scanning.scan_ticket(principal, scannable_code=second["scannable_code"])
            for _ in range(10)
        )
    )
    assert sorted(result.status for result in results) == ["scanned"] * 9 + ["valid"]
    assert len(await scan_log(tenant, second["id"])) == 10
    assert len(await scanned_events(tenant)) == 2
