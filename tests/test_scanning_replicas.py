"""Exactly-once admission across replicas: two `ticketing serve` processes on one database."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from db.tables import OutboxEvent, Scan
from tests.support import Tenant, ok
from tests.test_scanning import open_door

SCANS = 50
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_until_serving(base_url: str, process: asyncio.subprocess.Process) -> None:
    """Poll (bounded) until the server answers; an unauthenticated /whoami is a 401."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT
    async with httpx.AsyncClient(base_url=base_url, timeout=2.0) as client:
        while asyncio.get_running_loop().time() < deadline:
            if process.returncode is not None:
                raise RuntimeError(f"server at {base_url} exited with {process.returncode}")
            try:
                if (await client.get("/whoami")).status_code == 401:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise TimeoutError(f"server at {base_url} did not start within {START_TIMEOUT} s")


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
    command = str(Path(sys.executable).parent / "ticketing")
    processes: list[asyncio.subprocess.Process] = []
    urls: list[str] = []
    with tempfile.TemporaryFile() as log:
        try:
            for _ in range(2):
                port = free_port()
                processes.append(
                    await asyncio.create_subprocess_exec(
                        command,
                        "serve",
                        "--port",
                        str(port),
                        env=dict(os.environ),
                        stdout=log,
                        stderr=log,
                    )
                )
                urls.append(f"http://127.0.0.1:{port}")
            for url, process in zip(urls, processes, strict=True):
                await wait_until_serving(url, process)
            yield urls
        finally:
            for process in processes:
                if process.returncode is None:
                    process.terminate()
            for process in processes:
                try:
                    await asyncio.wait_for(process.wait(), 10)
                except TimeoutError:
                    process.kill()
                    await process.wait()


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
