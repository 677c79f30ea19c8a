"""Holds (CONTRACT.md section 16): taking places, reading, releasing, expiring, idempotency, and
the capacity invariant under a rush of holds and orders on one timeslot through two servers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import httpx
import pytest
from httpx import AsyncClient

from db.tables import Hold
from tests.processes import serving
from tests.sales.onsale import Figures, counted, expire, hold_body
from tests.support import (
    Tenant,
    create_ticket_type,
    create_venue,
    gql_data,
    graphql,
    ok,
    operation,
    place_order,
    problem,
)

BUYER = {
    "buyer_name": "Ada Buyer",
    "buyer_email": "ada@example.com",
    "channel": "online",
    "payment_method": "card",
}


async def test_a_hold_takes_places_until_released(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    hold = ok(await client.post("/holds", json=hold_body(venue, 3), headers=tenant.headers), 201)
    assert set(hold) == {
        "id", "event_id", "event_timeslot_id", "status", "tickets", "expires_at", "created_at"
    }  # fmt: skip
    assert hold["status"] == "active" and hold["expires_at"].endswith("Z")
    assert hold["tickets"] == [{"ticket_type_id": venue.ticket_type["id"]}] * 3
    assert ok(await client.get(f"/holds/{hold['id']}", headers=tenant.headers)) == hold
    assert await counted(venue.timeslot["id"]) == Figures(5, 0, 3, 0, 3)

    sold_out = problem(
        await client.post("/holds", json=hold_body(venue, 3), headers=tenant.headers), 409
    )
    assert sold_out["type"] == "/problems/sold-out" and "2 places left" in sold_out["detail"]
    order_refused = problem(
        await client.post(
            "/orders",
            json={
                "event_id": venue.event["id"],
                "event_timeslot_id": venue.timeslot["id"],
                "buyer_name": "Ada",
                "buyer_email": "ada@example.com",
                "channel": "online",
                "payment_method": "card",
                "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * 3,
            },
            headers=tenant.headers,
        ),
        409,
    )
    assert order_refused["type"] == "/problems/sold-out"

    released = ok(await client.delete(f"/holds/{hold['id']}", headers=tenant.headers))
    assert released == {**hold, "status": "released"}
    assert ok(await client.delete(f"/holds/{hold['id']}", headers=tenant.headers)) == released
    assert await counted(venue.timeslot["id"]) == Figures(5, 0, 0, 0, 0)
    ok(await client.post("/holds", json=hold_body(venue, 5), headers=tenant.headers), 201)


async def test_an_expired_hold_stops_counting_without_a_job(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=4)
    first = ok(await client.post("/holds", json=hold_body(venue, 4), headers=tenant.headers), 201)
    await expire(first["id"])
    assert ok(await client.get(f"/holds/{first['id']}", headers=tenant.headers))["status"] == (
        "expired"
    )
    # Readers leave it out before any writer has marked it.
    assert await counted(venue.timeslot["id"]) == Figures(4, 0, 0, 0, 0)
    # A writer that needs the places marks it and takes them.
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    assert order["status"] == "pending"
    second = ok(await client.post("/holds", json=hold_body(venue, 2), headers=tenant.headers), 201)
    assert await counted(venue.timeslot["id"]) == Figures(4, 2, 2, 2, 2)
    assert (await Hold.select(Hold.status).where(Hold.id == first["id"]).first()) == {
        "status": "expired"
    }
    # Releasing an expired hold answers it as it is.
    assert ok(await client.delete(f"/holds/{first['id']}", headers=tenant.headers))["status"] == (
        "expired"
    )
    assert ok(await client.get(f"/holds/{second['id']}", headers=tenant.headers))["status"] == (
        "active"
    )


async def test_cancelled_tickets_give_places_back(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=2)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    problem(await client.post("/holds", json=hold_body(venue), headers=tenant.headers), 409)
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    ok(await client.post("/holds", json=hold_body(venue, 2), headers=tenant.headers), 201)
    assert await counted(venue.timeslot["id"]) == Figures(2, 0, 2, 0, 2)


async def test_capacity_cannot_go_below_what_is_held(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    ok(await client.post("/holds", json=hold_body(venue, 3), headers=tenant.headers), 201)
    path = f"/events/{venue.event['id']}/timeslots/{venue.timeslot['id']}"
    refused = problem(
        await client.patch(path, json={"total_available": 2}, headers=tenant.headers), 409
    )
    assert "3 places held" in refused["detail"]
    ok(await client.patch(path, json={"total_available": 3}, headers=tenant.headers))


async def test_a_timeslot_with_places_held_is_not_deleted(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    hold = ok(await client.post("/holds", json=hold_body(venue, 2), headers=tenant.headers), 201)
    path = f"/events/{venue.event['id']}/timeslots/{venue.timeslot['id']}"
    refused = problem(await client.delete(path, headers=tenant.headers), 409)
    assert "2 places of this timeslot are held" in refused["detail"]
    await expire(hold["id"])
    ok(await client.delete(path, headers=tenant.headers))


async def test_bad_holds_are_refused_clearly(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    other_type = await create_ticket_type(client, tenant, venue.event["id"], name="VIP")
    linked = await client.patch(
        f"/events/{venue.event['id']}/timeslots/{venue.timeslot['id']}",
        json={"ticket_type_ids": [venue.ticket_type["id"]]},
        headers=tenant.headers,
    )
    ok(linked)
    not_sold = problem(
        await client.post(
            "/holds",
            json={**hold_body(venue), "tickets": [{"ticket_type_id": other_type["id"]}]},
            headers=tenant.headers,
        ),
        400,
    )
    assert not_sold["errors"][0]["field"] == "tickets"
    for bad in (
        {"ttl_seconds": 59},
        {"ttl_seconds": 1801},
        {"tickets": []},
        {"tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * 51},
        {"event_timeslot_id": "nope"},
    ):
        problem(
            await client.post("/holds", json={**hold_body(venue), **bad}, headers=tenant.headers),
            400,
        )
    hold = ok(
        await client.post("/holds", json=hold_body(venue, ttl_seconds=60), headers=tenant.headers),
        201,
    )
    for response in (
        await client.get(f"/holds/{hold['id']}", headers=other_tenant.headers),
        await client.delete(f"/holds/{hold['id']}", headers=other_tenant.headers),
        await client.post("/holds", json=hold_body(venue), headers=other_tenant.headers),
    ):
        problem(response, 404)
    problem(await client.get("/holds/not-a-uuid", headers=tenant.headers), 400)


async def test_a_retried_hold_with_its_key_holds_once(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    headers = {**tenant.headers, "Idempotency-Key": "hold-once"}
    first = await client.post("/holds", json=hold_body(venue, 2), headers=headers)
    again = await client.post("/holds", json=hold_body(venue, 2), headers=headers)
    assert ok(first, 201) == ok(again, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert await counted(venue.timeslot["id"]) == Figures(5, 0, 2, 0, 2)
    reused = await client.post("/holds", json=hold_body(venue, 3), headers=headers)
    assert problem(reused, 422)["type"] == "/problems/idempotency-key-reused"


async def test_an_order_takes_the_places_of_its_hold(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=4, price=10.0)
    vip = await create_ticket_type(client, tenant, venue.event["id"], name="VIP", price=30.0)
    linked = await client.patch(
        f"/events/{venue.event['id']}/timeslots/{venue.timeslot['id']}",
        json={"ticket_type_ids": [venue.ticket_type["id"], vip["id"]]},
        headers=tenant.headers,
    )
    ok(linked)
    body = {
        **hold_body(venue, 2),
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}, {"ticket_type_id": vip["id"]}],
    }
    hold = ok(await client.post("/holds", json=body, headers=tenant.headers), 201)
    ok(await client.post("/holds", json=hold_body(venue, 2), headers=tenant.headers), 201)
    # The timeslot is full, and the hold's order still gets its places.
    mismatched = problem(
        await client.post(
            "/orders",
            json={**BUYER, "hold_id": hold["id"], "tickets": [{"ticket_type_id": vip["id"]}]},
            headers=tenant.headers,
        ),
        400,
    )
    assert mismatched["errors"][0]["field"] == "tickets"
    order = ok(
        await client.post(
            "/orders",
            json={
                **BUYER,
                "hold_id": hold["id"],
                "event_id": venue.event["id"],
                "tickets": [
                    {"ticket_type_id": vip["id"], "owner_name": "Grace", "seat": "A1"},
                    {"ticket_type_id": venue.ticket_type["id"]},
                ],
            },
            headers=tenant.headers,
        ),
        201,
    )
    assert order["status"] == "pending" and order["total_price"] == 40.0
    assert order["event_timeslot_id"] == venue.timeslot["id"]
    tickets = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=tenant.headers))
    assert sorted(t["owner_name"] for t in tickets["data"]) == ["Ada Buyer", "Grace"]
    assert ok(await client.get(f"/holds/{hold['id']}", headers=tenant.headers))["status"] == (
        "converted"
    )
    assert await counted(venue.timeslot["id"]) == Figures(4, 2, 2, 2, 2)
    again = await client.post(
        "/orders", json={**BUYER, "hold_id": hold["id"]}, headers=tenant.headers
    )
    assert problem(again, 409)["type"] == "/problems/hold-unavailable"
    release = await client.delete(f"/holds/{hold['id']}", headers=tenant.headers)
    assert problem(release, 409)["type"] == "/problems/hold-unavailable"
    # Cancelling the order gives its places back.
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    assert await counted(venue.timeslot["id"]) == Figures(4, 0, 2, 0, 2)


async def test_a_hold_that_is_gone_places_no_order(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=4)
    expired = ok(await client.post("/holds", json=hold_body(venue), headers=tenant.headers), 201)
    await expire(expired["id"])
    released = ok(await client.post("/holds", json=hold_body(venue), headers=tenant.headers), 201)
    ok(await client.delete(f"/holds/{released['id']}", headers=tenant.headers))
    for hold in (expired, released):
        refused = await client.post(
            "/orders", json={**BUYER, "hold_id": hold["id"]}, headers=tenant.headers
        )
        assert problem(refused, 409)["type"] == "/problems/hold-unavailable"
    kept = ok(await client.post("/holds", json=hold_body(venue), headers=tenant.headers), 201)
    foreign = await client.post(
        "/orders", json={**BUYER, "hold_id": kept["id"]}, headers=other_tenant.headers
    )
    problem(foreign, 404)
    other_timeslot = await client.post(
        "/orders",
        json={**BUYER, "hold_id": kept["id"], "event_timeslot_id": str(venue.event["id"])},
        headers=tenant.headers,
    )
    assert problem(other_timeslot, 400)["errors"][0]["field"] == "event_timeslot_id"
    without = problem(await client.post("/orders", json=BUYER, headers=tenant.headers), 400)
    assert {e["field"] for e in without["errors"]} == {"event_id", "event_timeslot_id", "tickets"}
    assert await counted(venue.timeslot["id"]) == Figures(4, 0, 1, 0, 1)


async def test_availability_is_exact_when_read(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=10)
    hold = ok(await client.post("/holds", json=hold_body(venue, 3), headers=tenant.headers), 201)
    lapsed = ok(await client.post("/holds", json=hold_body(venue, 2), headers=tenant.headers), 201)
    await expire(lapsed["id"])
    await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 4
    )
    figures = {
        "timeslot_id": venue.timeslot["id"],
        "total_available": 10,
        "sold": 4,
        "held": 3,
        "available": 3,
    }
    path = f"/events/{venue.event['id']}/availability"
    assert ok(await client.get(path, headers=tenant.headers)) == {"data": [figures]}
    data = gql_data(
        await graphql(
            client, tenant.headers, operation("EventAvailability"), {"id": venue.event["id"]}
        )
    )
    assert data["event"]["availability"] == [
        {
            "timeslotId": venue.timeslot["id"],
            "totalAvailable": 10,
            "sold": 4,
            "held": 3,
            "available": 3,
        }
    ]
    assert data["event"]["timeslots"]["items"] == [{"id": venue.timeslot["id"], "available": 3}]
    ok(await client.delete(f"/holds/{hold['id']}", headers=tenant.headers))
    assert ok(await client.get(path, headers=tenant.headers))["data"][0]["available"] == 6


CAPACITY = 30
REQUESTS = 160


@pytest.fixture(scope="module")
async def two_servers(database: None) -> AsyncIterator[list[str]]:
    async with serving(2) as urls:
        yield urls


def server_client(base_url: str, tenant: Tenant) -> httpx.AsyncClient:
    """Enough connections for every request at once; a generous timeout for the shared machine
    (no timing is asserted)."""
    return httpx.AsyncClient(
        base_url=base_url,
        headers=tenant.headers,
        limits=httpx.Limits(max_connections=REQUESTS),
        timeout=60.0,
    )


@pytest.mark.slow
async def test_a_rush_on_one_timeslot_through_two_servers_never_oversells(
    client: AsyncClient, tenant: Tenant, two_servers: list[str]
) -> None:
    """Holds, direct orders, releases, expiries and cancellations race on one timeslot through
    two server processes, while a sampler counts the rows: at every sample sold + held <=
    capacity, and afterwards the counters equal the rows and every place is taken."""
    venue = await create_venue(client, tenant, capacity=CAPACITY)
    timeslot_id = venue.timeslot["id"]
    order_body = {
        "event_id": venue.event["id"],
        "event_timeslot_id": timeslot_id,
        "buyer_name": "Rush",
        "buyer_email": "rush@example.com",
        "channel": "online",
        "payment_method": "card",
    }
    rng = random.Random(25)
    answers: list[int] = []
    done = asyncio.Event()
    samples: list[Figures] = []

    async def sample() -> None:
        while not done.is_set():
            samples.append(await counted(timeslot_id))

    async def buyer(http: httpx.AsyncClient, index: int) -> None:
        places = rng.choice((1, 1, 2, 3))
        kind = index % 4
        if kind == 0:  # an order outright
            body = {**order_body, "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * places}
            response = await http.post("/orders", json=body)
            answers.append(response.status_code)
            if response.status_code == 201 and index % 8 == 0:
                answers.append(
                    (await http.post(f"/orders/{response.json()['id']}/cancel")).status_code
                )
            return
        response = await http.post("/holds", json=hold_body(venue, places))
        answers.append(response.status_code)
        if response.status_code != 201:
            return
        hold_id = response.json()["id"]
        if kind == 1:
            answers.append((await http.delete(f"/holds/{hold_id}")).status_code)
        elif kind == 2:
            response = await http.post("/orders", json={**BUYER, "hold_id": hold_id})
            answers.append(response.status_code)
            if response.status_code == 201 and index % 3 == 0:
                answers.append(
                    (await http.post(f"/orders/{response.json()['id']}/cancel")).status_code
                )
        elif index % 3 == 0:
            await expire(hold_id)

    async with (
        server_client(two_servers[0], tenant) as first,
        server_client(two_servers[1], tenant) as second,
    ):
        sampler = asyncio.create_task(sample())
        await asyncio.gather(*(buyer(first if i % 2 else second, i) for i in range(REQUESTS)))
        done.set()
        await sampler
        # After the rush, every place left goes to the last buyers.
        while (left := await _left(timeslot_id)) > 0:
            body = hold_body(venue, 1)
            answers.append((await first.post("/holds", json=body)).status_code)

    assert set(answers) <= {200, 201, 409}, sorted(set(answers))
    assert answers.count(409) > 0
    assert samples and all(figures.kept for figures in samples), [f for f in samples if not f.kept]
    final = await counted(timeslot_id)
    assert final.counters_exact, final
    assert final.sold + final.held == CAPACITY, final
    assert left == 0
    availability = ok(
        await client.get(f"/events/{venue.event['id']}/availability", headers=tenant.headers)
    )
    assert availability["data"][0] | {"timeslot_id": None} == {
        "timeslot_id": None,
        "total_available": CAPACITY,
        "sold": final.sold,
        "held": final.held,
        "available": 0,
    }


async def _left(timeslot_id: str) -> int:
    figures = await counted(timeslot_id)
    return figures.total - figures.sold - figures.held
