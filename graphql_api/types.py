"""GraphQL object types, each mapped once from the service record it mirrors (app/schemas).

Relations resolve through the request's dataloaders and are nullable, so that a relation the
credential may not read fails with its own FORBIDDEN error while the rest of the query answers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Generic, TypeVar

import strawberry
from strawberry.scalars import JSON

from app import pagination
from app.ids import parse_id
from app.schemas import events as event_records
from app.schemas import identity as identity_records
from app.schemas import orders as order_records
from app.schemas import tickets as ticket_records
from graphql_api.context import Info, loaders_of, principal_of
from graphql_api.dataloaders import list_args

T = TypeVar("T")
R = TypeVar("R")

Limit = Annotated[
    int | None, strawberry.argument(description="Results per page, 1 to 100 (default 25)")
]
Offset = Annotated[int | None, strawberry.argument(description="Results to skip (default 0)")]
Sort = Annotated[
    str | None,
    strawberry.argument(
        description="field:asc or field:desc with the REST field names (default created_at:desc)"
    ),
]


@strawberry.type
class Pagination:
    total: int
    limit: int
    offset: int
    has_more: bool


@strawberry.type
class Page(Generic[T]):
    items: list[T]
    pagination: Pagination


def page_of(page: pagination.Page[R], convert: Callable[[R], T]) -> Page[T]:
    return Page(
        items=[convert(item) for item in page.data],
        pagination=Pagination(
            total=page.pagination.total,
            limit=page.pagination.limit,
            offset=page.pagination.offset,
            has_more=page.pagination.has_more,
        ),
    )


@strawberry.type(description="The user behind the credential and their organization.")
class Viewer:
    uid: strawberry.ID
    email: str
    organization: str

    @classmethod
    def from_record(cls, record: identity_records.CurrentUser) -> Viewer:
        return cls(
            uid=strawberry.ID(str(record.uid)), email=record.email, organization=record.organization
        )


@strawberry.type
class Event:
    id: strawberry.ID
    title: str
    description: str
    location: str | None
    starts_at: datetime
    ends_at: datetime | None
    order_scanning_enabled: bool
    created_at: datetime
    updated_at: datetime

    @classmethod
    def from_record(cls, record: event_records.Event) -> Event:
        return cls(
            id=strawberry.ID(str(record.id)),
            title=record.title,
            description=record.description,
            location=record.location,
            starts_at=record.starts_at,
            ends_at=record.ends_at,
            order_scanning_enabled=record.order_scanning_enabled,
            created_at=record.created_at,
            updated_at=record.updated_at,
        )

    @strawberry.field(
        description="Scope events.read. `from` keeps timeslots starting at or after it, "
        "`until` those starting before it."
    )
    async def timeslots(
        self,
        info: Info,
        starts_from: Annotated[datetime | None, strawberry.argument(name="from")] = None,
        until: datetime | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Timeslot] | None:
        args = list_args(
            starts_from=starts_from, starts_until=until, limit=limit, offset=offset, sort=sort
        )
        page = await loaders_of(info).event_timeslots.load((parse_id(self.id, "id"), args))
        return page_of(page, Timeslot.from_record)

    @strawberry.field(description="Scope events.read.")
    async def ticket_types(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[TicketType] | None:
        args = list_args(limit=limit, offset=offset, sort=sort)
        page = await loaders_of(info).event_ticket_types.load((parse_id(self.id, "id"), args))
        return page_of(page, TicketType.from_record)

    @strawberry.field(description="Scope tickets.read. `orderId` keeps one order's tickets.")
    async def tickets(
        self,
        info: Info,
        order_id: strawberry.ID | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Ticket] | None:
        principal_of(info, "tickets.read")
        args = list_args(
            order_id=None if order_id is None else parse_id(order_id, "order_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        page = await loaders_of(info).event_tickets.load((parse_id(self.id, "id"), args))
        return page_of(page, Ticket.from_record)

    @strawberry.field(description="Scope orders.read.")
    async def orders(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Order] | None:
        args = list_args(limit=limit, offset=offset, sort=sort)
        page = await loaders_of(info).event_orders.load((parse_id(self.id, "id"), args))
        return page_of(page, Order.from_record)


@strawberry.type
class TicketType:
    id: strawberry.ID
    event_id: strawberry.ID
    name: str
    price: float
    swappable: bool
    created_at: datetime

    @classmethod
    def from_record(cls, record: event_records.TicketType) -> TicketType:
        return cls(
            id=strawberry.ID(str(record.id)),
            event_id=strawberry.ID(str(record.event_id)),
            name=record.name,
            price=record.price,
            swappable=record.swappable,
            created_at=record.created_at,
        )

    @strawberry.field(description="Scope events.read.")
    async def event(self, info: Info) -> Event | None:
        return Event.from_record(await loaders_of(info).event.load(parse_id(self.event_id, "id")))


@strawberry.type(description="`totalAvailable` is the capacity, not what remains.")
class Timeslot:
    id: strawberry.ID
    title: str
    starts_at: datetime
    ends_at: datetime
    total_available: int
    ticket_type_ids: list[strawberry.ID]

    @classmethod
    def from_record(cls, record: event_records.Timeslot) -> Timeslot:
        return cls(
            id=strawberry.ID(str(record.id)),
            title=record.title,
            starts_at=record.starts_at,
            ends_at=record.ends_at,
            total_available=record.total_available,
            ticket_type_ids=[strawberry.ID(str(i)) for i in record.ticket_type_ids],
        )

    @strawberry.field(
        description="Scope events.read. The ticket types sold for this timeslot "
        "(an empty `ticketTypeIds` means every ticket type of the event)."
    )
    async def ticket_types(self, info: Info) -> list[TicketType] | None:
        loader = loaders_of(info).ticket_type
        records = await loader.load_many([parse_id(i, "id") for i in self.ticket_type_ids])
        return [TicketType.from_record(record) for record in records]


@strawberry.type(description="`status` is pending, confirmed or cancelled.")
class Order:
    id: strawberry.ID
    event_id: strawberry.ID
    event_timeslot_id: strawberry.ID
    buyer_name: str
    buyer_email: str
    channel: str
    payment_method: str
    total_price: float
    refunded: float
    payed_at: datetime | None
    created_at: datetime
    status: str

    @classmethod
    def from_record(cls, record: order_records.Order) -> Order:
        return cls(
            id=strawberry.ID(str(record.id)),
            event_id=strawberry.ID(str(record.event_id)),
            event_timeslot_id=strawberry.ID(str(record.event_timeslot_id)),
            buyer_name=record.buyer_name,
            buyer_email=record.buyer_email,
            channel=record.channel,
            payment_method=record.payment_method,
            total_price=record.total_price,
            refunded=record.refunded,
            payed_at=record.payed_at,
            created_at=record.created_at,
            status=record.status,
        )

    @strawberry.field(description="Scope events.read.")
    async def event(self, info: Info) -> Event | None:
        return Event.from_record(await loaders_of(info).event.load(parse_id(self.event_id, "id")))

    @strawberry.field(description="Scope events.read.")
    async def timeslot(self, info: Info) -> Timeslot | None:
        record = await loaders_of(info).timeslot.load(parse_id(self.event_timeslot_id, "id"))
        return Timeslot.from_record(record)

    @strawberry.field(description="Scope tickets.read.")
    async def tickets(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Ticket] | None:
        args = list_args(limit=limit, offset=offset, sort=sort)
        page = await loaders_of(info).order_tickets.load((parse_id(self.id, "id"), args))
        return page_of(page, Ticket.from_record)


@strawberry.type
class MetadataField:
    id: strawberry.ID
    key: str
    name: str
    value: str


@strawberry.type(description="`status` is valid, scanned or cancelled.")
class Ticket:
    id: strawberry.ID
    scannable_code: str
    event_timeslot_id: strawberry.ID
    ticket_type_id: strawberry.ID
    order_id: strawberry.ID
    owner_name: str
    owner_email: str
    seat: str | None
    sequence: int
    scanned_at: datetime | None
    status: str
    cancelled_at: datetime | None
    swappable: bool
    created_at: datetime
    metadata: JSON
    metadata_fields: list[MetadataField]

    @classmethod
    def from_record(cls, record: ticket_records.Ticket) -> Ticket:
        return cls(
            id=strawberry.ID(str(record.id)),
            scannable_code=record.scannable_code,
            event_timeslot_id=strawberry.ID(str(record.event_timeslot_id)),
            ticket_type_id=strawberry.ID(str(record.ticket_type_id)),
            order_id=strawberry.ID(str(record.order_id)),
            owner_name=record.owner_name,
            owner_email=record.owner_email,
            seat=record.seat,
            sequence=record.sequence,
            scanned_at=record.scanned_at,
            status=record.status,
            cancelled_at=record.cancelled_at,
            swappable=record.swappable,
            created_at=record.created_at,
            metadata=record.metadata,
            metadata_fields=[
                MetadataField(
                    id=strawberry.ID(str(field.id)),
                    key=field.key,
                    name=field.name,
                    value=field.value,
                )
                for field in record.metadata_fields
            ],
        )

    @strawberry.field(description="Scope orders.read.")
    async def order(self, info: Info) -> Order | None:
        return Order.from_record(await loaders_of(info).order.load(parse_id(self.order_id, "id")))

    @strawberry.field(description="Scope events.read.")
    async def timeslot(self, info: Info) -> Timeslot | None:
        record = await loaders_of(info).timeslot.load(parse_id(self.event_timeslot_id, "id"))
        return Timeslot.from_record(record)

    @strawberry.field(description="Scope events.read.")
    async def ticket_type(self, info: Info) -> TicketType | None:
        record = await loaders_of(info).ticket_type.load(parse_id(self.ticket_type_id, "id"))
        return TicketType.from_record(record)
