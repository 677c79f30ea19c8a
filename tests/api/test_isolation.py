"""Cross-organization isolation: another organization's rows do not exist for the caller.

Every route answers a foreign id exactly as it answers an id that exists nowhere (404, same
problem), writes through a foreign id change nothing, and lists never show foreign rows.
"""

from __future__ import annotations

import uuid
from typing import Any

from httpx import AsyncClient

from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_event,
    create_ticket_type,
    create_timeslot,
    create_venue,
    ok,
    place_order,
    problem,
)


async def owned_rows(client: AsyncClient, tenant: Tenant) -> dict[str, dict[str, Any]]:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    [ticket, _] = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"order_id": order["id"]},
            headers=tenant.headers,
        )
    )["data"]
    return {
        "event": venue.event,
        "ticket_type": venue.ticket_type,
        "timeslot": venue.timeslot,
        "order": order,
        "ticket": ticket,
    }


def routes(ids: dict[str, str]) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every route that addresses a row by id, with a body that would succeed for the owner."""
    event, order, ticket = ids["event"], ids["order"], ids["ticket"]
    return [
        ("GET", f"/events/{event}", None),
        ("PATCH", f"/events/{event}", {"title": "Taken over"}),
        ("GET", f"/events/{event}/ticket_types", None),
        ("POST", f"/events/{event}/ticket_types", {"name": "Intruder", "price": 1}),
        ("GET", f"/events/{event}/timeslots", None),
        (
            "POST",
            f"/events/{event}/timeslots",
            {
                "title": "Intruder",
                "starts_at": f"{YEAR}-01-01T10:00:00Z",
                "ends_at": f"{YEAR}-01-01T11:00:00Z",
                "total_available": 1,
            },
        ),
        ("GET", f"/events/{event}/tickets", None),
        ("GET", f"/orders/{order}", None),
        ("POST", f"/orders/{order}/confirm", None),
        ("POST", f"/orders/{order}/refund", {"amount": 1}),
        ("POST", f"/orders/{order}/cancel", None),
        ("GET", f"/tickets/{ticket}", None),
        ("POST", f"/tickets/{ticket}/cancel", None),
    ]


async def test_foreign_ids_answer_like_unknown_ids_on_every_route(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    rows = await owned_rows(client, tenant)
    real = {name: row["id"] for name, row in rows.items()}
    fake = {name: str(uuid.uuid4()) for name in rows}
    for (method, path, body), (_, unknown_path, _) in zip(routes(real), routes(fake), strict=True):
        foreign = problem(
            await client.request(method, path, json=body, headers=other_tenant.headers), 404
        )
        unknown = problem(
            await client.request(method, unknown_path, json=body, headers=other_tenant.headers),
            404,
        )
        for name in rows:
            foreign["detail"] = foreign["detail"].replace(real[name], "<id>")
            unknown["detail"] = unknown["detail"].replace(fake[name], "<id>")
        assert foreign == unknown, (method, path)


async def test_writes_through_foreign_ids_change_nothing(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    rows = await owned_rows(client, tenant)
    ids = {name: row["id"] for name, row in rows.items()}
    for method, path, body in routes(ids):
        if method != "GET":
            await client.request(method, path, json=body, headers=other_tenant.headers)
    headers = tenant.headers
    assert ok(await client.get(f"/events/{ids['event']}", headers=headers)) == rows["event"]
    assert ok(await client.get(f"/orders/{ids['order']}", headers=headers)) == rows["order"]
    assert ok(await client.get(f"/tickets/{ids['ticket']}", headers=headers)) == rows["ticket"]
    for sub, row in (("ticket_types", "ticket_type"), ("timeslots", "timeslot")):
        listed = ok(await client.get(f"/events/{ids['event']}/{sub}", headers=headers))
        assert listed["data"] == [rows[row]]


async def test_lists_show_only_the_callers_rows(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    rows = await owned_rows(client, tenant)
    mine = await owned_rows(client, other_tenant)
    headers = other_tenant.headers
    events = ok(await client.get("/events", headers=headers))
    assert [e["id"] for e in events["data"]] == [mine["event"]["id"]]
    orders = ok(await client.get("/orders", headers=headers))
    assert [o["id"] for o in orders["data"]] == [mine["order"]["id"]]
    filtered = ok(
        await client.get("/orders", params={"event_id": rows["event"]["id"]}, headers=headers)
    )
    assert filtered["data"] == [] and filtered["pagination"]["total"] == 0
    tickets = ok(
        await client.get(
            f"/events/{mine['event']['id']}/tickets",
            params={"order_id": rows["order"]["id"]},
            headers=headers,
        )
    )
    assert tickets["data"] == [] and tickets["pagination"]["total"] == 0


async def test_orders_cannot_reference_foreign_rows(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    theirs = await owned_rows(client, tenant)
    event = await create_event(client, other_tenant)
    ticket_type = await create_ticket_type(client, other_tenant, event["id"])
    timeslot = await create_timeslot(client, other_tenant, event["id"])

    def order(event_id: str, timeslot_id: str, ticket_type_id: str) -> dict[str, Any]:
        return {
            "event_id": event_id,
            "event_timeslot_id": timeslot_id,
            "buyer_name": "Mallory",
            "buyer_email": "mallory@example.com",
            "channel": "online",
            "payment_method": "card",
            "tickets": [{"ticket_type_id": ticket_type_id}],
        }

    headers = other_tenant.headers
    for body, status in (
        (order(theirs["event"]["id"], theirs["timeslot"]["id"], theirs["ticket_type"]["id"]), 404),
        (order(event["id"], theirs["timeslot"]["id"], ticket_type["id"]), 404),
        (order(event["id"], timeslot["id"], theirs["ticket_type"]["id"]), 400),
    ):
        problem(await client.post("/orders", json=body, headers=headers), status)
    ok(
        await client.post(
            "/orders", json=order(event["id"], timeslot["id"], ticket_type["id"]), headers=headers
        ),
        201,
    )
    slot = {
        "title": "Mixed",
        "starts_at": f"{YEAR}-01-01T10:00:00Z",
        "ends_at": f"{YEAR}-01-01T11:00:00Z",
        "total_available": 1,
        "ticket_type_ids": [theirs["ticket_type"]["id"]],
    }
    body = problem(
        await client.post(f"/events/{event['id']}/timeslots", json=slot, headers=headers), 400
    )
    assert body["errors"][0]["field"] == "ticket_type_ids"
    tickets = ok(
        await client.get(f"/events/{theirs['event']['id']}/tickets", headers=tenant.headers)
    )
    assert tickets["pagination"]["total"] == 2
