"""GraphQL over the shared services: every query and mutation, and how errors come back."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from httpx import AsyncClient

from tests.conftest import AppClient
from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_event,
    create_scanner,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    ok,
    operation,
    place_order,
    problem,
)


async def test_an_event_browses_to_its_timeslots_ticket_types_orders_and_tickets(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, title="Jazz Night")
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    data = gql_data(
        await graphql(
            client, tenant.headers, operation("EventWithRelations"), {"id": venue.event["id"]}
        )
    )
    assert data["viewer"] == {
        "uid": str(tenant.user_id), "email": tenant.email, "organization": tenant.org_name,
    }  # fmt: skip
    event = data["event"]
    assert event["title"] == "Jazz Night" and event["startsAt"] == f"{YEAR}-06-01T18:00:00Z"
    assert event["ticketTypes"]["items"] == [
        {
            "id": venue.ticket_type["id"], "name": "Regular", "price": 25.0, "swappable": False,
            "event": {"id": venue.event["id"]},
        }
    ]  # fmt: skip
    timeslot = event["timeslots"]["items"][0]
    assert timeslot["ticketTypeIds"] == [venue.ticket_type["id"]]
    assert timeslot["ticketTypes"] == [{"name": "Regular"}]
    assert event["timeslots"]["pagination"] == {
        "total": 1, "limit": 25, "offset": 0, "hasMore": False,
    }  # fmt: skip
    assert event["orders"]["items"] == [
        {"id": order["id"], "status": "pending", "totalPrice": 50.0}
    ]
    tickets = event["tickets"]["items"]
    assert [t["sequence"] for t in tickets] == [1, 2]
    assert all(t["order"] == {"id": order["id"]} for t in tickets)
    assert all(t["ticketType"] == {"name": "Regular"} and t["status"] == "valid" for t in tickets)


async def test_nested_lists_page_sort_and_filter(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    type_id = venue.ticket_type["id"]
    first = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [type_id] * 3
    )
    await place_order(client, tenant, venue.event["id"], venue.timeslot["id"], [type_id])
    for title, start in (
        ("Matinee", f"{YEAR}-06-01T12:00:00Z"),
        ("Late", f"{YEAR}-06-02T01:00:00Z"),
    ):
        ok(
            await client.post(
                f"/events/{venue.event['id']}/timeslots",
                json={
                    "title": title, "starts_at": start, "ends_at": f"{YEAR}-06-03T00:00:00Z",
                    "total_available": 5,
                },
                headers=tenant.headers,
            ),
            201,
        )  # fmt: skip
    event = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("EventPages"),
            {
                "id": venue.event["id"],
                "orderId": first["id"],
                "from": f"{YEAR}-06-01T15:00:00+02:00",
                "until": f"{YEAR}-06-02T00:00:00Z",
            },
        )
    )["event"]
    assert event["tickets"] == {
        "items": [{"sequence": 2}, {"sequence": 3}],
        "pagination": {"total": 3, "limit": 2, "offset": 1, "hasMore": False},
    }
    assert event["timeslots"]["items"] == [{"title": "Evening"}]
    assert event["orders"] == {
        "items": [{"id": first["id"]}], "pagination": {"total": 2, "hasMore": True},
    }  # fmt: skip


async def test_a_ticket_resolves_its_order_timeslot_ticket_type_and_metadata(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [],
        tickets=[
            {
                "ticket_type_id": venue.ticket_type["id"],
                "owner_name": "Grace",
                "seat": "A1",
                "metadata": {"diet": "vegan", "age": 31},
                "metadata_fields": [{"key": "tshirt", "name": "T-shirt", "value": "M"}],
            }
        ],
    )
    tickets = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=tenant.headers))[
        "data"
    ]
    ticket = gql_data(
        await graphql(
            client, tenant.headers, operation("TicketWithRelations"), {"id": tickets[0]["id"]}
        )
    )["ticket"]
    assert ticket == {
        "ownerName": "Grace",
        "seat": "A1",
        "metadata": {"diet": "vegan", "age": 31},
        "metadataFields": [{"key": "tshirt", "name": "T-shirt", "value": "M"}],
        "order": {
            "id": order["id"], "buyerName": "Ada Buyer", "event": {"title": "Concert"},
            "timeslot": {"title": "Evening"},
        },
        "timeslot": {"id": venue.timeslot["id"]},
        "ticketType": {"id": venue.ticket_type["id"], "price": 25.0},
    }  # fmt: skip


async def test_root_lists_of_orders_tickets_timeslots_and_ticket_types(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    other = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    await place_order(
        client, tenant, other.event["id"], other.timeslot["id"], [other.ticket_type["id"]]
    )
    data = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("RootLists"),
            {"eventId": venue.event["id"], "orderId": order["id"]},
        )
    )
    assert data["orders"] == {"items": [{"id": order["id"]}], "pagination": {"total": 1}}
    assert data["all"] == {"pagination": {"total": 2}}
    assert data["order"] == {
        "id": order["id"], "eventId": venue.event["id"],
        "eventTimeslotId": venue.timeslot["id"], "payedAt": None,
    }  # fmt: skip
    assert data["tickets"]["items"] == [{"orderId": order["id"]}]
    assert data["timeslots"]["items"] == [{"id": venue.timeslot["id"]}]
    assert data["ticketTypes"]["items"] == [{"id": venue.ticket_type["id"]}]
    assert data["events"]["pagination"] == {"total": 2}


async def test_event_ticket_type_and_timeslot_mutations(
    client: AsyncClient, tenant: Tenant
) -> None:
    created = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateEvent"),
            {
                "input": {
                    "title": "Opera", "startsAt": f"{YEAR}-09-01T20:00:00+02:00",
                    "location": "Stage", "orderScanningEnabled": True,
                }
            },
        )
    )["createEvent"]  # fmt: skip
    assert created["startsAt"] == f"{YEAR}-09-01T18:00:00Z" and created["location"] == "Stage"
    updated = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("UpdateEvent"),
            {"input": {"id": created["id"], "title": "Opera Gala", "location": None}},
        )
    )["updateEvent"]
    assert updated == {
        "id": created["id"], "title": "Opera Gala", "location": None,
        "startsAt": f"{YEAR}-09-01T18:00:00Z",
    }  # fmt: skip
    ticket_type = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateTicketType"),
            {"input": {"eventId": created["id"], "name": "VIP", "price": 99.5, "swappable": True}},
        )
    )["createTicketType"]
    assert ticket_type["price"] == 99.5 and ticket_type["swappable"] is True
    timeslot = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateTimeslot"),
            {
                "input": {
                    "eventId": created["id"], "title": "Night",
                    "startsAt": f"{YEAR}-09-01T18:00:00Z", "endsAt": f"{YEAR}-09-01T23:00:00Z",
                    "totalAvailable": 40, "ticketTypeIds": [ticket_type["id"]],
                }
            },
        )
    )["createTimeslot"]  # fmt: skip
    assert timeslot == {
        "title": "Night",
        "totalAvailable": 40,
        "ticketTypeIds": [ticket_type["id"]],
    }
    stored = ok(await client.get(f"/events/{created['id']}", headers=tenant.headers))
    assert stored["title"] == "Opera Gala" and stored["order_scanning_enabled"] is True


async def test_order_mutations_place_confirm_refund_and_cancel(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=3, price=10.0)
    order_input = {
        "eventId": venue.event["id"],
        "eventTimeslotId": venue.timeslot["id"],
        "buyerName": "Ada",
        "buyerEmail": "ada@example.com",
        "channel": "box_office",
        "paymentMethod": "cash",
        "tickets": [
            {"ticketTypeId": venue.ticket_type["id"], "ownerName": "Bob"},
            {"ticketTypeId": venue.ticket_type["id"]},
        ],
    }
    place = operation("PlaceOrder")
    placed = gql_data(await graphql(client, tenant.headers, place, {"input": order_input}))[
        "placeOrder"
    ]
    assert placed["status"] == "pending" and placed["totalPrice"] == 20.0
    assert placed["tickets"]["items"] == [
        {"ownerName": "Bob", "sequence": 1}, {"ownerName": "Ada", "sequence": 2},
    ]  # fmt: skip
    sold_out = await graphql(client, tenant.headers, place, {"input": order_input})
    assert gql_error_codes(sold_out) == ["CONFLICT"] and sold_out["data"] == {"placeOrder": None}

    async def run(name: str, **fields: Any) -> dict[str, Any]:
        return await graphql(
            client, tenant.headers, operation(name), {"input": {"id": placed["id"], **fields}}
        )

    confirmed = gql_data(await run("ConfirmOrder"))
    assert confirmed["confirmOrder"]["status"] == "confirmed"
    assert confirmed["confirmOrder"]["payedAt"].endswith("Z")
    again = gql_data(await run("ConfirmOrder"))
    assert again["confirmOrder"]["payedAt"] == confirmed["confirmOrder"]["payedAt"]
    refunded = gql_data(await run("RefundOrder", amount=5))
    assert refunded["refundOrder"]["refunded"] == 5.0
    too_much = await run("RefundOrder", amount=15.01)
    assert gql_error_codes(too_much) == ["CONFLICT"]

    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": placed["id"], "sort": "sequence:asc"},
            headers=tenant.headers,
        )
    )["data"]
    cancelled = gql_data(
        await graphql(
            client, tenant.headers, operation("CancelTicket"), {"input": {"id": tickets[0]["id"]}}
        )
    )["cancelTicket"]
    assert cancelled["status"] == "cancelled" and cancelled["cancelledAt"].endswith("Z")
    order = gql_data(await run("CancelOrder"))
    assert order["cancelOrder"]["status"] == "cancelled"
    statuses = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": placed["id"]},
            headers=tenant.headers,
        )
    )["data"]
    assert {t["status"] for t in statuses} == {"cancelled"}


async def test_scanner_and_profile_mutations_and_queries(
    client: AsyncClient, tenant: Tenant
) -> None:
    event = await create_event(client, tenant)
    profile = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateScannerProfile"),
            {
                "input": {
                    "name": "Front",
                    "eventIds": [event["id"]],
                    "opensMinutesBeforeStart": 60,
                    "validFrom": f"{YEAR}-01-01T00:00:00+01:00",
                }
            },
        )
    )["createScannerProfile"]
    assert profile["eventIds"] == [event["id"]] and profile["ticketTypeIds"] == []
    assert (
        profile["validFrom"] == f"{YEAR - 1}-12-31T23:00:00Z"
        and profile["closesMinutesAfterEnd"] is None
    )
    scanner = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateScanner"),
            {"input": {"name": "Door A", "profileId": profile["id"]}},
        )
    )["createScanner"]
    assert scanner["active"] is True and scanner["profile"] == {"name": "Front"}
    updated = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("UpdateScanner"),
            {"input": {"id": scanner["id"], "active": False, "profileId": None}},
        )
    )["updateScanner"]
    assert updated == {"id": scanner["id"], "active": False, "profileId": None, "profile": None}
    updated_profile = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("UpdateScannerProfile"),
            {"input": {"id": profile["id"], "eventIds": [], "closesMinutesAfterEnd": 30}},
        )
    )["updateScannerProfile"]
    assert updated_profile == {
        "id": profile["id"], "eventIds": [], "closesMinutesAfterEnd": 30, "name": "Front",
    }  # fmt: skip
    lists = gql_data(await graphql(client, tenant.headers, operation("ScannerRecords")))
    assert [item["id"] for item in lists["scanners"]["items"]] == [scanner["id"]]
    assert lists["scanners"]["pagination"]["total"] == 1
    assert [item["id"] for item in lists["scannerProfiles"]["items"]] == [profile["id"]]


async def test_scan_ticket_by_id_and_by_code(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, order_scanning_enabled=True)
    order = await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [venue.ticket_type["id"]] * 2,
        confirm=True,
    )
    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": order["id"], "sort": "sequence:asc"},
            headers=tenant.headers,
        )
    )["data"]
    scan = operation("ScanTicket")
    no_scanner = await graphql(client, tenant.headers, scan, {"ticketId": tickets[0]["id"]})
    assert gql_error_codes(no_scanner) == ["CONFLICT"]
    scanner = await create_scanner(client, tenant)
    foreign = await create_scanner(client, other_tenant)
    forbidden = await graphql(
        client, tenant.headers, scan, {"ticketId": tickets[0]["id"], "scannerId": foreign["id"]}
    )
    assert gql_error_codes(forbidden) == ["FORBIDDEN"]

    first = gql_data(await graphql(client, tenant.headers, scan, {"ticketId": tickets[0]["id"]}))
    result = first["scanTicket"]
    assert result["status"] == "valid" and result["reason"] is None
    assert result["scannedBefore"] is False and result["scannedAt"].endswith("Z")
    assert result["event"]["id"] == venue.event["id"]
    assert result["ticketType"] == {
        "id": venue.ticket_type["id"], "name": "Regular", "price": 25.0,
    }  # fmt: skip
    assert result["relatedTickets"] == [{"id": tickets[1]["id"], "ticketTypeName": "Regular"}]
    by_code = gql_data(
        await graphql(
            client,
            tenant.headers,
            scan,
            {"code": tickets[0]["scannable_code"], "scannerId": scanner["id"]},
        )
    )["scanTicket"]
    assert by_code["status"] == "scanned" and by_code["reason"] == "already_scanned"
    assert by_code["scannedBefore"] is True and by_code["scannedAt"] == result["scannedAt"]

    neither = await graphql(client, tenant.headers, scan, {})
    assert gql_error_codes(neither) == ["BAD_USER_INPUT"]
    unknown = await graphql(client, tenant.headers, scan, {"code": "NOSUCHCODE"})
    assert gql_error_codes(unknown) == ["NOT_FOUND"]


async def test_webhooks_are_created_listed_and_deleted(client: AsyncClient, tenant: Tenant) -> None:
    create = operation("CreateWebhook")
    created = gql_data(
        await graphql(
            client,
            tenant.headers,
            create,
            {
                "url": "https://127.0.0.1:9/hook",
                "eventTypes": ["order.confirmed", "ticket.scanned"],
                "description": "Shop sync",
            },
        )
    )["createWebhook"]
    assert created["secret"].startswith("whsec_") and created["active"] is True
    assert created["eventTypes"] == ["order.confirmed", "ticket.scanned"]
    bad = await graphql(client, tenant.headers, create, {"url": "ftp://x", "eventTypes": ["nope"]})
    assert gql_error_codes(bad) == ["BAD_USER_INPUT"]

    listed = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("WebhookWithDeliveries"),
            {"id": created["id"]},
        )
    )
    assert listed["webhooks"] == {
        "items": [{"id": created["id"], "url": created["url"], "description": "Shop sync"}],
        "pagination": {"total": 1},
    }
    assert listed["webhookDeliveries"] == {"items": [], "pagination": {"total": 0}}
    no_secret = await graphql(client, tenant.headers, "{ webhooks { items { secret } } }")
    assert gql_error_codes(no_secret) == ["GRAPHQL_VALIDATION_FAILED"]

    delete = operation("DeleteWebhook")
    deleted = gql_data(await graphql(client, tenant.headers, delete, {"id": created["id"]}))
    assert deleted["deleteWebhook"] == {"id": created["id"], "deleted": True}
    twice = await graphql(client, tenant.headers, delete, {"id": created["id"]})
    assert gql_error_codes(twice) == ["NOT_FOUND"]


async def test_no_or_bad_credential_is_http_401(client: AsyncClient) -> None:
    for headers, challenge in (
        ({}, 'Bearer realm="ticketing"'),
        (
            {"Authorization": "Bearer tk_live_nope"},
            'Bearer realm="ticketing", error="invalid_token"',
        ),
    ):
        response = await client.post(
            "/graphql", json={"query": operation("Viewer")}, headers=headers
        )
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == challenge
        assert response.headers["content-type"].startswith("application/problem+json")
        get = await client.get("/graphql", params={"query": operation("Viewer")}, headers=headers)
        assert get.status_code == 401


async def test_a_forbidden_field_does_not_stop_the_rest_of_the_query(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    headers = await key_for(tenant, ["events.read"])
    body = await graphql(
        client,
        headers,
        operation("EventOrdersAndViewer"),
        {"id": venue.event["id"]},
    )
    assert body["data"] == {
        "event": {"title": "Concert", "orders": None, "timeslots": {"pagination": {"total": 1}}},
        "orders": None,
        "viewer": {"email": tenant.email},
    }
    errors = {tuple(e["path"]): e["extensions"] for e in body["errors"]}
    assert errors == {
        ("event", "orders"): {"code": "FORBIDDEN", "scope": "orders.read"},
        ("orders",): {"code": "FORBIDDEN", "scope": "orders.read"},
    }
    mutation = await graphql(
        client,
        headers,
        operation("CreateEvent"),
        {"input": {"title": "", "startsAt": f"{YEAR}-01-01T00:00:00Z"}},
    )
    assert gql_error_codes(mutation) == ["FORBIDDEN"]


async def test_a_page_answers_with_its_items_when_their_relation_is_forbidden(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The page of tickets loads its items' orders at once (graphql_api.core); a key that may
    not read orders still gets every ticket, with each order null and refused on its own path."""
    venue = await create_venue(client, tenant)
    for _ in range(2):
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
        )
    variables = {"id": venue.event["id"]}
    full = gql_data(await graphql(client, tenant.headers, operation("TicketPage"), variables))
    items = full["event"]["tickets"]["items"]
    assert len(items) == 4 and all(item["order"]["buyerName"] == "Ada Buyer" for item in items)
    headers = await key_for(tenant, ["events.read", "tickets.read"])
    body = await graphql(client, headers, operation("TicketPage"), variables)
    page = body["data"]["event"]["tickets"]
    assert page["items"] == [{**item, "order": None} for item in items]
    assert page["pagination"] == full["event"]["tickets"]["pagination"]
    assert sorted((e["path"], e["extensions"]) for e in body["errors"]) == [
        (["event", "tickets", "items", i, "order"], {"code": "FORBIDDEN", "scope": "orders.read"})
        for i in range(4)
    ]


