"""Webhook delivery: relay of the outbox, hand-over of due deliveries, signing, one delivery
attempt, and the retry policy.

Flow: services write domain events to the outbox in their own transaction, and wake the relay when
it commits (``app.services.outbox.announce_work``). The relay (:func:`relay_outbox`) turns
unrelayed outbox rows into one pending delivery per (event, matching active subscription), due at
once. The dispatcher (:func:`dispatch_due`) hands due deliveries to a scheduler (arq jobs, or tasks
of the in-process runner) under a lease: the database, not the queue, holds the schedule, so a
retry, a manual retry, a test delivery and a job lost with Redis's data all take the same path.

An attempt (:func:`attempt_delivery`) claims its delivery with a conditional UPDATE that marks the
attempt as started and sets a lease, so a worker that dies mid-attempt leaves a delivery that is
taken up again once the lease runs out: the lost attempt is logged as cut short and the next one
goes out with the same event id (at-least-once; subscribers deduplicate by webhook-id). In a
worker, the attempts that start together are claimed in one statement, and those that end
together recorded in one (:class:`AttemptBatches`); each attempt still waits for its own record.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from uuid import UUID

import httpx
import msgspec
from standardwebhooks.webhooks import Webhook as StandardWebhook

from app.outbound.transport import PublicTransport
from app.outbound.url_safety import BlockedAddress
from app.runtime.batching import Batcher
from app.runtime.observability import count_delivery_attempt
from app.settings import Settings
from app.timeutil import as_utc, utcnow
from db import deliveries
from db.rows import postgres
from db.tables import OutboxEvent, Webhook
from db.transactions import transaction

DELIVERY_TIMEOUT_SECONDS = 10.0
ATTEMPT_LEASE_SECONDS = 15.0
"""How long a claimed attempt keeps others off its delivery: longer than the 10 s attempt. An
attempt still marked in flight after that was cut short (its worker was killed)."""
DISPATCH_LEASE = timedelta(minutes=5)
"""How long a delivery handed to the scheduler is left alone before it is handed out again (its
job was lost, e.g. Redis restarted without its data). A live job starts far sooner."""
MAX_BACKOFF_SECONDS = 6 * 3600.0
RELAY_BATCH = 500
DISPATCH_BATCH = 500
DISPATCH_SHARE = 50
"""Deliveries of one subscription handed out (queued or in flight) at once, by default."""
ATTEMPT_BATCH = 200
"""At most this many claims, or records, in one statement (:class:`AttemptBatches`)."""
SATURATED_DELAY_SECONDS = 1.0
"""When a pair whose subscription had every slot of this process in use is handed out again."""
MAX_RESPONSE_BYTES = 64 * 1024
USER_AGENT = "ticketing-webhooks/1.0"
CUT_SHORT = "cut short: the attempt was interrupted (its worker stopped) and left no outcome"


@dataclass(frozen=True, slots=True)
class DeliveryRef:
    """One (event, subscription) pair: the unit of delivery (an arq job carries several)."""

    event_id: UUID
    webhook_id: UUID


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """``outcome``: delivered, retry (pending, tried again later), failed, exhausted, gone,
    skipped (nothing to do), busy (an attempt is in flight elsewhere) or saturated (this process
    has as many attempts of the subscription in flight as it allows; the pair is handed out again
    a moment later)."""

    outcome: str


Scheduler = Callable[[Sequence[DeliveryRef]], Awaitable[None]]


class InFlight:
    """Attempts in flight in this process, per subscription, at most ``per_subscription`` each:
    the process's own bound behind the dispatcher's share (:func:`dispatch_due`), which several
    dispatchers handing out at the same moment may briefly exceed together."""

    def __init__(self, per_subscription: int) -> None:
        self.per_subscription = per_subscription
        self._counts: Counter[UUID] = Counter()

    @contextmanager
    def slot(self, webhook_id: UUID) -> Iterator[bool]:
        """Take a slot of ``webhook_id`` for the block; yields False (and takes none) when the
        subscription has all its slots in use."""
        if self._counts[webhook_id] >= self.per_subscription:
            yield False
            return
        self._counts[webhook_id] += 1
        try:
            yield True
        finally:
            self._counts[webhook_id] -= 1
            if not self._counts[webhook_id]:
                del self._counts[webhook_id]


def signatures(secrets: Sequence[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The Standard Webhooks ``webhook-signature`` header: one ``v1,<base64 HMAC-SHA256>`` of
    ``id.timestamp.body`` per secret, space-separated, in the order given (the newest first).
    Signed by the ``standardwebhooks`` reference library, the one subscribers verify with."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    text = body.decode()
    return " ".join(_signer(secret).sign(message_id, moment, text) for secret in secrets)


@lru_cache(maxsize=4096)
def _signer(secret: str) -> StandardWebhook:
    """The signer of a secret, made once (it decodes the secret)."""
    return StandardWebhook(secret)


def signing_secrets(claimed: deliveries.Claimed, now: datetime) -> list[str]:
    """The current secret, then the previous one while it is still valid (after a rotation)."""
    secrets = [claimed.secret]
    expires = claimed.previous_secret_expires_at
    if claimed.previous_secret and expires is not None and as_utc(expires) > now:
        secrets.append(claimed.previous_secret)
    return secrets


def _unjittered_backoff(attempt: int, base: float) -> float:
    return min(base * 2.0 ** (attempt - 1), MAX_BACKOFF_SECONDS)


def backoff_seconds(attempt: int, base: float) -> float:
    """Delay after failed attempt ``attempt`` (1-based): base * 2^(attempt-1), capped at six
    hours, jittered +-20 %.

    With the default base of 30 s and 22 attempts the last one comes about 3 days (74.5 hours)
    after the first (CONTRACT.md sections 6 and 14).
    """
    return _unjittered_backoff(attempt, base) * random.uniform(0.8, 1.2)


def retry_horizon(settings: Settings) -> timedelta:
    """Without jitter, the time from a delivery's first attempt to its last."""
    waits = sum(
        _unjittered_backoff(n, settings.webhook_retry_base_seconds)
        for n in range(1, settings.webhook_max_attempts)
    )
    return timedelta(seconds=waits)


