"""GraphQL types of webhook subscriptions and their delivery log (app/schemas/webhooks.py),
derived from their records."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from app.schemas import webhooks as webhook_records
from app.schemas.webhook_events import SUBSCRIBABLE
from app.services.webhooks import DELIVERIES
from graphql_api.context import Info, loaders_of
from graphql_api.dataloaders import list_args
from graphql_api.derive import record_type
from graphql_api.scopes import field
from graphql_api.types import Limit, Offset, Page, Sort


@record_type(
    webhook_records.Delivery,
    description="One event sent to one subscription: `status` is pending, delivered, failed "
    "(refused by the endpoint, or the subscription is disabled) or exhausted (every retry over "
    "about three days failed). `attemptLog` holds every attempt.",
)
class Delivery:
    pass


@record_type(
    webhook_records.Webhook,
    description=f"`eventTypes`: {', '.join(SUBSCRIBABLE)}.",
)
class Webhook:
    if TYPE_CHECKING:  # the record's fields that the resolvers read (derived at run time)
        id: UUID

    @field(DELIVERIES, "The delivery log, newest first, each delivery with its attempts.")
    async def deliveries(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Delivery] | None:
        args = list_args(limit=limit, offset=offset, sort=sort)
        return await loaders_of(info).pages(DELIVERIES, "webhook_id").load((self.id, args))


@record_type(
    webhook_records.WebhookWithSecret,
    name="CreatedWebhook",
    description="The created subscription. `secret` signs the deliveries (Standard Webhooks) "
    "and is shown only here.",
)
class CreatedWebhook:
    pass


@record_type(
    webhook_records.WebhookSecretRotated,
    name="RotatedWebhookSecret",
    description="The subscription with its new `secret`, shown only here. Until "
    "`previousSecretExpiresAt` every delivery carries two signatures, the new secret's first.",
)
class RotatedWebhookSecret:
    pass


@record_type(webhook_records.DeliveryQueued)
class DeliveryQueued:
    pass


@record_type(webhook_records.WebhookDeleted)
class WebhookDeleted:
    pass
