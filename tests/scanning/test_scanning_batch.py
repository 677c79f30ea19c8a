"""Batch upload of offline scans (CONTRACT.md section 11): ``POST /scans/batch`` and
``scanTickets``. Items run in order of ``scanned_at`` with the single scan's rules, results come
back in the request's order, an invalid item rejects the whole batch, and the batch costs a fixed
number of statements whatever its size."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from httpx import AsyncClient

from app.runtime import live
from app.schemas.scanning import BatchScan, BatchScanItem
from app.services import scanning
from tests import harness
from tests.dates import YEAR
from tests.scanning.support import (
    HOUR,
    MINUTE,
    door_at,
    now,
    principal_of,
    scan_log,
    scanned_events,
    stamp,
    ticket,
)
from tests.statements import count_statements
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


async def upload(
    client: AsyncClient, tenant: Tenant, scans: list[dict[str, Any]], **body: Any
) -> list[dict[str, Any]]:
    response = await client.post(
        "/scans/batch", json={"scans": scans, **body}, headers=tenant.headers
    )
    results = ok(response)["results"]
    assert [result["nonce"] for result in results] == [scan["nonce"] for scan in scans]
    return results


async def test_items_run_in_order_of_scanned_at_and_answer_in_request_order(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    first, second = door.tickets
    early, later = now() - 20 * MINUTE, now() - 10 * MINUTE
    scans = [
        {"ticket_id": first["id"], "nonce": "a", "scanned_at": stamp(later)},
        {"scannable_code": second["scannable_code"], "nonce": "b"},
        {"scannable_code": first["scannable_code"], "nonce": "c", "scanned_at": stamp(early)},
        {"ticket_id": second["id"], "nonce": "d", "scanned_at": stamp(early)},
    ]
    a, b, c, d = await upload(client, tenant, scans)
    # c (early) admitted the first ticket; a, later, found it scanned at c's time.
    assert (c["status"], c["scanned_before"], c["scanned_at"]) == ("valid", False, stamp(early))
    assert (a["status"], a["reason"], a["scanned_before"]) == ("scanned", "already_scanned", True)
    assert a["scanned_at"] == stamp(early) and a["ticket_id"] == first["id"]
    # d (early) before b (now, the default).
    assert d["status"] == "valid" and b["status"] == "scanned" and b["scanned_at"] == stamp(early)
    assert (await ticket(client, tenant, first["id"]))["scanned_at"] == stamp(early)
    log = await scan_log(tenant, first["id"])
    assert sorted((row["nonce"], row["status"]) for row in log) == [
        ("a", "scanned"),
        ("c", "valid"),
    ]
    assert {row["scanned_at"] for row in log} == {early, later}


async def test_ties_run_in_array_order(client: AsyncClient, tenant: Tenant) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    at = stamp(now() - MINUTE)
    code = door.tickets[0]["scannable_code"]
    scans = [{"scannable_code": code, "nonce": f"t{i}", "scanned_at": at} for i in range(3)]
    statuses = [result["status"] for result in await upload(client, tenant, scans)]
    assert statuses == ["valid", "scanned", "scanned"]


async def test_an_invalid_item_rejects_the_batch_and_nothing_runs(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=4)
    good = [{"ticket_id": t["id"], "nonce": f"ok-{t['id']}"} for t in door.tickets[:3]]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"ticket_id": door.tickets[3]["id"], "nonce": "x", "scanned_at": stamp(now() + HOUR)},
         "scans[3].scanned_at"),
        ({"ticket_id": door.tickets[3]["id"], "nonce": "x", "scanned_at": f"{YEAR}-01-01T00:00:00"},
         "scans[3].scanned_at"),
        ({"ticket_id": door.tickets[3]["id"]}, "scans[3].nonce"),
        ({"ticket_id": door.tickets[3]["id"], "nonce": ""}, "scans[3].nonce"),
        ({"ticket_id": door.tickets[3]["id"], "nonce": "n" * 65}, "scans[3].nonce"),
        ({"nonce": "x"}, "scans[3].ticket_id"),
        ({"ticket_id": door.tickets[3]["id"], "scannable_code": "C", "nonce": "x"},
         "scans[3].ticket_id"),
        ({"ticket_id": "not-a-uuid", "nonce": "x"}, "scans[3].ticket_id"),
        ({"ticket_id": door.tickets[3]["id"], "nonce": "x", "seat": "A1"}, "scans[3].seat"),
    ]  # fmt: skip
    for item, field in cases:
        response = await client.post(
            "/scans/batch", json={"scans": [*good, item]}, headers=tenant.headers
        )
        rejected = problem(response, 400)
        assert [error["field"] for error in rejected["errors"]] == [field], (item, rejected)
    for body, field in (
        ({"scans": []}, "scans"),
        ({"scans": [good[0]] * 501}, "scans"),
        ({}, "scans"),
        ({"scans": good, "scanner_id": "nope"}, "scanner_id"),
    ):
        rejected = problem(
            await client.post("/scans/batch", json=body, headers=tenant.headers), 400
        )
        assert [error["field"] for error in rejected["errors"]] == [field], (body, rejected)
    for entry in door.tickets:
        assert (await ticket(client, tenant, entry["id"]))["status"] == "valid"
        assert await scan_log(tenant, entry["id"]) == []
    assert await scanned_events(tenant) == []


async def test_unknown_tickets_are_not_found_items(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR)
    foreign = await door_at(client, other_tenant, now() - HOUR, now() + HOUR)
    unknown_id = str(uuid.uuid4())
    scans = [
        {"ticket_id": unknown_id, "nonce": "1"},
        {"scannable_code": "NO-SUCH-CODE", "nonce": "2"},
        {"ticket_id": foreign.tickets[0]["id"], "nonce": "3"},
        {"scannable_code": foreign.tickets[0]["scannable_code"], "nonce": "4"},
        {"ticket_id": door.tickets[0]["id"], "nonce": "5"},
    ]
    *missing, found = await upload(client, tenant, scans)
    assert [item["status"] for item in missing] == ["not_found"] * 4
    assert missing[0]["ticket_id"] == unknown_id and missing[1]["ticket_id"] is None
    assert all(item["event"] is None and item["reason"] is None for item in missing)
    assert found["status"] == "valid"
    assert (await ticket(client, other_tenant, foreign.tickets[0]["id"]))["status"] == "valid"


async def test_the_batch_keeps_the_single_scan_rules(client: AsyncClient, tenant: Tenant) -> None:
    """The decision order of section 5 at each item's scanned_at: window, cancelled, pending."""
    ends = now() - HOUR
    door = await door_at(client, tenant, ends - HOUR, ends, tickets=3, order_scanning_enabled=True)
    profile = await create_profile(client, tenant, closes_minutes_after_end=15)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    in_time, too_late, cancelled = door.tickets
    ok(await client.post(f"/tickets/{cancelled['id']}/cancel", headers=tenant.headers))
    scans = [
        {"ticket_id": in_time["id"], "nonce": "1", "scanned_at": stamp(ends)},
        {"ticket_id": too_late["id"], "nonce": "2", "scanned_at": stamp(ends + 16 * MINUTE)},
        {"ticket_id": cancelled["id"], "nonce": "3", "scanned_at": stamp(ends)},
    ]
    results = await upload(client, tenant, scans, scanner_id=scanner["id"])
    assert [(r["status"], r["reason"]) for r in results] == [
        ("valid", None),
        ("not_allowed", "too_late"),
        ("cancelled", "cancelled"),
    ]
    related = {item["id"]: item for item in results[0]["related_tickets"]}
    assert set(related) == {too_late["id"], cancelled["id"]}
    assert related[cancelled["id"]]["cancelled_at"] is not None


