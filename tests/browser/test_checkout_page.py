"""The checkout example (docs/checkout) in a real headless Chromium: served from its own origin,
it holds places, counts down, places the order of the hold, and tells the buyer when the hold
has run out."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, async_playwright, expect

from tests.browser.test_live_door_page import CHROMIUM, CHROMIUM_ARGS, QuietHandler
from tests.harness import free_port
from tests.processes import served
from tests.sales.onsale import counted, expire
from tests.support import Tenant, Venue, create_venue, ok

PAGE = Path(__file__).resolve().parents[2] / "docs" / "checkout"
SCREENSHOTS = Path("/tmp")


@contextmanager
def page_origin() -> Iterator[str]:
    """docs/checkout served on a 127.0.0.1 port of its own (a frontend's origin)."""
    handler = functools.partial(QuietHandler, directory=str(PAGE))
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    venue = await create_venue(client, tenant, capacity=5, price=20.0)
    with page_origin() as origin:
        async with (
            served(TICKETING_CORS_ORIGINS=origin) as api,
            async_playwright() as playwright,
        ):
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = await browser.new_page()
                await page.goto(origin)
                await hold_places(page, api.url, tenant, venue, 6)
                await expect(page.locator("#status")).to_contain_text("Sold out")
                await hold_places(page, api.url, tenant, venue, 3)
                await expect(page.locator("#status")).to_have_text("3 places held")
                await expect(page.locator("#countdown")).to_have_text(
                    re.compile(r"^(10:00|9:[0-5]\d)$")
                )
                assert (await counted(venue.timeslot["id"])).held == 3
                await page.fill("#name", "Grace Hopper")
                await page.fill("#email", "grace@example.com")
                await page.screenshot(path=str(SCREENSHOTS / "ticketing-checkout-held.png"))
                await page.click("#order")
                await expect(page.locator("#status")).to_contain_text("Order placed")
                await page.screenshot(path=str(SCREENSHOTS / "ticketing-checkout-ordered.png"))
                figures = await counted(venue.timeslot["id"])
                assert (figures.sold, figures.held) == (3, 0)
                orders = ok(
                    await client.get(
                        "/orders", params={"event_id": venue.event["id"]}, headers=tenant.headers
                    )
                )["data"]
                assert [(o["buyer_name"], o["total_price"]) for o in orders] == [
                    ("Grace Hopper", 60.0)
                ]

                # A hold that runs out before the order: the page says so and sells nothing.
                await hold_places(page, api.url, tenant, venue, 2)
                await expect(page.locator("#status")).to_have_text("2 places held")
                held = ok(
                    await client.get(
                        "/holds/" + await page.evaluate("hold.id"), headers=tenant.headers
                    )
                )
                await expire(held["id"])
                await page.fill("#name", "Ada Lovelace")
                await page.fill("#email", "ada@example.com")
                await page.click("#order")
                await expect(page.locator("#status")).to_contain_text("ran out")
                await expect(page.locator("#buyer")).to_be_hidden()
                await page.screenshot(path=str(SCREENSHOTS / "ticketing-checkout-expired.png"))
                assert (await counted(venue.timeslot["id"])).sold == 3
            finally:
                await browser.close()
