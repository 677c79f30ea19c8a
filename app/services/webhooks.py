"""Webhook subscriptions and their delivery log (scopes webhooks.read / webhooks.write)."""

from __future__ import annotations

import base64
import secrets
from collections import defaultdict
from typing import Any
from uuid import UUID

from app.errors import NotFound
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource
from app.schemas.webhooks import (
    Delivery,
    Webhook,
    WebhookCreate,
    WebhookDeleted,
    WebhookWithSecret,
)
from app.services.url_safety import check_webhook_url
from app.settings import Settings
from app.timeutil import utcnow
from db.lists import Row
from db.tables import OutboxEvent, WebhookDelivery, WebhookDeliveryAttempt
from db.tables import Webhook as WebhookTable

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` + base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


async def _with_attempts(rows: list[Row]) -> None:
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
    for row in rows:
        row["event_type"] = event_types.get(row["event_id"], "")
        row["attempt_log"] = attempts[row["id"]]


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
    await row.save()
    return to_record(WebhookWithSecret, row.to_dict())


@requires("webhooks.write")
async def delete_webhook(principal: Principal, webhook_id: UUID) -> WebhookDeleted:
    """Hard delete. Its deliveries go with it (ON DELETE CASCADE), so a delivery job that runs
    afterwards finds nothing to send."""
    deleted = (
        await WebhookTable.delete()
        .where(
            WebhookTable.id == webhook_id,
            WebhookTable.organization_id == principal.organization_id,
        )
        .returning(WebhookTable.id)
    )
    if not deleted:
        raise NotFound.resource("webhook", webhook_id)
    return WebhookDeleted(id=webhook_id, deleted=True)
