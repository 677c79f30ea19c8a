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
    [event_id] = await record_events(organization_id, [(event_type, data)])
    return event_id


async def record_events(
    organization_id: UUID, events: list[tuple[str, dict[str, Any]]]
) -> list[UUID]:
    """Append several domain events in one statement (e.g. one per cancelled ticket)."""
    unknown = {event_type for event_type, _ in events} - set(EVENT_TYPES)
    if unknown:
        raise ValueError(f"unknown event types {sorted(unknown)}")
    if not events:
        return []
    rows = [
        OutboxEvent(
            organization_id=organization_id,
            event_type=event_type,
            payload=msgspec.json.encode(data).decode(),
        )
        for event_type, data in events
    ]
    await OutboxEvent.insert(*rows)
    return [row.id for row in rows]
