"""The offline door example (docs/door-offline) in Debian's Chromium: online, it downloads the
event's keys and revocations from the service; then, with every request to the service blocked and
the browser offline, it verifies the tickets' signed codes itself (admits a ticket once, refuses a
code of a retired key, a tampered code, a cancelled ticket and another event's code) and reaches
nothing; back online, it uploads its scans as one batch, the server records them, and the
revocations since the download arrive."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import httpx
import pytest
from playwright.async_api import Browser, Page, Request, Route, expect

from tests.browser.browsing import ARTIFACTS
from tests.browser.conftest import Example
from tests.support import Tenant, ok, open_door, order_tickets

EXAMPLE = "door-offline"


class Network:
    """Every request of the page to the service, and whether the service is cut off."""

    def __init__(self, api: str) -> None:
        self.api = api
        self.blocked = False
        self.attempts_while_blocked: list[str] = []
        self.reached_while_blocked: list[str] = []

    def saw(self, request: Request) -> None:
        if self.blocked and request.url.startswith(self.api):
            self.attempts_while_blocked.append(request.url)

    async def route(self, route: Route) -> None:
        if self.blocked:
            await route.abort("internetdisconnected")
        else:
            await route.continue_()


async def scan(page: Page, code: str, title: str, detail: str) -> None:
    """Type ``code`` into the door as a keyboard-wedge scanner does (characters, then Enter)."""
    await page.get_by_label("Code").fill(code)
    await page.get_by_label("Code").press("Enter")
    await expect(page.locator("#verdict-title")).to_have_text(title)
    await expect(page.locator("#verdict-detail")).to_contain_text(detail)
    await expect(page.get_by_label("Code")).to_be_focused()


async def scan_log(
    client: httpx.AsyncClient, tenant: Tenant, ticket: dict[str, Any]
) -> list[dict[str, Any]]:
    path = f"/tickets/{ticket['id']}/scans"
    page = ok(await client.get(path, headers=tenant.headers))
    return sorted(page["data"], key=lambda row: str(row["scanned_at"]))


def tampered(code: str) -> str:
    """One character of the ticket id's bytes changed."""
    index = 20
    return code[:index] + ("A" if code[index] != "A" else "B") + code[index + 1 :]


@pytest.mark.slow
async def test_the_offline_door_verifies_codes_with_no_network_and_uploads_when_back(
    client: httpx.AsyncClient, tenant: Tenant, browser: Browser, example: Example
) -> None:
    door = await open_door(client, tenant, tickets=4, title="Stadium night")
    elsewhere = await open_door(client, tenant, tickets=1, title="Another night")
    event_id = door.venue.event["id"]
    # The event's first key is retired (after a rotation): its codes are replaced.
    retired_code = door.tickets[0]["signed_code"]
    keys = ok(await client.get(f"/events/{event_id}/scan-keys", headers=tenant.headers))["keys"]
    rotate = f"/events/{event_id}/scan-keys/rotate"
    ok(await client.post(rotate, headers=tenant.headers), 201)
    retire = f"/events/{event_id}/scan-keys/{keys[0]['kid']}/retire"
    ok(await client.post(retire, headers=tenant.headers))
    tickets = await order_tickets(client, tenant, door.order)
    first, second, cancelled, later_cancelled = tickets
    assert first["signed_code"] != retired_code
    ok(await client.post(f"/tickets/{cancelled['id']}/cancel", headers=tenant.headers))

    async with httpx.AsyncClient(base_url=example.api, headers=tenant.headers, timeout=30) as http:
        context = await browser.new_context(viewport={"width": 900, "height": 1100})
        try:
            network = Network(example.api)
            await context.route(f"{example.api}/**", network.route)
            page = await context.new_page()
            page.on("request", network.saw)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # Online: download the event's keys and revocations.
            await page.goto(example.origin)
            await page.get_by_label("API").fill(example.api)
            await page.get_by_label("Token").fill(tenant.key)
            await page.get_by_label("Event id").fill(event_id)
            await page.get_by_label("Scanner id").fill(door.scanner["id"])
            await page.get_by_role("button", name="Download keys and revocations").click()
            await expect(page.locator("#prepared")).to_contain_text(
                "1 active key (1 retired), 1 cancelled ticket, 4 replaced codes;"
            )

            # Offline: the service is unreachable, and the browser knows it.
            network.blocked = True
            await context.set_offline(True)
            await expect(page.locator("#network")).to_have_text("offline")
            await scan(page, retired_code, "Refused", "retired key")
            await scan(page, first["signed_code"], "Admitted", first["id"][:8])
            await page.screenshot(path=ARTIFACTS / "door-offline-admitted.png")
            await scan(page, first["signed_code"], "Refused", "Already admitted at this door")
            await scan(page, tampered(second["signed_code"]), "Refused", "signature")
            await page.screenshot(path=ARTIFACTS / "door-offline-refused.png")
            await scan(page, cancelled["signed_code"], "Refused", "cancelled")
            await scan(page, elsewhere.tickets[0]["signed_code"], "Refused", "another event")
            await scan(page, "K7Q2-9XTM", "Refused", "not a signed ticket code")
            # Another door, online, admits the second ticket: this door cannot know it.
            assert ok(await http.post(f"/tickets/{second['id']}/scan"))["status"] == "valid"
            await scan(page, second["signed_code"], "Admitted", second["id"][:8])
            await page.screenshot(path=ARTIFACTS / "door-offline-queued.png", full_page=True)
            # The admitted, the repeated and the revoked scans wait; the rest named no ticket.
            await expect(page.locator("#queued")).to_have_text("4")

            # No scan needed the network. An upload tried now fails and keeps the queue.
            assert network.attempts_while_blocked == []
            await page.get_by_role("button", name="Upload scans").click()
            await expect(page.locator("#uploaded")).to_contain_text("4 scans kept, 0 uploaded")
            assert network.attempts_while_blocked == [f"{example.api}/scans/batch"]

            # Meanwhile the office cancels another ticket; nothing has reached the service.
            ok(await http.post(f"/tickets/{later_cancelled['id']}/cancel"))
            for ticket in (first, cancelled):
                assert await scan_log(client, tenant, ticket) == []
            assert len(await scan_log(client, tenant, second)) == 1
            assert ok(await http.get(f"/tickets/{first['id']}"))["status"] == "valid"

            # Back online: the page uploads by itself and refreshes the revocations.
            network.blocked = False
            await context.set_offline(False)
            await expect(page.locator("#network")).to_have_text("online")
            await expect(page.locator("#uploaded")).to_have_text(
                "4 scans uploaded; revocations refreshed."
            )
            results = page.locator("#results li")
            await expect(results).to_have_text(
                [
                    f"{first['id'][:8]}… valid",
                    f"{first['id'][:8]}… scanned (already_scanned)",
                    f"{cancelled['id'][:8]}… cancelled (cancelled)",
                    f"{second['id'][:8]}… scanned (already_scanned): admitted here offline,"
                    " refused by the server",
                ]
            )
            await expect(page.locator("#queued")).to_have_text("0")
            await expect(page.locator("#prepared")).to_contain_text(
                "1 active key (1 retired), 2 cancelled tickets, 4 replaced codes;"
            )
            await page.screenshot(path=ARTIFACTS / "door-offline-uploaded.png", full_page=True)
            assert errors == []
        finally:
            await context.close()

        # The server recorded the door's scans, at the moments the door made them.
        admitted = ok(await client.get(f"/tickets/{first['id']}", headers=tenant.headers))
        assert admitted["status"] == "scanned"
        log = await scan_log(client, tenant, first)
        assert [row["status"] for row in log] == ["valid", "scanned"]
        assert admitted["scanned_at"] == log[0]["scanned_at"]
        assert all(row["scanner_id"] == door.scanner["id"] for row in log)
        assert [row["status"] for row in await scan_log(client, tenant, cancelled)] == ["cancelled"]
        attendance = ok(await client.get(f"/events/{event_id}/attendance", headers=tenant.headers))
        assert (attendance["admitted"], attendance["inside"], attendance["entries"]) == (2, 2, 2)


