"""Scope enforcement per endpoint (CONTRACT.md sections 1 and 3).

For every route: a key holding every scope but the one it needs gets a 403 naming that scope in
``WWW-Authenticate``, before any input is looked at; a key holding only that scope succeeds.
"""

from __future__ import annotations

from typing import Any

import pytest
from httpx import AsyncClient

from app.principal import SCOPES
from tests.dates import YEAR
from tests.support import Tenant, create_venue, key_for, ok, place_order, problem

EVENT_BODY = {"title": "Scoped", "starts_at": f"{YEAR}-01-01T10:00:00Z"}
TIMESLOT_BODY = {
    "title": "Noon",
    "starts_at": f"{YEAR}-01-01T12:00:00Z",
    "ends_at": f"{YEAR}-01-01T13:00:00Z",
    "total_available": 5,
}
ORDER_BODY = {
    "event_id": "{event}",
    "event_timeslot_id": "{timeslot}",
    "buyer_name": "Ada",
    "buyer_email": "ada@example.com",
    "channel": "api",
    "payment_method": "invoice",
    "tickets": [{"ticket_type_id": "{ticket_type}"}],
}

ROUTES: list[tuple[str, str, str, Any]] = [
    ("GET", "/events", "events.read", None),
    ("POST", "/events", "events.write", EVENT_BODY),
    ("GET", "/events/{event}", "events.read", None),
    ("PATCH", "/events/{event}", "events.write", {"title": "Renamed"}),
    ("GET", "/events/{event}/ticket_types", "events.read", None),
    ("POST", "/events/{event}/ticket_types", "events.write", {"name": "VIP", "price": 99}),
    ("GET", "/events/{event}/timeslots", "events.read", None),
    ("POST", "/events/{event}/timeslots", "events.write", TIMESLOT_BODY),
    ("GET", "/events/{event}/tickets", "tickets.read", None),
    ("GET", "/orders", "orders.read", None),
    ("POST", "/orders", "orders.write", ORDER_BODY),
    ("GET", "/orders/{order}", "orders.read", None),
    ("POST", "/orders/{order}/confirm", "orders.write", None),
    ("POST", "/orders/{order}/cancel", "orders.write", None),
    ("POST", "/orders/{order}/refund", "orders.write", {"amount": 1}),
    ("GET", "/tickets/{ticket}", "tickets.read", None),
    ("POST", "/tickets/{ticket}/cancel", "orders.write", None),
]


def fill(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with ``{name}`` placeholders replaced by the ids of the test's rows."""
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {key: fill(item, ids) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item, ids) for item in value]
    return value


async def rows_of(client: AsyncClient, tenant: Tenant) -> dict[str, str]:
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
    return {
        "event": venue.event["id"],
        "ticket_type": venue.ticket_type["id"],
        "timeslot": venue.timeslot["id"],
        "order": order["id"],
        "ticket": tickets[0]["id"],
    }


def assert_insufficient_scope(response: Any, scope: str) -> None:
    body = problem(response, 403)
    assert scope in body["detail"]
    assert response.headers["www-authenticate"] == (
        f'Bearer error="insufficient_scope", scope="{scope}"'
    )


@pytest.mark.parametrize(
    ("method", "path", "scope", "body"),
    ROUTES,
    ids=[f"{method} {path}" for method, path, _, _ in ROUTES],
)
async def test_route_needs_its_scope_and_only_that(
    client: AsyncClient, tenant: Tenant, method: str, path: str, scope: str, body: Any
) -> None:
    ids = await rows_of(client, tenant)
    lacking = await key_for(tenant, [s for s in SCOPES if s != scope])
    only = await key_for(tenant, [scope])
    url, data = fill(path, ids), fill(body, ids)

    assert_insufficient_scope(await client.request(method, url, json=data, headers=lacking), scope)

    garbage_path = fill(path, dict.fromkeys(ids, "not-a-uuid"))
    garbage = await client.request(
        method,
        garbage_path,
        params={"limit": 0, "sort": "nope"},
        content=b'{"broken": ' if body is not None else None,
        headers={**lacking, "content-type": "application/json"},
    )
    assert_insufficient_scope(garbage, scope)

    allowed = await client.request(method, url, json=data, headers=only)
    assert allowed.status_code in {200, 201}, allowed.text


async def test_documented_scope_is_the_enforced_one(client: AsyncClient) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    for method, path, scope, _ in ROUTES:
        documented_path = path.replace("{event}", "{event_id}").replace("{order}", "{order_id}")
        documented_path = documented_path.replace("{ticket}", "{ticket_id}")
        operation = document["paths"][documented_path][method.lower()]
        assert f"Scope: `{scope}`" in operation["description"], (method, path)
        assert "403" in operation["responses"], (method, path)


async def test_scope_is_checked_before_existence(client: AsyncClient, tenant: Tenant) -> None:
    """A key without the scope cannot probe which ids exist: unknown ids also answer 403."""
    lacking = await key_for(tenant, ["webhooks.read"])
    unknown = "00000000-0000-4000-8000-000000000000"
    for method, path, scope, body in ROUTES:
        ids = dict.fromkeys(("event", "ticket_type", "timeslot", "order", "ticket"), unknown)
        response = await client.request(
            method, fill(path, ids), json=fill(body, ids), headers=lacking
        )
        assert_insufficient_scope(response, scope)
