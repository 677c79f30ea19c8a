"""OAuth 2.0 (CONTRACT.md section 7), driven by authlib's httpx client as a third-party app.

The "browser" is a plain httpx client with its own cookie jar; the "application" is authlib's
``AsyncOAuth2Client``. Both talk to the app in-process. The identity provider is the development
one (a key in a temporary directory), and the clock is injected by patching ``app.timeutil.utcnow``.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import secrets
import subprocess
import threading
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.deprecate import AuthlibDeprecationWarning
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from joserfc import jwt
from joserfc.jwk import KeySet
from litestar import Litestar
from piccolo.engine.base import Engine

from app import timeutil
from app.private_keys import algorithm_of, import_private_pem
from app.services.oauth import signing_keys
from app.services.oauth.clients import create_client
from app.services.oauth.dev_idp import ensure_dev_idp, mint_user_token
from app.services.oauth.tokens import authenticate_access_token
from app.settings import get_settings
from app.stored_secrets import hash_secret
from db.tables import OAuthClient, OAuthRefreshToken
from tests.conftest import AppClient
from tests.harness import free_port
from tests.processes import TICKETING
from tests.statements import count_statements
from tests.support import Tenant, create_event, ok, problem

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
def idp_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The development identity provider, configured as the service's IdP for these tests (and
    only for them: the settings are put back afterwards, so later tests and the commands they
    start do not inherit them)."""
    directory = tmp_path_factory.mktemp("dev-idp")
    issuer, jwks_path = ensure_dev_idp(directory)
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("TICKETING_IDP_ISSUER", issuer)
        environment.setenv("TICKETING_IDP_JWKS_FILE", str(jwks_path))
        get_settings.cache_clear()
        yield directory
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def app(idp_dir: Path, database: Engine) -> Litestar:
    from ticketing.application import create_app

    return create_app(get_settings(), engine=database)


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
        "livemode": True,
    }
    assert ok(await oauth.get("/orders"))["data"] == []
    problem(await oauth.get("/webhooks"), 403)

    old_access, old_refresh = token["access_token"], token["refresh_token"]
    refreshed = await oauth.refresh_token(TOKEN_URL)
    assert refreshed["access_token"] != old_access
    assert refreshed["refresh_token"] != old_refresh
    assert refreshed["scope"] == "events.read orders.read"
    ok(await oauth.get("/whoami"))


