"""OAuth clients: registration (``ticketing oauth-client create``) and the model authlib consults.

A confidential client gets ``client_secret`` (shown once, stored as a SHA-256 hash: it has 256 bits
of entropy, so a fast hash is enough, as for API keys). A public client has no secret and must use
PKCE (S256). Redirect URIs are matched exactly; they must be absolute ``https`` URIs without a
fragment, or ``http`` on a loopback host (RFC 8252 section 7.3).

An admin (dashboard) or an operator (``ticketing oauth-client``) can disable and enable a client,
delete it and rotate its secret: each one conditional statement with its audit entry, in one
transaction.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

import msgspec
from piccolo.custom_types import Combinable

from app.errors import InvalidInput, NotFound
from app.principal import SCOPES, Principal, parse_scopes
from app.schemas.oauth import OAuthClientCreated
from app.services import audit
from app.services.audit import Actor, Target
from app.services.organizations import member_id
from app.services.test_mode import in_mode
from app.stored_secrets import hash_secret, new_token
from app.timeutil import utcnow
from db.tables import OAuthClient
from db.transactions import transaction

SECRET_PREFIX = "cs_"


@dataclass(frozen=True, slots=True)
class Client:
    """A registered client, in the shape authlib's ``ClientMixin`` asks for."""

    id: UUID
    client_id: str
    secret_hash: str | None = field(repr=False)
    organization_id: UUID
    user_id: UUID
    name: str
    redirect_uris: tuple[str, ...]
    scopes: frozenset[str]
    public: bool
    trusted: bool

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        """Only a client with a single registered URI may omit ``redirect_uri``."""
        return self.redirect_uris[0] if len(self.redirect_uris) == 1 else None

    def get_allowed_scope(self, scope: str | None) -> str | None:
        """The requested scopes if all are registered (None: invalid); nothing asked means all."""
        if not scope:
            return " ".join(sorted(self.scopes))
        requested = set(scope.split())
        return " ".join(sorted(requested)) if requested <= self.scopes else None

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret: str) -> bool:
        if self.secret_hash is None:
            return False
        return hmac.compare_digest(self.secret_hash, hash_secret(client_secret))

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        if self.public:
            return method == "none"
        return method in {"client_secret_basic", "client_secret_post"}

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        if grant_type == "client_credentials":
            return not self.public
        return grant_type in {"authorization_code", "refresh_token"}


def _client_of(row: dict[str, Any]) -> Client:
    """The client its row holds: the same names but the secret's, the scopes as separate words."""
    scopes = row["scopes"].split()
    return msgspec.convert(
        {**row, "secret_hash": row["client_secret_hash"], "scopes": scopes}, Client
    )


async def find_client(client_id: str) -> Client | None:
    """The client authlib asks for; a disabled one is unknown (``invalid_client``)."""
    row = (
        await OAuthClient.select()
        .where(OAuthClient.client_id == client_id, OAuthClient.disabled_at.is_null())
        .output(load_json=True)
        .first()
    )
    return None if row is None else _client_of(row)


def _check_redirect_uri(uri: str) -> str:
    parts = urlsplit(uri)
    if parts.fragment or not parts.netloc or parts.scheme not in {"https", "http"}:
        raise InvalidInput.field(
            "redirect_uri", f"must be an absolute https URI without a fragment: {uri!r}"
        )
    if parts.scheme == "http":
        host = parts.hostname or ""
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise InvalidInput.field(
                "redirect_uri", f"http is allowed only for loopback hosts: {uri!r}"
            )
    return uri


@dataclass(frozen=True, slots=True)
class Registration:
    """A client's registration, checked: its name, redirect URIs and scopes."""

    name: str
    redirect_uris: list[str]
    scopes: frozenset[str]


def check_registration(
    name: str, redirect_uris: list[str], scopes: str | None = None
) -> Registration:
    """The registration, or :class:`InvalidInput` naming what is wrong; no scopes means all."""
    name = name.strip()
    if not name:
        raise InvalidInput.field("name", "must not be empty")
    if not redirect_uris:
        raise InvalidInput.field("redirect_uri", "at least one redirect URI is required")
    uris = [_check_redirect_uri(uri) for uri in dict.fromkeys(redirect_uris)]
    try:
        scope_set = parse_scopes(scopes) if scopes else frozenset(SCOPES)
    except ValueError as error:
        raise InvalidInput.field("scopes", str(error)) from None
    if not scope_set:
        raise InvalidInput.field("scopes", "at least one scope is required")
    return Registration(name, uris, scope_set)


