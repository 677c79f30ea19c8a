"""Orders: placing (never overselling a timeslot), confirming, cancelling and refunding.

Capacity is claimed with one conditional UPDATE of the timeslot's ``sold`` counter
(``sold + held + n <= total_available``, ``db.holds``) inside the order's transaction, as its last
statement: the row lock it takes serializes concurrent orders for the same timeslot only from
there to the commit, and the condition is re-checked against the committed counts, so no
interleaving can oversell. When the timeslot as first read has too few places, the claim comes
first instead, so that the 409 comes before any other work.

On PostgreSQL an order outright, outside any request transaction, is one statement instead: the
function ``order_write`` (``db.orders``) checks the sale, writes the order, its tickets and the
outbox event and takes the places last, committing by itself; anything it finds wrong (or too few
places) writes nothing, and the order runs again in the transaction above, which says why.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any, get_args
from uuid import UUID

import msgspec

from app.errors import Conflict, FieldError, HoldUnavailable, InvalidInput, NotFound
from app.money import amount, to_cents
from app.principal import Principal, requires
from app.records import to_record
from app.resources import Parent, Resource, choice_filter, id_filter, since, text_filter, until
from app.runtime import live
from app.schemas.orders import (
    Order,
    OrderChange,
    OrderChangeType,
    OrderCreate,
    OrderStatus,
    RefundCreate,
    TicketInput,
)
from app.schemas.webhook_events import OrderConfirmed, OrderCreated
from app.services import audit, availability, scan_keys
from app.services.audit import Target
from app.services.holds import hold_record, sold_out, take_or_reclaim
from app.services.lookup import owned_row
from app.services.organizations import EMAIL_PATTERN
from app.services.outbox import NOTIFY_CHANNEL, outbox_rows, record_event, rows_written
from app.services.sellable import checked_sale
from app.services.tickets import cancel_tickets, new_scannable_code
from app.timeutil import utcnow
from db import holds
from db import orders as statements
from db.counts import Counts
from db.tables import Event, Ticket
from db.tables import Order as OrderTable
from db.transactions import in_transaction, savepoint_next, transaction

ORDERS = Resource(
    table=OrderTable,
    record=Order,
    kind="order",
    scope="orders.read",
    sort_fields=("created_at", "payed_at", "total_price", "buyer_name", "updated_at"),
    parents={"event_id": Parent("event_id", Event, "event")},
    filters={
        "event_id": id_filter("event_id", "Only orders of this event"),
        "status": choice_filter("status", get_args(OrderStatus), "Only orders in this status"),
        "buyer_email": text_filter(
            "buyer_email",
            "Only orders of this buyer e-mail (case-insensitive)",
            max_length=320,
            lower=True,
        ),
        "created_since": since(
            "created_at", "created_since", "Only orders placed at or after this RFC 3339 timestamp"
        ),
        "created_until": until(
            "created_at", "created_until", "Only orders placed before this RFC 3339 timestamp"
        ),
        "updated_since": since(
            "updated_at",
            "updated_since",
            "Only orders changed at or after this RFC 3339 timestamp (sync)",
        ),
    },
    counts=Counts("order_counts", get_args(OrderStatus)),
)
"""The filters of a list: an unknown event gives an empty page; each is served by an index."""


def _check_emails(data: OrderCreate) -> None:
    errors = []
    if not EMAIL_PATTERN.match(data.buyer_email):
        errors.append(FieldError("buyer_email", "not an email address"))
    for index, ticket in enumerate(data.tickets):
        if ticket.owner_email is not None and not EMAIL_PATTERN.match(ticket.owner_email):
            errors.append(FieldError(f"tickets[{index}].owner_email", "not an email address"))
    if errors:
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)


async def _claim_capacity(
    organization_id: UUID, timeslot_id: UUID, count: int, now: datetime
) -> None:
    """Sell ``count`` places of the timeslot, or a 409 ``sold-out`` (``take_or_reclaim``)."""

    async def claim() -> bool | None:
        return await holds.claim(organization_id, timeslot_id, count) or None

    await take_or_reclaim(organization_id, timeslot_id, count, now, "order", claim)


async def _announce(organization_id: UUID, change: OrderChangeType, order: Order) -> None:
    """Tell live subscribers once the transaction commits (``app.runtime.live``)."""
    await live.publish_after_commit(
        organization_id, "orders", order.event_id, OrderChange(change, order)
    )


async def _audit(principal: Principal, action: str, order: Order) -> None:
    """Record a person's change of an order in the audit log (an integration's changes through
    the API are the shop's business, not administration)."""
    if audit.by_person(principal):
        await audit.record(principal, action, Target("order", order.id, order.buyer_name))


