"""Orders and tickets: placing, capacity, confirmation, cancellation, refunds, the outbox."""

from __future__ import annotations

import asyncio
import uuid

from httpx import AsyncClient

from db.tables import OutboxEvent, Timeslot
from tests.support import Tenant, create_venue, ok, place_order, problem


async def outbox_types(tenant: Tenant) -> list[str]:
    rows = (
        await OutboxEvent.select(OutboxEvent.event_type)
        .where(OutboxEvent.organization_id == tenant.org_id)
        .order_by(OutboxEvent.created_at)
    )
    return [row["event_type"] for row in rows]


async def test_place_order_creates_pending_order_and_valid_tickets(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, price=12.5)
    order = ok(
        await client.post(
            "/orders",
            json={
                "event_id": venue.event["id"],
                "event_timeslot_id": venue.timeslot["id"],
                "buyer_name": "Ada",
                "buyer_email": "Ada@Example.com",
                "channel": "box_office",
                "payment_method": "cash",
                "tickets": [
                    {"ticket_type_id": venue.ticket_type["id"]},
                    {
                        "ticket_type_id": venue.ticket_type["id"],
                        "owner_name": "Bob",
                        "owner_email": "bob@example.com",
                        "seat": "R1-7",
                        "metadata": {"diet": "vegan", "age": 31},
                        "metadata_fields": [{"key": "diet", "name": "Diet", "value": "vegan"}],
                    },
                ],
            },
            headers=tenant.headers,
        ),
        201,
    )
    assert order["status"] == "pending" and order["payed_at"] is None
    assert order["total_price"] == 25.0 and order["refunded"] == 0
    assert set(order) == {
        "id", "event_id", "event_timeslot_id", "buyer_name", "buyer_email", "channel",
        "payment_method", "total_price", "refunded", "payed_at", "created_at", "updated_at",
        "status",
    }  # fmt: skip
    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": order["id"], "sort": "sequence:asc"},
            headers=tenant.headers,
        )
    )["data"]
    assert [t["sequence"] for t in tickets] == [1, 2]
    assert all(t["status"] == "valid" and t["scanned_at"] is None for t in tickets)
    assert tickets[0]["owner_name"] == "Ada" and tickets[0]["owner_email"] == "ada@example.com"
    assert tickets[1]["seat"] == "R1-7" and tickets[1]["metadata"] == {"diet": "vegan", "age": 31}
    [field] = tickets[1]["metadata_fields"]
    assert field["key"] == "diet" and uuid.UUID(field["id"])
    assert len({t["scannable_code"] for t in tickets}) == 2
    assert (
        ok(await client.get(f"/tickets/{tickets[1]['id']}", headers=tenant.headers)) == tickets[1]
    )
    assert await outbox_types(tenant) == ["order.created"]


async def test_concurrent_orders_never_oversell(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=7)
    body = {
        "event_id": venue.event["id"],
        "event_timeslot_id": venue.timeslot["id"],
        "buyer_name": "Racer",
        "buyer_email": "racer@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * 2,
    }
    responses = await asyncio.gather(
        *[client.post("/orders", json=body, headers=tenant.headers) for _ in range(12)]
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] * 3 + [409] * 9
    sold = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=tenant.headers))[
        "pagination"
    ]["total"]
    assert sold == 6
    one_more = {**body, "tickets": body["tickets"][:1]}
    ok(await client.post("/orders", json=one_more, headers=tenant.headers), 201)
    problem(await client.post("/orders", json=one_more, headers=tenant.headers), 409)


async def test_confirm_emits_once_and_cancel_frees_capacity(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=2)
    type_id = venue.ticket_type["id"]
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [type_id] * 2
    )
    first = ok(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers))
    again = ok(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers))
    assert first["status"] == "confirmed" and first["payed_at"] is not None
    assert again == first
    assert await outbox_types(tenant) == ["order.created", "order.confirmed"]
    cancelled = ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    assert cancelled["status"] == "cancelled"
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    assert (await outbox_types(tenant)).count("ticket.cancelled") == 2
    tickets = ok(await client.get(f"/events/{venue.event['id']}/tickets", headers=tenant.headers))[
        "data"
    ]
    assert all(t["status"] == "cancelled" and t["cancelled_at"] for t in tickets)
    [slot] = await Timeslot.select(Timeslot.sold).where(Timeslot.id == venue.timeslot["id"])
    assert slot["sold"] == 0
    problem(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers), 409)
    await place_order(client, tenant, venue.event["id"], venue.timeslot["id"], [type_id] * 2)


