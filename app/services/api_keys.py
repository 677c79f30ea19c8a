"""API keys: ``tk_live_`` (or ``tk_test_``, a key of the organization's test twin: CONTRACT.md
section 18) + 40 random base62 characters, stored only as a SHA-256 hash.

The key has 238 bits of entropy, so a fast hash is the right tool (a slow password hash would add
latency to every request without adding safety). Lookup is by the hash's unique index, and the
hash is compared again in constant time before the key is accepted.

Every request presents a key, so each process keeps the keys it has looked up, by hash, for up to
:data:`CACHE_SECONDS` (:class:`KeyCache`): most requests then authenticate without a round trip.
Revocation reaches every process within a few seconds all the same: a revocation raises the
number in ``credential_revisions`` in its own transaction, every process reads that number at
most :data:`REVISION_CHECK_SECONDS` apart while it serves, and forgets every cached key when it
has moved. A cached key is used only while the last check is under
:data:`REVISION_STALE_SECONDS` old; past that the request waits for a fresh check. Only live keys
are cached (an unknown or revoked key is looked up each time).

``last_used_at`` is written at most once per :data:`LAST_USED_RESOLUTION` per key and process:
inline when the key is looked up, and for cached keys off the request path, one statement for
every key that became due meanwhile.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import string
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from piccolo.custom_types import Combinable

from app.errors import InvalidInput, NotFound, Unauthenticated
from app.principal import Principal, parse_scopes, requires
from app.records import to_record
from app.schemas.identity import ApiKeyCreated, ApiKeyRecord
from app.services import audit
from app.services.audit import Actor, Target
from app.services.organizations import member_id
from app.services.test_mode import in_mode, mode_of
from app.stored_secrets import hash_secret
from app.timeutil import utcnow
from db.rows import columns_of
from db.tables import ApiKey, CredentialRevision, User
from db.transactions import transaction

PREFIX = "tk_live_"
TEST_PREFIX = "tk_test_"
PREFIXES = (PREFIX, TEST_PREFIX)
ALPHABET = string.ascii_letters + string.digits
RANDOM_LENGTH = 40
NAME_LENGTH = 200
LAST_USED_RESOLUTION = timedelta(minutes=1)
CACHE_SECONDS = 60.0
"""How long a process trusts a key it looked up (revocations are caught by the revision check)."""
CACHE_SIZE = 10_000
"""Keys kept per process; the oldest entries go first beyond it."""
REVISION_CHECK_SECONDS = 1.0
REVISION_STALE_SECONDS = 3.0
KEY_BY_HASH = """
    SELECT id, organization_id, user_id, key_hash, scopes, last_used_at, revoked_at
    FROM api_keys WHERE key_hash = {}"""
"""Fixed SQL for the hot path: Piccolo's builder costs more CPU than the query."""
REVISION = "SELECT revision FROM credential_revisions WHERE id = 1"

logger = logging.getLogger("ticketing.api_keys")


def generate_key(test: bool = False) -> str:
    return (TEST_PREFIX if test else PREFIX) + "".join(
        secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH)
    )


async def create_api_key(
    organization_id: UUID, user_email: str, scopes: str, name: str = "", *, test: bool = False
) -> ApiKeyCreated:
    """A key of the member with ``user_email`` (the command line: the operator is trusted);
    ``test``: a ``tk_test_`` key of the organization's test twin."""
    scope_set = _checked_scopes(scopes)
    name = _checked_name(name)
    user_id = await member_id(organization_id, user_email)
    owner = await in_mode(organization_id, test)
    return await _create(owner, user_id, scope_set, name, Actor.operator(owner), test)


@requires(None)
async def issue_api_key(principal: Principal, scopes: str, name: str = "") -> ApiKeyCreated:
    """A key created in the dashboard by an admin, in the admin's name, in the mode the
    dashboard is in."""
    principal.require_admin()
    _, test = await mode_of(principal.organization_id)
    return await _create(
        principal.organization_id,
        principal.user_id,
        _checked_scopes(scopes),
        _checked_name(name),
        principal,
        test,
    )


def _checked_scopes(scopes: str) -> frozenset[str]:
    try:
        scope_set = parse_scopes(scopes)
    except ValueError as error:
        raise InvalidInput.field("scopes", str(error)) from None
    if not scope_set:
        raise InvalidInput.field("scopes", "at least one scope is required")
    return scope_set


