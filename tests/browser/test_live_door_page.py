"""The live door view example (docs/live-door) in a real headless Chromium: served from its own
origin, it reads the event over HTTP (CORS) and counts scans from the ``scans`` subscription."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.browsing import ARTIFACTS
from tests.browser.conftest import Example
from tests.support import Tenant, create_event, ok, open_door

EXAMPLE = "live-door"


async def watch(page: Page, example: Example, tenant: Tenant, event_id: str) -> None:
    """Open the page and have it watch the event's door."""
    await page.goto(example.origin)
    await page.fill("#api", example.api)
    await page.fill("#token", tenant.key)
    await page.fill("#event", event_id)
    await page.click("#start")


@pytest.mark.slow
async def test_the_live_door_page_counts_admitted_and_refused_scans(
    client: httpx.AsyncClient, tenant: Tenant, browser: Browser, example: Example
) -> None:
    door = await open_door(client, tenant, tickets=2, title="Door night")
    await create_event(client, tenant, title="Another night")
    page = await browser.new_page()
    async with httpx.AsyncClient(base_url=example.api, headers=tenant.headers, timeout=30) as http:
        await watch(page, example, tenant, door.venue.event["id"])
        await expect(page.locator("#event-title")).to_have_text("Door night")
        await expect(page.locator("#status")).to_have_text("live")

        async def scan(ticket: int) -> str:
            path = f"/tickets/{door.tickets[ticket]['id']}/scan"
            return ok(await http.post(path, json={"scanner_id": door.scanner["id"]}))["status"]

        # The subscription is registered a moment after "live": scan until it counts.
        assert await scan(0) == "valid"
        for _ in range(20):
            if await page.locator("#recent li").count():
                break
            assert await scan(0) == "scanned"
        assert await scan(1) == "valid"
        assert await scan(1) == "scanned"
    recent = page.locator("#recent li")
    await expect(recent.nth(0)).to_contain_text("scanned (already_scanned)")
    await expect(recent.nth(1)).to_contain_text("valid")
    shown = await recent.all_text_contents()
    admitted = sum(1 for line in shown if line.endswith(" valid"))
    assert await page.locator("#admitted").text_content() == str(admitted)
    assert await page.locator("#refused").text_content() == str(len(shown) - admitted)
    assert admitted >= 1 and len(shown) - admitted >= 1
    await page.screenshot(path=ARTIFACTS / "live-door.png", full_page=True)
    await page.context.close()


@pytest.mark.slow
@pytest.mark.cors_origins("https://elsewhere.example.com")
async def test_the_page_on_an_origin_not_listed_cannot_read_the_api(
    client: httpx.AsyncClient, tenant: Tenant, browser: Browser, example: Example
) -> None:
    door = await open_door(client, tenant, tickets=1)
    page = await browser.new_page()
    await watch(page, example, tenant, door.venue.event["id"])
    await expect(page.locator("#status")).to_contain_text("could not read the event")
    await expect(page.locator("#event-title")).to_have_text("No event yet")
    await page.screenshot(path=ARTIFACTS / "live-door-origin-not-allowed.png")
    await page.context.close()
