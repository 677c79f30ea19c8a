"""The development identity provider as an OpenID Connect provider, served by the demo itself.

With ``TICKETING_DEV_IDP_DIR`` set, the process serves under ``/dev-idp`` (``rest/dev_idp.py``)
the discovery document, the JWKS, an authorize page where the person types the e-mail address to
sign in as (no password: it is a development tool), and a token endpoint that returns an ID token
signed with the key of :mod:`app.services.oauth.dev_idp`. Its one client is the dashboard's
(``TICKETING_DASHBOARD_CLIENT_ID`` / ``_SECRET``) with the redirect URI
``<public URL>/dashboard/callback``; PKCE S256 is required. Codes live in this process's memory
for a minute and are single use: the demo serves from one process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgspec

from app.errors import InvalidInput
from app.services.oauth.dev_idp import JWKS_FILE, ensure_dev_idp, mint_user_token
from app.services.organizations import normalize_email
from app.settings import Settings

PATH = "/dev-idp"
CALLBACK_PATH = "/dashboard/callback"
CODE_SECONDS = 60.0
ID_TOKEN_LIFETIME = timedelta(minutes=5)


def served_issuer(public_url: str) -> str:
    """The issuer of the provider this process serves at ``public_url``."""
    return public_url.rstrip("/") + PATH


class ProviderError(Exception):
    """An OAuth error: ``error`` is the RFC 6749 code, the message its description."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


@dataclass(frozen=True, slots=True)
class AuthorizationRequest:
    """The validated parameters of an authorize request, carried through the e-mail form (the
    request's parameters of the same names)."""

    client_id: str
    redirect_uri: str
    state: str
    nonce: str
    code_challenge: str
    scope: str


@dataclass(slots=True)
class _Code:
    request: AuthorizationRequest
    email: str
    expires: float


@dataclass
class DevProvider:
    """One process's development OpenID Connect provider."""

    directory: Path
    issuer: str
    client_id: str
    client_secret: str | None
    redirect_uri: str
    _codes: dict[str, _Code] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Settings) -> DevProvider:
        assert settings.dev_idp_directory is not None
        ensure_dev_idp(settings.dev_idp_directory)
        return cls(
            directory=settings.dev_idp_directory,
            issuer=settings.idp_issuer or served_issuer(settings.public_url),
            client_id=settings.dashboard_client_id or "",
            client_secret=settings.dashboard_client_secret,
            redirect_uri=settings.public_url.rstrip("/") + CALLBACK_PATH,
        )

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": f"{self.issuer}/jwks.json",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "scopes_supported": ["openid", "email"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "claims_supported": ["iss", "sub", "aud", "exp", "iat", "nonce", "email"],
        }

    def jwks(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads((self.directory / JWKS_FILE).read_text())
        return document

    def check_authorization(self, params: dict[str, str]) -> AuthorizationRequest:
        """The request's parameters, or :class:`ProviderError` (shown on the page, never
        redirected: a bad client or redirect URI must not send the browser anywhere)."""
        if params.get("client_id") != self.client_id or not self.client_id:
            raise ProviderError("invalid_client", "Unknown client_id")
        if params.get("redirect_uri") != self.redirect_uri:
            raise ProviderError("invalid_request", "redirect_uri is not registered")
        if params.get("response_type") != "code":
            raise ProviderError("unsupported_response_type", "Only response_type=code")
        if "openid" not in params.get("scope", "").split():
            raise ProviderError("invalid_scope", "The scope must include openid")
        if params.get("code_challenge_method") != "S256" or not params.get("code_challenge"):
            raise ProviderError("invalid_request", "PKCE (code_challenge_method=S256) is required")
        if not params.get("state") or not params.get("nonce"):
            raise ProviderError("invalid_request", "state and nonce are required")
        return msgspec.convert(params, AuthorizationRequest)

    def approve(self, request: AuthorizationRequest, email: str) -> str:
        """Sign ``email`` in: the redirect back to the client, with a fresh code."""
        try:
            email = normalize_email(email)
        except InvalidInput as error:
            raise ProviderError("invalid_request", error.detail) from None
        now = time.monotonic()
        self._codes = {code: held for code, held in self._codes.items() if held.expires > now}
        code = secrets.token_urlsafe(32)
        self._codes[code] = _Code(request, email, now + CODE_SECONDS)
        query = urlencode({"code": code, "state": request.state, "iss": self.issuer})
        return f"{request.redirect_uri}?{query}"

    def exchange(self, form: dict[str, str], basic: tuple[str, str] | None) -> dict[str, Any]:
        """The token response for an authorization code, or :class:`ProviderError`."""
        client_id, secret = basic or (form.get("client_id", ""), form.get("client_secret", ""))
        if client_id != self.client_id or not self._secret_matches(secret):
            raise ProviderError("invalid_client", "Client authentication failed")
        if form.get("grant_type") != "authorization_code":
            raise ProviderError("unsupported_grant_type", "Only authorization_code")
        held = self._codes.pop(form.get("code", ""), None)
        if held is None or held.expires < time.monotonic():
            raise ProviderError("invalid_grant", "The code is unknown, used or expired")
        if held.request.redirect_uri != form.get("redirect_uri"):
            raise ProviderError("invalid_grant", "redirect_uri does not match")
        verifier = form.get("code_verifier", "")
        digest = hashlib.sha256(verifier.encode()).digest()
        challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        if not verifier or not hmac.compare_digest(challenge, held.request.code_challenge):
            raise ProviderError("invalid_grant", "The code_verifier does not match")
        id_token = mint_user_token(
            held.email,
            self.directory,
            audience=self.client_id,
            issuer=self.issuer,
            nonce=held.request.nonce,
            lifetime=ID_TOKEN_LIFETIME,
        )
        return {
            "access_token": secrets.token_urlsafe(32),
            "token_type": "Bearer",
            "expires_in": int(ID_TOKEN_LIFETIME.total_seconds()),
            "id_token": id_token,
            "scope": held.request.scope,
        }

    def _secret_matches(self, secret: str) -> bool:
        if self.client_secret is None:
            return True
        return hmac.compare_digest(secret.encode(), self.client_secret.encode())
