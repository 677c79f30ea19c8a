"""One rule, two transports: every read gives the same data through REST and GraphQL, and a scan
gives the same outcome and fields.

The GraphQL selection of each record is derived from the REST record's own keys (in camelCase),
so a field that exists in one transport and not the other fails the comparison.
"""

from __future__ import annotations

import re
from typing import Any

from httpx import AsyncClient

from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    create_venue,
    gql_data,
    graphql,
    ok,
    place_order,
)
from tests.webhooks_support import emit, relay_refs

NESTED = {
    "metadata_fields": "id key name value",
    "event": "id title location",
    "timeslot": "title startsAt endsAt",
    "ticket_type": "id name price",
    "related_tickets": "id seat ownerName ownerEmail scannedAt cancelledAt ticketTypeName",
}
"""Sub-selections of the nested objects of the records (their keys are checked by equality)."""

SCALAR_OBJECTS = {"metadata"}


def camel_key(key: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key)


def camel(value: Any, key: str | None = None) -> Any:
    """A REST body in GraphQL's spelling (the keys of a free-form ``metadata`` map are data)."""
    if isinstance(value, dict) and key not in SCALAR_OBJECTS:
        return {camel_key(k): camel(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [camel(item, key) for item in value]
    return value


def selection(record: dict[str, Any]) -> str:
    fields = []
    for key, value in record.items():
        nested = NESTED.get(key) if key not in SCALAR_OBJECTS else None
        if nested is not None and (isinstance(value, dict | list) or value is None):
            fields.append(f"{camel_key(key)} {{ {nested} }}")
        else:
            fields.append(camel_key(key))
    return " ".join(fields)


def page_selection(page: dict[str, Any]) -> str:
    assert page["data"], "parity needs at least one item to compare"
    fields = selection(page["data"][0])
    return f"items {{ {fields} }} pagination {{ total limit offset hasMore nextAfter }}"


def as_graphql_page(page: dict[str, Any]) -> dict[str, Any]:
    return {"items": camel(page["data"]), "pagination": camel(page["pagination"])}


async def compare(
    client: AsyncClient,
    tenant: Tenant,
    rest_path: str,
    field: str,
    *,
    params: dict[str, Any] | None = None,
    arguments: str = "",
    is_page: bool = True,
) -> None:
    rest = ok(await client.get(rest_path, params=params, headers=tenant.headers))
    chosen = page_selection(rest) if is_page else selection(rest)
    call = f"{field}({arguments})" if arguments else field
    data = gql_data(await graphql(client, tenant.headers, f"{{ {call} {{ {chosen} }} }}"))
    expected = as_graphql_page(rest) if is_page else camel(rest)
    assert data[field] == expected, f"{rest_path} and {call} differ"


async def test_every_read_gives_the_same_data_through_rest_and_graphql(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, location="Hall", order_scanning_enabled=True)
    event_id, timeslot_id = venue.event["id"], venue.timeslot["id"]
    ok(
        await client.post(
            f"/events/{event_id}/timeslots",
            json={
                "title": "Matinee", "starts_at": "2030-06-01T12:00:00+02:00",
                "ends_at": "2030-06-01T15:00:00Z", "total_available": 10,
            },
            headers=tenant.headers,
        ),
        201,
    )  # fmt: skip
    order = await place_order(
        client,
        tenant,
        event_id,
        timeslot_id,
        [],
        confirm=True,
        tickets=[
            {
                "ticket_type_id": venue.ticket_type["id"],
                "seat": "B7",
                "metadata": {"Diet": "vegan", "nested": {"a_b": [1, 2]}},
                "metadata_fields": [{"key": "size", "name": "Size", "value": "L"}],
            },
            {"ticket_type_id": venue.ticket_type["id"], "owner_name": "Grace"},
        ],
    )
    await place_order(client, tenant, event_id, timeslot_id, [venue.ticket_type["id"]])
    profile = await create_profile(client, tenant, event_ids=[event_id], closes_minutes_after_end=5)
    await create_scanner(client, tenant, profile_id=profile["id"])
    webhook = ok(
        await client.post(
            "/webhooks",
            json={"url": "https://127.0.0.1:9/h", "event_types": ["order.created"]},
            headers=tenant.headers,
        ),
        201,
    )
    tickets = ok(await client.get(f"/events/{event_id}/tickets", headers=tenant.headers))["data"]

    await compare(client, tenant, "/whoami", "viewer", is_page=False)
    await compare(
        client,
        tenant,
        "/events",
        "events",
        params={"sort": "title:asc"},
        arguments='sort: "title:asc"',
    )
    await compare(
        client, tenant, f"/events/{event_id}", "event", arguments=f'id: "{event_id}"', is_page=False
    )
    await compare(
        client,
        tenant,
        f"/events/{event_id}/ticket_types",
        "ticketTypes",
        arguments=f'eventId: "{event_id}"',
    )
    await compare(
        client,
        tenant,
        f"/events/{event_id}/timeslots",
        "timeslots",
        params={"sort": "starts_at:asc", "limit": 1, "offset": 1},
        arguments=f'eventId: "{event_id}", sort: "starts_at:asc", limit: 1, offset: 1',
    )
    await compare(
        client,
        tenant,
        f"/events/{event_id}/timeslots",
        "timeslots",
        params={"from": "2030-06-01T12:00:00+02:00", "until": "2030-06-01T20:00:00Z"},
        arguments=f'eventId: "{event_id}", from: "2030-06-01T12:00:00+02:00", '
        'until: "2030-06-01T20:00:00Z"',
    )
    await compare(
        client,
        tenant,
        f"/events/{event_id}/tickets",
        "tickets",
        params={"order_id": order["id"], "sort": "owner_name:desc"},
        arguments=f'eventId: "{event_id}", orderId: "{order["id"]}", sort: "owner_name:desc"',
    )
    for ticket in tickets:
        await compare(
            client,
            tenant,
            f"/tickets/{ticket['id']}",
            "ticket",
            arguments=f'id: "{ticket["id"]}"',
            is_page=False,
        )
    await compare(
        client,
        tenant,
        "/orders",
        "orders",
        params={"event_id": event_id, "limit": 1},
        arguments=f'eventId: "{event_id}", limit: 1',
    )
    await compare(
        client,
        tenant,
        f"/orders/{order['id']}",
        "order",
        arguments=f'id: "{order["id"]}"',
        is_page=False,
    )
    await compare(client, tenant, "/webhooks", "webhooks")
    await compare(client, tenant, "/scanners", "scanners")
    await compare(client, tenant, "/scanner_profiles", "scannerProfiles")
    empty = ok(await client.get(f"/webhooks/{webhook['id']}/deliveries", headers=tenant.headers))
    graph = gql_data(
        await graphql(
            client,
            tenant.headers,
            f'{{ webhookDeliveries(webhookId: "{webhook["id"]}") '
            "{ pagination { total limit offset hasMore nextAfter } } }",
        )
    )
    assert graph["webhookDeliveries"]["pagination"] == camel(empty["pagination"])


SCAN_FIELDS = (
    "ticketId status reason scannedBefore ownerName ownerEmail seat scannedAt cancelledAt "
    f"event {{ {NESTED['event']} }} timeslot {{ {NESTED['timeslot']} }} "
    f"ticketType {{ {NESTED['ticket_type']} }} relatedTickets {{ {NESTED['related_tickets']} }}"
)


async def scan_both_ways(
    client: AsyncClient, tenant: Tenant, ticket_id: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    rest = ok(await client.post(f"/tickets/{ticket_id}/scan", json={}, headers=tenant.headers))
    graph = gql_data(
        await graphql(
            client,
            tenant.headers,
            f"mutation($id: ID!) {{ scanTicket(ticketId: $id) {{ {SCAN_FIELDS} }} }}",
            {"id": ticket_id},
        )
    )["scanTicket"]
    return camel(rest), graph


async def test_a_scan_gives_the_same_outcome_and_fields_through_rest_and_graphql(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, order_scanning_enabled=True)
    await create_scanner(client, tenant)
    ids = (venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 3)
    pending = await place_order(client, tenant, *ids)
    paid = await place_order(client, tenant, *ids, confirm=True)

    async def tickets_of(order: dict[str, Any]) -> list[dict[str, Any]]:
        return ok(
            await client.get(
                f"/events/{venue.event['id']}/tickets",
                params={"order_id": order["id"], "sort": "sequence:asc"},
                headers=tenant.headers,
            )
        )["data"]

    waiting = (await tickets_of(pending))[0]
    rest, graph = await scan_both_ways(client, tenant, waiting["id"])
    assert rest["status"] == "not_allowed" and rest["reason"] == "order_not_confirmed"
    assert graph == rest

    first, second, third = await tickets_of(paid)
    ok(await client.post(f"/tickets/{third['id']}/cancel", headers=tenant.headers))
    rest, graph = await scan_both_ways(client, tenant, third["id"])
    assert rest["status"] == "cancelled" and graph == rest

    rest_valid = camel(
        ok(await client.post(f"/tickets/{first['id']}/scan", json={}, headers=tenant.headers))
    )
    graph_valid = gql_data(
        await graphql(
            client,
            tenant.headers,
            f"mutation($id: ID!) {{ scanTicket(ticketId: $id) {{ {SCAN_FIELDS} }} }}",
            {"id": second["id"]},
        )
    )["scanTicket"]
    assert rest_valid["status"] == graph_valid["status"] == "valid"
    per_ticket = {"ticketId", "scannedAt", "relatedTickets"}
    assert {k: v for k, v in graph_valid.items() if k not in per_ticket} == {
        k: v for k, v in rest_valid.items() if k not in per_ticket
    }
    assert set(graph_valid) == set(rest_valid)

    rest, graph = await scan_both_ways(client, tenant, first["id"])
    assert rest["status"] == "scanned" and rest["scannedBefore"] is True
    assert graph == rest and graph["scannedAt"] == rest_valid["scannedAt"]


async def test_the_delivery_log_is_the_same_through_rest_and_graphql(
    client: AsyncClient, tenant: Tenant
) -> None:
    webhook = ok(
        await client.post(
            "/webhooks",
            json={"url": "https://127.0.0.1:9/h", "event_types": ["order.created"]},
            headers=tenant.headers,
        ),
        201,
    )
    for n in range(3):
        await emit(tenant, "order.created", {"n": n})
    await relay_refs(tenant)
    rest = ok(await client.get(f"/webhooks/{webhook['id']}/deliveries", headers=tenant.headers))
    assert rest["pagination"]["total"] == 3
    fields = selection({k: v for k, v in rest["data"][0].items() if k != "attempt_log"})
    attempts = "attemptLog { attempt statusCode error durationMs startedAt }"
    data = gql_data(
        await graphql(
            client,
            tenant.headers,
            f"""query($id: ID!) {{ webhookDeliveries(webhookId: $id) {{
                  items {{ {fields} {attempts} }}
                  pagination {{ total limit offset hasMore nextAfter }}
                }} }}""",
            {"id": webhook["id"]},
        )
    )
    assert data["webhookDeliveries"] == as_graphql_page(rest)
