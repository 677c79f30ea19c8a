"""Events, ticket types and timeslots over REST."""

from __future__ import annotations

import uuid

from httpx import AsyncClient

from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_event,
    create_ticket_type,
    create_timeslot,
    key_for,
    ok,
    problem,
)


async def test_event_round_trip_has_contract_shape(client: AsyncClient, tenant: Tenant) -> None:
    created = await create_event(
        client,
        tenant,
        title="Jazz Night",
        starts_at=f"{YEAR}-06-01T20:00:00+02:00",
        location="Paradiso",
        order_scanning_enabled=True,
    )
    assert set(created) == {
        "id", "title", "description", "location", "starts_at", "ends_at",
        "order_scanning_enabled", "created_at", "updated_at",
    }  # fmt: skip
    assert created["starts_at"] == f"{YEAR}-06-01T18:00:00Z"
    assert created["created_at"].endswith("Z")
    fetched = ok(await client.get(f"/events/{created['id']}", headers=tenant.headers))
    assert fetched == created


async def test_patch_changes_only_sent_fields(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(client, tenant, location="Old hall")
    patched = ok(
        await client.patch(
            f"/events/{event['id']}", json={"title": "Renamed"}, headers=tenant.headers
        )
    )
    assert patched["title"] == "Renamed"
    assert patched["location"] == "Old hall"
    cleared = ok(
        await client.patch(
            f"/events/{event['id']}", json={"location": None}, headers=tenant.headers
        )
    )
    assert cleared["location"] is None
    problem(
        await client.patch(
            f"/events/{event['id']}",
            json={"ends_at": "2000-01-01T00:00:00Z"},
            headers=tenant.headers,
        ),
        400,
    )


async def test_events_paginate_over_several_pages(client: AsyncClient, tenant: Tenant) -> None:
    titles = [f"Event {i:02d}" for i in range(7)]
    for title in titles:
        await create_event(client, tenant, title=title)
    seen: list[str] = []
    for offset in (0, 3, 6):
        page = ok(
            await client.get(
                "/events",
                params={"limit": 3, "offset": offset, "sort": "title:asc"},
                headers=tenant.headers,
            )
        )
        after = page["pagination"].pop("next_after")
        assert page["pagination"] == {
            "total": 7, "limit": 3, "offset": offset, "has_more": offset + 3 < 7,
        }  # fmt: skip
        assert (after is None) == (offset + 3 >= 7)
        seen += [event["title"] for event in page["data"]]
    assert seen == titles
    beyond = ok(await client.get("/events", params={"offset": 50}, headers=tenant.headers))
    assert beyond["data"] == [] and beyond["pagination"]["has_more"] is False


async def test_default_sort_is_newest_first(client: AsyncClient, tenant: Tenant) -> None:
    first = await create_event(client, tenant, title="first")
    second = await create_event(client, tenant, title="second")
    page = ok(await client.get("/events", headers=tenant.headers))
    assert [e["id"] for e in page["data"]] == [second["id"], first["id"]]
    assert page["pagination"]["limit"] == 25


async def test_ticket_types_and_timeslots(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(client, tenant)
    regular = await create_ticket_type(client, tenant, event["id"], name="Regular", price=19.99)
    vip = await create_ticket_type(
        client, tenant, event["id"], name="VIP", price=80, swappable=True
    )
    assert regular["price"] == 19.99 and vip["swappable"] is True
    slot = await create_timeslot(
        client, tenant, event["id"], ticket_type_ids=[vip["id"], regular["id"]], total_available=50
    )
    assert set(slot) == {
        "id",
        "title",
        "starts_at",
        "ends_at",
        "total_available",
        "ticket_type_ids",
    }
    assert sorted(slot["ticket_type_ids"]) == sorted([regular["id"], vip["id"]])
    listed = ok(await client.get(f"/events/{event['id']}/timeslots", headers=tenant.headers))
    assert listed["data"] == [slot]
    types = ok(await client.get(f"/events/{event['id']}/ticket_types", headers=tenant.headers))
    assert {t["name"] for t in types["data"]} == {"Regular", "VIP"}


async def test_timeslot_window_filters(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(client, tenant)
    for hour in (10, 12, 14):
        await create_timeslot(
            client,
            tenant,
            event["id"],
            title=f"{hour}h",
            starts_at=f"{YEAR}-06-01T{hour}:00:00Z",
            ends_at=f"{YEAR}-06-01T{hour + 1}:00:00Z",
        )
    page = ok(
        await client.get(
            f"/events/{event['id']}/timeslots",
            params={"from": f"{YEAR}-06-01T12:00:00Z", "until": f"{YEAR}-06-01T16:00:00+02:00"},
            headers=tenant.headers,
        )
    )
    assert [slot["title"] for slot in page["data"]] == ["12h"]
    body = problem(
        await client.get(
            f"/events/{event['id']}/timeslots",
            params={"from": f"{YEAR}-06-01T12:00:00"},
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "from"


async def test_timeslot_rejects_ticket_type_of_other_event(
    client: AsyncClient, tenant: Tenant
) -> None:
    event = await create_event(client, tenant)
    other = await create_event(client, tenant)
    foreign_type = await create_ticket_type(client, tenant, other["id"])
    body = problem(
        await client.post(
            f"/events/{event['id']}/timeslots",
            json={
                "title": "x",
                "starts_at": f"{YEAR}-06-01T10:00:00Z",
                "ends_at": f"{YEAR}-06-01T11:00:00Z",
                "total_available": 5,
                "ticket_type_ids": [foreign_type["id"]],
            },
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "ticket_type_ids"


async def test_other_organization_sees_nothing(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    event = await create_event(client, tenant)
    await create_ticket_type(client, tenant, event["id"])
    await create_timeslot(client, tenant, event["id"])
    for path in (
        f"/events/{event['id']}",
        f"/events/{event['id']}/timeslots",
        f"/events/{event['id']}/ticket_types",
    ):
        problem(await client.get(path, headers=other_tenant.headers), 404)
    problem(
        await client.patch(
            f"/events/{event['id']}", json={"title": "mine"}, headers=other_tenant.headers
        ),
        404,
    )
    problem(
        await client.post(
            f"/events/{event['id']}/ticket_types",
            json={"name": "x", "price": 1},
            headers=other_tenant.headers,
        ),
        404,
    )
    listed = ok(await client.get("/events", headers=other_tenant.headers))
    assert listed["pagination"]["total"] == 0


async def test_scopes_are_enforced_per_endpoint(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(client, tenant)
    read_only = await key_for(tenant, ["events.read"])
    nothing = await key_for(tenant, ["orders.read"])
    ok(await client.get("/events", headers=read_only))
    response = await client.post(
        "/events", json={"title": "x", "starts_at": f"{YEAR}-01-01T00:00:00Z"}, headers=read_only
    )
    problem(response, 403)
    assert response.headers["www-authenticate"] == (
        'Bearer error="insufficient_scope", scope="events.write"'
    )
    for path in ("/events", f"/events/{event['id']}", f"/events/{event['id']}/timeslots"):
        problem(await client.get(path, headers=nothing), 403)


async def test_bad_input_is_400(client: AsyncClient, tenant: Tenant) -> None:
    cases = [
        ("/events/not-a-uuid", "event_id"),
        ("/events?limit=0", "limit"),
        ("/events?limit=101", "limit"),
        ("/events?limit=ten", "limit"),
        ("/events?offset=-1", "offset"),
        ("/events?sort=venue:asc", "sort"),
        ("/events?sort=title", "sort"),
        ("/events?sort=title:up", "sort"),
    ]
    for path, field in cases:
        body = problem(await client.get(path, headers=tenant.headers), 400)
        assert body["errors"][0]["field"] == field, (path, body)
    assert (
        "title"
        in problem(await client.get("/events?sort=nope:asc", headers=tenant.headers), 400)["detail"]
    )


async def test_bad_bodies_are_4xx(client: AsyncClient, tenant: Tenant) -> None:
    headers = {**tenant.headers, "content-type": "application/json"}
    problem(await client.post("/events", content=b'{"title": ', headers=headers), 400)
    problem(await client.post("/events", content=b"[]", headers=headers), 400)
    body = problem(
        await client.post(
            "/events",
            json={"title": "x", "starts_at": f"{YEAR}-01-01T00:00:00Z", "colour": "red"},
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "colour"
    body = problem(
        await client.post("/events", json={"title": "", "starts_at": "x"}, headers=tenant.headers),
        400,
    )
    assert body["errors"]
    problem(
        await client.post(
            "/events",
            content=b"title=x",
            headers={**tenant.headers, "content-type": "application/x-www-form-urlencoded"},
        ),
        415,
    )
    problem(
        await client.post(
            "/events", content=b'{"title":"' + b"a" * (1024 * 1024 + 10) + b'"}', headers=headers
        ),
        413,
    )
    problem(
        await client.post(
            f"/events/{uuid.uuid4()}/ticket_types",
            json={"name": "x", "price": -1},
            headers=tenant.headers,
        ),
        400,
    )


async def test_ticket_type_record_and_list_envelope(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(client, tenant)
    created = await create_ticket_type(client, tenant, event["id"], name="Balcony", price=12.35)
    assert set(created) == {"id", "event_id", "name", "price", "swappable", "created_at"}
    assert created["event_id"] == event["id"] and created["price"] == 12.35
    assert created["swappable"] is False and created["created_at"].endswith("Z")
    listed = ok(await client.get(f"/events/{event['id']}/ticket_types", headers=tenant.headers))
    assert listed == {
        "data": [created],
        "pagination": {"total": 1, "limit": 25, "offset": 0, "has_more": False, "next_after": None},
    }
