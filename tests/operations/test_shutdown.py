"""Graceful shutdown (CONTRACT.md section 13): SIGTERM to ``serve`` lets the request in flight
finish (within a bound) and refuses new connections; SIGTERM to ``worker`` lets the delivery in
flight finish. The request in flight is a real scan waiting on a row lock that the test holds.
A response that never ends by itself, the dashboard's door stream, ends when the server stops."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
import websockets

from app.services.dashboard_sessions import begin_sign_in, complete_sign_in, pending_sign_in
from dashboard.security import PLAIN_COOKIE
from tests.dashboard.support import dashboard_server
from tests.graphql.test_subscriptions import SCANS, live, subscribed
from tests.harness import REDIS_URL
from tests.processes import served, worker
from tests.support import Tenant, ok, open_door
from tests.webhooks.support import Receiver, emit, settled_log, subscribe

pytestmark = pytest.mark.slow


@contextlib.asynccontextmanager
async def row_locked(ticket_id: str) -> AsyncIterator[asyncpg.Connection]:
    """Hold the ticket's row lock in an open transaction, as a concurrent writer would."""
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        transaction = connection.transaction()
        await transaction.start()
        await connection.execute("SELECT id FROM tickets WHERE id = $1 FOR UPDATE", ticket_id)
        try:
            yield connection
        finally:
            await transaction.rollback()
    finally:
        await connection.close()


async def scan_waiting_on_lock(api: httpx.AsyncClient, ticket_id: str) -> asyncio.Task[Any]:
    """Start a scan of the (locked) ticket; return once it waits for the lock."""
    in_flight = asyncio.create_task(api.post(f"/tickets/{ticket_id}/scan", json={}))
    await waiting_on_lock(ticket_id)
    return in_flight


async def waiting_on_lock(ticket_id: str) -> None:
    """Bounded poll until a statement of another session waits for the ticket's row lock."""
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        for _ in range(200):
            waiting = await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if waiting:
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the scan never waited on the lock")
    finally:
        await connection.close()


async def refuses_connections(url: str) -> None:
    """Bounded poll until a new TCP connection to ``url`` is refused. A connection that reached
    the listening socket's backlog just before the socket closed is reset by the kernel: it was
    not served either, and the poll goes on until the refusal."""
    parts = urlsplit(url)
    for _ in range(200):
        try:
            _, writer = await asyncio.open_connection(parts.hostname, parts.port)
        except ConnectionRefusedError:
            return
        except ConnectionResetError:
            pass
        else:
            writer.close()
        await asyncio.sleep(0.05)
    raise AssertionError("the server still accepts new connections")


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_sigterm_lets_the_request_in_flight_finish_and_refuses_new_ones(
    client: httpx.AsyncClient, tenant: Tenant, workers: str
) -> None:
    """Every process closes the port (the request in flight holds one of them open), and it
    stays closed while that request finishes."""
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    async with (
        served("--workers", workers) as server,
        httpx.AsyncClient(base_url=server.url, headers=tenant.headers, timeout=60) as api,
    ):
        async with row_locked(ticket_id):
            in_flight = await scan_waiting_on_lock(api, ticket_id)
            server.process.send_signal(signal.SIGTERM)
            await refuses_connections(server.url)
            for _ in range(20):  # by every process: no connection lands on another one
                with pytest.raises(ConnectionRefusedError):
                    await asyncio.open_connection(*urlsplit(server.url).netloc.split(":"))
            assert server.process.returncode is None
        scanned = ok(await in_flight)
        assert await asyncio.wait_for(server.process.wait(), 30) == 0
    assert scanned["status"] == "valid"
    assert "Traceback" not in server.log()


