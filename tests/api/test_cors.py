"""CORS for browser apps (CONTRACT.md section 12): listed origins only, REST and GraphQL alike."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from httpx import AsyncClient, Response

from tests.conftest import AppClient
from tests.support import Tenant, create_event, gql_data, ok, operation

LISTED = "https://app.example.com"
UNLISTED = "https://evil.example.net"


@pytest.fixture
async def cors_client(app_client: AppClient) -> AsyncIterator[AsyncClient]:
    async with app_client(cors_origins=(LISTED, "http://localhost:5173")) as client:
        yield client


def preflight_headers(origin: str, method: str = "POST") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    }


def cors_headers(response: Response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.startswith("access-control-")}


def listed_words(value: str) -> set[str]:
    return {word.strip().lower() for word in value.split(",")}


async def test_a_listed_origin_s_preflight_is_answered_without_a_credential(
    cors_client: AsyncClient,
) -> None:
    for path in ("/events", "/graphql", "/orders/00000000-0000-4000-8000-000000000000/confirm"):
        response = await cors_client.options(path, headers=preflight_headers(LISTED))
        assert response.status_code == 204, (path, response.text)
        headers = cors_headers(response)
        assert headers["access-control-allow-origin"] == LISTED
        assert listed_words(headers["access-control-allow-methods"]) == {
            "get", "post", "patch", "delete",
        }  # fmt: skip
        assert {
            "authorization", "content-type", "idempotency-key", "x-request-id",
        } <= listed_words(headers["access-control-allow-headers"])  # fmt: skip
        assert "access-control-allow-credentials" not in headers
        assert "origin" in listed_words(response.headers["vary"])


async def test_an_unlisted_origin_s_preflight_gets_no_allow_origin(
    cors_client: AsyncClient,
) -> None:
    for path in ("/events", "/graphql"):
        response = await cors_client.options(path, headers=preflight_headers(UNLISTED))
        assert response.status_code == 400
        assert "access-control-allow-origin" not in response.headers
    refused_method = await cors_client.options("/events", headers=preflight_headers(LISTED, "PUT"))
    assert refused_method.status_code == 400


async def test_actual_requests_from_a_listed_origin_can_read_the_answer(
    cors_client: AsyncClient, tenant: Tenant
) -> None:
    event = await create_event(cors_client, tenant, title="Seen from the app")
    origin = {"Origin": LISTED}
    listed = await cors_client.get("/events", headers={**tenant.headers, **origin})
    assert [e["title"] for e in ok(listed)["data"]] == ["Seen from the app"]
    headers = cors_headers(listed)
    assert headers["access-control-allow-origin"] == LISTED
    assert listed_words(headers["access-control-expose-headers"]) == {
        "x-request-id", "retry-after", "idempotent-replayed", "location",
    }  # fmt: skip
    assert "access-control-allow-credentials" not in headers
    query = {
        "query": operation("EventTitle"),
        "variables": {"id": event["id"]},
    }
    graphql = await cors_client.post("/graphql", json=query, headers={**tenant.headers, **origin})
    assert gql_data(ok(graphql)) == {"event": {"title": "Seen from the app"}}
    assert graphql.headers["access-control-allow-origin"] == LISTED
    # An app must be able to read a refusal too (here a missing credential).
    refused = await cors_client.get("/events", headers=origin)
    assert refused.status_code == 401
    assert refused.headers["access-control-allow-origin"] == LISTED


async def test_actual_requests_from_an_unlisted_origin_get_no_allow_origin(
    cors_client: AsyncClient, tenant: Tenant
) -> None:
    origin = {"Origin": UNLISTED}
    for response in (
        await cors_client.get("/events", headers={**tenant.headers, **origin}),
        await cors_client.post(
            "/graphql", json={"query": operation("Viewer")}, headers={**tenant.headers, **origin}
        ),
    ):
        assert response.status_code == 200
        assert "access-control-allow-origin" not in response.headers
        assert "access-control-allow-credentials" not in response.headers


async def test_without_listed_origins_there_are_no_cors_headers(
    client: AsyncClient, tenant: Tenant
) -> None:
    preflight = await client.options("/events", headers=preflight_headers(LISTED))
    actual = await client.get("/events", headers={**tenant.headers, "Origin": LISTED})
    assert actual.status_code == 200
    for response in (preflight, actual):
        assert cors_headers(response) == {}, response.headers
