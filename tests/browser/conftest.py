"""Fixtures of the browser tests: Debian's Chromium through Playwright (one browser per module),
an offline browser context, a dashboard server (with its development identity provider) per
module, and an example page of docs/ with the service it calls (:func:`example`)."""

from __future__ import annotations

import functools
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.async_api import Browser, BrowserContext, async_playwright

from tests.browser.browsing import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, LAPTOP
from tests.browser.test_browser_pages import Offline
from tests.dashboard.support import dashboard_server
from tests.harness import free_port
from tests.processes import served

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
async def base_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with dashboard_server(tmp_path_factory.mktemp("dev-idp")) as server:
        yield server.url


@pytest.fixture(scope="module")
def chromium() -> str:
    """Debian's Chromium; its absence fails the run (scripts/test-tools installs it)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            "Debian's chromium is not installed: run scripts/test-tools as root, or "
            "apt-get install chromium"
        )
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


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def page_origin(directory: Path) -> Iterator[str]:
    """``directory`` served on a 127.0.0.1 port of its own (a frontend's origin)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True, slots=True)
class Example:
    """An example page of docs/ on its own origin, and the service it calls."""

    origin: str
    api: str


@pytest.fixture
async def example(request: pytest.FixtureRequest, chromium: str) -> AsyncIterator[Example]:
    """The test module's ``EXAMPLE`` (a directory of docs/) on an origin of its own, and a
    ``ticketing serve`` of this run's database that allows that origin in CORS, or the origins
    of the test's ``cors_origins`` mark instead."""
    mark = request.node.get_closest_marker("cors_origins")
    with page_origin(DOCS / request.module.EXAMPLE) as origin:
        async with served(TICKETING_CORS_ORIGINS=mark.args[0] if mark else origin) as api:
            yield Example(origin, api.url)
