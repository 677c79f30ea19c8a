"""The SQL of ``/listen``: an organization's outbox events from a moment on, oldest first
(``outbox_events_org_created``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from db.tables import OutboxEvent

EVENTS_SINCE = """
    SELECT id, event_type, payload, created_at FROM outbox_events
    WHERE organization_id = {} AND created_at >= {}
    ORDER BY created_at, id LIMIT {}"""
EVENT_TIME = "SELECT created_at FROM outbox_events WHERE organization_id = {} AND id = {}"


async def events_since(organization_id: UUID, since: datetime, limit: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = await OutboxEvent.raw(EVENTS_SINCE, organization_id, since, limit)
    return rows


async def event_time(organization_id: UUID, event_id: UUID) -> datetime | None:
    rows = await OutboxEvent.raw(EVENT_TIME, organization_id, event_id)
    return rows[0]["created_at"] if rows else None
