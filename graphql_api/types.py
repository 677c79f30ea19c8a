"""GraphQL object types: the records of ``app/schemas`` (see ``graphql_api.derive``) with their
relations.

Relations resolve through the request's dataloaders and are nullable, so that a relation the
credential may not read fails with its own FORBIDDEN error while the rest of the query answers.
Resolvers receive the record itself as ``self``. A relation to one record
(``graphql_api.scopes.relation``) asks the record loader directly, without Strawberry's resolver
wrapper; a page loads the relations of all its items at once (``graphql_api.core``).
"""

from __future__ import annotations

from app.schemas import events as event_records
from app.schemas import identity as identity_records
from app.schemas import orders as order_records
from app.schemas import tickets as ticket_records
from app.services.events import EVENTS
from app.services.orders import ORDERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from graphql_api.context import Info, loaders_of
from graphql_api.derive import record_type
from graphql_api.lists import Page, nested_list
from graphql_api.scopes import field, relation


@record_type(
    identity_records.CurrentUser,
    name="Viewer",
    description="The user behind the credential and their organization.",
)
class Viewer:
    pass


@record_type(event_records.Event)
class Event:
    timeslots: Page[Timeslot] | None = nested_list(TIMESLOTS, "event_id")
    ticket_types: Page[TicketType] | None = nested_list(TICKET_TYPES, "event_id")
    tickets: Page[Ticket] | None = nested_list(TICKETS, "event_id", "The filters combine.")
    orders: Page[Order] | None = nested_list(ORDERS, "event_id", "The filters combine.")


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
    @field(
        TICKET_TYPES,
        "The ticket types sold for this timeslot "
        "(an empty `ticketTypeIds` means every ticket type of the event).",
    )
    def ticket_types(self, info: Info) -> list[TicketType] | None:
        return loaders_of(info).records(TICKET_TYPES).load_many(self.ticket_type_ids)  # type: ignore[return-value]


@record_type(order_records.Order, description="`status` is pending, confirmed or cancelled.")
class Order:
    event: Event | None = relation(EVENTS, "event_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")

    tickets: Page[Ticket] | None = nested_list(TICKETS, "order_id", "The filters combine.")


@record_type(ticket_records.Ticket, description="`status` is valid, scanned or cancelled.")
class Ticket:
    order: Order | None = relation(ORDERS, "order_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")
    ticket_type: TicketType | None = relation(TICKET_TYPES, "ticket_type_id")
