"""The dashboard's pages in a real browser (Debian's Chromium through Playwright), offline: an admin
confirms and cancels an order, watches a scan made through the REST API appear live in the door
view, creates a webhook and sends a test delivery to a receiver on 127.0.0.1,
registers an OAuth application and sees its secret once, and finds all of it in the audit log.
Each page is photographed on a laptop and on a phone (``tests/artifacts/dashboard-*.png``), and
no page is wider than a phone's screen."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect

from app.timeutil import utcnow
from tests.browser.browsing import ARTIFACTS, LAPTOP, PHONE, sign_in
from tests.browser.test_browser_pages import Offline
from tests.support import Tenant, create_venue, ok, open_door, place_order
from tests.webhooks.support import Receiver

pytestmark = pytest.mark.slow

WITHIN_MS = 10_000
"""How long a page may take for what happens in the background (a webhook delivery)."""


async def photograph(page: Page, name: str) -> None:
    """The page on a laptop and on a phone; on the phone nothing may stick out sideways."""
    await page.screenshot(path=ARTIFACTS / f"dashboard-{name}.png", full_page=True)
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=ARTIFACTS / f"dashboard-{name}-phone.png", full_page=True)
    overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    await page.set_viewport_size(LAPTOP)
    assert overflow <= 0, f"{name} is {overflow}px wider than a phone"


async def section(page: Page, name: str) -> None:
    await page.get_by_role("navigation", name="Sections").get_by_role("link", name=name).click()
    await expect(page.get_by_role("heading", level=1)).to_be_visible()


async def test_an_admin_runs_the_night_from_the_dashboard(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    context, recorder = offline
    async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers, timeout=20) as api:
        tonight = (utcnow() + timedelta(hours=2)).replace(microsecond=0).isoformat()
        venue = await create_venue(
            api, tenant, title="Paradiso: late show", starts_at=tonight, location="Amsterdam"
        )
        door = await open_door(api, tenant, tickets=3, venue=venue)
        await create_venue(api, tenant, title="Melkweg matinee", starts_at=tonight, capacity=250)
        pending = await place_order(
            api,
            tenant,
            venue.event["id"],
            venue.timeslot["id"],
            [venue.ticket_type["id"]] * 2,
            buyer_name="Grace Hopper",
            buyer_email="grace@example.com",
        )
        ok(await api.post("/scans", json={"scannable_code": door.tickets[1]["scannable_code"]}))

        page = await sign_in(context, base_url, tenant.email)
        await expect(page.get_by_role("heading", name="Overview")).to_be_visible()
        await expect(page.get_by_role("link", name="Paradiso: late show").first).to_be_visible()
        await photograph(page, "overview")

        # The event: sales per timeslot, the ticket search, an order confirmed then cancelled.
        await page.get_by_role("link", name="Paradiso: late show").first.click()
        await expect(page.get_by_role("heading", name="Paradiso: late show")).to_be_visible()
        await page.get_by_label("Name, e-mail address or ticket code").fill("grace")
        await page.get_by_role("button", name="Search").click()
        await expect(page.get_by_role("heading", name="2 tickets for “grace”")).to_be_visible()
        await photograph(page, "event")
        await page.get_by_role("link", name="Grace Hopper").click()
        await expect(page.get_by_role("heading", name="Order of Grace Hopper")).to_be_visible()
        await page.get_by_role("button", name="Confirm payment").click()
        await expect(page.get_by_text("The order is confirmed")).to_be_visible()
        await photograph(page, "order")
        await page.get_by_text("Cancel order…").click()
        await page.get_by_role("button", name="Cancel the order").click()
        await expect(page.get_by_text("The order is cancelled")).to_be_visible()
        assert ok(await api.get(f"/orders/{pending['id']}"))["status"] == "cancelled"

        # The door view: a scan through the REST API shows up live, without a reload.
        await page.goto(f"{base_url}/dashboard/door/{venue.event['id']}")
        await expect(page.locator("#door[data-live=on]")).to_have_count(1)
        await expect(page.locator("#door-admitted")).to_have_text("1")
        await expect(page.locator("#door-inside")).to_have_text("1")
        code = door.tickets[0]["scannable_code"]
        ok(
            await api.post(
                "/scans", json={"scannable_code": code, "scanner_id": door.scanner["id"]}
            )
        )
        newest = page.locator("#door-scans li").first
        await expect(newest).to_contain_text("Admitted")
        await expect(newest).to_contain_text("Ada Buyer")
        await expect(page.locator("#door-admitted")).to_have_text("2")
        await expect(page.locator("#door-inside")).to_have_text("2")
        ok(await api.post("/scans", json={"scannable_code": code}))
        await expect(newest).to_contain_text("Already scanned")
        await page.screenshot(path=ARTIFACTS / "dashboard-door-viewport.png")
        await photograph(page, "door")

    # A webhook to a receiver on this machine, and a test delivery to it.
    async with Receiver() as receiver:
        await section(page, "Webhooks")
        await page.get_by_label("Endpoint URL").fill(receiver.url)
        await page.get_by_role("checkbox", name="order.confirmed").check()
        await page.get_by_label("Description").fill("Box office CRM")
        await page.get_by_role("button", name="Create webhook").click()
        secret = page.locator("#new-secret")
        await expect(secret).to_contain_text("whsec_")
        shown = (await secret.inner_text()).strip()
        await photograph(page, "webhook-created")
        await page.get_by_role("link", name="Open the webhook").click()
        await expect(page.locator("#new-secret")).to_have_count(0)
        await page.get_by_role("button", name="Send a test event").click()
        await expect(page.get_by_text("A test event is on its way")).to_be_visible()
        async with receiver.arrived:
            await asyncio.wait_for(
                receiver.arrived.wait_for(lambda: receiver.requests), WITHIN_MS / 1000
            )
        assert b'"webhook.test"' in receiver.requests[0].body
        delivered = page.locator("#deliveries ~ .table-wrap .status-delivered")
        deadline = asyncio.get_running_loop().time() + WITHIN_MS / 1000
        while not await delivered.count():
            assert asyncio.get_running_loop().time() < deadline, (
                "the delivery log shows no delivery"
            )
            await page.reload()
        await photograph(page, "webhook")
        assert shown not in await page.content()

    # An OAuth application: its secret shown once.
    await section(page, "OAuth applications")
    await page.get_by_label("Name").fill("Door app")
    await page.get_by_label("Redirect URIs").fill("https://door.example/callback")
    await page.get_by_role("checkbox", name="tickets.write").check()
    await page.get_by_role("button", name="Register application").click()
    client_secret = page.locator("#new-client-secret")
    await expect(client_secret).to_contain_text("cs_")
    app_secret = (await client_secret.inner_text()).strip()
    await photograph(page, "oauth-application-created")
    await page.goto(f"{base_url}/dashboard/oauth-applications")
    await expect(page.get_by_role("cell", name="Door app", exact=True)).to_have_count(1)
    assert app_secret not in await page.content()
    await photograph(page, "oauth-applications")

    await section(page, "Scanners")
    await page.get_by_label("Name").first.fill("South door")
    await page.get_by_role("button", name="Add scanner").click()
    await expect(page.get_by_text("Scanner created.")).to_be_visible()
    await photograph(page, "scanners")

    await section(page, "Audit log")
    log = page.locator("table.audit")
    for action in (
        "confirmed the order of",
        "cancelled the order of",
        "created webhook",
        "sent a test event to webhook",
        "registered OAuth application",
        "added scanner",
    ):
        await expect(log).to_contain_text(action)
    await expect(log).to_contain_text("Door app")
    content = await page.content()
    assert shown not in content and app_secret not in content
    assert re.search(r"operator <strong>", content)  # the tenant's key was made as an operator
    await photograph(page, "audit-log")

    await section(page, "Events")
    await photograph(page, "events")
    await section(page, "Door view")
    await photograph(page, "door-index")
    assert recorder.blocked == [] and recorder.errors == []


async def test_the_door_view_works_without_javascript(
    base_url: str, browser: Browser, tenant: Tenant
) -> None:
    """Without JavaScript the door view is a list of the latest scans: refresh shows more."""
    context = await browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers) as api:
            door = await open_door(api, tenant, tickets=2, title="No script night")
            page = await sign_in(context, base_url, tenant.email)
            await page.goto(f"{base_url}/dashboard/door/{door.venue.event['id']}")
            await expect(page.get_by_text("No scans yet.")).to_be_visible()
            code = door.tickets[0]["scannable_code"]
            ok(await api.post("/scans", json={"scannable_code": code}))
            await page.get_by_role("link", name="Refresh").last.click()
            await expect(page.locator("#door-scans li").first).to_contain_text("Ada Buyer")
            await expect(page.locator("#door-admitted")).to_have_text("1")
            await page.screenshot(
                path=ARTIFACTS / "dashboard-door-no-script-phone.png", full_page=True
            )
    finally:
        await context.close()


async def test_the_door_view_stops_when_its_member_signs_out(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    """Issue 24 item 2: after sign-out in another tab, the door view kept streaming scans with
    their owners' names. It must stop within seconds and say why."""
    context, recorder = offline
    async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers, timeout=20) as api:
        door = await open_door(api, tenant, tickets=2, title="Last call")
        page = await sign_in(context, base_url, tenant.email)
        await page.goto(f"{base_url}/dashboard/door/{door.venue.event['id']}")
        status = page.locator("#door-live")
        await expect(status).to_contain_text("Live")
        other_tab = await context.new_page()
        await other_tab.goto(f"{base_url}/dashboard")
        await other_tab.get_by_role("button", name="Sign out").click()
        await expect(
            other_tab.get_by_role("heading", name="Sign in to the dashboard")
        ).to_be_visible()
        await expect(status).to_contain_text("Signed out", timeout=WITHIN_MS)
        ok(await api.post("/scans", json={"scannable_code": door.tickets[0]["scannable_code"]}))
        await expect(page.get_by_text("No scans yet.")).to_be_visible()
        await page.screenshot(path=ARTIFACTS / "dashboard-door-signed-out.png")
    assert recorder.blocked == [] and recorder.errors == []


