"""RFC 9068 access tokens: issued by the token endpoint, verified on every API request.

A token is a JWT (``typ: at+jwt``; ES256, or RS256 when ``TICKETING_SIGNING_KEY_FILE`` holds an
RSA key) with ``iss`` and ``aud`` = the public URL, ``sub`` (the user), ``client_id``, ``scope``,
``org``, ``iat``, ``exp`` and ``jti``, plus ``sid``: the grant family it was issued from. The
signature and claims are checked locally; the family's revocation is checked with one primary-key
lookup per request (joined with its client), so a replayed code or refresh token, a revocation,
or the client being disabled or deleted stops the family's access tokens at once.
"""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any
from uuid import UUID

from joserfc import jwt
from joserfc.errors import JoseError

from app import timeutil
from app.errors import Unauthenticated
from app.principal import Principal
from app.private_keys import algorithm_of
from app.services.oauth import signing_keys
from app.settings import Settings
from db.tables import OAuthGrant

ACCESS_TOKEN_TYPE = "at+jwt"
EXPIRES_IN = int(signing_keys.ACCESS_TOKEN_LIFETIME.total_seconds())


def unverified_header(token: str) -> dict[str, Any]:
    """The JOSE header of a compact JWT, before any verification (to pick the key by ``kid``)."""
    segment = token.split(".", 1)[0]
    try:
        header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (ValueError, UnicodeDecodeError):
        raise ValueError("not a compact JWT") from None
    if not isinstance(header, dict) or token.count(".") != 2:
        raise ValueError("not a compact JWT")
    return header


def _invalid(detail: str = "The access token is invalid") -> Unauthenticated:
    return Unauthenticated(detail, credential_sent=True)


async def issue_access_token(
    settings: Settings,
    *,
    grant_id: UUID,
    organization_id: UUID,
    user_id: UUID,
    client_id: str,
    scope: str,
) -> str:
    key = await signing_keys.signer(settings)
    issuer = settings.public_url
    now = int(timeutil.utcnow().timestamp())
    claims = {
        "iss": issuer,
        "sub": str(user_id),
        "aud": issuer,
        "client_id": client_id,
        "scope": scope,
        "org": str(organization_id),
        "sid": str(grant_id),
        "iat": now,
        "exp": now + EXPIRES_IN,
        "jti": secrets.token_urlsafe(16),
    }
    header = {"alg": algorithm_of(key), "typ": ACCESS_TOKEN_TYPE, "kid": key.kid}
    return jwt.encode(header, claims, key)


async def verify_access_token(token: str, settings: Settings) -> dict[str, object]:
    """The claims of a live token we signed, or :class:`Unauthenticated`. Signature, ``typ``,
    ``iss``, ``aud`` and ``exp`` are checked; the family is not."""
    try:
        header = unverified_header(token)
    except ValueError:
        raise _invalid() from None
    kid = header.get("kid")
    if header.get("typ") != ACCESS_TOKEN_TYPE or not isinstance(kid, str):
        raise _invalid()
    key = await signing_keys.verification_key(kid, settings)
    if key is None:
        raise _invalid()
    issuer = settings.public_url
    registry = jwt.JWTClaimsRegistry(
        now=lambda: int(timeutil.utcnow().timestamp()),
        iss={"essential": True, "value": issuer},
        aud={"essential": True, "value": issuer},
        sub={"essential": True},
        client_id={"essential": True},
        sid={"essential": True},
        org={"essential": True},
        exp={"essential": True},
    )
    try:
        decoded = jwt.decode(token, key, algorithms=[algorithm_of(key)])
        registry.validate(decoded.claims)
    except JoseError as error:
        if error.error == "expired_token":
            raise _invalid("The access token has expired") from None
        raise _invalid() from None
    except ValueError:
        raise _invalid() from None
    return decoded.claims


async def authenticate_access_token(token: str, settings: Settings) -> Principal:
    """The principal of a live access token: valid JWT and a family that is not revoked."""
    claims = await verify_access_token(token, settings)
    try:
        grant_id = UUID(str(claims["sid"]))
        organization_id = UUID(str(claims["org"]))
    except ValueError:
        raise _invalid() from None
    family = (
        await OAuthGrant.select(OAuthGrant.organization_id, OAuthGrant.user_id)
        .where(
            OAuthGrant.id == grant_id,
            OAuthGrant.revoked_at.is_null(),
            OAuthGrant.client_id.disabled_at.is_null(),
        )
        .first()
    )
    if family is None or family["organization_id"] != organization_id:
        raise _invalid("The access token has been revoked")
    return Principal(
        organization_id=organization_id,
        user_id=family["user_id"],
        scopes=frozenset(str(claims.get("scope") or "").split()),
        credential="oauth",
        credential_id=grant_id,
        client_id=str(claims["client_id"]),
    )
