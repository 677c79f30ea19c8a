"""The dashboard in a real browser (Debian's Chromium through Playwright), offline: sign in through
the development identity provider, create an API key and use it, revoke it, a member's view, a
cross-site form, sign-out. Screenshots land in ``tests/artifacts/dashboard-*.png``.
"""

from __future__ import annotations

import uuid

import httpx
import pytest
from playwright.async_api import BrowserContext, expect

from app.services.organizations import add_member
from tests.browser.browsing import ARTIFACTS, LAPTOP, PHONE, sign_in
from tests.browser.test_browser_pages import Offline
from tests.support import Tenant

pytestmark = pytest.mark.slow


async def test_an_admin_signs_in_creates_a_key_uses_it_and_revokes_it(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    context, recorder = offline
    page = await sign_in(context, base_url, tenant.email, screenshots=True)
    await expect(page.get_by_role("heading", name="Overview")).to_be_visible()
    await page.screenshot(path=ARTIFACTS / "dashboard-overview.png")

    await (
        page.get_by_role("navigation", name="Sections").get_by_role("link", name="API keys").click()
    )
    await expect(page.get_by_role("heading", name="API keys", exact=True)).to_be_visible()
    await page.get_by_label("Name").fill("Box office till")
    await page.get_by_role("checkbox", name="events.read").check()
    await page.get_by_role("checkbox", name="orders.read").check()
    await page.get_by_role("button", name="Create key").click()
    shown = page.locator("#new-key")
    await expect(shown).to_contain_text("tk_live_")
    key = (await shown.inner_text()).strip()
    await page.screenshot(path=ARTIFACTS / "dashboard-api-key-created.png", full_page=True)

    bearer = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url) as api:
        assert (await api.get("/whoami", headers=bearer)).json()["email"] == tenant.email
        await page.goto(f"{base_url}/dashboard/api-keys")
        await expect(page.locator("#new-key")).to_have_count(0)
        await page.get_by_role("button", name="Revoke key Box office till").click()
        await expect(page.get_by_text("The key was revoked")).to_be_visible()
        assert (await api.get("/whoami", headers=bearer)).status_code == 401
    await page.screenshot(path=ARTIFACTS / "dashboard-api-keys.png", full_page=True)

    await page.set_viewport_size(PHONE)
    await page.screenshot(path=ARTIFACTS / "dashboard-api-keys-phone.png", full_page=True)
    await page.set_viewport_size(LAPTOP)

    await page.get_by_role("button", name="Sign out").click()
    await expect(page.get_by_role("heading", name="Sign in to the dashboard")).to_be_visible()
    response = await page.goto(f"{base_url}/dashboard/api-keys")
    assert response is not None and response.url.startswith(f"{base_url}/dashboard/sign-in")
    assert recorder.blocked == [] and recorder.errors == []


async def test_a_member_sees_no_admin_actions_and_a_cross_site_form_is_refused(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    context, recorder = offline
    email = f"member-{uuid.uuid4().hex[:8]}@example.com"
    await add_member(tenant.org_id, email, "member")
    page = await sign_in(context, base_url, email)
    await page.goto(f"{base_url}/dashboard/api-keys")
    await expect(page.get_by_text("Only an admin of")).to_be_visible()
    await expect(page.get_by_role("button", name="Create key")).to_have_count(0)
    await expect(page.get_by_role("button", name="Revoke", exact=False)).to_have_count(0)
    await page.screenshot(path=ARTIFACTS / "dashboard-member-api-keys.png", full_page=True)

    # The member's own browser forges the admin's form with a valid CSRF token: the service refuses.
    token = await page.locator("input[name=csrf_token]").first.get_attribute("value")
    forged = await page.request.post(
        f"{base_url}/dashboard/api-keys",
        form={"csrf_token": token or "", "scopes": "events.read"},
        headers={"Origin": base_url},
    )
    assert forged.status == 403 and "Only an admin" in await forged.text()

    # Another site's page submitting a form to the dashboard, with the session cookie attached.
    attacker = await context.new_page()
    await attacker.route(
        "http://attacker.localhost/",
        lambda route: route.fulfill(
            content_type="text/html",
            body=f"<form method=post action='{base_url}/dashboard/sign-out'>"
            f"<input name=csrf_token value='{token}'><button>Go</button></form>",
        ),
    )
    await attacker.goto("http://attacker.localhost/")
    async with attacker.expect_response(f"{base_url}/dashboard/sign-out") as answer:
        await attacker.get_by_role("button", name="Go").click()
    assert (await answer.value).status == 403
    await page.reload()
    await expect(page.get_by_text(email)).to_be_visible()
    assert recorder.errors == []
