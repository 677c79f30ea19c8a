"""Attendance (CONTRACT.md section 17): admitted, inside, entries and exits, exact under any
concurrency and any order of offline uploads; the oracle is a recount from the scan log."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any
from uuid import UUID

import httpx
import pytest
from httpx import AsyncClient

from db.tables import Scan, Ticket
from tests.graphql.test_subscriptions import subscribed
from tests.processes import served, serving
from tests.scanning.support import HOUR, MINUTE, door_at, now, stamp
from tests.support import (
    Tenant,
    create_profile,
    create_scanner,
    gql_data,
    graphql,
    key_for,
    ok,
    operation,
    problem,
)


async def attendance(client: AsyncClient, tenant: Tenant, event_id: str) -> dict[str, Any]:
    return ok(await client.get(f"/events/{event_id}/attendance", headers=tenant.headers))


async def recount(event_id: str) -> dict[str, Any]:
    """The attendance the scan log says, counted the slow way: a ticket is admitted if it has a
    valid entry, inside if its latest valid scan by ``scanned_at`` is an entry."""
    rows = await Scan.raw(
        "SELECT s.ticket_id, s.direction, s.scanned_at, t.event_timeslot_id FROM scans s "
        "JOIN tickets t ON t.id = s.ticket_id WHERE t.event_id = {} AND s.status = 'valid' "
        "ORDER BY s.scanned_at",
        UUID(event_id),
    )
    latest: dict[UUID, tuple[datetime, str, UUID]] = {}
    admitted: set[UUID] = set()
    entries = exits = 0
    for row in rows:
        if row["direction"] == "entry":
            entries += 1
            admitted.add(row["ticket_id"])
        else:
            exits += 1
        if row["ticket_id"] not in latest or row["scanned_at"] > latest[row["ticket_id"]][0]:
            latest[row["ticket_id"]] = (
                row["scanned_at"], row["direction"], row["event_timeslot_id"],
            )  # fmt: skip
    inside = [ticket for ticket, (_, direction, _) in latest.items() if direction == "entry"]
    stored = await Ticket.select(Ticket.id).where(
        Ticket.event_id == UUID(event_id), Ticket.inside.eq(True)
    )
    assert {row["id"] for row in stored} == set(inside)
    return {"admitted": len(admitted), "inside": len(inside), "entries": entries, "exits": exits}


def totals(figures: dict[str, Any]) -> dict[str, Any]:
    return {name: figures[name] for name in ("admitted", "inside", "entries", "exits")}


async def test_attendance_counts_admissions_presence_and_scans_per_timeslot(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=3)
    event_id = door.venue.event["id"]
    empty = await attendance(client, tenant, event_id)
    assert empty == {
        "event_id": event_id, "admitted": 0, "inside": 0, "entries": 0, "exits": 0,
        "timeslots": [{"timeslot_id": door.venue.timeslot["id"], "admitted": 0, "inside": 0}],
    }  # fmt: skip
    profile = await create_profile(client, tenant, entry_policy="reentry")
    scanner = (await create_scanner(client, tenant, profile_id=profile["id"]))["id"]
    first, second, third = (entry["id"] for entry in door.tickets)
    for ticket_id, direction in [
        (first, "entry"), (second, "entry"), (first, "exit"), (first, "entry"),
        (first, "entry"),  # already inside: refused, counts nothing
        (third, "exit"),  # not inside: refused
        (second, "exit"),
    ]:  # fmt: skip
        ok(
            await client.post(
                f"/tickets/{ticket_id}/scan",
                json={"direction": direction, "scanner_id": scanner},
                headers=tenant.headers,
            )
        )
    figures = await attendance(client, tenant, event_id)
    assert totals(figures) == {"admitted": 2, "inside": 1, "entries": 3, "exits": 2}
    assert figures["timeslots"] == [
        {"timeslot_id": door.venue.timeslot["id"], "admitted": 2, "inside": 1}
    ]
    assert totals(figures) == await recount(event_id)
    body = gql_data(
        await graphql(client, tenant.headers, operation("EventAttendance"), {"id": event_id})
    )
    assert body["event"]["attendance"] == {
        "admitted": 2, "inside": 1, "entries": 3, "exits": 2,
        "timeslots": [{"timeslotId": door.venue.timeslot["id"], "admitted": 2, "inside": 1}],
    }  # fmt: skip
    problem(await client.get(f"/events/{event_id}/attendance", headers=other_tenant.headers), 404)
    orders_only = await key_for(tenant, ["orders.read"])
    problem(await client.get(f"/events/{event_id}/attendance", headers=orders_only), 403)


TICKETS = 24
SCANS_PER_TICKET = 6


def journeys(ticket_ids: list[str], start: datetime) -> list[dict[str, Any]]:
    """Each ticket's scans at the door, at distinct moments, most of them alternating in and out
    as a visitor would, some repeated (a second door scanning the same visitor)."""
    rng = random.Random(26)
    scans = []
    for index, ticket_id in enumerate(ticket_ids):
        direction = "entry"
        for step in range(SCANS_PER_TICKET):
            moment = start + (index * SCANS_PER_TICKET + step) * MINUTE / 100
            scans.append(
                {"ticket_id": ticket_id, "nonce": f"{ticket_id}:{step}",
                 "scanned_at": stamp(moment), "direction": direction}
            )  # fmt: skip
            if rng.random() < 0.8:
                direction = "exit" if direction == "entry" else "entry"
    rng.shuffle(scans)
    return scans


@pytest.fixture(scope="module")
async def replicas(database: None) -> AsyncIterator[list[str]]:
    async with serving(2) as urls:
        yield urls


@pytest.mark.slow
async def test_attendance_stays_exact_under_races_across_two_servers_and_late_batches(
    client: AsyncClient, tenant: Tenant, replicas: list[str]
) -> None:
    """Entries and exits of 24 tickets sent at once through two servers, one by one and in
    batches of shuffled, out-of-order scans (a batch runs its items by ``scanned_at``, but each
    arrives whenever it arrives): whatever each scan was decided, the counters equal the recount
    of the scan log, and so does every ticket's presence."""
    door = await door_at(client, tenant, now() - 2 * HOUR, now() + HOUR, tickets=TICKETS)
    event_id = door.venue.event["id"]
    profile = await create_profile(client, tenant, entry_policy="reentry")
    scanner = (await create_scanner(client, tenant, profile_id=profile["id"]))["id"]
    scans = journeys([entry["id"] for entry in door.tickets], now() - HOUR)
    singles, batched = scans[: len(scans) // 2], scans[len(scans) // 2 :]
    batches = [batched[i : i + 12] for i in range(0, len(batched), 12)]
    async with (
        httpx.AsyncClient(base_url=replicas[0], headers=tenant.headers, timeout=60) as first,
        httpx.AsyncClient(base_url=replicas[1], headers=tenant.headers, timeout=60) as second,
    ):
        requests = [
            (first if i % 2 else second).post(
                f"/tickets/{scan['ticket_id']}/scan",
                json={**{k: v for k, v in scan.items() if k != "ticket_id"}, "scanner_id": scanner},
            )
            for i, scan in enumerate(singles)
        ] + [
            (second if i % 2 else first).post(
                "/scans/batch", json={"scanner_id": scanner, "scans": batch}
            )
            for i, batch in enumerate(batches)
        ]
        answers = [ok(response) for response in await asyncio.gather(*requests)]
    statuses = [a["status"] for a in answers if "status" in a] + [
        r["status"] for a in answers if "results" in a for r in a["results"]
    ]
    assert "valid" in statuses and "not_allowed" in statuses  # both kinds of decision happened
    figures = await attendance(client, tenant, event_id)
    assert totals(figures) == await recount(event_id)
    assert figures["timeslots"][0]["inside"] == figures["inside"]


async def test_the_attendance_subscription_hears_admissions_and_exits(
    client: AsyncClient, tenant: Tenant
) -> None:
    door = await door_at(client, tenant, now() - HOUR, now() + HOUR, tickets=2)
    event_id = door.venue.event["id"]
    ticket_id = door.tickets[0]["id"]
    async with served() as server:
        query = operation("EventAttendanceLive")
        async with subscribed(server.url, tenant.key, query, {"eventId": event_id}) as subscriber:
            heard = [(await subscriber.next())["attendance"]]
            async with httpx.AsyncClient(
                base_url=server.url, headers=tenant.headers, timeout=30
            ) as http:
                path = f"/tickets/{ticket_id}/scan"
                for direction in ("entry", "entry"):  # the second is refused: no new figures
                    ok(await http.post(path, json={"direction": direction}))
                heard.append((await subscriber.next())["attendance"])
                ok(await http.post(path, json={"direction": "exit"}))
                heard.append((await subscriber.next())["attendance"])
    assert [(f["admitted"], f["inside"], f["entries"], f["exits"]) for f in heard] == [
        (0, 0, 0, 0), (1, 1, 1, 0), (1, 0, 1, 1),
    ]  # fmt: skip
