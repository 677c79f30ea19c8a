"""A real ``ticketing serve`` with the dashboard and the development OpenID provider, and a
browser-less client that signs in through it (the browser tests drive Chromium instead)."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from app.services.oauth.dev_idp import ensure_dev_idp
from app.services.oauth.dev_provider import served_issuer
from tests.harness import free_port
from tests.processes import RunningProcess, served

CLIENT_ID = "ticketing-dashboard"
CLIENT_SECRET = "dashboard-test-secret"
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SHOWN_ONCE = re.compile(
    r'<section class="notice notice-ok" role="status"[^>]*>.*?<p class="shown-once">(.*?)</p>'
    r'\s*<code class="secret" id="[^"]+">([^<]+)</code>',
    re.DOTALL,
)


@asynccontextmanager
async def dashboard_server(
    idp_directory: Path, *args: str, **env: str
) -> AsyncIterator[RunningProcess]:
    """The service (``ticketing serve ARGS``) on a free port whose public URL is that port,
    signing in through the dev identity provider it serves itself under ``/dev-idp``."""
    port = free_port()
    public_url = f"http://127.0.0.1:{port}"
    _, jwks = ensure_dev_idp(idp_directory)
    settings = {
        "TICKETING_PUBLIC_URL": public_url,
        "TICKETING_IDP_ISSUER": served_issuer(public_url),
        "TICKETING_IDP_JWKS_FILE": str(jwks),
        "TICKETING_DEV_IDP_DIR": str(idp_directory),
        "TICKETING_DASHBOARD_CLIENT_ID": CLIENT_ID,
        "TICKETING_DASHBOARD_CLIENT_SECRET": CLIENT_SECRET,
        **env,
    }
    async with served(*args, port=port, **settings) as server:
        yield server


def csrf_of(page: str) -> str:
    found = CSRF.search(page)
    assert found, page[:2000]
    return found.group(1)


def shown_once(page: str) -> tuple[str, str]:
    """The notice of a credential shown once on ``page``: what it tells the user, and the value."""
    found = SHOWN_ONCE.search(page)
    assert found, page[:3000]
    return html.unescape(found.group(1)), html.unescape(found.group(2))


async def sign_in(client: httpx.AsyncClient, email: str) -> httpx.Response:
    """Sign ``client`` (cookies kept) in as ``email``, as a browser would, without JavaScript:
    the dashboard, its sign-in page, the provider's page, its form, back. The last page."""
    page = await client.get("/dashboard", follow_redirects=True)
    start = re.search(r'href="(/dashboard/sign-in/start[^"]*)"', page.text)
    assert start, page.text[:2000]
    provider_page = await client.get(html.unescape(start.group(1)), follow_redirects=True)
    assert provider_page.status_code == 200, provider_page.text
    form = {name: html.unescape(value) for name, value in HIDDEN.findall(provider_page.text)}
    return await client.post(
        "/dev-idp/authorize", data={**form, "email": email}, follow_redirects=True
    )