def delivery_client(settings: Settings, *, concurrency: int = 100) -> PublicTransport:
    """What deliveries send through: the httpx transport that makes every connection through
    :class:`PublicNetworkBackend` (see :class:`PublicTransport`), with room for ``concurrency``
    attempts at once; an async context manager that closes its connections.

    Deliveries use the transport, not an ``httpx.AsyncClient`` over it: a delivery needs none of
    the client's work per request (cookies, authentication, redirects, merging of base URL and
    default headers, event hooks), which cost as much CPU as the rest of the POST in the worker.
    Redirects are not followed (the transport never does), no proxy or certificate comes from the
    environment (the transport's), and the timeouts are set on each request (:func:`_send`)."""
    return PublicTransport(
        allow_private=settings.allow_private_webhooks, max_connections=concurrency
    )


_TIMEOUTS = {"timeout": httpx.Timeout(DELIVERY_TIMEOUT_SECONDS).as_dict()}


@lru_cache(maxsize=4096)
def _parsed_url(url: str) -> httpx.URL:
    """A subscription's URL, parsed once (httpx's parser is pure Python)."""
    return httpx.URL(url)


async def relay_outbox(*, batch_size: int = RELAY_BATCH) -> int:
    """Relay one batch of outbox rows into pending deliveries, due at once; return how many rows
    were relayed (0: nothing to do).

    Safe with several relays at once: on PostgreSQL the rows are claimed with
    ``FOR UPDATE SKIP LOCKED``, so two relays never take the same row (SQLite is single-process).
    Running twice creates nothing twice: a relayed row is not taken again, and deliveries are
    unique per (event, subscription). On PostgreSQL it is one statement (one round trip on the
    path from a commit to its deliveries, see ``db.deliveries.relay``).
    """
    if postgres():
        return await deliveries.relay(batch_size, utcnow())
    async with transaction():
        events = await (
            OutboxEvent.select(OutboxEvent.id, OutboxEvent.organization_id, OutboxEvent.event_type)
            .where(OutboxEvent.relayed_at.is_null())
            .order_by(OutboxEvent.created_at)
            .limit(batch_size)
        )
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
        await deliveries.insert_pending(
            [
                (event["organization_id"], webhook_id, event["id"])
                for event in events
                for webhook_id, kinds in subscriptions.get(event["organization_id"], [])
                if event["event_type"] in kinds
            ],
            now,
        )
        await OutboxEvent.update({OutboxEvent.relayed_at: now}).where(
            OutboxEvent.id.is_in([e["id"] for e in events])
        )
    return len(events)


