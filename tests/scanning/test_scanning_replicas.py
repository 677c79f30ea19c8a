"""Exactly-once admission across replicas: two `ticketing serve` processes on one database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from db.tables import OutboxEvent, Scan
from tests.processes import serving
from tests.support import Tenant, ok, open_door

SCANS = 50


def replica_client(base_url: str, tenant: Tenant) -> httpx.AsyncClient:
    """A client that can hold all the scans open at once; the generous timeout is for a busy,
    shared machine (no timing is asserted)."""
    return httpx.AsyncClient(
        base_url=base_url,
        headers=tenant.headers,
        limits=httpx.Limits(max_connections=SCANS),
        timeout=30.0,
    )


@pytest.fixture(scope="module")
async def replicas(database: None) -> AsyncIterator[list[str]]:
    """Two servers on free 127.0.0.1 ports against this run's DATABASE_URL."""
    async with serving(2) as urls:
        yield urls


@pytest.mark.slow
async def test_fifty_simultaneous_scans_on_two_replicas_admit_once(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[str]
) -> None:
    door = await open_door(client, tenant)
    ticket = door.tickets[0]
    async with (
        replica_client(replicas[0], tenant) as first,
        replica_client(replicas[1], tenant) as second,
    ):
        requests = [
            (first if i % 2 else second).post(
                f"/tickets/{ticket['id']}/scan", json={"scanner_id": door.scanner["id"]}
            )
            if i % 4 < 2
            else (first if i % 2 else second).post(
                "/scans", json={"scannable_code": ticket["scannable_code"]}
            )
            for i in range(SCANS)
        ]
        results = [ok(response) for response in await asyncio.gather(*requests)]
    statuses = [result["status"] for result in results]
    assert statuses.count("valid") == 1, statuses
    assert statuses.count("scanned") == SCANS - 1, statuses
    winner = next(result for result in results if result["status"] == "valid")
    assert winner["scanned_before"] is False
    assert all(r["scanned_before"] for r in results if r is not winner)
    assert {result["scanned_at"] for result in results} == {winner["scanned_at"]}
    assert await Scan.count().where(Scan.ticket_id == ticket["id"]) == SCANS
    assert (
        await OutboxEvent.count().where(
            OutboxEvent.organization_id == tenant.org_id,
            OutboxEvent.event_type == "ticket.scanned",
        )
        == 1
    )


@pytest.mark.slow
async def test_one_nonce_through_two_replicas_at_once_is_recorded_once(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[str]
) -> None:
    """A door retrying one offline scan through a load balancer: single scans and batches with
    the same nonce, on both replicas at once, give one answer and one scan log row."""
    door = await open_door(client, tenant, tickets=2)
    ticket, other = door.tickets
    single = {"scannable_code": ticket["scannable_code"], "nonce": "retry-1"}
    batch = {"scans": [{"ticket_id": other["id"], "nonce": "retry-2"}, {**single}]}
    async with (
        replica_client(replicas[0], tenant) as first,
        replica_client(replicas[1], tenant) as second,
    ):
        requests = [
            (first if i % 2 else second).post("/scans", json=single)
            if i % 3
            else (first if i % 2 else second).post("/scans/batch", json=batch)
            for i in range(SCANS)
        ]
        answers = [ok(response) for response in await asyncio.gather(*requests)]
    results = [a["results"][1] if "results" in a else {**a, "nonce": "retry-1"} for a in answers]
    assert all(result == results[0] for result in results)
    assert results[0]["status"] == "valid"
    assert {a["results"][0]["status"] for a in answers if "results" in a} == {"valid"}
    assert await Scan.count().where(Scan.ticket_id == ticket["id"]) == 1
    assert await Scan.count().where(Scan.ticket_id == other["id"]) == 1
