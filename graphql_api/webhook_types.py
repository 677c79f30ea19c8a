"""GraphQL types of webhook subscriptions and their delivery log (app/schemas/webhooks.py)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from app.schemas import webhooks as webhook_records


@strawberry.type(
    description="`eventTypes`: order.created, order.confirmed, ticket.scanned, ticket.cancelled."
)
class Webhook:
    id: strawberry.ID
    url: str
    event_types: list[str]
    description: str
    active: bool
    created_at: datetime

    @classmethod
    def from_record(cls, record: webhook_records.Webhook) -> Webhook:
        return cls(
            id=strawberry.ID(str(record.id)),
            url=record.url,
            event_types=list(record.event_types),
            description=record.description,
            active=record.active,
            created_at=record.created_at,
        )


@strawberry.type(
    description="The created subscription. `secret` signs the deliveries (Standard Webhooks) "
    "and is shown only here."
)
class CreatedWebhook(Webhook):
    secret: str

    @classmethod
    def from_created(cls, record: webhook_records.WebhookWithSecret) -> CreatedWebhook:
        base = Webhook.from_record(record)
        return cls(**{**vars(base), "secret": record.secret})


@strawberry.type
class WebhookDeleted:
    id: strawberry.ID
    deleted: bool


@strawberry.type
class DeliveryAttempt:
    attempt: int
    status_code: int | None
    error: str | None
    duration_ms: int
    started_at: datetime


@strawberry.type(description="One event sent to one subscription: pending, delivered or failed.")
class Delivery:
    id: strawberry.ID
    event_id: strawberry.ID
    event_type: str
    status: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    created_at: datetime
    updated_at: datetime
    attempt_log: list[DeliveryAttempt]

    @classmethod
    def from_record(cls, record: webhook_records.Delivery) -> Delivery:
        return cls(
            id=strawberry.ID(str(record.id)),
            event_id=strawberry.ID(str(record.event_id)),
            event_type=record.event_type,
            status=record.status,
            attempts=record.attempts,
            last_status_code=record.last_status_code,
            last_error=record.last_error,
            next_attempt_at=record.next_attempt_at,
            delivered_at=record.delivered_at,
            created_at=record.created_at,
            updated_at=record.updated_at,
            attempt_log=[
                DeliveryAttempt(
                    attempt=attempt.attempt,
                    status_code=attempt.status_code,
                    error=attempt.error,
                    duration_ms=attempt.duration_ms,
                    started_at=attempt.started_at,
                )
                for attempt in record.attempt_log
            ],
        )
