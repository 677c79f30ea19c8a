"""Keyset pages: ``after`` (a page's ``next_after``) walks a list in the order of its offset
pages, fast at any depth (docs/decisions.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support import (
    Tenant,
    create_venue,
    gql_data,
    graphql,
    ok,
    place_order,
    problem,
)

TICKETS = 9


@pytest.fixture
async def event_with_tickets(client: httpx.AsyncClient, tenant: Tenant) -> str:
    venue = await create_venue(client, tenant)
    for count in (4, 3, 2):  # three orders: equal created_at within each, so ids break ties
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"],
            [venue.ticket_type["id"]] * count,
        )  # fmt: skip
    return str(venue.event["id"])


async def walk(
    client: httpx.AsyncClient, tenant: Tenant, path: str, **params: Any
) -> tuple[list[str], list[dict[str, Any]]]:
    """Every id of a list by ``after``, two at a time, and each page's pagination."""
    ids: list[str] = []
    seen: list[dict[str, Any]] = []
    after = None
    while True:
        query = {**params, "limit": 2, **({"after": after} if after else {})}
        page = ok(await client.get(path, params=query, headers=tenant.headers))
        ids += [row["id"] for row in page["data"]]
        seen.append(page["pagination"])
        after = page["pagination"]["next_after"]
        if after is None:
            return ids, seen


@pytest.mark.parametrize(
    "sort",
    [None, "created_at:asc", "sequence:asc", "sequence:desc", "owner_name:asc", "status:desc"],
)
async def test_after_walks_the_tickets_in_the_order_of_offset_pages(
    client: httpx.AsyncClient, tenant: Tenant, event_with_tickets: str, sort: str | None
) -> None:
    path = f"/events/{event_with_tickets}/tickets"
    params = {"sort": sort} if sort else {}
    everything = ok(await client.get(path, params={**params, "limit": 100}, headers=tenant.headers))
    ids, pages = await walk(client, tenant, path, **params)
    assert ids == [row["id"] for row in everything["data"]] and len(ids) == TICKETS
    assert [p["has_more"] for p in pages] == [True] * 4 + [False]
    assert {p["total"] for p in pages} == {TICKETS}


async def test_after_walks_the_orders_and_the_graphql_lists_too(
    client: httpx.AsyncClient, tenant: Tenant, event_with_tickets: str
) -> None:
    ids, _ = await walk(
        client, tenant, "/orders", event_id=event_with_tickets, sort="buyer_name:asc"
    )
    assert len(set(ids)) == 3
    query = """query($event: ID!, $after: String) {
        tickets(eventId: $event, limit: 5, sort: "sequence:asc", after: $after) {
            items { id } pagination { total hasMore nextAfter } } }"""
    first = gql_data(await graphql(client, tenant.headers, query, {"event": event_with_tickets}))
    after = first["tickets"]["pagination"]["nextAfter"]
    second = gql_data(
        await graphql(client, tenant.headers, query, {"event": event_with_tickets, "after": after})
    )
    rest = ok(
        await client.get(
            f"/events/{event_with_tickets}/tickets",
            params={"sort": "sequence:asc", "limit": 100},
            headers=tenant.headers,
        )
    )
    got = [t["id"] for t in first["tickets"]["items"] + second["tickets"]["items"]]
    assert got == [t["id"] for t in rest["data"]]
    assert second["tickets"]["pagination"] == {
        "total": TICKETS,
        "hasMore": False,
        "nextAfter": None,
    }


async def test_a_bad_after_is_a_400_naming_it(
    client: httpx.AsyncClient, tenant: Tenant, event_with_tickets: str
) -> None:
    path = f"/events/{event_with_tickets}/tickets"
    first = ok(await client.get(path, params={"limit": 2}, headers=tenant.headers))
    after = first["pagination"]["next_after"]
    for params in (
        {"after": after, "offset": 2},
        {"after": after, "sort": "sequence:asc"},
        {"after": "not-a-cursor"},
        {"after": after[:-3]},
        {"after": "x" * 600},
    ):
        body = problem(await client.get(path, params=params, headers=tenant.headers), 400)
        assert "after" in body["detail"], body
    scanned = ok(
        await client.get(
            path, params={"limit": 2, "sort": "scanned_at:asc"}, headers=tenant.headers
        )
    )
    body = problem(
        await client.get(
            path,
            params={"sort": "scanned_at:asc", "after": scanned["pagination"]["next_after"]},
            headers=tenant.headers,
        ),
        400,
    )
    assert "use offset" in body["detail"]
