"""Test mode and the request log in a real browser (Debian's Chromium, offline): the live / test
switch in the top bar, the banner that stays on every page while in test mode, test data only
under it, and a key's request log filtered by status. Photographed on a laptop and a phone
(``tests/artifacts/dashboard-test-mode*.png``, ``dashboard-request-log*.png``)."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import BrowserContext, expect

from tests.browser.browsing import sign_in
from tests.browser.test_browser_dashboard_pages import photograph, section
from tests.browser.test_browser_pages import Offline
from tests.dates import YEAR
from tests.support import Tenant, create_event
from tests.testmode.support import in_test_mode

pytestmark = pytest.mark.slow
BANNER = "Test mode: you are viewing and changing test data only."


async def test_the_switch_the_banner_and_a_keys_request_log(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    context, _ = offline
    test = await in_test_mode(tenant)
    async with httpx.AsyncClient(base_url=base_url, timeout=20) as api:
        await create_event(
            api, tenant, title="Live: opening night", starts_at=f"{YEAR}-05-01T20:00:00Z"
        )
        await create_event(api, test, title="Rehearsal", starts_at=f"{YEAR}-05-01T18:00:00Z")
        for path in (
            "/events",
            "/events?sort=nope",
            "/orders/00000000-0000-4000-8000-000000000000",
        ):
            await api.get(path, headers={**test.headers, "X-Request-ID": f"demo-{len(path)}"})

    page = await sign_in(context, base_url, tenant.email)
    await section(page, "Events")
    await expect(page.get_by_text("Live: opening night")).to_be_visible()
    await expect(page.get_by_text(BANNER)).to_have_count(0)

    await page.get_by_role("button", name="View test data").click()
    await expect(page.get_by_role("status").filter(has_text=BANNER)).to_be_visible()
    await section(page, "Events")
    await expect(page.get_by_text("Rehearsal")).to_be_visible()
    await expect(page.get_by_text("Live: opening night")).to_have_count(0)
    await expect(page.get_by_role("status").filter(has_text=BANNER)).to_be_visible()
    await photograph(page, "test-mode")

    await section(page, "API keys")
    await expect(page.get_by_text("tk_test_…")).to_be_visible()
    await page.get_by_role("link", name="Requests").first.click()
    await expect(page.get_by_role("heading", name="Requests of tests")).to_be_visible()
    await expect(page.get_by_text("4 requests")).to_be_visible()
    await page.get_by_role("link", name="4xx").click()
    await expect(page.get_by_text("2 requests answered 4xx")).to_be_visible()
    await expect(page.get_by_text("POST /events", exact=True)).to_have_count(0)
    await photograph(page, "request-log")

    await page.get_by_role("button", name="Leave test mode").click()
    await section(page, "Events")
    await expect(page.get_by_text("Live: opening night")).to_be_visible()
    await expect(page.get_by_text(BANNER)).to_have_count(0)
