"""Webhook subscriptions over REST: shapes, validation, scopes, isolation and URL safety."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator

import pytest
from httpx import AsyncClient

from tests.conftest import AppClient
from tests.support import Tenant, key_for, ok, problem

HOOK = {"url": "https://hooks.example.com/ticketing", "event_types": ["order.confirmed"]}


async def create_hook(client: AsyncClient, tenant: Tenant, **fields: object) -> dict:
    return ok(await client.post("/webhooks", json={**HOOK, **fields}, headers=tenant.headers), 201)


async def test_create_shows_secret_once_and_list_hides_it(
    client: AsyncClient, tenant: Tenant
) -> None:
    created = await create_hook(
        client,
        tenant,
        url="http://127.0.0.1:9/hook",
        event_types=["order.confirmed", "ticket.scanned", "order.confirmed"],
        description="Accounting sync",
    )
    assert set(created) == {
        "id", "url", "event_types", "description", "active", "created_at", "secret",
    }  # fmt: skip
    assert created["secret"].startswith("whsec_")
    assert len(__import__("base64").b64decode(created["secret"].removeprefix("whsec_"))) == 32
    assert created["event_types"] == ["order.confirmed", "ticket.scanned"]
    assert created["active"] is True
    assert created["created_at"].endswith("Z")

    page = ok(await client.get("/webhooks", headers=tenant.headers))
    listed = {key: value for key, value in created.items() if key != "secret"}
    assert page["data"] == [listed]
    assert page["pagination"] == {
        "total": 1, "limit": 25, "offset": 0, "has_more": False, "next_after": None,
    }  # fmt: skip
    assert ok(await client.get(f"/webhooks/{created['id']}", headers=tenant.headers)) == listed


async def test_list_sorts_by_created_at_only(client: AsyncClient, tenant: Tenant) -> None:
    first = await create_hook(client, tenant, description="first")
    second = await create_hook(client, tenant, description="second")
    page = ok(
        await client.get("/webhooks", params={"sort": "created_at:asc"}, headers=tenant.headers)
    )
    assert [hook["id"] for hook in page["data"]] == [first["id"], second["id"]]
    body = problem(
        await client.get("/webhooks", params={"sort": "url:asc"}, headers=tenant.headers), 400
    )
    assert "created_at" in body["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"event_types": ["order.confirmed"]}, "url"),
        ({"url": "https://hooks.example.com"}, "event_types"),
        ({**HOOK, "event_types": []}, "event_types"),
        ({**HOOK, "event_types": ["order.shipped"]}, "event_types"),
        ({**HOOK, "description": "x" * 256}, "description"),
        ({**HOOK, "secret": "mine"}, "secret"),
        ({**HOOK, "url": "ftp://hooks.example.com/x"}, "url"),
        ({**HOOK, "url": "hooks.example.com/x"}, "url"),
        ({**HOOK, "url": "https://user:pass@hooks.example.com/x"}, "url"),
        ({**HOOK, "url": "https://hooks.example.com/a\x00b"}, "url"),
        ({**HOOK, "url": "https://hooks.example.com/a b"}, "url"),
    ],
)
async def test_invalid_bodies_are_400_naming_the_field(
    client: AsyncClient, tenant: Tenant, body: dict, field: str
) -> None:
    result = problem(await client.post("/webhooks", json=body, headers=tenant.headers), 400)
    assert field in result["detail"]


async def test_delete_removes_it_and_second_delete_is_404(
    client: AsyncClient, tenant: Tenant
) -> None:
    hook = await create_hook(client, tenant)
    deleted = ok(await client.delete(f"/webhooks/{hook['id']}", headers=tenant.headers))
    assert deleted == {"id": hook["id"], "deleted": True}
    assert ok(await client.get("/webhooks", headers=tenant.headers))["data"] == []
    problem(await client.delete(f"/webhooks/{hook['id']}", headers=tenant.headers), 404)
    problem(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=tenant.headers), 404)


async def test_other_organization_sees_nothing_and_cannot_delete(
    client: AsyncClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    hook = await create_hook(client, tenant)
    assert ok(await client.get("/webhooks", headers=other_tenant.headers))["data"] == []
    for response in (
        await client.get(f"/webhooks/{hook['id']}", headers=other_tenant.headers),
        await client.delete(f"/webhooks/{hook['id']}", headers=other_tenant.headers),
        await client.get(f"/webhooks/{hook['id']}/deliveries", headers=other_tenant.headers),
    ):
        problem(response, 404)
    assert ok(await client.get(f"/webhooks/{hook['id']}", headers=tenant.headers))["id"]


async def test_scopes_are_enforced(client: AsyncClient, tenant: Tenant) -> None:
    reader = await key_for(tenant, ["webhooks.read"])
    writer = await key_for(tenant, ["webhooks.write"])
    hook = await create_hook(client, tenant)
    denied = await client.post("/webhooks", json=HOOK, headers=reader)
    problem(denied, 403)
    assert 'scope="webhooks.write"' in denied.headers["www-authenticate"]
    problem(await client.delete(f"/webhooks/{hook['id']}", headers=reader), 403)
    problem(await client.get("/webhooks", headers=writer), 403)
    problem(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=writer), 403)
    ok(await client.post("/webhooks", json=HOOK, headers=writer), 201)
    problem(await client.get("/webhooks"), 401)


async def test_bad_ids_are_400_and_unknown_ids_404(client: AsyncClient, tenant: Tenant) -> None:
    problem(await client.delete("/webhooks/not-a-uuid", headers=tenant.headers), 400)
    problem(await client.get(f"/webhooks/{uuid.uuid4()}/deliveries", headers=tenant.headers), 404)


async def test_a_new_subscription_has_an_empty_delivery_log(
    client: AsyncClient, tenant: Tenant
) -> None:
    hook = await create_hook(client, tenant)
    log = ok(await client.get(f"/webhooks/{hook['id']}/deliveries", headers=tenant.headers))
    assert log == {
        "data": [],
        "pagination": {"total": 0, "limit": 25, "offset": 0, "has_more": False, "next_after": None},
    }


@pytest.fixture
async def strict_client(app_client: AppClient) -> AsyncIterator[AsyncClient]:
    """The app with private webhook targets forbidden, as in production."""
    async with app_client(allow_private_webhooks=False, redis_url="redis://unused") as client:
        yield client


@pytest.mark.parametrize(
    "url",
    [
        "http://93.184.215.14/hook",  # plain http
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[::ffff:7f00:1]/hook",
        "https://10.0.0.8/hook",
        "https://172.16.4.1/hook",
        "https://192.168.1.20/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/hook",
        "https://224.0.0.1/hook",
        "https://240.0.0.1/hook",
        "https://0.0.0.0/hook",
        "https://[::]/hook",
        "https://[fe80::1]/hook",
        "https://[fd00::1]/hook",
        "https://[ff02::1]/hook",
        "https://[2002:7f00:1::1]/hook",  # 6to4 wrapping 127.0.0.1
        "https://[64:ff9b::a00:1]/hook",  # NAT64 wrapping 10.0.0.1
        "https://2130706433/hook",  # 127.0.0.1 in decimal
        "https://0x7f000001/hook",  # in hex
        "https://0177.0.0.1/hook",  # in octal
        "https://127.1/hook",  # shortened
        "https://0x7f.1/hook",
    ],
)
async def test_non_public_targets_are_rejected(
    strict_client: AsyncClient, tenant: Tenant, url: str
) -> None:
    body = problem(
        await strict_client.post("/webhooks", json={**HOOK, "url": url}, headers=tenant.headers),
        400,
    )
    assert body["errors"][0]["field"] == "url"
    # The answer never tells what the host resolves to (a DNS oracle into the network).
    for address in re.findall(r"\d+\.\d+\.\d+\.\d+|[0-9a-f]*::[0-9a-f:.]*", str(body)):
        assert address in url, (url, body)


async def test_a_public_address_is_accepted(strict_client: AsyncClient, tenant: Tenant) -> None:
    created = ok(
        await strict_client.post(
            "/webhooks",
            json={**HOOK, "url": "https://93.184.215.14/hook"},
            headers=tenant.headers,
        ),
        201,
    )
    assert created["url"] == "https://93.184.215.14/hook"
