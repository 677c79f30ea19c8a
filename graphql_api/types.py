"""GraphQL object types: the records of ``app/schemas`` (see ``graphql_api.derive``) with their
relations.

Relations resolve through the request's dataloaders and are nullable, so that a relation the
credential may not read fails with its own FORBIDDEN error while the rest of the query answers.
Resolvers receive the record itself as ``self``. A relation to one record
(``graphql_api.scopes.relation``) asks the record loader directly, without Strawberry's resolver
wrapper; a page loads the relations of all its items at once (``graphql_api.core``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

from app.schemas import attendance as attendance_records
from app.schemas import events as event_records
from app.schemas import holds as hold_records
from app.schemas import identity as identity_records
from app.schemas import orders as order_records
from app.schemas import scan_keys as scan_key_records
from app.schemas import tickets as ticket_records
from app.services import attendance, availability
from app.services import scan_keys as signing
from app.services.events import EVENTS
from app.services.orders import ORDERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from app.timeutil import require_offset
from graphql_api.context import Info, loaders_of, principal_of
from graphql_api.derive import object_type, record_type
from graphql_api.lists import nested_list
from graphql_api.scopes import field, relation

if TYPE_CHECKING:  # the record; Strawberry reads it through its derived type
    TimeslotAvailability = hold_records.TimeslotAvailability
else:
    TimeslotAvailability = object_type(hold_records.TimeslotAvailability)


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


@record_type(
    scan_key_records.ScanKey,
    description="An Ed25519 key that signs the event's `signedCode`s (docs/signed-codes.md); "
    "refuse codes of a key whose `retiredAt` is set.",
)
class ScanKey:
    pass


@record_type(scan_key_records.Revocation)
class Revocation:
    pass


@record_type(scan_key_records.Revocations)
class Revocations:
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

    @field(
        signing.keys_by_event,
        "The keys that sign the tickets' `signedCode`, oldest first, retired ones included "
        "(none before the event's first ticket is signed).",
    )
    def scan_keys(self, info: Info) -> list[ScanKey] | None:
        return loaders_of(info).by_ids(signing.keys_by_event, "event").load(self.id)

    @field(
        signing.event_revocations,
        "Tickets cancelled or whose code was replaced, from `since` (all when null) up to "
        "`nextSince`; pass `nextSince` as the next `since` and none is missed or repeated.",
    )
    async def revocations(self, info: Info, since: datetime | None = None) -> Revocations | None:
        checked = None if since is None else require_offset(since, "since")
        return await signing.event_revocations(principal_of(info), self.id, checked)

    timeslots = nested_list(TIMESLOTS, "event_id")
    ticket_types = nested_list(TICKET_TYPES, "event_id")
    tickets = nested_list(TICKETS, "event_id", "The filters combine.")
    orders = nested_list(ORDERS, "event_id", "The filters combine.")


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
    event: Event | None = relation(EVENTS, "event_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")

    tickets = nested_list(TICKETS, "order_id", "The filters combine.")


@record_type(ticket_records.Ticket, description="`status` is valid, scanned or cancelled.")
class Ticket:
    order: Order | None = relation(ORDERS, "order_id")
    timeslot: Timeslot | None = relation(TIMESLOTS, "event_timeslot_id")
    ticket_type: TicketType | None = relation(TICKET_TYPES, "ticket_type_id")
