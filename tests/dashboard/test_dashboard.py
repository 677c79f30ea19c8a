"""The dashboard's sign-in, sessions, CSRF and roles (CONTRACT.md section 15), against a real
``ticketing serve`` that signs in through the development OpenID provider it serves itself.

A browser-less client follows the pages as a browser without JavaScript would; the browser tests
(tests/browser/test_browser_dashboard.py) do the same in Chromium.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta

import httpx
import pytest

from app.services.api_keys import create_api_key
from app.services.dashboard_sessions import IDLE_TIMEOUT
from app.services.organizations import add_member, create_organization
from app.stored_secrets import hash_secret
from app.timeutil import utcnow
from db.tables import DashboardSession
from tests.dashboard.support import csrf_of, dashboard_server, shown_once, sign_in
from tests.processes import ticketing
from tests.support import Tenant

pytestmark = pytest.mark.slow

KEY = re.compile(r"tk_live_[A-Za-z0-9]{40}")
COOKIE = "dashboard_session"


@pytest.fixture(scope="module")
async def base_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with dashboard_server(tmp_path_factory.mktemp("dev-idp")) as server:
        yield server.url


@pytest.fixture
async def browser_for(
    base_url: str,
) -> AsyncIterator[Callable[[], Awaitable[httpx.AsyncClient]]]:
    """``await browser()``: a fresh cookie jar talking to the server."""
    clients: list[httpx.AsyncClient] = []

    async def make() -> httpx.AsyncClient:
        client = httpx.AsyncClient(base_url=base_url, timeout=20.0)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


async def signed_in(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], email: str
) -> httpx.AsyncClient:
    client = await browser_for()
    page = await sign_in(client, email)
    assert page.status_code == 200 and email in page.text, page.text[:2000]
    return client


async def member_of(tenant: Tenant, role: str) -> str:
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    await add_member(tenant.org_id, email, role)
    return email


async def test_sign_in_sets_a_session_cookie_whose_token_is_stored_only_hashed(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await browser_for()
    page = await sign_in(client, tenant.email)
    assert page.url.path == "/dashboard"
    assert tenant.org_name in page.text and "Sign out" in page.text
    cookie = next(
        header
        for response in page.history
        for header in response.headers.get_list("set-cookie")
        if header.startswith(f"{COOKIE}=") and "Max-Age=0" not in header
    )
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "path", "samesite"} <= attributes and "secure" not in attributes
    assert "samesite=lax" in cookie.lower() and "path=/" in cookie.lower()
    token = client.cookies[COOKIE]
    rows = await DashboardSession.select().where(DashboardSession.user_id == tenant.user_id)
    assert [row["token_hash"] for row in rows] == [hash_secret(token)]
    assert all(token not in str(value) for row in rows for value in row.values())


async def test_an_admin_creates_uses_and_revokes_an_api_key(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, tenant.email)
    page = await client.get("/dashboard/api-keys")
    created = await client.post(
        "/dashboard/api-keys",
        data={"csrf_token": csrf_of(page.text), "name": "box office", "scopes": ["orders.read"]},
    )
    assert created.status_code == 201 and created.headers["cache-control"] == "no-store"
    [key] = KEY.findall(created.text)
    told, shown = shown_once(created.text)
    assert shown == key
    assert told == "Copy it now: it is shown only this once. The service keeps only a hash of it."
    bearer = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url) as api:
        whoami = await api.get("/whoami", headers=bearer)
        assert whoami.json()["email"] == tenant.email
        assert (await api.get("/orders", headers=bearer)).status_code == 200
        assert (await api.get("/events", headers=bearer)).status_code == 403
        listed = await client.get("/dashboard/api-keys")
        assert key not in listed.text and key[:14] in listed.text
        [key_id] = re.findall(r"/dashboard/api-keys/([0-9a-f-]{36})/revoke", listed.text)[:1]
        revoked = await client.post(
            f"/dashboard/api-keys/{key_id}/revoke", data={"csrf_token": csrf_of(listed.text)}
        )
        assert revoked.status_code == 303
        assert (await api.get("/whoami", headers=bearer)).status_code == 401
    after = await client.get(revoked.headers["location"])
    assert "was revoked" in after.text and "revoked" in after.text


async def test_creating_a_key_without_a_scope_shows_the_form_again(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, tenant.email)
    page = await client.get("/dashboard/api-keys")
    answer = await client.post(
        "/dashboard/api-keys", data={"csrf_token": csrf_of(page.text), "name": "nothing"}
    )
    assert answer.status_code == 400
    assert "at least one scope is required" in answer.text and 'value="nothing"' in answer.text
    assert not KEY.search(answer.text)


async def test_a_member_reads_but_forged_changes_are_refused_by_the_services(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, await member_of(tenant, "member"))
    page = await client.get("/dashboard/api-keys")
    assert page.status_code == 200 and "member" in page.text
    assert tenant.key[:14] in page.text
    assert "Create a key" not in page.text and "/revoke" not in page.text
    csrf = csrf_of(page.text)
    forged_create = await client.post(
        "/dashboard/api-keys", data={"csrf_token": csrf, "scopes": ["events.read"]}
    )
    forged_revoke = await client.post(
        f"/dashboard/api-keys/{tenant.key_id}/revoke", data={"csrf_token": csrf}
    )
    for forged in (forged_create, forged_revoke):
        assert forged.status_code == 403, forged.text
        assert "Only an admin" in forged.text and "text/html" in forged.headers["content-type"]
    async with httpx.AsyncClient(base_url=base_url) as api:
        assert (await api.get("/whoami", headers=tenant.headers)).status_code == 200


async def test_another_organizations_key_cannot_be_revoked(
    base_url: str,
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]],
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    client = await signed_in(browser_for, tenant.email)
    page = await client.get("/dashboard/api-keys")
    assert other_tenant.key[:14] not in page.text
    answer = await client.post(
        f"/dashboard/api-keys/{other_tenant.key_id}/revoke", data={"csrf_token": csrf_of(page.text)}
    )
    assert answer.status_code == 404
    async with httpx.AsyncClient(base_url=base_url) as api:
        assert (await api.get("/whoami", headers=other_tenant.headers)).status_code == 200


async def test_posts_without_the_csrf_token_or_from_another_site_are_refused(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, tenant.email)
    csrf = csrf_of((await client.get("/dashboard/api-keys")).text)
    form = {"name": "attack", "scopes": ["events.read"]}
    refused = [
        await client.post("/dashboard/api-keys", data=form),
        await client.post("/dashboard/api-keys", data={**form, "csrf_token": "0" * 64}),
        await client.post(
            "/dashboard/api-keys",
            data={**form, "csrf_token": csrf},
            headers={"Origin": "http://evil.example"},
        ),
        await client.post(
            "/dashboard/api-keys",
            data={**form, "csrf_token": csrf},
            headers={"Sec-Fetch-Site": "cross-site"},
        ),
        await client.post(
            "/dashboard/api-keys",
            data={**form, "csrf_token": csrf},
            headers={"Sec-Fetch-Site": "same-site"},
        ),
    ]
    assert [answer.status_code for answer in refused] == [403] * len(refused)
    assert all(not KEY.search(answer.text) for answer in refused)
    accepted = await client.post(
        "/dashboard/api-keys",
        data={**form, "csrf_token": csrf},
        headers={"Origin": base_url, "Sec-Fetch-Site": "same-origin"},
    )
    assert accepted.status_code == 201 and KEY.search(accepted.text)


async def test_sign_out_ends_the_session_for_the_old_cookie_too(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, tenant.email)
    token = client.cookies[COOKIE]
    csrf = csrf_of((await client.get("/dashboard")).text)
    out = await client.post("/dashboard/sign-out", data={"csrf_token": csrf})
    assert out.status_code == 303 and out.headers["location"].startswith("/dashboard/sign-in")
    assert not await DashboardSession.exists().where(
        DashboardSession.token_hash == hash_secret(token)
    )
    async with httpx.AsyncClient(base_url=base_url, cookies={COOKIE: token}) as replay:
        page = await replay.get("/dashboard/api-keys")
        assert page.status_code == 303 and page.headers["location"].startswith("/dashboard/sign-in")
        forged = await replay.post(
            "/dashboard/api-keys", data={"csrf_token": csrf, "scopes": ["events.read"]}
        )
        assert forged.status_code == 403


async def test_a_session_idle_for_twelve_hours_has_ended(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await signed_in(browser_for, tenant.email)
    token_hash = hash_secret(client.cookies[COOKIE])
    await DashboardSession.update(
        {DashboardSession.last_seen_at: utcnow() - IDLE_TIMEOUT + timedelta(minutes=5)}
    ).where(DashboardSession.token_hash == token_hash)
    assert (await client.get("/dashboard")).status_code == 200, "still within 12 hours"
    await DashboardSession.update(
        {DashboardSession.last_seen_at: utcnow() - IDLE_TIMEOUT - timedelta(minutes=1)}
    ).where(DashboardSession.token_hash == token_hash)
    assert (await client.get("/dashboard")).status_code == 303


async def test_a_member_of_several_organizations_picks_one_and_switches(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    second = await create_organization(f"Second {uuid.uuid4().hex[:6]}")
    await add_member(second.id, tenant.email, "member")
    client = await browser_for()
    picker = await sign_in(client, tenant.email)
    assert picker.url.path == "/dashboard/organizations"
    assert tenant.org_name in picker.text and second.name in picker.text
    assert (await client.get("/dashboard/api-keys")).headers["location"] == (
        "/dashboard/organizations"
    )
    chosen = await client.post(
        "/dashboard/organizations",
        data={"csrf_token": csrf_of(picker.text), "organization_id": str(second.id)},
        follow_redirects=True,
    )
    assert chosen.url.path == "/dashboard" and second.name in chosen.text
    assert '<span class="role">member</span>' in chosen.text
    keys = await client.get("/dashboard/api-keys")
    assert tenant.key[:14] not in keys.text and "Create a key" not in keys.text
    switched = await client.post(
        "/dashboard/organizations",
        data={"csrf_token": csrf_of(keys.text), "organization_id": str(tenant.org_id)},
        follow_redirects=True,
    )
    assert tenant.org_name in switched.text and '<span class="role">admin</span>' in switched.text
    stranger = await create_organization(f"Stranger {uuid.uuid4().hex[:6]}")
    refused = await client.post(
        "/dashboard/organizations",
        data={"csrf_token": csrf_of(switched.text), "organization_id": str(stranger.id)},
    )
    assert refused.status_code == 404


async def test_someone_who_is_not_a_member_is_not_signed_in(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]],
) -> None:
    client = await browser_for()
    page = await sign_in(client, f"stranger-{uuid.uuid4().hex[:6]}@example.com")
    assert page.status_code == 400 and "not a member" in page.text
    assert (await client.get("/dashboard")).status_code == 303


async def test_a_callback_that_does_not_belong_to_the_sign_in_is_refused(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    client = await browser_for()
    start = await client.get("/dashboard/sign-in/start")
    assert start.status_code == 303
    forged = await client.get("/dashboard/callback", params={"code": "x", "state": "forged"})
    assert forged.status_code == 400 and "does not belong" in forged.text
    stranger = await browser_for()
    stolen = await stranger.get("/dashboard/callback", params={"code": "x", "state": "y"})
    assert stolen.status_code == 400 and "expired" in stolen.text


async def test_keys_made_through_the_command_line_show_with_their_last_use(
    base_url: str, browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    made = await create_api_key(tenant.org_id, tenant.email, "events.read", "reporting")
    async with httpx.AsyncClient(base_url=base_url) as api:
        used = await api.get("/whoami", headers={"Authorization": f"Bearer {made.key}"})
        assert used.status_code == 200
    client = await signed_in(browser_for, tenant.email)
    page = await client.get("/dashboard/api-keys")
    row = page.text.split("reporting", 1)[1].split("</tr>", 1)[0]
    assert "events.read" in row and "never" not in row and "active" in row


async def test_signing_out_everywhere_ends_the_sessions_of_every_browser(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    laptop = await signed_in(browser_for, tenant.email)
    phone = await signed_in(browser_for, tenant.email)
    account = await phone.get("/dashboard/organizations")
    assert "Sign out of every browser" in account.text
    out = await phone.post(
        "/dashboard/sign-out/everywhere", data={"csrf_token": csrf_of(account.text)}
    )
    assert out.status_code == 303
    for browser in (laptop, phone):
        assert (await browser.get("/dashboard")).status_code == 303
    assert not await DashboardSession.exists().where(DashboardSession.user_id == tenant.user_id)


async def test_the_command_line_adds_a_member_who_only_reads(
    browser_for: Callable[[], Awaitable[httpx.AsyncClient]], tenant: Tenant
) -> None:
    email = f"desk-{uuid.uuid4().hex[:8]}@example.com"
    made = await ticketing(
        "user", "create", "--org", str(tenant.org_id), "--email", email, "--role", "member"
    )
    assert made.json()["role"] == "member"
    refused = await ticketing(
        "user", "create", "--org", str(tenant.org_id), "--email", email, "--role", "owner"
    )
    assert refused.code != 0
    client = await signed_in(browser_for, email)
    page = await client.get("/dashboard/api-keys")
    assert '<span class="role">member</span>' in page.text and "Create a key" not in page.text
