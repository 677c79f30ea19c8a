"""The dashboard's pages beyond sign-in and API keys (CONTRACT.md section 15), against a real
``ticketing serve`` signing in through its development OpenID provider, followed as a browser
without JavaScript would: overview, event, ticket search, order confirm and cancel, webhooks with a
test delivery to a real receiver, OAuth applications, scanners and profiles, the audit log, the
door view's scan stream; and a member who can read everything and change nothing.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import httpx
import pytest

from app.services.oauth import grants
from app.services.organizations import add_member
from db.tables import OAuthClient
from tests.dashboard.support import csrf_of, dashboard_server, shown_once, sign_in
from tests.dates import YEAR
from tests.sales.onsale import hold_body
from tests.support import Tenant, create_profile, create_scanner, ok, open_door, place_order
from tests.webhooks.support import Receiver

pytestmark = pytest.mark.slow

WITHIN = 10.0
"""Seconds a test waits for something that happens in the background (a delivery)."""


@pytest.fixture(scope="module")
async def base_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with dashboard_server(tmp_path_factory.mktemp("dev-idp")) as server:
        yield server.url


@pytest.fixture
async def browser_for(
    base_url: str,
) -> AsyncIterator[Callable[[str], Awaitable[httpx.AsyncClient]]]:
    """``await browser_for(email)``: a cookie jar signed in as ``email``."""
    clients: list[httpx.AsyncClient] = []

    async def signed_in(email: str) -> httpx.AsyncClient:
        client = httpx.AsyncClient(base_url=base_url, timeout=20.0)
        clients.append(client)
        page = await sign_in(client, email)
        assert page.status_code == 200 and email in page.text, page.text[:2000]
        return client

    yield signed_in
    for client in clients:
        await client.aclose()


@pytest.fixture
async def api(base_url: str, tenant: Tenant) -> AsyncIterator[httpx.AsyncClient]:
    """The REST API of the same server with the tenant's key."""
    async with httpx.AsyncClient(base_url=base_url, headers=tenant.headers, timeout=20) as client:
        yield client


async def post_form(
    client: httpx.AsyncClient, page_path: str, action: str, **fields: object
) -> httpx.Response:
    """Submit a form of the page at ``page_path`` (its CSRF token included) to ``action``."""
    page = await client.get(page_path)
    assert page.status_code == 200, page.text[:2000]
    return await client.post(action, data={"csrf_token": csrf_of(page.text), **fields})


