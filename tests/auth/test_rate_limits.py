"""Rate limits per credential (CONTRACT.md section 1): 429 with ``Retry-After``, in-process and in
Redis, with a small limit so the tests stay quick."""

from __future__ import annotations

import uuid

import pytest
from httpx import AsyncClient

from app.errors import RateLimited
from app.runtime.rate_limits import MemoryCounter, RedisCounter, check_rate
from app.settings import get_settings
from tests.conftest import AppClient
from tests.harness import REDIS_URL
from tests.support import Tenant, key_for, ok, problem


@pytest.mark.parametrize("counted_in", ["memory", "redis"])
async def test_over_the_limit_is_429_with_retry_after(
    app_client: AppClient, tenant: Tenant, counted_in: str
) -> None:
    """A limit of 3 requests a minute, counted in-process or in Redis."""
    redis_url = REDIS_URL if counted_in == "redis" else None
    async with app_client(rate_limit_per_minute=3, redis_url=redis_url) as client:
        for _ in range(3):
            ok(await client.get("/whoami", headers=tenant.headers))
        limited = await client.get("/events", headers=tenant.headers)
        body = problem(limited, 429)
        assert "3 requests per minute" in body["detail"]
        assert 1 <= int(limited.headers["retry-after"]) <= 60
        other_key = await key_for(tenant, ["events.read"])
        ok(await client.get("/events", headers=other_key))
        problem(await client.get("/whoami", headers={"Authorization": "Bearer tk_live_x"}), 401)


async def test_window_resets_and_retry_after_counts_down() -> None:
    counter = MemoryCounter()
    start = 1_800_000_000.0  # a window boundary (a multiple of 60)
    for offset in (0.0, 10.0):
        await check_rate("key:a", limit=2, counter=counter, now=start + offset)
    with pytest.raises(RateLimited) as early:
        await check_rate("key:a", limit=2, counter=counter, now=start + 0.5)
    assert early.value.retry_after == 60
    with pytest.raises(RateLimited) as late:
        await check_rate("key:a", limit=2, counter=counter, now=start + 59.5)
    assert late.value.retry_after == 1
    await check_rate("key:b", limit=2, counter=counter, now=start + 59.5)
    await check_rate("key:a", limit=2, counter=counter, now=start + 60)


async def test_zero_disables_the_limit() -> None:
    counter = MemoryCounter()
    for _ in range(50):
        await check_rate("key:unlimited", limit=0, counter=counter, now=1_800_000_000.0)


async def test_replicas_share_the_count_in_redis() -> None:
    namespace = get_settings().queue_name
    first = RedisCounter(REDIS_URL, namespace=namespace)
    second = RedisCounter(REDIS_URL, namespace=namespace)
    credential = f"key:{uuid.uuid4()}"
    now = 1_800_000_000.0
    await check_rate(credential, limit=2, counter=first, now=now)
    await check_rate(credential, limit=2, counter=second, now=now)
    with pytest.raises(RateLimited):
        await check_rate(credential, limit=2, counter=first, now=now + 1)


async def test_unreachable_redis_lets_requests_through() -> None:
    unreachable = RedisCounter("redis://127.0.0.1:1/0", namespace="unreachable")
    for _ in range(3):
        await check_rate("key:outage", limit=1, counter=unreachable, now=1_800_000_000.0)


async def test_every_route_documents_the_429(client: AsyncClient) -> None:
    document = ok(await client.get("/schema/openapi.json"))
    for path in ("/whoami", "/events", "/orders", "/events/{event_id}/tickets"):
        assert "429" in document["paths"][path]["get"]["responses"], path
