"""The filters integrations need (CONTRACT.md sections 2 and 11): each works through REST and
GraphQL alike, refuses a bad value with a 400 naming it, is documented with its bounds, and is
served by an index."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from httpx import AsyncClient

from app.resources import Resource
from app.services.orders import ORDERS
from app.services.tickets import TICKETS
from app.services.timeslots import TIMESLOTS
from db.tables import Order, Ticket
from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_scanner,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    ok,
    operation,
    order_tickets,
    place_order,
    problem,
)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


class Sales:
    """Two events; orders of two buyers in each state; tickets valid, scanned and cancelled."""

    async def open(self, client: AsyncClient, tenant: Tenant) -> Sales:
        self.client, self.tenant = client, tenant
        self.venue = await create_venue(client, tenant)
        self.other = await create_venue(client, tenant)
        self.event_id = self.venue.event["id"]
        slot, kind = self.venue.timeslot["id"], self.venue.ticket_type["id"]
        self.pending = await place_order(
            client, tenant, self.event_id, slot, [kind], buyer_email="Pat@Example.com"
        )
        self.confirmed = await place_order(
            client, tenant, self.event_id, slot, [kind, kind], confirm=True,
            tickets=[{"ticket_type_id": kind, "owner_email": "Kim@Example.com"},
                     {"ticket_type_id": kind}],
        )  # fmt: skip
        self.cancelled = await place_order(client, tenant, self.event_id, slot, [kind])
        ok(await client.post(f"/orders/{self.cancelled['id']}/cancel", headers=tenant.headers))
        self.elsewhere = await place_order(
            client, tenant, self.other.event["id"], self.other.timeslot["id"],
            [self.other.ticket_type["id"]], buyer_email="pat@example.com",
        )  # fmt: skip
        self.kim, self.buyer = await order_tickets(client, tenant, self.confirmed)
        await create_scanner(client, tenant)
        ok(
            await client.post(
                "/scans", json={"scannable_code": self.kim["scannable_code"]},
                headers=tenant.headers,
            )
        )  # fmt: skip
        return self

    async def orders(self, **params: Any) -> list[str]:
        page = ok(await self.client.get("/orders", params=params, headers=self.tenant.headers))
        return sorted(order["id"] for order in page["data"])

    async def tickets(self, **params: Any) -> list[str]:
        page = ok(
            await self.client.get(
                f"/events/{self.event_id}/tickets", params=params, headers=self.tenant.headers
            )
        )
        return sorted(ticket["id"] for ticket in page["data"])

    async def graphql_orders(self, **filters: Any) -> list[str]:
        """The ids GraphQL's order list gives for the same filters (in camelCase)."""
        variables = {camel(name): value for name, value in filters.items()}
        data = gql_data(
            await graphql(self.client, self.tenant.headers, operation("FilteredOrders"), variables)
        )
        return sorted(order["id"] for order in data["orders"]["items"])

    async def graphql_tickets(self, **filters: Any) -> tuple[list[str], list[str]]:
        """The ids GraphQL's root and nested ticket lists give for the same filters."""
        variables = {"eventId": self.event_id} | {camel(k): v for k, v in filters.items()}
        data = gql_data(
            await graphql(self.client, self.tenant.headers, operation("FilteredTickets"), variables)
        )
        return (
            sorted(t["id"] for t in data["tickets"]["items"]),
            sorted(t["id"] for t in data["event"]["tickets"]["items"]),
        )


def ids(*records: dict[str, Any]) -> list[str]:
    return sorted(record["id"] for record in records)


async def test_order_filters_through_rest_and_graphql(client: AsyncClient, tenant: Tenant) -> None:
    sales = await Sales().open(client, tenant)
    start = sales.pending["created_at"]
    cases: list[tuple[dict[str, Any], list[str]]] = [
        ({"status": "pending"}, ids(sales.pending, sales.elsewhere)),
        ({"status": "confirmed"}, ids(sales.confirmed)),
        ({"status": "cancelled"}, ids(sales.cancelled)),
        ({"buyer_email": "PAT@example.COM"}, ids(sales.pending, sales.elsewhere)),
        ({"buyer_email": "pat@example.com", "event_id": sales.event_id}, ids(sales.pending)),
        ({"created_since": start}, ids(sales.pending, sales.confirmed, sales.cancelled,
                                       sales.elsewhere)),
        ({"created_since": sales.confirmed["created_at"],
          "created_until": sales.cancelled["created_at"]}, ids(sales.confirmed)),
        ({"created_until": start}, []),
        ({"status": "confirmed", "buyer_email": "pat@example.com"}, []),
    ]  # fmt: skip
    for params, expected in cases:
        assert await sales.orders(**params) == expected, params
        assert await sales.graphql_orders(**params) == expected, params


async def test_ticket_filters_through_rest_and_graphql(client: AsyncClient, tenant: Tenant) -> None:
    sales = await Sales().open(client, tenant)
    cancelled = (await order_tickets(client, tenant, sales.cancelled))[0]
    (pending,) = await order_tickets(client, tenant, sales.pending)
    cases: list[tuple[dict[str, Any], list[str]]] = [
        ({"status": "scanned"}, ids(sales.kim)),
        ({"status": "cancelled"}, ids(cancelled)),
        ({"status": "valid"}, ids(pending, sales.buyer)),
        ({"scannable_code": sales.buyer["scannable_code"]}, ids(sales.buyer)),
        ({"scannable_code": "NOSUCHCODE"}, []),
        ({"owner_email": "kim@EXAMPLE.com"}, ids(sales.kim)),
        ({"owner_email": "ada@example.com", "status": "valid"}, ids(sales.buyer)),
        ({"order_id": sales.confirmed["id"], "status": "valid"}, ids(sales.buyer)),
    ]
    for params, expected in cases:
        assert await sales.tickets(**params) == expected, params
        assert await sales.graphql_tickets(**params) == (expected, expected), params


