"""Webhook subscriptions and their delivery log (scopes webhooks.read / webhooks.write)."""

from __future__ import annotations

import base64
import secrets
from collections import defaultdict
from typing import Any
from uuid import UUID

import msgspec

from app.errors import NotFound
from app.pagination import Page, fetch_page, list_params
from app.principal import Principal
from app.schemas.webhooks import (
    Delivery,
    DeliveryAttempt,
    Webhook,
    WebhookCreate,
    WebhookDeleted,
    WebhookWithSecret,
)
from app.services.lookup import owned_row
from app.services.url_safety import check_webhook_url
from app.settings import Settings, get_settings
from app.timeutil import as_utc, maybe_utc, utcnow
from db.tables import OutboxEvent, WebhookDelivery, WebhookDeliveryAttempt
from db.tables import Webhook as WebhookTable

SORT_FIELDS = ("created_at",)
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` + base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def json_column(value: Any) -> Any:
    """A JSON column's value: PostgreSQL hands it back as text unless ``load_json`` was asked."""
    return msgspec.json.decode(value) if isinstance(value, str | bytes) else value


def to_webhook(row: dict[str, Any]) -> Webhook:
    return Webhook(
        id=row["id"],
        url=row["url"],
        event_types=list(json_column(row["event_types"])),
        description=row["description"],
        active=row["active"],
        created_at=as_utc(row["created_at"]),
    )


async def create_webhook(
    principal: Principal, data: WebhookCreate, settings: Settings | None = None
) -> WebhookWithSecret:
    principal.require("webhooks.write")
    settings = settings or get_settings()
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
    return WebhookWithSecret(
        id=row.id,
        url=row.url,
        event_types=list(row.event_types),
        description=row.description,
        active=row.active,
        created_at=as_utc(row.created_at),
        secret=row.secret,
    )


async def list_webhooks(
    principal: Principal,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Webhook]:
    principal.require("webhooks.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    return await fetch_page(
        WebhookTable,
        [WebhookTable.organization_id == principal.organization_id],
        params,
        to_webhook,
    )


async def get_webhook(principal: Principal, webhook_id: UUID) -> Webhook:
    principal.require("webhooks.read")
    return to_webhook(
        await owned_row(WebhookTable, webhook_id, principal.organization_id, "webhook")
    )


async def delete_webhook(principal: Principal, webhook_id: UUID) -> WebhookDeleted:
    """Hard delete. Its deliveries go with it (ON DELETE CASCADE), so a delivery job that runs
    afterwards finds nothing to send."""
    principal.require("webhooks.write")
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


async def list_deliveries(
    principal: Principal,
    webhook_id: UUID,
    *,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = None,
) -> Page[Delivery]:
    """The delivery log of one subscription, each delivery with all its attempts.

    A fixed number of statements whatever the page size: the subscription, the page and its
    count, then the event types and the attempts of the whole page.
    """
    principal.require("webhooks.read")
    params = list_params(limit=limit, offset=offset, sort=sort, allowed=SORT_FIELDS)
    await owned_row(WebhookTable, webhook_id, principal.organization_id, "webhook")
    page = await fetch_page(
        WebhookDelivery,
        [
            WebhookDelivery.webhook_id == webhook_id,
            WebhookDelivery.organization_id == principal.organization_id,
        ],
        params,
        lambda row: row,
    )
    if not page.data:
        return Page(data=[], pagination=page.pagination)
    event_types = {
        row["id"]: row["event_type"]
        for row in await OutboxEvent.select(OutboxEvent.id, OutboxEvent.event_type).where(
            OutboxEvent.id.is_in([row["event_id"] for row in page.data])
        )
    }
    attempts: dict[UUID, list[DeliveryAttempt]] = defaultdict(list)
    for row in (
        await WebhookDeliveryAttempt.select()
        .where(WebhookDeliveryAttempt.delivery_id.is_in([row["id"] for row in page.data]))
        .order_by(WebhookDeliveryAttempt.attempt)
    ):
        attempts[row["delivery_id"]].append(
            DeliveryAttempt(
                attempt=row["attempt"],
                status_code=row["status_code"],
                error=row["error"],
                duration_ms=row["duration_ms"],
                started_at=as_utc(row["started_at"]),
            )
        )
    return Page(
        data=[
            Delivery(
                id=row["id"],
                event_id=row["event_id"],
                event_type=event_types.get(row["event_id"], ""),
                status=row["status"],
                attempts=row["attempts"],
                last_status_code=row["last_status_code"],
                last_error=row["last_error"],
                next_attempt_at=maybe_utc(row["next_attempt_at"]),
                delivered_at=maybe_utc(row["delivered_at"]),
                created_at=as_utc(row["created_at"]),
                updated_at=as_utc(row["updated_at"]),
                attempt_log=attempts[row["id"]],
            )
            for row in page.data
        ],
        pagination=page.pagination,
    )
