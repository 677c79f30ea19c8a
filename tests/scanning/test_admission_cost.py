"""What one admission costs the database (issue 26 item 3): the decision order of CONTRACT.md
section 5 unchanged, the scan log, the outbox event and the attendance written together, in as
few round trips as the common case allows."""

from __future__ import annotations

import asyncio
import os
from uuid import UUID

import asyncpg
import pytest
from httpx import AsyncClient

from app.errors import NonceReused
from app.schemas.scanning import ScanResult
from app.services import scanning
from db.tables import Ticket
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


async def test_a_retry_an_exit_and_a_reentry_are_one_statement(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The statement also reads the nonce's first attempt (a retry answers it, writing nothing)
    and writes an exit of a ticket inside and, under ``reentry``, an entry of a ticket out."""
    profile = await create_profile(client, tenant, entry_policy="reentry")
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2, scanner=scanner)
    principal = await principal_of(tenant)
    first, second = door.tickets
    code = first["scannable_code"]

    async def scan(nonce: str, direction: str = "entry", ticket: str = code) -> ScanResult:
        with count_statements() as counter:
            result = await scanning.scan_ticket(
                principal, scannable_code=ticket, scanner_id=UUID(scanner["id"]), nonce=nonce,
                direction=direction,  # type: ignore[arg-type]
            )  # fmt: skip
        assert counter.count == 1, counter.statements
        return result

    admitted = await scan("n-1")
    assert (admitted.status, admitted.inside) == ("valid", True)
    assert await scan("n-1") == admitted  # before: a read, a write, then the transaction's 8
    left = await scan("n-2", "exit")  # before: a read and a write
    assert (left.status, left.inside) == ("valid", False)
    back = await scan("n-3")  # before: a read and a write
    assert (back.status, back.inside, back.scanned_before) == ("valid", True, True)
    assert await scan("n-2", "exit") == left
    assert await scan("n-3") == back
    with count_statements() as counter, pytest.raises(NonceReused):
        await scanning.scan_ticket(principal, scannable_code=second["scannable_code"], nonce="n-1")
    assert counter.count == 1, counter.statements
    assert [row["direction"] for row in await scan_log(tenant, first["id"])] == [
        "entry", "exit", "entry"
    ]  # fmt: skip
    assert len(await scanned_events(tenant)) == 2  # the admission and the re-entry


async def test_a_refusal_is_one_statement(client: AsyncClient, tenant: Tenant) -> None:
    """A duplicate or an exit of a ticket out: the statement writes the log row (were a read,
    then Python's decision written by ``scan_write``)."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    principal = await principal_of(tenant)
    code = door.tickets[0]["scannable_code"]
    await scanning.scan_ticket(principal, scannable_code=code)
    await scanning.scan_ticket(principal, scannable_code=code, direction="exit")
    for direction in ("entry", "exit"):
        with count_statements() as counter:
            result = await scanning.scan_ticket(principal, scannable_code=code, direction=direction)
        assert result.status == ("scanned" if direction == "entry" else "not_allowed")
        assert counter.count == 1, counter.statements
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 4
    assert len(await scanned_events(tenant)) == 1


async def test_a_scan_that_meets_a_changed_ticket_runs_in_a_transaction(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The one-statement write writes nothing when the ticket changed after the read: the scan
    is decided again in a transaction."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    principal = await principal_of(tenant)
    code = door.tickets[0]["scannable_code"]
    results = await asyncio.gather(
        *(scanning.scan_ticket(principal, scannable_code=code) for _ in range(10))
    )
    assert sorted(result.status for result in results) == ["scanned"] * 9 + ["valid"]
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 10
    assert len(await scanned_events(tenant)) == 1


async def test_a_nonce_first_used_concurrently_runs_in_a_transaction(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A nonce whose first use is not committed when the statement reads it: the statement's
    write (an exit, certain) waits for it, finds the nonce used, writes nothing, and the
    transaction answers that first use's result."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    principal = await principal_of(tenant)
    code = door.tickets[0]["scannable_code"]
    admitted = await scanning.scan_ticket(principal, scannable_code=code, nonce="n-0")
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        in_flight = connection.transaction()
        await in_flight.start()
        await connection.execute(  # the same attempt again, under a nonce of its own
            "INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, reason, "
            "created_at, scanned_at, received_at, nonce, result_scanned_at, direction, "
            "result_inside) SELECT gen_random_uuid(), organization_id, ticket_id, scanner_id, "
            "status, reason, created_at, scanned_at, received_at, 'n-1', result_scanned_at, "
            "direction, result_inside FROM scans WHERE nonce = 'n-0'"
        )
        exit_ = asyncio.ensure_future(
            scanning.scan_ticket(principal, scannable_code=code, nonce="n-1", direction="exit")
        )
        for _ in range(500):
            if await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            ):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the scan never waited for the nonce's first use")
        await in_flight.commit()
        assert await exit_ == admitted  # the first use's answer: an entry, inside
    finally:
        await connection.close()
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 2
    [ticket] = await Ticket.select(Ticket.inside).where(Ticket.id == door.tickets[0]["id"])
    assert ticket["inside"]
