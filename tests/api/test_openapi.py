"""The OpenAPI document says what the server enforces (issue 9 item 9).

The full check is schemathesis against a running server (the command is in docs/operations.md,
its settings in schemathesis.toml); these tests pin each mismatch it found, so none comes back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from httpx import AsyncClient

from app.pagination import MAX_OFFSET
from app.schemas.text import EMAIL
from tests.dates import YEAR
from tests.support import Tenant, create_venue, ok, place_order, problem

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
async def document(client: AsyncClient) -> dict[str, Any]:
    return ok(await client.get("/schema/openapi.json"))


def parameters(document: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    return {p["name"]: p for p in document["paths"][path][method].get("parameters", [])}


async def test_options_allows_every_documented_method_of_the_path(
    client: AsyncClient, tenant: Tenant, document: dict[str, Any]
) -> None:
    for path, item in document["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "00000000-0000-4000-8000-000000000000", path)
        response = await client.options(concrete, headers=tenant.headers)
        assert response.status_code == 204, path
        documented = sorted({method.upper() for method in item if method in METHODS} | {"OPTIONS"})
        allowed = sorted(method.strip() for method in response.headers["allow"].split(","))
        assert allowed == documented, path


async def test_list_offsets_are_documented_with_the_enforced_maximum(
    client: AsyncClient, tenant: Tenant, document: dict[str, Any]
) -> None:
    lists = [
        path
        for path, item in document["paths"].items()
        if "get" in item and "offset" in parameters(document, path)
    ]
    assert len(lists) >= 8
    for path in lists:
        schema = parameters(document, path)["offset"]["schema"]
        assert (schema["minimum"], schema["maximum"]) == (0, MAX_OFFSET), path
    problem(
        await client.get("/events", params={"offset": MAX_OFFSET + 1}, headers=tenant.headers), 400
    )
    ok(await client.get("/events", params={"offset": MAX_OFFSET}, headers=tenant.headers))


def test_query_ids_and_timestamps_have_their_formats(document: dict[str, Any]) -> None:
    assert parameters(document, "/orders")["event_id"]["schema"]["format"] == "uuid"
    assert (
        parameters(document, "/events/{event_id}/tickets")["order_id"]["schema"]["format"] == "uuid"
    )
    slots = parameters(document, "/events/{event_id}/timeslots")
    assert slots["from"]["schema"]["format"] == slots["until"]["schema"]["format"] == "date-time"


def test_body_rules_are_in_the_schemas(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    price = schemas["TicketTypeCreate"]["properties"]["price"]
    assert price["type"] == "number" and price["multipleOf"] == 0.01 and price["minimum"] == 0
    refund = schemas["RefundCreate"]["properties"]["amount"]
    assert refund["exclusiveMinimum"] == 0 and refund["multipleOf"] == 0.01
    assert schemas["OrderCreate"]["properties"]["buyer_email"]["pattern"] == EMAIL
    metadata = schemas["TicketInput"]["properties"]["metadata"]
    assert metadata["propertyNames"]["pattern"] == "^[^\\x00]*$"
    assert metadata["additionalProperties"] == {"$ref": "#/components/schemas/MetadataValue"}
    assert "U+0000" in schemas["MetadataValue"]["description"]
    assert schemas["WebhookCreate"]["properties"]["url"]["pattern"].startswith("^https?://")


async def test_what_the_schemas_allow_is_accepted(client: AsyncClient, tenant: Tenant) -> None:
    """Values the old document allowed but the server refused (or the reverse)."""
    venue = await create_venue(client, tenant)
    event_path = f"/events/{venue.event['id']}"
    slot = {
        "title": "Late",
        "starts_at": f"{YEAR}-06-01T18:00:00Z",
        "ends_at": f"{YEAR}-06-01T23:00:00Z",
        "total_available": 685692.0,
    }
    created = ok(
        await client.post(f"{event_path}/timeslots", json=slot, headers=tenant.headers), 201
    )
    assert created["total_available"] == 685692
    for email in ("a@b.cd", "ä+tag@例え.jp"):
        order = await place_order(
            client, tenant, venue.event["id"], venue.timeslot["id"],
            [venue.ticket_type["id"]], buyer_email=email,
        )  # fmt: skip
        assert order["buyer_email"] == email.lower()
    for email in ("a b@c.de", "a@b", "a\u00a0@b.cd", "a\ufeff@b.cd"):
        body = {
            "event_id": venue.event["id"],
            "event_timeslot_id": venue.timeslot["id"],
            "buyer_name": "Ada",
            "buyer_email": email,
            "channel": "online",
            "payment_method": "card",
            "tickets": [{"ticket_type_id": venue.ticket_type["id"]}],
        }
        response = await client.post("/orders", json=body, headers=tenant.headers)
        assert problem(response, 400)["errors"][0]["field"] == "buyer_email", email
    for url in ("0", "http://[0]/hook", "https://user:pw@example.com/", "https://h:65536/"):
        hook = {"url": url, "event_types": ["order.created"]}
        response = await client.post("/webhooks", json=hook, headers=tenant.headers)
        assert problem(response, 400)["errors"][0]["field"] == "url", url


def test_the_oauth_endpoints_document_their_inputs_and_pages(document: dict[str, Any]) -> None:
    authorize = document["paths"]["/oauth2/authorize"]
    required = {
        name for name, p in parameters(document, "/oauth2/authorize").items() if p["required"]
    }
    assert required == {"response_type", "client_id", "organization_id", "token"}
    assert set(authorize["get"]["responses"]) == {"200", "302", "400"}
    assert "text/html" in authorize["get"]["responses"]["400"]["content"]
    assert "Location" in authorize["get"]["responses"]["302"]["headers"]
    assert set(authorize["post"]["responses"]) == {"302", "400"}
    for path, field in (
        ("/oauth2/authorize", "consent"),
        ("/oauth2/token", "grant_type"),
        ("/oauth2/revoke", "token"),
    ):
        body = document["paths"][path]["post"]["requestBody"]
        reference = body["content"]["application/x-www-form-urlencoded"]["schema"]["$ref"]
        form = document["components"]["schemas"][reference.rsplit("/", 1)[1]]
        assert field in form["required"], path


async def test_text_filters_document_the_u0000_they_refuse(
    client: AsyncClient, tenant: Tenant, document: dict[str, Any]
) -> None:
    venue = await create_venue(client, tenant)
    path = f"/events/{venue.event['id']}/tickets"
    documented = parameters(document, "/events/{event_id}/tickets")
    for name in ("owner_email", "scannable_code"):
        assert documented[name]["schema"]["pattern"] == "^[^\\x00]*$", name
        response = await client.get(path, params={name: "a\u0000"}, headers=tenant.headers)
        assert problem(response, 400)["errors"][0]["field"] == name


def test_patch_bodies_keep_their_bounds_of_zero(document: dict[str, Any]) -> None:
    """Litestar dropped ``minimum: 0`` from union (UNSET) fields while keeping the maximum."""
    schemas = document["components"]["schemas"]
    for name, field in (
        ("TimeslotUpdate", "total_available"),
        ("TicketTypeUpdate", "price"),
        ("ScannerProfileUpdate", "opens_minutes_before_start"),
        ("ScannerProfileUpdate", "closes_minutes_after_end"),
    ):
        assert schemas[name]["properties"][field]["minimum"] == 0, (name, field)
