"""What one admission costs the database (issue 26 item 3): the decision order of CONTRACT.md
section 5 unchanged, the scan log, the outbox event and the attendance written together, in as
few round trips as the common case allows."""

from __future__ import annotations

import asyncio
from uuid import UUID

from httpx import AsyncClient

from app.services import scanning
from tests.scanning.support import HOUR, door_at, now, principal_of, scan_log, scanned_events
from tests.statements import count_statements
from tests.support import Tenant, create_profile, create_scanner


async def test_an_admission_is_one_statement(client: AsyncClient, tenant: Tenant) -> None:
    profile = await create_profile(client, tenant, closes_minutes_after_end=60)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    door = await door_at(
        client, tenant, now() - HOUR, now() + HOUR, tickets=3, scanner=scanner,
        order_scanning_enabled=True,
    )  # fmt: skip
    principal = await principal_of(tenant)
    first, second, third = door.tickets
    await scanning.scan_ticket(principal, scannable_code=first["scannable_code"])  # warm
    with count_statements() as counter:
        result = await scanning.scan_ticket(
            principal, scannable_code=second["scannable_code"], scanner_id=scanner["id"],
            nonce="cost-1",
        )  # fmt: skip
    assert result.status == "valid" and result.inside
    related = {str(other.id): other.scanned_at for other in result.related_tickets or []}
    assert related.keys() == {first["id"], third["id"]} and related[first["id"]] is not None
    # Before issue 26: BEGIN, scanner, its targets, ticket, scan log, admission, outbox, the
    # order's other tickets, COMMIT; then a read and a write (scan_write), decided in Python.
    assert counter.count == 1, counter.statements
    [row] = await scan_log(tenant, second["id"])
    assert row["status"] == "valid" and row["nonce"] == "cost-1"
    assert len(await scanned_events(tenant)) == 2
    with count_statements() as counter:
        decided = await scanning.scan_ticket(
            principal, ticket_id=UUID(third["id"]), scanner_id=scanner["id"], admit_in_sql=False
        )
    assert decided.status == "valid" and counter.count == 2, counter.statements


async def test_a_scan_that_is_no_first_admission_is_a_read_and_a_write(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A duplicate, a refusal or an exit: the statement reads and writes nothing, Python decides
    and ``scan_write`` writes."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    principal = await principal_of(tenant)
    code = door.tickets[0]["scannable_code"]
    await scanning.scan_ticket(principal, scannable_code=code)
    for direction in ("entry", "exit"):
        with count_statements() as counter:
            result = await scanning.scan_ticket(principal, scannable_code=code, direction=direction)
        assert result.status == ("scanned" if direction == "entry" else "valid")
        assert counter.count == 2, counter.statements
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 3
    assert len(await scanned_events(tenant)) == 1


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
