"""Records and inputs of webhook subscriptions and their delivery log (CONTRACT.md sections 6
and 14)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from app.schemas.text import NO_NUL
from app.schemas.webhook_events import EventType

DeliveryStatus = Literal["pending", "delivered", "failed", "exhausted"]
"""``failed``: the endpoint refused it (4xx, 3xx, 410) or the subscription is disabled;
``exhausted``: every retry over about three days failed."""

_PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
WEBHOOK_URL = (
    r"^https?://"
    r"(\[[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\]|[^\x00-\x20\x7f/?#@:\[\]]+)"
    rf"(:{_PORT})?"
    r"([/?#][^\x00-\x20\x7f]*)?$"
)
"""The shape of a webhook URL: http(s), a host (a name, an IPv4 or a bracketed IPv6 address)
without credentials, an optional port, no spaces or control characters. Checked on decoding and
documented as is; the service adds what a pattern cannot say (https unless private targets are
allowed, and a host that resolves only to public addresses)."""

Url = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=2000,
        pattern=WEBHOOK_URL,
        description="https (http only where private targets are allowed); the host must "
        "resolve only to public addresses",
    ),
]
EventTypes = Annotated[list[EventType], msgspec.Meta(min_length=1)]
Description = Annotated[str, msgspec.Meta(max_length=255, pattern=NO_NUL)]


class Webhook(msgspec.Struct):
    id: UUID
    url: str
    event_types: list[str]
    description: str
    active: bool
    created_at: datetime


class WebhookWithSecret(Webhook):
    """The creation response: the only time the signing secret is shown."""

    secret: str


class WebhookSecretRotated(WebhookWithSecret):
    """The rotation response: the new ``secret``, shown only here. The old one keeps signing (a
    second signature on every delivery) until ``previous_secret_expires_at``."""

    previous_secret_expires_at: datetime


class WebhookCreate(msgspec.Struct, forbid_unknown_fields=True):
    url: Url
    event_types: EventTypes
    description: Description = ""


class WebhookUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH body: only the fields sent are changed; ``active: true`` re-enables a subscription
    that a 410 answer disabled."""

    url: Url | msgspec.UnsetType = msgspec.UNSET
    event_types: EventTypes | msgspec.UnsetType = msgspec.UNSET
    description: Description | msgspec.UnsetType = msgspec.UNSET
    active: bool | msgspec.UnsetType = msgspec.UNSET


class WebhookDeleted(msgspec.Struct):
    id: UUID
    deleted: bool


class DeliveryQueued(msgspec.Struct):
    """The answer to a test or a retry: the delivery that will make the attempt."""

    delivery_id: UUID


class DeliveryAttempt(msgspec.Struct):
    """One attempt. One cut short (its worker was killed) has ``status_code`` null, an ``error``
    saying so and ``duration_ms`` 0."""

    attempt: int
    status_code: int | None
    error: str | None
    duration_ms: int
    started_at: datetime


class Delivery(msgspec.Struct):
    """One event sent to one subscription: ``pending`` until ``delivered``, ``failed`` or
    ``exhausted``."""

    id: UUID
    event_id: UUID
    event_type: str
    status: DeliveryStatus
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    created_at: datetime
    updated_at: datetime
    attempt_log: list[DeliveryAttempt]
