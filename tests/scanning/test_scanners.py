"""Scanners and scanner profiles over REST."""

from __future__ import annotations

import uuid

from httpx import AsyncClient

from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    create_venue,
    key_for,
    ok,
    problem,
)

PROFILE_FIELDS = {
    "id", "name", "event_ids", "ticket_type_ids", "timeslot_ids", "opens_minutes_before_start",
    "closes_minutes_after_end", "valid_from", "valid_until", "entry_policy",
}  # fmt: skip


async def test_scanner_round_trip(client: AsyncClient, tenant: Tenant) -> None:
    scanner = await create_scanner(client, tenant, name="North door")
    assert set(scanner) == {"id", "name", "active", "profile_id", "created_at"}
    assert scanner["active"] is True and scanner["profile_id"] is None
    assert scanner["created_at"].endswith("Z")
    profile = await create_profile(client, tenant)
    patched = ok(
        await client.patch(
            f"/scanners/{scanner['id']}",
            json={"active": False, "profile_id": profile["id"]},
            headers=tenant.headers,
        )
    )
    assert patched == {**scanner, "active": False, "profile_id": profile["id"]}
    detached = ok(
        await client.patch(
            f"/scanners/{scanner['id']}", json={"profile_id": None}, headers=tenant.headers
        )
    )
    assert detached["profile_id"] is None and detached["name"] == "North door"
    listed = ok(await client.get("/scanners", headers=tenant.headers))
    assert listed["data"] == [detached]
    assert listed["pagination"] == {
        "total": 1, "limit": 25, "offset": 0, "has_more": False, "next_after": None,
    }  # fmt: skip