@requires("orders.read")
async def watch_order_changes(
    principal: Principal,
    event_id: UUID | None = None,
    on_overflow: Callable[[], None] | None = None,
) -> live.Feed:
    """The organization's orders (of one event, when named) as they are placed, confirmed and
    cancelled: a feed of :class:`OrderChange` (see ``app.runtime.live``)."""
    if event_id is not None:
        await owned_row(Event, event_id, principal.organization_id, "event")
    return live.watch(principal.organization_id, "orders", event_id, on_overflow)


@requires("orders.write")
@scan_keys.retrying_retired_key
async def place_order(principal: Principal, data: OrderCreate) -> Order:
    """Create a pending order and its valid tickets, from a hold (``hold_id``: its places, the
    hold becomes ``converted``) or outright; emits ``order.created``."""
    _check_emails(data)
    if data.hold_id is not None:
        return await _place_from_hold(principal.organization_id, data.hold_id, data)
    missing = [
        name for name in ("event_id", "event_timeslot_id") if getattr(data, name) is None
    ] + ([] if data.tickets else ["tickets"])
    if missing:
        errors = [FieldError(name, "required without hold_id") for name in missing]
        raise InvalidInput("; ".join(f"{e.field}: {e.message}" for e in errors), errors)
    assert data.event_id is not None and data.event_timeslot_id is not None
    organization_id = principal.organization_id
    count = len(data.tickets)
    if _at_once():
        placed = await _place_at_once(
            organization_id, data.event_id, data.event_timeslot_id, None, data, data.tickets
        )
        if isinstance(placed, Order):
            return placed
        if placed is not None and not placed.lapsed:  # too few places, none to reclaim
            raise sold_out(placed.places_left, count, "order")
    await scan_keys.prepare(organization_id, data.event_id)  # before any lock: see there
    async with transaction():
        timeslot, types = await checked_sale(
            organization_id,
            data.event_id,
            data.event_timeslot_id,
            {ticket.ticket_type_id for ticket in data.tickets},
            lock=True,
        )
        signer = await scan_keys.signer(organization_id, data.event_id)  # prepared above
        now = utcnow()
        claimed = timeslot["sold"] + timeslot["held"] + count > timeslot["total_available"]
        if claimed:  # too few places as read: the 409 (or the lapsed holds' places) at once
            await _claim_capacity(organization_id, data.event_timeslot_id, count, now)
        placed = await _write_order(
            organization_id,
            uuid.uuid4(),
            data.event_id,
            data.event_timeslot_id,
            data,
            data.tickets,
            types,
            signer,
            now,
        )
        if not claimed:  # last: the timeslot's row is locked from here to the commit only
            await _claim_capacity(organization_id, data.event_timeslot_id, count, now)
    return placed


def _at_once() -> bool:
    """Whether this order can be written in one statement (``db.orders``): on PostgreSQL, outside
    any transaction (it then commits by itself) or directly in an idempotent request's (in a
    savepoint, undone alone if the statement raises)."""
    return statements.writes_at_once() and (not in_transaction() or savepoint_next())


async def _place_at_once(
    organization_id: UUID,
    event_id: UUID,
    timeslot_id: UUID,
    hold_id: UUID | None,
    data: OrderCreate,
    tickets: list[TicketInput],
) -> Order | statements.Short | None:
    """The order in one statement (``db.orders.write_at_once``), then its announcements; for an
    order outright that finds too few places, what it found; None when the statement wrote
    nothing for any other reason (see the module's docstring), or when this process holds no key
    of the event to sign its codes with (the transaction reads or makes it, once the event is
    known to be the caller's; the statement checks that before it writes)."""
    signer = scan_keys.cached_signer(event_id)
    if signer is None:
        return None
    now = utcnow()
    order_id = uuid.uuid4()
    buyer_email = data.buyer_email.lower()
    [event] = outbox_rows(organization_id, [OrderCreated(order_id=order_id, event_id=event_id)])
    new = statements.NewOrder(
        order_id,
        organization_id,
        event_id,
        timeslot_id,
        hold_id,
        data.buyer_name,
        buyer_email,
        data.channel,
        data.payment_method,
        now,
        _encode(_ticket_rows(data, tickets, signer, timeslot_id)).decode(),
        event,
    )
    try:
        async with transaction() if in_transaction() else contextlib.nullcontext():
            total = await statements.write_at_once(new, NOTIFY_CHANNEL)
    except statements.NotWritten:
        return None
    if isinstance(total, statements.Short):
        return total
    placed = Order(
        id=order_id,
        event_id=event_id,
        event_timeslot_id=timeslot_id,
        buyer_name=data.buyer_name,
        buyer_email=buyer_email,
        channel=data.channel,
        payment_method=data.payment_method,
        total_price=float(total),
        refunded=0.0,
        payed_at=None,
        created_at=now,
        updated_at=now,
        status="pending",
    )
    await rows_written(True)
    await _announce(organization_id, "CREATED", placed)
    await availability.announce(organization_id, event_id, timeslot_id)
    return placed


