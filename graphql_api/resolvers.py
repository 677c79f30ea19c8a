"""Root queries and mutations: each calls the service function its REST route calls.

Root fields are nullable so that one failing field (FORBIDDEN, NOT_FOUND) leaves the others'
answers in ``data``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from app.ids import parse_id
from app.schemas.events import EventCreate, EventUpdate, TicketTypeCreate, TimeslotCreate
from app.schemas.orders import OrderCreate, RefundCreate
from app.services import events, orders, ticket_types, tickets, timeslots
from app.services.organizations import whoami
from graphql_api.context import Info, principal_of
from graphql_api.inputs import (
    CreateEventInput,
    CreateTicketTypeInput,
    CreateTimeslotInput,
    OrderIdInput,
    PlaceOrderInput,
    RefundOrderInput,
    TicketIdInput,
    UpdateEventInput,
    to_struct,
)
from graphql_api.types import (
    Event,
    Limit,
    Offset,
    Order,
    Page,
    Sort,
    Ticket,
    TicketType,
    Timeslot,
    Viewer,
    page_of,
)


@strawberry.type
class Query:
    @strawberry.field(description="The user behind the credential; needs no scope.")
    async def viewer(self, info: Info) -> Viewer | None:
        return Viewer.from_record(await whoami(principal_of(info)))

    @strawberry.field(description="Scope events.read. Sort fields: created_at, title, starts_at.")
    async def events(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Event] | None:
        page = await events.list_events(principal_of(info), limit=limit, offset=offset, sort=sort)
        return page_of(page, Event.from_record)

    @strawberry.field(description="Scope events.read.")
    async def event(self, info: Info, id: strawberry.ID) -> Event | None:
        return Event.from_record(await events.get_event(principal_of(info), parse_id(id, "id")))

    @strawberry.field(
        description="Scope events.read. The timeslots of an event; `from` keeps those starting at "
        "or after it, `until` those starting before it."
    )
    async def timeslots(
        self,
        info: Info,
        event_id: strawberry.ID,
        starts_from: Annotated[datetime | None, strawberry.argument(name="from")] = None,
        until: datetime | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Timeslot] | None:
        page = await timeslots.list_timeslots(
            principal_of(info),
            parse_id(event_id, "event_id"),
            starts_from=starts_from,
            starts_until=until,
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Timeslot.from_record)

    @strawberry.field(description="Scope events.read.")
    async def ticket_types(
        self,
        info: Info,
        event_id: strawberry.ID,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[TicketType] | None:
        page = await ticket_types.list_ticket_types(
            principal_of(info),
            parse_id(event_id, "event_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, TicketType.from_record)

    @strawberry.field(
        description="Scope tickets.read. The tickets of an event, optionally of one order. "
        "Sort fields: created_at, sequence, owner_name, owner_email, scanned_at, status."
    )
    async def tickets(
        self,
        info: Info,
        event_id: strawberry.ID,
        order_id: strawberry.ID | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Ticket] | None:
        page = await tickets.list_event_tickets(
            principal_of(info),
            parse_id(event_id, "event_id"),
            order_id=None if order_id is None else parse_id(order_id, "order_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Ticket.from_record)

    @strawberry.field(
        description="Scope orders.read. Sort fields: created_at, payed_at, total_price, buyer_name."
    )
    async def orders(
        self,
        info: Info,
        event_id: strawberry.ID | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Order] | None:
        page = await orders.list_orders(
            principal_of(info),
            event_id=None if event_id is None else parse_id(event_id, "event_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Order.from_record)

    @strawberry.field(description="Scope orders.read.")
    async def order(self, info: Info, id: strawberry.ID) -> Order | None:
        return Order.from_record(await orders.get_order(principal_of(info), parse_id(id, "id")))

    @strawberry.field(description="Scope tickets.read.")
    async def ticket(self, info: Info, id: strawberry.ID) -> Ticket | None:
        return Ticket.from_record(await tickets.get_ticket(principal_of(info), parse_id(id, "id")))


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Scope events.write.")
    async def create_event(self, info: Info, input: CreateEventInput) -> Event | None:
        data = to_struct(input, EventCreate)
        return Event.from_record(await events.create_event(principal_of(info), data))

    @strawberry.mutation(description="Scope events.write. Only the fields sent are changed.")
    async def update_event(self, info: Info, input: UpdateEventInput) -> Event | None:
        event_id = parse_id(input.id, "id")
        data = to_struct(input, EventUpdate, exclude=("id",))
        return Event.from_record(await events.update_event(principal_of(info), event_id, data))

    @strawberry.mutation(description="Scope events.write.")
    async def create_ticket_type(
        self, info: Info, input: CreateTicketTypeInput
    ) -> TicketType | None:
        event_id = parse_id(input.event_id, "event_id")
        data = to_struct(input, TicketTypeCreate, exclude=("event_id",))
        created = await ticket_types.create_ticket_type(principal_of(info), event_id, data)
        return TicketType.from_record(created)

    @strawberry.mutation(description="Scope events.write.")
    async def create_timeslot(self, info: Info, input: CreateTimeslotInput) -> Timeslot | None:
        event_id = parse_id(input.event_id, "event_id")
        data = to_struct(input, TimeslotCreate, exclude=("event_id",))
        created = await timeslots.create_timeslot(principal_of(info), event_id, data)
        return Timeslot.from_record(created)

    @strawberry.mutation(
        description="Scope orders.write. A pending order with valid tickets; CONFLICT when the "
        "timeslot has fewer tickets left than asked for."
    )
    async def place_order(self, info: Info, input: PlaceOrderInput) -> Order | None:
        data = to_struct(input, OrderCreate)
        return Order.from_record(await orders.place_order(principal_of(info), data))

    @strawberry.mutation(description="Scope orders.write. Confirming again changes nothing.")
    async def confirm_order(self, info: Info, input: OrderIdInput) -> Order | None:
        order_id = parse_id(input.id, "id")
        return Order.from_record(await orders.confirm_order(principal_of(info), order_id))

    @strawberry.mutation(description="Scope orders.write. Cancels its tickets too; idempotent.")
    async def cancel_order(self, info: Info, input: OrderIdInput) -> Order | None:
        order_id = parse_id(input.id, "id")
        return Order.from_record(await orders.cancel_order(principal_of(info), order_id))

    @strawberry.mutation(
        description="Scope orders.write. CONFLICT when the refunds would exceed totalPrice."
    )
    async def refund_order(self, info: Info, input: RefundOrderInput) -> Order | None:
        order_id = parse_id(input.id, "id")
        data = to_struct(input, RefundCreate, exclude=("id",))
        return Order.from_record(await orders.refund_order(principal_of(info), order_id, data))

    @strawberry.mutation(description="Scope orders.write. Idempotent.")
    async def cancel_ticket(self, info: Info, input: TicketIdInput) -> Ticket | None:
        ticket_id = parse_id(input.id, "id")
        return Ticket.from_record(await tickets.cancel_ticket(principal_of(info), ticket_id))
