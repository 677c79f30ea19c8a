"""Events: the list, one event (timeslots: sold, held and available against capacity; its orders;
the ticket search) and
one order with its tickets, which an admin can confirm or cancel."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Response, get, post
from litestar.response import Template

from app.errors import InvalidInput, NotFound
from app.services import availability, orders, overview, ticket_search
from app.services.events import EVENTS
from app.services.orders import ORDERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from dashboard.forms import message, offset_of, pager, redirect
from dashboard.layout import PageRequest, PathId, page
from dashboard.security import principal_of

PATH = "/dashboard/events"
ORDER_MESSAGES = {
    "confirmed": "The order is confirmed: its tickets admit at the door.",
    "cancelled": "The order is cancelled: its tickets no longer admit, their places are free.",
}
SEARCH_LIMIT = 50


@get(PATH)
async def events_page(request: PageRequest) -> Template:
    principal = principal_of(request)
    found = await EVENTS.page(principal, sort="starts_at:desc", offset=offset_of(request))
    return page(
        request,
        "events.html",
        "Events",
        events=found.data,
        pages=pager(PATH, found.pagination, len(found.data)),
    )


@get(f"{PATH}/{{event_id:uuid}}")
async def event_page(request: PageRequest, event_id: PathId) -> Template:
    principal = principal_of(request)
    event = await overview.event_overview(principal, event_id)
    timeslots = await overview.timeslot_sales(principal, event_id)
    figures = await availability.event_availability(principal, event_id)
    query = request.query_params.get("q", "").strip()
    results, search_error = None, ""
    if query:
        try:
            results = await ticket_search.search_tickets(
                principal, event_id, query, limit=SEARCH_LIMIT
            )
        except InvalidInput as error:
            search_error = error.detail.partition(": ")[2] or error.detail
    path = f"{PATH}/{event_id}"
    placed = await ORDERS.page(
        principal, event_id=event_id, sort="created_at:desc", offset=offset_of(request)
    )
    return page(
        request,
        "event.html",
        event.title,
        event=event,
        timeslots=timeslots.data,
        figures={row.timeslot_id: row for row in figures.data},
        timeslot_titles={slot.id: slot.title for slot in timeslots.data},
        query=query,
        results=None if results is None else results.data,
        results_total=0 if results is None else results.pagination.total,
        search_error=search_error,
        orders=placed.data,
        pages=pager(path, placed.pagination, len(placed.data)),
        path=path,
    )


@get(f"{PATH}/{{event_id:uuid}}/orders/{{order_id:uuid}}")
async def order_page(request: PageRequest, event_id: PathId, order_id: PathId) -> Template:
    principal = principal_of(request)
    order = await ORDERS.get(principal, order_id)
    if order.event_id != event_id:
        raise NotFound.resource("order", order_id)
    event = await EVENTS.get(principal, event_id)
    tickets = await TICKETS.page(
        principal, within=("order_id", order_id), sort="sequence:asc", limit=100
    )
    types = await TICKET_TYPES.load(principal, [t.ticket_type_id for t in tickets.data])
    timeslot = (await TIMESLOTS.load(principal, [order.event_timeslot_id])).get(
        order.event_timeslot_id
    )
    return page(
        request,
        "order.html",
        f"Order of {order.buyer_name}",
        event=event,
        order=order,
        timeslot=timeslot,
        tickets=tickets.data,
        ticket_total=tickets.pagination.total,
        type_names={type_id: found.name for type_id, found in types.items()},
        message=message(request, ORDER_MESSAGES),
    )


async def _order_of_event(request: PageRequest, event_id: UUID, order_id: UUID) -> None:
    """A 404 unless the order is one of the event's (and the caller's)."""
    order = await ORDERS.get(principal_of(request), order_id)
    if order.event_id != event_id:
        raise NotFound.resource("order", order_id)


@post(f"{PATH}/{{event_id:uuid}}/orders/{{order_id:uuid}}/confirm", status_code=303)
async def confirm_order(request: PageRequest, event_id: PathId, order_id: PathId) -> Response[Any]:
    await _order_of_event(request, event_id, order_id)
    await orders.confirm_order(principal_of(request), order_id)
    return redirect(f"{PATH}/{event_id}/orders/{order_id}", "confirmed")


@post(f"{PATH}/{{event_id:uuid}}/orders/{{order_id:uuid}}/cancel", status_code=303)
async def cancel_order(request: PageRequest, event_id: PathId, order_id: PathId) -> Response[Any]:
    await _order_of_event(request, event_id, order_id)
    await orders.cancel_order(principal_of(request), order_id)
    return redirect(f"{PATH}/{event_id}/orders/{order_id}", "cancelled")


ROUTES = [events_page, event_page, order_page, confirm_order, cancel_order]
