"""Webhook delivery: relay of the outbox, signing, one delivery attempt, and the retry policy.

Flow: services write domain events to the outbox in their own transaction. The relay claims
unrelayed outbox rows, creates one delivery row per (event, matching active subscription) and
marks the rows relayed in one transaction, then hands the pairs to a scheduler (arq jobs, or
nothing when the in-process runner polls); if scheduling fails (Redis down) the rows go back to
unrelayed and the next relay run takes them again. A delivery attempt claims its row with a
conditional UPDATE that also sets a lease, so a worker that dies mid-attempt leaves a row that is
retried once the lease runs out, with the same event id (at-least-once; subscribers deduplicate
by webhook-id).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import httpx
import msgspec

from app.observability import count_delivery_attempt
from app.services.public_transport import PublicTransport
from app.services.url_safety import BlockedAddress
from app.services.webhooks import SECRET_PREFIX
from app.settings import Settings
from app.timeutil import utcnow
from db.tables import OutboxEvent, Webhook, WebhookDelivery, WebhookDeliveryAttempt
from db.transactions import transaction

DELIVERY_TIMEOUT_SECONDS = 10.0
LEASE_SECONDS = 15.0
MAX_BACKOFF_SECONDS = 6 * 3600.0
"""How long a claimed attempt keeps others off its delivery: longer than the 10 s attempt."""
RELAY_BATCH = 500
INSERT_CHUNK = 1000
MAX_RESPONSE_BYTES = 64 * 1024
USER_AGENT = "ticketing-webhooks/1.0"


@dataclass(frozen=True, slots=True)
class DeliveryRef:
    """One (event, subscription) pair: the unit of delivery and of the arq job."""

    event_id: UUID
    webhook_id: UUID

    def job_id(self, queue_name: str) -> str:
        """The arq job id of the pair, in the queue's namespace (arq's job ids are global to a
        Redis, and everything a deployment keeps there carries its queue name)."""
        return f"{queue_name}:deliver:{self.event_id}:{self.webhook_id}"


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """``retry_in`` is set when the pair must be tried again after that many seconds."""

    outcome: str
    retry_in: float | None = None


Scheduler = Callable[[Sequence[DeliveryRef]], Awaitable[None]]


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The Standard Webhooks ``webhook-signature``: v1, base64 HMAC-SHA256 of ``id.ts.body``."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    digest = hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def _unjittered_backoff(attempt: int, base: float) -> float:
    return min(base * 2 ** (attempt - 1), MAX_BACKOFF_SECONDS)


def backoff_seconds(attempt: int, base: float) -> float:
    """Delay after failed attempt ``attempt`` (1-based): base * 2^(attempt-1), capped at six
    hours, jittered +-20 %.

    With the default base of 30 s and 14 attempts the last one comes about 26 hours after the
    first: "about a day" of retries (CONTRACT.md section 6).
    """
    return _unjittered_backoff(attempt, base) * random.uniform(0.8, 1.2)


def retry_horizon(settings: Settings) -> timedelta:
    """An upper bound of the time between a delivery's first and last attempt."""
    waits = sum(
        _unjittered_backoff(n, settings.webhook_retry_base_seconds) * 1.2
        for n in range(1, settings.webhook_max_attempts)
    )
    return timedelta(seconds=waits + settings.webhook_max_attempts * LEASE_SECONDS)


def delivery_client(settings: Settings) -> httpx.AsyncClient:
    """The HTTP client of deliveries: no redirects, no proxies from the environment, and every
    connection made through :class:`PublicNetworkBackend` (see :class:`PublicTransport`)."""
    return httpx.AsyncClient(
        transport=PublicTransport(allow_private=settings.allow_private_webhooks),
        follow_redirects=False,
        trust_env=False,
        timeout=httpx.Timeout(DELIVERY_TIMEOUT_SECONDS),
        headers={"user-agent": USER_AGENT},
    )


def _is_sqlite() -> bool:
    return OutboxEvent._meta.db.engine_type == "sqlite"


