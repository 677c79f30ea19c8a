"""Fixtures of the dashboard's browser tests: a dashboard server (with its development identity
provider) per module, Debian's Chromium through Playwright, and an offline browser context."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, BrowserContext, async_playwright

from tests.browser.browsing import LAPTOP
from tests.browser.test_browser_pages import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Offline
from tests.dashboard.support import dashboard_server


@pytest.fixture(scope="module")
async def base_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with dashboard_server(tmp_path_factory.mktemp("dev-idp")) as server:
        yield server.url


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed: run scripts/test-tools as root")
    ARTIFACTS.mkdir(exist_ok=True)
    return CHROMIUM


@pytest.fixture(scope="module")
async def browser(chromium: str) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest.fixture
async def offline(browser: Browser) -> AsyncIterator[tuple[BrowserContext, Offline]]:
    context = await browser.new_context(viewport=LAPTOP)
    recorder = Offline()
    await context.route("**/*", recorder.route)
    yield context, recorder
    await context.close()
