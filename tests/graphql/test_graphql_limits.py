"""GraphQL protection and efficiency: depth, aliases and cost limits; a fixed statement count."""

from __future__ import annotations

from httpx import AsyncClient

from graphql_api.limits import MAX_ALIASES, MAX_COST, MAX_DEPTH
from tests.statements import count_statements
from tests.support import (
    Tenant,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    operation,
    place_order,
)


async def test_orders_with_event_timeslot_and_tickets_cost_a_fixed_number_of_statements(
    client: AsyncClient, tenant: Tenant
) -> None:
    venues = [await create_venue(client, tenant, title=f"Event {i}") for i in range(3)]
    for i in range(25):
        venue = venues[i % 3]
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
        )
    counts = {}
    for limit in (5, 25):
        with count_statements() as counter:
            data = gql_data(
                await graphql(
                    client, tenant.headers, operation("OrdersWithRelations"), {"limit": limit}
                )
            )
        orders = data["orders"]["items"]
        assert len(orders) == limit and data["orders"]["pagination"]["total"] == 25
        assert all(len(order["tickets"]["items"]) == 2 for order in orders)
        assert {order["event"]["title"] for order in orders} == {"Event 0", "Event 1", "Event 2"}
        assert all(
            ticket["order"]["id"] == order["id"] and ticket["ticketType"]["name"] == "Regular"
            for order in orders
            for ticket in order["tickets"]["items"]
        )
        queries = [sql for sql in counter.statements if "pg_advisory_unlock_all" not in sql]
        counts[limit] = len(queries)
    # The credential, the orders page and its count, their events, timeslots and the timeslots'
    # ticket types, the tickets pages with their counts (one statement), the tickets' ticket types
    # and orders: the same for 5 orders as for 25.
    assert counts[5] == counts[25], counts
    assert counts[25] <= 11, "\n".join(sql[:90] for sql in queries)


def nested(depth: int) -> str:
    """A query ``depth`` levels deep: order -> tickets -> items -> order -> ..."""
    query = "id"
    for level in range(depth):
        query = f"order {{ {query} }}" if level % 2 == 0 else f"tickets {{ items {{ {query} }} }}"
    return f'{{ ticket(id: "00000000-0000-4000-8000-000000000000") {{ {query} }} }}'


async def test_a_query_deeper_than_the_limit_is_rejected(
    client: AsyncClient, tenant: Tenant
) -> None:
    deep = await graphql(client, tenant.headers, nested(MAX_DEPTH + 2))
    assert set(gql_error_codes(deep)) == {"GRAPHQL_VALIDATION_FAILED"} and deep["data"] is None
    assert "exceeds maximum operation depth" in deep["errors"][0]["message"]
    shallow = await graphql(client, tenant.headers, nested(3))
    assert gql_error_codes(shallow) == ["NOT_FOUND"]


async def test_too_many_aliases_are_rejected(client: AsyncClient, tenant: Tenant) -> None:
    fields = " ".join(f"a{i}: viewer {{ email }}" for i in range(MAX_ALIASES + 1))
    body = await graphql(client, tenant.headers, f"{{ {fields} }}")
    assert gql_error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]
    assert "aliases" in body["errors"][0]["message"]
    few = " ".join(f"a{i}: viewer {{ email }}" for i in range(3))
    assert set(gql_data(await graphql(client, tenant.headers, f"{{ {few} }}"))) == {
        "a0",
        "a1",
        "a2",
    }


COSTLY = """
query($outer: Int, $inner: Int) {
  events(limit: $outer) {
    items { orders(limit: $inner) { items { tickets(limit: 100) { items { id } } } } }
  }
}
"""


async def test_a_query_that_may_return_too_many_items_is_rejected(
    client: AsyncClient, tenant: Tenant
) -> None:
    body = await graphql(client, tenant.headers, COSTLY, {"outer": 100, "inner": 100})
    assert gql_error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"] and body["data"] is None
    assert f"the limit is {MAX_COST}" in body["errors"][0]["message"]
    # 10 + 10 * 10 + 10 * 10 * 100 items is within the limit.
    small = await graphql(client, tenant.headers, COSTLY, {"outer": 10, "inner": 10})
    assert gql_data(small)["events"] == {"items": []}