def token_error(response: httpx.Response, status: int, error: str) -> dict[str, Any]:
    """An RFC 6749 section 5.2 error: JSON (not problem+json), never cached."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["error"] == error, body
    assert set(body) <= {"error", "error_description"}
    return body


def bearer(access_token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {access_token}"}


async def code_for(browser: httpx.AsyncClient, url: str, *, approve: bool = True) -> dict[str, str]:
    ticket = consent_form(await browser.get(url))
    decision = "approve" if approve else "deny"
    return redirect_params(
        await browser.post("/oauth2/authorize", data={"consent": ticket, "decision": decision})
    )


async def test_code_flow_without_pkce_and_client_secret_post(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(
        app, registered, scope="events.read", token_endpoint_auth_method="client_secret_post"
    )
    url, state = await authorize_url(oauth, registered.tenant, idp_dir)
    params = await code_for(browser, url)
    assert params["state"] == state
    token = await oauth.fetch_token(TOKEN_URL, code=params["code"])
    assert token["scope"] == "events.read"
    ok(await oauth.get("/events"))
    problem(await oauth.get("/orders"), 403)


async def test_token_is_an_rfc9068_jwt_verifiable_with_the_published_jwks(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    jwks_response = await client.get("/oauth2/jwks.json")
    keys = KeySet.import_key_set(ok(jwks_response))
    assert all("d" not in key for key in jwks_response.json()["keys"])
    token = jwt.decode(oauth.token["access_token"], keys, algorithms=["ES256"])
    assert token.header["typ"] == "at+jwt"
    assert token.header["kid"] in {key["kid"] for key in jwks_response.json()["keys"]}
    claims = token.claims
    assert claims["iss"] == ISSUER and claims["aud"] == ISSUER
    assert claims["sub"] == str(registered.tenant.user_id)
    assert claims["client_id"] == registered.client_id
    assert claims["org"] == str(registered.tenant.org_id)
    assert claims["scope"] == "events.read orders.read"
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["jti"]
    jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": ISSUER}, aud={"essential": True, "value": ISSUER}
    ).validate(claims)


async def test_metadata_is_valid_rfc8414(client: httpx.AsyncClient) -> None:
    body = ok(await client.get("/.well-known/oauth-authorization-server"))
    AuthorizationServerMetadata(body).validate()
    assert body["issuer"] == ISSUER
    assert body["token_endpoint"] == f"{ISSUER}/oauth2/token"
    assert body["jwks_uri"] == f"{ISSUER}/oauth2/jwks.json"
    assert body["code_challenge_methods_supported"] == ["S256"]
    assert set(body["grant_types_supported"]) == {
        "authorization_code",
        "client_credentials",
        "refresh_token",
    }


async def test_public_client_must_use_pkce(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register(public=True)
    assert registered.client_secret is None
    without = third_party(app, registered, scope="events.read")
    url, state = await authorize_url(without, registered.tenant, idp_dir)
    params = redirect_params(await browser.get(url))
    assert params["error"] == "invalid_request" and params["state"] == state

    oauth = third_party(
        app,
        registered,
        scope="events.read",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )
    verifier = secrets.token_urlsafe(48)
    url, _ = await authorize_url(oauth, registered.tenant, idp_dir, code_verifier=verifier)
    params = await code_for(browser, url)
    token = await oauth.fetch_token(TOKEN_URL, code=params["code"], code_verifier=verifier)
    ok(await oauth.get("/events"))
    assert token["refresh_token"]


async def test_wrong_pkce_verifier_is_invalid_grant(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read", code_challenge_method="S256")
    url, _ = await authorize_url(
        oauth, registered.tenant, idp_dir, code_verifier=secrets.token_urlsafe(48)
    )
    params = await code_for(browser, url)
    response = await client.post(
        "/oauth2/token",
        data={
            "grant_type": "authorization_code",
            "code": params["code"],
            "redirect_uri": REDIRECT_URI,
            "code_verifier": secrets.token_urlsafe(48),
        },
        auth=(registered.client_id, registered.client_secret),
    )
    token_error(response, 400, "invalid_grant")


async def test_plain_pkce_is_refused(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(
        oauth, registered.tenant, idp_dir, code_challenge="x" * 43, code_challenge_method="plain"
    )
    assert redirect_params(await browser.get(url))["error"] == "invalid_request"


async def test_client_credentials_scopes_and_whoami(
    app: Litestar, register: Callable[..., Any]
) -> None:
    registered = await register(scopes="events.read orders.read")
    everything = third_party(app, registered)
    token = await everything.fetch_token(TOKEN_URL, grant_type="client_credentials")
    assert token["scope"] == "events.read orders.read"
    assert "refresh_token" not in token
    tenant = registered.tenant
    assert ok(await everything.get("/whoami"))["email"] == tenant.email

    narrow = third_party(app, registered, scope="orders.read")
    token = await narrow.fetch_token(TOKEN_URL, grant_type="client_credentials")
    assert token["scope"] == "orders.read"
    ok(await narrow.get("/orders"))
    problem(await narrow.get("/events"), 403)

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL) as http:
        response = await http.post(
            "/oauth2/token",
            data={"grant_type": "client_credentials", "scope": "orders.read webhooks.write"},
            auth=(registered.client_id, registered.client_secret),
        )
        token_error(response, 400, "invalid_scope")
        response = await http.post(
            "/oauth2/token",
            data={"grant_type": "client_credentials", "scope": "no.such.scope"},
            auth=(registered.client_id, registered.client_secret),
        )
        token_error(response, 400, "invalid_scope")


async def test_public_client_cannot_use_client_credentials(
    client: httpx.AsyncClient, register: Callable[..., Any]
) -> None:
    registered = await register(public=True)
    response = await client.post(
        "/oauth2/token",
        data={"grant_type": "client_credentials", "client_id": registered.client_id},
    )
    token_error(response, 401, "invalid_client")


async def test_token_endpoint_errors(
    client: httpx.AsyncClient, register: Callable[..., Any]
) -> None:
    registered = await register()
    auth = (registered.client_id, registered.client_secret)
    token_error(
        await client.post("/oauth2/token", data={"grant_type": "password"}, auth=auth),
        400,
        "unsupported_grant_type",
    )
    token_error(await client.post("/oauth2/token", data={}, auth=auth), 400, "invalid_request")
    token_error(
        await client.post("/oauth2/token", data={"grant_type": "authorization_code"}, auth=auth),
        400,
        "invalid_request",
    )
    token_error(
        await client.post(
            "/oauth2/token",
            data={"grant_type": "authorization_code", "code": "nope", "redirect_uri": REDIRECT_URI},
            auth=auth,
        ),
        400,
        "invalid_grant",
    )
    wrong_secret = await client.post(
        "/oauth2/token",
        data={"grant_type": "client_credentials"},
        auth=(registered.client_id, "cs_wrong"),
    )
    token_error(wrong_secret, 401, "invalid_client")
    assert wrong_secret.headers["www-authenticate"].startswith("Basic")
    token_error(
        await client.post(
            "/oauth2/token",
            data={
                "grant_type": "client_credentials",
                "client_id": "unknown",
                "client_secret": "x",
            },
        ),
        400,
        "invalid_client",
    )
    token_error(
        await client.post(
            "/oauth2/token",
            data={"grant_type": "refresh_token", "refresh_token": "rt_unknown"},
            auth=auth,
        ),
        400,
        "invalid_grant",
    )
    token_error(
        await client.post(
            "/oauth2/token",
            content=b"grant_type=client_credentials&grant_type=password",
            auth=auth,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        ),
        400,
        "invalid_request",
    )
    token_error(
        await client.post("/oauth2/token", json={"grant_type": "client_credentials"}, auth=auth),
        400,
        "invalid_request",
    )


async def test_code_replay_revokes_what_the_code_issued(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(oauth, registered.tenant, idp_dir)
    code = (await code_for(browser, url))["code"]
    token = await oauth.fetch_token(TOKEN_URL, code=code)
    ok(await client.get("/whoami", headers=bearer(token["access_token"])))

    exchange = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}
    auth = (registered.client_id, registered.client_secret)
    token_error(await client.post("/oauth2/token", data=exchange, auth=auth), 400, "invalid_grant")

    revoked = await client.get("/whoami", headers=bearer(token["access_token"]))
    problem(revoked, 401)
    assert 'error="invalid_token"' in revoked.headers["www-authenticate"]
    refresh = {"grant_type": "refresh_token", "refresh_token": token["refresh_token"]}
    token_error(await client.post("/oauth2/token", data=refresh, auth=auth), 400, "invalid_grant")


async def test_code_is_bound_to_client_and_redirect_uri(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    other = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(oauth, registered.tenant, idp_dir)
    code = (await code_for(browser, url))["code"]
    exchange = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}
    token_error(
        await client.post(
            "/oauth2/token", data=exchange, auth=(other.client_id, other.client_secret)
        ),
        400,
        "invalid_grant",
    )
    mismatch = {**exchange, "redirect_uri": "http://127.0.0.1:9999/cb"}
    token_error(
        await client.post(
            "/oauth2/token", data=mismatch, auth=(registered.client_id, registered.client_secret)
        ),
        400,
        "invalid_grant",
    )


async def test_expired_code_is_invalid_grant(
    app: Litestar,
    browser: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(oauth, registered.tenant, idp_dir)
    code = (await code_for(browser, url))["code"]
    later = timeutil.utcnow() + timedelta(minutes=10, seconds=1)
    monkeypatch.setattr(timeutil, "utcnow", lambda: later)
    response = await oauth.post(
        TOKEN_URL,
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI},
        auth=(registered.client_id, registered.client_secret),
    )
    token_error(response, 400, "invalid_grant")


async def test_refresh_rotation_and_replay_revokes_the_family(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    first = dict(oauth.token)
    second = await oauth.refresh_token(TOKEN_URL)
    ok(await client.get("/whoami", headers=bearer(second["access_token"])))

    auth = (registered.client_id, registered.client_secret)
    replay = {"grant_type": "refresh_token", "refresh_token": first["refresh_token"]}
    token_error(await client.post("/oauth2/token", data=replay, auth=auth), 400, "invalid_grant")
    problem(await client.get("/whoami", headers=bearer(second["access_token"])), 401)
    latest = {"grant_type": "refresh_token", "refresh_token": second["refresh_token"]}
    token_error(await client.post("/oauth2/token", data=latest, auth=auth), 400, "invalid_grant")
    rows = await OAuthRefreshToken.select(OAuthRefreshToken.token_hash)
    assert all(first["refresh_token"] not in str(row) for row in rows)


async def test_refresh_can_narrow_but_not_widen_the_scope(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    auth = (registered.client_id, registered.client_secret)
    wider = {
        "grant_type": "refresh_token",
        "refresh_token": oauth.token["refresh_token"],
        "scope": "orders.read webhooks.write",
    }
    token_error(await client.post("/oauth2/token", data=wider, auth=auth), 400, "invalid_scope")
    narrow = await oauth.refresh_token(TOKEN_URL, scope="orders.read")
    assert narrow["scope"] == "orders.read"
    ok(await client.get("/orders", headers=bearer(narrow["access_token"])))
    problem(await client.get("/events", headers=bearer(narrow["access_token"])), 403)
    again = await oauth.refresh_token(TOKEN_URL)
    assert again["scope"] == "events.read orders.read"


async def test_refresh_token_expires_after_30_days(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    later = timeutil.utcnow() + timedelta(days=30, seconds=1)
    monkeypatch.setattr(timeutil, "utcnow", lambda: later)
    refresh = {"grant_type": "refresh_token", "refresh_token": oauth.token["refresh_token"]}
    auth = (registered.client_id, registered.client_secret)
    token_error(await client.post("/oauth2/token", data=refresh, auth=auth), 400, "invalid_grant")


async def test_authorize_errors_before_redirect_uri_is_known_are_shown(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    for params in (
        {"redirect_uri": "https://evil.example.com/callback"},
        {"redirect_uri": REDIRECT_URI + "/"},
    ):
        url, _ = await authorize_url(oauth, registered.tenant, idp_dir, **params)
        page = await browser.get(url)
        assert page.status_code in {400, 401}, page.text
        assert "location" not in page.headers
        assert page.headers["content-type"].startswith("text/html")
    for params in (
        {"client_id": registered.client_id},
        {"client_id": "no-such-client", "redirect_uri": REDIRECT_URI},
        {"redirect_uri": REDIRECT_URI},
    ):
        page = await browser.get("/oauth2/authorize", params={"response_type": "code", **params})
        assert page.status_code in {400, 401}, page.text
        assert "location" not in page.headers


async def test_authorize_errors_after_redirect_uri_redirect_with_state(
    app: Litestar,
    browser: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
    make_tenant: Callable[..., Any],
) -> None:
    registered = await register(scopes="events.read orders.read")
    tenant = registered.tenant
    oauth = third_party(app, registered, scope="events.read")
    stranger = await make_tenant(name="Stranger Org")
    expired = user_token(idp_dir, tenant.email, issued_at=timeutil.utcnow() - timedelta(hours=2))
    _, foreign_key_dir = idp_dir, idp_dir.parent / "foreign-idp"
    forged = mint_user_token(tenant.email, foreign_key_dir)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"scope": "webhooks.write"}, "invalid_scope"),
        ({"scope": "no.such.scope"}, "invalid_scope"),
        ({"organization_id": ""}, "invalid_request"),
        ({"organization_id": "not-a-uuid"}, "invalid_request"),
        ({"token": ""}, "invalid_request"),
        ({"token": expired}, "access_denied"),
        ({"token": forged}, "access_denied"),
        ({"token": "not.a.jwt"}, "access_denied"),
        ({"token": user_token(idp_dir, stranger.email)}, "access_denied"),
        ({"organization_id": str(stranger.org_id)}, "access_denied"),
        ({"token": user_token(idp_dir, "nobody@example.com")}, "access_denied"),
    ]
    for params, error in cases:
        url, state = await authorize_url(oauth, tenant, idp_dir, **params)
        result = redirect_params(await browser.get(url))
        assert result["error"] == error, (params, result)
        assert result["state"] == state
        assert "code" not in result


async def test_first_sign_in_links_the_user_to_the_idp_subject(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    from db.tables import User

    registered = await register()
    tenant = registered.tenant
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(
        oauth, tenant, idp_dir, token=user_token(idp_dir, tenant.email, subject="sub-1")
    )
    consent_form(await browser.get(url))
    row = await User.select(User.idp_issuer, User.idp_subject).where(User.id == tenant.user_id)
    assert row[0]["idp_subject"] == "sub-1"
    impostor = user_token(idp_dir, tenant.email, subject="sub-2")
    url, _ = await authorize_url(oauth, tenant, idp_dir, token=impostor)
    assert redirect_params(await browser.get(url))["error"] == "access_denied"


async def test_consent_page_deny_and_forgery(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="orders.read")
    url, state = await authorize_url(oauth, registered.tenant, idp_dir)
    page = await browser.get(url)
    assert "Acme Reporting" in page.text and "Read orders" in page.text
    assert page.headers["x-frame-options"] == "DENY"
    assert "samesite=strict" in page.headers["set-cookie"].lower()
    denied = await code_for(browser, url, approve=False)
    assert denied == {"error": "access_denied", "state": state, **denied}
    assert "code" not in denied

    ticket = consent_form(await browser.get(url))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=BASE_URL
    ) as attacker:
        cross_site = await attacker.post(
            "/oauth2/authorize", data={"consent": ticket, "decision": "approve"}
        )
        assert cross_site.status_code == 400 and "location" not in cross_site.headers
    tampered = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    forged = await browser.post(
        "/oauth2/authorize", data={"consent": tampered, "decision": "approve"}
    )
    assert forged.status_code == 400 and "location" not in forged.headers


async def test_trusted_client_skips_consent(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register(trusted=True)
    oauth = third_party(app, registered, scope="events.read")
    url, state = await authorize_url(oauth, registered.tenant, idp_dir)
    params = redirect_params(await browser.get(url))
    assert params["state"] == state
    token = await oauth.fetch_token(TOKEN_URL, code=params["code"])
    assert token["scope"] == "events.read"


async def test_expired_and_tampered_access_tokens_are_401(
    app: Litestar,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registered = await register()
    token = await third_party(app, registered).fetch_token(
        TOKEN_URL, grant_type="client_credentials"
    )
    access = token["access_token"]
    header, payload, signature = access.split(".")
    flipped = signature[:10] + ("A" if signature[10] != "A" else "B") + signature[11:]
    for bad in (f"{header}.{payload}.{flipped}", f"{header}.{payload[:-2]}xx.{signature}"):
        response = await client.get("/whoami", headers=bearer(bad))
        problem(response, 401)
        assert 'error="invalid_token"' in response.headers["www-authenticate"]
    foreign = import_private_pem(signing_keys.generate_private_pem())
    claims = jwt.decode(access, KeySet.import_key_set(ok(await client.get("/oauth2/jwks.json"))))
    resigned = jwt.encode(
        {"alg": "ES256", "typ": "at+jwt", "kid": foreign.kid}, claims.claims, foreign
    )
    problem(await client.get("/whoami", headers=bearer(resigned)), 401)

    ok(await client.get("/whoami", headers=bearer(access)))
    later = timeutil.utcnow() + timedelta(hours=1, seconds=1)
    monkeypatch.setattr(timeutil, "utcnow", lambda: later)
    expired = await client.get("/whoami", headers=bearer(access))
    assert "expired" in problem(expired, 401)["detail"]


async def test_oauth_tokens_see_only_their_organization(
    app: Litestar,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    other_tenant: Tenant,
) -> None:
    registered = await register()
    foreign_event = await create_event(client, other_tenant)
    oauth = third_party(app, registered, scope="events.read")
    await oauth.fetch_token(TOKEN_URL, grant_type="client_credentials")
    problem(await oauth.get(f"/events/{foreign_event['id']}"), 404)
    assert ok(await oauth.get("/events"))["data"] == []


async def test_revocation_stops_the_family(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    auth = (registered.client_id, registered.client_secret)
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    token = dict(oauth.token)
    unknown = await client.post("/oauth2/revoke", data={"token": "whatever"}, auth=auth)
    assert unknown.status_code == 200
    ok(await client.get("/whoami", headers=bearer(token["access_token"])))
    revoked = await oauth.revoke_token(
        f"{BASE_URL}/oauth2/revoke", token["refresh_token"], token_type_hint="refresh_token"
    )
    assert revoked.status_code == 200
    problem(await client.get("/whoami", headers=bearer(token["access_token"])), 401)

    other = await walk_code_flow(app, browser, registered, idp_dir)
    response = await client.post(
        "/oauth2/revoke", data={"token": other.token["access_token"]}, auth=auth
    )
    assert response.status_code == 200
    problem(await client.get("/whoami", headers=bearer(other.token["access_token"])), 401)
    refresh = {"grant_type": "refresh_token", "refresh_token": other.token["refresh_token"]}
    token_error(await client.post("/oauth2/token", data=refresh, auth=auth), 400, "invalid_grant")


async def test_key_rotation_keeps_live_tokens_valid(
    app: Litestar, client: httpx.AsyncClient, register: Callable[..., Any]
) -> None:
    registered = await register()
    oauth = third_party(app, registered)
    before = (await oauth.fetch_token(TOKEN_URL, grant_type="client_credentials"))["access_token"]
    new_kid = await signing_keys.rotate(get_settings())
    after = (await oauth.fetch_token(TOKEN_URL, grant_type="client_credentials"))["access_token"]
    assert jwt.decode(after, KeySet.import_key_set(ok(await client.get("/oauth2/jwks.json"))))
    published = {key["kid"] for key in ok(await client.get("/oauth2/jwks.json"))["keys"]}
    assert new_kid in published and len(published) >= 2
    ok(await client.get("/whoami", headers=bearer(before)))
    ok(await client.get("/whoami", headers=bearer(after)))


async def test_access_token_check_is_one_indexed_query(
    app: Litestar, register: Callable[..., Any]
) -> None:
    registered = await register()
    token = await third_party(app, registered).fetch_token(
        TOKEN_URL, grant_type="client_credentials"
    )
    await authenticate_access_token(token["access_token"], get_settings())
    with count_statements() as counter:
        principal = await authenticate_access_token(token["access_token"], get_settings())
    queries = [sql for sql in counter.statements if "pg_advisory_unlock_all" not in sql]
    assert len(queries) == 1 and '"oauth_grants"."id" =' in queries[0], counter.statements
    assert principal.credential == "oauth" and principal.client_id == registered.client_id


async def test_client_secret_is_stored_hashed(register: Callable[..., Any]) -> None:
    registered = await register()
    row = await OAuthClient.select().where(OAuthClient.client_id == registered.client_id).first()
    assert registered.client_secret not in str(row)


def run_cli(*args: str) -> str:
    result = subprocess.run(
        [TICKETING, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


async def test_new_developer_walkthrough_with_the_cli(
    app: Litestar, browser: httpx.AsyncClient, tenant: Tenant, idp_dir: Path
) -> None:
    """The documented trial: register with the CLI, mint a user JWT, authorize, exchange."""
    created = json.loads(
        run_cli(
            "oauth-client",
            "create",
            "--org",
            str(tenant.org_id),
            "--user-email",
            tenant.email,
            "--name",
            "My Dashboard",
            "--redirect-uri",
            REDIRECT_URI,
            "--scopes",
            "orders.read events.read",
        )
    )
    assert set(created) == {"client_id", "client_secret"}
    user_jwt = run_cli("dev-idp", "token", "--email", tenant.email, "--dir", str(idp_dir)).strip()
    registered = Registered(created["client_id"], created["client_secret"], tenant)
    oauth = third_party(app, registered, scope="orders.read", code_challenge_method="S256")
    verifier = secrets.token_urlsafe(48)
    url, _ = await authorize_url(oauth, tenant, idp_dir, token=user_jwt, code_verifier=verifier)
    params = await code_for(browser, url)
    await oauth.fetch_token(TOKEN_URL, code=params["code"], code_verifier=verifier)
    assert ok(await oauth.get("/whoami"))["email"] == tenant.email
    ok(await oauth.get("/orders"))
    await oauth.refresh_token(TOKEN_URL)
    ok(await oauth.get("/orders"))


async def test_concurrent_exchanges_of_one_code_issue_nothing_usable(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, _ = await authorize_url(oauth, registered.tenant, idp_dir)
    code = (await code_for(browser, url))["code"]
    exchange = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}
    auth = (registered.client_id, registered.client_secret)
    responses = await asyncio.gather(
        *(client.post("/oauth2/token", data=exchange, auth=auth) for _ in range(4))
    )
    assert sorted(response.status_code for response in responses) == [200, 400, 400, 400]
    winner = next(response.json() for response in responses if response.status_code == 200)
    problem(await client.get("/whoami", headers=bearer(winner["access_token"])), 401)


async def test_consent_pages_in_two_tabs_both_work(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    first_url, first_state = await authorize_url(oauth, registered.tenant, idp_dir)
    second_url, second_state = await authorize_url(oauth, registered.tenant, idp_dir)
    first = consent_form(await browser.get(first_url))
    second = consent_form(await browser.get(second_url))
    for ticket, state in ((first, first_state), (second, second_state)):
        response = await browser.post(
            "/oauth2/authorize", data={"consent": ticket, "decision": "approve"}
        )
        assert redirect_params(response)["state"] == state


async def test_concurrent_refreshes_with_one_token_revoke_the_family(
    app: Litestar,
    browser: httpx.AsyncClient,
    client: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    refresh = {"grant_type": "refresh_token", "refresh_token": oauth.token["refresh_token"]}
    auth = (registered.client_id, registered.client_secret)
    responses = await asyncio.gather(
        *(client.post("/oauth2/token", data=refresh, auth=auth) for _ in range(3))
    )
    assert sorted(response.status_code for response in responses) == [200, 400, 400]
    winner = next(response.json() for response in responses if response.status_code == 200)
    problem(await client.get("/whoami", headers=bearer(winner["access_token"])), 401)


@pytest.fixture
def idp_by_url(idp_dir: Path, database: Engine) -> Iterator[Litestar]:
    """The app with the same IdP, its JWKS served over HTTP on 127.0.0.1, and an audience."""
    from ticketing.application import create_app

    jwks = (idp_dir / "dev-idp-jwks.json").read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(jwks)

        def log_message(self, *args: Any) -> None:
            """Quiet."""

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    settings = replace(
        get_settings(),
        idp_jwks_file=None,
        idp_jwks_url=f"http://127.0.0.1:{httpd.server_port}/jwks",
        idp_audience="ticketing-api",
    )
    try:
        yield create_app(settings, engine=database)
    finally:
        httpd.shutdown()
        httpd.server_close()


async def test_idp_keys_from_a_url_and_the_audience_check(
    register: Callable[..., Any], idp_dir: Path, idp_by_url: Litestar
) -> None:
    registered = await register()
    tenant = registered.tenant
    oauth = third_party(idp_by_url, registered, scope="events.read")
    transport = httpx.ASGITransport(app=idp_by_url)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as browser:
        with_audience = user_token(idp_dir, tenant.email, audience="ticketing-api")
        url, _ = await authorize_url(oauth, tenant, idp_dir, token=with_audience)
        consent_form(await browser.get(url))
        for token in (
            user_token(idp_dir, tenant.email),
            user_token(idp_dir, tenant.email, audience="another-api"),
        ):
            url, _ = await authorize_url(oauth, tenant, idp_dir, token=token)
            assert redirect_params(await browser.get(url))["error"] == "access_denied"


async def test_malformed_parameters_are_refused_not_crashing(
    browser: httpx.AsyncClient, client: httpx.AsyncClient, register: Callable[..., Any]
) -> None:
    registered = await register()
    base = {"response_type": "code", "client_id": registered.client_id}
    for params in (
        {"response_type": 'co"de', "redirect_uri": REDIRECT_URI},
        {"redirect_uri": 'https://x"y'},
    ):
        page = await browser.get("/oauth2/authorize", params={**base, **params})
        assert page.status_code == 400 and "location" not in page.headers
        assert page.headers["content-type"].startswith("text/html")
    response = await client.post(
        "/oauth2/token",
        content=b"grant_type=client_credentials&a%22=1&a%22=2",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    token_error(response, 400, "invalid_request")
    for authorization in ("Basic ", "Basic ###", "Basic " + base64.b64encode(b"\xff:x").decode()):
        response = await client.post(
            "/oauth2/token",
            data={"grant_type": "client_credentials"},
            headers={"Authorization": authorization},
        )
        token_error(response, 401, "invalid_client")


def idp_token_with(idp_dir: Path, email: str, **claims: Any) -> str:
    """A token of the dev identity provider with ``claims`` changed (None: left out)."""
    from app.services.oauth.dev_idp import DEV_ISSUER, KEY_FILE

    key = import_private_pem((idp_dir / KEY_FILE).read_bytes())
    now = int(timeutil.utcnow().timestamp())
    base: dict[str, Any] = {
        "iss": DEV_ISSUER,
        "sub": f"sub-{secrets.token_hex(4)}",
        "email": email,
        "email_verified": True,
        "iat": now,
        "exp": now + 600,
    }
    payload = {name: value for name, value in {**base, **claims}.items() if value is not None}
    header = {"alg": algorithm_of(key), "kid": key.kid, "typ": "JWT"}
    return jwt.encode(header, payload, key)


async def test_sign_in_needs_email_verified_exactly_true(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    """A missing claim or a string "false" must not link the member to a stranger's ``sub``."""
    from db.tables import User

    registered = await register()
    tenant = registered.tenant
    oauth = third_party(app, registered, scope="events.read")
    for verified in ("false", "true", None, 1, False):
        token = idp_token_with(idp_dir, tenant.email, email_verified=verified)
        url, _ = await authorize_url(oauth, tenant, idp_dir, token=token)
        assert redirect_params(await browser.get(url))["error"] == "access_denied", verified
    row = await User.select(User.idp_subject).where(User.id == tenant.user_id).first()
    assert row == {"idp_subject": None}
    url, _ = await authorize_url(
        oauth, tenant, idp_dir, token=idp_token_with(idp_dir, tenant.email)
    )
    consent_form(await browser.get(url))


