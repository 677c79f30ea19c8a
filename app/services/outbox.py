"""The transactional outbox: domain events are rows written in the transaction of their change.

Nothing is published from a request: the relay (``workers/``) reads unrelayed rows and turns them
into webhook deliveries, so an event is never lost when Redis or the worker is down, and never
emitted for a change that rolled back.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from db.tables import OutboxEvent

EVENT_TYPES: tuple[str, ...] = (
    "order.created",
    "order.confirmed",
    "ticket.scanned",
    "ticket.cancelled",
)


async def record_event(organization_id: UUID, event_type: str, data: dict[str, Any]) -> UUID:
    """Append a domain event; call it inside the transaction that makes the change.

    ``data`` may hold UUIDs and aware datetimes; they are stored as strings (RFC 3339, ``Z``).
    """
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    row = OutboxEvent(
        organization_id=organization_id,
        event_type=event_type,
        payload=msgspec.json.encode(data).decode(),
    )
    await row.save()
    return row.id
