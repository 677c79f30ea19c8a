"""Events, their ticket types and their timeslots."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get, patch, post
from litestar.params import PathParameter, QueryParameter

from app.ids import parse_id
from app.schemas.scan_keys import Revocations, ScanKey
from app.services import attendance, availability, events, scan_keys, ticket_types, timeslots
from app.timeutil import parse_timestamp
from rest.auth import Caller
from rest.docs import IdPath, operation
from rest.list_routes import list_route
from rest.service_routes import record_route, service_route

KidPath = Annotated[
    str, PathParameter(description="The key's `kid` (base64url of 8 bytes, 11 characters)")
]
Since = Annotated[
    str | None,
    QueryParameter(
        description="RFC 3339: only revocations at or after it (the previous answer's "
        "`next_since`); all of them when left out",
        schema_extra={"format": "date-time"},
    ),
]


class EventController(Controller):
    path = "/events"
    tags = ["events"]

    list_events = list_route(events.EVENTS, "/", "list_events", "List events")

    create_event = service_route(post, "/", "create_event", events.create_event, "Create an event")

    get_event = record_route(events.EVENTS, "/{event_id:str}", "get_event", "Get an event")

    get_attendance = service_route(
        get,
        "/{event_id:str}/attendance",
        "get_attendance",
        attendance.event_attendance,
        "Get an event's attendance",
        text="Tickets ever admitted, inside now, and valid entry and exit scans, in total "
        "and per timeslot; exact, and read from counters the scans keep.",
    )

    list_scan_keys = service_route(
        get,
        "/{event_id:str}/scan-keys",
        "list_scan_keys",
        scan_keys.event_keys,
        "List an event's scan keys",
        text="The Ed25519 public keys that sign the event's tickets' `signed_code`, oldest "
        "first, retired ones included (refuse codes of a key whose `retired_at` is set); none "
        "before the event's first ticket is signed (a read makes no key). Format and test "
        "vectors: docs/signed-codes.md.",
    )

    rotate_scan_key = service_route(
        post,
        "/{event_id:str}/scan-keys/rotate",
        "rotate_scan_key",
        scan_keys.rotate_key,
        "Rotate an event's scan key",
        status_code=201,
        text="Adds a key, which signs the codes of the tickets written from then on (every "
        "process uses it within 30 seconds); codes signed earlier stay good until their key "
        "is retired. An event with no key yet gets this one as its first.",
    )

    @post(
        "/{event_id:str}/scan-keys/{kid:str}/retire",
        status_code=200,
        **operation(
            "Retire one of an event's scan keys",
            service=scan_keys.retire_key,
            errors=(400, 403, 404, 409),
            text="The tickets whose codes it signed get new codes signed with the current key, "
            "and appear in the revocations as `code_replaced`; the key stays listed with "
            "`retired_at`. 409 `current-scan-key` for the key that signs new codes (rotate "
            "first); retiring a retired key changes nothing.",
        ),
    )
    async def retire_scan_key(self, request: Caller, event_id: IdPath, kid: KidPath) -> ScanKey:
        return await scan_keys.retire_key(request.user, parse_id(event_id, "event_id"), kid)

    @get(
        "/{event_id:str}/revocations",
        **operation(
            "List an event's revoked tickets",
            service=scan_keys.event_revocations,
            errors=(400, 403, 404),
            text="Tickets cancelled, or whose signed code was replaced (its key retired), "
            "from `since` up to `next_since`, the server's time when read, oldest first. Pass "
            "`next_since` as the next `since`: each revocation is in exactly one answer of such "
            "a chain, none is missed and none repeated.",
        ),
    )
    async def list_revocations(
        self, request: Caller, event_id: IdPath, since: Since = None
    ) -> Revocations:
        parsed = None if since is None else parse_timestamp(since, "since")
        return await scan_keys.event_revocations(
            request.user, parse_id(event_id, "event_id"), parsed
        )

    get_availability = service_route(
        get,
        "/{event_id:str}/availability",
        "get_availability",
        availability.event_availability,
        "What each timeslot has left",
        text="Per timeslot, by start: its capacity, the tickets sold (not cancelled, of "
        "orders not cancelled), the places held by active holds that have not expired, "
        "and what is available. Exact when read.",
    )

    update_event = service_route(
        patch,
        "/{event_id:str}",
        "update_event",
        events.update_event,
        "Update an event",
        text="Only the fields sent are changed.",
    )

    list_ticket_types = list_route(
        ticket_types.TICKET_TYPES,
        "/{event_id:str}/ticket_types",
        "list_ticket_types",
        "List the ticket types of an event",
        within="event_id",
    )

    create_ticket_type = service_route(
        post,
        "/{event_id:str}/ticket_types",
        "create_ticket_type",
        ticket_types.create_ticket_type,
        "Create a ticket type",
    )

    update_ticket_type = service_route(
        patch,
        "/{event_id:str}/ticket_types/{ticket_type_id:str}",
        "update_ticket_type",
        ticket_types.update_ticket_type,
        "Update a ticket type",
        text="Only the fields sent are changed. A new `price` applies to orders placed from "
        "then on; a new `swappable` also applies to the ticket type's tickets that are not "
        "cancelled (their `updated_at` moves).",
    )

    delete_ticket_type = service_route(
        delete,
        "/{event_id:str}/ticket_types/{ticket_type_id:str}",
        "delete_ticket_type",
        ticket_types.delete_ticket_type,
        "Delete a ticket type",
        status_code=200,
        errors=(409,),
        text="409 when tickets of it were ordered (cancelled ones too), when a scanner "
        "profile names it, or when it is the only ticket type a timeslot sells; the "
        "problem's `detail` says which.",
    )

    list_timeslots = list_route(
        timeslots.TIMESLOTS,
        "/{event_id:str}/timeslots",
        "list_timeslots",
        "List the timeslots of an event",
        within="event_id",
        text="`from` keeps timeslots starting at or after it, `until` those starting before it.",
    )

    create_timeslot = service_route(
        post,
        "/{event_id:str}/timeslots",
        "create_timeslot",
        timeslots.create_timeslot,
        "Create a timeslot",
    )

    update_timeslot = service_route(
        patch,
        "/{event_id:str}/timeslots/{timeslot_id:str}",
        "update_timeslot",
        timeslots.update_timeslot,
        "Update a timeslot",
        errors=(409,),
        text="Only the fields sent are changed; a sent `ticket_type_ids` replaces the list "
        "(it governs new orders). 409 when `total_available` would go below the tickets "
        "sold.",
    )

    delete_timeslot = service_route(
        delete,
        "/{event_id:str}/timeslots/{timeslot_id:str}",
        "delete_timeslot",
        timeslots.delete_timeslot,
        "Delete a timeslot",
        status_code=200,
        errors=(409,),
        text="409 when orders were placed for it (cancelled ones too), when places of it "
        "are held, or when a scanner profile names it; the problem's `detail` says which.",
    )