async def test_scanners_are_per_organization(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    scanner = await create_scanner(client, tenant)
    foreign_profile = await create_profile(client, other_tenant)
    assert ok(await client.get("/scanners", headers=other_tenant.headers))["data"] == []
    problem(
        await client.patch(
            f"/scanners/{scanner['id']}", json={"name": "x"}, headers=other_tenant.headers
        ),
        404,
    )
    problem(
        await client.post(
            "/scanners",
            json={"name": "Door", "profile_id": foreign_profile["id"]},
            headers=tenant.headers,
        ),
        404,
    )
    problem(
        await client.patch(
            f"/scanners/{scanner['id']}",
            json={"profile_id": foreign_profile["id"]},
            headers=tenant.headers,
        ),
        404,
    )


async def test_scanner_input_errors(client: AsyncClient, tenant: Tenant) -> None:
    body = problem(await client.post("/scanners", json={"name": ""}, headers=tenant.headers), 400)
    assert body["errors"][0]["field"] == "name"
    body = problem(
        await client.post("/scanners", json={"name": "a", "colour": "red"}, headers=tenant.headers),
        400,
    )
    assert body["errors"][0]["field"] == "colour"
    body = problem(
        await client.patch("/scanners/not-a-uuid", json={"name": "a"}, headers=tenant.headers), 400
    )
    assert body["errors"][0]["field"] == "scanner_id"
    problem(
        await client.patch(f"/scanners/{uuid.uuid4()}", json={"name": "a"}, headers=tenant.headers),
        404,
    )
    problem(await client.get("/scanners", params={"sort": "name:asc"}, headers=tenant.headers), 400)


async def test_scanner_scopes(client: AsyncClient, tenant: Tenant) -> None:
    reader = await key_for(tenant, ["scanners.read"])
    response = await client.post("/scanners", json={"name": "Door"}, headers=reader)
    problem(response, 403)
    assert 'scope="scanners.write"' in response.headers["www-authenticate"]
    problem(await client.post("/scanner_profiles", json={"name": "P"}, headers=reader), 403)
    ok(await client.get("/scanners", headers=reader))
    ok(await client.get("/scanner_profiles", headers=reader))
    nothing = await key_for(tenant, ["tickets.write"])
    response = await client.get("/scanner_profiles", headers=nothing)
    problem(response, 403)
    assert 'scope="scanners.read"' in response.headers["www-authenticate"]


async def test_profile_round_trip_with_targets(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    profile = await create_profile(
        client,
        tenant,
        name="VIP door",
        event_ids=[venue.event["id"], venue.event["id"]],
        ticket_type_ids=[venue.ticket_type["id"]],
        opens_minutes_before_start=60,
        closes_minutes_after_end=0,
        valid_from=f"{YEAR}-06-01T12:00:00+02:00",
    )
    assert set(profile) == PROFILE_FIELDS
    assert profile["event_ids"] == [venue.event["id"]]
    assert profile["ticket_type_ids"] == [venue.ticket_type["id"]]
    assert profile["timeslot_ids"] == []
    assert profile["opens_minutes_before_start"] == 60
    assert profile["closes_minutes_after_end"] == 0
    assert profile["valid_from"] == f"{YEAR}-06-01T10:00:00Z" and profile["valid_until"] is None
    listed = ok(await client.get("/scanner_profiles", headers=tenant.headers))
    assert listed["data"] == [profile]

    patched = ok(
        await client.patch(
            f"/scanner_profiles/{profile['id']}",
            json={
                "event_ids": [],
                "timeslot_ids": [venue.timeslot["id"]],
                "opens_minutes_before_start": None,
            },
            headers=tenant.headers,
        )
    )
    assert patched == {
        **profile,
        "event_ids": [],
        "timeslot_ids": [venue.timeslot["id"]],
        "opens_minutes_before_start": None,
    }
    listed = ok(await client.get("/scanner_profiles", headers=tenant.headers))
    assert listed["data"] == [patched]


async def test_profile_validation(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    foreign = await create_venue(client, other_tenant)
    body = problem(
        await client.post(
            "/scanner_profiles",
            json={"name": "P", "event_ids": [foreign.event["id"]]},
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "event_ids"
    assert foreign.event["id"] in body["detail"]
    body = problem(
        await client.post(
            "/scanner_profiles",
            json={
                "name": "P",
                "valid_from": f"{YEAR}-06-02T00:00:00Z",
                "valid_until": f"{YEAR}-06-01T00:00:00Z",
            },
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "valid_until"
    body = problem(
        await client.post(
            "/scanner_profiles",
            json={"name": "P", "valid_from": f"{YEAR}-06-02T00:00:00"},
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "valid_from"
    problem(
        await client.post(
            "/scanner_profiles",
            json={"name": "P", "opens_minutes_before_start": -5},
            headers=tenant.headers,
        ),
        400,
    )
    problem(
        await client.post(
            "/scanner_profiles",
            json={"name": "P", "timeslot_ids": ["nope"]},
            headers=tenant.headers,
        ),
        400,
    )


async def test_profile_patch_checks_merged_window(client: AsyncClient, tenant: Tenant) -> None:
    profile = await create_profile(client, tenant, valid_from=f"{YEAR}-06-01T10:00:00Z")
    body = problem(
        await client.patch(
            f"/scanner_profiles/{profile['id']}",
            json={"valid_until": f"{YEAR}-06-01T09:00:00Z", "name": "Renamed"},
            headers=tenant.headers,
        ),
        400,
    )
    assert body["errors"][0]["field"] == "valid_until"
    listed = ok(await client.get("/scanner_profiles", headers=tenant.headers))
    assert listed["data"] == [profile], "a rejected PATCH changes nothing"


async def test_profiles_are_per_organization(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    profile = await create_profile(client, tenant)
    problem(
        await client.patch(
            f"/scanner_profiles/{profile['id']}", json={"name": "x"}, headers=other_tenant.headers
        ),
        404,
    )
    assert ok(await client.get("/scanner_profiles", headers=other_tenant.headers))["data"] == []


async def test_profile_lists_read_back_as_created(client: AsyncClient, tenant: Tenant) -> None:
    venues = [await create_venue(client, tenant) for _ in range(3)]
    event_ids = [venue.event["id"] for venue in venues]
    profile = await create_profile(client, tenant, event_ids=[*reversed(event_ids), event_ids[0]])
    assert sorted(profile["event_ids"]) == sorted(event_ids)
    listed = ok(await client.get("/scanner_profiles", headers=tenant.headers))
    assert listed["data"] == [profile]
