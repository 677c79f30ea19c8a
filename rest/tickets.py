"""Tickets: the list of an event, one ticket, and cancellation."""

from __future__ import annotations

from typing import Any

from litestar import Request, get, post
from litestar.di import NamedDependency

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.tickets import Ticket
from app.services import tickets
from rest.csv_export import csv_stream, negotiate
from rest.docs import IdPath, operation
from rest.lists import ListQuery


@get(
    "/events/{event_id:str}/tickets",
    tags=["tickets"],
    **operation(
        "List the tickets of an event",
        service=tickets.TICKETS,
        errors=(400, 403, 404),
        text="The filters combine (all must match). For sync, poll with `updated_since`. "
        "With `Accept: text/csv`: every matching ticket as a CSV attachment (no `limit`, "
        "`offset` or `after`).",
        export=True,
    ),
)
async def list_event_tickets(
    request: Request[Any, Any, Any],
    principal: NamedDependency[Principal],
    event_id: IdPath,
    listing: NamedDependency[ListQuery],
) -> Page[Ticket]:
    within = ("event_id", parse_id(event_id, "event_id"))
    # The JSON page is the documented return type; a CSV export returns its own response.
    if negotiate(request) == "csv":
        chunks = await tickets.TICKETS.export(principal, within=within, **listing.export_kwargs())
        return csv_stream(Ticket, chunks, f"event-{within[1]}-tickets.csv")  # type: ignore[return-value]
    return await tickets.TICKETS.page(principal, within=within, **listing.as_kwargs())


@get(
    "/tickets/{ticket_id:str}",
    tags=["tickets"],
    **operation("Get a ticket", service=tickets.TICKETS, errors=(400, 403, 404)),
)
async def get_ticket(principal: NamedDependency[Principal], ticket_id: IdPath) -> Ticket:
    return await tickets.TICKETS.get(principal, parse_id(ticket_id, "ticket_id"))


@post(
    "/tickets/{ticket_id:str}/cancel",
    status_code=200,
    tags=["tickets"],
    **operation(
        "Cancel a ticket",
        service=tickets.cancel_ticket,
        errors=(400, 403, 404),
        text="Gives the place back to the timeslot; idempotent; emits `ticket.cancelled`.",
    ),
)
async def cancel_ticket(principal: NamedDependency[Principal], ticket_id: IdPath) -> Ticket:
    return await tickets.cancel_ticket(principal, parse_id(ticket_id, "ticket_id"))


TICKET_ROUTES = [list_event_tickets, get_ticket, cancel_ticket]