@pytest.mark.slow
async def test_the_offline_door_drops_scans_too_old_for_the_server_and_uploads_the_rest(
    client: httpx.AsyncClient, tenant: Tenant, browser: Browser, example: Example
) -> None:
    """A door that kept a scan longer than the server keeps offline scans (72 hours): the
    batch's 400 names that item (CONTRACT.md section 11); the page shows it as not recorded,
    drops it, and uploads the others, instead of keeping the whole queue forever."""
    door = await open_door(client, tenant, tickets=2, title="Festival")
    old, recent = door.tickets
    days_ago = (datetime.now(UTC) - timedelta(hours=80)).isoformat()
    minute_ago = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    kept = {  # what the page keeps in localStorage, as after four days without a network
        "api": example.api,
        "eventId": door.venue.event["id"],
        "scannerId": door.scanner["id"],
        "keys": [],
        "revoked": [],
        "since": None,
        "downloadedAt": None,
        "admitted": {old["id"]: days_ago, recent["id"]: minute_ago},
        "queue": [
            {"ticket_id": ticket["id"], "nonce": str(uuid4()), "scanned_at": at, "admitted": True}
            for ticket, at in ((old, days_ago), (recent, minute_ago))
        ],
    }
    context = await browser.new_context(viewport={"width": 900, "height": 1100})
    try:
        page = await context.new_page()
        await page.goto(example.origin)
        await page.evaluate(
            "kept => localStorage.setItem('door-offline', JSON.stringify(kept))", kept
        )
        await page.reload()
        await expect(page.locator("#queued")).to_have_text("2")
        await page.get_by_label("Token").fill(tenant.key)
        await page.get_by_role("button", name="Upload scans").click()
        await expect(page.locator("#uploaded")).to_have_text(
            "1 scans uploaded, 1 too old to record; revocations refreshed."
        )
        await expect(page.locator("#results li")).to_have_text(
            [
                f"{old['id'][:8]}… not recorded: scanned too long ago for the server",
                f"{recent['id'][:8]}… valid",
            ]
        )
        await expect(page.locator("#queued")).to_have_text("0")
        await page.screenshot(path=ARTIFACTS / "door-offline-too-old.png", full_page=True)
    finally:
        await context.close()
    assert await scan_log(client, tenant, old) == []
    assert [row["status"] for row in await scan_log(client, tenant, recent)] == ["valid"]