async def relay_outbox(schedule: Scheduler, *, batch_size: int = RELAY_BATCH) -> int:
    """Relay one batch of outbox rows; return how many rows were relayed (0: nothing to do).

    Safe with several relays at once: on PostgreSQL the rows are claimed with
    ``FOR UPDATE SKIP LOCKED``, so two relays never take the same row (SQLite is single-process).
    Running twice schedules nothing twice: a relayed row is not taken again, delivery rows are
    unique per (event, subscription), and scheduling is idempotent per pair.

    The pairs are scheduled after the commit, so that a job never starts before its delivery row
    is visible. When scheduling fails (Redis down) the rows are marked unrelayed again and the
    next run takes them; a process that dies in between leaves pending deliveries, which
    :func:`due_deliveries` finds.
    """
    async with transaction():
        query = (
            OutboxEvent.select(OutboxEvent.id, OutboxEvent.organization_id, OutboxEvent.event_type)
            .where(OutboxEvent.relayed_at.is_null())
            .order_by(OutboxEvent.created_at)
            .limit(batch_size)
        )
        if not _is_sqlite():
            query = query.lock_rows("UPDATE", skip_locked=True, of=(OutboxEvent,))
        events = await query
        if not events:
            return 0
        subscriptions: dict[UUID, list[tuple[UUID, set[str]]]] = {}
        for row in (
            await Webhook.select(Webhook.id, Webhook.organization_id, Webhook.event_types)
            .where(
                Webhook.organization_id.is_in(list({e["organization_id"] for e in events})),
                Webhook.active.eq(True),
            )
            .output(load_json=True)
        ):
            subscriptions.setdefault(row["organization_id"], []).append(
                (row["id"], set(row["event_types"]))
            )
        now = utcnow()
        refs = [
            DeliveryRef(event["id"], webhook_id)
            for event in events
            for webhook_id, kinds in subscriptions.get(event["organization_id"], [])
            if event["event_type"] in kinds
        ]
        organization_of = {e["id"]: e["organization_id"] for e in events}
        for start in range(0, len(refs), INSERT_CHUNK):
            await WebhookDelivery.insert(
                *[
                    WebhookDelivery(
                        organization_id=organization_of[ref.event_id],
                        webhook_id=ref.webhook_id,
                        event_id=ref.event_id,
                        status="pending",
                        attempts=0,
                        next_attempt_at=now,
                        created_at=now,
                        updated_at=now,
                    )
                    for ref in refs[start : start + INSERT_CHUNK]
                ]
            ).on_conflict(action="DO NOTHING")
        event_ids = [e["id"] for e in events]
        await OutboxEvent.update({OutboxEvent.relayed_at: now}).where(
            OutboxEvent.id.is_in(event_ids)
        )
    if refs:
        try:
            await schedule(refs)
        except BaseException:
            await asyncio.shield(
                OutboxEvent.update({OutboxEvent.relayed_at: None}).where(
                    OutboxEvent.id.is_in(event_ids)
                )
            )
            raise
    return len(events)


async def due_deliveries(before: datetime, limit: int) -> list[DeliveryRef]:
    """Pending pairs whose next attempt is due at ``before``, the most overdue first.

    The in-process runner polls this; the arq worker uses it, with ``before`` well in the past,
    to reschedule pairs whose job was lost (Redis restarted without its data, say).
    """
    rows = (
        await WebhookDelivery.select(WebhookDelivery.event_id, WebhookDelivery.webhook_id)
        .where(
            WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at <= before,
        )
        .order_by(WebhookDelivery.next_attempt_at)
        .limit(limit)
    )
    return [DeliveryRef(row["event_id"], row["webhook_id"]) for row in rows]


def _pair(ref: DeliveryRef) -> tuple[Any, Any]:
    return (WebhookDelivery.event_id == ref.event_id, WebhookDelivery.webhook_id == ref.webhook_id)


async def _claim(ref: DeliveryRef, now: datetime) -> dict[str, Any] | AttemptResult:
    """Take the pair for one attempt, or say why not (gone, finished, or not due yet)."""
    claimed = (
        await WebhookDelivery.update(
            {
                WebhookDelivery.attempts: WebhookDelivery.attempts + 1,
                WebhookDelivery.next_attempt_at: now + timedelta(seconds=LEASE_SECONDS),
                WebhookDelivery.updated_at: now,
            }
        )
        .where(
            *_pair(ref),
            WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at <= now,
        )
        .returning(WebhookDelivery.id, WebhookDelivery.attempts)
    )
    if claimed:
        return claimed[0]
    current = (
        await WebhookDelivery.select(WebhookDelivery.status, WebhookDelivery.next_attempt_at)
        .where(*_pair(ref))
        .first()
    )
    if current is None or current["status"] != "pending":
        return AttemptResult("skipped")
    wait = (current["next_attempt_at"] - now).total_seconds()
    return AttemptResult("not_due", retry_in=max(wait, 0.1))


async def _send(
    client: httpx.AsyncClient, url: str, body: bytes, headers: dict[str, str]
) -> tuple[int | None, str | None]:
    """POST once; the status code, or the error that prevented one. Redirects are not followed
    and at most :data:`MAX_RESPONSE_BYTES` of the answer are read."""
    try:
        async with (
            asyncio.timeout(DELIVERY_TIMEOUT_SECONDS),
            client.stream("POST", url, content=body, headers=headers) as response,
        ):
            received = 0
            async for chunk in response.aiter_raw():
                received += len(chunk)
                if received > MAX_RESPONSE_BYTES:
                    break
            return response.status_code, None
    except BlockedAddress as error:
        return None, f"blocked, nothing sent: {error}"
    except (TimeoutError, httpx.TimeoutException):
        return None, f"no answer within {DELIVERY_TIMEOUT_SECONDS:g} s"
    except httpx.HTTPError as error:
        return None, f"{type(error).__name__}: {error}"


