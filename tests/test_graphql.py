"""GraphQL over the shared services: every query and mutation, and how errors come back."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from httpx import AsyncClient

from tests.conftest import AppClient
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
    place_order,
    problem,
)

BROWSE = """
query Browse($id: ID!) {
  viewer { uid email organization }
  event(id: $id) {
    id title startsAt orderScanningEnabled
    ticketTypes { items { id name price swappable event { id } } pagination { total } }
    timeslots {
      items { id title startsAt endsAt totalAvailable ticketTypeIds ticketTypes { name } }
      pagination { total limit offset hasMore }
    }
    orders { items { id status totalPrice } pagination { total } }
    tickets(sort: "sequence:asc") {
      items { id sequence status ownerName scannableCode order { id } ticketType { name } }
      pagination { total }
    }
  }
}
"""


async def test_an_event_browses_to_its_timeslots_ticket_types_orders_and_tickets(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, title="Jazz Night")
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    data = gql_data(await graphql(client, tenant.headers, BROWSE, {"id": venue.event["id"]}))
    assert data["viewer"] == {
        "uid": str(tenant.user_id), "email": tenant.email, "organization": tenant.org_name,
    }  # fmt: skip
    event = data["event"]
    assert event["title"] == "Jazz Night" and event["startsAt"] == "2030-06-01T18:00:00Z"
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
    for title, start in (("Matinee", "2030-06-01T12:00:00Z"), ("Late", "2030-06-02T01:00:00Z")):
        ok(
            await client.post(
                f"/events/{venue.event['id']}/timeslots",
                json={
                    "title": title, "starts_at": start, "ends_at": "2030-06-03T00:00:00Z",
                    "total_available": 5,
                },
                headers=tenant.headers,
            ),
            201,
        )  # fmt: skip
    query = """
    query($id: ID!, $order: ID!) {
      event(id: $id) {
        tickets(orderId: $order, limit: 2, offset: 1, sort: "sequence:asc") {
          items { sequence } pagination { total limit offset hasMore }
        }
        timeslots(from: "2030-06-01T15:00:00+02:00", until: "2030-06-02T00:00:00Z",
                  sort: "starts_at:asc") { items { title } }
        orders(limit: 1, sort: "created_at:asc") { items { id } pagination { total hasMore } }
      }
    }
    """
    event = gql_data(
        await graphql(
            client, tenant.headers, query, {"id": venue.event["id"], "order": first["id"]}
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
    query = """
    query($id: ID!) {
      ticket(id: $id) {
        ownerName seat metadata metadataFields { key name value }
        order { id buyerName event { title } timeslot { title } }
        timeslot { id } ticketType { id price }
      }
    }
    """
    ticket = gql_data(await graphql(client, tenant.headers, query, {"id": tickets[0]["id"]}))[
        "ticket"
    ]
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
    query = """
    query($event: ID!, $order: ID!) {
      orders(eventId: $event) { items { id } pagination { total } }
      all: orders { pagination { total } }
      order(id: $order) { id eventId eventTimeslotId payedAt }
      tickets(eventId: $event, orderId: $order) { items { orderId } }
      timeslots(eventId: $event) { items { id } }
      ticketTypes(eventId: $event) { items { id } }
      events(sort: "title:asc", limit: 1) { items { id } pagination { total } }
    }
    """
    data = gql_data(
        await graphql(
            client, tenant.headers, query, {"event": venue.event["id"], "order": order["id"]}
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
            """mutation($input: CreateEventInput!) {
                 createEvent(input: $input) { id title location startsAt endsAt }
               }""",
            {
                "input": {
                    "title": "Opera", "startsAt": "2030-09-01T20:00:00+02:00",
                    "location": "Stage", "orderScanningEnabled": True,
                }
            },
        )
    )["createEvent"]  # fmt: skip
    assert created["startsAt"] == "2030-09-01T18:00:00Z" and created["location"] == "Stage"
    updated = gql_data(
        await graphql(
            client,
            tenant.headers,
            """mutation($id: ID!) {
                 updateEvent(input: {id: $id, title: "Opera Gala", location: null}) {
                   title location startsAt
                 }
               }""",
            {"id": created["id"]},
        )
    )["updateEvent"]
    assert updated == {"title": "Opera Gala", "location": None, "startsAt": "2030-09-01T18:00:00Z"}
    ticket_type = gql_data(
        await graphql(
            client,
            tenant.headers,
            """mutation($id: ID!) {
                 createTicketType(
                   input: {eventId: $id, name: "VIP", price: 99.5, swappable: true}
                 ) {
                   id eventId name price swappable
                 }
               }""",
            {"id": created["id"]},
        )
    )["createTicketType"]
    assert ticket_type["price"] == 99.5 and ticket_type["swappable"] is True
    timeslot = gql_data(
        await graphql(
            client,
            tenant.headers,
            """mutation($id: ID!, $types: [ID!]) {
                 createTimeslot(input: {eventId: $id, title: "Night",
                   startsAt: "2030-09-01T18:00:00Z", endsAt: "2030-09-01T23:00:00Z",
                   totalAvailable: 40, ticketTypeIds: $types}) {
                   title totalAvailable ticketTypeIds
                 }
               }""",
            {"id": created["id"], "types": [ticket_type["id"]]},
        )
    )["createTimeslot"]
    assert timeslot == {
        "title": "Night",
        "totalAvailable": 40,
        "ticketTypeIds": [ticket_type["id"]],
    }
    stored = ok(await client.get(f"/events/{created['id']}", headers=tenant.headers))
    assert stored["title"] == "Opera Gala" and stored["order_scanning_enabled"] is True


ORDER_FIELDS = "id status payedAt totalPrice refunded"


async def test_order_mutations_place_confirm_refund_and_cancel(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=3, price=10.0)
    place = """
    mutation($input: PlaceOrderInput!) {
      placeOrder(input: $input) {
        id status totalPrice tickets(sort: "sequence:asc") { items { ownerName sequence } }
      }
    }
    """
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
    placed = gql_data(await graphql(client, tenant.headers, place, {"input": order_input}))[
        "placeOrder"
    ]
    assert placed["status"] == "pending" and placed["totalPrice"] == 20.0
    assert placed["tickets"]["items"] == [
        {"ownerName": "Bob", "sequence": 1}, {"ownerName": "Ada", "sequence": 2},
    ]  # fmt: skip
    sold_out = await graphql(client, tenant.headers, place, {"input": order_input})
    assert gql_error_codes(sold_out) == ["CONFLICT"] and sold_out["data"] == {"placeOrder": None}

    def run(name: str, extra: str = "") -> str:
        return f"mutation($id: ID!) {{ {name}(input: {{id: $id{extra}}}) {{ {ORDER_FIELDS} }} }}"

    ids = {"id": placed["id"]}
    confirmed = gql_data(await graphql(client, tenant.headers, run("confirmOrder"), ids))
    assert confirmed["confirmOrder"]["status"] == "confirmed"
    assert confirmed["confirmOrder"]["payedAt"].endswith("Z")
    again = gql_data(await graphql(client, tenant.headers, run("confirmOrder"), ids))
    assert again["confirmOrder"]["payedAt"] == confirmed["confirmOrder"]["payedAt"]
    refunded = gql_data(
        await graphql(client, tenant.headers, run("refundOrder", ", amount: 5"), ids)
    )
    assert refunded["refundOrder"]["refunded"] == 5.0
    too_much = await graphql(client, tenant.headers, run("refundOrder", ", amount: 15.01"), ids)
    assert gql_error_codes(too_much) == ["CONFLICT"]

    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": placed["id"], "sort": "sequence:asc"},
            headers=tenant.headers,
        )
    )["data"]
    cancel_ticket = """
    mutation($id: ID!) { cancelTicket(input: {id: $id}) { id status cancelledAt } }
    """
    cancelled = gql_data(
        await graphql(client, tenant.headers, cancel_ticket, {"id": tickets[0]["id"]})
    )["cancelTicket"]
    assert cancelled["status"] == "cancelled" and cancelled["cancelledAt"].endswith("Z")
    order = gql_data(await graphql(client, tenant.headers, run("cancelOrder"), ids))
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
            """mutation($event: ID!) {
                 createScannerProfile(input: {name: "Front", eventIds: [$event],
                   opensMinutesBeforeStart: 60, validFrom: "2030-01-01T00:00:00+01:00"}) {
                   id name eventIds ticketTypeIds timeslotIds opensMinutesBeforeStart
                   closesMinutesAfterEnd validFrom validUntil
                 }
               }""",
            {"event": event["id"]},
        )
    )["createScannerProfile"]
    assert profile["eventIds"] == [event["id"]] and profile["ticketTypeIds"] == []
    assert (
        profile["validFrom"] == "2029-12-31T23:00:00Z" and profile["closesMinutesAfterEnd"] is None
    )
    scanner = gql_data(
        await graphql(
            client,
            tenant.headers,
            """mutation($profile: ID!) {
                 createScanner(input: {name: "Door A", profileId: $profile}) {
                   id name active profileId profile { name }
                 }
               }""",
            {"profile": profile["id"]},
        )
    )["createScanner"]
    assert scanner["active"] is True and scanner["profile"] == {"name": "Front"}
    updated = gql_data(
        await graphql(
            client,
            tenant.headers,
            """mutation($id: ID!, $profile: ID!) {
                 updateScanner(input: {id: $id, active: false, profileId: null}) {
                   active profileId profile { id }
                 }
                 updateScannerProfile(input: {id: $profile, eventIds: [],
                   closesMinutesAfterEnd: 30}) { eventIds closesMinutesAfterEnd name }
               }""",
            {"id": scanner["id"], "profile": profile["id"]},
        )
    )
    assert updated["updateScanner"] == {"active": False, "profileId": None, "profile": None}
    assert updated["updateScannerProfile"] == {
        "eventIds": [], "closesMinutesAfterEnd": 30, "name": "Front",
    }  # fmt: skip
    lists = gql_data(
        await graphql(
            client,
            tenant.headers,
            "{ scanners { items { id } pagination { total } }"
            " scannerProfiles { items { id } pagination { total } } }",
        )
    )
    assert lists["scanners"] == {"items": [{"id": scanner["id"]}], "pagination": {"total": 1}}
    assert lists["scannerProfiles"]["items"] == [{"id": profile["id"]}]


SCAN = """
mutation($ticket: ID, $code: String, $scanner: ID) {
  scanTicket(ticketId: $ticket, scannableCode: $code, scannerId: $scanner) {
    ticketId status reason scannedBefore scannedAt ownerName
    event { id title location } timeslot { title startsAt endsAt }
    ticketType { id name price } relatedTickets { id ticketTypeName }
  }
}
"""


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
    no_scanner = await graphql(client, tenant.headers, SCAN, {"ticket": tickets[0]["id"]})
    assert gql_error_codes(no_scanner) == ["CONFLICT"]
    scanner = await create_scanner(client, tenant)
    foreign = await create_scanner(client, other_tenant)
    forbidden = await graphql(
        client, tenant.headers, SCAN, {"ticket": tickets[0]["id"], "scanner": foreign["id"]}
    )
    assert gql_error_codes(forbidden) == ["FORBIDDEN"]

    first = gql_data(await graphql(client, tenant.headers, SCAN, {"ticket": tickets[0]["id"]}))
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
            SCAN,
            {"code": tickets[0]["scannable_code"], "scanner": scanner["id"]},
        )
    )["scanTicket"]
    assert by_code["status"] == "scanned" and by_code["reason"] == "already_scanned"
    assert by_code["scannedBefore"] is True and by_code["scannedAt"] == result["scannedAt"]

    neither = await graphql(client, tenant.headers, SCAN, {})
    assert gql_error_codes(neither) == ["BAD_USER_INPUT"]
    unknown = await graphql(client, tenant.headers, SCAN, {"code": "NOSUCHCODE"})
    assert gql_error_codes(unknown) == ["NOT_FOUND"]


async def test_webhooks_are_created_listed_and_deleted(client: AsyncClient, tenant: Tenant) -> None:
    create = """
    mutation($url: String!, $types: [String!]!, $description: String) {
      createWebhook(url: $url, eventTypes: $types, description: $description) {
        id url eventTypes description active createdAt secret
      }
    }
    """
    created = gql_data(
        await graphql(
            client,
            tenant.headers,
            create,
            {
                "url": "https://127.0.0.1:9/hook",
                "types": ["order.confirmed", "ticket.scanned"],
                "description": "Shop sync",
            },
        )
    )["createWebhook"]
    assert created["secret"].startswith("whsec_") and created["active"] is True
    assert created["eventTypes"] == ["order.confirmed", "ticket.scanned"]
    bad = await graphql(client, tenant.headers, create, {"url": "ftp://x", "types": ["nope"]})
    assert gql_error_codes(bad) == ["BAD_USER_INPUT"]

    listed = gql_data(
        await graphql(
            client,
            tenant.headers,
            """query($id: ID!) {
                 webhooks { items { id url description } pagination { total } }
                 webhook(id: $id) { id eventTypes }
                 webhookDeliveries(webhookId: $id) { items { id } pagination { total } }
               }""",
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

    delete = "mutation($id: ID!) { deleteWebhook(id: $id) { id deleted } }"
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
            "/graphql", json={"query": "{ viewer { email } }"}, headers=headers
        )
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == challenge
        assert response.headers["content-type"].startswith("application/problem+json")
        get = await client.get(
            "/graphql", params={"query": "{ viewer { email } }"}, headers=headers
        )
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
        """query($id: ID!) {
             event(id: $id) { title orders { items { id } } timeslots { pagination { total } } }
             orders { pagination { total } }
             viewer { email }
           }""",
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
        'mutation { createEvent(input: {title: "", startsAt: "2030-01-01T00:00:00Z"}) { id } }',
    )
    assert gql_error_codes(mutation) == ["FORBIDDEN"]


async def test_unknown_or_foreign_ids_are_not_found_on_their_field(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    theirs = await create_venue(client, other_tenant)
    mine = await create_event(client, tenant)
    body = await graphql(
        client,
        tenant.headers,
        """query($theirs: ID!, $mine: ID!, $missing: ID!) {
             theirs: event(id: $theirs) { id }
             mine: event(id: $mine) { id }
             order(id: $missing) { id }
             ticket(id: $missing) { id }
           }""",
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
        'mutation($id: ID!) { updateEvent(input: {id: $id, title: "Mine now"}) { id } }',
        {"id": theirs.event["id"]},
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
        'mutation { createEvent(input: {title: "", startsAt: "2030-01-01T00:00:00Z"}) { id } }'
    ) == ["title"]
    assert await field_errors(
        'mutation { createEvent(input: {title: "X", startsAt: "2030-01-01T00:00:00"}) { id } }'
    ) == ["starts_at"]
    assert await field_errors(
        """query($id: ID!) {
             event(id: $id) { timeslots(from: "2030-01-01T00:00:00") { items { id } } }
           }""",
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
        params={"query": "{ events { items { title } } }"},
        headers={**tenant.headers, "Accept": "application/json"},
    )
    assert response.status_code == 200
    assert response.json()["data"]["events"]["items"] == [{"title": "Over GET"}]
    mutation = await client.get(
        "/graphql",
        params={
            "query": 'mutation { createEvent(input: {title: "X", '
            'startsAt: "2030-01-01T00:00:00Z"}) { id } }'
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
    body = await graphql(
        client, tenant.headers, "{ viewer { email } events { pagination { total } } }"
    )
    assert body["data"] == {"viewer": None, "events": {"pagination": {"total": 0}}}
    assert gql_error_codes(body) == ["INTERNAL_SERVER_ERROR"]
    assert "hunter2" not in str(body)
    assert any("hunter2" in str(record.exc_info) for record in caplog.records if record.exc_info)


async def test_graphiql_can_be_turned_off(app_client: AppClient, tenant: Tenant) -> None:
    async with app_client(graphiql=False) as off:
        html = {"Accept": "text/html"}
        assert (await off.get("/graphql", headers=html)).status_code == 401
        assert (await off.get("/graphql", headers={**html, **tenant.headers})).status_code == 404
        body = await graphql(off, tenant.headers, "{ viewer { email } }")
        assert gql_data(body) == {"viewer": {"email": tenant.email}}


async def test_persisted_queries_run_by_hash_after_one_full_send(
    client: AsyncClient, tenant: Tenant
) -> None:
    query = "query Who { viewer { email } }"
    digest = hashlib.sha256(query.encode()).hexdigest()
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    unknown = await client.post("/graphql", json={"extensions": extensions}, headers=tenant.headers)
    assert gql_error_codes(ok(unknown)) == ["PERSISTED_QUERY_NOT_FOUND"]
    first = await client.post(
        "/graphql", json={"query": query, "extensions": extensions}, headers=tenant.headers
    )
    assert gql_data(ok(first)) == {"viewer": {"email": tenant.email}}
    by_hash = await client.get(
        "/graphql",
        params={"extensions": json.dumps(extensions)},
        headers={**tenant.headers, "Accept": "application/json"},
    )
    assert gql_data(ok(by_hash)) == {"viewer": {"email": tenant.email}}
    lying = await client.post(
        "/graphql",
        json={"query": "{ events { items { id } } }", "extensions": extensions},
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
    kept = "query Kept { viewer { email } }"
    first = await client.post(
        "/graphql", json={"query": kept, "extensions": persisted(kept)}, headers=tenant.headers
    )
    assert gql_data(ok(first)) == {"viewer": {"email": tenant.email}}
    flood = [f"query Flood{n} {{ viewer {{ uid }} }}" for n in range(6)]
    for query in flood:
        sent = {"query": query, "extensions": persisted(query)}
        gql_data(ok(await client.post("/graphql", json=sent, headers=other_tenant.headers)))
    again = await client.post(
        "/graphql", json={"extensions": persisted(kept)}, headers=tenant.headers
    )
    assert gql_data(ok(again)) == {"viewer": {"email": tenant.email}}
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
    query = "query Mine { viewer { email } }"
    sent = {"query": query, "extensions": persisted(query)}
    gql_data(ok(await client.post("/graphql", json=sent, headers=tenant.headers)))
    for accept in ("*/*", "application/json", "text/html, */*;q=0.8"):
        response = await client.get(
            "/graphql",
            params={"extensions": json.dumps(persisted(query))},
            headers={**tenant.headers, "Accept": accept},
        )
        assert response.headers["content-type"].startswith("application/json"), accept
        assert gql_data(ok(response)) == {"viewer": {"email": tenant.email}}
    curl = await client.get("/graphql", headers={**tenant.headers, "Accept": "*/*"})
    assert "text/html" not in curl.headers["content-type"]
    problem(curl, 400)


async def test_graphql_inputs_are_as_strict_as_rest_bodies(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Money with a third decimal, U+0000 in ticket metadata and numeric timestamps are
    BAD_USER_INPUT, as they are a 400 in REST; nothing is created."""
    venue = await create_venue(client, tenant)
    ticket_type = """mutation($event: ID!, $price: Float!) {
      createTicketType(input: {eventId: $event, name: "VIP", price: $price}) { id price }
    }"""
    cheap = await graphql(
        client, tenant.headers, ticket_type, {"event": venue.event["id"], "price": 0.001}
    )
    assert gql_error_codes(cheap) == ["BAD_USER_INPUT"], cheap
    assert cheap["errors"][0]["extensions"]["errors"][0]["field"] == "price"
    place = """mutation($event: ID!, $slot: ID!, $tickets: [OrderTicketInput!]!) {
      placeOrder(input: {eventId: $event, eventTimeslotId: $slot, buyerName: "Ada",
        buyerEmail: "ada@example.com", channel: "online", paymentMethod: "card",
        tickets: $tickets}) { id }
    }"""
    ids = {"event": venue.event["id"], "slot": venue.timeslot["id"]}
    ticket = {"ticketTypeId": venue.ticket_type["id"]}
    for changes in (
        {"metadata": {"seat\u0000": "A1"}},
        {"metadata": {"notes": ["fine", {"deep": "a\u0000"}]}},
        {"metadataFields": [{"key": "k", "name": "n", "value": "a\u0000"}]},
    ):
        tickets = [{**ticket, **changes}]
        body = await graphql(client, tenant.headers, place, {**ids, "tickets": tickets})
        assert gql_error_codes(body) == ["BAD_USER_INPUT"], (changes, body)
    timestamp = await graphql(
        client,
        tenant.headers,
        """mutation($t: DateTime!) { createEvent(input: {title: "X", startsAt: $t}) { id } }""",
        {"t": 0},
    )
    assert gql_error_codes(timestamp) == ["BAD_USER_INPUT"]
    fine = await graphql(
        client, tenant.headers, ticket_type, {"event": venue.event["id"], "price": 19.99}
    )
    assert gql_data(fine)["createTicketType"]["price"] == 19.99
    orders = ok(await client.get("/orders", headers=tenant.headers))
    assert orders["pagination"]["total"] == 0
