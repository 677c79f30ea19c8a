"""Every bound and bad input of CONTRACT.md sections 1 and 2 is a 4xx problem, never a 500."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from httpx import AsyncClient

from app.pagination import MAX_OFFSET
from db.tables import Ticket
from tests.dates import YEAR
from tests.support import (
    Tenant,
    create_event,
    create_ticket_type,
    create_timeslot,
    create_venue,
    new_tenant,
    ok,
    place_order,
    problem,
)

SORT_FIELDS = {
    "events": ["created_at", "title", "starts_at"],
    "ticket_types": ["created_at"],
    "timeslots": ["created_at", "starts_at", "ends_at", "title"],
    "tickets": [
        "created_at",
        "sequence",
        "owner_name",
        "owner_email",
        "scanned_at",
        "status",
        "updated_at",
    ],
    "orders": ["created_at", "payed_at", "total_price", "buyer_name", "updated_at"],
}
BAD_TIMESTAMPS = [
    f"{YEAR}-06-01T18:00:00",
    "tomorrow",
    f"{YEAR}-02-30T10:00:00Z",
    "9999-12-31T23:59:59-23:59",
    "0001-01-01T00:00:00+23:59",
]


@dataclass(frozen=True)
class World:
    """One organization with several rows in every list, each sort field holding distinct values."""

    tenant: Tenant
    event: dict[str, Any]
    ticket_type: dict[str, Any]
    timeslot: dict[str, Any]
    order: dict[str, Any]
    ticket: dict[str, Any]

    def list_path(self, name: str) -> str:
        if name in {"events", "orders"}:
            return f"/{name}"
        return f"/events/{self.event['id']}/{name}"


@pytest.fixture(scope="module")
async def world(client: AsyncClient) -> World:
    tenant = await new_tenant()
    events = [
        await create_event(client, tenant, title=title, starts_at=starts_at)
        for title, starts_at in (
            ("bravo", f"{YEAR}-03-01T10:00:00Z"),
            ("alpha", f"{YEAR}-01-01T10:00:00Z"),
            ("charlie", f"{YEAR}-02-01T10:00:00Z"),
        )
    ]
    event = events[0]
    types = [
        await create_ticket_type(client, tenant, event["id"], name=name, price=price)
        for name, price in (("seated", 40), ("standing", 15), ("balcony", 25))
    ]
    slots = [
        await create_timeslot(
            client, tenant, event["id"], title=title, starts_at=start, ends_at=end
        )
        for title, start, end in (
            ("matinee", f"{YEAR}-03-01T14:00:00Z", f"{YEAR}-03-01T18:00:00Z"),
            ("evening", f"{YEAR}-03-01T19:00:00Z", f"{YEAR}-03-01T21:00:00Z"),
            ("late", f"{YEAR}-03-01T17:00:00Z", f"{YEAR}-03-01T23:30:00Z"),
        )
    ]
    orders = []
    for buyer, type_index, owners, confirm in (
        ("carol", 0, ["zoe", "yann"], True),
        ("alice", 1, ["xena"], False),
        ("bob", 2, ["wim", "vera", "uma"], True),
    ):
        tickets = [
            {"ticket_type_id": types[type_index]["id"], "owner_name": owner,
             "owner_email": f"{owner}@example.com"}
            for owner in owners
        ]  # fmt: skip
        orders.append(
            await place_order(
                client, tenant, event["id"], slots[0]["id"], [], confirm=confirm,
                buyer_name=buyer, buyer_email=f"{buyer}@example.com", tickets=tickets,
            )
        )  # fmt: skip
    listed = ok(
        await client.get(
            f"/events/{event['id']}/tickets", params={"limit": 100}, headers=tenant.headers
        )
    )["data"]
    by_owner = {ticket["owner_name"]: ticket for ticket in listed}
    ok(await client.post(f"/tickets/{by_owner['xena']['id']}/cancel", headers=tenant.headers))
    for owner, minute in (("zoe", 5), ("wim", 1)):
        await Ticket.update(
            {Ticket.status: "scanned", Ticket.scanned_at: datetime.fromisoformat(
                f"{YEAR}-03-01T14:0{minute}:00+00:00")}
        ).where(Ticket.id == uuid.UUID(by_owner[owner]["id"]))  # fmt: skip
    return World(
        tenant=tenant,
        event=event,
        ticket_type=types[0],
        timeslot=slots[0],
        order=orders[0],
        ticket=by_owner["yann"],
    )


def sort_key(item: dict[str, Any], field: str) -> Any:
    value = item[field]
    return datetime.fromisoformat(value) if field.endswith("_at") else value


@pytest.mark.parametrize("name", SORT_FIELDS)
async def test_every_sort_field_orders_the_list(
    client: AsyncClient, world: World, name: str
) -> None:
    for field in SORT_FIELDS[name]:
        for direction in ("asc", "desc"):
            page = ok(
                await client.get(
                    world.list_path(name),
                    params={"sort": f"{field}:{direction}", "limit": 100},
                    headers=world.tenant.headers,
                )
            )
            items = page["data"]
            assert len(items) == page["pagination"]["total"] >= 3
            if field not in items[0]:
                continue
            present = [(sort_key(i, field), i["id"]) for i in items if i[field] is not None]
            assert len(set(k for k, _ in present)) >= 2, (name, field)
            assert present == sorted(present, reverse=direction == "desc"), (name, field)


@pytest.mark.parametrize("name", SORT_FIELDS)
async def test_unknown_sort_is_400_naming_the_allowed_fields(
    client: AsyncClient, world: World, name: str
) -> None:
    foreign = next(
        f for fields in SORT_FIELDS.values() for f in fields if f not in SORT_FIELDS[name]
    )
    for sort in (
        f"{foreign}:asc",
        "id:asc",
        "created_at",
        "created_at:up",
        ":asc",
        "",
        "a\u0000:asc",
    ):
        body = problem(
            await client.get(
                world.list_path(name), params={"sort": sort}, headers=world.tenant.headers
            ),
            400,
        )
        assert body["errors"][0]["field"] == "sort", (name, sort)
        if sort.endswith(":asc") and sort != ":asc":
            assert all(field in body["detail"] for field in SORT_FIELDS[name]), body


@pytest.mark.parametrize("name", SORT_FIELDS)
async def test_limit_and_offset_bounds(client: AsyncClient, world: World, name: str) -> None:
    path, headers = world.list_path(name), world.tenant.headers
    total = ok(await client.get(path, headers=headers))["pagination"]["total"]
    first = ok(await client.get(path, params={"limit": 1}, headers=headers))
    assert len(first["data"]) == 1
    after = first["pagination"].pop("next_after")
    assert first["pagination"] == {"total": total, "limit": 1, "offset": 0, "has_more": True}
    second = ok(await client.get(path, params={"limit": 1, "after": after}, headers=headers))
    assert second["data"][0]["id"] != first["data"][0]["id"]
    last = ok(await client.get(path, params={"limit": 100, "offset": total - 1}, headers=headers))
    assert len(last["data"]) == 1 and last["pagination"]["has_more"] is False
    assert last["pagination"]["next_after"] is None
    for offset in (total, MAX_OFFSET):
        beyond = ok(await client.get(path, params={"offset": offset}, headers=headers))
        assert beyond["data"] == [] and beyond["pagination"]["offset"] == offset
    for params, field in (
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"limit": -1}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"limit": "1.5"}, "limit"),
        ({"limit": ""}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": "x"}, "offset"),
        ({"offset": MAX_OFFSET + 1}, "offset"),
        ({"offset": 10**30}, "offset"),
    ):
        body = problem(await client.get(path, params=params, headers=headers), 400)
        assert body["errors"][0]["field"] == field, (name, params, body)


def path_routes(bad: str) -> list[tuple[str, str, dict[str, Any] | None, str]]:
    """Every route with an id in its path, that id replaced by ``bad``, and a valid body."""
    slot = {
        "title": "x",
        "starts_at": f"{YEAR}-01-01T10:00:00Z",
        "ends_at": f"{YEAR}-01-01T11:00:00Z",
        "total_available": 1,
    }
    return [
        ("GET", f"/events/{bad}", None, "event_id"),
        ("PATCH", f"/events/{bad}", {"title": "x"}, "event_id"),
        ("GET", f"/events/{bad}/ticket_types", None, "event_id"),
        ("POST", f"/events/{bad}/ticket_types", {"name": "x", "price": 1}, "event_id"),
        ("GET", f"/events/{bad}/timeslots", None, "event_id"),
        ("POST", f"/events/{bad}/timeslots", slot, "event_id"),
        ("GET", f"/events/{bad}/tickets", None, "event_id"),
        ("GET", f"/orders/{bad}", None, "order_id"),
        ("POST", f"/orders/{bad}/confirm", None, "order_id"),
        ("POST", f"/orders/{bad}/cancel", None, "order_id"),
        ("POST", f"/orders/{bad}/refund", {"amount": 1}, "order_id"),
        ("GET", f"/tickets/{bad}", None, "ticket_id"),
        ("POST", f"/tickets/{bad}/cancel", None, "ticket_id"),
    ]


@pytest.mark.parametrize("bad", ["not-a-uuid", "123", "%20", uuid.uuid4().hex[:31]])
async def test_bad_uuid_in_path_is_400_naming_it(
    client: AsyncClient, world: World, bad: str
) -> None:
    for method, path, body, field in path_routes(bad):
        response = await client.request(method, path, json=body, headers=world.tenant.headers)
        assert problem(response, 400)["errors"][0]["field"] == field, (method, path)


async def test_unknown_uuid_in_path_is_404(client: AsyncClient, world: World) -> None:
    for method, path, body, _ in path_routes(str(uuid.uuid4())):
        problem(await client.request(method, path, json=body, headers=world.tenant.headers), 404)


async def test_bad_uuid_in_query_is_400(client: AsyncClient, world: World) -> None:
    for path, field in (
        (f"/events/{world.event['id']}/tickets", "order_id"),
        ("/orders", "event_id"),
    ):
        for bad in ("nope", "", "1234"):
            body = problem(
                await client.get(path, params={field: bad}, headers=world.tenant.headers), 400
            )
            assert body["errors"][0]["field"] == field


def order_body(world: World, **changes: Any) -> dict[str, Any]:
    return {
        "event_id": world.event["id"],
        "event_timeslot_id": world.timeslot["id"],
        "buyer_name": "Ada",
        "buyer_email": "ada@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": world.ticket_type["id"]}],
        **changes,
    }


async def test_bad_uuid_in_body_is_400_naming_it(client: AsyncClient, world: World) -> None:
    headers = world.tenant.headers
    for changes, field in (
        ({"event_id": "nope"}, "event_id"),
        ({"event_timeslot_id": 42}, "event_timeslot_id"),
        ({"tickets": [{"ticket_type_id": "nope"}]}, "tickets"),
    ):
        body = problem(
            await client.post("/orders", json=order_body(world, **changes), headers=headers), 400
        )
        assert body["errors"][0]["field"].startswith(field), body
    slot = {
        "title": "x",
        "starts_at": f"{YEAR}-01-01T10:00:00Z",
        "ends_at": f"{YEAR}-01-01T11:00:00Z",
        "total_available": 1,
        "ticket_type_ids": ["nope"],
    }
    body = problem(
        await client.post(f"/events/{world.event['id']}/timeslots", json=slot, headers=headers),
        400,
    )
    assert body["errors"][0]["field"].startswith("ticket_type_ids")


async def test_bad_timestamps_are_400_naming_the_field(client: AsyncClient, world: World) -> None:
    headers = world.tenant.headers
    event_path = f"/events/{world.event['id']}"
    valid_slot = {
        "title": "x",
        "starts_at": f"{YEAR}-01-01T10:00:00Z",
        "ends_at": f"{YEAR}-01-01T11:00:00Z",
        "total_available": 1,
    }
    routes: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/events", {"title": "x", "starts_at": f"{YEAR}-01-01T10:00:00Z"}),
        ("PATCH", event_path, {}),
        ("POST", f"{event_path}/timeslots", valid_slot),
    ]
    for method, path, valid in routes:
        for field in ("starts_at", "ends_at"):
            for bad in BAD_TIMESTAMPS:
                response = await client.request(
                    method, path, json={**valid, field: bad}, headers=headers
                )
                body = problem(response, 400)
                assert body["errors"][0]["field"] == field, (method, path, bad, body)
    for field in ("from", "until"):
        for bad in [*BAD_TIMESTAMPS, ""]:
            response = await client.get(
                f"{event_path}/timeslots", params={field: bad}, headers=headers
            )
            assert problem(response, 400)["errors"][0]["field"] == field, (field, bad)
    patched = ok(await client.get(event_path, headers=headers))
    assert patched == world.event


async def test_other_offsets_are_normalized_to_utc(client: AsyncClient, tenant: Tenant) -> None:
    event = await create_event(
        client,
        tenant,
        starts_at=f"{YEAR}-06-01T08:00:00-05:30",
        ends_at=f"{YEAR}-06-02T01:00:00+09:00",
    )
    assert event["starts_at"] == f"{YEAR}-06-01T13:30:00Z"
    assert event["ends_at"] == f"{YEAR}-06-01T16:00:00Z"


def body_routes(world: World) -> list[tuple[str, str, dict[str, Any]]]:
    """Every route that takes a JSON body, with a valid body for it."""
    event_path = f"/events/{world.event['id']}"
    return [
        ("POST", "/events", {"title": "x", "starts_at": f"{YEAR}-01-01T10:00:00Z"}),
        ("PATCH", event_path, {"description": "unchanged"}),
        ("POST", f"{event_path}/ticket_types", {"name": "x", "price": 1}),
        (
            "POST",
            f"{event_path}/timeslots",
            {
                "title": "x",
                "starts_at": f"{YEAR}-01-01T10:00:00Z",
                "ends_at": f"{YEAR}-01-01T11:00:00Z",
                "total_available": 1,
            },
        ),
        ("POST", "/orders", order_body(world)),
        ("POST", f"/orders/{world.order['id']}/refund", {"amount": 0.01}),
    ]


async def test_malformed_and_misshapen_json_is_400(client: AsyncClient, world: World) -> None:
    headers = {**world.tenant.headers, "content-type": "application/json"}
    for method, path, valid in body_routes(world):
        for content in (b'{"title": ', b"{'a': 1}", b"\xff\xfe", b"[]", b"null", b'"x"', b"1"):
            response = await client.request(method, path, content=content, headers=headers)
            problem(response, 400)
        missing = await client.request(method, path, content=b"", headers=headers)
        assert problem(missing, 400)["detail"] == "body: a JSON body is required"
        problem(await client.request(method, path, content=b"   ", headers=headers), 400)
        unknown = await client.request(
            method, path, json={**valid, "colour": "red"}, headers=headers
        )
        assert problem(unknown, 400)["errors"][0]["field"] == "colour"


async def test_body_over_one_mebibyte_is_413(client: AsyncClient, world: World) -> None:
    headers = {**world.tenant.headers, "content-type": "application/json"}
    padding = "a" * (1024 * 1024)
    for method, path, valid in body_routes(world):
        content = json.dumps({**valid, "padding": padding}).encode()
        problem(await client.request(method, path, content=content, headers=headers), 413)


async def test_body_that_is_not_json_is_415(client: AsyncClient, world: World) -> None:
    for method, path, valid in body_routes(world):
        for content_type in ("application/x-www-form-urlencoded", "text/plain", "application/xml"):
            response = await client.request(
                method,
                path,
                content=json.dumps(valid).encode(),
                headers={**world.tenant.headers, "content-type": content_type},
            )
            assert content_type in problem(response, 415)["detail"]
        no_type = await client.request(
            method, path, content=json.dumps(valid).encode(), headers=world.tenant.headers
        )
        problem(no_type, 415)


async def test_unknown_channel_and_payment_method_are_400(
    client: AsyncClient, world: World
) -> None:
    for field, value in (
        ("channel", "carrier_pigeon"),
        ("channel", "Online"),
        ("channel", None),
        ("payment_method", "bitcoin"),
        ("payment_method", "CARD"),
        ("payment_method", 3),
    ):
        response = await client.post(
            "/orders", json=order_body(world, **{field: value}), headers=world.tenant.headers
        )
        assert problem(response, 400)["errors"][0]["field"] == field, (field, value)


async def test_every_channel_and_payment_method_is_accepted(
    client: AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant)
    channels = ["online", "box_office", "reseller", "api"]
    methods = ["card", "ideal", "paypal", "bank_transfer", "cash", "invoice", "free"]
    for index, method in enumerate(methods):
        channel = channels[index % len(channels)]
        order = await place_order(
            client,
            tenant,
            venue.event["id"],
            venue.timeslot["id"],
            [venue.ticket_type["id"]],
            channel=channel,
            payment_method=method,
        )
        assert (order["channel"], order["payment_method"]) == (channel, method)


async def test_nul_characters_in_text_are_400(client: AsyncClient, world: World) -> None:
    """PostgreSQL cannot store U+0000 in text: it must be refused up front, not fail as a 500."""
    routes = body_routes(world)
    text_fields = {
        0: ["title", "description", "location"],
        1: ["title", "description", "location"],
        2: ["name"],
        3: ["title"],
        4: ["buyer_name", "buyer_email"],
    }
    for index, fields in text_fields.items():
        method, path, valid = routes[index]
        for field in fields:
            response = await client.request(
                method, path, json={**valid, field: "a\u0000b@c.de"}, headers=world.tenant.headers
            )
            assert problem(response, 400)["errors"][0]["field"] == field, (path, field)
    for field in ("owner_name", "owner_email", "seat"):
        ticket = {"ticket_type_id": world.ticket_type["id"], field: "a\u0000b@c.de"}
        response = await client.post(
            "/orders", json=order_body(world, tickets=[ticket]), headers=world.tenant.headers
        )
        problem(response, 400)


WEIRD_VALUES: list[Any] = [
    None, 0, -1, 1.5, 1e308, -1e308, 10**30, "", " ", "x" * 20_000, "\u0000", "\U0001f389",
    [], {}, [None], {"a": None}, True, "not-a-uuid", f"{YEAR}-01-01T00:00:00", "1e400", "NaN",
]  # fmt: skip


async def test_no_value_in_any_body_field_causes_a_server_error(
    client: AsyncClient, make_tenant: Any
) -> None:
    """A crude fuzz over every field of every body: the answer is a 2xx or a 4xx problem."""
    tenant = await make_tenant()
    venue = await create_venue(client, tenant, capacity=10_000)
    order = await place_order(
        client, tenant, venue.event["id"], venue.timeslot["id"], [venue.ticket_type["id"]]
    )
    fuzz_world = World(tenant, venue.event, venue.ticket_type, venue.timeslot, order, {})
    failures = []
    for method, path, valid in body_routes(fuzz_world):
        bodies = [{**valid, field: value} for field in valid for value in WEIRD_VALUES]
        if path == "/orders":
            ticket = {
                "ticket_type_id": venue.ticket_type["id"],
                "owner_name": "o",
                "owner_email": "o@example.com",
                "seat": "A1",
                "metadata": {"k": "v"},
                "metadata_fields": [{"key": "k", "name": "n", "value": "v"}],
            }
            bodies += [
                {**valid, "tickets": [{**ticket, field: value}]}
                for field in ticket
                for value in WEIRD_VALUES
            ]
            bodies += [
                {**valid, "tickets": [{**ticket, "metadata_fields": [{"key": "k", "name": "n",
                                                                      "value": "v", key: value}]}]}
                for key in ("key", "name", "value")
                for value in WEIRD_VALUES
            ]  # fmt: skip
        for body in bodies:
            response = await client.request(method, path, json=body, headers=tenant.headers)
            if response.status_code >= 500:
                failures.append((method, path, body, response.status_code))
            elif response.status_code >= 400:
                problem(response, response.status_code)
    assert failures == []


async def test_nul_characters_are_400_on_scanner_webhook_and_scan_bodies(
    client: AsyncClient, tenant: Tenant
) -> None:
    headers = tenant.headers
    profile = ok(await client.post("/scanner_profiles", json={"name": "p"}, headers=headers), 201)
    scanner = ok(await client.post("/scanners", json={"name": "s"}, headers=headers), 201)
    for method, path, body, field in (
        ("POST", "/scanner_profiles", {"name": "a\u0000"}, "name"),
        ("PATCH", f"/scanner_profiles/{profile['id']}", {"name": "a\u0000"}, "name"),
        ("POST", "/scanners", {"name": "a\u0000"}, "name"),
        ("PATCH", f"/scanners/{scanner['id']}", {"name": "a\u0000"}, "name"),
        (
            "POST",
            "/webhooks",
            {"url": "https://example.com/hook", "event_types": ["order.created"],
             "description": "a\u0000"},
            "description",
        ),
        ("POST", "/scans", {"scannable_code": "AB\u0000C"}, "scannable_code"),
    ):  # fmt: skip
        response = await client.request(method, path, json=body, headers=headers)
        assert problem(response, 400)["errors"][0]["field"] == field, (method, path)


DEEP = "[" * 1000 + "]" * 1000


async def test_deeply_nested_json_is_a_400_without_a_traceback(
    client: AsyncClient, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """1,000 nested arrays exhaust a recursive JSON decoder: a 400, one log line at most."""
    headers = {**world.tenant.headers, "content-type": "application/json"}
    query = "{ viewer { email } }"
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/events", {"content": DEEP}),
        ("POST", "/events", {"content": f'{{"title": "x", "description": {DEEP}}}'}),
        ("POST", "/orders", {"content": f'{{"tickets": [{{"metadata": {{"a": {DEEP}}}}}]}}'}),
        ("POST", "/graphql", {"content": DEEP}),
        ("POST", "/graphql", {"content": f'{{"query": "{query}", "variables": {{"a": {DEEP}}}}}'}),
        ("GET", "/graphql", {"params": {"query": query, "variables": f'{{"a": {DEEP}}}'}}),
        ("GET", "/graphql", {"params": {"query": query, "extensions": f'{{"a": {DEEP}}}'}}),
    ]
    for method, path, sent in requests:
        caplog.clear()
        response = await client.request(method, path, headers=headers, **sent)
        problem(response, 400)
        assert len(caplog.records) <= 1, (path, caplog.text)
        assert not any(record.exc_info for record in caplog.records), caplog.text
        assert "Traceback" not in caplog.text


async def test_a_graphql_body_that_is_not_an_object_is_a_400(
    client: AsyncClient, world: World
) -> None:
    headers = {**world.tenant.headers, "content-type": "application/json"}
    for content in (b'"x"', b"null", b"1", b"true"):
        problem(await client.post("/graphql", content=content, headers=headers), 400)


def loose_values(world: World) -> list[tuple[str, str, dict[str, Any], str]]:
    """Bodies that a lenient decoder would convert: a number as a string, 0 as false, a Unix
    timestamp, a third decimal of money, U+0000 inside metadata. (method, path, body, field)"""
    event_path = f"/events/{world.event['id']}"
    event = {"title": "x", "starts_at": f"{YEAR}-01-01T10:00:00Z"}
    slot = {**event, "ends_at": f"{YEAR}-01-01T11:00:00Z", "total_available": 1}
    ticket = {"ticket_type_id": world.ticket_type["id"]}

    def with_ticket(**fields: Any) -> dict[str, Any]:
        return order_body(world, tickets=[{**ticket, **fields}])

    return [
        ("POST", f"{event_path}/ticket_types", {"name": "x", "price": "1"}, "price"),
        ("POST", f"{event_path}/ticket_types", {"name": "x", "price": 0.001}, "price"),
        ("POST", f"{event_path}/ticket_types", {"name": "x", "price": 1, "swappable": 1},
         "swappable"),
        ("POST", f"/orders/{world.order['id']}/refund", {"amount": "0.01"}, "amount"),
        ("POST", f"/orders/{world.order['id']}/refund", {"amount": 0.015}, "amount"),
        ("POST", "/events", {**event, "order_scanning_enabled": 0}, "order_scanning_enabled"),
        ("POST", "/events", {**event, "order_scanning_enabled": "false"}, "order_scanning_enabled"),
        ("POST", "/events", {**event, "starts_at": 0}, "starts_at"),
        ("PATCH", event_path, {"ends_at": 1_900_000_000}, "ends_at"),
        ("POST", f"{event_path}/timeslots", {**slot, "total_available": "1"}, "total_available"),
        ("POST", f"{event_path}/timeslots", {**slot, "total_available": 1.5}, "total_available"),
        ("POST", "/scanner_profiles", {"name": "p", "valid_from": 0}, "valid_from"),
        ("POST", "/scanner_profiles", {"name": "p", "opens_minutes_before_start": "5"},
         "opens_minutes_before_start"),
        ("POST", "/scanners", {"name": "s", "active": "true"}, "active"),
        ("POST", "/orders", with_ticket(metadata={"a\u0000": "b"}), "tickets[0]"),
        ("POST", "/orders", with_ticket(metadata={"a": "b\u0000"}), "tickets[0]"),
        ("POST", "/orders", with_ticket(metadata={"a": [{"b": ["c\u0000"]}]}), "tickets[0]"),
        ("POST", "/orders", with_ticket(metadata={"a": {"b\u0000": 1}}), "tickets[0]"),
        *[
            ("POST", "/orders",
             with_ticket(metadata_fields=[{"key": "k", "name": "n", "value": "v",
                                           part: "a\u0000"}]),
             f"tickets[0].metadata_fields[0].{part}")
            for part in ("key", "name", "value")
        ],
    ]  # fmt: skip


async def test_loose_input_is_400_naming_the_field(client: AsyncClient, world: World) -> None:
    """Strict types: a string is not a number, 0 is not false, a number is not a timestamp,
    money has at most two decimals, and ticket metadata cannot hold U+0000."""
    before = ok(await client.get(f"/events/{world.event['id']}", headers=world.tenant.headers))
    for method, path, body, field in loose_values(world):
        response = await client.request(method, path, json=body, headers=world.tenant.headers)
        assert problem(response, 400)["errors"][0]["field"].startswith(field), (path, body)
    after = ok(await client.get(f"/events/{world.event['id']}", headers=world.tenant.headers))
    assert after == before
    whole = {
        "title": "x",
        "starts_at": f"{YEAR}-01-01T10:00:00Z",
        "ends_at": f"{YEAR}-01-01T11:00:00Z",
        "total_available": 2.0,
    }
    slot = await client.post(
        f"/events/{world.event['id']}/timeslots", json=whole, headers=world.tenant.headers
    )
    assert ok(slot, 201)["total_available"] == 2, "a whole number is an integer, as in JSON Schema"
    two_decimals = {"name": "x", "price": 19.99}
    created = await client.post(
        f"/events/{world.event['id']}/ticket_types", json=two_decimals, headers=world.tenant.headers
    )
    assert ok(created, 201)["price"] == 19.99