def _classify(status_code: int | None, error: str | None) -> tuple[str, str | None]:
    """(``delivered`` | ``retry`` | ``failed`` | ``gone``, error text for the log)."""
    if status_code is None:
        return "retry", error
    if 200 <= status_code < 300:
        return "delivered", None
    if status_code == 410:
        return "gone", "HTTP 410 Gone: subscription disabled"
    if status_code == 429 or status_code >= 500:
        return "retry", f"HTTP {status_code}"
    if 300 <= status_code < 400:
        return "failed", f"HTTP {status_code}: redirects are not followed"
    return "failed", f"HTTP {status_code}"


async def attempt_delivery(
    ref: DeliveryRef, *, client: httpx.AsyncClient, settings: Settings
) -> AttemptResult:
    """Make one attempt of one (event, subscription) pair and record it in the delivery log."""
    claim = await _claim(ref, utcnow())
    if isinstance(claim, AttemptResult):
        return claim
    delivery_id, attempt = claim["id"], claim["attempts"]
    target = (
        await WebhookDelivery.select(
            WebhookDelivery.webhook_id.url.as_alias("url"),
            WebhookDelivery.webhook_id.secret.as_alias("secret"),
            WebhookDelivery.webhook_id.active.as_alias("active"),
            WebhookDelivery.event_id.event_type.as_alias("event_type"),
            WebhookDelivery.event_id.payload.as_alias("payload"),
            WebhookDelivery.event_id.created_at.as_alias("occurred_at"),
        )
        .where(WebhookDelivery.id == delivery_id)
        .first()
    )
    if target is None:
        return AttemptResult("skipped")
    started_at = utcnow()
    clock = time.perf_counter()
    if not target["active"]:
        status_code, error = None, "subscription disabled"
        verdict = "failed"
    else:
        payload = target["payload"]
        body = msgspec.json.encode(
            {
                "id": str(ref.event_id),
                "event_type": target["event_type"],
                "timestamp": target["occurred_at"],
                "data": msgspec.Raw(
                    payload if isinstance(payload, str) else msgspec.json.encode(payload)
                ),
            }
        )
        timestamp = int(time.time())
        headers = {
            "content-type": "application/json",
            "webhook-id": str(ref.event_id),
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(target["secret"], str(ref.event_id), timestamp, body),
        }
        status_code, error = await _send(client, target["url"], body, headers)
        verdict, error = _classify(status_code, error)
    duration_ms = int((time.perf_counter() - clock) * 1000)
    return await _record(
        ref, delivery_id, attempt, verdict, status_code, error, started_at, duration_ms, settings
    )


async def _record(
    ref: DeliveryRef,
    delivery_id: UUID,
    attempt: int,
    verdict: str,
    status_code: int | None,
    error: str | None,
    started_at: datetime,
    duration_ms: int,
    settings: Settings,
) -> AttemptResult:
    now = utcnow()
    retry_in: float | None = None
    if verdict == "retry" and attempt < settings.webhook_max_attempts:
        retry_in = backoff_seconds(attempt, settings.webhook_retry_base_seconds)
    if verdict == "delivered":
        status = "delivered"
    elif retry_in is not None:
        status = "pending"
    else:
        status = "failed"
    async with transaction():
        updated = (
            await WebhookDelivery.update(
                {
                    WebhookDelivery.status: status,
                    WebhookDelivery.last_status_code: status_code,
                    WebhookDelivery.last_error: error,
                    WebhookDelivery.next_attempt_at: (
                        now + timedelta(seconds=retry_in) if retry_in is not None else None
                    ),
                    WebhookDelivery.delivered_at: now if status == "delivered" else None,
                    WebhookDelivery.updated_at: now,
                }
            )
            .where(
                WebhookDelivery.id == delivery_id,
                WebhookDelivery.status == "pending",
                WebhookDelivery.attempts == attempt,
            )
            .returning(WebhookDelivery.id)
        )
        if not updated:
            return AttemptResult("skipped")
        await WebhookDeliveryAttempt.insert(
            WebhookDeliveryAttempt(
                delivery_id=delivery_id,
                attempt=attempt,
                status_code=status_code,
                error=error,
                duration_ms=duration_ms,
                started_at=started_at,
            )
        )
        if verdict == "gone":
            await Webhook.update(
                {Webhook.active: False, Webhook.disabled_reason: "the endpoint answered 410 Gone"}
            ).where(Webhook.id == ref.webhook_id)
    outcome = "gone" if verdict == "gone" else "retry" if status == "pending" else status
    count_delivery_attempt(ref.event_id, ref.webhook_id, attempt, outcome, status_code, duration_ms)
    return AttemptResult(status if verdict != "gone" else "gone", retry_in=retry_in)