_encode = msgspec.json.Encoder().encode


def _ticket_rows(
    data: OrderCreate, tickets: list[TicketInput], signer: scan_keys.Signer, timeslot_id: UUID
) -> list[dict[str, Any]]:
    """What the order's tickets are made of that does not depend on the database: their ids,
    codes (the signed one with ``signer``, the event's current key), owners (the buyer's by
    default), seats, sequence and metadata."""
    buyer_email = data.buyer_email.lower()
    ids = [uuid.uuid4() for _ in tickets]
    return [
        {
            "id": ticket_id,
            "ticket_type_id": ticket.ticket_type_id,
            "scannable_code": new_scannable_code(),
            "signed_code": signer.sign(ticket_id, ticket.ticket_type_id, timeslot_id),
            "scan_key_id": signer.row_id,
            "owner_name": ticket.owner_name or data.buyer_name,
            "owner_email": ticket.owner_email.lower() if ticket.owner_email else buyer_email,
            "seat": ticket.seat,
            "sequence": sequence,
            "metadata": ticket.metadata,
            "metadata_fields": [
                {"id": uuid.uuid4(), "key": f.key, "name": f.name, "value": f.value}
                for f in ticket.metadata_fields
            ],
        }
        for sequence, (ticket_id, ticket) in enumerate(zip(ids, tickets, strict=True), 1)
    ]


async def _place_from_hold(organization_id: UUID, hold_id: UUID, data: OrderCreate) -> Order:
    """The order of an active hold: the hold is converted first (409 ``hold-unavailable`` when
    it is not active any more), its places move from held to sold in the last statement. On
    PostgreSQL the hold is read, then converted and the order written in one statement, which
    writes nothing when the hold changed since the read (then the transaction below runs)."""
    now = utcnow()
    if _at_once():
        found = await holds.find(organization_id, hold_id)
        if found is not None and found["status"] == "active" and found["expires_at"] > now:
            placed = await _place_at_once(
                organization_id,
                found["event_id"],
                found["event_timeslot_id"],
                hold_id,
                data,
                _hold_tickets(found, data),
            )
            if isinstance(placed, Order):
                return placed
    order_id = uuid.uuid4()
    async with transaction():
        hold = await holds.convert(organization_id, hold_id, order_id, now)
        if hold is None:
            found = await holds.find(organization_id, hold_id)
            if found is None:
                raise NotFound.resource("hold", hold_id)
            status = hold_record(found, now).status
            raise HoldUnavailable(f"The hold is {status}; hold places again")
        event_id, timeslot_id = hold["event_id"], hold["event_timeslot_id"]
        await scan_keys.prepare(organization_id, event_id)  # before any other lock
        tickets = _hold_tickets(hold, data)
        _, types = await checked_sale(
            organization_id, event_id, timeslot_id, {t.ticket_type_id for t in tickets}, lock=True
        )
        signer = await scan_keys.signer(organization_id, event_id)
        placed = await _write_order(
            organization_id, order_id, event_id, timeslot_id, data, tickets, types, signer, now
        )
        await holds.sell_held(timeslot_id, hold["quantity"])  # last: see place_order
    return placed


def _hold_tickets(hold: dict[str, Any], data: OrderCreate) -> list[TicketInput]:
    """The tickets of an order of ``hold``: those sent, which must name exactly the held ticket
    types, or one per held place (a 400 when the order names another event or timeslot)."""
    for name in ("event_id", "event_timeslot_id"):
        if getattr(data, name) not in (None, hold[name]):
            raise InvalidInput.field(name, "is not the hold's")
    held_types = [ticket["ticket_type_id"] for ticket in msgspec.json.decode(hold["tickets"])]
    tickets = data.tickets or [TicketInput(ticket_type_id=UUID(t)) for t in held_types]
    if sorted(str(t.ticket_type_id) for t in tickets) != sorted(held_types):
        raise InvalidInput.field(
            "tickets", "must name exactly the held ticket types (or be left out)"
        )
    return tickets


