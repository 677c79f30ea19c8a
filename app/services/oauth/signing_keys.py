"""The asymmetric keys that sign access tokens, and the JWKS that publishes them.

The signer is the key of ``TICKETING_SIGNING_KEY_FILE`` when set; otherwise the oldest active row of
``signing_keys`` (one is generated on first use), so every replica signs with the same key. Rotation
inserts a new key and retires the old ones; a retired key stays published (and accepted) for one
access-token lifetime, so live tokens keep working. Keys are cached per process and reloaded when
a token names an unknown ``kid`` (throttled) or the cache is older than ``CACHE_SECONDS``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from joserfc.jwk import ECKey, Key, KeySet, KeySetSerialization

from app import timeutil
from app.errors import Conflict
from app.private_keys import EC_ALGORITHM, import_private_pem
from app.settings import Settings
from db.tables import SigningKey
from db.transactions import transaction

ALGORITHM = EC_ALGORITHM
"""The algorithm of the keys generated and kept in the database."""
ACCESS_TOKEN_LIFETIME = timedelta(hours=1)
CACHE_SECONDS = 60.0
RELOAD_THROTTLE_SECONDS = 5.0


@dataclass
class _Cache:
    signer: Key | None = None
    keys: dict[str, Key] = field(default_factory=dict)
    loaded_at: float = float("-inf")
    key_file: Path | None = None
    """The signing key file the cache was loaded for (``None``: the database's key)."""


_cache = _Cache()


def generate_private_pem() -> str:
    return ECKey.generate_key("P-256").as_pem(private=True).decode()


async def _active_row() -> dict[str, Any] | None:
    return (
        await SigningKey.select(SigningKey.kid, SigningKey.private_pem)
        .where(SigningKey.retired_at.is_null())
        .order_by(SigningKey.created_at)
        .order_by(SigningKey.id)
        .first()
    )


async def _ensure_database_signer() -> Key:
    """The oldest active key; generated if there is none. Two replicas racing both insert, then
    both pick the oldest, so they still agree (the other key stays published, unused)."""
    row = await _active_row()
    if row is None:
        pem = generate_private_pem()
        key = import_private_pem(pem)
        await SigningKey(kid=key.kid, algorithm=ALGORITHM, private_pem=pem).save()
        row = await _active_row()
        assert row is not None
    return import_private_pem(row["private_pem"], row["kid"])


async def _load(settings: Settings) -> None:
    if settings.signing_key_file is not None:
        signer = import_private_pem(settings.signing_key_file.read_bytes())
    else:
        signer = await _ensure_database_signer()
    published_since = timeutil.utcnow() - ACCESS_TOKEN_LIFETIME
    rows = await SigningKey.select(SigningKey.kid, SigningKey.private_pem).where(
        SigningKey.retired_at.is_null() | (SigningKey.retired_at > published_since)
    )
    keys = {row["kid"]: import_private_pem(row["private_pem"], row["kid"]) for row in rows}
    keys[signer.kid] = signer
    _cache.signer, _cache.keys, _cache.loaded_at = signer, keys, time.monotonic()
    _cache.key_file = settings.signing_key_file


async def _fresh(settings: Settings) -> _Cache:
    stale = time.monotonic() - _cache.loaded_at > CACHE_SECONDS
    if stale or _cache.key_file != settings.signing_key_file:
        await _load(settings)
    return _cache


async def signer(settings: Settings) -> Key:
    cache = await _fresh(settings)
    assert cache.signer is not None
    return cache.signer


async def verification_key(kid: str, settings: Settings) -> Key | None:
    """The published key named ``kid``; an unknown kid reloads the keys (at most every few s)."""
    cache = await _fresh(settings)
    if kid not in cache.keys and time.monotonic() - cache.loaded_at > RELOAD_THROTTLE_SECONDS:
        await _load(settings)
    return _cache.keys.get(kid)


async def jwks(settings: Settings) -> KeySetSerialization:
    """The public JWKS (``/oauth2/jwks.json``): the signer and every key still accepted."""
    cache = await _fresh(settings)
    return KeySet(list(cache.keys.values())).as_dict(private=False)


async def rotate(settings: Settings) -> str:
    """Start signing with a new key; the old ones stay published for one token lifetime."""
    if settings.signing_key_file is not None:
        raise Conflict(
            "Access tokens are signed with TICKETING_SIGNING_KEY_FILE; replace that file to rotate"
        )
    pem = generate_private_pem()
    key = import_private_pem(pem)
    kid = key.kid
    assert kid is not None, "import_private_pem names every key"
    async with transaction():
        await SigningKey.update({SigningKey.retired_at: timeutil.utcnow()}).where(
            SigningKey.retired_at.is_null()
        )
        await SigningKey(kid=kid, algorithm=ALGORITHM, private_pem=pem).save()
    await _load(settings)
    return kid
