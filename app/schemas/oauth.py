"""Records of the OAuth 2.0 endpoints (CONTRACT.md section 7)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

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


class OAuthApplication(msgspec.Struct):
    """A registered client as the organization's dashboard lists it (never its secret)."""

    id: UUID
    client_id: str
    name: str
    redirect_uris: list[str]
    scopes: list[str]
    public: bool
    trusted: bool
    created_at: datetime
    disabled_at: datetime | None = None


class OAuthApplicationCreate(msgspec.Struct, forbid_unknown_fields=True):
    """An application registered from the dashboard; no scopes means all of them."""

    name: str
    redirect_uris: list[str]
    scopes: list[str] = []
    public: bool = False
    trusted: bool = False


class OAuthAuthorization(msgspec.Struct):
    """A user's authorization of an application (a grant family): what it may do, since when,
    and whether it was revoked (its tokens then stop working at once)."""

    id: UUID
    application_name: str
    application_client_id: str
    user_email: str
    scopes: list[str]
    created_at: datetime
    revoked_at: datetime | None
