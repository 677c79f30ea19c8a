"""The organization's events as they happen, for ``ticketing listen`` (CONTRACT.md section 18).

A listener reads the outbox of its credential's organization (a test key's: the test twin's), so
it needs no webhook subscription and no public URL, and sees only the events of its mode. Events
come oldest first, each as the exact body a webhook delivery carries. A listener that reconnects
names the last event it received and gets every later one: at least once, in order.

Transactions commit in a different order than they took their timestamps, so an event may become
visible a little after a later one was read. Each read therefore looks :data:`SETTLE` back from
the newest event seen and skips the ids it already sent; after a reconnect, the events of that
window are sent again (at least once: a receiver deduplicates by ``webhook-id``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

import msgspec

from app.errors import InvalidInput
from app.principal import Principal, requires
from app.schemas.webhook_events import ALL_KINDS
from app.timeutil import as_utc, utcnow
from db import listening

SETTLE = timedelta(seconds=5)
"""How late, after its timestamp, an event may still commit and be sent."""
POLL_SECONDS = 0.25
BATCH = 500


@dataclass(frozen=True, slots=True)
class Heard:
    """One event: its id (the ``webhook-id``), kind and the delivery body."""

    id: UUID
    event_type: str
    body: bytes


def event_kinds(names: str) -> frozenset[str]:
    """The kinds of a comma-separated list (empty: every kind); a 400 naming an unknown one."""
    kinds = frozenset(name.strip() for name in names.split(",") if name.strip())
    unknown = sorted(kinds - set(ALL_KINDS))
    if unknown:
        raise InvalidInput.field(
            "events", f"unknown event types {', '.join(unknown)}; known: {', '.join(ALL_KINDS)}"
        )
    return kinds


def body(event_id: UUID, event_type: str, occurred_at: datetime, payload: str | bytes) -> bytes:
    """The body a webhook delivery of the event carries."""
    return msgspec.json.encode(
        {
            "id": str(event_id),
            "event_type": event_type,
            "timestamp": as_utc(occurred_at),
            "data": msgspec.Raw(payload),
        }
    )


@requires("webhooks.read")
async def listen(
    principal: Principal, after: UUID | None, kinds: Iterable[str] = ()
) -> AsyncIterator[Heard]:
    """The organization's events after ``after`` (None: from now), as they commit, until the
    caller stops iterating. An ``after`` that is not one of the organization's events starts
    from now as well."""
    wanted = frozenset(kinds)
    since = utcnow()
    sent: dict[UUID, datetime] = {}
    if after is not None:
        known = await listening.event_time(principal.organization_id, after)
        if known is not None:
            since, sent = known, {after: known}
    return _heard(principal.organization_id, since, sent, wanted)


async def _heard(
    organization_id: UUID, since: datetime, sent: dict[UUID, datetime], wanted: frozenset[str]
) -> AsyncIterator[Heard]:
    newest, floor = since, since - SETTLE
    while True:
        rows = await listening.events_since(organization_id, max(newest - SETTLE, floor), BATCH)
        fresh = [row for row in rows if row["id"] not in sent and row["created_at"] >= since]
        for row in fresh:
            sent[row["id"]] = row["created_at"]
            newest = max(newest, row["created_at"])
            if wanted and row["event_type"] not in wanted:
                continue
            yield Heard(
                row["id"],
                row["event_type"],
                body(row["id"], row["event_type"], row["created_at"], row["payload"]),
            )
        horizon = newest - SETTLE
        sent = {key: at for key, at in sent.items() if at >= horizon}
        if len(rows) < BATCH:
            await asyncio.sleep(POLL_SECONDS)
        elif not fresh:
            floor = rows[-1]["created_at"]  # a full window already sent: read on past it