async def _write_order(
    organization_id: UUID,
    order_id: UUID,
    event_id: UUID,
    timeslot_id: UUID,
    data: OrderCreate,
    tickets: list[TicketInput],
    types: dict[UUID, dict[str, Any]],
    signer: scan_keys.Signer,
    now: datetime,
) -> Order:
    """Insert the pending order and its valid tickets, record ``order.created`` and announce it
    (inside the caller's transaction; the places are the caller's to take)."""
    total = sum((to_cents(types[t.ticket_type_id]["price"]) for t in tickets), Decimal("0.00"))
    order = OrderTable(
        id=order_id,
        organization_id=organization_id,
        event_id=event_id,
        event_timeslot_id=timeslot_id,
        buyer_name=data.buyer_name,
        buyer_email=data.buyer_email.lower(),
        channel=data.channel,
        payment_method=data.payment_method,
        total_price=total,
        created_at=now,
        updated_at=now,
    )
    await order.save()
    await Ticket.insert(
        *[
            Ticket(
                **{
                    **row,
                    "metadata": _encode(row["metadata"]).decode(),
                    "metadata_fields": _encode(row["metadata_fields"]).decode(),
                },
                organization_id=organization_id,
                event_id=event_id,
                event_timeslot_id=timeslot_id,
                order_id=order.id,
                swappable=types[row["ticket_type_id"]]["swappable"],
                created_at=now,
                updated_at=now,
            )
            for row in _ticket_rows(data, tickets, signer, timeslot_id)
        ]
    )
    await record_event(organization_id, OrderCreated(order_id=order.id, event_id=event_id))
    placed = to_record(Order, order.to_dict())
    await _announce(organization_id, "CREATED", placed)
    await availability.announce(organization_id, event_id, timeslot_id)
    return placed


@requires("orders.write")
async def confirm_order(principal: Principal, order_id: UUID) -> Order:
    """Mark a pending order paid; emits ``order.confirmed`` exactly once, however often called."""
    now = utcnow()
    async with transaction():
        confirmed = (
            await OrderTable.update(
                {
                    OrderTable.status: "confirmed",
                    OrderTable.payed_at: now,
                    OrderTable.updated_at: now,
                }
            )
            .where(
                OrderTable.id == order_id,
                OrderTable.organization_id == principal.organization_id,
                OrderTable.status == "pending",
            )
            .returning(*OrderTable.all_columns())
        )
        if confirmed:
            row = confirmed[0]
            await record_event(
                principal.organization_id,
                OrderConfirmed(order_id=row["id"], event_id=row["event_id"]),
            )
            record = to_record(Order, row)
            await _announce(principal.organization_id, "CONFIRMED", record)
            await _audit(principal, "order.confirm", record)
            return record
    row = await owned_row(OrderTable, order_id, principal.organization_id, "order")
    if row["status"] == "cancelled":
        raise Conflict("A cancelled order cannot be confirmed")
    return to_record(Order, row)


@requires("orders.write")
async def cancel_order(principal: Principal, order_id: UUID) -> Order:
    """Cancel an order and each of its live tickets (one ``ticket.cancelled`` each); idempotent."""
    now = utcnow()
    async with transaction():
        cancelled = (
            await OrderTable.update(
                {
                    OrderTable.status: "cancelled",
                    OrderTable.cancelled_at: now,
                    OrderTable.updated_at: now,
                }
            )
            .where(
                OrderTable.id == order_id,
                OrderTable.organization_id == principal.organization_id,
                OrderTable.status != "cancelled",
            )
            .returning(*OrderTable.all_columns())
        )
        if cancelled:
            await cancel_tickets(principal.organization_id, [Ticket.order_id == order_id])
            record = to_record(Order, cancelled[0])
            await _announce(principal.organization_id, "CANCELLED", record)
            await _audit(principal, "order.cancel", record)
            return record
    return to_record(
        Order, await owned_row(OrderTable, order_id, principal.organization_id, "order")
    )


@requires("orders.write")
async def refund_order(principal: Principal, order_id: UUID, data: RefundCreate) -> Order:
    """Add ``amount`` to ``refunded``; refunding more than ``total_price`` in all is a 409."""
    value = amount(data.amount, "amount")
    if value <= 0:
        raise InvalidInput.field("amount", "must be greater than 0")
    async with transaction():
        refunded = await OrderTable.raw(
            "UPDATE orders SET refunded = refunded + {}, updated_at = {} "
            "WHERE id = {} AND organization_id = {} AND refunded + {} <= total_price "
            "RETURNING id",
            value,
            utcnow(),
            order_id,
            principal.organization_id,
            value,
        )
        row = await owned_row(OrderTable, order_id, principal.organization_id, "order")
    if not refunded:
        left = to_cents(row["total_price"]) - to_cents(row["refunded"])
        raise Conflict(f"Only {left} of the order's total can still be refunded")
    return to_record(Order, row)