async def test_the_operator_s_first_hour_in_a_browser(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    """Issue 24 item 14 in Chromium: the door view keeps a refusal and its scanner on reload,
    times are local with UTC on hover, "sold" says it includes unpaid orders, and an unknown
    address is an HTML page."""
    from app.services.organizations import set_timezone

    context, recorder = offline
    await set_timezone(tenant.org_id, "Europe/Amsterdam")
    async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers, timeout=20) as api:
        door = await open_door(api, tenant, tickets=1, confirm=False, title="Unpaid at the door")
        north = ok(await api.post("/scanners", json={"name": "North gate"}), 201)
        code = door.tickets[0]["scannable_code"]
        ok(await api.post("/scans", json={"scannable_code": code, "scanner_id": north["id"]}))
    page = await sign_in(context, base_url, tenant.email)
    await page.goto(f"{base_url}/dashboard/door/{door.venue.event['id']}")
    for _ in range(2):  # as first shown, and after a reload
        newest = page.locator("#door-scans li").first
        await expect(newest).to_contain_text("Refused: order not paid")
        await expect(newest).to_contain_text("North gate")
        await expect(newest.locator("time")).to_have_attribute("title", re.compile(r"UTC$"))
        await expect(newest.locator("time")).to_have_text(re.compile(r"CES?T$"))
        await page.reload()
    await expect(page.locator(".lead time")).to_have_text(re.compile(r"CES?T$"))
    await expect(page.get_by_text("incl. unpaid")).to_be_visible()
    await photograph(page, "door-refused-local-time")

    missing = await page.goto(f"{base_url}/dashboard/no-such-page")
    assert missing is not None and missing.status == 404
    assert missing.headers["content-type"].startswith("text/html")
    await expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    await expect(page.get_by_text("There is no page at this address.")).to_be_visible()
    await page.screenshot(path=ARTIFACTS / "dashboard-not-found.png")
    assert recorder.blocked == [] and recorder.errors == []
