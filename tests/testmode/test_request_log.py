"""The request log of each credential (CONTRACT.md section 18), against a real ``ticketing
serve``: requests made with a key show up in the dashboard under that key, filtered by status,
without a body, a query value or a secret; the log keeps the last 1,000 over 7 days."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta

import httpx
import pytest

from app.principal import Principal
from app.services.request_log import KEEP, KEEP_FOR, Noted, RequestLog
from app.stored_secrets import hash_secret
from app.timeutil import utcnow
from db.tables import ApiKey, RequestLogEntry
from tests.dashboard.test_dashboard import base_url, browser_for, signed_in  # noqa: F401
from tests.dates import YEAR
from tests.support import Tenant, key_for

pytestmark = pytest.mark.slow
BODY_MARKER = "a-body-never-logged"
QUERY_MARKER = "a-query-value-never-logged"


async def _page_once_logged(browser: httpx.AsyncClient, path: str, expected: int) -> httpx.Response:
    """The request log page once it lists ``expected`` requests (written off the request path,
    so a moment after the answers), within ten seconds."""
    deadline = time.monotonic() + 10
    while True:
        page = await browser.get(path)
        assert page.status_code == 200, page.text[:2000]
        if f"{expected} request" in page.text or time.monotonic() > deadline:
            return page
        await asyncio.sleep(0.1)


async def test_the_dashboard_shows_each_keys_requests_without_bodies_queries_or_secrets(
    base_url: str,  # noqa: F811
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]],  # noqa: F811
    tenant: Tenant,
) -> None:
    headers = await key_for(tenant, ["events.read", "events.write"])
    key = headers["Authorization"].removeprefix("Bearer ")
    async with httpx.AsyncClient(base_url=base_url) as api:
        listed = await api.get("/events", params={"sort": QUERY_MARKER}, headers=headers)
        made = await api.post(
            "/events",
            json={"title": BODY_MARKER, "starts_at": f"{YEAR}-01-01T10:00:00Z"},
            headers={**headers, "Idempotency-Key": "retry-safe-1", "X-Request-ID": "req-42"},
        )
        missing = await api.get("/events/00000000-0000-4000-8000-000000000000", headers=headers)
        other = await api.get("/whoami", headers=tenant.headers)
    assert (listed.status_code, made.status_code, missing.status_code) == (400, 201, 404)
    assert other.status_code == 200

    browser = await signed_in(browser_for, tenant.email)
    keys = await browser.get("/dashboard/api-keys")
    [key_id] = (
        await ApiKey.select(ApiKey.id)
        .where(ApiKey.key_hash == hash_secret(key))
        .output(as_list=True)
    )
    assert f"/dashboard/api-keys/{key_id}/requests" in keys.text
    page = await _page_once_logged(browser, f"/dashboard/api-keys/{key_id}/requests", 3)
    assert "3 requests" in page.text, page.text
    for shown in ("GET /events", "POST /events", "201", "404", "400", "retry-safe-1", "req-42"):
        assert shown in page.text, shown
    for hidden in (BODY_MARKER, QUERY_MARKER, key, tenant.key, "/whoami"):
        assert hidden not in page.text, hidden
    rows = await RequestLogEntry.select().where(RequestLogEntry.credential_id == key_id)
    assert len(rows) == 3
    assert not [
        row for row in rows for hidden in (BODY_MARKER, QUERY_MARKER, key) if hidden in str(row)
    ]

    failed = await browser.get(f"/dashboard/api-keys/{key_id}/requests?status=4xx")
    assert "2 requests answered 4xx" in failed.text and "POST /events" not in failed.text
    refused = await browser.get(f"/dashboard/api-keys/{key_id}/requests?status=teapot")
    assert refused.status_code == 400
    foreign = await browser.get(f"/dashboard/api-keys/{tenant.org_id}/requests")
    assert foreign.status_code == 404


async def test_the_log_keeps_each_credentials_last_thousand_over_seven_days(
    tenant: Tenant,
) -> None:
    log = RequestLog()
    caller = Principal(tenant.org_id, tenant.user_id, frozenset(), "api_key", tenant.key_id)
    now = utcnow()

    def entry(age: timedelta, status: int = 200) -> Noted:
        return Noted(
            organization_id=caller.organization_id, credential_id=caller.credential_id,
            method="GET", path="/events", status=status, duration_ms=1.0, request_id="r",
            idempotency_key=None, created_at=now - age,
        )  # fmt: skip

    for index in range(KEEP + 5):
        log.note(entry(timedelta(seconds=KEEP + 5 - index)))
    log.note(entry(KEEP_FOR + timedelta(hours=1)))
    await log.flush()
    newer = RequestLog()
    newer.note(entry(timedelta(0), 503))
    await newer.flush()
    rows = await RequestLogEntry.select(RequestLogEntry.created_at, RequestLogEntry.status).where(
        RequestLogEntry.credential_id == tenant.key_id
    )
    assert len(rows) == KEEP
    assert min(row["created_at"] for row in rows) > now - timedelta(seconds=KEEP)
    assert 503 in {row["status"] for row in rows}