async def test_nonces_replay_within_a_batch_and_across_batch_and_single_scans(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=3)
    first, second, third = door.tickets
    single = ok(
        await client.post(
            "/scans",
            json={"scannable_code": first["scannable_code"], "nonce": "single"},
            headers=tenant.headers,
        )
    )
    at = stamp(now() - 5 * MINUTE)
    scans = [
        {"ticket_id": second["id"], "nonce": "twice", "scanned_at": at},
        {"ticket_id": first["id"], "nonce": "single"},
        {"ticket_id": second["id"], "nonce": "twice"},
        {"ticket_id": third["id"], "nonce": "batch"},
    ]
    twice, replayed, again, batch = await upload(client, tenant, scans)
    assert {k: v for k, v in replayed.items() if k != "nonce"} == single
    assert twice["status"] == "valid" and again == twice
    # The whole batch sent again (a retry after a lost answer): the same answers, nothing new.
    assert await upload(client, tenant, scans) == [twice, replayed, again, batch]
    from_single = ok(
        await client.post(
            f"/tickets/{third['id']}/scan", json={"nonce": "batch"}, headers=tenant.headers
        )
    )
    assert {**from_single, "nonce": "batch"} == batch
    assert [len(await scan_log(tenant, t["id"])) for t in door.tickets] == [1, 1, 1]
    assert len(await scanned_events(tenant)) == 3


