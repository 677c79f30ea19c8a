"""GraphQL subscriptions over WebSocket (CONTRACT.md section 12), against real `ticketing serve`
processes sharing a Redis: delivery across replicas, only after commit, only to the organization,
and a subscriber that cannot keep up is dropped while the server's memory stays flat."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection, connect

from tests import harness
from tests.processes import RunningProcess, served
from tests.support import Door, Tenant, key_for, ok, open_door, operation

PROTOCOL = "graphql-transport-ws"
WAIT_SECONDS = 20.0
SCANS = operation("DoorScans")
ORDER_CHANGES = operation("EventOrderChanges")


def ws_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/graphql"


class Subscriber:
    """One graphql-transport-ws connection running one subscription."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    async def message(self, within: float = WAIT_SECONDS) -> dict[str, Any]:
        return json.loads(await asyncio.wait_for(self.socket.recv(), within))

    async def next(self, within: float = WAIT_SECONDS) -> dict[str, Any]:
        """The next notification's data (pings are answered)."""
        while True:
            message = await self.message(within)
            if message["type"] == "ping":
                await self.socket.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            return message["payload"]["data"]

    async def maybe_next(self, within: float) -> dict[str, Any] | None:
        try:
            return await self.next(within)
        except TimeoutError:
            return None


@contextlib.asynccontextmanager
async def subscribed(
    base_url: str,
    token: str,
    query: str,
    variables: dict[str, Any] | None = None,
    **options: Any,
) -> AsyncIterator[Subscriber]:
    async with connect(ws_url(base_url), subprotocols=[PROTOCOL], **options) as socket:
        await socket.send(
            json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
        )
        subscriber = Subscriber(socket)
        assert (await subscriber.message())["type"] == "connection_ack"
        payload = {"query": query, "variables": variables or {}}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        yield subscriber


@pytest.fixture(scope="module")
async def replicas(database: None) -> AsyncIterator[list[RunningProcess]]:
    """Two servers on this run's database and Redis (their live notifications meet there)."""
    async with (
        served(REDIS_URL=harness.REDIS_URL) as first,
        served(REDIS_URL=harness.REDIS_URL) as second,
    ):
        yield [first, second]


async def scan(base_url: str, tenant: Tenant, door: Door, ticket: int = 0) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers, timeout=30) as http:
        path = f"/tickets/{door.tickets[ticket]['id']}/scan"
        return ok(await http.post(path, json={"scanner_id": door.scanner["id"]}))


async def live(subscriber: Subscriber, base_url: str, tenant: Tenant, door: Door) -> dict[str, Any]:
    """Scan until the subscriber hears a scan (it is registered a moment after ``subscribe``);
    the notification it heard."""
    for _ in range(20):
        await scan(base_url, tenant, door)
        heard = await subscriber.maybe_next(within=1.0)
        if heard is not None:
            return heard["scans"]
    raise AssertionError("the subscription never delivered a scan")


async def until(subscriber: Subscriber, field: str, ticket_id: str) -> list[dict[str, Any]]:
    """Notifications up to and including the first about ``ticket_id``."""
    heard = []
    while True:
        notice = (await subscriber.next())[field]
        heard.append(notice)
        if notice["ticketId"] == ticket_id:
            return heard


@pytest.mark.slow
async def test_a_scan_on_one_replica_reaches_a_subscriber_on_the_other(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[RunningProcess]
) -> None:
    door = await open_door(client, tenant, tickets=2)
    first, second = (replica.url for replica in replicas)
    variables = {"eventId": door.venue.event["id"]}
    async with subscribed(second, tenant.key, SCANS, variables) as subscriber:
        await live(subscriber, first, tenant, door)
        result = await scan(first, tenant, door, ticket=1)
        [*_, notice] = await until(subscriber, "scans", door.tickets[1]["id"])
    assert notice == {
        "ticketId": door.tickets[1]["id"],
        "eventId": door.venue.event["id"],
        "scannerId": door.scanner["id"],
        "status": "valid",
        "reason": None,
        "scannedAt": result["scanned_at"],
    }


@pytest.mark.slow
async def test_a_rolled_back_scan_is_never_delivered(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[RunningProcess]
) -> None:
    """A scan that rolls back after it was made is not announced; the next committed one is."""
    from app.principal import SCOPES, Principal
    from app.runtime import live as live_updates
    from app.services.scanning import scan_ticket
    from db.tables import Scan
    from db.transactions import transaction

    door = await open_door(client, tenant, tickets=3)
    first, second = (replica.url for replica in replicas)
    principal = Principal(
        organization_id=tenant.org_id,
        user_id=tenant.user_id,
        scopes=frozenset(SCOPES),
        credential="api_key",
        credential_id=tenant.key_id,
    )
    hub = live_updates.hub_for(harness.REDIS_URL, harness.RUN_NAME)
    await hub.start()
    live_updates.bind_hub(hub)
    try:
        async with subscribed(second, tenant.key, SCANS) as subscriber:
            await live(subscriber, first, tenant, door)
            with pytest.raises(RuntimeError, match="changed our mind"):
                async with transaction():
                    admitted = await scan_ticket(principal, ticket_id=UUID(door.tickets[1]["id"]))
                    assert admitted.status == "valid"
                    raise RuntimeError("changed our mind")
            await scan_ticket(principal, ticket_id=UUID(door.tickets[2]["id"]))
            heard = await until(subscriber, "scans", door.tickets[2]["id"])
    finally:
        live_updates.bind_hub(None)
        await hub.stop()
    assert door.tickets[1]["id"] not in {notice["ticketId"] for notice in heard}
    assert await Scan.count().where(Scan.ticket_id == door.tickets[1]["id"]) == 0


