"""Root queries and mutations: each calls the service function its REST route calls.

Root fields are nullable so that one failing field (FORBIDDEN, NOT_FOUND) leaves the others'
answers in ``data``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from app.ids import parse_id
from app.schemas.events import EventCreate, EventUpdate, TicketTypeCreate, TimeslotCreate
from app.schemas.orders import OrderCreate, RefundCreate
from app.schemas.scanners import (
    ScannerCreate,
    ScannerProfileCreate,
    ScannerProfileUpdate,
    ScannerUpdate,
)
from app.schemas.scanning import CodeScan, TicketScan
from app.schemas.webhooks import WebhookCreate
from app.services import (
    events,
    orders,
    scanners,
    scanning,
    ticket_types,
    tickets,
    timeslots,
    webhooks,
)
from app.services.organizations import whoami
from graphql_api.context import Info, principal_of, settings_of
from graphql_api.inputs import (
    CreateEventInput,
    CreateScannerInput,
    CreateScannerProfileInput,
    CreateTicketTypeInput,
    CreateTimeslotInput,
    OrderIdInput,
    PlaceOrderInput,
    RefundOrderInput,
    TicketIdInput,
    UpdateEventInput,
    UpdateScannerInput,
    UpdateScannerProfileInput,
    to_struct,
)
from graphql_api.scanner_types import Scanner, ScannerProfile, ScanResult
from graphql_api.types import (
    Event,
    Limit,
    Offset,
    Order,
    Page,
    Sort,
    Ticket,
    TicketType,
    Timeslot,
    Viewer,
    page_of,
)
from graphql_api.webhook_types import CreatedWebhook, Delivery, Webhook, WebhookDeleted


@strawberry.type
class Query:
    @strawberry.field(description="The user behind the credential; needs no scope.")
    async def viewer(self, info: Info) -> Viewer | None:
        return Viewer.from_record(await whoami(principal_of(info)))

    @strawberry.field(description="Scope events.read. Sort fields: created_at, title, starts_at.")
    async def events(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Event] | None:
        principal = principal_of(info, "events.read")
        page = await events.list_events(principal, limit=limit, offset=offset, sort=sort)
        return page_of(page, Event.from_record)

    @strawberry.field(description="Scope events.read.")
    async def event(self, info: Info, id: strawberry.ID) -> Event | None:
        principal = principal_of(info, "events.read")
        return Event.from_record(await events.get_event(principal, parse_id(id, "id")))

    @strawberry.field(
        description="Scope events.read. The timeslots of an event; `from` keeps those starting at "
        "or after it, `until` those starting before it."
    )
    async def timeslots(
        self,
        info: Info,
        event_id: strawberry.ID,
        starts_from: Annotated[datetime | None, strawberry.argument(name="from")] = None,
        until: datetime | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Timeslot] | None:
        principal = principal_of(info, "events.read")
        page = await timeslots.list_timeslots(
            principal,
            parse_id(event_id, "event_id"),
            starts_from=starts_from,
            starts_until=until,
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Timeslot.from_record)

    @strawberry.field(description="Scope events.read.")
    async def ticket_types(
        self,
        info: Info,
        event_id: strawberry.ID,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[TicketType] | None:
        principal = principal_of(info, "events.read")
        page = await ticket_types.list_ticket_types(
            principal,
            parse_id(event_id, "event_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, TicketType.from_record)

    @strawberry.field(
        description="Scope tickets.read. The tickets of an event, optionally of one order. "
        "Sort fields: created_at, sequence, owner_name, owner_email, scanned_at, status."
    )
    async def tickets(
        self,
        info: Info,
        event_id: strawberry.ID,
        order_id: strawberry.ID | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Ticket] | None:
        principal = principal_of(info, "tickets.read")
        page = await tickets.list_event_tickets(
            principal,
            parse_id(event_id, "event_id"),
            order_id=None if order_id is None else parse_id(order_id, "order_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Ticket.from_record)

    @strawberry.field(
        description="Scope orders.read. Sort fields: created_at, payed_at, total_price, buyer_name."
    )
    async def orders(
        self,
        info: Info,
        event_id: strawberry.ID | None = None,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Order] | None:
        principal = principal_of(info, "orders.read")
        page = await orders.list_orders(
            principal,
            event_id=None if event_id is None else parse_id(event_id, "event_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Order.from_record)

    @strawberry.field(description="Scope orders.read.")
    async def order(self, info: Info, id: strawberry.ID) -> Order | None:
        principal = principal_of(info, "orders.read")
        return Order.from_record(await orders.get_order(principal, parse_id(id, "id")))

    @strawberry.field(description="Scope tickets.read.")
    async def ticket(self, info: Info, id: strawberry.ID) -> Ticket | None:
        principal = principal_of(info, "tickets.read")
        return Ticket.from_record(await tickets.get_ticket(principal, parse_id(id, "id")))

    @strawberry.field(description="Scope webhooks.read. The subscriptions, without their secrets.")
    async def webhooks(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Webhook] | None:
        principal = principal_of(info, "webhooks.read")
        page = await webhooks.list_webhooks(principal, limit=limit, offset=offset, sort=sort)
        return page_of(page, Webhook.from_record)

    @strawberry.field(description="Scope webhooks.read.")
    async def webhook(self, info: Info, id: strawberry.ID) -> Webhook | None:
        principal = principal_of(info, "webhooks.read")
        record = await webhooks.get_webhook(principal, parse_id(id, "id"))
        return Webhook.from_record(record)

    @strawberry.field(description="Scope webhooks.read. The delivery log of one subscription.")
    async def webhook_deliveries(
        self,
        info: Info,
        webhook_id: strawberry.ID,
        limit: Limit = None,
        offset: Offset = None,
        sort: Sort = None,
    ) -> Page[Delivery] | None:
        principal = principal_of(info, "webhooks.read")
        page = await webhooks.list_deliveries(
            principal,
            parse_id(webhook_id, "webhook_id"),
            limit=limit,
            offset=offset,
            sort=sort,
        )
        return page_of(page, Delivery.from_record)

    @strawberry.field(description="Scope scanners.read.")
    async def scanners(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[Scanner] | None:
        principal = principal_of(info, "scanners.read")
        page = await scanners.list_scanners(principal, limit=limit, offset=offset, sort=sort)
        return page_of(page, Scanner.from_record)

    @strawberry.field(description="Scope scanners.read.")
    async def scanner_profiles(
        self, info: Info, limit: Limit = None, offset: Offset = None, sort: Sort = None
    ) -> Page[ScannerProfile] | None:
        principal = principal_of(info, "scanners.read")
        page = await scanners.list_profiles(principal, limit=limit, offset=offset, sort=sort)
        return page_of(page, ScannerProfile.from_record)


@strawberry.type
class Mutation:
    @strawberry.mutation(
        description="Scope tickets.write. Name the ticket by exactly one of `ticketId` and "
        "`scannableCode` (what a door app reads). Without `scannerId` the organization's oldest "
        "active scanner is used (CONFLICT when there is none); a scanner of another organization "
        "is FORBIDDEN. Every outcome is a result whose `status` and `reason` tell the door what "
        "to do."
    )
    async def scan_ticket(
        self,
        info: Info,
        ticket_id: strawberry.ID | None = None,
        scannable_code: str | None = None,
        scanner_id: strawberry.ID | None = None,
    ) -> ScanResult | None:
        principal = principal_of(info, "tickets.write")
        if scannable_code is None:
            scanner = to_struct({"scanner_id": scanner_id}, TicketScan).scanner_id
        else:
            scan = to_struct({"scannable_code": scannable_code, "scanner_id": scanner_id}, CodeScan)
            scannable_code, scanner = scan.scannable_code, scan.scanner_id
        result = await scanning.scan_ticket(
            principal,
            ticket_id=None if ticket_id is None else parse_id(ticket_id, "ticket_id"),
            scannable_code=scannable_code,
            scanner_id=scanner,
        )
        return ScanResult.from_record(result)

    @strawberry.mutation(
        description="Scope webhooks.write. `url` must be absolute https and publicly reachable; "
        "`eventTypes` a non-empty subset of order.created, order.confirmed, ticket.scanned, "
        "ticket.cancelled; `description` at most 255 characters."
    )
    async def create_webhook(
        self, info: Info, url: str, event_types: list[str], description: str | None = None
    ) -> CreatedWebhook | None:
        principal = principal_of(info, "webhooks.write")
        body = {"url": url, "event_types": event_types}
        if description is not None:
            body["description"] = description
        data = to_struct(body, WebhookCreate)
        created = await webhooks.create_webhook(principal, data, settings_of(info))
        return CreatedWebhook.from_created(created)

    @strawberry.mutation(description="Scope webhooks.write. Pending deliveries are dropped.")
    async def delete_webhook(self, info: Info, id: strawberry.ID) -> WebhookDeleted | None:
        principal = principal_of(info, "webhooks.write")
        deleted = await webhooks.delete_webhook(principal, parse_id(id, "id"))
        return WebhookDeleted(id=strawberry.ID(str(deleted.id)), deleted=deleted.deleted)

    @strawberry.mutation(description="Scope scanners.write.")
    async def create_scanner(self, info: Info, input: CreateScannerInput) -> Scanner | None:
        principal = principal_of(info, "scanners.write")
        data = to_struct(input, ScannerCreate)
        return Scanner.from_record(await scanners.create_scanner(principal, data))

    @strawberry.mutation(description="Scope scanners.write. Only the fields sent are changed.")
    async def update_scanner(self, info: Info, input: UpdateScannerInput) -> Scanner | None:
        principal = principal_of(info, "scanners.write")
        scanner_id = parse_id(input.id, "id")
        data = to_struct(input, ScannerUpdate, exclude=("id",))
        updated = await scanners.update_scanner(principal, scanner_id, data)
        return Scanner.from_record(updated)

    @strawberry.mutation(description="Scope scanners.write.")
    async def create_scanner_profile(
        self, info: Info, input: CreateScannerProfileInput
    ) -> ScannerProfile | None:
        principal = principal_of(info, "scanners.write")
        data = to_struct(input, ScannerProfileCreate)
        created = await scanners.create_profile(principal, data)
        return ScannerProfile.from_record(created)

    @strawberry.mutation(description="Scope scanners.write. Only the fields sent are changed.")
    async def update_scanner_profile(
        self, info: Info, input: UpdateScannerProfileInput
    ) -> ScannerProfile | None:
        principal = principal_of(info, "scanners.write")
        profile_id = parse_id(input.id, "id")
        data = to_struct(input, ScannerProfileUpdate, exclude=("id",))
        updated = await scanners.update_profile(principal, profile_id, data)
        return ScannerProfile.from_record(updated)

    @strawberry.mutation(description="Scope events.write.")
    async def create_event(self, info: Info, input: CreateEventInput) -> Event | None:
        principal = principal_of(info, "events.write")
        data = to_struct(input, EventCreate)
        return Event.from_record(await events.create_event(principal, data))

    @strawberry.mutation(description="Scope events.write. Only the fields sent are changed.")
    async def update_event(self, info: Info, input: UpdateEventInput) -> Event | None:
        principal = principal_of(info, "events.write")
        event_id = parse_id(input.id, "id")
        data = to_struct(input, EventUpdate, exclude=("id",))
        return Event.from_record(await events.update_event(principal, event_id, data))

    @strawberry.mutation(description="Scope events.write.")
    async def create_ticket_type(
        self, info: Info, input: CreateTicketTypeInput
    ) -> TicketType | None:
        principal = principal_of(info, "events.write")
        event_id = parse_id(input.event_id, "event_id")
        data = to_struct(input, TicketTypeCreate, exclude=("event_id",))
        created = await ticket_types.create_ticket_type(principal, event_id, data)
        return TicketType.from_record(created)

    @strawberry.mutation(description="Scope events.write.")
    async def create_timeslot(self, info: Info, input: CreateTimeslotInput) -> Timeslot | None:
        principal = principal_of(info, "events.write")
        event_id = parse_id(input.event_id, "event_id")
        data = to_struct(input, TimeslotCreate, exclude=("event_id",))
        created = await timeslots.create_timeslot(principal, event_id, data)
        return Timeslot.from_record(created)

    @strawberry.mutation(
        description="Scope orders.write. A pending order with valid tickets; CONFLICT when the "
        "timeslot has fewer tickets left than asked for."
    )
    async def place_order(self, info: Info, input: PlaceOrderInput) -> Order | None:
        principal = principal_of(info, "orders.write")
        data = to_struct(input, OrderCreate)
        return Order.from_record(await orders.place_order(principal, data))

    @strawberry.mutation(description="Scope orders.write. Confirming again changes nothing.")
    async def confirm_order(self, info: Info, input: OrderIdInput) -> Order | None:
        principal = principal_of(info, "orders.write")
        order_id = parse_id(input.id, "id")
        return Order.from_record(await orders.confirm_order(principal, order_id))

    @strawberry.mutation(description="Scope orders.write. Cancels its tickets too; idempotent.")
    async def cancel_order(self, info: Info, input: OrderIdInput) -> Order | None:
        principal = principal_of(info, "orders.write")
        order_id = parse_id(input.id, "id")
        return Order.from_record(await orders.cancel_order(principal, order_id))

    @strawberry.mutation(
        description="Scope orders.write. CONFLICT when the refunds would exceed totalPrice."
    )
    async def refund_order(self, info: Info, input: RefundOrderInput) -> Order | None:
        principal = principal_of(info, "orders.write")
        order_id = parse_id(input.id, "id")
        data = to_struct(input, RefundCreate, exclude=("id",))
        return Order.from_record(await orders.refund_order(principal, order_id, data))

    @strawberry.mutation(description="Scope orders.write. Idempotent.")
    async def cancel_ticket(self, info: Info, input: TicketIdInput) -> Ticket | None:
        principal = principal_of(info, "orders.write")
        ticket_id = parse_id(input.id, "id")
        return Ticket.from_record(await tickets.cancel_ticket(principal, ticket_id))
