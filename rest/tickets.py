"""Tickets: the list of an event, one ticket, and cancellation."""

from __future__ import annotations

from litestar import post

from app.services import tickets
from rest.list_routes import list_route
from rest.service_routes import record_route, service_route

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


get_ticket = record_route(
    tickets.TICKETS, "/tickets/{ticket_id:str}", "get_ticket", "Get a ticket", tags=["tickets"]
)


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
