"""A development identity provider: one key pair in a directory, and user JWTs signed with it.

For the demo and local trials only. Point the service at it with
``TICKETING_IDP_ISSUER=<DEV_ISSUER>``, ``TICKETING_IDP_JWKS_FILE=<directory>/dev-idp-jwks.json``
(:func:`ensure_dev_idp` returns both) and ``TICKETING_IDP_AUDIENCE=<DEV_AUDIENCE>``, then mint
a user's token with :func:`mint_user_token` or ``ticketing dev-idp token --email E``. The
private key never leaves the directory.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta
from pathlib import Path

from joserfc import jwt
from joserfc.jwk import KeySet

from app import timeutil
from app.private_keys import algorithm_of, import_private_pem
from app.services.oauth.signing_keys import generate_private_pem
from app.services.organizations import normalize_email

DEV_ISSUER = "https://dev-idp.ticketing.localhost"
DEV_AUDIENCE = "ticketing-dev"
"""The ``aud`` of the user tokens the dev identity provider mints for the demo's API."""
KEY_FILE = "dev-idp-key.pem"
JWKS_FILE = "dev-idp-jwks.json"
DEFAULT_LIFETIME = timedelta(minutes=30)


def ensure_dev_idp(directory: Path) -> tuple[str, Path]:
    """Create the key (once) and its public JWKS under ``directory``; (issuer, JWKS path)."""
    directory.mkdir(parents=True, exist_ok=True)
    key_path = directory / KEY_FILE
    if not key_path.exists():
        key_path.touch(mode=0o600)
        key_path.write_text(generate_private_pem())
    key = import_private_pem(key_path.read_bytes())
    jwks_path = directory / JWKS_FILE
    jwks_path.write_text(json.dumps(KeySet([key]).as_dict(private=False), indent=2))
    return DEV_ISSUER, jwks_path


def mint_user_token(
    email: str,
    directory: Path,
    *,
    audience: str | None = None,
    subject: str | None = None,
    lifetime: timedelta = DEFAULT_LIFETIME,
    issued_at: datetime | None = None,
    issuer: str = DEV_ISSUER,
    nonce: str | None = None,
) -> str:
    """A signed-in user's JWT (``iss, sub, email, email_verified, iat, exp``; ``aud`` and
    ``nonce`` if given)."""
    ensure_dev_idp(directory)
    key = import_private_pem((directory / KEY_FILE).read_bytes())
    email = normalize_email(email)
    now = int((issued_at or timeutil.utcnow()).timestamp())
    claims: dict[str, object] = {
        "iss": issuer,
        "sub": subject or f"dev|{email}",
        "email": email,
        "email_verified": True,
        "iat": now,
        "exp": now + int(lifetime.total_seconds()),
        "jti": secrets.token_urlsafe(12),
    }
    if audience:
        claims["aud"] = audience
    if nonce is not None:
        claims["nonce"] = nonce
    return jwt.encode({"alg": algorithm_of(key), "kid": key.kid, "typ": "JWT"}, claims, key)
