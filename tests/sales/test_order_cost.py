"""What an order outright costs the database (issue 25 item 5): on PostgreSQL one statement that
checks the sale, writes the order, its tickets and the ``order.created`` event and takes the
places last, committing by itself; when the places run out under it, nothing of it stays and the
buyer gets the 409."""

from __future__ import annotations

import uuid
from typing import Any

from httpx import AsyncClient

from db.tables import OutboxEvent, Ticket
from tests.sales.test_write_side import _while_in_flight
from tests.statements import count_statements
from tests.support import Tenant, Venue, create_venue, ok, order_tickets, problem


def order_body(venue: Venue, tickets: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "event_id": venue.event["id"],
        "event_timeslot_id": venue.timeslot["id"],
        "buyer_name": "Ada",
        "buyer_email": "Ada@Example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": tickets,
    }


async def created_events(tenant: Tenant) -> list[str]:
    rows = await OutboxEvent.select(OutboxEvent.payload).where(
        OutboxEvent.organization_id == tenant.org_id,
        OutboxEvent.event_type == "order.created",
    )
    return [str(row["payload"]) for row in rows]


async def availability(client: AsyncClient, tenant: Tenant, venue: Venue) -> dict[str, Any]:
    path = f"/events/{venue.event['id']}/availability"
    [figures] = ok(await client.get(path, headers=tenant.headers))["data"]
    return figures  # type: ignore[no-any-return]


async def test_an_order_outright_is_one_statement(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=10, price=12.5)
    one = [{"ticket_type_id": venue.ticket_type["id"]}]
    ok(await client.post("/orders", json=order_body(venue, one), headers=tenant.headers), 201)
    tickets = [
        {"ticket_type_id": venue.ticket_type["id"]},
        {
            "ticket_type_id": venue.ticket_type["id"],
            "owner_name": "Bob",
            "owner_email": "Bob@Example.com",
            "seat": "R1-7",
            "metadata": {"diet": "vegan", "age": 31},
            "metadata_fields": [{"key": "diet", "name": "Diet", "value": "vegan"}],
        },
    ]
    with count_statements() as counter:
        response = await client.post(
            "/orders", json=order_body(venue, tickets), headers=tenant.headers
        )
    order = ok(response, 201)
    assert counter.count == 1, counter.statements  # before issue 25 item 5: seven
    assert order["total_price"] == 25.0 and order["status"] == "pending"
    assert order["buyer_email"] == "ada@example.com"
    assert ok(await client.get(f"/orders/{order['id']}", headers=tenant.headers)) == order
    stored = await Ticket.select(Ticket.signed_code, Ticket.scan_key_id).where(
        Ticket.order_id == uuid.UUID(order["id"])
    )  # signed when written (a read would sign a ticket that was not)
    assert len(stored) == 2 and all(row["signed_code"] and row["scan_key_id"] for row in stored)
    first, second = await order_tickets(client, tenant, order)
    assert (first["sequence"], first["owner_name"], first["owner_email"]) == (
        1,
        "Ada",
        "ada@example.com",
    )
    assert (second["owner_name"], second["owner_email"], second["seat"]) == (
        "Bob",
        "bob@example.com",
        "R1-7",
    )
    assert second["metadata"] == {"diet": "vegan", "age": 31}
    assert [(f["key"], f["value"]) for f in second["metadata_fields"]] == [("diet", "vegan")]
    assert first["status"] == "valid" and first["scannable_code"] != second["scannable_code"]
    assert any(order["id"] in payload for payload in await created_events(tenant))
    assert (await availability(client, tenant, venue))["sold"] == 3


async def test_places_taken_under_the_statement_leave_nothing_of_it_and_answer_409(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The statement reads two places left, writes the order, then waits for the timeslot's row
    (another transaction took a place meanwhile): its claim fails, all it wrote is undone, and
    the order runs again in a transaction, which answers the 409."""
    venue = await create_venue(client, tenant, capacity=3)
    one = [{"ticket_type_id": venue.ticket_type["id"]}]
    ok(await client.post("/orders", json=order_body(venue, one), headers=tenant.headers), 201)
    two = one * 2
    answer = await _while_in_flight(
        client.post("/orders", json=order_body(venue, two), headers=tenant.headers),
        ("UPDATE timeslots SET sold = sold + 1 WHERE id = $1", uuid.UUID(venue.timeslot["id"])),
    )
    assert problem(answer, 409)["type"].endswith("/problems/sold-out")
    listed = ok(await client.get("/orders", headers=tenant.headers))["data"]
    assert len(listed) == 1 and len(await created_events(tenant)) == 1
    figures = await availability(client, tenant, venue)
    assert (figures["sold"], figures["available"]) == (2, 1)


async def test_an_order_of_a_hold_is_two_statements_and_a_409_one(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The hold read, then converted with the order written in one statement; an order outright
    that finds too few places answers its 409 from one statement. (A first order has this process
    keep the event's key for signed codes: orders sign with it without a read.)"""
    venue = await create_venue(client, tenant, capacity=4)
    one = [{"ticket_type_id": venue.ticket_type["id"]}]
    ok(await client.post("/orders", json=order_body(venue, one), headers=tenant.headers), 201)
    held = one * 2
    hold_body = {"event_id": venue.event["id"], "event_timeslot_id": venue.timeslot["id"]}
    hold = ok(
        await client.post("/holds", json={**hold_body, "tickets": held}, headers=tenant.headers),
        201,
    )
    buyer = {k: v for k, v in order_body(venue, []).items() if k.startswith(("buyer", "ch", "pay"))}
    with count_statements() as counter:
        response = await client.post(
            "/orders", json={**buyer, "hold_id": hold["id"]}, headers=tenant.headers
        )
    order = ok(response, 201)
    assert counter.count == 2, counter.statements
    assert order["total_price"] == 50.0 and len(await order_tickets(client, tenant, order)) == 2
    again = await client.post(
        "/orders", json={**buyer, "hold_id": hold["id"]}, headers=tenant.headers
    )
    assert problem(again, 409)["type"].endswith("/problems/hold-unavailable")
    figures = await availability(client, tenant, venue)
    assert (figures["sold"], figures["held"]) == (3, 0)
    with count_statements() as counter:
        short = await client.post("/orders", json=order_body(venue, held), headers=tenant.headers)
    assert "has 1 places left" in problem(short, 409)["detail"]
    assert counter.count == 1, counter.statements


async def test_a_hold_that_finds_too_few_places_answers_from_two_statements(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The sale's check reads the places left; too few as read, the hold does not try to take
    them: one more read says how many are left (and whether lapsed holds keep any)."""
    venue = await create_venue(client, tenant, capacity=2)
    hold_body = {"event_id": venue.event["id"], "event_timeslot_id": venue.timeslot["id"]}
    one = [{"ticket_type_id": venue.ticket_type["id"]}]
    ok(await client.post("/holds", json={**hold_body, "tickets": one}, headers=tenant.headers), 201)
    with count_statements() as counter:
        short = await client.post(
            "/holds", json={**hold_body, "tickets": one * 2}, headers=tenant.headers
        )
    assert "has 1 places left" in problem(short, 409)["detail"]
    assert counter.count == 2, counter.statements  # before: the claim too, three
    ok(await client.post("/holds", json={**hold_body, "tickets": one}, headers=tenant.headers), 201)
