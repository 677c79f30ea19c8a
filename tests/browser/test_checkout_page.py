"""The checkout example (docs/checkout) in a real headless Chromium: served from its own origin,
it holds places, counts down, places the order of the hold, and tells the buyer when the hold
has run out."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.browsing import ARTIFACTS
from tests.browser.conftest import Example
from tests.sales.onsale import counted, expire
from tests.support import Tenant, Venue, create_venue, ok

EXAMPLE = "checkout"


async def hold_places(page: Page, api: str, tenant: Tenant, venue: Venue, places: int) -> None:
    await page.fill("#api", api)
    await page.fill("#token", tenant.key)
    await page.fill("#event", venue.event["id"])
    await page.fill("#timeslot", venue.timeslot["id"])
    await page.fill("#ticket-type", venue.ticket_type["id"])
    await page.fill("#places", str(places))
    await page.click("#hold")


@pytest.mark.slow
async def test_the_checkout_page_holds_counts_down_and_places_the_order(
    client: httpx.AsyncClient, tenant: Tenant, browser: Browser, example: Example
) -> None:
    venue = await create_venue(client, tenant, capacity=5, price=20.0)
    page = await browser.new_page()
    await page.goto(example.origin)
    await hold_places(page, example.api, tenant, venue, 6)
    await expect(page.locator("#status")).to_contain_text("Sold out")
    await hold_places(page, example.api, tenant, venue, 3)
    await expect(page.locator("#status")).to_have_text("3 places held")
    await expect(page.locator("#countdown")).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    assert (await counted(venue.timeslot["id"])).held == 3
    await page.fill("#name", "Grace Hopper")
    await page.fill("#email", "grace@example.com")
    await page.screenshot(path=ARTIFACTS / "checkout-held.png")
    await page.click("#order")
    await expect(page.locator("#status")).to_contain_text("Order placed")
    await page.screenshot(path=ARTIFACTS / "checkout-ordered.png")
    figures = await counted(venue.timeslot["id"])
    assert (figures.sold, figures.held) == (3, 0)
    orders = ok(
        await client.get("/orders", params={"event_id": venue.event["id"]}, headers=tenant.headers)
    )["data"]
    assert [(o["buyer_name"], o["total_price"]) for o in orders] == [("Grace Hopper", 60.0)]

    # A hold that runs out before the order: the page says so and sells nothing.
    await hold_places(page, example.api, tenant, venue, 2)
    await expect(page.locator("#status")).to_have_text("2 places held")
    held = ok(await client.get("/holds/" + await page.evaluate("hold.id"), headers=tenant.headers))
    await expire(held["id"])
    await page.fill("#name", "Ada Lovelace")
    await page.fill("#email", "ada@example.com")
    await page.click("#order")
    await expect(page.locator("#status")).to_contain_text("ran out")
    await expect(page.locator("#buyer")).to_be_hidden()
    await page.screenshot(path=ARTIFACTS / "checkout-expired.png")
    assert (await counted(venue.timeslot["id"])).sold == 3
    await page.context.close()
