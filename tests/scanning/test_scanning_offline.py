"""Offline scanning (CONTRACT.md section 11): a door device sends when it scanned (``scanned_at``)
and a ``nonce``; windows are decided at the device's moment, and a repeated nonce answers the
first result again and records nothing new, also when the two requests race."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from httpx import AsyncClient

from tests.scanning.support import (
    HOUR,
    MINUTE,
    door_at,
    now,
    scan_log,
    scanned_events,
    stamp,
    ticket,
)
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    gql_data,
    graphql,
    ok,
    operation,
    problem,
)


async def scan_code(client: AsyncClient, tenant: Tenant, code: str, **body: Any) -> dict[str, Any]:
    sent = {"scannable_code": code, **body}
    return ok(await client.post("/scans", json=sent, headers=tenant.headers))


def moment(value: str) -> datetime:
    return datetime.fromisoformat(value)


async def test_an_offline_scan_is_decided_at_the_device_s_moment(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The door closed 15 minutes after a timeslot that ended an hour ago: a scan now is too late,
    a scan the device made during the timeslot is admitted, at the device's time."""
    ends = now() - HOUR
    door = await door_at(client, tenant, ends - 3 * HOUR, ends, tickets=2)
    profile = await create_profile(client, tenant, closes_minutes_after_end=15)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    late, in_time = door.tickets
    refused = await scan_code(
        client, tenant, late["scannable_code"], scanner_id=scanner["id"], nonce="door-1:0001"
    )
    assert (refused["status"], refused["reason"]) == ("not_allowed", "too_late")
    device_time = ends - 30 * MINUTE
    admitted = await scan_code(
        client,
        tenant,
        in_time["scannable_code"],
        scanner_id=scanner["id"],
        nonce="door-1:0002",
        scanned_at=device_time.isoformat(),  # any offset; stored in UTC
    )
    assert (admitted["status"], admitted["reason"]) == ("valid", None)
    assert moment(admitted["scanned_at"]) == device_time and admitted["scanned_at"].endswith("Z")
    assert moment((await ticket(client, tenant, in_time["id"]))["scanned_at"]) == device_time
    [payload] = await scanned_events(tenant)
    assert moment(payload["scanned_at"]) == device_time
    [row] = await scan_log(tenant, in_time["id"])
    assert row["scanned_at"] == device_time and row["nonce"] == "door-1:0002"
    assert row["received_at"] > device_time + 30 * MINUTE
    log = ok(await client.get(f"/tickets/{in_time['id']}/scans", headers=tenant.headers))
    [entry] = log["data"]
    assert moment(entry["scanned_at"]) == device_time and entry["nonce"] == "door-1:0002"
    assert moment(entry["received_at"]) == moment(entry["created_at"]) > device_time


async def test_scanned_at_and_nonce_bounds(client: AsyncClient, tenant: Tenant) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    first, second = door.tickets
    skewed = await scan_code(
        client, tenant, first["scannable_code"], scanned_at=stamp(now() + 4 * MINUTE)
    )
    assert skewed["status"] == "valid"
    bad: list[tuple[dict[str, Any], str]] = [
        ({"scanned_at": stamp(now() + 6 * MINUTE)}, "scanned_at"),
        ({"scanned_at": "2026-11-23T03:00:00"}, "scanned_at"),
        ({"scanned_at": "yesterday"}, "scanned_at"),
        ({"nonce": ""}, "nonce"),
        ({"nonce": "n" * 65}, "nonce"),
        ({"nonce": 5}, "nonce"),
        ({"nonce": "a\x00b"}, "nonce"),
    ]
    for body, field in bad:
        for path, sent in (
            ("/scans", {"scannable_code": second["scannable_code"], **body}),
            (f"/tickets/{second['id']}/scan", body),
        ):
            rejected = problem(await client.post(path, json=sent, headers=tenant.headers), 400)
            assert [error["field"] for error in rejected["errors"]] == [field], (body, rejected)
    assert await scan_log(tenant, second["id"]) == []
    longest = await scan_code(client, tenant, second["scannable_code"], nonce="n" * 64)
    assert longest["status"] == "valid"