async def test_ticket_cancel_is_idempotent(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": order["id"]},
            headers=tenant.headers,
        )
    )["data"]
    first = ok(await client.post(f"/tickets/{tickets[0]['id']}/cancel", headers=tenant.headers))
    again = ok(await client.post(f"/tickets/{tickets[0]['id']}/cancel", headers=tenant.headers))
    assert first["status"] == "cancelled" and again == first
    assert (await outbox_types(tenant)).count("ticket.cancelled") == 1
    other = ok(await client.get(f"/tickets/{tickets[1]['id']}", headers=tenant.headers))
    assert other["status"] == "valid"


async def test_refunds_are_bounded_by_total(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, price=30)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    path = f"/orders/{order['id']}/refund"
    assert (
        ok(await client.post(path, json={"amount": 10.5}, headers=tenant.headers))["refunded"]
        == 10.5
    )
    assert (
        ok(await client.post(path, json={"amount": 19.5}, headers=tenant.headers))["refunded"] == 30
    )
    problem(await client.post(path, json={"amount": 0.01}, headers=tenant.headers), 409)
    problem(await client.post(path, json={"amount": 0}, headers=tenant.headers), 400)
    problem(await client.post(path, json={"amount": "lots"}, headers=tenant.headers), 400)


async def test_orders_list_filters_and_sorts(client: AsyncClient, tenant: Tenant) -> None:
    first = await create_venue(client, tenant, price=10)
    second = await create_venue(client, tenant, price=99)
    a = await place_order(
        client, tenant, first.event["id"], first.timeslot["id"], [first.ticket_type["id"]]
    )
    b = await place_order(
        client, tenant, second.event["id"], second.timeslot["id"], [second.ticket_type["id"]]
    )
    page = ok(
        await client.get("/orders", params={"sort": "total_price:desc"}, headers=tenant.headers)
    )
    assert [o["id"] for o in page["data"]] == [b["id"], a["id"]]
    only = ok(
        await client.get("/orders", params={"event_id": first.event["id"]}, headers=tenant.headers)
    )
    assert [o["id"] for o in only["data"]] == [a["id"]]
    nothing = ok(
        await client.get("/orders", params={"event_id": str(uuid.uuid4())}, headers=tenant.headers)
    )
    assert nothing["data"] == [] and nothing["pagination"]["total"] == 0
    problem(await client.get("/orders", params={"event_id": "nope"}, headers=tenant.headers), 400)
    problem(await client.get("/orders", params={"sort": "status:asc"}, headers=tenant.headers), 400)


async def test_ticket_record_has_spec_shape_and_pages(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [],
        tickets=[
            {
                "ticket_type_id": venue.ticket_type["id"],
                "metadata_fields": [{"key": "size", "name": "T-shirt size", "value": "M"}],
            }
        ]
        * 7,
    )
    path = f"/events/{venue.event['id']}/tickets"
    seen = []
    for offset, has_more in ((0, True), (3, True), (6, False)):
        page = ok(
            await client.get(
                path,
                params={"limit": 3, "offset": offset, "sort": "sequence:asc"},
                headers=tenant.headers,
            )
        )
        after = page["pagination"].pop("next_after")
        assert page["pagination"] == {
            "total": 7, "limit": 3, "offset": offset, "has_more": has_more,
        }  # fmt: skip
        assert (after is not None) == has_more
        seen += page["data"]
    assert [ticket["sequence"] for ticket in seen] == list(range(1, 8))
    ticket = seen[0]
    assert set(ticket) == {
        "id", "scannable_code", "signed_code", "event_timeslot_id", "ticket_type_id", "order_id",
        "owner_name",
        "owner_email", "seat", "sequence", "scanned_at", "status", "cancelled_at", "swappable",
        "created_at", "updated_at", "metadata", "metadata_fields",
    }  # fmt: skip
    assert ticket["order_id"] == order["id"]
    assert ticket["event_timeslot_id"] == venue.timeslot["id"]
    assert ticket["ticket_type_id"] == venue.ticket_type["id"]
    assert ticket["seat"] is None and ticket["metadata"] == {}
    assert ticket["created_at"].endswith("Z")
    [field] = ticket["metadata_fields"]
    assert set(field) == {"id", "key", "name", "value"} and field["value"] == "M"
    confirmed = ok(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers))
    assert confirmed["payed_at"].endswith("Z")
    assert ok(await client.get(f"/orders/{order['id']}", headers=tenant.headers)) == confirmed
    listed = ok(await client.get("/orders", headers=tenant.headers))
    assert listed["data"] == [confirmed] and listed["pagination"]["total"] == 1
