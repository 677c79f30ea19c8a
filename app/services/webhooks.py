"""Webhook subscriptions and their delivery log (scopes webhooks.read / webhooks.write): create,
edit, delete, send a test event, retry a delivery, rotate the signing secret (CONTRACT.md sections
6 and 14). REST, GraphQL and the dashboard call these operations."""

from __future__ import annotations

import base64
import secrets
from collections import defaultdict
from datetime import timedelta
from typing import Any
from uuid import UUID

import msgspec

from app.errors import Conflict, NotFound
from app.outbound.url_safety import check_webhook_url
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource, Rows
from app.schemas.webhook_events import WebhookTest
from app.schemas.webhooks import (
    Delivery,
    DeliveryQueued,
    Webhook,
    WebhookCreate,
    WebhookDeleted,
    WebhookSecretRotated,
    WebhookUpdate,
    WebhookWithSecret,
)
from app.services import audit
from app.services.audit import Target, url_label
from app.services.lookup import update_owned
from app.services.outbox import announce_work
from app.services.webhook_delivery import ATTEMPT_LEASE_SECONDS
from app.settings import Settings
from app.timeutil import utcnow
from db.locks import locked
from db.tables import OutboxEvent, WebhookDelivery, WebhookDeliveryAttempt
from db.tables import Webhook as WebhookTable
from db.transactions import transaction

SECRET_PREFIX = "whsec_"
PREVIOUS_SECRET_VALIDITY = timedelta(hours=24)

"""How long a rotated-out secret keeps signing deliveries (a second signature)."""
DISABLED = (
    "The subscription is disabled; re-enable it first (PATCH /webhooks/{id} with active: true)"
)


