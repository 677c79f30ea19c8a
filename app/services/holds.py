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
from datetime import datetime, timedelta
from typing import Any
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


def hold_record(row: dict[str, Any], now: datetime) -> Hold:
    """The hold as clients see it: an active row past ``expires_at`` reads ``expired``."""
    if row["status"] == "active" and row["expires_at"] <= now:
        row = {**row, "status": "expired"}
    return to_record(Hold, row)


async def places_left(organization_id: UUID, timeslot_id: UUID, now: datetime) -> int:
    """What the timeslot has left as of ``now`` (for the detail of a 409)."""
    rows = await holds.figures(organization_id, now, timeslot_ids=[timeslot_id])
    if not rows:
        raise NotFound.resource("timeslot", timeslot_id)
    row = rows[0]
    left: int = max(row["total_available"] - row["sold"] - row["held"], 0)
    return left


def sold_out(left: int, asked: int, what: str) -> SoldOut:
    return SoldOut(f"The timeslot has {left} places left; the {what} asks for {asked}")


@requires("orders.write")
async def create_hold(principal: Principal, data: HoldCreate) -> Hold:
    """Hold places of a timeslot for ``ttl_seconds``; 409 ``sold-out`` when fewer are left."""
    organization_id = principal.organization_id
    await checked_sale(
        organization_id,
        data.event_id,
        data.event_timeslot_id,
        {ticket.ticket_type_id for ticket in data.tickets},
        lock=False,
    )
    tickets = msgspec.json.encode(data.tickets).decode()
    quantity = len(data.tickets)
    hold_id = uuid.uuid4()
    now = utcnow()
    expires_at = now + timedelta(seconds=data.ttl_seconds)
    row = await holds.take(
        organization_id, data.event_timeslot_id, hold_id, tickets, quantity, now, expires_at
    )
    if row is None and await holds.reclaim(data.event_timeslot_id, now):
        row = await holds.take(
            organization_id, data.event_timeslot_id, hold_id, tickets, quantity, now, expires_at
        )
    if row is None:
        left = await places_left(organization_id, data.event_timeslot_id, now)
        raise sold_out(left, quantity, "hold")
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
