"""What each timeslot has left, exact when read (CONTRACT.md section 16): its capacity, its
sold and held places from the counters the write side keeps (``db.holds``), without counting
tickets or holds per request; and the live feed of those figures, coalesced per timeslot."""

from __future__ import annotations

import asyncio
import math
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any
from uuid import UUID

from app.principal import Principal, requires
from app.runtime import live
from app.schemas.holds import Availability, AvailabilityChanged, TimeslotAvailability
from app.services.events import require_event
from app.timeutil import utcnow
from db import holds
from db.transactions import after_commit


def figures_record(row: dict[str, Any]) -> TimeslotAvailability:
    sold, held = int(row["sold"]), int(row["held"])
    return TimeslotAvailability(
        timeslot_id=row["timeslot_id"],
        total_available=row["total_available"],
        sold=sold,
        held=held,
        available=max(row["total_available"] - sold - held, 0),
    )


@requires("events.read")
async def event_availability(principal: Principal, event_id: UUID) -> Availability:
    """Every timeslot of the event, by start (404 for an event that is not the caller's)."""
    await require_event(principal, event_id)
    return Availability(data=(await availability_by_event(principal, [event_id]))[event_id])


@requires("events.read")
async def availability_by_event(
    principal: Principal, event_ids: list[UUID]
) -> dict[UUID, list[TimeslotAvailability]]:
    """The figures of the timeslots of each event named (of the caller's), in one statement."""
    rows = await holds.figures(principal.organization_id, utcnow(), event_ids=event_ids)
    found: dict[UUID, list[TimeslotAvailability]] = defaultdict(list)
    for row in rows:
        found[row["event_id"]].append(figures_record(row))
    return {event_id: found[event_id] for event_id in event_ids}


@requires("events.read")
async def timeslot_figures(
    principal: Principal, timeslot_ids: list[UUID]
) -> dict[UUID, TimeslotAvailability]:
    """The figures of each timeslot named that is the caller's, in one statement."""
    rows = await holds.figures(principal.organization_id, utcnow(), timeslot_ids=timeslot_ids)
    return {row["timeslot_id"]: figures_record(row) for row in rows}


ANNOUNCE_EVERY_SECONDS = 0.1
"""A process announces a timeslot's change at most this often (then once more at the end of the
window, so the last change is always told), and a subscriber is sent a timeslot's figures at most
this often: 10 messages a second per timeslot, the latest figures winning."""

_announced: dict[UUID, float] = {}
"""When this process last told each timeslot's change (monotonic seconds)."""
_trailing: set[UUID] = set()
"""The timeslots whose change waits for the end of their window."""


async def announce(organization_id: UUID, event_id: UUID, timeslot_id: UUID) -> None:
    """Tell the timeslot's subscribers, once the change commits, that its figures changed; call
    in the transaction of the change (or after the statement that made it)."""

    async def tell() -> None:
        now = time.monotonic()
        wait = _announced.get(timeslot_id, -ANNOUNCE_EVERY_SECONDS) + ANNOUNCE_EVERY_SECONDS - now
        if wait <= 0:
            _announced[timeslot_id] = now
            await live.publish(organization_id, "availability", event_id, _changed(timeslot_id))
        elif timeslot_id not in _trailing:
            _trailing.add(timeslot_id)
            asyncio.get_running_loop().call_later(
                wait, _tell_later, organization_id, event_id, timeslot_id
            )

    await after_commit(tell)


def _changed(timeslot_id: UUID) -> AvailabilityChanged:
    return AvailabilityChanged(timeslot_id=timeslot_id)


def _tell_later(organization_id: UUID, event_id: UUID, timeslot_id: UUID) -> None:
    _trailing.discard(timeslot_id)
    _announced[timeslot_id] = time.monotonic()
    task = asyncio.ensure_future(
        live.publish(organization_id, "availability", event_id, _changed(timeslot_id))
    )
    _pending_tells.add(task)
    task.add_done_callback(_pending_tells.discard)


_pending_tells: set[asyncio.Future[None]] = set()
"""Trailing announcements in flight (kept referenced until they finish)."""


@requires("events.read")
async def watch_availability(
    principal: Principal, event_id: UUID, on_overflow: Callable[[], None] | None = None
) -> AsyncIterator[TimeslotAvailability]:
    """The figures of each timeslot of the event after each change that commits, at most
    :data:`ANNOUNCE_EVERY_SECONDS` apart per timeslot (read when sent: the latest win)."""
    await require_event(principal, event_id)
    feed = live.watch(principal.organization_id, "availability", event_id, on_overflow)
    return _coalesced(principal.organization_id, feed)


async def _coalesced(organization_id: UUID, feed: live.Feed) -> AsyncIterator[TimeslotAvailability]:
    pending: set[UUID] = set()
    sent_at: dict[UUID, float] = {}
    async with feed:
        while True:
            due_at = min(
                (sent_at.get(t, -math.inf) + ANNOUNCE_EVERY_SECONDS for t in pending),
                default=None,
            )
            timeout = None if due_at is None else max(due_at - time.monotonic(), 0.0)
            try:
                notice = await asyncio.wait_for(anext(feed), timeout)
            except TimeoutError:
                pass
            except StopAsyncIteration:
                return
            else:
                pending.add(notice.timeslot_id)
            now = time.monotonic()
            due = [t for t in pending if now - sent_at.get(t, -math.inf) >= ANNOUNCE_EVERY_SECONDS]
            if not due:
                continue
            for row in await holds.figures(organization_id, utcnow(), timeslot_ids=due):
                yield figures_record(row)
            for timeslot_id in due:
                sent_at[timeslot_id] = now
                pending.discard(timeslot_id)