def _checked_name(name: str) -> str:
    name = name.strip()
    if len(name) > NAME_LENGTH:
        raise InvalidInput.field("name", f"at most {NAME_LENGTH} characters")
    return name


async def _create(
    organization_id: UUID,
    user_id: UUID,
    scope_set: frozenset[str],
    name: str,
    actor: Actor | Principal,
    test: bool,
) -> ApiKeyCreated:
    """The key, and its entry in the audit log (``actor`` made it), in one transaction."""
    key = generate_key(test)
    row = ApiKey(
        organization_id=organization_id,
        user_id=user_id,
        name=name,
        key_prefix=key[: len(PREFIX) + 6],
        key_hash=hash_secret(key),
        scopes=" ".join(sorted(scope_set)),
    )
    async with transaction():
        await row.save()
        owner = await User.select(User.email).where(User.id == user_id).first()
        await audit.record(
            actor,
            "api_key.create",
            Target("api_key", row.id, _key_label(name, row.key_prefix)),
            {"scopes": sorted(scope_set), "user_email": owner["email"] if owner else None},
        )
    return ApiKeyCreated(
        id=row.id, key=key, scopes=sorted(scope_set), name=name, created_at=row.created_at
    )


@requires(None)
async def list_api_keys(principal: Principal) -> list[ApiKeyRecord]:
    """The organization's keys, newest first, revoked ones too (a member may read them)."""
    principal.require_person()
    rows = (
        await ApiKey.select(
            *columns_of(ApiKey, ApiKeyRecord), ApiKey.user_id.email.as_alias("created_by")
        )
        .where(ApiKey.organization_id == principal.organization_id)
        .order_by(ApiKey.created_at, ascending=False)
        .order_by(ApiKey.id, ascending=False)
    )
    return [to_record(ApiKeyRecord, {**row, "scopes": row["scopes"].split()}) for row in rows]


@requires(None)
async def revoke_organization_api_key(principal: Principal, key_id: UUID) -> None:
    """Revoke one of the organization's keys (an admin, in the dashboard); another
    organization's key is a 404."""
    principal.require_admin()
    await revoke_api_key(key_id, organization_id=principal.organization_id, actor=principal)


def _key_label(name: str, prefix: str) -> str:
    return f"{name} ({prefix}…)" if name else f"{prefix}…"


async def revoke_api_key(
    key_id: UUID,
    *,
    organization_id: UUID | None = None,
    actor: Actor | Principal | None = None,
) -> None:
    """Revoke the key (of ``organization_id`` when given; the command line gives none); every
    server process stops accepting it within a few seconds (this one at once). Idempotent.
    ``actor`` revoked it, for the audit log (none: an operator at the command line)."""
    owned: Combinable = ApiKey.id == key_id
    if organization_id is not None:
        owned = owned & (ApiKey.organization_id == organization_id)
    async with transaction():
        revoked = (
            await ApiKey.update({ApiKey.revoked_at: utcnow()})
            .where(owned, ApiKey.revoked_at.is_null())
            .returning(ApiKey.id, ApiKey.organization_id, ApiKey.name, ApiKey.key_prefix)
        )
        if revoked:
            await CredentialRevision.update(
                {CredentialRevision.revision: CredentialRevision.revision + 1}
            ).where(CredentialRevision.id == 1)
            key = revoked[0]
            await audit.record(
                actor or Actor.operator(key["organization_id"]),
                "api_key.revoke",
                Target("api_key", key_id, _key_label(key["name"], key["key_prefix"])),
            )
    if not revoked and not await ApiKey.exists().where(owned):
        raise NotFound.resource("API key", key_id)
    if revoked:
        KEYS.forget()


@dataclass(slots=True)
class CachedKey:
    principal: Principal
    stored_at: float
    """``time.monotonic()`` when it was looked up."""
    last_used_at: datetime | None
    """The last ``last_used_at`` this process wrote or read for the key."""


