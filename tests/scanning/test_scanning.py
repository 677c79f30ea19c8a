"""Door scanning over REST: the decision order, the result shape, the scan log and the outbox."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import msgspec
from httpx import AsyncClient

from db.tables import OutboxEvent
from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    create_venue,
    key_for,
    ok,
    open_door,
    order_tickets,
    place_order,
    problem,
)

RESULT_FIELDS = {
    "ticket_id", "status", "scanned_before", "event", "timeslot", "ticket_type", "owner_name",
    "owner_email", "seat", "scanned_at", "cancelled_at", "related_tickets", "reason", "direction",
    "inside",
}  # fmt: skip
RELATED_FIELDS = {
    "id", "seat", "owner_name", "owner_email", "scanned_at", "cancelled_at", "ticket_type_name",
}  # fmt: skip


async def scan(
    client: AsyncClient, tenant: Tenant, ticket_id: str, scanner_id: str | None = None
) -> dict[str, Any]:
    body = {} if scanner_id is None else {"scanner_id": scanner_id}
    return ok(await client.post(f"/tickets/{ticket_id}/scan", json=body, headers=tenant.headers))


async def scan_log(client: AsyncClient, tenant: Tenant, ticket_id: str) -> list[dict[str, Any]]:
    """The ticket's scan log, oldest first, as GET /tickets/{id}/scans shows it."""
    page = ok(
        await client.get(
            f"/tickets/{ticket_id}/scans",
            params={"sort": "created_at:asc", "limit": 100},
            headers=tenant.headers,
        )
    )
    return page["data"]


async def scanned_events(tenant: Tenant) -> list[dict[str, Any]]:
    rows = await OutboxEvent.select(OutboxEvent.payload).where(
        OutboxEvent.organization_id == tenant.org_id, OutboxEvent.event_type == "ticket.scanned"
    )
    return [msgspec.json.decode(row["payload"]) for row in rows]


async def test_valid_scan_returns_every_field_of_the_spec(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    ticket = door.tickets[0]
    result = await scan(client, tenant, ticket["id"], door.scanner["id"])
    assert set(result) == RESULT_FIELDS
    assert result["status"] == "valid" and result["reason"] is None
    assert result["scanned_before"] is False
    assert result["ticket_id"] == ticket["id"]
    assert result["event"] == {
        "id": door.venue.event["id"], "title": "Concert", "location": "Paradiso",
    }  # fmt: skip
    assert result["timeslot"] == {
        "title": "Evening",
        "starts_at": f"{YEAR}-06-01T18:00:00Z",
        "ends_at": f"{YEAR}-06-01T23:00:00Z",
    }
    assert result["ticket_type"] == {
        "id": door.venue.ticket_type["id"], "name": "Regular", "price": 25.0,
    }  # fmt: skip
    assert result["owner_name"] == "Ada Buyer" and result["owner_email"] == "ada@example.com"
    assert result["seat"] is None and result["cancelled_at"] is None
    assert result["related_tickets"] is None
    assert result["scanned_at"].endswith("Z")
    stored = ok(await client.get(f"/tickets/{ticket['id']}", headers=tenant.headers))
    assert stored["status"] == "scanned" and stored["scanned_at"] == result["scanned_at"]


async def test_second_scan_keeps_the_first_scanned_at(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    first = await scan(client, tenant, door.tickets[0]["id"])
    again = await scan(client, tenant, door.tickets[0]["id"])
    assert again["status"] == "scanned" and again["reason"] == "already_scanned"
    assert again["scanned_before"] is True
    assert again["scanned_at"] == first["scanned_at"]


async def test_scan_by_code_gives_the_same_result(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, tickets=2)
    ticket = door.tickets[1]
    by_code = ok(
        await client.post(
            "/scans", json={"scannable_code": ticket["scannable_code"]}, headers=tenant.headers
        )
    )
    assert set(by_code) == RESULT_FIELDS
    assert by_code["ticket_id"] == ticket["id"] and by_code["status"] == "valid"
    by_id = await scan(client, tenant, ticket["id"])
    assert by_id == {**by_code, "status": "scanned", "reason": "already_scanned",
                     "scanned_before": True}  # fmt: skip


async def test_related_tickets_follow_order_scanning(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, tickets=3, order_scanning_enabled=True)
    first, second, third = door.tickets
    await scan(client, tenant, second["id"])
    result = await scan(client, tenant, first["id"])
    related = result["related_tickets"]
    assert [item["id"] for item in related] == [second["id"], third["id"]]
    assert all(set(item) == RELATED_FIELDS for item in related)
    assert related[0]["scanned_at"] is not None and related[1]["scanned_at"] is None
    assert related[1] == {
        "id": third["id"],
        "seat": None,
        "owner_name": "Ada Buyer",
        "owner_email": "ada@example.com",
        "scanned_at": None,
        "cancelled_at": None,
        "ticket_type_name": "Regular",
    }
    plain = await open_door(client, tenant, tickets=3)
    assert (await scan(client, tenant, plain.tickets[0]["id"]))["related_tickets"] is None


async def test_omitted_scanner_is_the_oldest_active_one(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]],
        confirm=True,
    )  # fmt: skip
    [ticket] = await order_tickets(client, tenant, order)
    problem(await client.post(f"/tickets/{ticket['id']}/scan", headers=tenant.headers), 409)
    await create_scanner(client, tenant, name="Retired", active=False)
    body = problem(
        await client.post(f"/tickets/{ticket['id']}/scan", json={}, headers=tenant.headers), 409
    )
    assert "active scanner" in body["detail"]
    oldest = await create_scanner(client, tenant, name="First")
    await create_scanner(client, tenant, name="Second")
    result = ok(await client.post(f"/tickets/{ticket['id']}/scan", headers=tenant.headers))
    assert result["status"] == "valid"
    assert [row["scanner_id"] for row in await scan_log(client, tenant, ticket["id"])] == [
        oldest["id"]
    ]


