"""The ``Subscription`` root: live notifications (CONTRACT.md section 12) over WebSocket.

Each field calls the service operation that declares its scope and opens the caller's feed
(``app.runtime.live``); it then yields what the feed delivers until the client completes the
operation, or until the feed drops a subscriber that could not keep up (the transport then closes
the connection).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from enum import StrEnum
from typing import Any
from uuid import UUID

import strawberry

from app.ids import parse_id
from app.runtime.live import Feed, SubscriberTooSlow
from app.schemas import orders as order_records
from app.schemas import scanning as scan_records
from app.services import attendance, availability, orders, scanning
from graphql_api.context import Info, principal_of
from graphql_api.derive import record_type
from graphql_api.scopes import subscription
from graphql_api.types import Attendance, Order, TimeslotAvailability


@record_type(
    scan_records.ScanNotice,
    name="ScanNotice",
    description="A scan attempt, whatever its outcome; `scannedAt` is when it was attempted.",
)
class ScanNotice:
    pass


@strawberry.enum(description="What happened to the order.")
class OrderChangeType(StrEnum):
    CREATED = "CREATED"
    CONFIRMED = "CONFIRMED"
    CANCELLED = "CANCELLED"


@record_type(order_records.OrderChange, description="An order as it was placed or changed.")
class OrderChange:
    type: OrderChangeType
    order: Order


async def _notices(feed: Feed) -> AsyncGenerator[Any, None]:
    async with feed:
        with contextlib.suppress(SubscriberTooSlow):
            async for notice in feed:
                yield notice


def _event_id(event_id: strawberry.ID | None) -> UUID | None:
    return None if event_id is None else parse_id(event_id, "event_id")


@strawberry.type
class Subscription:
    @subscription(
        scanning.watch_scans,
        "Every scan attempt of the organization, or of one event (`eventId`), once committed.",
    )
    async def scans(
        self, info: Info, event_id: strawberry.ID | None = None
    ) -> AsyncGenerator[ScanNotice, None]:
        feed = await scanning.watch_scans(
            principal_of(info), _event_id(event_id), on_overflow=info.context.on_overflow
        )
        async for notice in _notices(feed):
            yield notice

    @subscription(
        orders.watch_order_changes,
        "Orders of the organization, or of one event (`eventId`), as they are created, "
        "confirmed and cancelled, once committed.",
    )
    async def order_changes(
        self, info: Info, event_id: strawberry.ID | None = None
    ) -> AsyncGenerator[OrderChange, None]:
        feed = await orders.watch_order_changes(
            principal_of(info), _event_id(event_id), on_overflow=info.context.on_overflow
        )
        async for change in _notices(feed):
            yield change

    @subscription(
        attendance.watch_attendance,
        "The event's attendance now, then again whenever a committed admission or exit changes "
        "it (notifications that arrive while it is read are read once together).",
    )
    async def attendance(
        self, info: Info, event_id: strawberry.ID
    ) -> AsyncGenerator[Attendance, None]:
        feed: Any = await attendance.watch_attendance(
            principal_of(info), parse_id(event_id, "event_id"), on_overflow=info.context.on_overflow
        )
        async for figures in feed:  # records of app.schemas; Strawberry reads their fields
            yield figures

    @subscription(
        availability.watch_availability,
        "A timeslot's figures (capacity, sold, held, available) after each change that commits, "
        "at most 10 messages a second per timeslot: the latest figures win.",
    )
    async def availability(
        self, info: Info, event_id: strawberry.ID
    ) -> AsyncGenerator[TimeslotAvailability, None]:
        figures = await availability.watch_availability(
            principal_of(info), parse_id(event_id, "event_id"), on_overflow=info.context.on_overflow
        )
        with contextlib.suppress(SubscriberTooSlow):
            async for row in figures:
                yield row
