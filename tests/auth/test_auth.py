"""API-key authentication, the 401 challenges, whoami, request ids and the OpenAPI document."""

from __future__ import annotations

from httpx import AsyncClient

from app.services.api_keys import revoke_api_key
from app.stored_secrets import hash_secret
from db.tables import ApiKey
from tests.support import Tenant, ok, problem


async def test_whoami_names_the_key_creator(client: AsyncClient, tenant: Tenant) -> None:
    body = ok(await client.get("/whoami", headers=tenant.headers))
    assert body == {
        "uid": str(tenant.user_id),
        "email": tenant.email,
        "organization": tenant.org_name,
        "livemode": True,
    }


async def test_whoami_needs_no_scope(client: AsyncClient, make_tenant) -> None:
    narrow = await make_tenant(scopes=["webhooks.read"])
    ok(await client.get("/whoami", headers=narrow.headers))


async def test_missing_and_bad_credentials_are_401(client: AsyncClient, tenant: Tenant) -> None:
    response = await client.get("/whoami")
    problem(response, 401)
    assert response.headers["www-authenticate"] == 'Bearer realm="ticketing"'
    for header in (
        "Bearer tk_live_" + "x" * 40,
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer not-a-key",
        f"Bearer {tenant.key}x",
    ):
        response = await client.get("/whoami", headers={"Authorization": header})
        problem(response, 401)
        assert response.headers["www-authenticate"] == (
            'Bearer realm="ticketing", error="invalid_token"'
        )


async def test_revoked_key_stops_working(client: AsyncClient, tenant: Tenant) -> None:
    ok(await client.get("/whoami", headers=tenant.headers))
    await revoke_api_key(tenant.key_id)
    problem(await client.get("/whoami", headers=tenant.headers), 401)


async def test_key_is_stored_hashed_and_use_is_recorded(
    client: AsyncClient, tenant: Tenant
) -> None:
    ok(await client.get("/whoami", headers=tenant.headers))
    row = await ApiKey.select().where(ApiKey.id == tenant.key_id).first()
    assert tenant.key not in str(row)
    assert row["key_hash"] == hash_secret(tenant.key)
    assert row["last_used_at"] is not None
    assert tenant.key.startswith("tk_live_") and len(tenant.key) >= len("tk_live_") + 32


async def test_request_id_is_echoed_or_generated(client: AsyncClient, tenant: Tenant) -> None:
    sent = await client.get("/whoami", headers={**tenant.headers, "X-Request-ID": "abc-123"})
    assert sent.headers["x-request-id"] == "abc-123"
    generated = await client.get("/nowhere")
    assert len(generated.headers["x-request-id"]) >= 16
    problem(generated, 404)


async def test_openapi_document_is_public_and_versioned(client: AsyncClient) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    assert document["info"]["version"] == "1.0.0"
    assert document["openapi"].startswith("3.1")
    whoami = document["paths"]["/whoami"]["get"]
    assert "401" in whoami["responses"]
    assert "events.read" in document["paths"]["/events"]["get"]["description"]
    schemas = document["components"]["schemas"]
    assert schemas["EventCreate"]["additionalProperties"] is False
    assert schemas["OrderCreate"]["additionalProperties"] is False
    assert "additionalProperties" not in schemas["Event"]
    parameters = {p["name"]: p for p in document["paths"]["/events"]["get"]["parameters"]}
    assert parameters["sort"]["schema"]["enum"] == [
        "created_at:asc", "created_at:desc", "title:asc", "title:desc",
        "starts_at:asc", "starts_at:desc",
    ]  # fmt: skip
    page = await client.get("/schema")
    assert page.status_code == 200 and "html" in page.headers["content-type"]
