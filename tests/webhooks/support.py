"""Webhook test helpers: a real receiver on 127.0.0.1, subscriptions, the outbox, the log."""

from __future__ import annotations

import asyncio
import contextlib
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import msgspec
from httpx import AsyncClient
from standardwebhooks.webhooks import Webhook as StockVerifier

from app.schemas.webhook_events import BY_KIND, SUBSCRIBABLE, EventPayload
from app.services.outbox import record_event
from app.services.webhook_delivery import DeliveryRef, relay_outbox
from app.settings import Settings, get_settings
from app.timeutil import utcnow
from db.tables import WebhookDelivery
from db.transactions import transaction
from tests.harness import free_port
from tests.support import Tenant, gql_data, graphql, ok, operation
from workers.in_process import run_in_process

ALL_KINDS = list(SUBSCRIBABLE)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A webhook endpoint on 127.0.0.1 answering with ``statuses`` in turn, then ``otherwise``."""

    statuses: list[int] = field(default_factory=list)
    otherwise: int = 200
    requests: list[Received] = field(default_factory=list)
    arrived: asyncio.Condition = field(default_factory=asyncio.Condition)
    release: asyncio.Event | None = None
    """When set, the first request (every request with ``hold_all``) gets no answer until this
    event is set."""
    hold_all: bool = False
    open_now: int = 0
    most_open: int = 0
    """Requests waiting for their answer at once, now and at most (a held request whose client
    gave up no longer counts)."""

    async def __aenter__(self) -> Receiver:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", free_port())
        return self

    async def __aexit__(self, *_: object) -> None:
        self._server.close()
        if self.release is not None:
            self.release.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}/hook"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")[1:]
            headers = {
                name.strip().lower(): value.strip()
                for name, _, value in (line.partition(":") for line in lines if line)
            }
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            async with self.arrived:
                self.requests.append(Received(headers, body))
                held = self.release is not None and (self.hold_all or len(self.requests) == 1)
                self.open_now += 1
                self.most_open = max(self.most_open, self.open_now)
                self.arrived.notify_all()
            try:
                if held and self.release is not None and not await self._held(reader):
                    return
            finally:
                self.open_now -= 1
            status = self.statuses.pop(0) if self.statuses else self.otherwise
            head = f"HTTP/1.1 {status} Status\r\ncontent-length: 2\r\nconnection: close\r\n\r\n"
            writer.write(head.encode() + b"ok")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def _held(self, reader: asyncio.StreamReader) -> bool:
        """Hold the request until ``release`` is set (True), or until the client gives up and
        closes the connection (False: nobody is waiting for an answer any more)."""
        assert self.release is not None
        released = asyncio.ensure_future(self.release.wait())
        closed = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({released, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            released.cancel()
            closed.cancel()
        return released.done() and not released.cancelled()

    async def wait_for(self, count: int, within: float = 20) -> list[Received]:
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: len(self.requests) >= count), within
            )
        return self.requests

    async def wait_for_events(self, count: int, within: float = 20) -> list[Received]:
        """Wait until ``count`` different events arrived (a redelivery counts once)."""
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: len(event_ids(self.requests)) >= count), within
            )
        return self.requests


def event_ids(requests: list[Received]) -> set[str]:
    return {request.headers["webhook-id"] for request in requests}


def verified(received: Received, secret: str) -> dict[str, Any]:
    """The payload, if the stock verifier accepts the signature (it raises otherwise)."""
    return StockVerifier(secret).verify(received.body, received.headers)


async def subscribe(
    client: AsyncClient, tenant: Tenant, url: str, kinds: list[str] | None = None
) -> dict[str, Any]:
    body = {"url": url, "event_types": kinds or ALL_KINDS}
    return ok(await client.post("/webhooks", json=body, headers=tenant.headers), 201)


async def settled_log(
    client: AsyncClient, tenant: Tenant, hook_id: str, count: int = 1, within: float = 20
) -> list[dict[str, Any]]:
    """The delivery log once it holds ``count`` deliveries, none of them pending (bounded poll)."""
    return await Operations(client, tenant, "rest").settled(hook_id, count, within)


def payload_of(kind: str, **fields: Any) -> EventPayload:
    """A payload of ``kind``: ``fields`` as given, a fresh id or now for each field left out."""
    payload = BY_KIND[kind]
    made = {
        f.name: uuid.uuid4() if f.type is uuid.UUID else utcnow()
        for f in msgspec.structs.fields(payload)
    }
    return msgspec.convert({**made, **fields}, payload)


async def emit(tenant: Tenant, kind: str, **fields: Any) -> uuid.UUID:
    """Record an event of ``kind`` (see :func:`payload_of`) in a transaction of its own."""
    async with transaction():
        return await record_event(tenant.org_id, payload_of(kind, **fields))


async def relay_refs(tenant: Tenant) -> list[DeliveryRef]:
    """Relay the whole outbox and return the pending pairs of ``tenant``'s organization."""
    while await relay_outbox():
        pass
    rows = await WebhookDelivery.select(WebhookDelivery.event_id, WebhookDelivery.webhook_id).where(
        WebhookDelivery.organization_id == tenant.org_id, WebhookDelivery.status == "pending"
    )
    return [DeliveryRef(row["event_id"], row["webhook_id"]) for row in rows]


