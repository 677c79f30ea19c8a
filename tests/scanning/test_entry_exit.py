"""Entry policies and exit scans (CONTRACT.md section 17): `single` keeps section 5, `reentry`
lets a ticket that went out come back, `multiple` admits every entry; an exit lets out a ticket
that is inside; presence is the direction of the latest valid scan by `scanned_at`, and a late
upload is decided when it arrives."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from db.tables import Ticket
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


async def scan(
    client: AsyncClient, tenant: Tenant, ticket_id: str, direction: str = "entry", **body: Any
) -> dict[str, Any]:
    sent = {"direction": direction, **body}
    return ok(await client.post(f"/tickets/{ticket_id}/scan", json=sent, headers=tenant.headers))


async def scanner_with(client: AsyncClient, tenant: Tenant, policy: str) -> str:
    profile = await create_profile(client, tenant, entry_policy=policy)
    assert profile["entry_policy"] == policy
    return str((await create_scanner(client, tenant, profile_id=profile["id"]))["id"])


def outcome(result: dict[str, Any]) -> tuple[Any, ...]:
    return result["status"], result["reason"], result["direction"], result["inside"]


async def test_single_admits_once_and_lets_the_ticket_out(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    ticket_id = door.tickets[0]["id"]
    not_in = await scan(client, tenant, ticket_id, "exit")
    assert outcome(not_in) == ("not_allowed", "not_inside", "exit", False)
    assert not_in["scanned_at"] is None and not_in["scanned_before"] is False
    entered = await scan(client, tenant, ticket_id)
    assert outcome(entered) == ("valid", None, "entry", True)
    left = await scan(client, tenant, ticket_id, "exit")
    assert outcome(left) == ("valid", None, "exit", False)
    assert left["scanned_at"] == entered["scanned_at"] and left["scanned_before"] is True
    again = await scan(client, tenant, ticket_id)
    assert outcome(again) == ("scanned", "already_scanned", "entry", False)
    assert (await ticket(client, tenant, ticket_id))["scanned_at"] == entered["scanned_at"]
    assert len(await scanned_events(tenant)) == 1  # an exit emits no ticket.scanned
    log = await scan_log(tenant, ticket_id)
    assert [(row["direction"], row["status"]) for row in log] == [
        ("exit", "not_allowed"), ("entry", "valid"), ("exit", "valid"), ("entry", "scanned"),
    ]  # fmt: skip


async def test_reentry_lets_a_ticket_that_went_out_back_in(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    scanner_id = await scanner_with(client, tenant, "reentry")
    ticket_id = door.tickets[0]["id"]
    first = await scan(client, tenant, ticket_id, scanner_id=scanner_id)
    assert outcome(first) == ("valid", None, "entry", True) and not first["scanned_before"]
    inside = await scan(client, tenant, ticket_id, scanner_id=scanner_id)
    assert outcome(inside) == ("scanned", "already_inside", "entry", True)
    assert outcome(await scan(client, tenant, ticket_id, "exit", scanner_id=scanner_id)) == (
        "valid", None, "exit", False,
    )  # fmt: skip
    back = await scan(client, tenant, ticket_id, scanner_id=scanner_id)
    assert outcome(back) == ("valid", None, "entry", True) and back["scanned_before"] is True
    assert back["scanned_at"] == first["scanned_at"]  # the first admission, kept
    assert len(await scanned_events(tenant)) == 2


async def test_multiple_admits_every_entry_of_a_valid_ticket(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    scanner_id = await scanner_with(client, tenant, "multiple")
    pass_id, cancelled_id = (entry["id"] for entry in door.tickets)
    results = [await scan(client, tenant, pass_id, scanner_id=scanner_id) for _ in range(3)]
    assert [outcome(result) for result in results] == [("valid", None, "entry", True)] * 3
    assert [result["scanned_before"] for result in results] == [False, True, True]
    ok(await client.post(f"/tickets/{cancelled_id}/cancel", headers=tenant.headers))
    refused = await scan(client, tenant, cancelled_id, scanner_id=scanner_id)
    assert outcome(refused) == ("cancelled", "cancelled", "entry", False)


async def test_a_ticket_cancelled_while_inside_may_still_leave(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    ticket_id = door.tickets[0]["id"]
    await scan(client, tenant, ticket_id)
    ok(await client.post(f"/tickets/{ticket_id}/cancel", headers=tenant.headers))
    left = await scan(client, tenant, ticket_id, "exit")
    assert outcome(left) == ("valid", None, "exit", False)


async def test_a_late_upload_is_decided_on_arrival_and_moves_presence_only_when_latest(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - 2 * HOUR, now() + HOUR, tickets=2)
    scanner_id = await scanner_with(client, tenant, "reentry")
    first, second = (entry["id"] for entry in door.tickets)
    t = now() - HOUR

    async def at(ticket_id: str, direction: str, moment: Any, nonce: str) -> dict[str, Any]:
        return await scan(
            client, tenant, ticket_id, direction, scanner_id=scanner_id, nonce=nonce,
            scanned_at=stamp(moment),
        )  # fmt: skip

    # In at t, out at t+20; a device uploads late that it let the ticket in at t+10: the ticket
    # is out when the upload arrives, so it is valid, but the exit at t+20 is later: still out.
    await at(first, "entry", t, "a1")
    await at(first, "exit", t + 20 * MINUTE, "a2")
    late = await at(first, "entry", t + 10 * MINUTE, "a3")
    assert outcome(late) == ("valid", None, "entry", False)
    # A later entry than every scan moves presence.
    assert outcome(await at(first, "entry", t + 30 * MINUTE, "a4"))[3] is True
    # In at t+20; a late exit scanned at t+10 arrives: the ticket is inside, so the exit is
    # valid, but the entry at t+20 is the latest: still inside.
    await at(second, "entry", t + 20 * MINUTE, "b1")
    late_exit = await at(second, "exit", t + 10 * MINUTE, "b2")
    assert outcome(late_exit) == ("valid", None, "exit", True)
    rows = {row["id"]: row for row in await ticket_rows(tenant)}
    assert rows[door.tickets[0]["id"]]["inside"] and rows[door.tickets[1]["id"]]["inside"]


async def ticket_rows(tenant: Tenant) -> list[dict[str, Any]]:
    rows = await Ticket.select(Ticket.id, Ticket.inside, Ticket.presence_at).where(
        Ticket.organization_id == tenant.org_id
    )
    return [{**row, "id": str(row["id"])} for row in rows]


async def test_batches_scan_both_ways_in_order_of_scanned_at(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - 2 * HOUR, now() + HOUR)
    scanner_id = await scanner_with(client, tenant, "reentry")
    ticket_id = door.tickets[0]["id"]
    t = now() - HOUR
    scans = [
        {"ticket_id": ticket_id, "nonce": "3", "direction": "entry",
         "scanned_at": stamp(t + 3 * MINUTE)},
        {"ticket_id": ticket_id, "nonce": "1", "scanned_at": stamp(t + MINUTE)},
        {"ticket_id": ticket_id, "nonce": "2", "direction": "exit",
         "scanned_at": stamp(t + 2 * MINUTE)},
        {"ticket_id": ticket_id, "nonce": "4", "direction": "exit",
         "scanned_at": stamp(t + 4 * MINUTE)},
    ]  # fmt: skip
    body = {"scanner_id": scanner_id, "scans": scans}
    results = ok(await client.post("/scans/batch", json=body, headers=tenant.headers))["results"]
    assert [(r["nonce"], r["status"], r["direction"], r["inside"]) for r in results] == [
        ("3", "valid", "entry", True),
        ("1", "valid", "entry", True),
        ("2", "valid", "exit", False),
        ("4", "valid", "exit", False),
    ]
    again = ok(await client.post("/scans/batch", json=body, headers=tenant.headers))["results"]
    assert again == results
    wrong = {"scans": [{"ticket_id": ticket_id, "nonce": "x", "direction": "sideways"}]}
    rejected = problem(await client.post("/scans/batch", json=wrong, headers=tenant.headers), 400)
    assert [error["field"] for error in rejected["errors"]] == ["scans[0].direction"], rejected
    assert len(await scan_log(tenant, ticket_id)) == 4


async def test_graphql_scans_both_ways_under_a_policy(client: AsyncClient, tenant: Tenant) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    created = gql_data(
        await graphql(
            client,
            tenant.headers,
            operation("CreateDoorProfile"),
            {"input": {"name": "Gate", "entryPolicy": "reentry"}},
        )
    )["createScannerProfile"]
    assert created["entryPolicy"] == "reentry"
    scanner = await create_scanner(client, tenant, profile_id=created["id"])
    variables = {"ticketId": door.tickets[0]["id"], "scannerId": scanner["id"]}
    seen = []
    for direction in ("entry", "exit", "entry", "entry"):
        body = await graphql(
            client,
            tenant.headers,
            operation("ScanDirection"),
            {**variables, "direction": direction},
        )
        result = gql_data(body)["scanTicket"]
        seen.append((result["status"], result["reason"], result["direction"], result["inside"]))
    assert seen == [
        ("valid", None, "entry", True),
        ("valid", None, "exit", False),
        ("valid", None, "entry", True),
        ("scanned", "already_inside", "entry", True),
    ]
    bad = await graphql(
        client, tenant.headers, operation("ScanDirection"), {**variables, "direction": "up"}
    )
    assert bad["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"


async def test_entry_policy_is_checked_and_can_be_changed(
    client: AsyncClient, tenant: Tenant
) -> None:
    body = {"name": "Gate", "entry_policy": "often"}
    rejected = problem(
        await client.post("/scanner_profiles", json=body, headers=tenant.headers), 400
    )
    assert "entry_policy" in rejected["detail"]
    profile = await create_profile(client, tenant)
    assert profile["entry_policy"] == "single"
    changed = ok(
        await client.patch(
            f"/scanner_profiles/{profile['id']}",
            json={"entry_policy": "multiple"},
            headers=tenant.headers,
        )
    )
    assert changed["entry_policy"] == "multiple"
