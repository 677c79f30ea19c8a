"""API-key lookups cached per process: a revoked key stops working on every replica within a few
seconds, a lookup that raced a revocation is not kept, and the use of a cached key is still
recorded (``app/services/api_keys.py``)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.principal import Principal
from app.services import api_keys
from app.services.api_keys import KEYS
from app.stored_secrets import hash_secret
from db.tables import ApiKey
from tests.processes import serving, ticketing
from tests.support import Tenant, new_tenant, ok, problem

REVOCATION_BOUND_SECONDS = 15.0
"""Generous for a busy shared machine: the service's own bound is about three seconds."""


async def statuses_until_refused(urls: list[str], headers: dict[str, str]) -> dict[str, int]:
    """Poll every replica (bounded) until each refuses the key; the last status of each."""
    last: dict[str, int] = {}
    deadline = asyncio.get_running_loop().time() + REVOCATION_BOUND_SECONDS
    async with httpx.AsyncClient(headers=headers, timeout=10.0) as client:
        while asyncio.get_running_loop().time() < deadline:
            for url in urls:
                last[url] = (await client.get(f"{url}/whoami")).status_code
            if set(last.values()) == {401}:
                break
            await asyncio.sleep(0.2)
    return last


@pytest.mark.slow
async def test_a_key_revoked_elsewhere_stops_working_on_every_replica(database: None) -> None:
    tenant = await new_tenant()
    async with serving(2) as urls, httpx.AsyncClient(headers=tenant.headers) as client:
        for url in urls:  # each replica has looked the key up and now serves it from memory
            for _ in range(3):
                ok(await client.get(f"{url}/whoami"))
        revoked = await ticketing("api-key", "revoke", str(tenant.key_id))
        assert revoked.json() == {"id": str(tenant.key_id), "revoked": True}
        assert await statuses_until_refused(urls, tenant.headers) == {url: 401 for url in urls}
        other = await new_tenant()  # the other keys still work
        for url in urls:
            ok(await client.get(f"{url}/whoami", headers=other.headers))


async def test_a_key_revoked_in_this_process_is_refused_at_once(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    for _ in range(2):
        ok(await client.get("/whoami", headers=tenant.headers))
    assert hash_secret(tenant.key) in KEYS._keys
    await api_keys.revoke_api_key(tenant.key_id)
    problem(await client.get("/whoami", headers=tenant.headers), 401)


async def test_a_lookup_that_began_before_a_revocation_is_not_kept(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    """A request read the key's row while it was live; the key was revoked (and the keys
    forgotten) before that request stored its lookup: the next request reads the row again."""
    generation = KEYS.generation
    rows = await ApiKey.raw(api_keys.KEY_BY_HASH, hash_secret(tenant.key))
    assert rows and rows[0]["revoked_at"] is None
    live = Principal(
        organization_id=tenant.org_id,
        user_id=tenant.user_id,
        scopes=frozenset(),
        credential="api_key",
        credential_id=tenant.key_id,
    )
    await api_keys.revoke_api_key(tenant.key_id)
    KEYS.store(hash_secret(tenant.key), live, None, generation)
    problem(await client.get("/whoami", headers=tenant.headers), 401)


async def test_the_use_of_a_cached_key_is_recorded_off_the_request_path(
    client: httpx.AsyncClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(await client.get("/whoami", headers=tenant.headers))
    first = (await ApiKey.select(ApiKey.last_used_at).where(ApiKey.id == tenant.key_id).first())[
        "last_used_at"
    ]
    assert first is not None
    monkeypatch.setattr(api_keys, "LAST_USED_RESOLUTION", api_keys.timedelta(0))
    ok(await client.get("/whoami", headers=tenant.headers))  # served from memory
    deadline = asyncio.get_running_loop().time() + 10.0
    later = first
    while later == first and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
        row = await ApiKey.select(ApiKey.last_used_at).where(ApiKey.id == tenant.key_id).first()
        later = row["last_used_at"]
    assert later > first
