"""The browsable pages in a real browser, offline: /schema (Scalar), /schema/swagger and GraphiQL.

Debian's Chromium, driven by Playwright, loads each page from a real ``ticketing serve`` on
127.0.0.1 while every request to anywhere else is aborted and recorded: a page passes only if it
renders its content (text a user reads) and needed nothing from the internet. Screenshots land in
``tests/artifacts/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import quote, urlsplit

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Route,
    expect,
)
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.browsing import ARTIFACTS
from tests.harness import free_port
from tests.processes import serving
from tests.support import Tenant

pytestmark = pytest.mark.slow

RENDER_TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
async def base_url() -> AsyncIterator[str]:
    async with serving() as [url]:
        yield url


class Offline:
    """A browser context that lets through only requests to 127.0.0.1 and records the others."""

    def __init__(self) -> None:
        self.blocked: list[str] = []
        self.errors: list[str] = []

    async def route(self, route: Route) -> None:
        if urlsplit(route.request.url).hostname in {"127.0.0.1", None}:
            await route.continue_()
        else:
            self.blocked.append(route.request.url)
            await route.abort()


@pytest.fixture
async def offline(browser: Browser) -> AsyncIterator[tuple[BrowserContext, Offline]]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    recorder = Offline()
    await context.route("**/*", recorder.route)
    yield context, recorder
    await context.close()


def _console(recorder: Offline, message: ConsoleMessage) -> None:
    if "Content Security Policy" in message.text:
        recorder.errors.append(message.text)


async def open_page(context: BrowserContext, recorder: Offline, url: str) -> Page:
    """``url`` opened in a new page whose script errors and Content-Security-Policy violations
    ``recorder`` collects."""
    page = await context.new_page()
    page.on("pageerror", lambda error: recorder.errors.append(str(error)))
    page.on("console", lambda message: _console(recorder, message))
    response = await page.goto(url)
    assert response is not None and response.status == 200, url
    return page


async def shown(locator: Locator, recorder: Offline) -> None:
    """Wait until ``locator`` is visible; failing, say what the page asked the internet for."""
    try:
        await locator.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        pytest.fail(f"not rendered; requests off 127.0.0.1: {recorder.blocked}; {recorder.errors}")


async def test_the_api_reference_renders_offline(
    base_url: str, offline: tuple[BrowserContext, Offline]
) -> None:
    context, recorder = offline
    page = await open_page(context, recorder, f"{base_url}/schema")
    await shown(page.get_by_role("heading", name="Event Ticketing API"), recorder)
    await shown(page.get_by_text("The current user").first, recorder)
    await page.screenshot(path=ARTIFACTS / "schema-scalar.png")
    assert recorder.blocked == [] and recorder.errors == []


async def test_swagger_ui_renders_offline(
    base_url: str, offline: tuple[BrowserContext, Offline]
) -> None:
    context, recorder = offline
    page = await open_page(context, recorder, f"{base_url}/schema/swagger")
    operation = page.locator(".opblock-summary-description", has_text="Place an order").first
    await shown(operation, recorder)
    await page.screenshot(path=ARTIFACTS / "schema-swagger.png")
    assert recorder.blocked == [] and recorder.errors == []


async def test_graphiql_renders_and_runs_a_query_offline(
    base_url: str, offline: tuple[BrowserContext, Offline], tenant: Tenant
) -> None:
    context, recorder = offline
    headers = quote(json.dumps({"Authorization": f"Bearer {tenant.key}"}))
    page = await open_page(context, recorder, f"{base_url}/graphql?headers={headers}")
    editor = page.locator(".graphiql-query-editor")
    await shown(editor.get_by_text("viewer").first, recorder)
    await page.locator(".graphiql-execute-button").click()
    result = page.locator(".graphiql-response")
    await shown(result.get_by_text(tenant.email), recorder)
    await page.screenshot(path=ARTIFACTS / "graphiql.png")
    assert recorder.blocked == [] and recorder.errors == []


async def test_the_api_reference_offers_no_ai_or_mcp(
    base_url: str, offline: tuple[BrowserContext, Offline]
) -> None:
    """Issue 24 item 3: Scalar's "Ask AI", "Generate MCP" and its toolbar's "Share" and
    "Deploy" reach Scalar's servers."""
    context, recorder = offline
    page = await open_page(context, recorder, f"{base_url}/schema")
    await shown(page.get_by_text("The current user").first, recorder)
    for feature in ("Ask AI", "Generate MCP", "Connect MCP", "Share", "Deploy"):
        assert await page.get_by_text(feature).count() == 0, feature
    assert recorder.blocked == [] and recorder.errors == []


@asynccontextmanager
async def hostile_site(html: str) -> AsyncIterator[str]:
    """A page of another origin (another port of 127.0.0.1) answering every request with
    ``html``; its URL."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = html.encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nconnection: close\r\n"
            + f"content-length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", free_port())
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/prize"
    finally:
        server.close()


@pytest.mark.parametrize(
    "path", ["/graphql?q=mutation%20%7B%20cancelOrder%20%7D", "/schema", "/schema/swagger"]
)
async def test_a_page_of_another_site_cannot_frame_the_pages(
    base_url: str, offline: tuple[BrowserContext, Offline], path: str
) -> None:
    """Issue 24 item 3: GraphiQL with a prefilled mutation, framed by a hostile page."""
    context, _ = offline
    page = await context.new_page()
    target = f"{base_url}{path}"
    html = (
        "<!doctype html><title>Win a prize</title><h1>Win a prize</h1>"
        f"<iframe id='bait' src='{target}' onload='document.title = \"framed\"'></iframe>"
    )
    async with hostile_site(html) as hostile:
        await page.goto(hostile)
        await expect(page).to_have_title("framed")  # the frame's load event: it got an answer
    framed = page.frame_locator("#bait")
    assert await framed.locator("#graphiql, #swagger-container, #api-reference-page").count() == 0
    await page.screenshot(
        path=ARTIFACTS / f"framing-refused-{path.split('?')[0].strip('/').replace('/', '-')}.png"
    )


async def test_graphiql_says_how_to_add_a_credential_and_loads_the_schema_once_it_is_there(
    base_url: str, browser: Browser, tenant: Tenant
) -> None:
    """Issue 24 item 13: GraphiQL's first screen was a 401 and its documentation explorer said
    "Error fetching schema" until a key was set."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    recorder = Offline()
    await context.route("**/*", recorder.route)
    try:
        page = await open_page(context, recorder, f"{base_url}/graphql")
        response = page.locator(".graphiql-response")
        await shown(response.get_by_text("Add your credential in the Headers tab"), recorder)
        await page.get_by_role("button", name="Show Documentation Explorer").click()
        explorer = page.locator(".graphiql-doc-explorer")
        await shown(explorer, recorder)
        await expect(explorer).not_to_contain_text("Error fetching schema")
        assert "401" not in await response.inner_text()
        await page.screenshot(path=ARTIFACTS / "graphiql-no-credential.png")

        await page.locator(".graphiql-editor-tool .graphiql-editor:visible").click()
        await page.keyboard.press("Control+A")
        await page.keyboard.insert_text(json.dumps({"Authorization": f"Bearer {tenant.key}"}))
        await shown(explorer.get_by_text("Root Types"), recorder)
        await page.locator(".graphiql-execute-button").click()
        await shown(response.get_by_text(tenant.email), recorder)
        await page.screenshot(path=ARTIFACTS / "graphiql-credential-added.png")
        assert recorder.blocked == [] and recorder.errors == []
    finally:
        await context.close()