@pytest.mark.slow
async def test_another_organization_s_scans_are_never_delivered(
    client: httpx.AsyncClient,
    tenant: Tenant,
    other_tenant: Tenant,
    replicas: list[RunningProcess],
) -> None:
    mine = await open_door(client, tenant, tickets=2)
    theirs = await open_door(client, other_tenant, tickets=1)
    first, second = (replica.url for replica in replicas)
    async with subscribed(second, tenant.key, SCANS) as subscriber:
        await live(subscriber, first, tenant, mine)
        await scan(first, other_tenant, theirs)
        await scan(second, other_tenant, theirs)
        await scan(first, tenant, mine, ticket=1)
        heard = await until(subscriber, "scans", mine.tickets[1]["id"])
    assert theirs.tickets[0]["id"] not in {notice["ticketId"] for notice in heard}
    assert {notice["eventId"] for notice in heard} == {mine.venue.event["id"]}


@pytest.mark.slow
async def test_order_changes_reach_subscribers_of_the_event(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[RunningProcess]
) -> None:
    door = await open_door(client, tenant, tickets=1)
    first, second = (replica.url for replica in replicas)
    event_id = door.venue.event["id"]
    order = {
        "event_id": event_id,
        "event_timeslot_id": door.venue.timeslot["id"],
        "buyer_name": "Ada",
        "buyer_email": "ada@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": door.venue.ticket_type["id"]}],
    }
    async with (
        subscribed(second, tenant.key, ORDER_CHANGES, {"eventId": event_id}) as subscriber,
        httpx.AsyncClient(base_url=first, headers=tenant.headers, timeout=30) as http,
    ):
        for _ in range(20):  # until the subscription is registered
            placed = ok(await http.post("/orders", json=order), 201)
            heard = await subscriber.maybe_next(within=1.0)
            if heard is not None:
                break
        assert heard is not None
        while heard["orderChanges"]["order"]["id"] != placed["id"]:
            heard = await subscriber.next()
        assert heard["orderChanges"] == {
            "type": "CREATED",
            "order": {"id": placed["id"], "status": "pending", "buyerName": "Ada"},
        }
        ok(await http.post(f"/orders/{placed['id']}/confirm"))
        ok(await http.post(f"/orders/{placed['id']}/cancel"))
        changes = [(await subscriber.next())["orderChanges"] for _ in range(2)]
    assert [(c["type"], c["order"]["id"], c["order"]["status"]) for c in changes] == [
        ("CONFIRMED", placed["id"], "confirmed"),
        ("CANCELLED", placed["id"], "cancelled"),
    ]


@pytest.mark.slow
async def test_connections_need_a_valid_credential_and_subscriptions_their_scope(
    client: httpx.AsyncClient,
    tenant: Tenant,
    other_tenant: Tenant,
    replicas: list[RunningProcess],
) -> None:
    url = ws_url(replicas[0].url)
    for payload in ({}, {"authorization": "Bearer tk_live_nope"}, {"authorization": "nope"}):
        async with connect(url, subprotocols=[PROTOCOL]) as socket:
            await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), WAIT_SECONDS)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    lacking = (await key_for(tenant, ["events.read", "orders.read"]))["Authorization"].split()[1]
    theirs = await open_door(client, other_tenant)
    for token, query, variables, code in (
        (lacking, SCANS, {}, "FORBIDDEN"),
        (tenant.key, SCANS, {"eventId": theirs.venue.event["id"]}, "NOT_FOUND"),
        (tenant.key, "subscription { scans { nope } }", {}, "GRAPHQL_VALIDATION_FAILED"),
    ):
        async with subscribed(replicas[0].url, token, query, variables) as subscriber:
            message = await subscriber.message()
            if message["type"] == "next":  # an error while resolving: a result with errors
                errors = message["payload"]["errors"]
                assert (await subscriber.message())["type"] == "complete"
            else:
                assert message["type"] == "error", message
                errors = message["payload"]
        assert [error["extensions"]["code"] for error in errors] == [code], errors


