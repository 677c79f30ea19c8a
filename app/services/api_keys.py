"""API keys: ``tk_live_`` + 40 random base62 characters, stored only as a SHA-256 hash.

The key has 238 bits of entropy, so a fast hash is the right tool (a slow password hash would add
latency to every request without adding safety). Lookup is by the hash's unique index, and the
hash is compared again in constant time before the key is accepted.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from datetime import timedelta
from uuid import UUID

from app.errors import InvalidInput, NotFound, Unauthenticated
from app.principal import Principal, parse_scopes
from app.schemas.identity import ApiKeyCreated
from app.services.organizations import member_id
from app.timeutil import utcnow
from db.tables import ApiKey

PREFIX = "tk_live_"
ALPHABET = string.ascii_letters + string.digits
RANDOM_LENGTH = 40
LAST_USED_RESOLUTION = timedelta(minutes=1)
KEY_BY_HASH = """
    SELECT id, organization_id, user_id, key_hash, scopes, last_used_at, revoked_at
    FROM api_keys WHERE key_hash = {}"""
"""Every request runs this, so it is fixed SQL: Piccolo's builder costs more CPU than the query."""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def generate_key() -> str:
    return PREFIX + "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH))


async def create_api_key(
    organization_id: UUID, user_email: str, scopes: str, name: str = ""
) -> ApiKeyCreated:
    try:
        scope_set = parse_scopes(scopes)
    except ValueError as error:
        raise InvalidInput.field("scopes", str(error)) from None
    if not scope_set:
        raise InvalidInput.field("scopes", "at least one scope is required")
    user_id = await member_id(organization_id, user_email)
    key = generate_key()
    row = ApiKey(
        organization_id=organization_id,
        user_id=user_id,
        name=name,
        key_prefix=key[: len(PREFIX) + 6],
        key_hash=hash_key(key),
        scopes=" ".join(sorted(scope_set)),
    )
    await row.save()
    return ApiKeyCreated(
        id=row.id, key=key, scopes=sorted(scope_set), name=name, created_at=row.created_at
    )


async def revoke_api_key(key_id: UUID) -> None:
    revoked = (
        await ApiKey.update({ApiKey.revoked_at: utcnow()})
        .where(ApiKey.id == key_id, ApiKey.revoked_at.is_null())
        .returning(ApiKey.id)
    )
    if not revoked and not await ApiKey.exists().where(ApiKey.id == key_id):
        raise NotFound.resource("API key", key_id)


async def authenticate_api_key(key: str) -> Principal:
    """The principal of a live key, or :class:`Unauthenticated`; usually one statement."""
    digest = hash_key(key)
    rows = await ApiKey.raw(KEY_BY_HASH, digest)
    row = rows[0] if rows else None
    if row is None or not hmac.compare_digest(row["key_hash"], digest) or row["revoked_at"]:
        raise Unauthenticated("The API key is unknown or revoked", credential_sent=True)
    now = utcnow()
    last_used = row["last_used_at"]
    if last_used is None or now - last_used > LAST_USED_RESOLUTION:
        await ApiKey.update({ApiKey.last_used_at: now}).where(ApiKey.id == row["id"])
    return Principal(
        organization_id=row["organization_id"],
        user_id=row["user_id"],
        scopes=frozenset(row["scopes"].split()),
        credential="api_key",
        credential_id=row["id"],
    )