def _target(webhook_id: UUID, url: str) -> Target:
    return Target("webhook", webhook_id, url_label(url))


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` + base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


async def _with_attempts(rows: Rows) -> Rows:
    """Each delivery's event type and its attempts, in two statements for the whole page."""
    event_types = {
        row["id"]: row["event_type"]
        for row in await OutboxEvent.select(OutboxEvent.id, OutboxEvent.event_type).where(
            OutboxEvent.id.is_in([row["event_id"] for row in rows])
        )
    }
    attempts: dict[UUID, list[dict[str, Any]]] = defaultdict(list)
    for attempt in (
        await WebhookDeliveryAttempt.select()
        .where(WebhookDeliveryAttempt.delivery_id.is_in([row["id"] for row in rows]))
        .order_by(WebhookDeliveryAttempt.attempt)
    ):
        attempts[attempt["delivery_id"]].append(attempt)
    return [
        {
            **row,
            "event_type": event_types.get(row["event_id"], ""),
            "attempt_log": attempts[row["id"]],
        }
        for row in rows
    ]


WEBHOOKS = Resource(table=WebhookTable, record=Webhook, kind="webhook", scope="webhooks.read")
DELIVERIES = Resource(
    table=WebhookDelivery,
    record=Delivery,
    kind="delivery",
    scope="webhooks.read",
    parents={"webhook_id": Parent("webhook_id", WebhookTable, "webhook")},
    enrich=_with_attempts,
)
"""The delivery log, listed per subscription, each delivery with all its attempts."""


@requires("webhooks.write")
async def create_webhook(
    principal: Principal, data: WebhookCreate, settings: Settings
) -> WebhookWithSecret:
    url = await check_webhook_url(data.url, allow_private=settings.allow_private_webhooks)
    row = WebhookTable(
        organization_id=principal.organization_id,
        url=url,
        event_types=list(dict.fromkeys(data.event_types)),
        description=data.description,
        secret=new_secret(),
        active=True,
        created_at=utcnow(),
    )
    async with transaction():
        await row.save()
        await audit.record(
            principal,
            "webhook.create",
            _target(row.id, url),
            {"event_types": row.event_types, "description": data.description},
        )
    return to_record(WebhookWithSecret, row.to_dict())


@requires("webhooks.write")
async def delete_webhook(principal: Principal, webhook_id: UUID) -> WebhookDeleted:
    """Hard delete. Its deliveries go with it (ON DELETE CASCADE), so a delivery job that runs
    afterwards finds nothing to send."""
    async with transaction():
        deleted = (
            await WebhookTable.delete()
            .where(
                WebhookTable.id == webhook_id,
                WebhookTable.organization_id == principal.organization_id,
            )
            .returning(WebhookTable.id, WebhookTable.url)
        )
        if not deleted:
            raise NotFound.resource("webhook", webhook_id)
        await audit.record(principal, "webhook.delete", _target(webhook_id, deleted[0]["url"]))
    return WebhookDeleted(id=webhook_id, deleted=True)


async def _owned_subscription(principal: Principal, webhook_id: UUID) -> dict[str, Any]:
    """The caller's subscription, locked against deletion until the transaction ends (PostgreSQL;
    SQLite's transactions hold the write lock anyway); :class:`NotFound` when it is not theirs."""
    query = WebhookTable.select().where(
        WebhookTable.id == webhook_id, WebhookTable.organization_id == principal.organization_id
    )
    row = await locked(query, "KEY SHARE").first()
    if row is None:
        raise NotFound.resource("webhook", webhook_id)
    return row


@requires("webhooks.write")
async def update_webhook(
    principal: Principal, webhook_id: UUID, data: WebhookUpdate, settings: Settings
) -> Webhook:
    """Edit a subscription: only the fields sent change. A new ``url`` passes the checks of
    creation; ``active: true`` re-enables a subscription that a 410 answer disabled (pending
    deliveries already failed stay failed; retry them one by one). Future events follow the new
    ``event_types``; deliveries already made keep going to the current ``url``."""
    changes: dict[Any, Any] = {}
    if data.url is not msgspec.UNSET:
        changes[WebhookTable.url] = await check_webhook_url(
            data.url, allow_private=settings.allow_private_webhooks
        )
    if data.event_types is not msgspec.UNSET:
        changes[WebhookTable.event_types] = list(dict.fromkeys(data.event_types))
    if data.description is not msgspec.UNSET:
        changes[WebhookTable.description] = data.description
    if data.active is not msgspec.UNSET:
        changes[WebhookTable.active] = data.active
        changes[WebhookTable.disabled_reason] = None if data.active else "disabled through the API"
    async with transaction():
        row = await update_owned(
            WebhookTable, webhook_id, principal.organization_id, "webhook", changes
        )
        if changes:
            changed = {
                column._meta.name: url_label(value) if column is WebhookTable.url else value
                for column, value in changes.items()
                if column is not WebhookTable.disabled_reason
            }
            target = _target(webhook_id, row["url"])
            await audit.record(principal, "webhook.update", target, changed)
    return to_record(Webhook, row)


@requires("webhooks.write")
async def send_test_delivery(principal: Principal, webhook_id: UUID) -> DeliveryQueued:
    """Send a ``webhook.test`` event to this subscription only, whatever its event types, signed
    like every delivery and retried like one: ``data`` is ``{webhook_id}``. It is an outbox event
    of its own (relayed already) with one delivery, which is due at once; the delivery log shows
    it. A disabled subscription is a :class:`Conflict`."""
    now = utcnow()
    async with transaction():
        hook = await _owned_subscription(principal, webhook_id)
        if not hook["active"]:
            raise Conflict(DISABLED)
        event = OutboxEvent(
            organization_id=principal.organization_id,
            event_type=WebhookTest.kind,
            payload=msgspec.json.encode(WebhookTest(webhook_id=webhook_id)).decode(),
            created_at=now,
            relayed_at=now,
        )
        await event.save()
        delivery = WebhookDelivery(
            organization_id=principal.organization_id,
            webhook_id=webhook_id,
            event_id=event.id,
            status="pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
            updated_at=now,
        )
        await delivery.save()
        await audit.record(
            principal,
            "webhook.test",
            _target(webhook_id, hook["url"]),
            {"delivery_id": delivery.id},
        )
        await announce_work()
    return DeliveryQueued(delivery_id=delivery.id)


@requires("webhooks.write")
async def retry_delivery(
    principal: Principal, webhook_id: UUID, delivery_id: UUID
) -> DeliveryQueued:
    """Make a new attempt of a delivery now, whatever its status (failed and exhausted ones
    included), with the same event id (``webhook-id``). The delivery becomes pending and due at
    once; the attempt is logged like any other, and a retryable failure is retried on the usual
    schedule while attempts remain (an exhausted delivery gets this one attempt). A disabled
    subscription, or an attempt of the delivery in flight right now, is a :class:`Conflict`."""
    now = utcnow()
    async with transaction():
        hook = await _owned_subscription(principal, webhook_id)
        if not hook["active"]:
            raise Conflict(DISABLED)
        updated = (
            await WebhookDelivery.update(
                {
                    WebhookDelivery.status: "pending",
                    WebhookDelivery.next_attempt_at: now,
                    WebhookDelivery.updated_at: now,
                }
            )
            .where(
                WebhookDelivery.id == delivery_id,
                WebhookDelivery.webhook_id == webhook_id,
                WebhookDelivery.attempt_started_at.is_null()
                | (
                    WebhookDelivery.attempt_started_at
                    <= now - timedelta(seconds=ATTEMPT_LEASE_SECONDS)
                ),
            )
            .returning(WebhookDelivery.id)
        )
        if not updated:
            found = await WebhookDelivery.exists().where(
                WebhookDelivery.id == delivery_id, WebhookDelivery.webhook_id == webhook_id
            )
            if not found:
                raise NotFound.resource("delivery", delivery_id)
            raise Conflict("An attempt of this delivery is in flight; retry once it has ended")
        await audit.record(
            principal,
            "webhook.retry_delivery",
            _target(webhook_id, hook["url"]),
            {"delivery_id": delivery_id},
        )
        await announce_work()
    return DeliveryQueued(delivery_id=delivery_id)


@requires("webhooks.write")
async def rotate_secret(principal: Principal, webhook_id: UUID) -> WebhookSecretRotated:
    """Give the subscription a new signing secret, returned only here. For
    :data:`PREVIOUS_SECRET_VALIDITY` every delivery carries two signatures, the new secret's
    first, so that the subscriber can switch without losing a delivery; rotating again within
    that time drops the oldest secret."""
    now = utcnow()
    async with transaction():
        current = await _owned_subscription(principal, webhook_id)
        updated = (
            await WebhookTable.update(
                {
                    WebhookTable.previous_secret: current["secret"],
                    WebhookTable.previous_secret_expires_at: now + PREVIOUS_SECRET_VALIDITY,
                    WebhookTable.secret: new_secret(),
                }
            )
            .where(WebhookTable.id == webhook_id, WebhookTable.secret == current["secret"])
            .returning(*WebhookTable.all_columns())
        )
        if not updated:
            raise Conflict("The secret was rotated at the same moment; rotate again if needed")
        await audit.record(principal, "webhook.rotate_secret", _target(webhook_id, current["url"]))
    return to_record(WebhookSecretRotated, updated[0])
