"""Signing users in with the configured identity provider (CONTRACT.md section 7).

The ``token`` of ``/oauth2/authorize`` is the IdP's JWT for the user. Its signature is checked
against the IdP's JWKS (``TICKETING_IDP_JWKS_FILE``, or ``TICKETING_IDP_JWKS_URL`` fetched and
cached for ``JWKS_CACHE_SECONDS``, refetched on an unknown ``kid``), then ``iss``, ``aud`` (when
``TICKETING_IDP_AUDIENCE`` is set; ``azp`` too, when ``aud`` names several), ``exp`` and the
``email`` claim, and ``email_verified`` must
be the JSON boolean ``true``: a missing claim or the string ``"false"`` is refused, because signing
in links the member to the token's ``sub`` for good. The user is found by (issuer, ``sub``); on
first sign-in by the email of a user made with ``ticketing user create``, who is then linked to
(issuer, ``sub``) for good.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from app import timeutil
from app.errors import InvalidInput
from app.services.oauth.tokens import unverified_header
from app.services.organizations import normalize_email
from app.settings import Settings
from db.tables import User

ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384", "PS256", "EdDSA"]
JWKS_CACHE_SECONDS = 300.0
JWKS_REFETCH_THROTTLE_SECONDS = 10.0
JWKS_TIMEOUT_SECONDS = 5.0


class SignInError(Exception):
    """The user could not be signed in; the message is safe to show to the client."""


@dataclass
class _JwksCache:
    source: str = ""
    keys: KeySet | None = None
    loaded_at: float = float("-inf")
    mtime: float = 0.0


_jwks = _JwksCache()


async def _read_jwks(settings: Settings, force: bool) -> KeySet:
    now = time.monotonic()
    if settings.idp_jwks_file is not None:
        path = settings.idp_jwks_file
        mtime = path.stat().st_mtime
        if _jwks.keys is None or _jwks.source != str(path) or _jwks.mtime != mtime:
            try:
                _jwks.keys = KeySet.import_key_set(json.loads(path.read_bytes()))
            except (OSError, ValueError, JoseError):
                raise SignInError("The identity provider's keys could not be loaded") from None
            _jwks.source, _jwks.mtime, _jwks.loaded_at = str(path), mtime, now
        return _jwks.keys
    url = settings.idp_jwks_url
    if url is None:
        raise SignInError("No identity provider is configured on this server")
    stale = now - _jwks.loaded_at > JWKS_CACHE_SECONDS
    may_refetch = force and now - _jwks.loaded_at > JWKS_REFETCH_THROTTLE_SECONDS
    if _jwks.keys is None or _jwks.source != url or stale or may_refetch:
        try:
            async with httpx.AsyncClient(timeout=JWKS_TIMEOUT_SECONDS) as http:
                response = await http.get(url)
                response.raise_for_status()
            _jwks.keys = KeySet.import_key_set(json.loads(response.content))
        except (httpx.HTTPError, ValueError, JoseError):
            if _jwks.keys is None or _jwks.source != url:
                raise SignInError("The identity provider's keys could not be loaded") from None
        _jwks.source, _jwks.loaded_at = url, now
    assert _jwks.keys is not None
    return _jwks.keys


@dataclass(frozen=True, slots=True)
class Identity:
    issuer: str
    subject: str
    email: str


async def verify_id_token(
    token: str, settings: Settings, *, client_id: str | None = None, nonce: str | None = None
) -> Identity:
    """The verified identity in an IdP JWT, or :class:`SignInError`.

    ``client_id`` and ``nonce`` are the dashboard's OpenID Connect sign-in: the ID token's ``aud``
    must then name that client (instead of ``TICKETING_IDP_AUDIENCE``) and its ``nonce`` claim
    must be the one the sign-in sent."""
    if settings.idp_issuer is None:
        raise SignInError("No identity provider is configured on this server")
    try:
        kid = unverified_header(token).get("kid")
    except ValueError:
        raise SignInError("The sign-in token is not a JWT") from None
    keys = await _read_jwks(settings, force=False)
    if kid and not any(key.kid == kid for key in keys.keys):
        keys = await _read_jwks(settings, force=True)
    claims_options: dict[str, Any] = {
        "iss": {"essential": True, "value": settings.idp_issuer},
        "sub": {"essential": True},
        "exp": {"essential": True},
        "email": {"essential": True},
    }
    if client_id is not None:
        claims_options["aud"] = {"essential": True, "value": client_id}
    elif settings.idp_audience:
        claims_options["aud"] = {"essential": True, "value": settings.idp_audience}
    if nonce is not None:
        claims_options["nonce"] = {"essential": True, "value": nonce}
    registry = jwt.JWTClaimsRegistry(
        now=lambda: int(timeutil.utcnow().timestamp()), leeway=30, **claims_options
    )
    try:
        claims = jwt.decode(token, keys, algorithms=ALGORITHMS).claims
        registry.validate(claims)
    except JoseError as error:
        if error.error == "expired_token":
            raise SignInError("The sign-in token has expired") from None
        raise SignInError(f"The sign-in token is not valid ({error.error})") from None
    except ValueError:
        raise SignInError("The sign-in token is not valid") from None
    _check_authorized_party(claims, client_id or settings.idp_audience)
    if claims.get("email_verified") is not True:
        raise SignInError("The identity provider has not verified this email address")
    try:
        email = normalize_email(str(claims["email"]))
    except InvalidInput:
        raise SignInError("The sign-in token carries no valid email address") from None
    return Identity(issuer=settings.idp_issuer, subject=str(claims["sub"]), email=email)


def _check_authorized_party(claims: dict[str, Any], client: str | None) -> None:
    """OpenID Connect Core 3.1.3.7: a token for several audiences must name the party it was
    issued to (``azp``), and an ``azp`` must be ``client``: otherwise another application that
    shares the audience could sign in here with the token it was given. Without a client to
    compare (no ``TICKETING_IDP_AUDIENCE``, outside the dashboard) there is nothing to check."""
    if client is None:
        return
    audience = claims.get("aud")
    several = isinstance(audience, list) and len(audience) > 1
    party = claims.get("azp")
    if (several or party is not None) and party != client:
        raise SignInError("The sign-in token was issued to another application (azp)")


async def sign_in(identity: Identity) -> UUID:
    """The user of ``identity``: linked already, or linked now by email (one conditional UPDATE)."""
    linked = (
        await User.select(User.id)
        .where(User.idp_issuer == identity.issuer, User.idp_subject == identity.subject)
        .first()
    )
    if linked is not None:
        linked_id: UUID = linked["id"]
        return linked_id
    rows = (
        await User.update({User.idp_issuer: identity.issuer, User.idp_subject: identity.subject})
        .where(User.email == identity.email, User.idp_subject.is_null())
        .returning(User.id)
    )
    if not rows:
        raise SignInError("This account is not a member of the organization")
    user_id: UUID = rows[0]["id"]
    return user_id
