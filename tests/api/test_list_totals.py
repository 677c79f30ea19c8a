"""Exact list totals read from per-event counts (``db/counts.py``), kept by triggers in the
transactions that change tickets and orders: raced against each other, rolled back, and on both
engines from the migration that creates them."""

from __future__ import annotations

import asyncio
import importlib
import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.services.tickets import TICKETS
from db import lists
from db.tables import Ticket
from db.transactions import transaction
from tests.migrations.test_migrations import BEFORE, _order, _seed, fresh
from tests.statements import StatementCounter, count_statements
from tests.support import (
    Tenant,
    create_scanner,
    create_venue,
    ok,
    order_tickets,
    place_order,
    problem,
)

COUNTS = importlib.import_module("db.migrations.ticketing_2026_11_23t01_17_00_000000")


async def counted(event_id: str) -> dict[str, dict[str, int]]:
    """Each status's number of tickets and orders of the event, by ``COUNT(*)``."""
    found: dict[str, dict[str, int]] = {}
    for table in ("tickets", "orders"):
        rows = await Ticket.raw(
            f"SELECT status, COUNT(*) AS n FROM {table} WHERE event_id = {{}} GROUP BY status",
            uuid.UUID(event_id),
        )
        found[table] = {row["status"]: row["n"] for row in rows}
    return found


async def listed(client: httpx.AsyncClient, tenant: Tenant, event_id: str) -> dict[str, int]:
    """The totals the lists answer: tickets and orders of the event, and every order."""
    tickets = ok(await client.get(f"/events/{event_id}/tickets", headers=tenant.headers))
    orders = ok(await client.get("/orders", params={"event_id": event_id}, headers=tenant.headers))
    everything = ok(await client.get("/orders", headers=tenant.headers))
    return {
        "tickets": tickets["pagination"]["total"],
        "orders": orders["pagination"]["total"],
        "all orders": everything["pagination"]["total"],
    }


@pytest.mark.slow
async def test_totals_stay_exact_while_orders_scans_and_cancellations_race(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=1000, order_scanning_enabled=True)
    event_id = venue.event["id"]
    scanner = await create_scanner(client, tenant)
    seeded = [
        await place_order(
            client, tenant, event_id, venue.timeslot["id"], [venue.ticket_type["id"]] * 4,
            confirm=True,
        )
        for _ in range(6)
    ]  # fmt: skip
    tickets = [t for order in seeded for t in await order_tickets(client, tenant, order)]
    rng = random.Random(11)
    rng.shuffle(tickets)

    def new_order() -> Any:
        return client.post(
            "/orders",
            headers=tenant.headers,
            json={
                "event_id": event_id,
                "event_timeslot_id": venue.timeslot["id"],
                "buyer_name": "Racer",
                "buyer_email": "racer@example.com",
                "channel": "online",
                "payment_method": "card",
                "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * rng.randint(1, 3),
            },
        )

    work = [new_order() for _ in range(12)]
    work += [
        client.post("/scans", headers=tenant.headers,
                    json={"scannable_code": t["scannable_code"], "scanner_id": scanner["id"]})
        for t in tickets[:12]
    ]  # fmt: skip
    work += [
        client.post(f"/tickets/{t['id']}/cancel", headers=tenant.headers) for t in tickets[6:16]
    ]
    work += [client.post(f"/orders/{o['id']}/cancel", headers=tenant.headers) for o in seeded[:3]]
    rng.shuffle(work)
    for response in await asyncio.gather(*work):
        assert response.status_code in (200, 201), response.text

    exact = await counted(event_id)
    assert sum(exact["tickets"].values()) > 24 and set(exact["tickets"]) == {
        "valid", "scanned", "cancelled",
    }  # fmt: skip
    assert await listed(client, tenant, event_id) == {
        "tickets": sum(exact["tickets"].values()),
        "orders": sum(exact["orders"].values()),
        "all orders": sum(exact["orders"].values()),
    }
    kept = await Ticket.raw(
        "SELECT SUM(valid) AS valid, SUM(scanned) AS scanned, SUM(cancelled) AS cancelled "
        "FROM ticket_counts WHERE event_id = {}",
        uuid.UUID(event_id),
    )
    assert {status: int(n) for status, n in kept[0].items()} == exact["tickets"]