async def test_page_size_has_the_rest_bounds(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    body = await graphql(
        client,
        tenant.headers,
        """query($id: ID!) { event(id: $id) { title tickets(limit: 101) { items { id } } } }""",
        {"id": venue.event["id"]},
    )
    assert body["data"] == {"event": {"title": "Concert", "tickets": None}}
    assert gql_error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["errors"][0]["field"] == "limit"


async def test_an_oversized_document_is_not_parsed(client: AsyncClient, tenant: Tenant) -> None:
    fields = " ".join(["__typename"] * 6_000)
    body = await graphql(client, tenant.headers, f"{{ {fields} }}")
    assert gql_error_codes(body) == ["GRAPHQL_PARSE_FAILED"] and body["data"] is None
    assert "tokens" in body["errors"][0]["message"]


NESTED_PAGES = """
query($l: Int = 100) {
  events(limit: $l) {
    items { orders(limit: $l) { items { tickets(limit: $l) { items { id } } } } }
  }
}
"""


async def test_cost_counts_the_page_size_graphql_runs_with(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A variable's default and a float variable value are the limits graphql-core applies, so
    they are what the cost counts (a literal-only reading costed both as the default 25)."""
    for variables in ({}, {"l": 100.0}, {"l": 100}):
        body = await graphql(client, tenant.headers, NESTED_PAGES, variables)
        assert gql_error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"], (variables, body)
        assert body["data"] is None and f"the limit is {MAX_COST}" in body["errors"][0]["message"]
    small = await graphql(client, tenant.headers, NESTED_PAGES, {"l": 10.0})
    assert gql_data(small)["events"] == {"items": []}


async def test_cost_counts_list_fields_without_a_limit(client: AsyncClient, tenant: Tenant) -> None:
    """``Timeslot.ticketTypes`` takes no ``limit``: each timeslot may list up to a page of them."""
    query = """
    query($l: Int!) {
      events(limit: $l) {
        items { timeslots(limit: $l) { items { ticketTypes { id name } } } }
      }
    }
    """
    body = await graphql(client, tenant.headers, query, {"l": 100})
    assert gql_error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"], body
    venue = await create_venue(client, tenant)
    small = gql_data(await graphql(client, tenant.headers, query, {"l": 10}))
    [event] = small["events"]["items"]
    assert event["timeslots"]["items"][0]["ticketTypes"][0]["id"] == venue.ticket_type["id"]


TICKETS_PAGE = """
tickets(limit: 3, offset: $offset) {
  items { id orderId status sequence ownerName scannedAt order { id buyerName totalPrice status } }
  pagination { total limit offset hasMore }
}
"""
PAGE_OF_EVENTS = f"query($offset: Int) {{ events {{ items {{ id {TICKETS_PAGE} }} }} }}"
ONE_EVENTS_PAGE = f"query($id: ID!, $offset: Int) {{ event(id: $id) {{ {TICKETS_PAGE} }} }}"


async def test_one_events_page_reads_the_event_its_tickets_total_and_orders_in_one_statement(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The event, its page of tickets with the total and the tickets' orders are one statement
    (``graphql_api.prefetch``), and the page answers what the page of many parents answers: at
    every offset, past the end too."""
    venue = await create_venue(client, tenant)
    await create_venue(client, tenant, title="Empty")
    for buyer in ("Ada", "Grace"):
        await place_order(
            client,
            tenant,
            venue.event["id"],
            venue.timeslot["id"],
            [venue.ticket_type["id"]] * 2,
            buyer_name=buyer,
        )
    for offset in (0, 3, 4, 10):
        with count_statements() as counter:
            one = gql_data(
                await graphql(
                    client,
                    tenant.headers,
                    ONE_EVENTS_PAGE,
                    {"id": venue.event["id"], "offset": offset},
                )
            )["event"]["tickets"]
        [statement] = counter.statements
        assert '"events"' in statement and '"orders"' in statement, statement
        many = gql_data(await graphql(client, tenant.headers, PAGE_OF_EVENTS, {"offset": offset}))
        by_event = {event["id"]: event["tickets"] for event in many["events"]["items"]}
        assert len(by_event) == 2
        assert one == by_event[venue.event["id"]]
        assert one["pagination"] == {
            "total": 4, "limit": 3, "offset": offset, "hasMore": offset + 3 < 4
        }  # fmt: skip
        assert len(one["items"]) == max(0, min(3, 4 - offset))
        assert all(
            item["order"]["id"] == item["orderId"]
            and item["order"]["buyerName"] in {"Ada", "Grace"}
            for item in one["items"]
        )
        empty = [tickets for event_id, tickets in by_event.items() if event_id != venue.event["id"]]
        assert empty == [
            {
                "items": [],
                "pagination": {"total": 0, "limit": 3, "offset": offset, "hasMore": False},
            }
        ]


async def test_a_page_joins_no_relation_its_caller_may_not_read(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    headers = await key_for(tenant, ["events.read", "tickets.read"])
    with count_statements() as counter:
        body = await graphql(client, headers, ONE_EVENTS_PAGE, {"id": venue.event["id"]})
    assert body["data"]["event"]["tickets"]["items"][0]["order"] is None
    assert gql_error_codes(body) == ["FORBIDDEN"]
    assert not [sql for sql in counter.statements if '"orders"' in sql]
