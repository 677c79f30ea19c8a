"""The transactional outbox: domain events are rows written in the transaction of their change.

Nothing is published from a request: the relay (``workers/``) reads unrelayed rows and turns them
into webhook deliveries, so an event is never lost when Redis or the worker is down, and never
emitted for a change that rolled back.

The relay is woken as soon as such a transaction commits (:func:`announce_work`): on PostgreSQL by
a ``NOTIFY`` on :data:`NOTIFY_CHANNEL` sent inside the transaction (PostgreSQL delivers it with the
commit, and drops it with a rollback) to every worker that LISTENs; the in-process relay of this
process (without Redis) directly, after the commit, and then without a ``NOTIFY`` (no worker runs
without Redis, and a ``NOTIFY`` takes PostgreSQL's database-wide notification lock until the
commit ends, which serialized every committing scan: :func:`notify_channel`). The relay still
polls, as the safety net.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from uuid import UUID, uuid4

import msgspec

from app.runtime.observability import OutboxBacklog
from app.schemas.webhook_events import KINDS, EventPayload
from app.timeutil import as_utc, utcnow
from db.rows import postgres
from db.tables import OutboxEvent
from db.transactions import after_commit, transaction

NOTIFY_CHANNEL = "ticketing_outbox"
"""The PostgreSQL channel of new relay work (NOTIFY is per database, so per deployment)."""
_NOTIFY = f"SELECT pg_notify('{NOTIFY_CHANNEL}', '')"

_in_process_relays: list[Callable[[], None]] = []


def wake_in_process(wake: Callable[[], None]) -> Callable[[], None]:
    """Have ``wake`` called after every commit that gives the relay work (the in-process relay of
    this process registers itself); returns the function that undoes it."""
    _in_process_relays.append(wake)
    return lambda: _in_process_relays.remove(wake)


async def _wake_in_process() -> None:
    for wake in list(_in_process_relays):
        wake()


def notify_channel() -> str | None:
    """The channel to ``NOTIFY`` when outbox rows are written, or None when this process relays
    its own outbox: it wakes its relay after the commit, and without Redis no worker runs to
    listen, so a ``NOTIFY`` would only take PostgreSQL's notification lock at every commit."""
    return None if _in_process_relays or not postgres() else NOTIFY_CHANNEL


async def announce_work() -> None:
    """Call inside the transaction that wrote outbox rows or made a delivery due: the relay wakes
    once it commits (see the module's docstring)."""
    if notify_channel() is not None:
        await OutboxEvent.raw(_NOTIFY)
    if _in_process_relays:
        await after_commit(_wake_in_process)


EVENTS_PER_STATEMENT = 1000
"""Events per INSERT: 5 parameters each, well below PostgreSQL's 32,767 parameters a statement
(and SQLite's 32,766)."""
_REGISTERED = frozenset(KINDS)
_encode = msgspec.json.Encoder().encode


async def record_event(organization_id: UUID, payload: EventPayload) -> UUID:
    """Append a domain event (its kind is its payload's); call it inside the transaction that
    makes the change."""
    [event_id] = await record_events(organization_id, [payload])
    return event_id


async def record_events(organization_id: UUID, events: Sequence[EventPayload]) -> list[UUID]:
    """Append several domain events in one statement (e.g. one per cancelled ticket), or one per
    :data:`EVENTS_PER_STATEMENT` of them, and wake the relay when the transaction commits (on
    PostgreSQL the ``NOTIFY`` is part of the same statement, so it costs no round trip).

    Only the registered kinds (``app.schemas.webhook_events.KINDS``) are recorded: the payload
    must be an instance of one of them, not of a subclass or a lookalike. Fixed SQL rather than
    Piccolo's insert, whose row building costs more CPU than the statement itself on hot paths
    such as a scan.
    """
    if not events:
        return []
    now = utcnow()
    rows = [
        (row[0], organization_id, row[1], row[2], now)
        for row in outbox_rows(organization_id, events)
    ]
    ids = [row[0] for row in rows]
    if len(rows) <= EVENTS_PER_STATEMENT:
        await _insert(rows)
    else:
        async with transaction():  # the chunks are one unit, as one statement would be
            for start in range(0, len(rows), EVENTS_PER_STATEMENT):
                await _insert(rows[start : start + EVENTS_PER_STATEMENT])
    if _in_process_relays:
        await after_commit(_wake_in_process)
    return ids


def outbox_rows(
    organization_id: UUID, events: Sequence[EventPayload]
) -> list[tuple[UUID, str, str]]:
    """Each event's outbox row as (id, event type, JSON payload), for a statement that writes them
    itself; only registered kinds (see :func:`record_events`)."""
    unknown = {type(payload).__name__ for payload in events if type(payload) not in _REGISTERED}
    if unknown:
        raise ValueError(f"unregistered event payloads {sorted(unknown)}")
    return [(uuid4(), payload.kind, _encode(payload).decode()) for payload in events]


async def rows_written(any_rows: bool) -> None:
    """A statement of the caller wrote rows of :func:`outbox_rows` (with a ``NOTIFY`` on
    :func:`notify_channel` when it names one): wake this process's relay once it has committed."""
    if any_rows and _in_process_relays:
        await after_commit(_wake_in_process)


async def _insert(rows: list[tuple[UUID, UUID, str, str, datetime]]) -> None:
    values = [value for row in rows for value in row]
    placeholders = ", ".join(["({}, {}, {}, {}, {})"] * len(rows))
    insert = (
        f"INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at) "
        f"VALUES {placeholders}"
    )
    if notify_channel() is not None:
        await OutboxEvent.raw(f"WITH inserted AS ({insert}) {_NOTIFY}", *values)
    else:
        await OutboxEvent.raw(insert, *values)


async def outbox_backlog() -> OutboxBacklog:
    """How many events wait to be relayed, and how long the oldest has waited (both read from the
    ``outbox_unrelayed_since`` index), for the metrics."""
    unrelayed = OutboxEvent.relayed_at.is_null()
    rows = await OutboxEvent.count().where(unrelayed)
    oldest = (
        await OutboxEvent.select(OutboxEvent.created_at)
        .where(unrelayed)
        .order_by(OutboxEvent.created_at)
        .limit(1)
        .first()
    )
    age = (utcnow() - as_utc(oldest["created_at"])).total_seconds() if oldest else 0.0
    return OutboxBacklog(rows=rows, oldest_age_seconds=max(age, 0.0))