class KeyCache:
    """This process's recent key lookups and its view of the credential revision."""

    def __init__(self) -> None:
        self._keys: dict[str, CachedKey] = {}
        self._generation = 0
        """Raised whenever the keys are forgotten: a lookup that began before then is not kept."""
        self._revision: int | None = None
        self._checked_at = float("-inf")
        self._check: asyncio.Task[None] | None = None
        self._used: dict[UUID, datetime] = {}
        self._writer: asyncio.Task[None] | None = None

    def forget(self) -> None:
        self._keys.clear()
        self._generation += 1

    @property
    def generation(self) -> int:
        return self._generation

    async def principal(self, digest: str) -> Principal | None:
        """The cached principal of ``digest``, or None when it must be looked up."""
        await self._confirm_revision()
        found = self._keys.get(digest)
        if found is None:
            return None
        if time.monotonic() - found.stored_at > CACHE_SECONDS:
            del self._keys[digest]
            return None
        self._note_use(found)
        return found.principal

    def store(
        self, digest: str, principal: Principal, last_used_at: datetime | None, generation: int
    ) -> None:
        """Keep a lookup that began at ``generation`` (unless the keys were forgotten since)."""
        if generation != self._generation:
            return
        if len(self._keys) >= CACHE_SIZE:
            del self._keys[next(iter(self._keys))]
        self._keys[digest] = CachedKey(principal, time.monotonic(), last_used_at)

    async def _confirm_revision(self) -> None:
        """Start a revision check when the last one is over a second old; wait for it when the
        last one is too old to trust the cache meanwhile."""
        age = time.monotonic() - self._checked_at
        if age < REVISION_CHECK_SECONDS:
            return
        if self._check is None:
            self._check = asyncio.create_task(self._read_revision())
            self._check.add_done_callback(_retrieve_failure)
        if age >= REVISION_STALE_SECONDS:
            await asyncio.shield(self._check)  # a failure is the request's (as its lookup's)

    async def _read_revision(self) -> None:
        started = time.monotonic()
        try:
            rows = await CredentialRevision.raw(REVISION)
            revision = rows[0]["revision"] if rows else 0
            if revision != self._revision:
                self.forget()
                self._revision = revision
            self._checked_at = started
        except Exception as error:
            self.forget()
            logger.warning("could not read the credential revision: %s", type(error).__name__)
            raise
        finally:
            self._check = None

    def _note_use(self, found: CachedKey) -> None:
        """Record a use of a cached key; written off the request path once it is due."""
        now = utcnow()
        if found.last_used_at is not None and now - found.last_used_at <= LAST_USED_RESOLUTION:
            return
        found.last_used_at = now
        self._used[found.principal.credential_id] = now
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_uses())

    async def _write_uses(self) -> None:
        """One statement for every key whose use became due while the last one ran."""
        try:
            while self._used:
                used, self._used = self._used, {}
                await ApiKey.update({ApiKey.last_used_at: max(used.values())}).where(
                    ApiKey.id.is_in(list(used))
                )
        except Exception:
            logger.warning("could not record the use of API keys", exc_info=True)
        finally:
            self._writer = None


def _retrieve_failure(check: asyncio.Task[None]) -> None:
    """Mark a failed revision check seen (it is logged) when no request waited for it."""
    if not check.cancelled():
        check.exception()


KEYS = KeyCache()


async def authenticate_api_key(key: str) -> Principal:
    """The principal of a live key, or :class:`Unauthenticated`; usually no statement at all."""
    digest = hash_secret(key)
    cached = await KEYS.principal(digest)
    if cached is not None:
        return cached
    generation = KEYS.generation
    rows = await ApiKey.raw(KEY_BY_HASH, digest)
    row = rows[0] if rows else None
    if row is None or not hmac.compare_digest(row["key_hash"], digest) or row["revoked_at"]:
        raise Unauthenticated("The API key is unknown or revoked", credential_sent=True)
    now = utcnow()
    last_used = row["last_used_at"]
    if last_used is None or now - last_used > LAST_USED_RESOLUTION:
        await ApiKey.update({ApiKey.last_used_at: now}).where(ApiKey.id == row["id"])
        last_used = now
    principal = Principal(
        organization_id=row["organization_id"],
        user_id=row["user_id"],
        scopes=frozenset(row["scopes"].split()),
        credential="api_key",
        credential_id=row["id"],
    )
    KEYS.store(digest, principal, last_used, generation)
    return principal