async def test_overview_event_search_and_an_order_confirmed_then_cancelled(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    door = await open_door(api, tenant, tickets=2, title="Paradiso night")
    venue = door.venue
    event_id = venue.event["id"]
    pending = await place_order(
        api,
        tenant,
        event_id,
        venue.timeslot["id"],
        [venue.ticket_type["id"]],
        buyer_name="Grace Hopper",
        buyer_email="grace@example.com",
    )
    ok(await api.post("/scans", json={"scannable_code": door.tickets[0]["scannable_code"]}))
    ok(await api.post("/holds", json=hold_body(venue, 2)), 201)
    browser = await browser_for(tenant.email)

    overview = (await browser.get("/dashboard")).text
    assert "Paradiso night" in overview
    assert re.search(r"3 <small>/ 100</small>", overview)  # sold / capacity
    assert re.search(r"1 <small>/ 3</small>", overview)  # admitted / sold

    event = await browser.get(f"/dashboard/events/{event_id}", params={"q": "grace"})
    assert event.status_code == 200
    assert "1 ticket for “grace”" in event.text and "grace@example.com" in event.text
    figures = re.findall(r'data-label="(Sold|Held|Available)" class="num">(\d+)<', event.text)
    assert figures == [("Sold", "3"), ("Held", "2"), ("Available", "95")]
    order_path = f"/dashboard/events/{event_id}/orders/{pending['id']}"
    assert order_path in event.text

    confirmed = await post_form(browser, order_path, f"{order_path}/confirm")
    assert confirmed.status_code == 303
    page = await browser.get(confirmed.headers["location"])
    assert "The order is confirmed" in page.text
    assert ok(await api.get(f"/orders/{pending['id']}"))["status"] == "confirmed"

    cancelled = await post_form(browser, order_path, f"{order_path}/cancel")
    assert cancelled.status_code == 303
    assert ok(await api.get(f"/orders/{pending['id']}"))["status"] == "cancelled"

    log = (await browser.get("/dashboard/audit-log")).text
    assert log.index("cancelled the order of") < log.index("confirmed the order of")
    assert "Grace Hopper" in log and "in the dashboard" in log and tenant.email in log

    elsewhere = await browser.get(f"/dashboard/events/{uuid.uuid4()}")
    assert elsewhere.status_code == 404


async def test_webhook_created_tested_rotated_and_deleted_in_the_dashboard(
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    browser = await browser_for(tenant.email)
    async with Receiver() as receiver:
        created = await post_form(
            browser,
            "/dashboard/webhooks",
            "/dashboard/webhooks",
            url=receiver.url,
            event_types=["order.created", "ticket.scanned"],
            description="CRM",
        )
        assert created.status_code == 201 and created.headers["cache-control"] == "no-store"
        [secret] = re.findall(r"whsec_[A-Za-z0-9+/=]+", created.text)
        told, shown = shown_once(created.text)
        assert shown == secret and "shown only this once" in told
        assert "hash" not in told  # the service keeps a webhook secret whole, to sign with
        [path] = re.findall(r'href="(/dashboard/webhooks/[0-9a-f-]{36})"', created.text)[:1]
        assert secret not in (await browser.get("/dashboard/webhooks")).text

        tested = await post_form(browser, path, f"{path}/test")
        assert tested.status_code == 303
        async with receiver.arrived:
            await asyncio.wait_for(receiver.arrived.wait_for(lambda: receiver.requests), WITHIN)
        body = json.loads(receiver.requests[0].body)
        assert body["event_type"] == "webhook.test"
        deadline = asyncio.get_running_loop().time() + WITHIN
        while "status-delivered" not in (log := (await browser.get(path)).text):
            assert asyncio.get_running_loop().time() < deadline, log[:3000]
            await asyncio.sleep(0.1)
        assert "webhook.test" in log and "HTTP 200" in log

        [delivery] = re.findall(rf"{path}/deliveries/([0-9a-f-]{{36}})/retry", log)
        retried = await post_form(browser, path, f"{path}/deliveries/{delivery}/retry")
        assert retried.status_code == 303
        async with receiver.arrived:
            await asyncio.wait_for(
                receiver.arrived.wait_for(lambda: len(receiver.requests) >= 2), WITHIN
            )
        assert (
            receiver.requests[1].headers["webhook-id"] == receiver.requests[0].headers["webhook-id"]
        )

    edited = await post_form(
        browser,
        path,
        path,
        url="http://127.0.0.1:9/erp",
        event_types=["order.confirmed"],
        description="ERP",
        active="on",
    )
    assert edited.status_code == 303
    assert "ERP" in (await browser.get(path)).text

    rotated = await post_form(browser, path, f"{path}/rotate-secret")
    assert rotated.status_code == 200
    [new_secret] = re.findall(r"whsec_[A-Za-z0-9+/=]+", rotated.text)
    told, shown = shown_once(rotated.text)
    assert shown == new_secret and "shown only this once" in told and "hash" not in told
    assert new_secret != secret and new_secret not in (await browser.get(path)).text

    refused = await post_form(browser, path, path, url="not a url", event_types=[])
    assert refused.status_code == 400 and "notice-error" in refused.text

    deleted = await post_form(browser, path, f"{path}/delete")
    assert deleted.status_code == 303
    assert (await browser.get(path)).status_code == 404

    log = (await browser.get("/dashboard/audit-log")).text
    for action in (
        "created webhook",
        "sent a test event to webhook",
        "retried a delivery of",
        "edited webhook",
        "rotated the secret of",
        "deleted webhook",
    ):
        assert action in log, action
    assert secret not in log and new_secret not in log


async def test_oauth_application_registered_secret_once_and_an_authorization_revoked(
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    browser = await browser_for(tenant.email)
    path = "/dashboard/oauth-applications"
    created = await post_form(
        browser,
        path,
        path,
        name="Box office",
        redirect_uris="https://box.example/cb",
        scopes=["orders.read", "events.read"],
    )
    assert created.status_code == 201
    [secret] = re.findall(r"cs_[A-Za-z0-9_-]+", created.text)
    told, shown = shown_once(created.text)
    assert shown == secret
    assert told == (
        "Copy the client secret now: it is shown only this once. "
        "The service keeps only a hash of it."
    )
    public = await post_form(
        browser, path, path, name="Door app", redirect_uris="https://door.example/cb", public="on"
    )
    assert public.status_code == 201 and "PKCE" in public.text
    assert "shown only this once" not in public.text
    listed = (await browser.get(path)).text
    assert "Box office" in listed and secret not in listed

    client_pk = (
        await OAuthClient.select(OAuthClient.id)
        .where(OAuthClient.name == "Box office")
        .where(OAuthClient.organization_id == tenant.org_id)
        .first()
    )["id"]
    granted = await grants.create_family(client_pk, tenant.org_id, tenant.user_id, "orders.read")
    page = (await browser.get(path)).text
    assert f"{path}/authorizations/{granted}/revoke" in page
    revoked = await post_form(browser, path, f"{path}/authorizations/{granted}/revoke")
    assert revoked.status_code == 303
    after = (await browser.get(revoked.headers["location"])).text
    assert "status-revoked" in after and f"authorizations/{granted}/revoke" not in after


async def test_an_admin_disables_enables_rotates_and_deletes_an_application(
    base_url: str, browser_for: Callable[[str], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    """Issue 24 item 8: the dashboard could only register an application."""
    browser = await browser_for(tenant.email)
    path = "/dashboard/oauth-applications"
    created = await post_form(
        browser, path, path, name="Leaky app", redirect_uris="https://leaky.example/cb"
    )
    client_id = re.search(r'id="new-client-id">([^<]+)<', created.text).group(1)  # type: ignore[union-attr]
    [secret] = re.findall(r"cs_[A-Za-z0-9_-]+", created.text)
    app_path = f"{path}/{client_id}"

    async def token(with_secret: str) -> httpx.Response:
        async with httpx.AsyncClient(base_url=base_url) as http:
            return await http.post(
                "/oauth2/token",
                data={"grant_type": "client_credentials"},
                auth=httpx.BasicAuth(client_id, with_secret),
            )

    access = ok(await token(secret))["access_token"]
    async with httpx.AsyncClient(
        base_url=base_url, headers={"Authorization": f"Bearer {access}"}
    ) as app:
        disabled = await post_form(browser, path, f"{app_path}/disable")
        assert disabled.status_code == 303
        page = (await browser.get(disabled.headers["location"])).text
        assert "was disabled" in page and f"{app_path}/enable" in page
        assert (await app.get("/whoami")).status_code == 401
        assert (await token(secret)).status_code == 401

        enabled = await post_form(browser, path, f"{app_path}/enable")
        assert "enabled again" in (await browser.get(enabled.headers["location"])).text
        ok(await app.get("/whoami"))

        rotated = await post_form(browser, path, f"{app_path}/rotate-secret")
        assert rotated.status_code == 200
        told, new_secret = shown_once(rotated.text)
        assert new_secret.startswith("cs_") and new_secret != secret
        assert "shown only this once" in told
        assert new_secret not in (await browser.get(path)).text
        assert (await token(secret)).status_code == 401
        ok(await token(new_secret))

        deleted = await post_form(browser, path, f"{app_path}/delete")
        page = (await browser.get(deleted.headers["location"])).text
        assert "was deleted" in page and client_id not in page
        assert (await app.get("/whoami")).status_code == 401
        assert (await token(new_secret)).status_code == 401
    log = (await browser.get("/dashboard/audit-log")).text
    for action in ("disabled", "enabled", "rotated the secret of", "deleted"):
        assert f'{action} OAuth application <strong class="break">Leaky app' in log, action
    assert secret not in log and new_secret not in log


async def test_scanners_and_profiles_created_and_edited(
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    browser = await browser_for(tenant.email)
    path = "/dashboard/scanners"
    made = await post_form(
        browser,
        path,
        f"{path}/profiles",
        name="Early door",
        opens_minutes_before_start="30",
        valid_from=f"{YEAR}-06-01T17:00",
        entry_policy="reentry",
    )
    assert made.status_code == 303
    page = (await browser.get(path)).text
    [profile_id] = re.findall(r"/dashboard/scanners/profiles/([0-9a-f-]{36})", page)[:1]
    assert "opens 30 min before" in page and f"{YEAR}-06-01 17:00 UTC" in page
    edit = (await browser.get(f"{path}/profiles/{profile_id}")).text
    assert '<option value="reentry" selected>' in edit
    assert 'name="opens_minutes_before_start" type="number"' in edit and 'value="30"' in edit
    assert f'value="{YEAR}-06-01T17:00"' in edit

    added = await post_form(
        browser, path, path, name="North door", profile_id=profile_id, active="on"
    )
    assert added.status_code == 303
    page = (await browser.get(path)).text
    [scanner_id] = re.findall(r'href="/dashboard/scanners/([0-9a-f-]{36})"', page)
    saved = await post_form(
        browser, f"{path}/{scanner_id}", f"{path}/{scanner_id}", name="North door 2", profile_id=""
    )
    assert saved.status_code == 303
    page = (await browser.get(path)).text
    assert "North door 2" in page and "status-failed" in page  # unticked: inactive

    bad = await post_form(
        browser, path, f"{path}/profiles", name="Bad", opens_minutes_before_start="soon"
    )
    assert bad.status_code == 400 and "whole number" in bad.text
    assert 'value="soon"' in bad.text  # the form comes back as typed

    log = (await browser.get("/dashboard/audit-log")).text
    for action in ("added scanner profile", "added scanner", "edited scanner"):
        assert action in log


async def test_a_member_reads_every_page_and_cannot_change_anything(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    door = await open_door(api, tenant, tickets=1, confirm=False, title="Members night")
    event_id, order_id = door.venue.event["id"], door.order["id"]
    hook = ok(
        await api.post(
            "/webhooks", json={"url": "http://127.0.0.1:9/h", "event_types": ["order.created"]}
        ),
        201,
    )
    email = f"member-{uuid.uuid4().hex[:8]}@example.com"
    await add_member(tenant.org_id, email, "member")
    member = await browser_for(email)
    before = (await member.get("/dashboard/audit-log")).text.count("<tr>")

    pages = [
        "/dashboard",
        "/dashboard/events",
        f"/dashboard/events/{event_id}",
        f"/dashboard/events/{event_id}/orders/{order_id}",
        "/dashboard/door",
        f"/dashboard/door/{event_id}",
        "/dashboard/webhooks",
        f"/dashboard/webhooks/{hook['id']}",
        "/dashboard/oauth-applications",
        "/dashboard/scanners",
        f"/dashboard/scanners/{door.scanner['id']}",
        "/dashboard/audit-log",
    ]
    for path in pages:
        page = await member.get(path)
        assert page.status_code == 200, path
        assert 'method="post" action="/dashboard/sign-out"' in page.text
        usable = ('action="/dashboard/sign-out"', 'action="/dashboard/mode"')  # the session's own
        forms = page.text.count('method="post"') - sum(page.text.count(u) for u in usable)
        assert forms == 0, f"{path} shows a form a member cannot use"

    token = csrf_of((await member.get("/dashboard")).text)
    forged = [
        f"/dashboard/events/{event_id}/orders/{order_id}/confirm",
        f"/dashboard/events/{event_id}/orders/{order_id}/cancel",
        f"/dashboard/webhooks/{hook['id']}/test",
        f"/dashboard/webhooks/{hook['id']}/rotate-secret",
        f"/dashboard/webhooks/{hook['id']}/delete",
        f"/dashboard/webhooks/{hook['id']}",
        "/dashboard/webhooks",
        "/dashboard/oauth-applications",
        "/dashboard/oauth-applications/some-client/disable",
        "/dashboard/oauth-applications/some-client/enable",
        "/dashboard/oauth-applications/some-client/rotate-secret",
        "/dashboard/oauth-applications/some-client/delete",
        "/dashboard/scanners",
        "/dashboard/scanners/profiles",
        f"/dashboard/scanners/{door.scanner['id']}",
    ]
    fields = {
        "csrf_token": token,
        "url": "http://127.0.0.1:9/x",
        "event_types": "order.created",
        "name": "Forged",
        "redirect_uris": "https://x.example/cb",
    }
    for path in forged:
        answer = await member.post(path, data=fields)
        assert answer.status_code == 403, f"{path}: {answer.status_code}"
    assert ok(await api.get(f"/orders/{order_id}"))["status"] == "pending"
    assert [listed["id"] for listed in ok(await api.get("/webhooks"))["data"]] == [hook["id"]]
    after = (await member.get("/dashboard/audit-log")).text.count("<tr>")
    assert after == before


async def events_of(stream: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """The ``(event, data)`` pairs of a server-sent event stream."""
    kind = data = ""
    async for line in stream.aiter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif not line and kind:
            yield kind, data
            kind = data = ""


@pytest.mark.parametrize("ending", ["sign-out", "revocation"])
async def test_the_door_stream_ends_when_the_session_does(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
    ending: str,
) -> None:
    """Issue 24 item 2: after sign-out, scans with their owners' names still arrived for up to
    ten minutes."""
    from app.services.dashboard_sessions import end_sessions_of_user

    door = await open_door(api, tenant, tickets=1, title="Closing night")
    browser = await browser_for(tenant.email)
    async with browser.stream("GET", f"/dashboard/door/{door.venue.event['id']}/stream") as stream:
        events = events_of(stream)
        assert await asyncio.wait_for(anext(events), WITHIN) == ("ready", "live")
        if ending == "sign-out":
            token = csrf_of((await browser.get("/dashboard")).text)
            signed_out = await browser.post("/dashboard/sign-out", data={"csrf_token": token})
            assert signed_out.status_code == 303
        else:
            assert await end_sessions_of_user(tenant.user_id) == 1

        async def to_the_end() -> list[tuple[str, str]]:
            return [event async for event in events]

        rest = await asyncio.wait_for(to_the_end(), 3 * WITHIN)  # it ends by itself
    assert rest[-1] == ("signed-out", "signed out")


async def test_the_door_stream_sends_each_scan_with_the_new_counts(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    door = await open_door(api, tenant, tickets=2, title="Stream night")
    other = await create_scanner(api, tenant, name="South door")
    browser = await browser_for(tenant.email)
    stream_path = f"/dashboard/door/{door.venue.event['id']}/stream"

    async with browser.stream("GET", stream_path) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.aiter_lines()

        async def next_event() -> tuple[str, str]:
            kind = data = ""
            async for line in lines:
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif not line and kind:
                    return kind, data
            raise AssertionError("the stream ended")

        assert await asyncio.wait_for(next_event(), WITHIN) == ("ready", "live")
        code = door.tickets[0]["scannable_code"]
        ok(await api.post("/scans", json={"scannable_code": code, "scanner_id": other["id"]}))
        kind, data = await asyncio.wait_for(next_event(), WITHIN)
        scan = json.loads(data)
        assert kind == "scan"
        assert (scan["status"], scan["headline"], scan["scanner"]) == (
            "valid",
            "Admitted",
            "South door",
        )
        assert (scan["admitted"], scan["sold"], scan["capacity"], scan["inside"]) == (1, 2, 100, 1)
        assert scan["owner"] == "Ada Buyer" and scan["ticket_type"] == "Regular"

        ok(await api.post("/scans", json={"scannable_code": code}))
        kind, data = await asyncio.wait_for(next_event(), WITHIN)
        assert json.loads(data)["headline"] == "Already scanned"

    page = (await browser.get(f"/dashboard/door/{door.venue.event['id']}")).text
    assert 'id="door-admitted">1<' in page and "Ada Buyer" in page
    assert 'id="door-inside">1<' in page
    assert (await browser.get(f"/dashboard/door/{uuid.uuid4()}/stream")).status_code == 404


async def test_an_unknown_dashboard_address_is_an_html_page(
    base_url: str, browser_for: Callable[[str], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    """Issue 24 item 14: an unknown path under /dashboard answered a browser with JSON."""
    browser = await browser_for(tenant.email)
    async with httpx.AsyncClient(base_url=base_url) as stranger:
        for client in (browser, stranger):
            for path in ("/dashboard/no-such-page", f"/dashboard/events/{uuid.uuid4()}x"):
                answer = await client.get(path)
                assert answer.status_code == 404, path
                assert answer.headers["content-type"].startswith("text/html"), path
                assert "There is no page at this address." in answer.text


async def test_sold_says_that_it_counts_unpaid_orders(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    """Issue 24 item 14: "sold" counted unpaid orders without saying so."""
    door = await open_door(api, tenant, tickets=2, confirm=False, title="Unpaid night")
    browser = await browser_for(tenant.email)
    event_id = door.venue.event["id"]
    for path in (
        "/dashboard",
        f"/dashboard/events/{event_id}",
        "/dashboard/door",
        f"/dashboard/door/{event_id}",
    ):
        page = (await browser.get(path)).text
        assert "incl. unpaid" in page and "not yet paid count too" in page, path


async def test_the_audit_log_shows_names_where_it_has_ids(
    base_url: str,
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    """Issue 24 item 14: the audit log showed raw UUIDs (an OAuth client's id, a profile's
    events and ticket types) where it can show names."""
    from app.services.oauth.clients import create_client

    venue = (await open_door(api, tenant, tickets=1, title="Named night")).venue
    profile = await create_profile(
        api,
        tenant,
        name="VIP door",
        event_ids=[venue.event["id"]],
        ticket_type_ids=[venue.ticket_type["id"]],
    )
    ok(await api.post("/scanners", json={"name": "North", "profile_id": profile["id"]}), 201)
    client = await create_client(tenant.org_id, tenant.email, "Box office", ["https://b.test/cb"])
    async with httpx.AsyncClient(base_url=base_url) as http:
        token = ok(
            await http.post(
                "/oauth2/token",
                data={"grant_type": "client_credentials"},
                auth=httpx.BasicAuth(client.client_id, client.client_secret or ""),
            )
        )["access_token"]
        hook = {"url": "http://127.0.0.1:9/hook", "event_types": ["order.created"]}
        headers = {"Authorization": f"Bearer {token}"}
        ok(await http.post("/webhooks", json=hook, headers=headers), 201)
    browser = await browser_for(tenant.email)
    log = (await browser.get("/dashboard/audit-log")).text
    assert "through an OAuth application Box office" in log
    assert "Named night" in log and venue.ticket_type["name"] in log and "VIP door" in log
    for raw in (client.client_id, venue.event["id"], venue.ticket_type["id"], profile["id"]):
        assert raw not in log, raw


async def test_the_door_view_keeps_refusals_and_scanner_names_on_reload(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    """Issue 24 item 14: a reload of the door view listed admissions only, without scanners."""
    door = await open_door(api, tenant, tickets=1, confirm=False, title="Refusal night")
    north = await create_scanner(api, tenant, name="North gate")
    code = door.tickets[0]["scannable_code"]
    refused = ok(await api.post("/scans", json={"scannable_code": code, "scanner_id": north["id"]}))
    assert refused["status"] == "not_allowed"
    browser = await browser_for(tenant.email)
    page = (await browser.get(f"/dashboard/door/{door.venue.event['id']}")).text
    assert "Refused: order not paid" in page and "North gate" in page and "Ada Buyer" in page
    assert "No scans yet." in page and 'id="door-empty" hidden' in page


async def test_times_are_shown_in_the_organization_s_time_zone_with_utc_on_hover(
    api: httpx.AsyncClient,
    browser_for: Callable[[str], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
) -> None:
    """Issue 24 item 14: every time in the dashboard was UTC."""
    from app.errors import InvalidInput
    from app.services.organizations import set_timezone

    door = await open_door(api, tenant, tickets=1, title="Local night")
    starts = door.venue.event["starts_at"]
    browser = await browser_for(tenant.email)
    event_path = f"/dashboard/events/{door.venue.event['id']}"
    assert "UTC</time>" in (await browser.get(event_path)).text  # the default

    await set_timezone(tenant.org_id, "Europe/Amsterdam")
    with pytest.raises(InvalidInput):
        await set_timezone(tenant.org_id, "Mars/Olympus_Mons")
    page = (await browser.get(event_path)).text
    local = datetime.fromisoformat(starts).astimezone(ZoneInfo("Europe/Amsterdam"))
    shown = f"{local:%Y-%m-%d %H:%M} {local:%Z}"
    utc = f"{datetime.fromisoformat(starts).astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"
    assert f'title="{utc}">{shown}</time>' in page, page
    log = (await browser.get("/dashboard/audit-log")).text
    assert "Europe/Amsterdam" in log
