"""Revocations stamped in commit order per event, so that ``since`` reads lose nothing.

A writer (a cancellation, a key's retirement) takes the event's revocation lock (PostgreSQL: a
transaction-level advisory lock, exclusive) and stamps its rows with ``clock_timestamp()`` after
it has the lock, in the same statement; a reader takes the same lock shared and reads the clock
after it has it. So every row stamped before the reader's time has committed by then (its writer
held the lock until its commit, and the reader waited for it), and every row stamped later is
stamped after the reader's time: ``[since, now)`` is complete when read, and consecutive windows
neither overlap nor leave a gap. On SQLite every write transaction holds the database's write
lock for its whole length and readers here read inside a write transaction, which orders them the
same way.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from app.timeutil import as_utc, utcnow
from db.rows import postgres
from db.tables import TicketRevocation


def _lock_name(event_id: UUID) -> str:
    return f"revocations:{event_id}"


async def record(
    organization_id: UUID,
    event_id: UUID,
    entries: Sequence[tuple[UUID, str, str | None]],
) -> None:
    """Record ``(ticket_id, reason, kid)`` revocations of one event; call inside the transaction
    of the change (the lock is held to its commit)."""
    if not entries:
        return
    ids = [uuid.uuid4() for _ in entries]
    if postgres():
        await TicketRevocation.raw(
            "INSERT INTO ticket_revocations "
            "(id, organization_id, event_id, ticket_id, reason, kid, revoked_at) "
            "SELECT r.id, {}, {}, r.ticket_id, r.reason, r.kid, clock_timestamp() "
            "FROM (SELECT pg_advisory_xact_lock(hashtextextended({}, 0))) AS l, "
            "unnest({}::uuid[], {}::uuid[], {}::text[], {}::text[]) "
            "AS r(id, ticket_id, reason, kid)",
            organization_id,
            event_id,
            _lock_name(event_id),
            ids,
            [entry[0] for entry in entries],
            [entry[1] for entry in entries],
            [entry[2] for entry in entries],
        )
        return
    now = utcnow()
    await TicketRevocation.insert(
        *[
            TicketRevocation(
                id=row_id,
                organization_id=organization_id,
                event_id=event_id,
                ticket_id=ticket_id,
                reason=reason,
                kid=kid,
                revoked_at=now,
            )
            for row_id, (ticket_id, reason, kid) in zip(ids, entries, strict=True)
        ]
    )


async def horizon(event_id: UUID) -> datetime:
    """The time up to which the event's revocations are all committed; call inside a
    transaction (on SQLite, a write one), then read with :func:`between` in it."""
    if postgres():
        rows = await TicketRevocation.raw(
            "SELECT clock_timestamp() AS now "
            "FROM (SELECT pg_advisory_xact_lock_shared(hashtextextended({}, 0))) AS l",
            _lock_name(event_id),
        )
        return as_utc(rows[0]["now"])
    return utcnow()


async def between(event_id: UUID, since: datetime | None, until: datetime) -> list[dict[str, Any]]:
    """The event's revocations of ``[since, until)``, oldest first (served by
    ``ticket_revocations_event_time``)."""
    query = TicketRevocation.select(
        TicketRevocation.ticket_id,
        TicketRevocation.reason,
        TicketRevocation.kid,
        TicketRevocation.revoked_at,
    ).where(TicketRevocation.event_id == event_id, TicketRevocation.revoked_at < until)
    if since is not None:
        query = query.where(TicketRevocation.revoked_at >= since)
    return await query.order_by(TicketRevocation.revoked_at).order_by(TicketRevocation.id)
