"""Tickets: the list of an event, one ticket, and cancellation."""

from __future__ import annotations

from litestar import get, post
from litestar.di import NamedDependency

from app.ids import parse_id
from app.principal import Principal
from app.schemas.tickets import Ticket
from app.services import tickets
from rest.docs import IdPath, operation
from rest.list_routes import list_route
from rest.service_routes import service_route

list_event_tickets = list_route(
    tickets.TICKETS,
    "/events/{event_id:str}/tickets",
    "list_event_tickets",
    "List the tickets of an event",
    within="event_id",
    text="The filters combine (all must match). For sync, poll with `updated_since`. With "
    "`Accept: text/csv`: every matching ticket as a CSV attachment (no `limit`, `offset` or "
    "`after`).",
    export="event-{id}-tickets.csv",
    tags=["tickets"],
)


@get(
    "/tickets/{ticket_id:str}",
    tags=["tickets"],
    **operation("Get a ticket", service=tickets.TICKETS, errors=(400, 403, 404)),
)
async def get_ticket(principal: NamedDependency[Principal], ticket_id: IdPath) -> Ticket:
    return await tickets.TICKETS.get(principal, parse_id(ticket_id, "ticket_id"))


cancel_ticket = service_route(
    post,
    "/tickets/{ticket_id:str}/cancel",
    "cancel_ticket",
    tickets.cancel_ticket,
    "Cancel a ticket",
    status_code=200,
    tags=["tickets"],
    errors=(400, 403, 404),
    text="Gives the place back to the timeslot; idempotent; emits `ticket.cancelled`.",
)


TICKET_ROUTES = [list_event_tickets, get_ticket, cancel_ticket]
