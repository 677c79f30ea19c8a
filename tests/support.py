"""Builders shared by the tests: tenants and the records they own, made through the public API."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cache
from typing import Any
from uuid import UUID

from httpx import AsyncClient, Response

from app.principal import SCOPES
from graphql_api.schema import DOCUMENTS
from tests.dates import YEAR


@dataclass(frozen=True)
class Tenant:
    org_id: UUID
    org_name: str
    user_id: UUID
    email: str
    key: str
    key_id: UUID

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


async def new_tenant(
    name: str = "Test Org", scopes: tuple[str, ...] | list[str] = SCOPES, currency: str = "EUR"
) -> Tenant:
    """An organization, a member and an API key with ``scopes``, made through the services."""
    from app.services.api_keys import create_api_key
    from app.services.organizations import add_member, create_organization

    org = await create_organization(f"{name} {uuid.uuid4().hex[:6]}", currency)
    email = f"owner-{uuid.uuid4().hex[:8]}@example.com"
    user = await add_member(org.id, email)
    key = await create_api_key(org.id, email, " ".join(scopes), name="tests")
    return Tenant(
        org_id=org.id, org_name=org.name, user_id=user.id, email=email, key=key.key, key_id=key.id
    )


async def key_for(tenant: Tenant, scopes: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Headers of a further key of ``tenant`` holding only ``scopes``."""
    from app.services.api_keys import create_api_key

    key = await create_api_key(tenant.org_id, tenant.email, " ".join(scopes))
    return {"Authorization": f"Bearer {key.key}"}


def ok(response: Response, status: int = 200) -> Any:
    """The JSON body of a response that must have ``status``; shows the body when it has not."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    return response.json()


def problem(response: Response, status: int) -> dict[str, Any]:
    """The problem body of an error response, checked for the RFC 9457 shape."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status
    assert {"type", "title", "status", "detail"} <= body.keys()
    return body


async def create_event(client: AsyncClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"title": "Concert", "starts_at": f"{YEAR}-06-01T18:00:00Z", **fields}
    return ok(await client.post("/events", json=body, headers=tenant.headers), 201)


async def create_ticket_type(
    client: AsyncClient, tenant: Tenant, event_id: str, **fields: Any
) -> dict[str, Any]:
    body = {"name": "Regular", "price": 25.0, **fields}
    return ok(
        await client.post(f"/events/{event_id}/ticket_types", json=body, headers=tenant.headers),
        201,
    )


async def create_timeslot(
    client: AsyncClient, tenant: Tenant, event_id: str, **fields: Any
) -> dict[str, Any]:
    body = {
        "title": "Evening",
        "starts_at": f"{YEAR}-06-01T18:00:00Z",
        "ends_at": f"{YEAR}-06-01T23:00:00Z",
        "total_available": 100,
        "ticket_type_ids": [],
        **fields,
    }
    return ok(
        await client.post(f"/events/{event_id}/timeslots", json=body, headers=tenant.headers), 201
    )


async def place_order(
    client: AsyncClient,
    tenant: Tenant,
    event_id: str,
    timeslot_id: str,
    ticket_type_ids: list[str],
    *,
    confirm: bool = False,
    **fields: Any,
) -> dict[str, Any]:
    """Place an order with one ticket per listed ticket type; optionally confirm it."""
    body = {
        "event_id": event_id,
        "event_timeslot_id": timeslot_id,
        "buyer_name": "Ada Buyer",
        "buyer_email": "ada@example.com",
        "channel": "online",
        "payment_method": "card",
        "tickets": [{"ticket_type_id": type_id} for type_id in ticket_type_ids],
        **fields,
    }
    order = ok(await client.post("/orders", json=body, headers=tenant.headers), 201)
    if confirm:
        order = ok(await client.post(f"/orders/{order['id']}/confirm", headers=tenant.headers))
    return order


@dataclass(frozen=True)
class Venue:
    """An event with one ticket type and one timeslot selling it."""

    event: dict[str, Any]
    ticket_type: dict[str, Any]
    timeslot: dict[str, Any]


async def create_venue(
    client: AsyncClient, tenant: Tenant, *, capacity: int = 100, price: float = 25.0, **event: Any
) -> Venue:
    created = await create_event(client, tenant, **event)
    ticket_type = await create_ticket_type(client, tenant, created["id"], price=price)
    timeslot = await create_timeslot(
        client, tenant, created["id"], total_available=capacity, ticket_type_ids=[ticket_type["id"]]
    )
    return Venue(event=created, ticket_type=ticket_type, timeslot=timeslot)


async def create_scanner(client: AsyncClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"name": "Door 1", **fields}
    return ok(await client.post("/scanners", json=body, headers=tenant.headers), 201)


async def create_profile(client: AsyncClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    """A scanner profile; with no fields it admits everything at any time."""
    body = {"name": "Main entrance", **fields}
    return ok(await client.post("/scanner_profiles", json=body, headers=tenant.headers), 201)


OPERATIONS = DOCUMENTS / "operations"


@cache
def operation(name: str) -> str:
    """The document ``graphql/operations/<name>.graphql``: the operation ``name`` as clients
    send it."""
    return (OPERATIONS / f"{name}.graphql").read_text()


async def graphql(
    client: AsyncClient,
    headers: dict[str, str],
    query: str,
    variables: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """POST a GraphQL operation; the whole response body (``data`` and maybe ``errors``)."""
    response = await client.post(
        "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
    )
    assert response.status_code == 200, f"{response.status_code}: {response.text}"
    return response.json()


def gql_data(body: dict[str, Any]) -> dict[str, Any]:
    """The ``data`` of a GraphQL response that must have no errors."""
    assert "errors" not in body, body["errors"]
    return body["data"]


def gql_error_codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


@dataclass(frozen=True)
class Door:
    """A venue, one order of it with its tickets (by sequence), and an active scanner."""

    venue: Venue
    order: dict[str, Any]
    tickets: list[dict[str, Any]]
    scanner: dict[str, Any]


async def order_tickets(client: AsyncClient, tenant: Tenant, order: dict[str, Any]) -> list[Any]:
    page = ok(
        await client.get(
            f"/events/{order['event_id']}/tickets",
            params={"order_id": order["id"], "sort": "sequence:asc", "limit": 100},
            headers=tenant.headers,
        )
    )
    return page["data"]


async def open_door(
    client: AsyncClient,
    tenant: Tenant,
    *,
    tickets: int = 1,
    confirm: bool = True,
    venue: Venue | None = None,
    **event: Any,
) -> Door:
    venue = venue or await create_venue(client, tenant, location="Paradiso", **event)
    order = await place_order(
        client,
        tenant,
        venue.event["id"],
        venue.timeslot["id"],
        [venue.ticket_type["id"]] * tickets,
        confirm=confirm,
    )
    scanner = await create_scanner(client, tenant)
    return Door(venue, order, await order_tickets(client, tenant, order), scanner)
