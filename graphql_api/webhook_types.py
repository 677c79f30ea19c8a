"""GraphQL types of webhook subscriptions and their delivery log (app/schemas/webhooks.py),
derived from their records."""

from __future__ import annotations

from app.schemas import webhooks as webhook_records
from graphql_api.derive import record_type


@record_type(
    webhook_records.Webhook,
    description="`eventTypes`: order.created, order.confirmed, ticket.scanned, ticket.cancelled.",
)
class Webhook:
    pass


@record_type(
    webhook_records.WebhookWithSecret,
    name="CreatedWebhook",
    description="The created subscription. `secret` signs the deliveries (Standard Webhooks) "
    "and is shown only here.",
)
class CreatedWebhook:
    pass


@record_type(webhook_records.WebhookDeleted)
class WebhookDeleted:
    pass


@record_type(
    webhook_records.Delivery,
    description="One event sent to one subscription: pending, delivered or failed.",
)
class Delivery:
    pass
