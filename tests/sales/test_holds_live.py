"""Holds through GraphQL, and the live availability of a rush (CONTRACT.md section 16): the
subscription hears a timeslot's figures after changes made on another server, at most 10
messages a second per timeslot, the last of them the figures as they are."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from httpx import AsyncClient

from tests import harness
from tests.graphql.test_subscriptions import Subscriber, subscribed
from tests.processes import RunningProcess, served
from tests.sales.onsale import hold_body
from tests.sales.test_holds import BUYER
from tests.support import (
    Tenant,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    ok,
    operation,
)


async def test_holds_through_graphql(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=3)
    hold_input = {
        "eventId": venue.event["id"],
        "eventTimeslotId": venue.timeslot["id"],
        "tickets": [{"ticketTypeId": venue.ticket_type["id"]}] * 2,
        "ttlSeconds": 120,
    }
    created = gql_data(
        await graphql(client, tenant.headers, operation("CreateHold"), {"input": hold_input})
    )["createHold"]
    assert created["status"] == "active" and len(created["tickets"]) == 2
    refused = await graphql(client, tenant.headers, operation("CreateHold"), {"input": hold_input})
    assert gql_error_codes(refused) == ["CONFLICT"]
    order = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("PlaceOrder"),
            {
                "input": {
                    "holdId": created["id"],
                    "buyerName": "Ada",
                    "buyerEmail": "ada@example.com",
                    "channel": "online",
                    "paymentMethod": "card",
                }
            },
        )
    )["placeOrder"]
    assert order["status"] == "pending"
    assert [t["sequence"] for t in order["tickets"]["items"]] == [1, 2]
    again = await graphql(client, tenant.headers, operation("ReleaseHold"), {"id": created["id"]})
    assert gql_error_codes(again) == ["CONFLICT"]
    single = {**hold_input, "tickets": hold_input["tickets"][:1]}
    other = gql_data(
        await graphql(client, tenant.headers, operation("CreateHold"), {"input": single})
    )["createHold"]
    released = gql_data(
        await graphql(client, tenant.headers, operation("ReleaseHold"), {"id": other["id"]})
    )["releaseHold"]
    assert released == {"id": other["id"], "status": "released"}


@pytest.fixture(scope="module")
async def replicas(database: None) -> AsyncIterator[list[RunningProcess]]:
    """Two servers sharing this run's Redis: changes on one are heard on the other."""
    async with (
        served(REDIS_URL=harness.REDIS_URL) as first,
        served(REDIS_URL=harness.REDIS_URL) as second,
    ):
        yield [first, second]


HOLDS = 40


@pytest.mark.slow
async def test_a_rush_is_heard_coalesced_and_ends_on_the_true_figures(
    client: AsyncClient, tenant: Tenant, replicas: list[RunningProcess]
) -> None:
    venue = await create_venue(client, tenant, capacity=HOLDS // 2)
    async with (
        subscribed(
            replicas[0].url,
            tenant.key,
            operation("AvailabilityChanges"),
            {"eventId": venue.event["id"]},
        ) as subscriber,
        httpx.AsyncClient(base_url=replicas[1].url, headers=tenant.headers, timeout=60) as http,
    ):
        await _until_heard(subscriber, http, venue)
        started = time.monotonic()
        answers = await asyncio.gather(
            *(http.post("/holds", json=hold_body(venue)) for _ in range(HOLDS))
        )
        assert sorted({r.status_code for r in answers}) == [201, 409]
        order = next(r.json() for r in answers if r.status_code == 201)
        ok(await http.post("/orders", json={**BUYER, "hold_id": order["id"]}), 201)
        final = ok(await http.get(f"/events/{venue.event['id']}/availability"))["data"][0]
        heard = []
        while not heard or heard[-1] != final:
            heard.append(_snake((await subscriber.next())["availability"]))
        elapsed = time.monotonic() - started
    assert final["available"] == 0 and final["sold"] == 1
    assert len(heard) <= elapsed * 10 + 2, (len(heard), elapsed)


async def _until_heard(subscriber: Subscriber, http: httpx.AsyncClient, venue: object) -> None:
    """Hold and release until the subscription (registered a moment after ``subscribe``)
    hears."""
    for _ in range(20):
        hold = ok(await http.post("/holds", json=hold_body(venue)), 201)
        ok(await http.delete(f"/holds/{hold['id']}"))
        if await subscriber.maybe_next(within=1.0) is not None:
            while await subscriber.maybe_next(within=0.3) is not None:
                pass
            return
    raise AssertionError("the subscription never heard a change")


def _snake(figures: dict[str, object]) -> dict[str, object]:
    return {
        "timeslot_id": figures["timeslotId"],
        "total_available": figures["totalAvailable"],
        "sold": figures["sold"],
        "held": figures["held"],
        "available": figures["available"],
    }