async def test_scanner_of_another_organization_is_forbidden(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    foreign = await create_scanner(client, other_tenant)
    for scanner_id in (foreign["id"], str(uuid.uuid4())):
        response = await client.post(
            f"/tickets/{door.tickets[0]['id']}/scan",
            json={"scanner_id": scanner_id},
            headers=tenant.headers,
        )
        problem(response, 403)
        assert "insufficient_scope" not in response.headers.get("www-authenticate", "")
    assert await scan_log(client, tenant, door.tickets[0]["id"]) == []


async def test_unknown_or_foreign_ticket_is_not_found(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    await create_scanner(client, other_tenant)
    ticket = door.tickets[0]
    problem(await client.post(f"/tickets/{uuid.uuid4()}/scan", headers=tenant.headers), 404)
    problem(await client.post(f"/tickets/{ticket['id']}/scan", headers=other_tenant.headers), 404)
    problem(
        await client.post(
            "/scans",
            json={"scannable_code": ticket["scannable_code"]},
            headers=other_tenant.headers,
        ),
        404,
    )
    problem(
        await client.post("/scans", json={"scannable_code": "NOSUCHCODE"}, headers=tenant.headers),
        404,
    )
    stored = ok(await client.get(f"/tickets/{ticket['id']}", headers=tenant.headers))
    assert stored["status"] == "valid"


async def test_bad_input_is_a_400_problem(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    path = f"/tickets/{door.tickets[0]['id']}/scan"
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("/tickets/not-a-uuid/scan", {}, "ticket_id"),
        (path, {"scanner_id": "not-a-uuid"}, "scanner_id"),
        (path, {"scanner": door.scanner["id"]}, "scanner"),
        ("/scans", {"scannable_code": ""}, "scannable_code"),
        ("/scans", {"scannable_code": "X" * 65}, "scannable_code"),
        ("/scans", {"scannable_code": 12}, "scannable_code"),
        ("/scans", {}, "scannable_code"),
    ]
    for url, body, field in cases:
        error = problem(await client.post(url, json=body, headers=tenant.headers), 400)
        assert error["errors"][0]["field"] == field, (url, body, error)
    for url in (path, "/scans"):
        problem(
            await client.post(
                url,
                content=b'{"scannable_code": ',
                headers={**tenant.headers, "content-type": "application/json"},
            ),
            400,
        )
    assert await scan_log(client, tenant, door.tickets[0]["id"]) == []


async def test_scanning_needs_tickets_write(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    reader = await key_for(tenant, ["tickets.read", "scanners.write"])
    response = await client.post(f"/tickets/{door.tickets[0]['id']}/scan", headers=reader)
    problem(response, 403)
    assert 'scope="tickets.write"' in response.headers["www-authenticate"]
    problem(await client.post("/scans", json={"scannable_code": "X"}, headers=reader), 403)


async def test_inactive_scanner_is_not_allowed(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    retired = await create_scanner(client, tenant, active=False)
    result = await scan(client, tenant, door.tickets[0]["id"], retired["id"])
    assert (result["status"], result["reason"]) == ("not_allowed", "scanner_inactive")
    assert result["scanned_at"] is None and result["scanned_before"] is False
    assert (await scan(client, tenant, door.tickets[0]["id"]))["status"] == "valid"


async def test_profile_targets_restrict_the_scanner(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    elsewhere = await create_venue(client, tenant)
    ticket_id = door.tickets[0]["id"]
    cases = [
        ({"event_ids": [elsewhere.event["id"]]}, "event_not_allowed"),
        ({"ticket_type_ids": [elsewhere.ticket_type["id"]]}, "ticket_type_not_allowed"),
        ({"timeslot_ids": [elsewhere.timeslot["id"]]}, "timeslot_not_allowed"),
    ]
    for targets, reason in cases:
        profile = await create_profile(client, tenant, **targets)
        scanner = await create_scanner(client, tenant, profile_id=profile["id"])
        result = await scan(client, tenant, ticket_id, scanner["id"])
        assert (result["status"], result["reason"]) == ("not_allowed", reason)
    matching = await create_profile(
        client,
        tenant,
        event_ids=[door.venue.event["id"], elsewhere.event["id"]],
        ticket_type_ids=[door.venue.ticket_type["id"]],
        timeslot_ids=[door.venue.timeslot["id"]],
    )
    scanner = await create_scanner(client, tenant, profile_id=matching["id"])
    assert (await scan(client, tenant, ticket_id, scanner["id"]))["status"] == "valid"
    assert [row["reason"] for row in await scan_log(client, tenant, ticket_id)] == [
        "event_not_allowed", "ticket_type_not_allowed", "timeslot_not_allowed", None,
    ]  # fmt: skip


async def test_window_against_the_real_clock(client: AsyncClient, tenant: Tenant) -> None:
    """The relative window over REST: a far-future timeslot is too early, a past one too late."""
    profile = await create_profile(
        client, tenant, opens_minutes_before_start=60, closes_minutes_after_end=30
    )
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    future = await open_door(client, tenant)
    result = await scan(client, tenant, future.tickets[0]["id"], scanner["id"])
    assert (result["status"], result["reason"]) == ("not_allowed", "too_early")
    past = await create_venue(client, tenant, starts_at="2020-01-01T18:00:00Z")
    past_door = await open_door(client, tenant, venue=past)
    past_slot = await client.post(
        f"/events/{past.event['id']}/timeslots",
        json={
            "title": "Past",
            "starts_at": "2020-01-01T18:00:00Z",
            "ends_at": "2020-01-01T20:00:00Z",
            "total_available": 5,
        },
        headers=tenant.headers,
    )
    order = await place_order(
        client, tenant, past.event["id"], ok(past_slot, 201)["id"], [past.ticket_type["id"]],
        confirm=True,
    )  # fmt: skip
    [late] = await order_tickets(client, tenant, order)
    result = await scan(client, tenant, late["id"], scanner["id"])
    assert (result["status"], result["reason"]) == ("not_allowed", "too_late")
    assert result["timeslot"]["title"] == "Past"
    unbounded = await scan(client, tenant, past_door.tickets[0]["id"], past_door.scanner["id"])
    assert unbounded["status"] == "valid"


async def test_cancelled_ticket_and_cancelled_order(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, tickets=2)
    first, second = door.tickets
    ok(await client.post(f"/tickets/{first['id']}/cancel", headers=tenant.headers))
    result = await scan(client, tenant, first["id"])
    assert (result["status"], result["reason"]) == ("cancelled", "cancelled")
    assert result["cancelled_at"] is not None and result["scanned_before"] is False

    await scan(client, tenant, second["id"])
    ok(await client.post(f"/orders/{door.order['id']}/cancel", headers=tenant.headers))
    result = await scan(client, tenant, second["id"])
    assert (result["status"], result["reason"]) == ("cancelled", "cancelled")
    assert result["scanned_before"] is True and result["scanned_at"] is not None


async def test_pending_order_is_not_admitted(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant, confirm=False)
    ticket_id = door.tickets[0]["id"]
    result = await scan(client, tenant, ticket_id)
    assert (result["status"], result["reason"]) == ("not_allowed", "order_not_confirmed")
    assert ok(await client.get(f"/tickets/{ticket_id}", headers=tenant.headers))["status"] == (
        "valid"
    )
    ok(await client.post(f"/orders/{door.order['id']}/confirm", headers=tenant.headers))
    assert (await scan(client, tenant, ticket_id))["status"] == "valid"


async def test_decision_order_precedence(client: AsyncClient, tenant: Tenant) -> None:
    """Profile rules come before cancellation, cancellation before the pending order."""
    door = await open_door(client, tenant, confirm=False)
    ticket_id = door.tickets[0]["id"]
    retired = await create_scanner(client, tenant, active=False)
    ok(await client.post(f"/orders/{door.order['id']}/cancel", headers=tenant.headers))
    result = await scan(client, tenant, ticket_id, retired["id"])
    assert (result["status"], result["reason"]) == ("not_allowed", "scanner_inactive")
    result = await scan(client, tenant, ticket_id)
    assert (result["status"], result["reason"]) == ("cancelled", "cancelled")


async def test_scan_log_and_outbox(client: AsyncClient, tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    ticket = door.tickets[0]
    retired = await create_scanner(client, tenant, active=False)
    await scan(client, tenant, ticket["id"], retired["id"])
    result = await scan(client, tenant, ticket["id"], door.scanner["id"])
    await scan(client, tenant, ticket["id"], door.scanner["id"])
    log = await scan_log(client, tenant, ticket["id"])
    assert [(row["scanner_id"], row["status"], row["reason"]) for row in log] == [
        (retired["id"], "not_allowed", "scanner_inactive"),
        (door.scanner["id"], "valid", None),
        (door.scanner["id"], "scanned", "already_scanned"),
    ]  # fmt: skip
    assert await scanned_events(tenant) == [
        {
            "ticket_id": ticket["id"],
            "order_id": door.order["id"],
            "event_id": door.venue.event["id"],
            "scanner_id": door.scanner["id"],
            "scanned_at": result["scanned_at"],
        }
    ]


async def test_simultaneous_scans_in_process_admit_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    results = await asyncio.gather(*(scan(client, tenant, ticket_id) for _ in range(15)))
    statuses = sorted(result["status"] for result in results)
    assert statuses == ["scanned"] * 14 + ["valid"]
    winner = next(result for result in results if result["status"] == "valid")
    assert {result["scanned_at"] for result in results} == {winner["scanned_at"]}
    assert all(r["scanned_before"] for r in results if r["status"] == "scanned")
    assert len(await scanned_events(tenant)) == 1
    assert len(await scan_log(client, tenant, ticket_id)) == 15


async def test_scan_log_endpoint(client: AsyncClient, tenant: Tenant, other_tenant: Tenant) -> None:
    door = await open_door(client, tenant)
    ticket_id = door.tickets[0]["id"]
    result = await scan(client, tenant, ticket_id)
    page = ok(await client.get(f"/tickets/{ticket_id}/scans", headers=tenant.headers))
    assert page["pagination"] == {
        "total": 1, "limit": 25, "offset": 0, "has_more": False, "next_after": None,
    }  # fmt: skip
    [entry] = page["data"]
    assert set(entry) == {
        "id", "ticket_id", "scanner_id", "status", "reason", "nonce", "scanned_at",
        "received_at", "created_at", "direction",
    }  # fmt: skip
    assert entry["ticket_id"] == ticket_id and entry["status"] == "valid"
    assert entry["created_at"] == entry["received_at"] == entry["scanned_at"]
    assert entry["scanned_at"] == result["scanned_at"] and entry["nonce"] is None
    problem(await client.get(f"/tickets/{ticket_id}/scans", headers=other_tenant.headers), 404)
    problem(await client.get("/tickets/nope/scans", headers=tenant.headers), 400)
    scanner_only = await key_for(tenant, ["tickets.write"])
    problem(await client.get(f"/tickets/{ticket_id}/scans", headers=scanner_only), 403)