async def register(
    organization_id: UUID,
    user_id: UUID,
    registration: Registration,
    *,
    public: bool,
    trusted: bool,
    actor: Actor | Principal,
) -> OAuthClientCreated:
    """Register a client of ``organization_id`` for the member ``user_id`` (whom its
    client-credentials tokens act for); ``actor`` registered it (the audit log)."""
    client_id = secrets.token_urlsafe(18)
    secret = None if public else new_token(SECRET_PREFIX)
    scopes = sorted(registration.scopes)
    row = OAuthClient(
        client_id=client_id,
        client_secret_hash=None if secret is None else hash_secret(secret),
        organization_id=organization_id,
        user_id=user_id,
        name=registration.name,
        redirect_uris=registration.redirect_uris,
        scopes=" ".join(scopes),
        public=public,
        trusted=trusted,
    )
    async with transaction():
        await row.save()
        await audit.record(
            actor,
            "oauth_application.create",
            Target("oauth_application", client_id, registration.name),
            {
                "redirect_uris": registration.redirect_uris,
                "scopes": scopes,
                "public": public,
                "trusted": trusted,
            },
        )
    return OAuthClientCreated(
        client_id=client_id,
        client_secret=secret,
        name=registration.name,
        redirect_uris=registration.redirect_uris,
        scopes=scopes,
        public=public,
        trusted=trusted,
    )


async def create_client(
    organization_id: UUID,
    user_email: str,
    name: str,
    redirect_uris: list[str],
    scopes: str | None = None,
    *,
    public: bool = False,
    trusted: bool = False,
    test: bool = False,
) -> OAuthClientCreated:
    """Register a client of ``organization_id`` on behalf of one of its members (an operator at
    the command line); ``test``: a client of the organization's test twin, whose tokens see
    only test data."""
    registration = check_registration(name, redirect_uris, scopes)
    user_id = await member_id(organization_id, user_email)
    organization_id = await in_mode(organization_id, test)
    return await register(
        organization_id,
        user_id,
        registration,
        public=public,
        trusted=trusted,
        actor=Actor.operator(organization_id),
    )


def _owned(client_id: str, organization_id: UUID | None) -> Combinable:
    """The client ``client_id`` (of ``organization_id`` when given; the command line gives none)."""
    owned = OAuthClient.client_id == client_id
    return (
        owned
        if organization_id is None
        else owned & (OAuthClient.organization_id == organization_id)
    )


async def _missing(client_id: str, organization_id: UUID | None) -> bool:
    return not await OAuthClient.exists().where(_owned(client_id, organization_id))


async def set_disabled(
    client_id: str,
    disabled: bool,
    *,
    organization_id: UUID | None = None,
    actor: Actor | Principal | None = None,
) -> None:
    """Disable the client (no token issued, none of its tokens accepted, its subscriptions end)
    or enable it again (its unexpired tokens work again). Doing it twice changes nothing."""
    changed = (
        OAuthClient.disabled_at.is_null() if disabled else OAuthClient.disabled_at.is_not_null()
    )
    async with transaction():
        rows = (
            await OAuthClient.update({OAuthClient.disabled_at: utcnow() if disabled else None})
            .where(_owned(client_id, organization_id), changed)
            .returning(OAuthClient.organization_id, OAuthClient.name)
        )
        if rows:
            await audit.record(
                actor or Actor.operator(rows[0]["organization_id"]),
                "oauth_application.disable" if disabled else "oauth_application.enable",
                Target("oauth_application", client_id, rows[0]["name"]),
            )
    if not rows and await _missing(client_id, organization_id):
        raise NotFound.resource("OAuth application", client_id)


async def delete_client(
    client_id: str,
    *,
    organization_id: UUID | None = None,
    actor: Actor | Principal | None = None,
) -> None:
    """Delete the client with its grants, codes and refresh tokens (the foreign keys cascade):
    its access tokens fail the family check of their next request."""
    async with transaction():
        rows = (
            await OAuthClient.delete()
            .where(_owned(client_id, organization_id))
            .returning(OAuthClient.organization_id, OAuthClient.name)
        )
        if rows:
            await audit.record(
                actor or Actor.operator(rows[0]["organization_id"]),
                "oauth_application.delete",
                Target("oauth_application", client_id, rows[0]["name"]),
            )
    if not rows:
        raise NotFound.resource("OAuth application", client_id)


async def rotate_secret(
    client_id: str,
    *,
    organization_id: UUID | None = None,
    actor: Actor | Principal | None = None,
) -> str:
    """A new client secret, returned this once; the old one stops working at once (tokens
    already issued stay valid: disable or delete the client to stop those)."""
    secret = new_token(SECRET_PREFIX)
    async with transaction():
        rows = (
            await OAuthClient.update({OAuthClient.client_secret_hash: hash_secret(secret)})
            .where(_owned(client_id, organization_id), OAuthClient.public.eq(False))
            .returning(OAuthClient.organization_id, OAuthClient.name)
        )
        if rows:
            await audit.record(
                actor or Actor.operator(rows[0]["organization_id"]),
                "oauth_application.rotate_secret",
                Target("oauth_application", client_id, rows[0]["name"]),
            )
    if not rows:
        if await _missing(client_id, organization_id):
            raise NotFound.resource("OAuth application", client_id)
        raise InvalidInput("A public client has no secret to rotate")
    return secret
