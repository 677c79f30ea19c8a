"""Webhook test helpers: a real receiver on 127.0.0.1, subscriptions, the outbox, the log."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from httpx import AsyncClient
from standardwebhooks.webhooks import Webhook as StockVerifier

from app.services.outbox import record_event
from app.services.webhook_delivery import DeliveryRef, relay_outbox
from db.tables import WebhookDelivery
from db.transactions import transaction
from tests.harness import free_port
from tests.support import Tenant, ok

ALL_KINDS = ["order.created", "order.confirmed", "ticket.scanned", "ticket.cancelled"]


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
    """When set, the first request gets no answer until this event is set."""

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
                first = len(self.requests) == 1
                self.arrived.notify_all()
            if first and self.release is not None:
                await self.release.wait()
            status = self.statuses.pop(0) if self.statuses else self.otherwise
            head = f"HTTP/1.1 {status} Status\r\ncontent-length: 2\r\nconnection: close\r\n\r\n"
            writer.write(head.encode() + b"ok")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def wait_for(self, count: int, within: float = 20) -> list[Received]:
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: len(self.requests) >= count), within
            )
        return self.requests


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
    deadline = asyncio.get_running_loop().time() + within
    while True:
        log = ok(await client.get(f"/webhooks/{hook_id}/deliveries", headers=tenant.headers))
        if len(log["data"]) >= count and all(d["status"] != "pending" for d in log["data"]):
            return log["data"]
        assert asyncio.get_running_loop().time() < deadline, log
        await asyncio.sleep(0.05)


async def emit(tenant: Tenant, kind: str, data: dict[str, Any]) -> uuid.UUID:
    async with transaction():
        return await record_event(tenant.org_id, kind, data)


async def relay_refs(tenant: Tenant) -> list[DeliveryRef]:
    """Relay everything and return the pairs of ``tenant``'s organization."""
    refs: list[DeliveryRef] = []

    async def collect(batch: Any) -> None:
        refs.extend(batch)

    while await relay_outbox(collect):
        pass
    rows = await WebhookDelivery.select(WebhookDelivery.event_id).where(
        WebhookDelivery.organization_id == tenant.org_id
    )
    mine = {row["event_id"] for row in rows}
    return [ref for ref in refs if ref.event_id in mine]
