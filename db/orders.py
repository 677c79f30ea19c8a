"""The SQL of an order written in one statement (PostgreSQL's ``order_write``, migration
2026-11-26T14:40): the hold converted or the sale checked, the order, its tickets, the outbox event
and, last, the places, committed by the statement itself."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import UUID

from db.rows import postgres
from db.tables import Order

ORDER_WRITE = (
    "SELECT total_price, places_left, lapsed FROM "
    "order_write({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})"
)


def writes_at_once() -> bool:
    """Whether an order can be written in one statement (:func:`write_at_once`)."""
    return postgres()


class NotWritten(Exception):
    """``order_write`` wrote nothing: the hold is not as read, the timeslot or a ticket type is
    not as the order needs, or the places ran out under it (it raised, undoing its rows)."""


@dataclass(frozen=True)
class Short:
    """An order outright found too few places: ``places_left`` as of the statement, and
    ``lapsed`` places of holds past their expiry not yet given back."""

    places_left: int
    lapsed: int


@dataclass(frozen=True)
class NewOrder:
    """What an order is made of before the database: ``tickets`` is the JSON array of its
    tickets (id, ticket_type_id, scannable_code, signed_code, scan_key_id, owner_name,
    owner_email, seat, sequence, metadata, metadata_fields), ``event`` its outbox row (id, type,
    JSON payload)."""

    id: UUID
    organization_id: UUID
    event_id: UUID
    timeslot_id: UUID
    hold_id: UUID | None
    buyer_name: str
    buyer_email: str
    channel: str
    payment_method: str
    created_at: datetime
    tickets: str
    event: tuple[UUID, str, str]


async def write_at_once(order: NewOrder, notify: str) -> Decimal | Short:
    """Write ``order`` with ``order_write`` (the outbox event with a ``NOTIFY`` on ``notify``):
    its total; :class:`Short` for an order outright that finds too few places (nothing written);
    :class:`NotWritten` for anything else (the caller then runs the order in a transaction,
    which says why). Outside any transaction the statement commits by itself; inside one, call it
    in a savepoint (it may raise)."""
    outbox_id, event_type, payload = order.event
    try:
        rows = await Order.raw(
            ORDER_WRITE,
            order.organization_id, order.event_id, order.timeslot_id, order.id, order.hold_id,
            order.buyer_name, order.buyer_email, order.channel, order.payment_method,
            order.created_at, order.tickets, outbox_id, event_type, payload, notify,
        )  # fmt: skip
    except Exception as error:
        if getattr(error, "sqlstate", None) == "TK409":
            raise NotWritten() from error
        raise
    row = rows[0]
    if row["total_price"] is not None:
        total: Decimal = row["total_price"]
        return total
    if row["places_left"] is not None:
        return Short(row["places_left"], row["lapsed"])
    raise NotWritten()
