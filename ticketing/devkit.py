"""``ticketing listen`` and ``ticketing trigger`` (CONTRACT.md section 18): a developer's local
webhook handler fed with the organization's events without a public URL or a subscription, and
test events caused on demand.

Both talk to a running service over its public interface only, with the key in
``TICKETING_API_KEY``: ``listen`` over one WebSocket to ``/listen`` (``rest/listen.py``), each
event POSTed to the local URL signed per Standard Webhooks; ``trigger`` through the REST API,
creating what the event needs in test mode.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import httpx
import msgspec
import websockets
from standardwebhooks.webhooks import Webhook as StandardWebhook

from app.schemas.webhook_events import SUBSCRIBABLE

SECRET_CONTEXT = b"ticketing listen signing secret v1"
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""Waits before the reconnects that follow one another without an event between them."""
FORWARD_TIMEOUT_SECONDS = 10.0
REFUSALS = {4400, 4401, 4403}
"""Close codes that a reconnect would only get again."""


class DevkitError(Exception):
    """A failure the command prints as one line and exits non-zero with."""


def listen_secret(key: str) -> str:
    """The signing secret of ``listen`` for ``key``: derived from the key, so the same across
    restarts, different for every key, and never stored anywhere."""
    digest = hmac.new(key.encode(), SECRET_CONTEXT, hashlib.sha256).digest()
    return "whsec_" + base64.b64encode(digest).decode()


def _websocket_url(api_url: str, query: dict[str, str]) -> str:
    base = api_url.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base.removeprefix("https://")
    elif base.startswith("http://"):
        base = "ws://" + base.removeprefix("http://")
    else:
        raise DevkitError(f"--api-url must start with http:// or https://, got {api_url!r}")
    return f"{base}/listen" + (f"?{urlencode(query)}" if query else "")


async def _whoami(api: httpx.AsyncClient) -> dict[str, Any]:
    try:
        response = await api.get("/whoami")
    except httpx.HTTPError as error:
        raise DevkitError(f"cannot reach the service at {api.base_url}: {error}") from None
    if response.status_code != 200:
        raise DevkitError(_problem(response))
    answer: dict[str, Any] = response.json()
    return answer


def _problem(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except ValueError:
        detail = None
    request = response.request
    said = detail or response.text[:200]
    return f"{request.method} {request.url.path}: {response.status_code} {said}"


async def listen(
    api_url: str,
    key: str,
    forward_to: str,
    events: str = "",
    *,
    say: Callable[[str], None] = print,
    stop_after: int | None = None,
) -> int:
    """Forward the key's events to ``forward_to`` until interrupted (or ``stop_after`` events);
    how many were forwarded. Reconnects on its own, resuming after the last event forwarded."""
    secret = listen_secret(key)
    signer = StandardWebhook(secret)
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx.AsyncClient(base_url=api_url, headers=headers, timeout=10.0) as api,
        httpx.AsyncClient(timeout=FORWARD_TIMEOUT_SECONDS) as local,
    ):
        me = await _whoami(api)
        mode = "live" if me.get("livemode", True) else "test"
        say(f"Forwarding {mode} events of {me['organization']} to {forward_to}")
        say(f"Signing secret: {secret}")
        last: str | None = None
        forwarded, failures = 0, 0
        while stop_after is None or forwarded < stop_after:
            query = {"events": events} if events else {}
            if last:
                query["after"] = last
            try:
                async with websockets.connect(
                    _websocket_url(api_url, query), additional_headers=headers, max_size=2**22
                ) as socket:
                    say("Ready: listening for events")
                    async for message in socket:
                        body = message.encode() if isinstance(message, str) else message
                        event = msgspec.json.decode(body)
                        status = await _forward(local, signer, forward_to, event["id"], body)
                        say(f"{event['event_type']} {event['id']} -> {status}")
                        last, failures = event["id"], 0
                        forwarded += 1
                        if stop_after is not None and forwarded >= stop_after:
                            return forwarded
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code in REFUSALS:
                    raise DevkitError(f"the service refused: {closed.rcvd.reason}") from None
            except (OSError, websockets.InvalidHandshake) as error:
                say(f"Connection lost ({type(error).__name__}); reconnecting")
            wait = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
            failures += 1
            await asyncio.sleep(wait)
    return forwarded


async def _forward(
    local: httpx.AsyncClient, signer: StandardWebhook, url: str, message_id: str, body: bytes
) -> str:
    """POST one event as a webhook delivery would; the answer's status, or what went wrong."""
    timestamp = int(time.time())
    headers = {
        "content-type": "application/json",
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signer.sign(
            message_id, datetime.fromtimestamp(timestamp, UTC), body.decode()
        ),
    }
    try:
        response = await local.post(url, content=body, headers=headers)
    except httpx.HTTPError as error:
        return f"failed ({type(error).__name__})"
    return str(response.status_code)


async def trigger(api_url: str, key: str, event_type: str) -> dict[str, Any]:
    """Create the test data ``event_type`` needs and cause it; what was made."""
    if event_type not in SUBSCRIBABLE:
        raise DevkitError(f"unknown event type {event_type!r}; one of {', '.join(SUBSCRIBABLE)}")
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=api_url, headers=headers, timeout=20.0) as api:
        if (await _whoami(api)).get("livemode", True):
            raise DevkitError("trigger makes test data: use a test key (tk_test_...)")

        async def made(method: str, path: str, body: Any = None, status: int = 200) -> Any:
            response = await api.request(method, path, json=body)
            if response.status_code != status:
                raise DevkitError(_problem(response))
            return response.json()

        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        event = await made(
            "POST",
            "/events",
            {"title": f"Triggered {event_type} {stamp}", "starts_at": "2099-01-01T18:00:00Z"},
            201,
        )
        ticket_type = await made(
            "POST", f"/events/{event['id']}/ticket_types", {"name": "Test", "price": 10}, 201
        )
        timeslot = await made(
            "POST",
            f"/events/{event['id']}/timeslots",
            {
                "title": "Evening",
                "starts_at": "2099-01-01T18:00:00Z",
                "ends_at": "2099-01-01T23:00:00Z",
                "total_available": 10,
                "ticket_type_ids": [ticket_type["id"]],
            },
            201,
        )
        order = await made(
            "POST",
            "/orders",
            {
                "event_id": event["id"],
                "event_timeslot_id": timeslot["id"],
                "buyer_name": "Test Buyer",
                "buyer_email": "buyer@example.com",
                "channel": "api",
                "payment_method": "invoice",
                "tickets": [{"ticket_type_id": ticket_type["id"]}],
            },
            201,
        )
        result: dict[str, Any] = {
            "event_type": event_type,
            "event_id": event["id"],
            "ticket_type_id": ticket_type["id"],
            "timeslot_id": timeslot["id"],
            "order_id": order["id"],
        }
        if event_type == "order.created":
            return result
        await made("POST", f"/orders/{order['id']}/confirm")
        if event_type == "order.confirmed":
            return result
        tickets = await made("GET", f"/events/{event['id']}/tickets?order_id={order['id']}")
        ticket_id = tickets["data"][0]["id"]
        result["ticket_id"] = ticket_id
        if event_type == "ticket.cancelled":
            await made("POST", f"/tickets/{ticket_id}/cancel")
            return result
        scanner = await made("POST", "/scanners", {"name": f"Trigger {stamp}"}, 201)
        result["scanner_id"] = scanner["id"]
        await made("POST", f"/tickets/{ticket_id}/scan", {"scanner_id": scanner["id"]})
        return result
