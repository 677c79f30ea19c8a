"""The dashboard's live / test switch (CONTRACT.md section 18), against a real ``ticketing
serve``: in test mode every page shows the test twin's data under a banner, keys made there are
``tk_test_`` keys, and switching back shows live data again."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import httpx
import pytest

from tests.dashboard.support import csrf_of
from tests.dashboard.test_dashboard import base_url, browser_for, signed_in  # noqa: F401
from tests.dates import YEAR
from tests.support import Tenant, create_event

pytestmark = pytest.mark.slow
TEST_KEY = re.compile(r"tk_test_[A-Za-z0-9]{40}")
BANNER = "Test mode: you are viewing and changing test data only."


async def test_the_switch_shows_test_data_under_a_banner_and_makes_test_keys(
    base_url: str,  # noqa: F811
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]],  # noqa: F811
    client: httpx.AsyncClient,
    tenant: Tenant,
) -> None:
    await create_event(client, tenant, title="Live gala", starts_at=f"{YEAR}-01-01T18:00:00Z")
    browser = await signed_in(browser_for, tenant.email)
    live = await browser.get("/dashboard/events")
    assert "Live gala" in live.text and BANNER not in live.text
    assert "View test data" in live.text

    switched = await browser.post(
        "/dashboard/mode", data={"csrf_token": csrf_of(live.text), "mode": "test"}
    )
    assert switched.status_code == 303
    events = await browser.get("/dashboard/events")
    assert BANNER in events.text and "Live gala" not in events.text
    assert "Leave test mode" in events.text

    keys = await browser.get("/dashboard/api-keys")
    assert BANNER in keys.text and "tk_live_" not in keys.text
    created = await browser.post(
        "/dashboard/api-keys",
        data={"csrf_token": csrf_of(keys.text), "name": "sandbox", "scopes": ["events.write"]},
    )
    [key] = TEST_KEY.findall(created.text)
    async with httpx.AsyncClient(base_url=base_url) as api:
        bearer = {"Authorization": f"Bearer {key}"}
        assert (await api.get("/whoami", headers=bearer)).json()["livemode"] is False
        made = await api.post(
            "/events",
            json={"title": "Rehearsal", "starts_at": f"{YEAR}-01-02T18:00:00Z"},
            headers=bearer,
        )
        assert made.status_code == 201
    events = await browser.get("/dashboard/events")
    assert "Rehearsal" in events.text and "Live gala" not in events.text

    back = await browser.post(
        "/dashboard/mode", data={"csrf_token": csrf_of(events.text), "mode": "live"}
    )
    assert back.status_code == 303
    live = await browser.get("/dashboard/events")
    assert BANNER not in live.text
    assert "Live gala" in live.text and "Rehearsal" not in live.text
    refused = await browser.post(
        "/dashboard/mode", data={"csrf_token": csrf_of(live.text), "mode": "sideways"}
    )
    assert refused.status_code == 400
