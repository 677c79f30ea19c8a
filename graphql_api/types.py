"""GraphQL object types: the records of ``app/schemas`` (see ``graphql_api.derive``) with their
relations.

Relations resolve through the request's dataloaders and are nullable, so that a relation the
credential may not read fails with its own FORBIDDEN error while the rest of the query answers.
Resolvers receive the record itself as ``self``. A relation to one record
(``graphql_api.scopes.relation``) asks the record loader directly, without Strawberry's resolver
wrapper; a page loads the relations of all its items at once (``graphql_api.core``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar
from uuid import UUID

import strawberry

from app import pagination
from app.schemas import attendance as attendance_records
from app.schemas import events as event_records
from app.schemas import holds as hold_records
from app.schemas import identity as identity_records
from app.schemas import orders as order_records
from app.schemas import tickets as ticket_records
from app.services import attendance, availability
from app.services.events import EVENTS
from app.services.orders import ORDERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from graphql_api.context import Context, Info, loaders_of
from graphql_api.dataloaders import list_args
from graphql_api.derive import object_type, record_type
from graphql_api.lists import filtered
from graphql_api.scopes import Joined, direct_field, field, relation

T = TypeVar("T")

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

After = Annotated[
    str | None,
    strawberry.argument(
        description="The pagination.nextAfter of the page before, with the same sort: this page "
        "starts after that page's last row (fast at any depth; not with offset)"
    ),
]

if TYPE_CHECKING:  # the records; Strawberry reads them through their derived types
    Pagination = pagination.Pagination
    TimeslotAvailability = hold_records.TimeslotAvailability
else:
    Pagination = object_type(pagination.Pagination)
    TimeslotAvailability = object_type(hold_records.TimeslotAvailability)


@strawberry.type
class Page(Generic[T]):
    """A page of a list: an ``app.pagination.Page`` record; GraphQL calls its ``data`` ``items``."""

    data: list[T] = strawberry.field(name="items")
    pagination: Pagination


@record_type(
    identity_records.CurrentUser,
    name="Viewer",
    description="The user behind the credential and their organization.",
)
class Viewer:
    pass


@record_type(attendance_records.TimeslotAttendance)
class TimeslotAttendance:
    pass


@record_type(
    attendance_records.Attendance,
    description="`admitted`: tickets ever admitted; `inside`: tickets present now; `entries` / "
    "`exits`: valid scans of each direction. Exact, read from counters.",
)
class Attendance:
    pass


@record_type(event_records.Event)
class Event:
    if TYPE_CHECKING:  # the record's fields that the resolvers read (derived at run time)
        id: UUID

    @field(attendance.attendance_by_event, "Who came and who is inside now.")
    def attendance(self, info: Info) -> Attendance | None:
        return loaders_of(info).by_ids(attendance.attendance_by_event, "event").load(self.id)

    @field(
        availability.availability_by_event,
        "Each timeslot's capacity, sold, held (active holds not expired) and available places, "
        "by start; exact when read.",
    )
    def availability(self, info: Info) -> list[TimeslotAvailability] | None:
        return loaders_of(info).by_ids(availability.availability_by_event, "event").load(self.id)

    @direct_field(TIMESLOTS)
    @filtered(TIMESLOTS, parent="event_id")
    def timeslots(
        self,
        context: Context,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
        joined: Joined = (),
        **filters: Any,
    ) -> Page[Timeslot] | None:
        args = list_args(limit=limit, offset=offset, sort=sort, joined=joined, **filters)
        return context.loaders.pages(TIMESLOTS, "event_id").load((self.id, args))

    @direct_field(TICKET_TYPES)
    def ticket_types(
        self,
        context: Context,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
        joined: Joined = (),
    ) -> Page[TicketType] | None:
        args = list_args(limit=limit, offset=offset, sort=sort, joined=joined)
        return context.loaders.pages(TICKET_TYPES, "event_id").load((self.id, args))

    @direct_field(TICKETS, "The filters combine.")
    @filtered(TICKETS, parent="event_id")
    def tickets(
        self,
        context: Context,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
        joined: Joined = (),
        **filters: Any,
    ) -> Page[Ticket] | None:
        args = list_args(limit=limit, offset=offset, sort=sort, joined=joined, **filters)
        return context.loaders.pages(TICKETS, "event_id").load((self.id, args))

    @direct_field(ORDERS, "The filters combine.")
    @filtered(ORDERS, parent="event_id")
    def orders(
        self,
        context: Context,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
        joined: Joined = (),
        **filters: Any,
    ) -> Page[Order] | None:
        args = list_args(limit=limit, offset=offset, sort=sort, joined=joined, **filters)
        return context.loaders.pages(ORDERS, "event_id").load((self.id, args))


@record_type(
    hold_records.Hold,
    description="Places of a timeslot kept until `expiresAt`; `status` is active, converted, "
    "released or expired.",
)
class Hold:
    pass


@record_type(event_records.Deleted, description="The row `id` is gone.")
class Deleted:
    pass


@record_type(event_records.TicketType)
class TicketType:
    event: Event | None = relation(EVENTS, "event_id")


@record_type(
    event_records.Timeslot, description="`totalAvailable` is the capacity, not what remains."
)
class Timeslot:
    if TYPE_CHECKING:  # the record's fields that the resolvers read (derived at run time)
        id: UUID
        ticket_type_ids: list[UUID]

    @field(
        TICKET_TYPES,
        "The ticket types sold for this timeslot "
        "(an empty `ticketTypeIds` means every ticket type of the event).",
    )
    def ticket_types(self, info: Info) -> list[TicketType] | None:
        return loaders_of(info).records(TICKET_TYPES).load_many(self.ticket_type_ids)

    @field(
        availability.timeslot_figures,
        "The places left: `totalAvailable` less the tickets sold and the places held by "
        "active holds that have not expired; exact when read.",
    )
    async def available(self, info: Info) -> int | None:
        loader = loaders_of(info).by_ids(availability.timeslot_figures, "timeslot")
        figures: TimeslotAvailability = await loader.load(self.id)
        return figures.available


@record_type(order_records.Order, description="`status` is pending, confirmed or cancelled.")
class Order:
    if TYPE_CHECKING:  # the record's fields that the resolvers read (derived at run time)
        id: UUID
    event: Event | None = relation(EVENTS, "event_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")

    @direct_field(TICKETS, "The filters combine.")
    @filtered(TICKETS, parent="order_id")
    def tickets(
        self,
        context: Context,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
        joined: Joined = (),
        **filters: Any,
    ) -> Page[Ticket] | None:
        args = list_args(limit=limit, offset=offset, sort=sort, joined=joined, **filters)
        return context.loaders.pages(TICKETS, "order_id").load((self.id, args))


@record_type(ticket_records.Ticket, description="`status` is valid, scanned or cancelled.")
class Ticket:
    order: Order | None = relation(ORDERS, "order_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")
    ticket_type: TicketType | None = relation(TICKET_TYPES, "ticket_type_id")
