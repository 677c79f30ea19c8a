"""GraphQL types of webhook subscriptions and their delivery log (app/schemas/webhooks.py),
derived from their records."""

from __future__ import annotations

from app.schemas import webhooks as webhook_records
from app.schemas.webhook_events import SUBSCRIBABLE
from app.services.webhooks import DELIVERIES
from graphql_api.derive import record_type
from graphql_api.lists import nested_list


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
    deliveries = nested_list(
        DELIVERIES, "webhook_id", "The delivery log, newest first, each delivery with its attempts."
    )


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