async def test_a_repeated_nonce_answers_the_first_result(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    [only] = door.tickets
    device_time = now() - 10 * MINUTE
    first = await scan_code(
        client, tenant, only["scannable_code"], nonce="n-1", scanned_at=stamp(device_time)
    )
    assert first["status"] == "valid" and moment(first["scanned_at"]) == device_time
    # Through the other route, without scanned_at (which would be "now"): the first answer.
    again = ok(
        await client.post(
            f"/tickets/{only['id']}/scan", json={"nonce": "n-1"}, headers=tenant.headers
        )
    )
    assert again == first
    assert len(await scan_log(tenant, only["id"])) == 1
    assert len(await scanned_events(tenant)) == 1
    other = await scan_code(client, tenant, only["scannable_code"], nonce="n-2")
    assert (other["status"], other["reason"]) == ("scanned", "already_scanned")
    assert other["scanned_before"] is True and other["scanned_at"] == first["scanned_at"]
    assert len(await scan_log(tenant, only["id"])) == 2


async def test_a_replayed_refusal_stays_a_refusal_after_the_ticket_was_admitted(
    client: AsyncClient, tenant: Tenant
) -> None:
    ends = now() - HOUR
    door = await door_at(client, tenant, ends - HOUR, ends)
    profile = await create_profile(client, tenant, closes_minutes_after_end=15)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    code = door.tickets[0]["scannable_code"]
    refused = await scan_code(client, tenant, code, scanner_id=scanner["id"], nonce="late")
    assert refused["reason"] == "too_late" and refused["scanned_at"] is None
    admitted = await scan_code(
        client,
        tenant,
        code,
        scanner_id=scanner["id"],
        nonce="in-time",
        scanned_at=stamp(ends - MINUTE),
    )
    assert admitted["status"] == "valid"
    replayed = await scan_code(client, tenant, code, scanner_id=scanner["id"], nonce="late")
    assert replayed == refused
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 2


async def test_the_same_nonce_sent_simultaneously_is_recorded_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    [only] = door.tickets
    body = {
        "scannable_code": only["scannable_code"],
        "nonce": "retried",
        "scanned_at": stamp(now()),
    }
    responses = await asyncio.gather(
        *(client.post("/scans", json=body, headers=tenant.headers) for _ in range(20))
    )
    results = [ok(response) for response in responses]
    assert results[0]["status"] == "valid"
    assert all(result == results[0] for result in results)
    assert len(await scan_log(tenant, only["id"])) == 1
    assert len(await scanned_events(tenant)) == 1


async def test_simultaneous_offline_scans_of_one_ticket_admit_it_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    [only] = door.tickets
    responses = await asyncio.gather(
        *(
            client.post(
                "/scans",
                json={
                    "scannable_code": only["scannable_code"],
                    "nonce": f"device-{i}",
                    "scanned_at": stamp(now() - i * MINUTE),
                },
                headers=tenant.headers,
            )
            for i in range(20)
        )
    )
    statuses = [ok(response)["status"] for response in responses]
    assert statuses.count("valid") == 1 and statuses.count("scanned") == 19
    log = await scan_log(tenant, only["id"])
    assert sorted(row["status"] for row in log) == ["scanned"] * 19 + ["valid"]
    assert len(await scanned_events(tenant)) == 1


async def test_nonces_are_unique_per_organization(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    for owner in (tenant, other_tenant):
        door = await door_at(client, owner, now() - HOUR, now() + HOUR)
        result = await scan_code(client, owner, door.tickets[0]["scannable_code"], nonce="same")
        assert result["status"] == "valid" and result["ticket_id"] == door.tickets[0]["id"]


async def test_graphql_scan_ticket_takes_nonce_and_scanned_at(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    code = door.tickets[0]["scannable_code"]
    device_time = now() - 5 * MINUTE
    variables = {"code": code, "nonce": "gql-1", "scannedAt": stamp(device_time)}
    first = gql_data(await graphql(client, tenant.headers, operation("ScanOffline"), variables))
    result = first["scanTicket"]
    assert result["status"] == "valid" and moment(result["scannedAt"]) == device_time
    rest = await scan_code(client, tenant, code, nonce="gql-1")
    assert (rest["status"], rest["scanned_at"]) == ("valid", result["scannedAt"])
    again = gql_data(
        await graphql(
            client, tenant.headers, operation("ScanOffline"), {**variables, "scannedAt": None}
        )
    )
    assert again == first
    future = {**variables, "nonce": "gql-2", "scannedAt": stamp(now() + HOUR)}
    body = await graphql(client, tenant.headers, operation("ScanOffline"), future)
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert [e["field"] for e in error["extensions"]["errors"]] == ["scanned_at"]
    assert len(await scan_log(tenant, door.tickets[0]["id"])) == 1


async def test_a_scanned_at_older_than_the_offline_bound_is_refused(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Issue 24 item 4: ``scanned_at`` at 0001-01-01 used to be admitted; older than
    ``TICKETING_OFFLINE_MAX_AGE_HOURS`` (72) is a 400 naming the field, on every route."""
    door = await door_at(client, tenant, now() - 80 * HOUR, now() + HOUR, tickets=2)
    first, second = door.tickets
    for old in ("0001-01-01T00:00:00Z", stamp(now() - 73 * HOUR)):
        for path, sent, field in (
            ("/scans", {"scannable_code": first["scannable_code"]}, "scanned_at"),
            (f"/tickets/{first['id']}/scan", {}, "scanned_at"),
            ("/scans/batch", {"scans": [{"ticket_id": first["id"], "nonce": "b"}]}, None),
        ):
            if field is None:
                sent["scans"][0]["scanned_at"] = old
                field = "scans[0].scanned_at"
            else:
                sent["scanned_at"] = old
            rejected = problem(await client.post(path, json=sent, headers=tenant.headers), 400)
            assert [error["field"] for error in rejected["errors"]] == [field], rejected
            assert "72 hours" in rejected["detail"]
    variables = {
        "code": first["scannable_code"],
        "nonce": "gql-old",
        "scannedAt": stamp(now() - 100 * HOUR),
    }
    [error] = (await graphql(client, tenant.headers, operation("ScanOffline"), variables))["errors"]
    assert [e["field"] for e in error["extensions"]["errors"]] == ["scanned_at"]
    assert await scan_log(tenant, first["id"]) == []
    within = await scan_code(
        client, tenant, second["scannable_code"], nonce="71h", scanned_at=stamp(now() - 71 * HOUR)
    )
    assert within["status"] == "valid"


async def test_a_batch_names_each_scan_too_old_and_runs_whole_without_them(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A batch of a door offline for days: a ``scanned_at`` older than
    ``TICKETING_OFFLINE_MAX_AGE_HOURS`` is an invalid item (CONTRACT.md section 11: that
    ``scanned_at`` is a 400; an invalid item is a 400 naming it and nothing of the batch runs;
    no scan result's status says "too old"). The 400 names every such item at once, so the device
    drops those and sends the rest, which runs whole: nothing else of the batch is lost."""
    door = await door_at(client, tenant, now() - 80 * HOUR, now() + HOUR, tickets=3)
    first, second, third = door.tickets
    scans = [
        {"ticket_id": first["id"], "nonce": "d:1", "scanned_at": stamp(now() - 2 * HOUR)},
        {"ticket_id": second["id"], "nonce": "d:2", "scanned_at": stamp(now() - 75 * HOUR)},
        {"scannable_code": third["scannable_code"], "nonce": "d:3"},
        {"ticket_id": third["id"], "nonce": "d:4", "scanned_at": "0001-01-01T00:00:00Z"},
        {"ticket_id": second["id"], "nonce": "d:5", "scanned_at": stamp(now() - 30 * MINUTE)},
        {"ticket_id": first["id"], "nonce": "d:6", "scanned_at": stamp(now() - HOUR)},
    ]
    path = "/scans/batch"
    refused = problem(await client.post(path, json={"scans": scans}, headers=tenant.headers), 400)
    assert [error["field"] for error in refused["errors"]] == [
        "scans[1].scanned_at",
        "scans[3].scanned_at",
    ]
    for sold in door.tickets:
        assert await scan_log(tenant, sold["id"]) == []
    rest = [scan for index, scan in enumerate(scans) if index not in (1, 3)]
    results = ok(await client.post(path, json={"scans": rest}, headers=tenant.headers))["results"]
    assert [(r["nonce"], r["ticket_id"], r["status"]) for r in results] == [
        ("d:1", first["id"], "valid"),
        ("d:3", third["id"], "valid"),
        ("d:5", second["id"], "valid"),
        ("d:6", first["id"], "scanned"),
    ]
    assert [len(await scan_log(tenant, sold["id"])) for sold in door.tickets] == [2, 1, 1]


async def test_a_profile_past_its_validity_on_arrival_refuses_a_backdated_scan(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Issue 24 item 4: a scanner whose profile expired two days ago could still admit by
    backdating its scans into the old validity; it refuses them now, as an inactive scanner does."""
    door = await door_at(client, tenant, now() - 60 * HOUR, now() + HOUR, tickets=2)
    first, second = door.tickets
    profile = await create_profile(
        client, tenant, valid_from=stamp(now() - 60 * HOUR), valid_until=stamp(now() - 48 * HOUR)
    )
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    backdated = stamp(now() - 50 * HOUR)
    refused = await scan_code(
        client, tenant, first["scannable_code"], scanner_id=scanner["id"], nonce="old-1",
        scanned_at=backdated,
    )  # fmt: skip
    assert (refused["status"], refused["reason"]) == ("not_allowed", "too_late")
    ok(
        await client.patch(
            f"/scanners/{scanner['id']}",
            json={"active": False, "profile_id": None},
            headers=tenant.headers,
        )
    )
    inactive = await scan_code(
        client, tenant, second["scannable_code"], scanner_id=scanner["id"], nonce="old-2",
        scanned_at=stamp(now() - 2 * HOUR),
    )  # fmt: skip
    assert (inactive["status"], inactive["reason"]) == ("not_allowed", "scanner_inactive")
    assert (await ticket(client, tenant, first["id"]))["status"] == "valid"
    assert await scanned_events(tenant) == []


async def test_a_nonce_reused_for_another_ticket_is_a_conflict(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Issue 24 item 5: the second ticket used to get the first one's answer and was never
    recorded; it is a 409 ``/problems/nonce-reused`` on every route, and nothing runs."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=3)
    first, second, third = door.tickets
    assert (await scan_code(client, tenant, first["scannable_code"], nonce="dup"))["status"] == (
        "valid"
    )
    attempts = [
        ("/scans", {"scannable_code": second["scannable_code"], "nonce": "dup"}),
        (f"/tickets/{second['id']}/scan", {"nonce": "dup"}),
        (
            "/scans/batch",
            {
                "scans": [
                    {"ticket_id": third["id"], "nonce": "fresh"},
                    {"ticket_id": second["id"], "nonce": "dup"},
                ]
            },
        ),
        (
            "/scans/batch",
            {
                "scans": [
                    {"ticket_id": third["id"], "nonce": "twin"},
                    {"ticket_id": second["id"], "nonce": "twin"},
                ]
            },
        ),
    ]
    for path, body in attempts:
        conflict = problem(await client.post(path, json=body, headers=tenant.headers), 409)
        assert conflict["type"] == "/problems/nonce-reused", conflict
    variables = {"code": second["scannable_code"], "nonce": "dup", "scannedAt": None}
    [error] = (await graphql(client, tenant.headers, operation("ScanOffline"), variables))["errors"]
    assert error["extensions"]["code"] == "CONFLICT"
    assert await scan_log(tenant, second["id"]) == await scan_log(tenant, third["id"]) == []
    # The same ticket with the same nonce still answers the first result.
    again = await scan_code(client, tenant, first["scannable_code"], nonce="dup")
    assert again["status"] == "valid" and len(await scan_log(tenant, first["id"])) == 1
    admitted = await scan_code(client, tenant, second["scannable_code"], nonce="own")
    assert admitted["status"] == "valid"


async def test_one_nonce_sent_at_once_for_two_tickets_records_one(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    responses = await asyncio.gather(
        *(
            client.post(
                "/scans",
                json={"scannable_code": entry["scannable_code"], "nonce": "raced"},
                headers=tenant.headers,
            )
            for entry in door.tickets
            for _ in range(5)
        )
    )
    codes = sorted(response.status_code for response in responses)
    assert codes == [200] * 5 + [409] * 5, codes
    logs = [await scan_log(tenant, entry["id"]) for entry in door.tickets]
    assert sorted(len(log) for log in logs) == [0, 1]
