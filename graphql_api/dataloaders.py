"""One DataLoader per relation, made per request, so nested fields never cost a query per item.

Record loaders turn the ids asked for during one tick of the event loop into one batch call of a
service (``load_events`` ...). Page loaders do the same for nested lists: keys that share their
list arguments become one ``*_of_events`` / ``*_of_orders`` call, which costs a fixed number of
statements however many parents there are. Both keep the service's scope checks: a missing scope
fails each field that asked, not the whole query.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar
from uuid import UUID

from strawberry.dataloader import DataLoader

from app.errors import DomainError, NotFound
from app.pagination import Page
from app.principal import Principal
from app.schemas.events import Event, TicketType, Timeslot
from app.schemas.orders import Order
from app.schemas.scanners import ScannerProfile
from app.schemas.tickets import Ticket
from app.services import events, orders, scanners, ticket_types, tickets, timeslots

R = TypeVar("R")

ListArgs = tuple[tuple[str, Hashable], ...]
"""The keyword arguments of a nested list (limit, offset, sort, filters) in a hashable form."""

PageKey = tuple[UUID, ListArgs]


def list_args(**kwargs: Hashable) -> ListArgs:
    return tuple(sorted(kwargs.items()))


def record_loader(
    fetch: Callable[[list[UUID]], Awaitable[dict[UUID, R]]], kind: str
) -> DataLoader[UUID, R]:
    async def load(ids: list[UUID]) -> list[R | BaseException]:
        try:
            found = await fetch(ids)
        except DomainError as error:
            return [error] * len(ids)
        return [found[i] if i in found else NotFound.resource(kind, i) for i in ids]

    return DataLoader(load_fn=load)


def page_loader(
    fetch: Callable[..., Awaitable[dict[UUID, Page[R]]]],
) -> DataLoader[PageKey, Page[R]]:
    async def load(keys: list[PageKey]) -> list[Page[R] | BaseException]:
        parents: dict[ListArgs, list[UUID]] = {}
        for parent_id, args in keys:
            parents.setdefault(args, []).append(parent_id)
        results: dict[PageKey, Page[R] | BaseException] = {}
        for args, ids in parents.items():
            try:
                pages: dict[UUID, Page[R] | BaseException] = dict(await fetch(ids, **dict(args)))
            except DomainError as error:
                pages = dict.fromkeys(ids, error)
            results.update(((parent_id, args), pages[parent_id]) for parent_id in ids)
        return [results[key] for key in keys]

    return DataLoader(load_fn=load)


class Loaders:
    """The loaders of one request, bound to its principal."""

    def __init__(self, principal: Principal) -> None:
        def bound(function: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            return lambda ids, **kwargs: function(principal, ids, **kwargs)

        self.event: DataLoader[UUID, Event] = record_loader(bound(events.load_events), "event")
        self.timeslot: DataLoader[UUID, Timeslot] = record_loader(
            bound(timeslots.load_timeslots), "timeslot"
        )
        self.ticket_type: DataLoader[UUID, TicketType] = record_loader(
            bound(ticket_types.load_ticket_types), "ticket type"
        )
        self.order: DataLoader[UUID, Order] = record_loader(bound(orders.load_orders), "order")
        self.scanner_profile: DataLoader[UUID, ScannerProfile] = record_loader(
            bound(scanners.load_profiles), "scanner profile"
        )
        self.event_timeslots: DataLoader[PageKey, Page[Timeslot]] = page_loader(
            bound(timeslots.timeslots_of_events)
        )
        self.event_ticket_types: DataLoader[PageKey, Page[TicketType]] = page_loader(
            bound(ticket_types.ticket_types_of_events)
        )
        self.event_tickets: DataLoader[PageKey, Page[Ticket]] = page_loader(
            bound(tickets.tickets_of_events)
        )
        self.event_orders: DataLoader[PageKey, Page[Order]] = page_loader(
            bound(orders.orders_of_events)
        )
        self.order_tickets: DataLoader[PageKey, Page[Ticket]] = page_loader(
            bound(tickets.tickets_of_orders)
        )
