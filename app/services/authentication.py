"""Turning an ``Authorization`` header into a :class:`Principal` (CONTRACT.md sections 1 and 7).

Both kinds of bearer credential end here, so REST and GraphQL authenticate identically.
"""

from __future__ import annotations

from app.errors import Unauthenticated
from app.principal import Principal
from app.runtime.rate_limits import enforce_rate_limit
from app.services.api_keys import PREFIXES, authenticate_api_key
from app.services.oauth.tokens import authenticate_access_token
from app.settings import Settings


def bearer_token(authorization: str | None) -> str:
    """The token of an RFC 6750 ``Bearer`` header, or :class:`Unauthenticated`."""
    if not authorization:
        raise Unauthenticated("Send an Authorization: Bearer <token> header", credential_sent=False)
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise Unauthenticated(
            "The Authorization header must be 'Bearer <token>'", credential_sent=True
        )
    return token


async def verify_credential(authorization: str | None, settings: Settings) -> Principal:
    """The principal of a live credential, or :class:`Unauthenticated`, without counting a
    request: what a long-lived connection calls again to learn that its credential was revoked
    or has expired."""
    token = bearer_token(authorization)
    if token.startswith(PREFIXES):
        return await authenticate_api_key(token)
    return await authenticate_access_token(token, settings)


async def authenticate(authorization: str | None, settings: Settings) -> Principal:
    """The caller's principal, counted against its rate limit (429 once over it)."""
    principal = await verify_credential(authorization, settings)
    await enforce_rate_limit(principal, settings)
    return principal