async def dispatch_due(
    schedule: Scheduler, *, limit: int = DISPATCH_BATCH, share: int = DISPATCH_SHARE
) -> int:
    """Hand up to ``limit`` due deliveries to ``schedule``, at most ``share`` of one subscription
    handed out at once (those already out counted); return how many (0: none is due or every
    subscription with due deliveries has its share out).

    Each is leased for :data:`DISPATCH_LEASE` first, so that other dispatchers leave it alone while
    its job waits to run; should that job be lost, the delivery is handed out again when the lease
    ends. When ``schedule`` fails (Redis down) the leases are released at once, and the next run
    takes the deliveries again. The share is what keeps a slow or dead endpoint from delaying the
    others: its further deliveries wait in the database, costing nothing, until one of its
    attempts ends (see ``db.deliveries.take_due``).
    """
    now = utcnow()
    rows = await deliveries.take_due(now, now + DISPATCH_LEASE, limit, share)
    if not rows:
        return 0
    try:
        await schedule([DeliveryRef(row["event_id"], row["webhook_id"]) for row in rows])
    except BaseException:
        await asyncio.shield(deliveries.release([row["id"] for row in rows], utcnow()))
        raise
    return len(rows)


async def postpone(ref: DeliveryRef, seconds: float) -> None:
    """Hand a pair out again ``seconds`` from now instead of at its lease's end (for a pair that
    could not start: its subscription had every slot of this process in use)."""
    await deliveries.postpone(ref.event_id, ref.webhook_id, utcnow() + timedelta(seconds=seconds))


class AttemptBatches:
    """The claims and the records of one process's attempts, coalesced
    (``app.runtime.batching``): the attempts that start, or end, while the previous statement of
    their kind is under way are claimed, or recorded, together in the next one. With hundreds of
    attempts in flight that is a statement per batch instead of one per attempt; alone, an attempt
    waits for nothing."""

    def __init__(self, max_size: int = ATTEMPT_BATCH) -> None:
        self._claims = Batcher(claim_all, max_size=max_size)
        self._records = Batcher(record_all, max_size=max_size)

    async def claim(self, ref: DeliveryRef) -> deliveries.Claimed | None:
        return await self._claims.submit(ref)

    async def record(self, outcome: deliveries.Outcome) -> bool:
        return await self._records.submit(outcome)


async def claim_all(refs: Sequence[DeliveryRef]) -> list[deliveries.Claimed | None]:
    """Claim each pair for an attempt (see ``db.deliveries.claim``), leased for
    :data:`ATTEMPT_LEASE_SECONDS`."""
    now = utcnow()
    lease_until = now + timedelta(seconds=ATTEMPT_LEASE_SECONDS)
    pairs = [(ref.event_id, ref.webhook_id) for ref in refs]
    return await deliveries.claim(pairs, now, lease_until)


async def record_all(outcomes: Sequence[deliveries.Outcome]) -> list[bool]:
    """Record attempts (see ``db.deliveries.record``)."""
    return await deliveries.record(outcomes, utcnow())


async def _claim(
    ref: DeliveryRef, batches: AttemptBatches | None
) -> deliveries.Claimed | AttemptResult:
    """Take the pair for one attempt, or say why not (gone, finished, or in flight elsewhere).
    An attempt left in flight past its lease was cut short: it is logged as such, and taken over."""
    claimed = await batches.claim(ref) if batches else (await claim_all([ref]))[0]
    if claimed is not None:
        return claimed
    now = utcnow()
    lease_until = now + timedelta(seconds=ATTEMPT_LEASE_SECONDS)
    current = await deliveries.state(ref.event_id, ref.webhook_id)
    if current is None or current["status"] != "pending":
        return AttemptResult("skipped")
    started = current["attempt_started_at"]
    cutoff = now - timedelta(seconds=ATTEMPT_LEASE_SECONDS)
    if started is None or as_utc(started) > cutoff:
        return AttemptResult("busy")
    claimed = await deliveries.reclaim_cut_short(current, CUT_SHORT, now, lease_until, cutoff)
    if claimed is None:
        return AttemptResult("busy")
    count_delivery_attempt(ref.event_id, ref.webhook_id, current["attempts"], "cut_short", None, 0)
    return claimed


