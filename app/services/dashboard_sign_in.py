"""Signing in to the dashboard with OpenID Connect: authorization code + PKCE (authlib's client).

The provider's endpoints come from ``TICKETING_IDP_ISSUER`` + ``/.well-known/openid-configuration``
(cached for :data:`DISCOVERY_CACHE_SECONDS`; its ``issuer`` must be the configured one). The client
is ``TICKETING_DASHBOARD_CLIENT_ID`` / ``_SECRET``; the redirect URI is
``<TICKETING_PUBLIC_URL>/dashboard/callback``. The ID token is verified as every sign-in token of
this service is (:func:`app.services.oauth.idp.verify_id_token`: signature against the IdP's
JWKS, ``iss``, ``exp``, ``email_verified`` exactly true), with ``aud`` = the dashboard's client id
and the ``nonce`` this sign-in sent. The verified e-mail finds the member (linking the user to the
IdP's ``sub`` on first sign-in, as ``/oauth2/authorize`` does).
"""

from __future__ import annotations

import secrets
import time
import warnings
from dataclasses import dataclass
from typing import Any

import httpx
from authlib.common.security import generate_token
from authlib.deprecate import AuthlibDeprecationWarning
from authlib.oauth2.rfc6749.errors import OAuth2Error

with warnings.catch_warnings():
    # Authlib 1.9 prefers the httpx2 fork and warns, on import, that its httpx fallback is
    # deprecated; httpx is this project's pinned HTTP client, so the fallback is what we use.
    warnings.simplefilter("ignore", AuthlibDeprecationWarning)
    from authlib.integrations.httpx_client import AsyncOAuth2Client
    from authlib.integrations.httpx_client import OAuthError as HttpxOAuthError

from app.services import dashboard_sessions
from app.services.oauth.idp import SignInError, sign_in, verify_id_token
from app.settings import Settings

CALLBACK_PATH = "/dashboard/callback"
DISCOVERY_CACHE_SECONDS = 300.0
HTTP_TIMEOUT_SECONDS = 10.0
SCOPE = "openid email"


@dataclass(frozen=True, slots=True)
class ProviderEndpoints:
    authorization_endpoint: str
    token_endpoint: str


_discovered: dict[str, tuple[ProviderEndpoints, float]] = {}


def callback_url(settings: Settings) -> str:
    return settings.public_url.rstrip("/") + CALLBACK_PATH


async def provider_endpoints(settings: Settings) -> ProviderEndpoints:
    """The identity provider's endpoints from its discovery document, or :class:`SignInError`."""
    issuer = settings.idp_issuer
    if not issuer or not settings.dashboard_client_id:
        raise SignInError("Dashboard sign-in is not configured on this server")
    cached = _discovered.get(issuer)
    if cached is not None and time.monotonic() - cached[1] < DISCOVERY_CACHE_SECONDS:
        return cached[0]
    url = issuer.rstrip("/") + "/.well-known/openid-configuration"
    try:
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
            response = await http.get(url)
            response.raise_for_status()
            document: dict[str, Any] = response.json()
        endpoints = ProviderEndpoints(
            authorization_endpoint=str(document["authorization_endpoint"]),
            token_endpoint=str(document["token_endpoint"]),
        )
    except (httpx.HTTPError, ValueError, KeyError, TypeError):
        raise SignInError("The identity provider did not answer; try again shortly") from None
    if document.get("issuer") != issuer:
        raise SignInError("The identity provider's discovery document names another issuer")
    _discovered[issuer] = (endpoints, time.monotonic())
    return endpoints


def _client(settings: Settings) -> AsyncOAuth2Client:
    return AsyncOAuth2Client(
        client_id=settings.dashboard_client_id,
        client_secret=settings.dashboard_client_secret,
        scope=SCOPE,
        redirect_uri=callback_url(settings),
        code_challenge_method="S256",
        timeout=HTTP_TIMEOUT_SECONDS,
    )


@dataclass(frozen=True, slots=True)
class SignInStart:
    cookie_token: str
    """The sign-in's token, for the browser's session cookie."""
    authorization_url: str
    """Where to send the browser."""


async def begin(settings: Settings, return_to: str | None) -> SignInStart:
    """Start a sign-in: record state, nonce and PKCE verifier; the provider's authorize URL."""
    endpoints = await provider_endpoints(settings)
    state = secrets.token_urlsafe(24)
    nonce = secrets.token_urlsafe(24)
    verifier = generate_token(64)
    async with _client(settings) as client:
        url, _ = client.create_authorization_url(
            endpoints.authorization_endpoint, state=state, nonce=nonce, code_verifier=verifier
        )
    token = await dashboard_sessions.begin_sign_in(state, nonce, verifier, return_to)
    return SignInStart(cookie_token=token, authorization_url=url)


@dataclass(frozen=True, slots=True)
class SignedIn:
    cookie_token: str
    """The session's new token (the sign-in's token no longer works)."""
    return_to: str | None


async def finish(settings: Settings, cookie_token: str | None, params: dict[str, str]) -> SignedIn:
    """Complete the sign-in the provider sent the browser back from, or :class:`SignInError`."""
    pending = await dashboard_sessions.pending_sign_in(cookie_token) if cookie_token else None
    if pending is None:
        raise SignInError("This sign-in has expired or was started in another browser")
    if not secrets.compare_digest(params.get("state", ""), pending.state):
        raise SignInError("The sign-in answer does not belong to this sign-in")
    if "error" in params:
        raise SignInError(
            f"The identity provider refused: {params.get('error_description') or params['error']}"
        )
    code = params.get("code")
    if not code:
        raise SignInError("The identity provider sent no authorization code")
    endpoints = await provider_endpoints(settings)
    try:
        async with _client(settings) as client:
            token = await client.fetch_token(
                endpoints.token_endpoint,
                grant_type="authorization_code",
                code=code,
                code_verifier=pending.verifier,
            )
    except (HttpxOAuthError, OAuth2Error) as error:
        raise SignInError(f"The identity provider refused the code ({error})") from None
    except httpx.HTTPError:
        raise SignInError("The identity provider did not answer; try again shortly") from None
    id_token = token.get("id_token")
    if not isinstance(id_token, str):
        raise SignInError("The identity provider sent no ID token")
    identity = await verify_id_token(
        id_token, settings, client_id=settings.dashboard_client_id, nonce=pending.nonce
    )
    user_id = await sign_in(identity)
    try:
        session_token = await dashboard_sessions.complete_sign_in(pending, user_id)
    except dashboard_sessions.NoMembership:
        raise SignInError(f"{identity.email} is not a member of any organization") from None
    return SignedIn(cookie_token=session_token, return_to=pending.return_to)