async def test_the_same_batch_sent_twice_at_once_runs_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=20)
    scans = [{"ticket_id": t["id"], "nonce": f"race-{t['id']}"} for t in door.tickets]
    responses = await asyncio.gather(
        *(
            client.post("/scans/batch", json={"scans": scans}, headers=tenant.headers)
            for _ in range(4)
        )
    )
    answers = [ok(response)["results"] for response in responses]
    assert all(answer == answers[0] for answer in answers)
    assert {result["status"] for result in answers[0]} == {"valid"}
    for entry in door.tickets:
        assert len(await scan_log(tenant, entry["id"])) == 1
    assert len(await scanned_events(tenant)) == 20


async def test_batches_and_single_scans_at_once_admit_each_ticket_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Two devices upload overlapping batches (tickets in opposite orders) while the door scans
    the same tickets online: every ticket is valid exactly once, and nothing deadlocks."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=30)
    ids = [t["id"] for t in door.tickets]

    def batch(device: str, order: list[str]) -> Any:
        scans = [{"ticket_id": i, "nonce": f"{device}-{i}"} for i in order]
        return client.post("/scans/batch", json={"scans": scans}, headers=tenant.headers)

    singles = [client.post(f"/tickets/{i}/scan", headers=tenant.headers) for i in ids]
    responses = await asyncio.gather(batch("up", ids), batch("down", ids[::-1]), *singles)
    up, down = (ok(response)["results"] for response in responses[:2])
    online = [ok(response) for response in responses[2:]]
    for position, ticket_id in enumerate(ids):
        statuses = [
            up[position]["status"],
            down[-1 - position]["status"],
            online[position]["status"],
        ]
        assert sorted(statuses) == ["scanned", "scanned", "valid"], (ticket_id, statuses)
        log = await scan_log(tenant, ticket_id)
        assert sorted(row["status"] for row in log) == ["scanned", "scanned", "valid"]
    assert len(await scanned_events(tenant)) == 30


async def test_each_valid_scan_emits_ticket_scanned_once(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=5)
    at = now() - 3 * MINUTE
    scans = [
        {"ticket_id": t["id"], "nonce": f"w-{t['id']}", "scanned_at": stamp(at)}
        for t in door.tickets
    ]
    scans += [{"ticket_id": door.tickets[0]["id"], "nonce": "w-again"}]
    results = await upload(client, tenant, scans, scanner_id=door.scanner["id"])
    assert [r["status"] for r in results] == ["valid"] * 5 + ["scanned"]
    events = await scanned_events(tenant)
    assert sorted(event["ticket_id"] for event in events) == sorted(t["id"] for t in door.tickets)
    for event in events:
        assert event["scanned_at"] == stamp(at) and event["scanner_id"] == door.scanner["id"]
        assert event["event_id"] == door.venue.event["id"]


