"""One rule, two transports: every read gives the same data through REST and GraphQL, and a scan
gives the same outcome and fields.

The GraphQL documents (``graphql/operations/*Records.graphql``, ``ScanTicketRecord.graphql``)
select every field of each record, and the comparison is by equality: a field that exists in one
transport and not in the other, or not in the document, fails it. A new record field goes into
its document too.
"""

from __future__ import annotations

import re
from typing import Any

from httpx import AsyncClient

from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    create_venue,
    gql_data,
    graphql,
    ok,
    operation,
    place_order,
)
from tests.webhooks.support import emit, relay_refs

SCALAR_OBJECTS = {"metadata"}
"""Free-form maps: their keys are data, spelled as sent."""


def camel_key(key: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key)


def camel(value: Any, key: str | None = None) -> Any:
    """A REST body in GraphQL's spelling (the keys of a free-form ``metadata`` map are data)."""
    if isinstance(value, dict) and key not in SCALAR_OBJECTS:
        return {camel_key(k): camel(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [camel(item, key) for item in value]
    return value


def as_graphql(body: dict[str, Any]) -> dict[str, Any]:
    """A REST record or page in GraphQL's shape (a page's ``data`` is its ``items``)."""
    if set(body) == {"data", "pagination"}:
        assert body["data"], "parity needs at least one item to compare"
        return {"items": camel(body["data"]), "pagination": camel(body["pagination"])}
    return camel(body)


async def compare(
    client: AsyncClient,
    tenant: Tenant,
    document: str,
    variables: dict[str, Any],
    **reads: str | tuple[str, dict[str, Any]],
) -> None:
    """Run ``document`` and compare each of its root fields with the REST read named for it: a
    path, or a path and its query parameters."""
    data = gql_data(await graphql(client, tenant.headers, operation(document), variables))
    assert set(data) == set(reads), f"{document} reads {sorted(data)}"
    for field, read in reads.items():
        path, params = read if isinstance(read, tuple) else (read, None)
        rest = ok(await client.get(path, params=params, headers=tenant.headers))
        assert data[field] == as_graphql(rest), f"{path} and {document}.{field} differ"


async def test_every_read_gives_the_same_data_through_rest_and_graphql(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, location="Hall", order_scanning_enabled=True)
    event_id, timeslot_id = venue.event["id"], venue.timeslot["id"]
    ok(
        await client.post(
            f"/events/{event_id}/timeslots",
            json={
                "title": "Matinee", "starts_at": f"{YEAR}-06-01T12:00:00+02:00",
                "ends_at": f"{YEAR}-06-01T15:00:00Z", "total_available": 10,
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
    ok(
        await client.post(
            "/webhooks",
            json={"url": "https://127.0.0.1:9/h", "event_types": ["order.created"]},
            headers=tenant.headers,
        ),
        201,
    )
    tickets = ok(await client.get(f"/events/{event_id}/tickets", headers=tenant.headers))["data"]

    await compare(client, tenant, "Viewer", {}, viewer="/whoami")
    await compare(
        client,
        tenant,
        "EventRecords",
        {"id": event_id, "sort": "title:asc"},
        events=("/events", {"sort": "title:asc"}),
        event=f"/events/{event_id}",
    )
    await compare(
        client,
        tenant,
        "TicketTypeRecords",
        {"eventId": event_id},
        ticketTypes=f"/events/{event_id}/ticket_types",
    )
    for params in (
        {"sort": "starts_at:asc", "limit": 1, "offset": 1},
        {"from": f"{YEAR}-06-01T12:00:00+02:00", "until": f"{YEAR}-06-01T20:00:00Z"},
    ):
        await compare(
            client,
            tenant,
            "TimeslotRecords",
            {"eventId": event_id, **params},
            timeslots=(f"/events/{event_id}/timeslots", params),
        )
    for ticket in tickets:
        await compare(
            client,
            tenant,
            "TicketRecords",
            {
                "eventId": event_id,
                "orderId": order["id"],
                "sort": "owner_name:desc",
                "id": ticket["id"],
            },
            tickets=(
                f"/events/{event_id}/tickets",
                {"order_id": order["id"], "sort": "owner_name:desc"},
            ),
            ticket=f"/tickets/{ticket['id']}",
        )
    await compare(
        client,
        tenant,
        "OrderRecords",
        {"eventId": event_id, "limit": 1, "id": order["id"]},
        orders=("/orders", {"event_id": event_id, "limit": 1}),
        order=f"/orders/{order['id']}",
    )
    await compare(client, tenant, "WebhookRecords", {}, webhooks="/webhooks")
    await compare(
        client,
        tenant,
        "ScannerRecords",
        {},
        scanners="/scanners",
        scannerProfiles="/scanner_profiles",
    )


async def scan_both_ways(
    client: AsyncClient, tenant: Tenant, ticket_id: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    rest = ok(await client.post(f"/tickets/{ticket_id}/scan", json={}, headers=tenant.headers))
    graph = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("ScanTicketRecord"),
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
            operation("ScanTicketRecord"),
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
    for _ in range(3):
        await emit(tenant, "order.created")
    await relay_refs(tenant)
    rest = ok(await client.get(f"/webhooks/{webhook['id']}/deliveries", headers=tenant.headers))
    assert rest["pagination"]["total"] == 3
    await compare(
        client,
        tenant,
        "DeliveryRecords",
        {"webhookId": webhook["id"]},
        webhookDeliveries=f"/webhooks/{webhook['id']}/deliveries",
    )