async def test_unknown_or_foreign_ids_are_not_found_on_their_field(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    theirs = await create_venue(client, other_tenant)
    await place_order(
        client, other_tenant, theirs.event["id"], theirs.timeslot["id"], [theirs.ticket_type["id"]]
    )
    mine = await create_event(client, tenant)
    # Another organization's event with tickets: null, and nothing of its page.
    page = await graphql(
        client, tenant.headers, operation("TicketPage"), {"id": theirs.event["id"]}
    )
    assert page["data"] == {"event": None}
    assert [(e["path"], e["extensions"]["code"]) for e in page["errors"]] == [
        (["event"], "NOT_FOUND")
    ]
    body = await graphql(
        client,
        tenant.headers,
        operation("LookUpByIds"),
        {
            "theirs": theirs.event["id"],
            "mine": mine["id"],
            "missing": "00000000-0000-4000-8000-000000000000",
        },
    )
    assert body["data"] == {
        "theirs": None,
        "mine": {"id": mine["id"]},
        "order": None,
        "ticket": None,
    }
    assert sorted((e["path"][0], e["extensions"]["code"]) for e in body["errors"]) == [
        ("order", "NOT_FOUND"), ("theirs", "NOT_FOUND"), ("ticket", "NOT_FOUND"),
    ]  # fmt: skip
    foreign_update = await graphql(
        client,
        tenant.headers,
        operation("UpdateEvent"),
        {"input": {"id": theirs.event["id"], "title": "Mine now"}},
    )
    assert gql_error_codes(foreign_update) == ["NOT_FOUND"]


async def test_bad_input_is_bad_user_input_with_the_offending_field(
    client: AsyncClient, tenant: Tenant
) -> None:
    event = await create_event(client, tenant)

    async def field_errors(query: str, variables: dict[str, Any] | None = None) -> list[Any]:
        body = await graphql(client, tenant.headers, query, variables)
        assert gql_error_codes(body) == ["BAD_USER_INPUT"], body
        return [e["field"] for e in body["errors"][0]["extensions"].get("errors", [])]

    assert await field_errors('{ event(id: "not-a-uuid") { id } }') == ["id"]
    assert await field_errors("{ events(limit: 101, offset: -1) { items { id } } }") == [
        "limit", "offset",
    ]  # fmt: skip
    assert await field_errors('{ events(sort: "price:asc") { items { id } } }') == ["sort"]
    assert await field_errors('{ events(sort: "title") { items { id } } }') == ["sort"]
    assert await field_errors(
        'mutation { createEvent(input: {title: "", '
        f'startsAt: "{YEAR}-01-01T00:00:00Z"}}) {{ id }} }}'
    ) == ["title"]
    assert await field_errors(
        'mutation { createEvent(input: {title: "X", '
        f'startsAt: "{YEAR}-01-01T00:00:00"}}) {{ id }} }}'
    ) == ["starts_at"]
    assert await field_errors(
        f"""query($id: ID!) {{
             event(id: $id) {{ timeslots(from: "{YEAR}-01-01T00:00:00") {{ items {{ id }} }} }}
           }}""",
        {"id": event["id"]},
    ) == ["from"]


async def test_malformed_documents_have_their_own_codes(
    client: AsyncClient, tenant: Tenant
) -> None:
    parse = await graphql(client, tenant.headers, "{ events { ")
    assert gql_error_codes(parse) == ["GRAPHQL_PARSE_FAILED"] and parse["data"] is None
    unknown = await graphql(client, tenant.headers, "{ events { items { nope } } }")
    assert gql_error_codes(unknown) == ["GRAPHQL_VALIDATION_FAILED"]
    bad_variable = await graphql(
        client, tenant.headers, "query($n: Int) { events(limit: $n) { items { id } } }", {"n": "x"}
    )
    assert gql_error_codes(bad_variable) == ["BAD_USER_INPUT"]
    bad_time = await graphql(
        client,
        tenant.headers,
        """mutation($t: DateTime!) { createEvent(input: {title: "X", startsAt: $t}) { id } }""",
        {"t": "next tuesday"},
    )
    assert gql_error_codes(bad_time) == ["BAD_USER_INPUT"]


async def test_queries_run_over_get_and_mutations_only_over_post(
    client: AsyncClient, tenant: Tenant
) -> None:
    await create_event(client, tenant, title="Over GET")
    response = await client.get(
        "/graphql",
        params={"query": operation("EventTitles")},
        headers={**tenant.headers, "Accept": "application/json"},
    )
    assert response.status_code == 200
    assert response.json()["data"]["events"]["items"] == [{"title": "Over GET"}]
    mutation = await client.get(
        "/graphql",
        params={
            "query": operation("CreateEvent"),
            "variables": json.dumps(
                {"input": {"title": "X", "startsAt": f"{YEAR}-01-01T00:00:00Z"}}
            ),
        },
        headers=tenant.headers,
    )
    assert problem(mutation, 400)["detail"] == "mutations are not allowed when using GET"
    events = ok(await client.get("/events", headers=tenant.headers))["data"]
    assert [e["title"] for e in events] == ["Over GET"]


async def test_malformed_requests_are_problem_details(client: AsyncClient, tenant: Tenant) -> None:
    not_json = await client.post(
        "/graphql",
        content=b'{"query": ',
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert problem(not_json, 400)["detail"] == "Unable to parse request body as JSON"
    for variables in ([1], "x"):
        response = await client.post(
            "/graphql",
            json={"query": "{ viewer { email } }", "variables": variables},
            headers=tenant.headers,
        )
        assert "variables" in problem(response, 400)["detail"]
    form = await client.post(
        "/graphql", data={"query": "{ viewer { email } }"}, headers=tenant.headers
    )
    problem(form, 415)


async def test_graphiql_page_loads_without_a_credential(client: AsyncClient) -> None:
    response = await client.get("/graphql", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "graphiql" in response.text.lower()


async def test_an_unexpected_failure_is_masked_logged_and_contained(
    client: AsyncClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    async def broken(principal: Any) -> None:
        raise RuntimeError("password=hunter2 at db-7")

    monkeypatch.setattr("graphql_api.resolvers.whoami", broken)
    body = await graphql(client, tenant.headers, operation("ViewerAndEventCount"))
    assert body["data"] == {"viewer": None, "events": {"pagination": {"total": 0}}}
    assert gql_error_codes(body) == ["INTERNAL_SERVER_ERROR"]
    assert "hunter2" not in str(body)
    assert any("hunter2" in str(record.exc_info) for record in caplog.records if record.exc_info)


async def test_graphiql_can_be_turned_off(app_client: AppClient, tenant: Tenant) -> None:
    async with app_client(graphiql=False) as off:
        html = {"Accept": "text/html"}
        assert (await off.get("/graphql", headers=html)).status_code == 401
        assert (await off.get("/graphql", headers={**html, **tenant.headers})).status_code == 404
        body = await graphql(off, tenant.headers, operation("Viewer"))
        assert gql_data(body)["viewer"]["email"] == tenant.email


async def test_persisted_queries_run_by_hash_after_one_full_send(
    client: AsyncClient, tenant: Tenant
) -> None:
    query = operation("Viewer")
    digest = hashlib.sha256(query.encode()).hexdigest()
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    unknown = await client.post("/graphql", json={"extensions": extensions}, headers=tenant.headers)
    assert gql_error_codes(ok(unknown)) == ["PERSISTED_QUERY_NOT_FOUND"]
    first = await client.post(
        "/graphql", json={"query": query, "extensions": extensions}, headers=tenant.headers
    )
    assert gql_data(ok(first))["viewer"]["email"] == tenant.email
    by_hash = await client.get(
        "/graphql",
        params={"extensions": json.dumps(extensions)},
        headers={**tenant.headers, "Accept": "application/json"},
    )
    assert gql_data(ok(by_hash))["viewer"]["email"] == tenant.email
    lying = await client.post(
        "/graphql",
        json={"query": operation("EventTitles"), "extensions": extensions},
        headers=tenant.headers,
    )
    assert "does not match" in problem(lying, 400)["detail"]


def persisted(query: str) -> dict[str, Any]:
    digest = hashlib.sha256(query.encode()).hexdigest()
    return {"persistedQuery": {"version": 1, "sha256Hash": digest}}


async def test_one_organization_cannot_evict_another_s_persisted_queries(
    client: AsyncClient,
    tenant: Tenant,
    other_tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rest.graphql import persisted_queries

    monkeypatch.setattr(persisted_queries, "capacity", 5)
    kept = operation("Viewer")
    first = await client.post(
        "/graphql", json={"query": kept, "extensions": persisted(kept)}, headers=tenant.headers
    )
    assert gql_data(ok(first))["viewer"]["email"] == tenant.email
    flood = [f"query Flood{n} {{ viewer {{ uid }} }}" for n in range(6)]
    for query in flood:
        sent = {"query": query, "extensions": persisted(query)}
        gql_data(ok(await client.post("/graphql", json=sent, headers=other_tenant.headers)))
    again = await client.post(
        "/graphql", json={"extensions": persisted(kept)}, headers=tenant.headers
    )
    assert gql_data(ok(again))["viewer"]["email"] == tenant.email
    # The flooding organization's own share is bounded: its oldest entry made way.
    oldest = await client.post(
        "/graphql", json={"extensions": persisted(flood[0])}, headers=other_tenant.headers
    )
    assert gql_error_codes(ok(oldest)) == ["PERSISTED_QUERY_NOT_FOUND"]
    # A hash is only known to the organization that sent its query.
    foreign = await client.post(
        "/graphql", json={"extensions": persisted(kept)}, headers=other_tenant.headers
    )
    assert gql_error_codes(ok(foreign)) == ["PERSISTED_QUERY_NOT_FOUND"]


async def test_a_persisted_query_over_get_runs_whatever_the_accept_header(
    client: AsyncClient, tenant: Tenant
) -> None:
    query = operation("Viewer")
    sent = {"query": query, "extensions": persisted(query)}
    gql_data(ok(await client.post("/graphql", json=sent, headers=tenant.headers)))
    for accept in ("*/*", "application/json", "text/html, */*;q=0.8"):
        response = await client.get(
            "/graphql",
            params={"extensions": json.dumps(persisted(query))},
            headers={**tenant.headers, "Accept": accept},
        )
        assert response.headers["content-type"].startswith("application/json"), accept
        assert gql_data(ok(response))["viewer"]["email"] == tenant.email
    curl = await client.get("/graphql", headers={**tenant.headers, "Accept": "*/*"})
    assert "text/html" not in curl.headers["content-type"]
    problem(curl, 400)


async def test_graphql_inputs_are_as_strict_as_rest_bodies(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Money with a third decimal, U+0000 in ticket metadata and numeric timestamps are
    BAD_USER_INPUT, as they are a 400 in REST; nothing is created."""
    venue = await create_venue(client, tenant)

    async def ticket_type(price: float) -> dict[str, Any]:
        ticket_type = {"eventId": venue.event["id"], "name": "VIP", "price": price}
        return await graphql(
            client, tenant.headers, operation("CreateTicketType"), {"input": ticket_type}
        )

    cheap = await ticket_type(0.001)
    assert gql_error_codes(cheap) == ["BAD_USER_INPUT"], cheap
    assert cheap["errors"][0]["extensions"]["errors"][0]["field"] == "price"
    order = {
        "eventId": venue.event["id"], "eventTimeslotId": venue.timeslot["id"],
        "buyerName": "Ada", "buyerEmail": "ada@example.com", "channel": "online",
        "paymentMethod": "card",
    }  # fmt: skip
    ticket = {"ticketTypeId": venue.ticket_type["id"]}
    for changes in (
        {"metadata": {"seat\u0000": "A1"}},
        {"metadata": {"notes": ["fine", {"deep": "a\u0000"}]}},
        {"metadataFields": [{"key": "k", "name": "n", "value": "a\u0000"}]},
    ):
        tickets = [{**ticket, **changes}]
        body = await graphql(
            client,
            tenant.headers,
            operation("PlaceOrder"),
            {"input": {**order, "tickets": tickets}},
        )
        assert gql_error_codes(body) == ["BAD_USER_INPUT"], (changes, body)
    timestamp = await graphql(
        client, tenant.headers, operation("CreateEvent"), {"input": {"title": "X", "startsAt": 0}}
    )
    assert gql_error_codes(timestamp) == ["BAD_USER_INPUT"]
    fine = await ticket_type(19.99)
    assert gql_data(fine)["createTicketType"]["price"] == 19.99
    orders = ok(await client.get("/orders", headers=tenant.headers))
    assert orders["pagination"]["total"] == 0
