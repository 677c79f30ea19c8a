"""Changing and deleting ticket types and timeslots, over REST and GraphQL.

What is sold is never lost or exceeded: a ticket type or timeslot something was ordered of stays,
capacity never goes below the tickets sold, and a scanner profile restricted to a row is never
widened by that row's deletion (docs/decisions.md, "Changing and deleting what is on sale").
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from httpx import AsyncClient, Response

from tests.dates import YEAR
from tests.operations.test_demo import running_demo
from tests.support import (
    Tenant,
    Venue,
    create_event,
    create_profile,
    create_ticket_type,
    create_timeslot,
    create_venue,
    gql_data,
    gql_error_codes,
    graphql,
    key_for,
    ok,
    operation,
    order_tickets,
    place_order,
    problem,
)


def _type_path(venue: Venue, ticket_type_id: str | None = None) -> str:
    return f"/events/{venue.event['id']}/ticket_types/{ticket_type_id or venue.ticket_type['id']}"


def _slot_path(venue: Venue, timeslot_id: str | None = None) -> str:
    return f"/events/{venue.event['id']}/timeslots/{timeslot_id or venue.timeslot['id']}"


async def _timeslot(client: AsyncClient, tenant: Tenant, venue: Venue) -> dict[str, Any]:
    page = ok(await client.get(f"/events/{venue.event['id']}/timeslots", headers=tenant.headers))
    return next(t for t in page["data"] if t["id"] == venue.timeslot["id"])


async def _ticket_type_ids(client: AsyncClient, tenant: Tenant, event_id: str) -> list[str]:
    page = ok(await client.get(f"/events/{event_id}/ticket_types", headers=tenant.headers))
    return [t["id"] for t in page["data"]]


# Ticket types


async def test_patch_ticket_type_changes_only_sent_fields_and_later_orders(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, price=25.0)
    before = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    patched = ok(
        await client.patch(_type_path(venue), json={"price": 30.5}, headers=tenant.headers)
    )
    assert patched == {**venue.ticket_type, "price": 30.5}
    renamed = ok(
        await client.patch(_type_path(venue), json={"name": "Early bird"}, headers=tenant.headers)
    )
    assert renamed == {**venue.ticket_type, "price": 30.5, "name": "Early bird"}
    unchanged = ok(await client.patch(_type_path(venue), json={}, headers=tenant.headers))
    assert unchanged == renamed
    after = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    assert after["total_price"] == 30.5
    order = ok(await client.get(f"/orders/{before['id']}", headers=tenant.headers))
    assert order["total_price"] == 25.0


async def test_swappable_is_inherited_by_live_tickets_whose_updated_at_moves(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    first, second = await order_tickets(client, tenant, order)
    ok(await client.post(f"/tickets/{second['id']}/cancel", headers=tenant.headers))
    cancelled = ok(await client.get(f"/tickets/{second['id']}", headers=tenant.headers))
    ok(await client.patch(_type_path(venue), json={"swappable": True}, headers=tenant.headers))
    live = ok(await client.get(f"/tickets/{first['id']}", headers=tenant.headers))
    assert live["swappable"] is True
    assert live["updated_at"] > first["updated_at"]
    changed = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets",
            params={"updated_since": live["updated_at"]},
            headers=tenant.headers,
        )
    )
    assert [t["id"] for t in changed["data"]] == [first["id"]]
    assert ok(await client.get(f"/tickets/{second['id']}", headers=tenant.headers)) == cancelled
    later = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    assert [t["swappable"] for t in await order_tickets(client, tenant, later)] == [True]


async def test_patch_ticket_type_bad_input_is_a_400_and_changes_nothing(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    for body, field in (
        ({"price": -1}, "price"),
        ({"price": 1.234}, "price"),
        ({"name": ""}, "name"),
        ({"swappable": "yes"}, "swappable"),
        ({"total_available": 3}, "total_available"),
    ):
        body_problem = problem(
            await client.patch(_type_path(venue), json=body, headers=tenant.headers), 400
        )
        assert [e["field"] for e in body_problem["errors"]] == [field], body
    bad_id = problem(
        await client.patch(_type_path(venue, "not-a-uuid"), json={}, headers=tenant.headers), 400
    )
    assert bad_id["errors"][0]["field"] == "ticket_type_id"
    assert await _ticket_type_ids(client, tenant, venue.event["id"]) == [venue.ticket_type["id"]]
    page = ok(await client.get(f"/events/{venue.event['id']}/ticket_types", headers=tenant.headers))
    assert page["data"] == [venue.ticket_type]


async def test_another_organizations_ticket_type_is_a_404(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    for request in (
        client.patch(_type_path(venue), json={"name": "Mine"}, headers=other_tenant.headers),
        client.delete(_type_path(venue), headers=other_tenant.headers),
    ):
        problem(await request, 404)
    elsewhere = await create_event(client, tenant)
    wrong_event = f"/events/{elsewhere['id']}/ticket_types/{venue.ticket_type['id']}"
    problem(await client.patch(wrong_event, json={"name": "X"}, headers=tenant.headers), 404)
    problem(await client.delete(wrong_event, headers=tenant.headers), 404)
    problem(await client.delete(_type_path(venue, str(uuid.uuid4())), headers=tenant.headers), 404)
    assert await _ticket_type_ids(client, tenant, venue.event["id"]) == [venue.ticket_type["id"]]


async def test_delete_ticket_type_nothing_was_ordered_of(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    spare = await create_ticket_type(client, tenant, venue.event["id"], name="Spare")
    ok(
        await client.patch(
            _slot_path(venue),
            json={"ticket_type_ids": [venue.ticket_type["id"], spare["id"]]},
            headers=tenant.headers,
        )
    )
    deleted = ok(await client.delete(_type_path(venue, spare["id"]), headers=tenant.headers))
    assert deleted == {"id": spare["id"], "deleted": True}
    assert await _ticket_type_ids(client, tenant, venue.event["id"]) == [venue.ticket_type["id"]]
    assert (await _timeslot(client, tenant, venue))["ticket_type_ids"] == [venue.ticket_type["id"]]
    problem(await client.delete(_type_path(venue, spare["id"]), headers=tenant.headers), 404)


async def test_delete_ticket_type_with_tickets_is_a_409_even_when_cancelled(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    sold = problem(await client.delete(_type_path(venue), headers=tenant.headers), 409)
    assert "1 tickets of this ticket type were ordered" in sold["detail"]
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    problem(await client.delete(_type_path(venue), headers=tenant.headers), 409)
    assert len(await order_tickets(client, tenant, order)) == 1


async def test_delete_ticket_type_a_profile_names_is_a_409_and_the_profile_stays_closed(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    vip = await create_ticket_type(client, tenant, venue.event["id"], name="VIP")
    profile = await create_profile(client, tenant, name="VIP door", ticket_type_ids=[vip["id"]])
    refused = problem(
        await client.delete(_type_path(venue, vip["id"]), headers=tenant.headers), 409
    )
    assert "'VIP door'" in refused["detail"] and profile["id"] in refused["detail"]
    profiles = ok(await client.get("/scanner_profiles", headers=tenant.headers))["data"]
    assert [p["ticket_type_ids"] for p in profiles] == [[vip["id"]]]
    ok(
        await client.patch(
            f"/scanner_profiles/{profile['id']}",
            json={"ticket_type_ids": [venue.ticket_type["id"]]},
            headers=tenant.headers,
        )
    )
    ok(await client.delete(_type_path(venue, vip["id"]), headers=tenant.headers))


async def test_delete_the_only_ticket_type_of_a_timeslot_is_a_409(
    client: AsyncClient, tenant: Tenant
) -> None:
    """Its link would go, and a timeslot listing no ticket types sells every one of them."""
    venue = await create_venue(client, tenant)
    refused = problem(await client.delete(_type_path(venue), headers=tenant.headers), 409)
    assert venue.timeslot["id"] in refused["detail"]
    assert "'Evening'" in refused["detail"]
    assert (await _timeslot(client, tenant, venue))["ticket_type_ids"] == [venue.ticket_type["id"]]


async def test_an_order_in_flight_cannot_lose_its_ticket_type(
    client: AsyncClient, tenant: Tenant
) -> None:
    """The naive ``DELETE ... WHERE NOT EXISTS (tickets)`` reads a snapshot taken before the
    order committed, so the cascade would then delete the order's tickets. Here the order's
    transaction (holding what ``place_order`` holds) is open while the delete runs: the delete
    waits for it, then sees its ticket and refuses."""
    venue = await create_venue(client, tenant)
    spare = await create_ticket_type(client, tenant, venue.event["id"], name="Spare")
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    refused = await _while_in_flight(
        client.delete(_type_path(venue, spare["id"]), headers=tenant.headers),
        ("SELECT id FROM ticket_types WHERE id = $1 FOR SHARE", uuid.UUID(spare["id"])),
        (
            "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, "
            "ticket_type_id, order_id, scannable_code, owner_name, owner_email, sequence, status, "
            "swappable, metadata, metadata_fields, created_at, updated_at) "
            "SELECT $1, organization_id, event_id, event_timeslot_id, $2, order_id, $3, "
            "owner_name, owner_email, 2, 'valid', false, '{}', '[]', now(), now() "
            "FROM tickets WHERE order_id = $4",
            uuid.uuid4(),
            uuid.UUID(spare["id"]),
            uuid.uuid4().hex,
            uuid.UUID(order["id"]),
        ),
    )
    assert "1 tickets of this ticket type were ordered" in problem(refused, 409)["detail"]
    assert len(await order_tickets(client, tenant, order)) == 2


async def test_an_order_in_flight_cannot_lose_its_timeslot(
    client: AsyncClient, tenant: Tenant
) -> None:
    """As above for a timeslot: the order has claimed capacity and is not committed yet."""
    venue = await create_venue(client, tenant)
    spare = await create_timeslot(client, tenant, venue.event["id"], title="Spare")
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    in_flight = uuid.uuid4()
    refused = await _while_in_flight(
        client.delete(_slot_path(venue, spare["id"]), headers=tenant.headers),
        ("UPDATE timeslots SET sold = sold + 1 WHERE id = $1", uuid.UUID(spare["id"])),
        (
            "INSERT INTO orders (id, organization_id, event_id, event_timeslot_id, buyer_name, "
            "buyer_email, channel, payment_method, total_price, refunded, status, created_at, "
            "updated_at) SELECT $1, organization_id, event_id, $2, buyer_name, buyer_email, "
            "channel, payment_method, total_price, refunded, status, now(), now() "
            "FROM orders WHERE id = $3",
            in_flight,
            uuid.UUID(spare["id"]),
            uuid.UUID(order["id"]),
        ),
    )
    assert "1 orders were placed for this timeslot" in problem(refused, 409)["detail"]
    ok(await client.get(f"/orders/{in_flight}", headers=tenant.headers))


async def test_a_profile_change_in_flight_keeps_its_new_target(
    client: AsyncClient, tenant: Tenant
) -> None:
    """A profile update naming the ticket type commits while the delete waits: the delete sees
    the profile and refuses, so the profile is not left with an empty (admit-all) list."""
    venue = await create_venue(client, tenant)
    vip = await create_ticket_type(client, tenant, venue.event["id"], name="VIP")
    profile = await create_profile(client, tenant, name="Open door")
    refused = await _while_in_flight(
        client.delete(_type_path(venue, vip["id"]), headers=tenant.headers),
        ("SELECT id FROM ticket_types WHERE id = $1 FOR KEY SHARE", uuid.UUID(vip["id"])),
        (
            "INSERT INTO scanner_profile_targets (id, profile_id, ticket_type_id) "
            "VALUES ($1, $2, $3)",
            uuid.uuid4(),
            uuid.UUID(profile["id"]),
            uuid.UUID(vip["id"]),
        ),
    )
    assert "'Open door'" in problem(refused, 409)["detail"]
    profiles = ok(await client.get("/scanner_profiles", headers=tenant.headers))["data"]
    assert [p["ticket_type_ids"] for p in profiles] == [[vip["id"]]]


async def _while_in_flight(
    request: Coroutine[Any, Any, Response], *statements: tuple[Any, ...]
) -> Response:
    """``request``'s answer when it is sent while another transaction, having run
    ``statements``, is still open: the request must wait for that transaction's locks (checked
    in pg_stat_activity), which then commits."""
    connection = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        in_flight = connection.transaction()
        await in_flight.start()
        for statement, *arguments in statements:
            await connection.execute(statement, *arguments)
        answer = asyncio.ensure_future(request)
        await _until_waiting_for_a_lock(connection)
        assert not answer.done()
        await in_flight.commit()
        return await answer
    finally:
        await connection.close()


async def _until_waiting_for_a_lock(connection: asyncpg.Connection) -> None:
    """Poll (bounded) until another session of this database waits for a row lock."""
    for _ in range(500):
        waiting = await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the request never waited for the open transaction's locks")


# Timeslots


async def test_patch_timeslot_changes_only_sent_fields(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant, capacity=10)
    extra = await create_ticket_type(client, tenant, venue.event["id"], name="Extra")
    patched = ok(
        await client.patch(
            _slot_path(venue),
            json={
                "title": "Late",
                "ends_at": f"{YEAR}-06-02T01:00:00+02:00",
                "ticket_type_ids": [extra["id"], venue.ticket_type["id"], extra["id"]],
            },
            headers=tenant.headers,
        )
    )
    assert patched == {
        **venue.timeslot,
        "title": "Late",
        "ends_at": f"{YEAR}-06-01T23:00:00Z",
        "ticket_type_ids": sorted([extra["id"], venue.ticket_type["id"]]),
    }
    assert await _timeslot(client, tenant, venue) == patched
    cleared = ok(
        await client.patch(_slot_path(venue), json={"ticket_type_ids": []}, headers=tenant.headers)
    )
    assert cleared["ticket_type_ids"] == [] and cleared["title"] == "Late"


async def test_capacity_cannot_go_below_the_tickets_sold(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=10)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 3
    )
    refused = problem(
        await client.patch(
            _slot_path(venue), json={"total_available": 2, "title": "X"}, headers=tenant.headers
        ),
        409,
    )
    assert "3 tickets of this timeslot are sold" in refused["detail"]
    assert (await _timeslot(client, tenant, venue))["title"] == "Evening"
    exact = ok(
        await client.patch(_slot_path(venue), json={"total_available": 3}, headers=tenant.headers)
    )
    assert exact["total_available"] == 3
    problem(
        await client.post(
            "/orders",
            json={
                "event_id": venue.event["id"],
                "event_timeslot_id": venue.timeslot["id"],
                "buyer_name": "B",
                "buyer_email": "b@example.com",
                "channel": "online",
                "payment_method": "card",
                "tickets": [{"ticket_type_id": venue.ticket_type["id"]}],
            },
            headers=tenant.headers,
        ),
        409,
    )
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    lowered = ok(
        await client.patch(_slot_path(venue), json={"total_available": 0}, headers=tenant.headers)
    )
    assert lowered["total_available"] == 0


async def test_concurrent_orders_and_a_capacity_cut_never_oversell(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=20)
    body = {
        "event_id": venue.event["id"],
        "event_timeslot_id": venue.timeslot["id"],
        "buyer_name": "B",
        "buyer_email": "b@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}],
    }
    orders = [client.post("/orders", json=body, headers=tenant.headers) for _ in range(16)]
    cut = client.patch(_slot_path(venue), json={"total_available": 8}, headers=tenant.headers)
    *placed, patched = await asyncio.gather(*orders, cut)
    sold = sum(response.status_code == 201 for response in placed)
    assert {response.status_code for response in placed} <= {201, 409}
    capacity = (await _timeslot(client, tenant, venue))["total_available"]
    if patched.status_code == 200:
        assert capacity == 8 and sold <= 8
    else:
        assert patched.status_code == 409 and capacity == 20 and sold > 8
    tickets = ok(
        await client.get(
            f"/events/{venue.event['id']}/tickets", params={"limit": 1}, headers=tenant.headers
        )
    )
    assert tickets["pagination"]["total"] == sold <= capacity


async def test_patch_timeslot_bad_input_is_a_400_and_changes_nothing(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    other = await create_venue(client, other_tenant)
    for body, field in (
        ({"ends_at": f"{YEAR}-06-01T17:00:00Z"}, "ends_at"),
        ({"starts_at": f"{YEAR}-06-01T18:00:00"}, "starts_at"),
        ({"total_available": -1}, "total_available"),
        ({"ticket_type_ids": [other.ticket_type["id"]]}, "ticket_type_ids"),
        ({"ticket_type_ids": ["nope"]}, "ticket_type_ids[0]"),
        ({"event_id": venue.event["id"]}, "event_id"),
    ):
        body_problem = problem(
            await client.patch(_slot_path(venue), json=body, headers=tenant.headers), 400
        )
        assert [e["field"] for e in body_problem["errors"]] == [field], body
    assert await _timeslot(client, tenant, venue) == venue.timeslot


async def test_another_organizations_timeslot_is_a_404(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    for request in (
        client.patch(_slot_path(venue), json={"title": "Mine"}, headers=other_tenant.headers),
        client.patch(_slot_path(venue), json={"total_available": 0}, headers=other_tenant.headers),
        client.delete(_slot_path(venue), headers=other_tenant.headers),
    ):
        problem(await request, 404)
    elsewhere = await create_event(client, tenant)
    wrong_event = f"/events/{elsewhere['id']}/timeslots/{venue.timeslot['id']}"
    problem(await client.patch(wrong_event, json={"title": "X"}, headers=tenant.headers), 404)
    problem(await client.delete(wrong_event, headers=tenant.headers), 404)
    assert await _timeslot(client, tenant, venue) == venue.timeslot


async def test_delete_timeslot(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    spare = await create_timeslot(
        client,
        tenant,
        venue.event["id"],
        title="Matinee",
        ticket_type_ids=[venue.ticket_type["id"]],
    )
    deleted = ok(await client.delete(_slot_path(venue, spare["id"]), headers=tenant.headers))
    assert deleted == {"id": spare["id"], "deleted": True}
    page = ok(await client.get(f"/events/{venue.event['id']}/timeslots", headers=tenant.headers))
    assert [t["id"] for t in page["data"]] == [venue.timeslot["id"]]
    problem(await client.delete(_slot_path(venue, spare["id"]), headers=tenant.headers), 404)
    assert await _ticket_type_ids(client, tenant, venue.event["id"]) == [venue.ticket_type["id"]]


async def test_delete_timeslot_with_orders_is_a_409_even_when_cancelled(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    refused = problem(await client.delete(_slot_path(venue), headers=tenant.headers), 409)
    assert "1 orders were placed for this timeslot (2 tickets sold" in refused["detail"]
    ok(await client.post(f"/orders/{order['id']}/cancel", headers=tenant.headers))
    problem(await client.delete(_slot_path(venue), headers=tenant.headers), 409)
    ok(await client.get(f"/orders/{order['id']}", headers=tenant.headers))


async def test_delete_timeslot_a_profile_names_is_a_409_and_the_profile_stays_closed(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    late = await create_timeslot(client, tenant, venue.event["id"], title="Late")
    profile = await create_profile(client, tenant, name="Late door", timeslot_ids=[late["id"]])
    refused = problem(
        await client.delete(_slot_path(venue, late["id"]), headers=tenant.headers), 409
    )
    assert "'Late door'" in refused["detail"] and "timeslot_ids" in refused["detail"]
    profiles = ok(await client.get("/scanner_profiles", headers=tenant.headers))["data"]
    assert [p["timeslot_ids"] for p in profiles] == [[late["id"]]]
    ok(
        await client.patch(
            f"/scanner_profiles/{profile['id']}",
            json={"timeslot_ids": [venue.timeslot["id"]]},
            headers=tenant.headers,
        )
    )
    ok(await client.delete(_slot_path(venue, late["id"]), headers=tenant.headers))


async def test_changing_needs_events_write(client: AsyncClient, tenant: Tenant) -> None:
    venue = await create_venue(client, tenant)
    reader = await key_for(tenant, ["events.read"])
    for request in (
        client.patch(_type_path(venue), json={"name": "X"}, headers=reader),
        client.delete(_type_path(venue), headers=reader),
        client.patch(_slot_path(venue), json={"title": "X"}, headers=reader),
        client.delete(_slot_path(venue), headers=reader),
    ):
        response = await request
        problem(response, 403)
        assert 'scope="events.write"' in response.headers["www-authenticate"]


# GraphQL


async def test_graphql_changes_and_deletes_like_rest(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=5)
    spare_type = await create_ticket_type(client, tenant, venue.event["id"], name="Spare")
    spare_slot = await create_timeslot(client, tenant, venue.event["id"], title="Spare")
    await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]] * 2
    )
    headers = tenant.headers

    updated = gql_data(
        await graphql(
            client,
            headers,
            operation("UpdateTicketType"),
            {"input": {"id": venue.ticket_type["id"], "price": 12.5, "swappable": True}},
        )
    )["updateTicketType"]
    rest = ok(await client.get(f"/events/{venue.event['id']}/ticket_types", headers=headers))
    rest_type = next(t for t in rest["data"] if t["id"] == venue.ticket_type["id"])
    assert updated == {
        "id": rest_type["id"], "eventId": rest_type["event_id"], "name": rest_type["name"],
        "price": 12.5, "swappable": True, "createdAt": rest_type["created_at"],
    }  # fmt: skip
    slot = gql_data(
        await graphql(
            client,
            headers,
            operation("UpdateTimeslot"),
            {"input": {"id": venue.timeslot["id"], "title": "Renamed", "totalAvailable": 2}},
        )
    )["updateTimeslot"]
    assert slot["title"] == "Renamed" and slot["totalAvailable"] == 2
    assert slot["ticketTypeIds"] == [venue.ticket_type["id"]]

    below = await graphql(
        client,
        headers,
        operation("UpdateTimeslot"),
        {"input": {"id": venue.timeslot["id"], "totalAvailable": 1}},
    )
    assert gql_error_codes(below) == ["CONFLICT"] and below["data"]["updateTimeslot"] is None
    bad = await graphql(
        client,
        headers,
        operation("UpdateTimeslot"),
        {"input": {"id": venue.timeslot["id"], "endsAt": "2000-01-01T00:00:00Z"}},
    )
    assert gql_error_codes(bad) == ["BAD_USER_INPUT"]
    negative = await graphql(
        client,
        headers,
        operation("UpdateTicketType"),
        {"input": {"id": venue.ticket_type["id"], "price": -1}},
    )
    assert gql_error_codes(negative) == ["BAD_USER_INPUT"]
    sold = await graphql(
        client, headers, operation("DeleteTicketType"), {"input": {"id": venue.ticket_type["id"]}}
    )
    assert gql_error_codes(sold) == ["CONFLICT"]
    assert "were ordered" in sold["errors"][0]["message"]
    ordered = await graphql(
        client, headers, operation("DeleteTimeslot"), {"input": {"id": venue.timeslot["id"]}}
    )
    assert gql_error_codes(ordered) == ["CONFLICT"]

    for name, target in (("DeleteTicketType", spare_type), ("DeleteTimeslot", spare_slot)):
        foreign = await graphql(
            client, other_tenant.headers, operation(name), {"input": {"id": target["id"]}}
        )
        assert gql_error_codes(foreign) == ["NOT_FOUND"]
        field = name[0].lower() + name[1:]
        gone = gql_data(
            await graphql(client, headers, operation(name), {"input": {"id": target["id"]}})
        )
        assert gone[field] == {"id": target["id"], "deleted": True}
    assert await _ticket_type_ids(client, tenant, venue.event["id"]) == [venue.ticket_type["id"]]
    foreign_update = await graphql(
        client,
        other_tenant.headers,
        operation("UpdateTicketType"),
        {"input": {"id": venue.ticket_type["id"], "name": "Mine"}},
    )
    assert gql_error_codes(foreign_update) == ["NOT_FOUND"]
    reader = await key_for(tenant, ["events.read"])
    forbidden = await graphql(
        client, reader, operation("DeleteTimeslot"), {"input": {"id": venue.timeslot["id"]}}
    )
    assert gql_error_codes(forbidden) == ["FORBIDDEN"]


async def test_the_write_side_on_sqlite(tmp_path: Path) -> None:
    """The demo's SQLite database: the same statements (no row locks there: its write
    transactions hold the database's lock) give the same answers."""
    async with (
        running_demo(tmp_path / "demo.sqlite3") as demo,
        httpx.AsyncClient(base_url=demo.base_url, headers=demo.headers, timeout=30) as client,
    ):
        event = ok(await client.get("/events", params={"sort": "starts_at:desc"}))["data"][0]
        base = f"/events/{event['id']}"
        slot = ok(await client.get(f"{base}/timeslots"))["data"][0]
        sold_type = slot["ticket_type_ids"][0]
        problem(await client.delete(f"{base}/ticket_types/{sold_type}"), 409)
        problem(await client.delete(f"{base}/timeslots/{slot['id']}"), 409)
        problem(
            await client.patch(f"{base}/timeslots/{slot['id']}", json={"total_available": 0}), 409
        )
        patched = ok(
            await client.patch(f"{base}/ticket_types/{sold_type}", json={"swappable": True})
        )
        assert patched["swappable"] is True
        spare = ok(
            await client.post(f"{base}/ticket_types", json={"name": "Spare", "price": 1}), 201
        )
        new_slot = ok(
            await client.post(
                f"{base}/timeslots",
                json={
                    "title": "Extra",
                    "starts_at": slot["starts_at"],
                    "ends_at": slot["ends_at"],
                    "total_available": 5,
                    "ticket_type_ids": [spare["id"]],
                },
            ),
            201,
        )
        problem(await client.delete(f"{base}/ticket_types/{spare['id']}"), 409)
        moved = ok(
            await client.patch(
                f"{base}/timeslots/{new_slot['id']}",
                json={"ticket_type_ids": [sold_type, spare["id"]], "total_available": 1},
            )
        )
        assert moved["total_available"] == 1
        ok(await client.delete(f"{base}/ticket_types/{spare['id']}"))
        ok(await client.delete(f"{base}/timeslots/{new_slot['id']}"))
