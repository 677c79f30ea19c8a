"""The SQL of an order outright written in one statement (PostgreSQL's ``order_write``, migration
2026-11-26T14:40): the checks of the sale, the order, its tickets, the outbox event and, last, the
places, committed by the statement itself."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from uuid import UUID

from db.tables import Order

ORDER_WRITE = (
    "SELECT order_write({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}) AS total_price"
)


def writes_at_once() -> bool:
    """Whether an order outright can be written in one statement (:func:`write_at_once`)."""
    return Order._meta.db.engine_type != "sqlite"


class NotWritten(Exception):
    """``order_write`` wrote nothing: the timeslot or a ticket type is not as the order needs, or
    the places ran out (then it raised, undoing the statement's rows)."""


async def write_at_once(
    organization_id: UUID,
    event_id: UUID,
    timeslot_id: UUID,
    order: tuple[UUID, str, str, str, str],
    now: datetime,
    tickets: str,
    event: tuple[UUID, str, str],
    notify: str,
) -> Decimal:
    """Write an order outright with ``order_write``: ``order`` is its (id, buyer name, buyer
    e-mail, channel, payment method), ``tickets`` the JSON array of its tickets (id,
    ticket_type_id, scannable_code, owner_name, owner_email, seat, sequence, metadata,
    metadata_fields), ``event`` the outbox row (id, type, JSON payload) with a ``NOTIFY`` on
    ``notify``. The order's total, or :class:`NotWritten` (the caller then runs the order in a
    transaction, which says why). Outside any transaction the statement commits by itself; inside
    one, call it in a savepoint (it may raise)."""
    order_id, buyer_name, buyer_email, channel, payment_method = order
    outbox_id, event_type, payload = event
    try:
        rows = await Order.raw(
            ORDER_WRITE,
            organization_id, event_id, timeslot_id, order_id,
            buyer_name, buyer_email, channel, payment_method,
            now, tickets, outbox_id, event_type, payload, notify,
        )  # fmt: skip
    except Exception as error:
        if getattr(error, "sqlstate", None) == "TK409":
            raise NotWritten() from error
        raise
    total: Decimal | None = rows[0]["total_price"]
    if total is None:
        raise NotWritten()
    return total