def test_start_up_warns_once_when_the_idp_audience_is_unset(
    idp_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from ticketing.application import create_app

    settings = get_settings()
    caplog.set_level("WARNING")
    create_app(replace(settings, idp_audience=None))
    warnings_ = [r for r in caplog.records if "TICKETING_IDP_AUDIENCE" in r.getMessage()]
    assert len(warnings_) == 1 and warnings_[0].levelname == "WARNING"
    assert "\n" not in warnings_[0].getMessage()
    caplog.clear()
    create_app(replace(settings, idp_audience="ticketing-api"))
    create_app(replace(settings, idp_issuer=None, idp_jwks_file=None, idp_audience=None))
    assert not [r for r in caplog.records if "TICKETING_IDP_AUDIENCE" in r.getMessage()]


async def test_a_trusted_client_of_another_organization_gets_the_consent_page(
    app: Litestar,
    browser: httpx.AsyncClient,
    tenant: Tenant,
    other_tenant: Tenant,
    idp_dir: Path,
) -> None:
    """Trust is granted by an organization for its own users only."""
    created = await create_client(
        other_tenant.org_id, other_tenant.email, "Other's Tool", [REDIRECT_URI], None, trusted=True
    )
    registered = Registered(created.client_id, created.client_secret, tenant)
    oauth = third_party(app, registered, scope="events.read")
    url, state = await authorize_url(oauth, tenant, idp_dir)
    page = await browser.get(url)
    assert "location" not in page.headers
    assert "Other&#x27;s Tool" in page.text or "Other's Tool" in page.text
    params = await code_for(browser, url)
    assert params["state"] == state and params["code"]


async def test_a_consent_page_is_submitted_once(
    app: Litestar, browser: httpx.AsyncClient, register: Callable[..., Any], idp_dir: Path
) -> None:
    registered = await register()
    oauth = third_party(app, registered, scope="events.read")
    url, state = await authorize_url(oauth, registered.tenant, idp_dir)
    ticket = consent_form(await browser.get(url))
    approve = {"consent": ticket, "decision": "approve"}
    first = redirect_params(await browser.post("/oauth2/authorize", data=approve))
    assert first["state"] == state and first["code"]
    for decision in ("approve", "deny"):
        again = await browser.post("/oauth2/authorize", data={**approve, "decision": decision})
        assert again.status_code == 400 and "location" not in again.headers
        assert "already" in again.text
    racing_ticket = consent_form(await browser.get(url))
    racing = await asyncio.gather(
        *(
            browser.post(
                "/oauth2/authorize", data={"consent": racing_ticket, "decision": "approve"}
            )
            for _ in range(4)
        )
    )
    assert sorted(response.status_code for response in racing) == [302, 400, 400, 400]


async def test_characters_authlib_cannot_quote_are_a_plain_400_at_every_endpoint(
    browser: httpx.AsyncClient, client: httpx.AsyncClient, register: Callable[..., Any]
) -> None:
    """response_type, redirect_uri and grant_type are quoted in error descriptions, which may not
    hold ``"``, a backslash or non-ASCII (RFC 6749 section 4.1.2.1): such a request is malformed."""
    registered = await register()
    base = {"response_type": "code", "client_id": registered.client_id}
    for params in (
        {"response_type": "c\\ode", "redirect_uri": REDIRECT_URI},
        {"response_type": "cödé", "redirect_uri": REDIRECT_URI},
        {"redirect_uri": REDIRECT_URI + "\\x"},
    ):
        page = await browser.get("/oauth2/authorize", params={**base, **params})
        assert page.status_code == 400 and "location" not in page.headers
    for grant_type in ('client"credentials', "client_crédentials"):
        response = await client.post(
            "/oauth2/token",
            data={"grant_type": grant_type},
            auth=(registered.client_id, registered.client_secret),
        )
        token_error(response, 400, "invalid_request")


async def test_the_issuer_is_the_public_url_the_app_was_given(
    app_client: AppClient, register: Callable[..., Any]
) -> None:
    """Settings reach the OAuth services from the composition root, not from the environment."""
    public_url = "https://tickets.example.org"
    async with app_client(public_url=public_url) as other:
        metadata = ok(await other.get("/.well-known/oauth-authorization-server"))
        assert metadata["issuer"] == public_url
        assert metadata["token_endpoint"] == f"{public_url}/oauth2/token"
        registered = await register(scopes="events.read")
        token = ok(
            await other.post(
                "/oauth2/token",
                data={"grant_type": "client_credentials"},
                auth=(registered.client_id, registered.client_secret or ""),
            )
        )
        assert (
            jwt.decode(
                token["access_token"],
                KeySet.import_key_set(ok(await other.get("/oauth2/jwks.json"))),
            ).claims["iss"]
            == public_url
        )
        ok(await other.get("/events", headers=bearer(token["access_token"])))
    # The same token is not accepted by the app of another public URL: its issuer differs.
    async with app_client() as default:
        problem(await default.get("/events", headers=bearer(token["access_token"])), 401)


async def cli(*args: str) -> dict[str, Any]:
    """``ticketing ARGS`` as an operator runs it: its one JSON line."""
    process = await asyncio.create_subprocess_exec(
        TICKETING, *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return json.loads(out)


async def test_an_operator_disables_enables_rotates_and_deletes_an_application(
    app: Litestar,
    client: httpx.AsyncClient,
    browser: httpx.AsyncClient,
    register: Callable[..., Any],
    idp_dir: Path,
) -> None:
    """Issue 24 item 8: a leaked client secret kept getting tokens; the CLI could only create."""
    from db.tables import AuditEntry

    registered = await register()
    oauth = await walk_code_flow(app, browser, registered, idp_dir)
    refresh = oauth.token["refresh_token"]
    machine = await third_party(app, registered).fetch_token(
        TOKEN_URL, grant_type="client_credentials"
    )
    tokens = [oauth.token["access_token"], machine["access_token"]]
    for token in tokens:
        ok(await client.get("/whoami", headers=bearer(token)))
    basic = httpx.BasicAuth(registered.client_id, registered.client_secret or "")
    credentials = {"grant_type": "client_credentials"}

    assert await cli("oauth-client", "disable", registered.client_id) == {
        "client_id": registered.client_id,
        "disabled": True,
    }
    for token in tokens:
        problem(await client.get("/whoami", headers=bearer(token)), 401)
    token_error(
        await client.post("/oauth2/token", data=credentials, auth=basic), 401, "invalid_client"
    )

    await cli("oauth-client", "enable", registered.client_id)
    for token in tokens:
        ok(await client.get("/whoami", headers=bearer(token)))

    rotated = await cli("oauth-client", "rotate-secret", registered.client_id)
    new_secret = rotated["client_secret"]
    assert new_secret.startswith("cs_") and new_secret != registered.client_secret
    token_error(
        await client.post("/oauth2/token", data=credentials, auth=basic), 401, "invalid_client"
    )
    fresh = await client.post(
        "/oauth2/token", data=credentials, auth=httpx.BasicAuth(registered.client_id, new_secret)
    )
    tokens.append(ok(fresh)["access_token"])

    await cli("oauth-client", "delete", registered.client_id)
    for token in tokens:
        problem(await client.get("/whoami", headers=bearer(token)), 401)
    assert not await OAuthRefreshToken.exists().where(
        OAuthRefreshToken.token_hash == hash_secret(refresh)
    )
    refreshed = await client.post(
        "/oauth2/token",
        data={"grant_type": "refresh_token", "refresh_token": refresh},
        auth=httpx.BasicAuth(registered.client_id, new_secret),
    )
    token_error(refreshed, 401, "invalid_client")

    actions = (
        await AuditEntry.select(AuditEntry.action, AuditEntry.actor_via)
        .where(AuditEntry.target_id == registered.client_id)
        .order_by(AuditEntry.created_at)
    )
    assert [(row["action"], row["actor_via"]) for row in actions] == [
        ("oauth_application.create", "cli"),
        ("oauth_application.disable", "cli"),
        ("oauth_application.enable", "cli"),
        ("oauth_application.rotate_secret", "cli"),
        ("oauth_application.delete", "cli"),
    ]
    missing = await asyncio.create_subprocess_exec(
        TICKETING, "oauth-client", "disable", registered.client_id,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    _, err = await missing.communicate()
    assert missing.returncode != 0 and len(err.decode().strip().splitlines()) == 1, err
