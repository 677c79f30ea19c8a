"""Holds: places of a timeslot kept for a buyer while they fill in a form or pay (CONTRACT.md
section 16).

Creating a hold is one statement that takes the places and writes the hold, committed at once
(``db.holds.take``): the timeslot's row is locked only while that statement runs, so a rush on
one timeslot is a queue of short statements, and a request that finds too few places gets its
409 at once. A hold counts until it is converted into an order (``app.services.orders``),
released, or ``expires_at`` passes: from then on it reads ``expired`` and no reader or writer
counts it, whether or not its row has been marked yet (``db.holds``).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

import msgspec

from app.errors import HoldUnavailable, NotFound, SoldOut
from app.principal import Principal, requires
from app.records import to_record
from app.schemas.holds import Hold, HoldCreate
from app.services.availability import announce
from app.services.sellable import checked_sale
from app.timeutil import utcnow
from db import holds

T = TypeVar("T")


def hold_record(row: dict[str, Any], now: datetime) -> Hold:
    """The hold as clients see it: an active row past ``expires_at`` reads ``expired``."""
    if row["status"] == "active" and row["expires_at"] <= now:
        row = {**row, "status": "expired"}
    return to_record(Hold, row)


async def places_left(organization_id: UUID, timeslot_id: UUID, now: datetime) -> tuple[int, int]:
    """What the timeslot has left as of ``now`` (for the detail of a 409), and the places of its
    lapsed holds not given back yet (:func:`db.holds.reclaim` gives them back)."""
    rows = await holds.figures(organization_id, now, timeslot_ids=[timeslot_id])
    if not rows:
        raise NotFound.resource("timeslot", timeslot_id)
    row = rows[0]
    left: int = max(row["total_available"] - row["sold"] - row["held"], 0)
    return left, int(row["lapsed"])


async def take_or_reclaim(
    organization_id: UUID,
    timeslot_id: UUID,
    count: int,
    now: datetime,
    what: str,
    take: Callable[[], Awaitable[T | None]],
    *,
    short: bool = False,
) -> T:
    """What ``take`` (a conditional claim of ``count`` places) gives, or a 409 ``sold-out`` when
    the timeslot has fewer left. When holds that lapsed keep places, they are marked first (their
    places come back) and ``take`` is tried once more; when none do, the 409 costs one read.
    ``short``: the caller has just read too few places, so ``take`` is not tried before that read
    (it is after it, if places came back meanwhile)."""
    taken = None if short else await take()
    if taken is None:
        left, lapsed = await places_left(organization_id, timeslot_id, now)
        if (lapsed and await holds.reclaim(timeslot_id, now)) or (short and left >= count):
            taken = await take()
            if taken is None:
                left, _ = await places_left(organization_id, timeslot_id, now)
        if taken is None:
            raise sold_out(left, count, what)
    return taken


def sold_out(left: int, asked: int, what: str) -> SoldOut:
    return SoldOut(f"The timeslot has {left} places left; the {what} asks for {asked}")


@requires("orders.write")
async def create_hold(principal: Principal, data: HoldCreate) -> Hold:
    """Hold places of a timeslot for ``ttl_seconds``; 409 ``sold-out`` when fewer are left."""
    organization_id = principal.organization_id
    timeslot, _ = await checked_sale(
        organization_id,
        data.event_id,
        data.event_timeslot_id,
        {ticket.ticket_type_id for ticket in data.tickets},
        lock=False,
    )
    tickets = msgspec.json.encode(data.tickets).decode()
    quantity = len(data.tickets)
    short = timeslot["sold"] + timeslot["held"] + quantity > timeslot["total_available"]
    hold_id = uuid.uuid4()
    now = utcnow()
    expires_at = now + timedelta(seconds=data.ttl_seconds)
    row = await take_or_reclaim(
        organization_id,
        data.event_timeslot_id,
        quantity,
        now,
        "hold",
        lambda: holds.take(
            organization_id, data.event_timeslot_id, hold_id, tickets, quantity, now, expires_at
        ),
        short=short,  # as read: the 409 then costs that read and one more
    )
    await announce(organization_id, row["event_id"], row["event_timeslot_id"])
    return hold_record(row, now)


@requires("orders.read")
async def get_hold(principal: Principal, hold_id: UUID) -> Hold:
    row = await holds.find(principal.organization_id, hold_id)
    if row is None:
        raise NotFound.resource("hold", hold_id)
    return hold_record(row, utcnow())


@requires("orders.write")
async def release_hold(principal: Principal, hold_id: UUID) -> Hold:
    """Give the hold's places back; releasing again (or a hold that expired) answers the hold as
    it is; a converted hold is a 409 ``hold-unavailable`` (its places are the order's)."""
    now = utcnow()
    row = await holds.release(principal.organization_id, hold_id, now)
    if row is None:
        row = await holds.find(principal.organization_id, hold_id)
        if row is None:
            raise NotFound.resource("hold", hold_id)
        if row["status"] == "converted":
            raise HoldUnavailable("The hold was converted into an order; cancel the order instead")
    else:
        await announce(principal.organization_id, row["event_id"], row["event_timeslot_id"])
    return hold_record(row, now)
