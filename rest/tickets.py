"""Tickets: the list of an event, one ticket, and cancellation."""

from __future__ import annotations

from typing import Annotated

from litestar import get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from app.ids import parse_id
from app.pagination import Page
from app.principal import Principal
from app.schemas.tickets import Ticket
from app.services import tickets
from rest.auth import SCOPE_OPT
from rest.docs import problems, scoped
from rest.lists import LIST_DEPENDENCIES, ListQuery


@get(
    "/events/{event_id:str}/tickets",
    tags=["tickets"],
    summary="List the tickets of an event",
    opt={SCOPE_OPT: "tickets.read"},
    description=scoped("tickets.read", "`order_id` restricts the list to one order's tickets."),
    responses=problems(400, 403, 404),
    dependencies=LIST_DEPENDENCIES,
)
async def list_event_tickets(
    principal: NamedDependency[Principal],
    event_id: FromPath[str],
    listing: NamedDependency[ListQuery],
    order_id: Annotated[
        str | None, QueryParameter(description="Only tickets of this order")
    ] = None,
) -> Page[Ticket]:
    return await tickets.list_event_tickets(
        principal,
        parse_id(event_id, "event_id"),
        order_id=None if order_id is None else parse_id(order_id, "order_id"),
        **listing.as_kwargs(),
    )


@get(
    "/tickets/{ticket_id:str}",
    tags=["tickets"],
    summary="Get a ticket",
    opt={SCOPE_OPT: "tickets.read"},
    description=scoped("tickets.read"),
    responses=problems(400, 403, 404),
)
async def get_ticket(principal: NamedDependency[Principal], ticket_id: FromPath[str]) -> Ticket:
    return await tickets.get_ticket(principal, parse_id(ticket_id, "ticket_id"))


@post(
    "/tickets/{ticket_id:str}/cancel",
    status_code=200,
    tags=["tickets"],
    summary="Cancel a ticket",
    opt={SCOPE_OPT: "orders.write"},
    description=scoped(
        "orders.write",
        "Gives the place back to the timeslot; idempotent; emits `ticket.cancelled`.",
    ),
    responses=problems(400, 403, 404),
)
async def cancel_ticket(principal: NamedDependency[Principal], ticket_id: FromPath[str]) -> Ticket:
    return await tickets.cancel_ticket(principal, parse_id(ticket_id, "ticket_id"))


TICKET_ROUTES = [list_event_tickets, get_ticket, cancel_ticket]
