"""Timeslots of an event and the ticket types sold for them (scopes events.read / events.write).

``total_available`` is the capacity. Selling against it is the orders service's job, through a
single conditional UPDATE of ``sold`` or ``held`` (``db.holds``); lowering it is one
conditional UPDATE too (``... WHERE sold + held <= new capacity``), so an order and a change of
capacity are ordered by the row's lock and neither can slip past the other's check.

A timeslot is deleted only while no order was placed for it (orders are never deleted with it),
no places of it are held for buyers, and no scanner profile names it (a profile restricted to it
would be left admitting every timeslot). The deletion locks the row first: an order in flight
holds a key-share lock on it and a hold is taken by a statement that updates it, so the checks
after the lock see every order and hold that got there first, and a later one finds it gone.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, NoReturn
from uuid import UUID

import msgspec
from piccolo.columns.combination import WhereRaw

from app.errors import Conflict, InvalidInput, NotFound
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource, Rows, since, until
from app.schemas.decoding import sent
from app.schemas.events import Deleted, Timeslot, TimeslotCreate, TimeslotUpdate
from app.services.events import require_event
from app.services.lookup import owned, owned_row, update_row
from app.services.scanners import refuse_if_profiles_name
from app.services.ticket_types import ticket_types_by_id
from app.timeutil import utcnow, with_offsets
from db import holds
from db.tables import Event, Order, TimeslotTicketType
from db.tables import Timeslot as TimeslotTable
from db.transactions import transaction


async def ticket_type_ids_of(timeslot_ids: list[UUID]) -> dict[UUID, list[UUID]]:
    """The ticket type ids linked to each timeslot (one statement for any number of timeslots)."""
    linked: dict[UUID, list[UUID]] = defaultdict(list)
    if not timeslot_ids:
        return linked
    rows = (
        await TimeslotTicketType.select(
            TimeslotTicketType.timeslot_id, TimeslotTicketType.ticket_type_id
        )
        .where(TimeslotTicketType.timeslot_id.is_in(timeslot_ids))
        .order_by(TimeslotTicketType.ticket_type_id)
    )
    for row in rows:
        linked[row["timeslot_id"]].append(row["ticket_type_id"])
    return linked


async def _with_ticket_type_ids(rows: Rows) -> Rows:
    linked = await ticket_type_ids_of([row["id"] for row in rows])
    return [{**row, "ticket_type_ids": linked[row["id"]]} for row in rows]


TIMESLOTS = Resource(
    table=TimeslotTable,
    record=Timeslot,
    kind="timeslot",
    scope="events.read",
    sort_fields=("created_at", "starts_at", "ends_at", "title"),
    parents={"event_id": Parent("event_id", Event, "event")},
    filters={
        "starts_from": since(
            "starts_at", "from", "Only timeslots starting at or after this RFC 3339 timestamp"
        ),
        "starts_until": until(
            "starts_at", "until", "Only timeslots starting before this RFC 3339 timestamp"
        ),
    },
    enrich=_with_ticket_type_ids,
)


def _check_period(starts_at: datetime, ends_at: datetime) -> None:
    if ends_at < starts_at:
        raise InvalidInput.field("ends_at", "must not be before starts_at")


async def _check_ticket_types(
    organization_id: UUID, event_id: UUID, ticket_type_ids: list[UUID]
) -> list[UUID]:
    """The sent ticket types, deduplicated, each of the timeslot's event (else a 400) and locked
    against deletion until the transaction ends (``app.services.ticket_types``)."""
    wanted = list(dict.fromkeys(ticket_type_ids))
    found = await ticket_types_by_id(organization_id, wanted, lock="KEY SHARE")
    strangers = [str(i) for i in wanted if i not in found or found[i]["event_id"] != event_id]
    if strangers:
        raise InvalidInput.field(
            "ticket_type_ids", f"not ticket types of this event: {', '.join(strangers)}"
        )
    return wanted


async def _link(timeslot_id: UUID, ticket_type_ids: list[UUID]) -> None:
    if ticket_type_ids:
        await TimeslotTicketType.insert(
            *[
                TimeslotTicketType(timeslot_id=timeslot_id, ticket_type_id=i)
                for i in ticket_type_ids
            ]
        )


@requires("events.write")
async def create_timeslot(principal: Principal, event_id: UUID, data: TimeslotCreate) -> Timeslot:
    fields = with_offsets(msgspec.structs.asdict(data), "starts_at", "ends_at")
    ticket_type_ids = fields.pop("ticket_type_ids")
    _check_period(fields["starts_at"], fields["ends_at"])
    await require_event(principal, event_id)
    async with transaction():
        wanted = await _check_ticket_types(principal.organization_id, event_id, ticket_type_ids)
        row = TimeslotTable(**fields, organization_id=principal.organization_id, event_id=event_id)
        await row.save()
        await _link(row.id, wanted)
    return to_record(Timeslot, {**row.to_dict(), "ticket_type_ids": sorted(wanted)})


@requires("events.write")
async def update_timeslot(
    principal: Principal,
    timeslot_id: UUID,
    data: TimeslotUpdate,
    *,
    event_id: UUID | None = None,
) -> Timeslot:
    """Change the sent fields with one conditional UPDATE: a ``total_available`` below the
    tickets sold matches no row and is a 409; the merged period is checked on the returned row
    (a bad one rolls the change back). A sent ``ticket_type_ids`` replaces the list; tickets
    already sold keep their ticket type whatever the list says (it governs new orders)."""
    changes = with_offsets(sent(data), "starts_at", "ends_at")
    if "starts_at" in changes and "ends_at" in changes:
        _check_period(changes["starts_at"], changes["ends_at"])
    ticket_type_ids = changes.pop("ticket_type_ids", None)
    where = owned(TimeslotTable, timeslot_id, principal.organization_id, event_id)
    capacity = changes.get("total_available")
    bound = [] if capacity is None else [WhereRaw("sold + held <= {}", capacity)]
    async with transaction():
        row = await update_row(TimeslotTable, [*where, *bound], changes)
        if row is None:
            await _refuse_capacity(where, capacity, timeslot_id)
        _check_period(row["starts_at"], row["ends_at"])
        if ticket_type_ids is not None:
            wanted = await _check_ticket_types(
                principal.organization_id, row["event_id"], ticket_type_ids
            )
            await TimeslotTicketType.delete().where(TimeslotTicketType.timeslot_id == timeslot_id)
            await _link(timeslot_id, wanted)
        linked = await ticket_type_ids_of([timeslot_id])
    return to_record(Timeslot, {**row, "ticket_type_ids": linked[timeslot_id]})


async def _refuse_capacity(where: list[Any], capacity: int | None, timeslot_id: UUID) -> NoReturn:
    """Why a timeslot update matched no row: not the caller's (404), or the capacity asked for is
    below what is sold (409)."""
    current = (
        await TimeslotTable.select(TimeslotTable.sold, TimeslotTable.held).where(*where).first()
    )
    if current is None:
        raise NotFound.resource("timeslot", timeslot_id)
    taken = current["sold"] + current["held"]
    raise Conflict(
        f"{current['sold']} tickets of this timeslot are sold and {current['held']} places "
        f"held; total_available cannot be lowered to {capacity} (cancel tickets or release "
        f"holds first, or keep it at {taken} or more)"
    )


@requires("events.write")
async def delete_timeslot(
    principal: Principal, timeslot_id: UUID, *, event_id: UUID | None = None
) -> Deleted:
    """Delete a timeslot no order was placed for; 409 naming why otherwise (see the module)."""
    async with transaction():
        found = await owned_row(
            TimeslotTable,
            timeslot_id,
            principal.organization_id,
            "timeslot",
            event_id=event_id,
            lock="UPDATE",
        )
        ordered = await Order.count().where(Order.event_timeslot_id == timeslot_id)
        if ordered:
            raise Conflict(
                f"{ordered} orders were placed for this timeslot ({found['sold']} tickets "
                "sold, cancelled orders count: they are kept); it cannot be deleted"
            )
        held = await holds.figures(principal.organization_id, utcnow(), timeslot_ids=[timeslot_id])
        if held and held[0]["held"] > 0:
            raise Conflict(
                f"{held[0]['held']} places of this timeslot are held for buyers; it can be "
                "deleted once their holds are released or have expired"
            )
        await refuse_if_profiles_name("timeslot_ids", timeslot_id, "timeslot")
        await TimeslotTable.delete().where(TimeslotTable.id == timeslot_id)
    return Deleted(id=timeslot_id, deleted=True)
