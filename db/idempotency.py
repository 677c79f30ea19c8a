"""The SQL of idempotency keys (table ``idempotency_keys``, migration 2026-11-23T03:40).

Every statement but :func:`prune` runs in the request's transaction (``app.services.idempotency``):
the key's lock is taken there, the stored answer read there, and the new answer written there,
beside the change it answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from db.rows import postgres
from db.tables import Organization

PRUNE_CHUNK = 1000
"""Expired rows deleted per statement by :func:`prune`."""


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """What a request with this key answered, and the fingerprint of that request."""

    fingerprint: str
    status: int
    content_type: str | None
    location: str | None
    body: bytes


async def _sql(template: str, *args: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = await Organization.raw(template, *args)
    return rows


async def lock(credential: str, key: str) -> bool:
    """Take the key's lock for the rest of the current transaction, without waiting: ``False``
    when another transaction holds it (a request with this key is running).

    PostgreSQL: a transaction-level advisory lock on a 64-bit hash of the credential and key. It
    ends with the transaction, also when the server holding it dies (its connection closes), so
    a key is never left claimed by a request that no longer runs. SQLite: every transaction of
    the service takes the database's write lock when it begins (``BEGIN IMMEDIATE``), so the
    request's transaction already excludes every other; nothing more to take.
    """
    if not postgres():
        return True
    rows = await _sql(
        "SELECT pg_try_advisory_xact_lock(hashtextextended({}, 0)) AS locked",
        f"{credential}\n{key}",
    )
    return bool(rows[0]["locked"])


async def find(credential: str, key: str, now: datetime) -> StoredAnswer | None:
    """The unexpired answer stored for the key, if any."""
    rows = await _sql(
        "SELECT fingerprint, status, content_type, location, body FROM idempotency_keys "
        "WHERE credential = {} AND key = {} AND expires_at > {}",
        credential,
        key,
        now,
    )
    if not rows:
        return None
    row = rows[0]
    return StoredAnswer(
        fingerprint=row["fingerprint"],
        status=row["status"],
        content_type=row["content_type"],
        location=row["location"],
        body=bytes(row["body"]),
    )


async def store(
    organization_id: UUID,
    credential: str,
    key: str,
    answer: StoredAnswer,
    now: datetime,
    expires_at: datetime,
) -> None:
    """Store the key's answer; an expired row of the same key is replaced. Raises when an
    unexpired row exists (the key's lock makes that impossible), so that the transaction rolls
    back rather than answer twice."""
    stored = await _sql(
        "INSERT INTO idempotency_keys (id, organization_id, credential, key, fingerprint, "
        "status, content_type, location, body, created_at, expires_at) "
        "VALUES ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}) "
        "ON CONFLICT (credential, key) DO UPDATE SET organization_id = excluded.organization_id, "
        "fingerprint = excluded.fingerprint, status = excluded.status, "
        "content_type = excluded.content_type, location = excluded.location, "
        "body = excluded.body, created_at = excluded.created_at, "
        "expires_at = excluded.expires_at "
        "WHERE idempotency_keys.expires_at <= {} RETURNING id",
        uuid4(),
        organization_id,
        credential,
        key,
        answer.fingerprint,
        answer.status,
        answer.content_type,
        answer.location,
        answer.body,
        now,
        expires_at,
        now,
    )
    if not stored:
        raise RuntimeError("an unexpired answer is stored for this idempotency key already")


async def prune(now: datetime) -> int:
    """Delete keys expired at ``now``, a chunk per statement (through the ``expires_at``
    index); how many were deleted."""
    deleted = 0
    while True:
        rows = await _sql(
            "DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys "
            "WHERE expires_at <= {} LIMIT {}) RETURNING id",
            now,
            PRUNE_CHUNK,
        )
        deleted += len(rows)
        if len(rows) < PRUNE_CHUNK:
            return deleted
