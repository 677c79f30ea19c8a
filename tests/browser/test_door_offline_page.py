"""The offline door example (docs/door-offline) in Debian's Chromium: online, it downloads the
event's keys and revocations; then, with every request to the service blocked and the browser
offline, it verifies signed codes itself (admits a ticket once, refuses a tampered code, a revoked
ticket and another event's code) and reaches nothing; back online, it uploads its scans as one
batch and the server records them."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from playwright.async_api import Page, Request, Route, async_playwright, expect

from app import signed_codes
from tests.browser.test_live_door_page import CHROMIUM, CHROMIUM_ARGS, QuietHandler
from tests.harness import free_port
from tests.processes import served
from tests.support import Door, Tenant, ok, open_door

PAGE = Path(__file__).resolve().parents[2] / "docs" / "door-offline"
SCREENSHOTS = Path("/tmp")


@contextmanager
def page_origin() -> Iterator[str]:
    """docs/door-offline served on a 127.0.0.1 port of its own (a frontend's origin)."""
    handler = functools.partial(QuietHandler, directory=str(PAGE))
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Signer:
    """INTERIM until the scan-keys and revocations routes land: an event's key made here, its
    codes signed here, and the two routes answered by the browser context."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.key = Ed25519PrivateKey.generate()
        self.kid = signed_codes.kid_of(self.key.public_key())
        self.revoked: list[str] = []

    def code(self, ticket: dict[str, Any]) -> str:
        claims = signed_codes.Claims(
            self.kid,
            UUID(ticket["id"]),
            UUID(self.door.venue.event["id"]),
            UUID(ticket["ticket_type_id"]),
            UUID(ticket["event_timeslot_id"]),
        )
        return signed_codes.sign(self.key, claims)

    async def route(self, route: Route) -> None:
        if route.request.url.split("?")[0].endswith("/scan-keys"):
            public = signed_codes.raw_public_key(self.key.public_key())
            body: dict[str, Any] = {
                "keys": [
                    {
                        "kid": signed_codes.b64url(self.kid),
                        "algorithm": "Ed25519",
                        "public_key": signed_codes.b64url(public),
                        "created_at": "2026-01-01T00:00:00Z",
                        "retired_at": None,
                    }
                ]
            }
        else:
            now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
            revocations = [
                {"ticket_id": ticket_id, "reason": "cancelled", "kid": None, "revoked_at": now}
                for ticket_id in self.revoked
            ]
            body = {"data": revocations, "since": None, "next_since": now}
        await route.fulfill(json=body, headers={"Access-Control-Allow-Origin": "*"})


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
    client: httpx.AsyncClient, tenant: Tenant
) -> None:
    door = await open_door(client, tenant, tickets=4, title="Stadium night")
    elsewhere = await open_door(client, tenant, tickets=1, title="Another night")
    first, second, cancelled, later_cancelled = door.tickets
    signer, other_signer = Signer(door), Signer(elsewhere)
    codes = {ticket["id"]: signer.code(ticket) for ticket in door.tickets}
    other_code = other_signer.code(elsewhere.tickets[0])
    ok(await client.post(f"/tickets/{cancelled['id']}/cancel", headers=tenant.headers))
    signer.revoked.append(cancelled["id"])
    event_id = door.venue.event["id"]

    with page_origin() as origin:
        async with (
            served(TICKETING_CORS_ORIGINS=origin) as api,
            httpx.AsyncClient(base_url=api.url, headers=tenant.headers, timeout=30) as http,
            async_playwright() as playwright,
        ):
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                context = await browser.new_context(viewport={"width": 900, "height": 1100})
                network = Network(api.url)
                await context.route(f"{api.url}/**", network.route)
                await context.route(f"{api.url}/events/*/scan-keys", signer.route)
                await context.route(f"{api.url}/events/*/revocations*", signer.route)
                page = await context.new_page()
                page.on("request", network.saw)
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))

                # Online: download the event's keys and revocations.
                await page.goto(origin)
                await page.get_by_label("API").fill(api.url)
                await page.get_by_label("Token").fill(tenant.key)
                await page.get_by_label("Event id").fill(event_id)
                await page.get_by_label("Scanner id").fill(door.scanner["id"])
                await page.get_by_role("button", name="Download keys and revocations").click()
                await expect(page.locator("#prepared")).to_contain_text(
                    "1 active key and 1 revoked ticket"
                )

                # Offline: the service is unreachable, and the browser knows it.
                network.blocked = True
                await context.set_offline(True)
                await expect(page.locator("#network")).to_have_text("offline")
                await scan(page, codes[first["id"]], "Admitted", first["id"][:8])
                await page.screenshot(path=str(SCREENSHOTS / "ticketing-door-offline-admitted.png"))
                await scan(page, codes[first["id"]], "Refused", "Already admitted at this door")
                await scan(page, tampered(codes[second["id"]]), "Refused", "signature")
                await page.screenshot(path=str(SCREENSHOTS / "ticketing-door-offline-refused.png"))
                await scan(page, codes[cancelled["id"]], "Refused", "cancelled")
                await scan(page, other_code, "Refused", "another event")
                await scan(page, "K7Q2-9XTM", "Refused", "not a signed ticket code")
                # Another door, online, admits the second ticket: this door cannot know it.
                assert ok(await http.post(f"/tickets/{second['id']}/scan"))["status"] == "valid"
                await scan(page, codes[second["id"]], "Admitted", second["id"][:8])
                await page.screenshot(
                    path=str(SCREENSHOTS / "ticketing-door-offline-queued.png"), full_page=True
                )
                # The admitted, the repeated and the revoked scans wait; the rest named no ticket.
                await expect(page.locator("#queued")).to_have_text("4")

                # No scan needed the network. An upload tried now fails and keeps the queue.
                assert network.attempts_while_blocked == []
                await page.get_by_role("button", name="Upload scans").click()
                await expect(page.locator("#uploaded")).to_contain_text("4 scans kept, 0 uploaded")
                assert network.attempts_while_blocked == [f"{api.url}/scans/batch"]

                # Meanwhile the office cancels another ticket; nothing has reached the service.
                ok(await http.post(f"/tickets/{later_cancelled['id']}/cancel"))
                signer.revoked.append(later_cancelled["id"])
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
                await expect(page.locator("#prepared")).to_contain_text("2 revoked tickets")
                await page.screenshot(
                    path=str(SCREENSHOTS / "ticketing-door-offline-uploaded.png"), full_page=True
                )
                assert errors == []
            finally:
                await browser.close()

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
