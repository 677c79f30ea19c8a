"""Root queries and mutations: each calls the service function its REST route calls.

Root fields are nullable so that one failing field (FORBIDDEN, NOT_FOUND) leaves the others'
answers in ``data``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from app.ids import parse_id
from app.resources import Resource
from app.schemas.scanning import BatchScanResults, CodeScan, TicketScan
from app.schemas.webhook_events import SUBSCRIBABLE, WebhookTest, data_shape
from app.schemas.webhooks import WebhookCreate
from app.services import (
    events,
    holds,
    orders,
    scan_keys,
    scanners,
    scanning,
    ticket_types,
    tickets,
    timeslots,
    webhooks,
)
from app.services.events import EVENTS
from app.services.orders import ORDERS
from app.services.organizations import whoami
from app.services.scanners import PROFILES, SCANNERS
from app.services.ticket_types import TICKET_TYPES
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from app.services.webhooks import DELIVERIES, WEBHOOKS
from graphql_api.context import Context, Info, principal_of, settings_of
from graphql_api.inputs import (
    CreateEventInput,
    CreateHoldInput,
    CreateScannerInput,
    CreateScannerProfileInput,
    CreateTicketTypeInput,
    CreateTimeslotInput,
    OrderIdInput,
    PlaceOrderInput,
    RefundOrderInput,
    ScanTicketsInput,
    TicketIdInput,
    TicketTypeIdInput,
    TimeslotIdInput,
    UpdateEventInput,
    UpdateScannerInput,
    UpdateScannerProfileInput,
    UpdateTicketTypeInput,
    UpdateTimeslotInput,
    UpdateWebhookInput,
    body_of,
    to_struct,
)
from graphql_api.lists import root_list
from graphql_api.prefetch import RECORD_ROOT
from graphql_api.scanner_types import ScanBatch, Scanner, ScannerProfile, ScanResult
from graphql_api.scopes import direct_field, field, mutation
from graphql_api.types import (
    Deleted,
    Event,
    Hold,
    Order,
    ScanKey,
    Ticket,
    TicketType,
    Timeslot,
    Viewer,
)
from graphql_api.webhook_types import (
    CreatedWebhook,
    DeliveryQueued,
    RotatedWebhookSecret,
    Webhook,
    WebhookDeleted,
)


def _sort_fields(resource: Resource[Any]) -> str:
    return f"Sort fields: {', '.join(resource.sort_fields)}."


@strawberry.type
class Query:
    @field(whoami, "The user behind the credential.")
    async def viewer(self, info: Info) -> Viewer | None:
        return await whoami(principal_of(info))

    events = root_list(EVENTS, _sort_fields(EVENTS))

    @direct_field(EVENTS, metadata={RECORD_ROOT: EVENTS})
    def event(self, context: Context, id: strawberry.ID) -> Event | None:
        return context.loaders.record(EVENTS, parse_id(id, "id"))  # type: ignore[no-any-return]

    timeslots = root_list(TIMESLOTS, "The timeslots of an event.", within="event_id")
    ticket_types = root_list(TICKET_TYPES, within="event_id")
    tickets = root_list(
        TICKETS,
        f"The tickets of an event; the filters combine. {_sort_fields(TICKETS)}",
        within="event_id",
        after=True,
    )
    orders = root_list(ORDERS, f"The filters combine. {_sort_fields(ORDERS)}", after=True)

    @direct_field(ORDERS, metadata={RECORD_ROOT: ORDERS})
    def order(self, context: Context, id: strawberry.ID) -> Order | None:
        return context.loaders.record(ORDERS, parse_id(id, "id"))  # type: ignore[no-any-return]

    @direct_field(TICKETS, metadata={RECORD_ROOT: TICKETS})
    def ticket(self, context: Context, id: strawberry.ID) -> Ticket | None:
        return context.loaders.record(TICKETS, parse_id(id, "id"))  # type: ignore[no-any-return]

    @field(holds.get_hold, "An active hold past `expiresAt` reads expired.")
    async def hold(self, info: Info, id: strawberry.ID) -> Hold | None:
        return await holds.get_hold(principal_of(info), parse_id(id, "id"))

    webhooks = root_list(WEBHOOKS, "The subscriptions, without their secrets.")

    @field(WEBHOOKS)
    async def webhook(self, info: Info, id: strawberry.ID) -> Webhook | None:
        return await WEBHOOKS.get(principal_of(info), parse_id(id, "id"))

    webhook_deliveries = root_list(
        DELIVERIES, "The delivery log of one subscription.", within="webhook_id"
    )
    scanners = root_list(SCANNERS)
    scanner_profiles = root_list(PROFILES)


@strawberry.type
class Mutation:
    @mutation(
        scanning.scan_ticket,
        "Name the ticket by exactly one of `ticketId`, "
        "`scannableCode` (what a door app reads) and `signedCode` (its signature is checked "
        "first; a bad one is NOT_FOUND). Without `scannerId` the organization's oldest "
        "active scanner is used (CONFLICT when there is none); a scanner of another organization "
        "is FORBIDDEN. Every outcome is a result whose `status` and `reason` tell the door what "
        "to do. An offline device sends `scannedAt` (when it scanned; windows are decided then; "
        "at most 5 minutes in the future) and a `nonce` (1 to 64 characters, unique per "
        "organization): a repeated nonce answers the first result again and records nothing "
        "(used for another ticket: CONFLICT). `direction`: entry (default) or exit; `inside` "
        "in the result is the ticket's presence after the scan.",
    )
    async def scan_ticket(
        self,
        info: Info,
        ticket_id: strawberry.ID | None = None,
        scannable_code: str | None = None,
        signed_code: str | None = None,
        scanner_id: strawberry.ID | None = None,
        nonce: str | None = None,
        scanned_at: datetime | None = None,
        direction: str = "entry",
    ) -> ScanResult | None:
        fields = {
            "scanner_id": scanner_id,
            "nonce": nonce,
            "scanned_at": scanned_at,
            "direction": direction,
        }
        scan: TicketScan | CodeScan
        if scannable_code is None and signed_code is None:
            scan = to_struct(fields, TicketScan)
        else:
            codes = {"scannable_code": scannable_code, "signed_code": signed_code}
            scan = to_struct({**fields, **codes}, CodeScan)
            scannable_code, signed_code = scan.scannable_code, scan.signed_code
        return await scanning.scan_ticket(
            principal_of(info),
            ticket_id=None if ticket_id is None else parse_id(ticket_id, "ticket_id"),
            scannable_code=scannable_code,
            signed_code=signed_code,
            scanner_id=scan.scanner_id,
            nonce=scan.nonce,
            scanned_at=scan.scanned_at,
            direction=scan.direction,
        )

    @mutation(
        scanning.scan_tickets,
        "A door device's recorded scans (1 to 500), run in order of `scannedAt` (ties: the "
        "input's order) in one transaction; `results` in the input's order. An invalid item is "
        "BAD_USER_INPUT naming it (`scans[3].scanned_at`) and nothing runs; an unknown ticket is "
        "that item's `status: not_found`.",
    )
    async def scan_tickets(self, info: Info, input: ScanTicketsInput) -> ScanBatch | None:
        data = body_of(input)
        results = await scanning.scan_tickets(principal_of(info), data)
        return BatchScanResults(results=results)

    @mutation(
        webhooks.create_webhook,
        "`url` must be absolute https and publicly reachable; "
        f"`eventTypes` a non-empty subset of {', '.join(SUBSCRIBABLE)}; "
        "`description` at most 255 characters.",
    )
    async def create_webhook(
        self, info: Info, url: str, event_types: list[str], description: str | None = None
    ) -> CreatedWebhook | None:
        body = {"url": url, "event_types": event_types}
        if description is not None:
            body["description"] = description
        data = to_struct(body, WebhookCreate)
        return await webhooks.create_webhook(principal_of(info), data, settings_of(info))

    @mutation(
        webhooks.update_webhook,
        "Only the fields sent are changed; a new `url` is checked as at creation.",
    )
    async def update_webhook(self, info: Info, input: UpdateWebhookInput) -> Webhook | None:
        webhook_id = parse_id(input.id, "id")
        data = body_of(input)
        settings = settings_of(info)
        return await webhooks.update_webhook(principal_of(info), webhook_id, data, settings)

    @mutation(
        webhooks.send_test_delivery,
        f"Sends a `{WebhookTest.kind}` event `{{id, event_type, timestamp, data: "
        f"{data_shape(WebhookTest)}}}` to this "
        "subscription only, signed like every delivery; CONFLICT when it is disabled.",
    )
    async def test_webhook(self, info: Info, id: strawberry.ID) -> DeliveryQueued | None:
        return await webhooks.send_test_delivery(principal_of(info), parse_id(id, "id"))

    @mutation(
        webhooks.retry_delivery,
        "A new attempt of the delivery at once, whatever its status, with the same "
        "`webhook-id`; CONFLICT when the subscription is disabled or an attempt is in flight.",
    )
    async def retry_webhook_delivery(
        self, info: Info, webhook_id: strawberry.ID, delivery_id: strawberry.ID
    ) -> DeliveryQueued | None:
        return await webhooks.retry_delivery(
            principal_of(info),
            parse_id(webhook_id, "webhook_id"),
            parse_id(delivery_id, "delivery_id"),
        )

    @mutation(
        webhooks.rotate_secret,
        "The new `secret` is shown only here; for 24 hours deliveries carry two signatures, "
        "the new secret's first.",
    )
    async def rotate_webhook_secret(
        self, info: Info, id: strawberry.ID
    ) -> RotatedWebhookSecret | None:
        return await webhooks.rotate_secret(principal_of(info), parse_id(id, "id"))

    @mutation(webhooks.delete_webhook, "Pending deliveries are dropped.")
    async def delete_webhook(self, info: Info, id: strawberry.ID) -> WebhookDeleted | None:
        return await webhooks.delete_webhook(principal_of(info), parse_id(id, "id"))

    @mutation(scanners.create_scanner)
    async def create_scanner(self, info: Info, input: CreateScannerInput) -> Scanner | None:
        data = body_of(input)
        return await scanners.create_scanner(principal_of(info), data)

    @mutation(scanners.update_scanner, "Only the fields sent are changed.")
    async def update_scanner(self, info: Info, input: UpdateScannerInput) -> Scanner | None:
        scanner_id = parse_id(input.id, "id")
        data = body_of(input)
        return await scanners.update_scanner(principal_of(info), scanner_id, data)

    @mutation(scanners.create_profile)
    async def create_scanner_profile(
        self, info: Info, input: CreateScannerProfileInput
    ) -> ScannerProfile | None:
        data = body_of(input)
        return await scanners.create_profile(principal_of(info), data)

    @mutation(scanners.update_profile, "Only the fields sent are changed.")
    async def update_scanner_profile(
        self, info: Info, input: UpdateScannerProfileInput
    ) -> ScannerProfile | None:
        profile_id = parse_id(input.id, "id")
        data = body_of(input)
        return await scanners.update_profile(principal_of(info), profile_id, data)

    @mutation(events.create_event)
    async def create_event(self, info: Info, input: CreateEventInput) -> Event | None:
        data = body_of(input)
        return await events.create_event(principal_of(info), data)

    @mutation(events.update_event, "Only the fields sent are changed.")
    async def update_event(self, info: Info, input: UpdateEventInput) -> Event | None:
        event_id = parse_id(input.id, "id")
        data = body_of(input)
        return await events.update_event(principal_of(info), event_id, data)

    @mutation(ticket_types.create_ticket_type)
    async def create_ticket_type(
        self, info: Info, input: CreateTicketTypeInput
    ) -> TicketType | None:
        event_id = parse_id(input.event_id, "event_id")
        data = body_of(input)
        return await ticket_types.create_ticket_type(principal_of(info), event_id, data)

    @mutation(timeslots.create_timeslot)
    async def create_timeslot(self, info: Info, input: CreateTimeslotInput) -> Timeslot | None:
        event_id = parse_id(input.event_id, "event_id")
        data = body_of(input)
        return await timeslots.create_timeslot(principal_of(info), event_id, data)

    @mutation(
        ticket_types.update_ticket_type,
        "Only the fields sent are changed. A new `price` applies to later orders; a new "
        "`swappable` also to the ticket type's tickets that are not cancelled.",
    )
    async def update_ticket_type(
        self, info: Info, input: UpdateTicketTypeInput
    ) -> TicketType | None:
        ticket_type_id = parse_id(input.id, "id")
        data = body_of(input)
        return await ticket_types.update_ticket_type(principal_of(info), ticket_type_id, data)

    @mutation(
        ticket_types.delete_ticket_type,
        "CONFLICT when tickets of it were ordered (cancelled ones too), when a scanner profile "
        "names it, or when it is the only ticket type a timeslot sells; the message says which.",
    )
    async def delete_ticket_type(self, info: Info, input: TicketTypeIdInput) -> Deleted | None:
        return await ticket_types.delete_ticket_type(principal_of(info), parse_id(input.id, "id"))

    @mutation(
        timeslots.update_timeslot,
        "Only the fields sent are changed; CONFLICT when `totalAvailable` would go below the "
        "tickets sold.",
    )
    async def update_timeslot(self, info: Info, input: UpdateTimeslotInput) -> Timeslot | None:
        timeslot_id = parse_id(input.id, "id")
        data = body_of(input)
        return await timeslots.update_timeslot(principal_of(info), timeslot_id, data)

    @mutation(
        timeslots.delete_timeslot,
        "CONFLICT when orders were placed for it (cancelled ones too), when places of it are "
        "held, or when a scanner profile names it; the message says which.",
    )
    async def delete_timeslot(self, info: Info, input: TimeslotIdInput) -> Deleted | None:
        return await timeslots.delete_timeslot(principal_of(info), parse_id(input.id, "id"))

    @mutation(
        orders.place_order,
        "A pending order with valid tickets, outright or from a hold (`holdId`: its places, the "
        "hold converted); CONFLICT when the timeslot has fewer places left than asked for, or "
        "when the hold is converted, released or expired.",
    )
    async def place_order(self, info: Info, input: PlaceOrderInput) -> Order | None:
        data = body_of(input)
        return await orders.place_order(principal_of(info), data)

    @mutation(
        holds.create_hold,
        "Keeps places of a timeslot until `expiresAt`; CONFLICT (sold out) when fewer are left.",
    )
    async def create_hold(self, info: Info, input: CreateHoldInput) -> Hold | None:
        data = body_of(input)
        return await holds.create_hold(principal_of(info), data)

    @mutation(
        holds.release_hold,
        "Gives the places back; releasing again answers the same; CONFLICT for a hold that "
        "became an order.",
    )
    async def release_hold(self, info: Info, id: strawberry.ID) -> Hold | None:
        return await holds.release_hold(principal_of(info), parse_id(id, "id"))

    @mutation(
        scan_keys.rotate_key,
        "Adds a key to the event that signs the codes of tickets written from then on; "
        "earlier codes stay good until their key is retired; an event with no key yet gets this "
        "one as its first.",
    )
    async def rotate_scan_key(self, info: Info, event_id: strawberry.ID) -> ScanKey | None:
        return await scan_keys.rotate_key(principal_of(info), parse_id(event_id, "event_id"))

    @mutation(
        scan_keys.retire_key,
        "Its tickets get new codes signed with the current key (each a `code_replaced` "
        "revocation); CONFLICT for the current key (rotate first); retiring again changes "
        "nothing.",
    )
    async def retire_scan_key(
        self, info: Info, event_id: strawberry.ID, kid: str
    ) -> ScanKey | None:
        return await scan_keys.retire_key(principal_of(info), parse_id(event_id, "event_id"), kid)

    @mutation(orders.confirm_order, "Confirming again changes nothing.")
    async def confirm_order(self, info: Info, input: OrderIdInput) -> Order | None:
        return await orders.confirm_order(principal_of(info), parse_id(input.id, "id"))

    @mutation(orders.cancel_order, "Cancels its tickets too; idempotent.")
    async def cancel_order(self, info: Info, input: OrderIdInput) -> Order | None:
        return await orders.cancel_order(principal_of(info), parse_id(input.id, "id"))

    @mutation(orders.refund_order, "CONFLICT when the refunds would exceed totalPrice.")
    async def refund_order(self, info: Info, input: RefundOrderInput) -> Order | None:
        order_id = parse_id(input.id, "id")
        data = body_of(input)
        return await orders.refund_order(principal_of(info), order_id, data)

    @mutation(tickets.cancel_ticket, "Idempotent.")
    async def cancel_ticket(self, info: Info, input: TicketIdInput) -> Ticket | None:
        return await tickets.cancel_ticket(principal_of(info), parse_id(input.id, "id"))