async def test_sigterm_waits_only_so_long_for_a_request_in_flight(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    async with (
        served(TICKETING_SHUTDOWN_TIMEOUT_SECONDS="1") as server,
        httpx.AsyncClient(base_url=server.url, headers=tenant.headers, timeout=60) as api,
        row_locked(ticket_id),
    ):
        in_flight = await scan_waiting_on_lock(api, ticket_id)
        server.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.process.wait(), 30) == 0
        with contextlib.suppress(httpx.HTTPError):
            await in_flight
    assert "refused to gracefully stop" in server.log(), server.log()


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_sigterm_ends_the_door_streams_instead_of_waiting_for_them(
    client: httpx.AsyncClient, tenant: Tenant, tmp_path: Path, workers: str
) -> None:
    """The door view's server-sent events never end by themselves: without their end on SIGTERM
    the server would wait the whole graceful timeout for them. (The session is made through the
    service: the development identity provider keeps its codes in one process.)"""
    door = await open_door(client, tenant)
    pending = await pending_sign_in(await begin_sign_in("state", "nonce", "verifier", None))
    assert pending is not None
    cookies = {PLAIN_COOKIE: await complete_sign_in(pending, tenant.user_id)}
    graceful = 60
    async with (
        dashboard_server(
            tmp_path, "--workers", workers, TICKETING_SHUTDOWN_TIMEOUT_SECONDS=str(graceful)
        ) as server,
        httpx.AsyncClient(base_url=server.url, cookies=cookies, timeout=graceful) as browser,
    ):
        path = f"/dashboard/door/{door.venue.event['id']}/stream"
        async with browser.stream("GET", path) as stream:
            lines = stream.aiter_lines()
            assert await asyncio.wait_for(anext(lines), 10) == "event: ready"
            server.process.send_signal(signal.SIGTERM)
            rest = [line async for line in lines]  # the stream ends: no error, nothing lost
        assert all(not line or line.startswith(("data:", "retry:")) for line in rest), rest
        assert await asyncio.wait_for(server.process.wait(), graceful / 2) == 0
    assert "refused to gracefully stop" not in server.log()
    assert "Traceback" not in server.log()


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_sigterm_closes_subscriptions_with_1012_instead_of_waiting_for_them(
    client: httpx.AsyncClient, tenant: Tenant, workers: str
) -> None:
    """A GraphQL subscription never ends by itself either: on SIGTERM it is closed with 1012
    (service restart), and the client reconnects to another replica."""
    door = await open_door(client, tenant)
    graceful = 60
    async with served(
        "--workers", workers, TICKETING_SHUTDOWN_TIMEOUT_SECONDS=str(graceful)
    ) as server:
        variables = {"eventId": door.venue.event["id"]}
        async with subscribed(server.url, tenant.key, SCANS, variables) as subscriber:
            await live(subscriber, server.url, tenant, door)
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await subscriber.message(within=graceful / 2)
        assert closed.value.rcvd is not None, server.log()[-3000:]
        assert closed.value.rcvd.code == 1012
        assert await asyncio.wait_for(server.process.wait(), graceful / 2) == 0
    assert "refused to gracefully stop" not in server.log()
    assert "Traceback" not in server.log()


async def test_sigterm_to_the_worker_lets_the_delivery_in_flight_finish(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    async with Receiver(release=asyncio.Event()) as receiver:
        hook = await subscribe(client, tenant, receiver.url, ["order.created"])
        async with worker(REDIS_URL) as running:
            event_id = await emit(tenant, "order.created")
            await receiver.wait_for(1, within=30)
            running.process.send_signal(signal.SIGTERM)
            await running.wait_for_log("stopping: waiting")
            assert running.process.returncode is None
            assert receiver.release is not None
            receiver.release.set()
            assert await asyncio.wait_for(running.process.wait(), 30) == 0
        [delivery] = await settled_log(client, tenant, hook["id"])
    assert len(receiver.requests) == 1
    assert receiver.requests[0].headers["webhook-id"] == str(event_id)
    assert delivery["status"] == "delivered"
    assert delivery["attempts"] == 1
