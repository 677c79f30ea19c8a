"""OAuth 2.0 (CONTRACT.md section 7), driven by authlib's httpx client as a third-party app.

The "browser" is a plain httpx client with its own cookie jar; the "application" is authlib's
``AsyncOAuth2Client``. Both talk to the app in-process. The identity provider is the development
one (a key in a temporary directory), and the clock is injected by patching ``app.timeutil.utcnow``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
import warnings
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.deprecate import AuthlibDeprecationWarning
from litestar import Litestar

from app.services.oauth.clients import create_client
from app.services.oauth.dev_idp import ensure_dev_idp, mint_user_token
from app.settings import get_settings
from tests.support import Tenant, ok, problem

with warnings.catch_warnings():
    # authlib warns that its httpx client will move to the httpx2 package; httpx is what we ship.
    warnings.simplefilter("ignore", AuthlibDeprecationWarning)
    from authlib.integrations.httpx_client import AsyncOAuth2Client

BASE_URL = "http://testserver.local"
TOKEN_URL = f"{BASE_URL}/oauth2/token"
AUTHORIZE_URL = f"{BASE_URL}/oauth2/authorize"
REDIRECT_URI = "https://app.example.com/callback"
ISSUER = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def idp_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The development identity provider, configured as the service's IdP for these tests."""
    directory = tmp_path_factory.mktemp("dev-idp")
    issuer, jwks_path = ensure_dev_idp(directory)
    os.environ["TICKETING_IDP_ISSUER"] = issuer
    os.environ["TICKETING_IDP_JWKS_FILE"] = str(jwks_path)
    get_settings.cache_clear()
    return directory


@pytest.fixture(scope="module")
def app(idp_dir: Path, database: None) -> Litestar:
    from rest.app import create_app

    return create_app()


@pytest.fixture
async def browser(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """A user's browser: its own cookie jar, no redirects followed."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as client:
        yield client


@dataclass
class Registered:
    client_id: str
    client_secret: str | None
    tenant: Tenant


@pytest.fixture
def register(tenant: Tenant) -> Callable[..., Any]:
    """Register a client of ``tenant`` as ``ticketing oauth-client create`` does."""

    async def make(
        *, scopes: str | None = None, public: bool = False, trusted: bool = False
    ) -> Registered:
        created = await create_client(
            tenant.org_id,
            tenant.email,
            "Acme Reporting",
            [REDIRECT_URI, "http://127.0.0.1:9999/cb"],
            scopes,
            public=public,
            trusted=trusted,
        )
        return Registered(created.client_id, created.client_secret, tenant)

    return make


def third_party(app: Litestar, registered: Registered, **kwargs: Any) -> AsyncOAuth2Client:
    """The application, as a developer would write it with authlib."""
    return AsyncOAuth2Client(
        client_id=registered.client_id,
        client_secret=registered.client_secret,
        redirect_uri=REDIRECT_URI,
        transport=httpx.ASGITransport(app=app),
        base_url=BASE_URL,
        **kwargs,
    )


def user_token(idp_dir: Path, email: str, **kwargs: Any) -> str:
    return mint_user_token(email, idp_dir, **kwargs)


def consent_form(page: httpx.Response) -> str:
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    match = re.search(r'name="consent" value="([^"]+)"', page.text)
    assert match, page.text
    return match.group(1)


def redirect_params(response: httpx.Response) -> dict[str, str]:
    assert response.status_code == 302, f"{response.status_code}: {response.text}"
    location = response.headers["location"]
    assert location.startswith(REDIRECT_URI), location
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def authorize_url(
    oauth: AsyncOAuth2Client, tenant: Tenant, idp_dir: Path, **params: Any
) -> tuple[str, str]:
    params.setdefault("organization_id", str(tenant.org_id))
    params.setdefault("token", user_token(idp_dir, tenant.email))
    return oauth.create_authorization_url(AUTHORIZE_URL, **params)


async def walk_code_flow(
    app: Litestar,
    browser: httpx.AsyncClient,
    registered: Registered,
    idp_dir: Path,
    scope: str = "orders.read events.read",
) -> AsyncOAuth2Client:
    """Authorize in the browser (approve), exchange the code with PKCE; the client has a token."""
    oauth = third_party(app, registered, scope=scope, code_challenge_method="S256")
    verifier = secrets.token_urlsafe(48)
    url, state = await authorize_url(oauth, registered.tenant, idp_dir, code_verifier=verifier)
    ticket = consent_form(await browser.get(url))
    approved = await browser.post(
        "/oauth2/authorize", data={"consent": ticket, "decision": "approve"}
    )
    params = redirect_params(approved)
    assert params["state"] == state
    await oauth.fetch_token(
        TOKEN_URL, authorization_response=approved.headers["location"], code_verifier=verifier
    )
    return oauth


async def test_code_flow_with_pkce_then_whoami_orders_and_refresh(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    token = oauth.token
    assert token["token_type"].lower() == "bearer"
    assert token["expires_in"] == 3600
    assert token["scope"] == "events.read orders.read"
    assert token["refresh_token"]
    tenant = registered.tenant
    assert ok(await oauth.get("/whoami")) == {
        "uid": str(tenant.user_id),
        "email": tenant.email,
        "organization": tenant.org_name,
    }
    assert ok(await oauth.get("/orders"))["data"] == []
    problem(await oauth.get("/webhooks"), 403)

    old_access, old_refresh = token["access_token"], token["refresh_token"]
    refreshed = await oauth.refresh_token(TOKEN_URL)
    assert refreshed["access_token"] != old_access
    assert refreshed["refresh_token"] != old_refresh
    assert refreshed["scope"] == "events.read orders.read"
    ok(await oauth.get("/whoami"))
