"""The live door view example (docs/live-door) in a real headless Chromium: served from its own
origin, it reads the event over HTTP (CORS) and counts scans from the ``scans`` subscription."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from playwright.async_api import async_playwright, expect

from tests.harness import free_port
from tests.processes import served
from tests.support import Tenant, create_event, ok, open_door

PAGE = Path(__file__).resolve().parents[2] / "docs" / "live-door"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SCREENSHOT = Path("/tmp/ticketing-live-door.png")


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def page_origin() -> Iterator[str]:
    """docs/live-door served on a 127.0.0.1 port of its own (a frontend's origin)."""
    handler = functools.partial(QuietHandler, directory=str(PAGE))
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
async def test_the_live_door_page_counts_admitted_and_refused_scans(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=2, title="Door night")
    await create_event(client, tenant, title="Another night")
    with page_origin() as origin:
        async with (
            served(TICKETING_CORS_ORIGINS=origin) as api,
            httpx.AsyncClient(base_url=api.url, headers=tenant.headers, timeout=30) as http,
            async_playwright() as playwright,
        ):
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = await browser.new_page()
                await page.goto(origin)
                await page.fill("#api", api.url)
                await page.fill("#token", tenant.key)
                await page.fill("#event", door.venue.event["id"])
                await page.click("#start")
                await expect(page.locator("#event-title")).to_have_text("Door night")
                await expect(page.locator("#status")).to_have_text("live")

                async def scan(ticket: int) -> str:
                    path = f"/tickets/{door.tickets[ticket]['id']}/scan"
                    body = {"scanner_id": door.scanner["id"]}
                    return ok(await http.post(path, json=body))["status"]

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
                await page.screenshot(path=str(SCREENSHOT), full_page=True)
            finally:
                await browser.close()


@pytest.mark.slow
async def test_the_page_on_an_origin_not_listed_cannot_read_the_api(
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=1)
    with page_origin() as origin:
        async with (
            served(TICKETING_CORS_ORIGINS="https://elsewhere.example.com") as api,
            async_playwright() as playwright,
        ):
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = await browser.new_page()
                await page.goto(origin)
                await page.fill("#api", api.url)
                await page.fill("#token", tenant.key)
                await page.fill("#event", door.venue.event["id"])
                await page.click("#start")
                await expect(page.locator("#status")).to_contain_text("could not read the event")
                await expect(page.locator("#event-title")).to_have_text("No event yet")
            finally:
                await browser.close()