class UnreadSocket:
    """A graphql-transport-ws client that stops reading once subscribed, on a socket with a
    small receive buffer: a phone on a bad network. Plain socket frames, so that no client
    library reads on its behalf."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.loop = asyncio.get_running_loop()

    @classmethod
    async def open(cls, base_url: str, token: str, queries: list[str]) -> UnreadSocket:
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.setblocking(False)
        host, port = base_url.removeprefix("http://").split(":")
        unread = cls(connection)
        await unread.loop.sock_connect(connection, (host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        await unread.loop.sock_sendall(
            connection,
            f"GET /graphql HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Protocol: {PROTOCOL}\r\n\r\n".encode(),
        )
        head = await asyncio.wait_for(unread.loop.sock_recv(connection, 4096), WAIT_SECONDS)
        assert head.startswith(b"HTTP/1.1 101"), head
        await unread.send(
            {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}
        )
        ack = await asyncio.wait_for(unread.loop.sock_recv(connection, 4096), WAIT_SECONDS)
        assert b"connection_ack" in ack, ack
        for number, query in enumerate(queries):
            payload = {"query": query, "variables": {}}
            await unread.send({"id": str(number), "type": "subscribe", "payload": payload})
        return unread

    async def send(self, message: dict[str, Any]) -> None:
        """One masked text frame (a client must mask)."""
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(data))
        assert len(data) < 65536
        length = bytes([0x80 | len(data)]) if len(data) < 126 else b"\xfe" + len(data).to_bytes(2)
        await self.loop.sock_sendall(self.connection, b"\x81" + length + mask + masked)

    async def read_to_the_end(self) -> int:
        """Read what the server sent until it closes the connection; how many bytes."""
        total = 0
        while True:
            chunk = await asyncio.wait_for(
                self.loop.sock_recv(self.connection, 65536), WAIT_SECONDS
            )
            if not chunk:
                return total
            total += len(chunk)

    def close(self) -> None:
        self.connection.close()


def resident_kib(process: RunningProcess) -> int:
    """The server process's resident memory (Linux)."""
    status = Path(f"/proc/{process.process.pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert match, status
    return int(match.group(1))


async def dropped_subscribers(http: httpx.AsyncClient) -> float:
    text = (await http.get("/metrics")).text
    match = re.search(
        r'^ticketing_live_dropped_subscribers_total\{topic="scans"\} (\S+)$', text, re.M
    )
    return float(match.group(1)) if match else 0.0


HEAVY_ORDERS = 16
METADATA_CHARS = 300_000
FLOOD_ROUNDS = 20
ALIASES = 30
HEAVY_ORDER_CHANGES = operation("OrderChangesWithMetadata")


@pytest.mark.slow
async def test_a_subscriber_that_cannot_keep_up_is_dropped_and_memory_stays_flat(
    client: httpx.AsyncClient, tenant: Tenant, replicas: list[RunningProcess]
) -> None:
    """A client that stops reading: a few large notifications fill its connection's buffers,
    then its scans queue up at the server to the bound and it is disconnected; the server's
    memory stays flat, and a subscriber on the same server that reads gets every scan."""
    door = await open_door(client, tenant, tickets=2)
    server = replicas[1]
    ticket, scanner = door.tickets[1]["id"], door.scanner["id"]
    scans = " ".join(
        f'a{i}: scanTicket(ticketId: "{ticket}", scannerId: "{scanner}") {{ status }}'
        for i in range(ALIASES)
    )
    heavy_order = {
        "event_id": door.venue.event["id"],
        "event_timeslot_id": door.venue.timeslot["id"],
        "buyer_name": "Ada",
        "buyer_email": "ada@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [
            {
                "ticket_type_id": door.venue.ticket_type["id"],
                "metadata": {"notes": "x" * METADATA_CHARS},
            }
        ],
    }
    slow = await UnreadSocket.open(server.url, tenant.key, [HEAVY_ORDER_CHANGES, SCANS])
    async with (
        httpx.AsyncClient(base_url=replicas[0].url, headers=tenant.headers, timeout=60) as http,
        httpx.AsyncClient(base_url=server.url, timeout=60) as metrics,
        subscribed(server.url, tenant.key, SCANS) as reader,
    ):
        await live(reader, replicas[0].url, tenant, door)
        dropped_before = await dropped_subscribers(metrics)
        memory_before = resident_kib(server)
        for _ in range(HEAVY_ORDERS):
            ok(await http.post("/orders", json=heavy_order), 201)
        received = 0

        async def read_everything() -> None:
            nonlocal received
            while True:
                await reader.next()
                received += 1

        reading = asyncio.create_task(read_everything())
        rounds = 0
        while rounds < FLOOD_ROUNDS and await dropped_subscribers(metrics) == dropped_before:
            body = ok(await http.post("/graphql", json={"query": f"mutation {{ {scans} }}"}))
            assert "errors" not in body, body
            rounds += 1
        assert await dropped_subscribers(metrics) == dropped_before + 1, f"{rounds} rounds"
        memory_after = resident_kib(server)
        for _ in range(100):  # the reader hears every scan of the flood (a bounded wait)
            if received >= rounds * ALIASES:
                break
            await asyncio.sleep(0.1)
        reading.cancel()
        assert received == rounds * ALIASES
    # The slow client finds its connection closed once it reads what was sent before.
    try:
        sent = await slow.read_to_the_end()
    finally:
        slow.close()
    assert 0 < sent < HEAVY_ORDERS * METADATA_CHARS  # what it missed was dropped, not queued
    assert memory_after - memory_before < 30_000, (memory_before, memory_after)
