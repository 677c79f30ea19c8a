"""What the browser tests share: Debian's Chromium and its flags, where screenshots land,
viewports, and signing in to the dashboard through the development identity provider."""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.async_api import BrowserContext, Page, expect

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""Screenshots, for a person to look at (``tests/artifacts/``, git-ignored)."""

LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


async def sign_in(
    context: BrowserContext, base_url: str, email: str, *, screenshots: bool = False
) -> Page:
    """Open the dashboard signed out, follow sign-in through the provider's page as ``email``."""
    page = await context.new_page()
    await page.goto(f"{base_url}/dashboard")
    await expect(page.get_by_role("heading", name="Sign in to the dashboard")).to_be_visible()
    if screenshots:
        await page.screenshot(path=ARTIFACTS / "dashboard-sign-in.png")
    await page.get_by_role("link", name="Continue with the identity provider").click()
    await expect(page.get_by_role("heading", name="Development identity provider")).to_be_visible()
    await expect(page.get_by_label("E-mail address")).to_have_value("demo@example.com")
    if screenshots:
        await page.screenshot(path=ARTIFACTS / "dashboard-dev-idp.png")
    await page.get_by_label("E-mail address").fill(email)
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_text(email)).to_be_visible()
    return page