async def test_live_subscribers_hear_every_scan_of_a_batch(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Through Redis (one pipelined publish for the batch), as replicas hear them."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=3)
    scans = [{"ticket_id": t["id"], "nonce": f"live-{t['id']}"} for t in door.tickets]
    scans.append({"ticket_id": str(uuid.uuid4()), "nonce": "live-unknown"})
    hub = live.hub_for(harness.REDIS_URL, harness.RUN_NAME)
    await hub.start()
    live.bind_hub(hub)
    try:
        principal = await principal_of(tenant)
        feed = await scanning.watch_scans(principal, uuid.UUID(door.venue.event["id"]))
        async with feed:
            await upload(client, tenant, scans)
            heard = [await asyncio.wait_for(anext(feed), 10) for _ in door.tickets]
            await upload(client, tenant, scans)  # replays: nothing new to hear
            path = f"/tickets/{door.tickets[0]['id']}/scan"
            ok(await client.post(path, headers=tenant.headers))
            last = await asyncio.wait_for(anext(feed), 10)
    finally:
        live.bind_hub(None)
        await hub.stop()
    assert [str(notice.ticket_id) for notice in heard] == [t["id"] for t in door.tickets]
    assert {notice.status for notice in heard} == {"valid"}
    assert str(last.ticket_id) == door.tickets[0]["id"] and last.status == "scanned"


async def test_a_batch_costs_the_same_statements_for_10_and_500_items(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Scanner, ticket load, the scan log, the admissions, the outbox, the related tickets:
    the same number of statements for 10 scans as for 500, first run and replayed."""
    principal = await principal_of(tenant)
    profile = await create_profile(client, tenant, closes_minutes_after_end=60)
    scanner = await create_scanner(client, tenant, profile_id=profile["id"])
    starts = now() - HOUR
    small = await door_at(
        client, tenant, starts, now() + HOUR, tickets=10, scanner=scanner,
        order_scanning_enabled=True,
    )  # fmt: skip
    large = await door_at(
        client, tenant, starts, now() + HOUR, tickets=100, orders=5, scanner=scanner,
        order_scanning_enabled=True,
    )  # fmt: skip
    counts: dict[str, list[int]] = {"first": [], "replayed": []}
    for door in (small, large):
        data = BatchScan(
            scanner_id=uuid.UUID(scanner["id"]),
            scans=[
                BatchScanItem(nonce=f"n-{t['id']}", scannable_code=t["scannable_code"])
                for t in door.tickets
            ],
        )
        for run in ("first", "replayed"):
            with count_statements() as counter:
                results = await scanning.scan_tickets(principal, data)
            assert {result.status for result in results} == {"valid"}  # replays: the first
            counts[run].append(counter.count)
            assert counter.count <= 12, counter.statements
    assert len(large.tickets) == 500
    assert counts["first"][0] == counts["first"][1], counts
    assert counts["replayed"][0] == counts["replayed"][1], counts


async def test_graphql_scan_tickets_gives_the_rest_results(
    client: AsyncClient, tenant: Tenant
) -> None:
    rest_door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2,
                              order_scanning_enabled=True)  # fmt: skip
    gql_door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2,
                             order_scanning_enabled=True)  # fmt: skip
    at = stamp(now() - MINUTE)

    def items(door: Any, prefix: str) -> list[dict[str, Any]]:
        first, second = door.tickets
        return [
            {"ticket_id": first["id"], "nonce": f"{prefix}-1", "scanned_at": at},
            {"scannable_code": second["scannable_code"], "nonce": f"{prefix}-2"},
            {"ticket_id": first["id"], "nonce": f"{prefix}-3"},
            {"ticket_id": str(uuid.UUID(int=1)), "nonce": f"{prefix}-4"},
        ]

    rest = await upload(client, tenant, items(rest_door, "rest"))
    gql_items = [
        {("scannableCode" if k == "scannable_code" else
          "ticketId" if k == "ticket_id" else
          "scannedAt" if k == "scanned_at" else k): v
         for k, v in item.items()}
        for item in items(gql_door, "gql")
    ]  # fmt: skip
    body = await graphql(
        client, tenant.headers, operation("ScanTickets"), {"input": {"scans": gql_items}}
    )
    results = gql_data(body)["scanTickets"]["results"]
    assert [r["status"] for r in results] == [r["status"] for r in rest]
    assert [r["status"] for r in rest] == ["valid", "valid", "scanned", "not_found"]
    for rest_item, gql_item in zip(rest, results, strict=True):
        assert rest_item["reason"] == gql_item["reason"]
        assert rest_item["scanned_before"] == gql_item["scannedBefore"]
    # The items that carried scanned_at (the second one was scanned "now", at each request).
    assert [results[i]["scannedAt"] for i in (0, 2)] == [rest[i]["scanned_at"] for i in (0, 2)]
    assert results[0]["relatedTickets"][0]["id"] == gql_door.tickets[1]["id"]
    bad = [*gql_items[:3], {"ticketId": gql_door.tickets[0]["id"], "nonce": ""}]
    body = await graphql(
        client, tenant.headers, operation("ScanTickets"), {"input": {"scans": bad}}
    )
    [error] = body["errors"]
    assert [e["field"] for e in error["extensions"]["errors"]] == ["scans[3].nonce"]


async def test_a_batch_with_an_idempotency_key_is_replayed_whole(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The idempotency key (CONTRACT.md section 10) and the nonces agree: the second request is
    the stored answer, marked replayed, and nothing runs again."""
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    scans = [{"ticket_id": t["id"], "nonce": f"k-{t['id']}"} for t in door.tickets]
    headers = {**tenant.headers, "Idempotency-Key": f"batch-{uuid.uuid4()}"}
    first = await client.post("/scans/batch", json={"scans": scans}, headers=headers)
    again = await client.post("/scans/batch", json={"scans": scans}, headers=headers)
    assert ok(again) == ok(first) and again.headers.get("Idempotent-Replayed") == "true"
    assert [r["status"] for r in ok(first)["results"]] == ["valid", "valid"]
    assert [len(await scan_log(tenant, t["id"])) for t in door.tickets] == [1, 1]
    assert len(await scanned_events(tenant)) == 2