async def _send(
    transport: httpx.AsyncBaseTransport, url: str, body: bytes, headers: dict[str, str]
) -> tuple[int | None, str | None]:
    """POST once; the status code, or the error that prevented one. Redirects are not followed
    and at most :data:`MAX_RESPONSE_BYTES` of the answer are read."""
    request = httpx.Request(
        "POST",
        _parsed_url(url),
        headers={"user-agent": USER_AGENT, **headers},
        content=body,
        extensions=_TIMEOUTS,
    )
    try:
        async with asyncio.timeout(DELIVERY_TIMEOUT_SECONDS):
            response = await transport.handle_async_request(request)
            try:
                received = 0
                async for chunk in response.aiter_raw():
                    received += len(chunk)
                    if received > MAX_RESPONSE_BYTES:
                        break
            finally:
                await response.aclose()
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


def _body(ref: DeliveryRef, claimed: deliveries.Claimed) -> bytes:
    payload = claimed.payload
    return msgspec.json.encode(
        {
            "id": str(ref.event_id),
            "event_type": claimed.event_type,
            "timestamp": as_utc(claimed.occurred_at),
            "data": msgspec.Raw(
                payload if isinstance(payload, str | bytes) else msgspec.json.encode(payload)
            ),
        }
    )


async def attempt_delivery(
    ref: DeliveryRef,
    *,
    client: httpx.AsyncBaseTransport,
    settings: Settings,
    in_flight: InFlight | None = None,
    batches: AttemptBatches | None = None,
) -> AttemptResult:
    """Make one attempt of one (event, subscription) pair and record it in the delivery log,
    claiming and recording together with other attempts of this process with ``batches``.

    With ``in_flight``, nothing is claimed while the subscription has every slot of this process
    in use: the result is ``saturated``, and the pair is handed out again
    :data:`SATURATED_DELAY_SECONDS` later. That happens only when several dispatchers together
    handed out more than a subscription's share (see :func:`dispatch_due`).
    """
    with in_flight.slot(ref.webhook_id) if in_flight else _always() as free:
        if not free:
            await postpone(ref, SATURATED_DELAY_SECONDS)
            return AttemptResult("saturated")
        claim = await _claim(ref, batches)
        if isinstance(claim, AttemptResult):
            return claim
        started_at = utcnow()
        clock = time.perf_counter()
        status_code: int | None
        error: str | None
        if not claim.active:
            status_code, error = None, "subscription disabled"
            verdict = "failed"
        else:
            body = _body(ref, claim)
            timestamp = int(time.time())
            message_id = str(ref.event_id)
            headers = {
                "content-type": "application/json",
                "webhook-id": message_id,
                "webhook-timestamp": str(timestamp),
                "webhook-signature": signatures(
                    signing_secrets(claim, started_at), message_id, timestamp, body
                ),
            }
            status_code, error = await _send(client, claim.url, body, headers)
            verdict, error = _classify(status_code, error)
        duration_ms = int((time.perf_counter() - clock) * 1000)
        return await _record(
            ref, claim, verdict, status_code, error, started_at, duration_ms, settings, batches
        )


@contextmanager
def _always() -> Iterator[bool]:
    yield True


async def _record(
    ref: DeliveryRef,
    claim: deliveries.Claimed,
    verdict: str,
    status_code: int | None,
    error: str | None,
    started_at: datetime,
    duration_ms: int,
    settings: Settings,
    batches: AttemptBatches | None,
) -> AttemptResult:
    now = utcnow()
    attempt = claim.attempt
    next_attempt_at = None
    if verdict == "delivered":
        status = "delivered"
    elif verdict != "retry":
        status = "failed"
    elif attempt < settings.webhook_max_attempts:
        status = "pending"
        next_attempt_at = now + timedelta(
            seconds=backoff_seconds(attempt, settings.webhook_retry_base_seconds)
        )
    else:
        status = "exhausted"
    outcome = deliveries.Outcome(
        delivery_id=claim.delivery_id,
        attempt=attempt,
        status=status,
        status_code=status_code,
        error=error,
        next_attempt_at=next_attempt_at,
        delivered_at=now if status == "delivered" else None,
        started_at=started_at,
        duration_ms=duration_ms,
        disable_reason="the endpoint answered 410 Gone" if verdict == "gone" else None,
    )
    recorded = await batches.record(outcome) if batches else (await record_all([outcome]))[0]
    if not recorded:
        return AttemptResult("skipped")
    result = "gone" if verdict == "gone" else "retry" if status == "pending" else status
    count_delivery_attempt(ref.event_id, ref.webhook_id, attempt, result, status_code, duration_ms)
    return AttemptResult(result)
