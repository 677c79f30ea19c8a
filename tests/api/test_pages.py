"""The browser pages load nothing from outside the service (issue 9 item 14), without a browser:
every script and stylesheet they name is a local path the service serves, and the vendored files
are the recorded ones. ``tests/browser/test_browser_pages.py`` renders the pages in Chromium."""

from __future__ import annotations

import hashlib
import re

import pytest
from httpx import AsyncClient

from rest.assets import STATIC_DIRECTORY

PAGES = [("/schema", {}), ("/schema/swagger", {}), ("/graphql", {"Accept": "text/html"})]
VENDOR = STATIC_DIRECTORY / "vendor"


@pytest.mark.parametrize(("path", "headers"), PAGES)
async def test_pages_name_only_files_the_service_serves(
    client: AsyncClient, path: str, headers: dict[str, str]
) -> None:
    page = await client.get(path, headers=headers)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert len(assets) >= 2, page.text
    for asset in assets:
        if asset.startswith("data:"):
            continue
        assert asset.startswith("/static/"), (path, asset)
        served = await client.get(asset)
        assert served.status_code == 200, asset
        assert "max-age=31536000" in served.headers["cache-control"], asset


def test_vendored_files_are_the_recorded_ones() -> None:
    table = (VENDOR / "README.md").read_text()
    recorded = dict(re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", table, re.MULTILINE))
    served = {
        str(path.relative_to(VENDOR)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(VENDOR.glob("*/*"))
        if path.name not in {"LICENSE", "NOTICE"}
    }
    assert served == recorded


HTML_PAGES = [*PAGES, ("/dashboard/sign-in", {})]


@pytest.mark.parametrize(("path", "headers"), HTML_PAGES)
async def test_html_pages_cannot_be_framed_and_run_only_the_services_scripts(
    client: AsyncClient, path: str, headers: dict[str, str]
) -> None:
    """Issue 24 item 3: a hostile page could frame GraphiQL with a prefilled mutation."""
    page = await client.get(path, headers=headers)
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["x-frame-options"] == "DENY"
    directives = dict(
        directive.strip().split(" ", 1)
        for directive in page.headers["content-security-policy"].split(";")
    )
    assert directives["frame-ancestors"] == "'none'"
    assert directives.get("script-src", directives["default-src"]) == "'self'"
    assert directives.get("connect-src", directives["default-src"]) in {"'self'", "'none'"}
    assert "<script>" not in page.text