BAD_VALUES = [
    ("/orders", "status", "paid"),
    ("/orders", "buyer_email", "x" * 321),
    ("/orders", "created_since", "yesterday"),
    ("/orders", "created_until", f"{YEAR}-06-01T18:00:00"),
    ("/orders", "updated_since", f"{YEAR}-02-30T00:00:00Z"),
    ("/orders", "event_id", "not-a-uuid"),
    ("tickets", "status", "used"),
    ("tickets", "scannable_code", "x" * 65),
    ("tickets", "owner_email", ""),
    ("tickets", "updated_since", "1700000000"),
    ("tickets", "order_id", "42"),
]


@pytest.mark.parametrize(("path", "name", "value"), BAD_VALUES)
async def test_a_bad_filter_value_is_a_400_naming_it(
    client: AsyncClient, tenant: Tenant, path: str, name: str, value: str
) -> None:
    venue = await create_venue(client, tenant)
    if path == "tickets":
        path = f"/events/{venue.event['id']}/tickets"
    body = problem(await client.get(path, params={name: value}, headers=tenant.headers), 400)
    assert [error["field"] for error in body["errors"]] == [name], body


async def test_graphql_refuses_bad_filter_values_as_bad_user_input(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    for name, variables in (
        ("FilteredOrders", {"status": "paid"}),
        ("FilteredOrders", {"updatedSince": f"{YEAR}-06-01T18:00:00"}),
        ("FilteredTickets", {"eventId": venue.event["id"], "ownerEmail": ""}),
    ):
        body = await graphql(client, tenant.headers, operation(name), variables)
        assert gql_error_codes(body), body
        assert set(gql_error_codes(body)) == {"BAD_USER_INPUT"}, body


async def test_filters_are_documented_with_their_bounds(client: AsyncClient) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    orders = {p["name"]: p for p in document["paths"]["/orders"]["get"]["parameters"]}
    status = orders["status"]["schema"]["oneOf"][0]["$ref"].rsplit("/", 1)[1]  # OrderStatus
    statuses = document["components"]["schemas"][status]["enum"]
    assert statuses == ["pending", "confirmed", "cancelled"]
    assert orders["buyer_email"]["schema"]["maxLength"] == 320
    for name in ("created_since", "created_until", "updated_since"):
        assert orders[name]["schema"]["format"] == "date-time", name
        assert orders[name]["description"], name
    tickets = {
        p["name"]: p for p in document["paths"]["/events/{event_id}/tickets"]["get"]["parameters"]
    }
    assert tickets["scannable_code"]["schema"]["maxLength"] == 64
    assert tickets["order_id"]["schema"]["format"] == "uuid"
    assert tickets["updated_since"]["schema"]["format"] == "date-time"
    assert "updated_at:desc" in tickets["sort"]["schema"]["enum"]
    timeslots = document["paths"]["/events/{event_id}/timeslots"]["get"]["parameters"]
    assert {"from", "until"} <= {p["name"] for p in timeslots}


SCOPES = {
    TICKETS: {"organization_id", "event_id", "order_id"},
    ORDERS: {"organization_id", "event_id"},
    TIMESLOTS: {"organization_id", "event_id"},
}
"""The columns each list is narrowed by: its organization (always), or a parent."""


@pytest.mark.parametrize("resource", list(SCOPES), ids=lambda r: r.kind)
async def test_every_filter_and_sort_is_served_by_an_index(
    database: Any, resource: Resource[Any]
) -> None:
    """Each filter column and sort field is the first or the second column (after a column the
    list is narrowed by) of an index, so that a filtered or sorted page is an index range scan."""
    rows = await Order.raw(
        "SELECT indexdef FROM pg_indexes WHERE tablename = {}", resource.table._meta.tablename
    )
    indexed = []
    for row in rows:
        columns = row["indexdef"].split("(", 1)[1].rstrip(")").split(", ")
        indexed.append([column.strip('"') for column in columns])
    columns = {f.column for f in resource.filters.values()} | set(resource.sort_fields)
    for column in columns:
        assert any(
            c[0] == column or (c[0] in SCOPES[resource] and c[1:2] == [column]) for c in indexed
        ), (resource.kind, column)


async def test_updated_at_is_stamped_on_rows_written_without_it(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Rows copied in by other tools (the benchmarks' COPY) get ``updated_at`` from the column's
    default, so sync never misses them."""
    sales = await Sales().open(client, tenant)
    before = datetime.now(UTC) - timedelta(seconds=1)
    await Ticket.raw(
        "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, ticket_type_id, "
        "order_id, scannable_code, owner_name, owner_email, sequence, status, swappable, "
        "metadata, metadata_fields, created_at) SELECT gen_random_uuid(), organization_id, "
        "event_id, event_timeslot_id, ticket_type_id, order_id, 'COPIEDIN', owner_name, "
        "owner_email, 9, 'valid', false, {}, {}, created_at FROM tickets WHERE id = {}",
        "{}",
        "[]",
        sales.buyer["id"],
    )
    found = ok(
        await client.get(
            f"/events/{sales.event_id}/tickets",
            params={"scannable_code": "COPIEDIN", "updated_since": before.isoformat()},
            headers=tenant.headers,
        )
    )["data"]
    assert len(found) == 1