@asynccontextmanager
async def in_process_runner(settings: Settings | None = None) -> AsyncIterator[None]:
    """The in-process delivery loop, as ``ticketing serve`` runs it without Redis."""
    stop = asyncio.Event()
    task = asyncio.create_task(run_in_process(settings or get_settings(), stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


def snake(value: Any) -> Any:
    """A GraphQL answer with the REST field names."""
    if isinstance(value, dict):
        return {
            re.sub(r"[A-Z]", lambda m: "_" + m[0].lower(), k): snake(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [snake(item) for item in value]
    return value


@dataclass
class Operations:
    """The subscriber's operations on a subscription (edit, test, retry, rotate, the delivery log)
    through one transport, REST or GraphQL; answers carry REST's field names."""

    client: AsyncClient
    tenant: Tenant
    transport: str

    async def _graphql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        return snake(gql_data(await graphql(self.client, self.tenant.headers, query, variables)))

    async def create(self, url: str, kinds: list[str]) -> dict[str, Any]:
        if self.transport == "rest":
            return await subscribe(self.client, self.tenant, url, kinds)
        data = await self._graphql(operation("CreateWebhook"), {"url": url, "eventTypes": kinds})
        return data["create_webhook"]

    async def listed(self) -> list[str]:
        """The ids of the first page of subscriptions."""
        if self.transport == "rest":
            page = ok(await self.client.get("/webhooks", headers=self.tenant.headers))
            return [hook["id"] for hook in page["data"]]
        data = await self._graphql(operation("WebhooksWithDeliveryLogs"), {})
        return [hook["id"] for hook in data["webhooks"]["items"]]

    async def delete(self, hook_id: str) -> None:
        if self.transport == "rest":
            path = f"/webhooks/{hook_id}"
            answer = ok(await self.client.delete(path, headers=self.tenant.headers))
        else:
            data = await self._graphql(operation("DeleteWebhook"), {"id": hook_id})
            answer = data["delete_webhook"]
        assert answer == {"id": hook_id, "deleted": True}

    async def update(self, hook_id: str, **fields: Any) -> dict[str, Any]:
        if self.transport == "rest":
            return ok(
                await self.client.patch(
                    f"/webhooks/{hook_id}", json=fields, headers=self.tenant.headers
                )
            )
        camel = {re.sub(r"_(\w)", lambda m: m[1].upper(), k): v for k, v in fields.items()}
        data = await self._graphql(operation("UpdateWebhook"), {"input": {"id": hook_id, **camel}})
        return data["update_webhook"]

    async def test(self, hook_id: str) -> str:
        if self.transport == "rest":
            path = f"/webhooks/{hook_id}/test"
            return ok(await self.client.post(path, headers=self.tenant.headers), 202)["delivery_id"]
        data = await self._graphql(operation("TestWebhook"), {"id": hook_id})
        return data["test_webhook"]["delivery_id"]

    async def retry(self, hook_id: str, delivery_id: str) -> str:
        if self.transport == "rest":
            path = f"/webhooks/{hook_id}/deliveries/{delivery_id}/retry"
            return ok(await self.client.post(path, headers=self.tenant.headers), 202)["delivery_id"]
        data = await self._graphql(
            operation("RetryWebhookDelivery"), {"webhookId": hook_id, "deliveryId": delivery_id}
        )
        return data["retry_webhook_delivery"]["delivery_id"]

    async def rotate(self, hook_id: str) -> dict[str, Any]:
        if self.transport == "rest":
            path = f"/webhooks/{hook_id}/rotate-secret"
            return ok(await self.client.post(path, headers=self.tenant.headers))
        data = await self._graphql(operation("RotateWebhookSecret"), {"id": hook_id})
        return data["rotate_webhook_secret"]

    async def deliveries(self, hook_id: str) -> list[dict[str, Any]]:
        if self.transport == "rest":
            path = f"/webhooks/{hook_id}/deliveries"
            return ok(await self.client.get(path, headers=self.tenant.headers))["data"]
        data = await self._graphql(operation("WebhookDeliveryLog"), {"id": hook_id})
        return data["webhook"]["deliveries"]["items"]

    async def settled(
        self, hook_id: str, count: int = 1, within: float = 30
    ) -> list[dict[str, Any]]:
        """The delivery log once it holds ``count`` deliveries, none pending (bounded poll)."""
        deadline = asyncio.get_running_loop().time() + within
        while True:
            log = await self.deliveries(hook_id)
            if len(log) >= count and all(d["status"] != "pending" for d in log):
                return log
            assert asyncio.get_running_loop().time() < deadline, log
            await asyncio.sleep(0.05)