async def test_a_rolled_back_change_is_not_counted(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    before = await listed(client, tenant, venue.event["id"])
    with pytest.raises(RuntimeError):
        async with transaction():
            await Ticket.update({Ticket.status: "cancelled"}).where(
                Ticket.order_id == uuid.UUID(order["id"])
            )
            raise RuntimeError("changed my mind")
    assert await listed(client, tenant, venue.event["id"]) == before == {
        "tickets": 2, "orders": 1, "all orders": 1,
    }  # fmt: skip


async def test_counts_spread_over_many_connections_are_folded_and_stay_exact(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    await place_order(client, tenant, event_id, venue.timeslot["id"], [venue.ticket_type["id"]])
    for shard in range(-40, 0):  # as if forty more connections had each added and removed one
        await Ticket.raw(
            "INSERT INTO ticket_counts (organization_id, event_id, shard, valid, scanned, "
            "cancelled) VALUES ({}, {}, {}, 1, 0, -1)",
            tenant.org_id, uuid.UUID(event_id), shard,
        )  # fmt: skip
    assert (await listed(client, tenant, event_id))["tickets"] == 1
    rows = await Ticket.raw(
        "SELECT shard, valid, cancelled FROM ticket_counts WHERE event_id = {}", uuid.UUID(event_id)
    )
    assert [(row["shard"], row["valid"], row["cancelled"]) for row in rows] == [(0, 41, -40)]
    assert (await listed(client, tenant, event_id))["tickets"] == 1


async def test_a_page_under_an_event_is_one_statement_with_its_total_or_a_404(
    client: httpx.AsyncClient, tenant: Tenant, make_tenant: Any
) -> None:
    venue = await create_venue(client, tenant)
    event_id = venue.event["id"]
    other = await make_tenant()
    path = f"/events/{event_id}/tickets"
    for credential in (tenant, other):  # its key read once, then kept by the process
        ok(await client.get("/whoami", headers=credential.headers))

    def reads(counter: StatementCounter) -> list[str]:
        """The statements of the page (not the request log's, written beside it)."""
        return [sql for sql in counter.statements if "request_log" not in sql]

    with count_statements() as counter:
        empty = ok(await client.get(path, headers=tenant.headers))
    assert empty["data"] == [] and empty["pagination"]["total"] == 0
    assert len(reads(counter)) == 1, counter.statements
    for _ in range(3):
        await place_order(client, tenant, event_id, venue.timeslot["id"],
                          [venue.ticket_type["id"]] * 2)  # fmt: skip
    for limit, offset in ((4, 0), (4, 4), (25, 0)):
        with count_statements() as counter:
            page = ok(
                await client.get(
                    path, params={"limit": limit, "offset": offset}, headers=tenant.headers
                )
            )
        assert len(page["data"]) == min(limit, 6 - offset)
        assert page["pagination"]["total"] == 6
        assert page["pagination"]["has_more"] == (offset + limit < 6)
        assert len(reads(counter)) == 1, counter.statements
    with count_statements() as counter:
        problem(await client.get(path, headers=other.headers), 404)
    assert len(reads(counter)) == 1, counter.statements


async def test_a_page_shape_is_composed_once_and_serves_every_event(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    """A page's statement is kept per shape (``db.lists.fetch_kept_page``), composed once with a
    slot in the place of each value: each request gathers its values, which go where Piccolo
    compiled the slots of their names. Each event's page, from the one kept statement, holds its
    own tickets."""
    venues = [await create_venue(client, tenant) for _ in range(2)]
    orders = [
        await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
        )
        for venue in venues
    ]
    lists._kept.clear()
    pages = [
        ok(
            await client.get(
                f"/events/{venue.event['id']}/tickets", params={"limit": 7}, headers=tenant.headers
            )
        )
        for venue in venues
    ]
    assert len([shape for _, shape in lists._kept if shape.resource is TICKETS]) == 1
    for order, page in zip(orders, pages, strict=True):
        assert len(page["data"]) == 2 and page["pagination"]["total"] == 2
        assert {ticket["order_id"] for ticket in page["data"]} == {order["id"]}


async def test_totals_of_another_organization_are_not_read(
    client: httpx.AsyncClient, tenant: Tenant, make_tenant: Any
) -> None:
    venue = await create_venue(client, tenant)
    await place_order(client, tenant, venue.event["id"], venue.timeslot["id"],
                      [venue.ticket_type["id"]])  # fmt: skip
    other = await make_tenant()
    page = ok(
        await client.get("/orders", params={"event_id": venue.event["id"]}, headers=other.headers)
    )
    assert page["pagination"]["total"] == 0 and page["data"] == []
    problem(await client.get(f"/events/{venue.event['id']}/tickets", headers=other.headers), 404)


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_the_counts_start_from_the_existing_rows_and_follow_every_change(
    engine: str, tmp_path: Path
) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        ids = await _seed(db)
        orders = [await _order(db, ids), await _order(db, ids, status="confirmed")]

        async def ticket(order_id: uuid.UUID, status: str = "valid") -> uuid.UUID:
            ticket_id = uuid.uuid4()
            await db.execute(
                "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, "
                "ticket_type_id, order_id, scannable_code, sequence, status) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)",
                ticket_id, ids["org"], ids["event"], ids["slot"], ids["type"], order_id,
                uuid.uuid4().hex, status,
            )  # fmt: skip
            return ticket_id

        before = [await ticket(orders[0]), await ticket(orders[1], "scanned")]
        await db.migrate("forwards", COUNTS.ID)

        async def counts() -> tuple[Any, ...]:
            tickets = await db.rows(
                "SELECT SUM(valid), SUM(scanned), SUM(cancelled) FROM ticket_counts "
                "WHERE event_id = ?",
                ids["event"],
            )
            orders = await db.rows(
                "SELECT SUM(pending), SUM(confirmed), SUM(cancelled) FROM order_counts "
                "WHERE organization_id = ?",
                ids["org"],
            )
            return tuple(int(n) for n in tickets[0] + orders[0])

        assert await counts() == (1, 1, 0, 1, 1, 0)
        added = await ticket(orders[0])
        await db.execute("UPDATE tickets SET status = 'cancelled' WHERE id = ?", before[0])
        await db.execute("UPDATE tickets SET owner_name = 'Grace' WHERE id = ?", added)
        await db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", orders[0])
        await db.execute("DELETE FROM tickets WHERE id = ?", before[1])
        assert await counts() == (1, 0, 1, 0, 1, 1)
        await db.migrate("backwards", COUNTS.ID)
        assert not await db.rows(
            "SELECT 1 FROM tickets WHERE id = ? AND status = 'unheard of'", added
        )
