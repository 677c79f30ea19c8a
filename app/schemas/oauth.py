"""Records of the OAuth 2.0 endpoints (CONTRACT.md section 7)."""

from __future__ import annotations

from typing import Any

import msgspec


class OAuthClientCreated(msgspec.Struct):
    """The only time the client secret is shown (null for a public client)."""

    client_id: str
    client_secret: str | None
    name: str
    redirect_uris: list[str]
    scopes: list[str]
    public: bool
    trusted: bool


class TokenResponse(msgspec.Struct, omit_defaults=True):
    """RFC 6749 section 5.1."""

    access_token: str
    token_type: str
    expires_in: int
    scope: str
    refresh_token: str | None = None


class TokenError(msgspec.Struct, omit_defaults=True):
    """RFC 6749 section 5.2."""

    error: str
    error_description: str | None = None


class JsonWebKeySet(msgspec.Struct):
    """RFC 7517 section 5: the public keys that verify access tokens."""

    keys: list[dict[str, Any]]


class AuthorizationServerMetadata(msgspec.Struct):
    """RFC 8414 section 2."""

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    revocation_endpoint: str
    jwks_uri: str
    scopes_supported: list[str]
    response_types_supported: list[str]
    response_modes_supported: list[str]
    grant_types_supported: list[str]
    token_endpoint_auth_methods_supported: list[str]
    revocation_endpoint_auth_methods_supported: list[str]
    code_challenge_methods_supported: list[str]
    service_documentation: str
