"""The webhook event kinds: one payload Struct per kind, and the registry :data:`KINDS`.

Everything that names the kinds derives from here: the ``EventType`` a subscription may ask for,
the outbox's check of what it records, the dashboard's labels, the GraphQL descriptions, the
database rule on ``outbox_events.event_type`` (``db/event_kinds.py``) and the table of
docs/webhooks.md (a test compares them).

Adding a kind: a subclass of :class:`EventPayload` below, or of :class:`OrderPayload` or
:class:`TicketPayload` whose fields its ``data`` begins with (its ``kind``, ``label`` and ``data``
fields) listed in :data:`KINDS`; the code that records it (``app.services.outbox.record_event``);
a migration calling ``db.event_kinds.allow_registered_kinds`` (the database refuses kinds it was
not told about); a row in docs/webhooks.md's table.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, Literal
from uuid import UUID

import msgspec


class EventPayload(msgspec.Struct, frozen=True):
    """The ``data`` of one event; each subclass is one kind."""

    kind: ClassVar[str]
    """The ``event_type`` of the delivery body."""
    label: ClassVar[str]
    """What the dashboard shows beside the kind."""
    subscribable: ClassVar[bool] = True
    """False for a kind sent to one subscription whatever it subscribed to."""


class OrderPayload(EventPayload, frozen=True):
    """The ``data`` of an order's kinds: the order and its event."""

    order_id: UUID
    event_id: UUID


class OrderCreated(OrderPayload, frozen=True):
    kind: ClassVar[str] = "order.created"
    label: ClassVar[str] = "An order was placed"


class OrderConfirmed(OrderPayload, frozen=True):
    kind: ClassVar[str] = "order.confirmed"
    label: ClassVar[str] = "An order was paid"


class TicketPayload(EventPayload, frozen=True):
    """The ``data`` of a ticket's kinds begins with the ticket, its order and its event."""

    ticket_id: UUID
    order_id: UUID
    event_id: UUID


class TicketScanned(TicketPayload, frozen=True):
    kind: ClassVar[str] = "ticket.scanned"
    label: ClassVar[str] = "A ticket was admitted at the door"
    scanner_id: UUID
    scanned_at: datetime


class TicketCancelled(TicketPayload, frozen=True):
    kind: ClassVar[str] = "ticket.cancelled"
    label: ClassVar[str] = "A ticket was cancelled"
    cancelled_at: datetime


class WebhookTest(EventPayload, frozen=True):
    kind: ClassVar[str] = "webhook.test"
    label: ClassVar[str] = "A test event sent from the dashboard or the API"
    subscribable: ClassVar[bool] = False
    webhook_id: UUID


KINDS: tuple[type[EventPayload], ...] = (
    OrderCreated,
    OrderConfirmed,
    TicketScanned,
    TicketCancelled,
    WebhookTest,
)
"""Every kind, in the order the dashboard and the docs list them."""

BY_KIND: dict[str, type[EventPayload]] = {payload.kind: payload for payload in KINDS}
ALL_KINDS: tuple[str, ...] = tuple(BY_KIND)
"""Every kind the outbox may hold."""
SUBSCRIBABLE: tuple[str, ...] = tuple(p.kind for p in KINDS if p.subscribable)
"""The kinds a subscription can ask for."""

if TYPE_CHECKING:
    EventType = str
else:
    EventType = Literal[SUBSCRIBABLE]
"""A kind a subscription can ask for (a ``Literal`` at run time, so decoding checks it)."""


def data_shape(payload: type[EventPayload]) -> str:
    """The fields of a kind's ``data`` as the docs write them: ``{order_id, event_id}``."""
    return "{" + ", ".join(field.name for field in msgspec.structs.fields(payload)) + "}"
