"""Idempotent requests (CONTRACT.md section 10): a key, its request's fingerprint, and the one
transaction in which the request runs and its answer is stored.

A request with a key runs in :func:`idempotent`: one database transaction that first takes the
key's lock (``db.idempotency.lock``: held by nobody else, or the request is answered 409 at once),
then reads the key's stored answer (a replay, or a 422 when the fingerprint differs), and
otherwise runs the request and writes its answer before it commits. The change and the answer
commit together or not at all, so a crash at any point leaves either both (the retry replays) or
neither (the retry runs, once). Why this design: docs/decisions.md, "Idempotency keys".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from app.errors import IdempotencyKeyInProgress, IdempotencyKeyReused, InvalidInput
from app.principal import Principal
from app.timeutil import utcnow
from db import idempotency
from db.idempotency import StoredAnswer
from db.transactions import request_transaction

HEADER = "Idempotency-Key"
LIFETIME = timedelta(hours=24)
"""How long a key's answer is kept (from its first use)."""
RETRY_AFTER_SECONDS = 1
_KEY = re.compile(r"[\x21-\x7e]{1,255}")


def parse_key(raw: str) -> str:
    """The key of an ``Idempotency-Key`` header: 1 to 255 visible ASCII characters, or a 400."""
    if not _KEY.fullmatch(raw):
        raise InvalidInput.field(HEADER, "must be 1 to 255 visible ASCII characters")
    return raw


def fingerprint(method: str, target: str, body: bytes) -> str:
    """What makes two requests the same: the method, the path with its query string (``target``)
    and the SHA-256 of the body's bytes."""
    body_digest = hashlib.sha256(body).hexdigest()
    return hashlib.sha256(f"{method} {target} {body_digest}".encode()).hexdigest()


def credential_of(principal: Principal) -> str:
    """Whose keys these are: the API key, or the OAuth client acting for its user (each token
    the pair is issued shares the keys, so that a refreshed token can retry)."""
    if principal.credential == "api_key":
        return f"api_key:{principal.credential_id}"
    return f"oauth:{principal.client_id}:{principal.user_id}"


def storable(status: int) -> bool:
    """Answers kept for the key: all but server errors and rate limiting (whose retry must run
    again)."""
    return status < 500 and status != 429


@dataclass
class Claim:
    """The key's state for this request: the stored answer to replay, or, to be set by the
    caller while the request runs, the request's own ``answer``."""

    replay: StoredAnswer | None
    fingerprint: str
    answer: StoredAnswer | None = None


class _Discard(Exception):
    """Rolls the request's transaction back: its answer is not kept (a 5xx, or none)."""


@asynccontextmanager
async def idempotent(principal: Principal, key: str, request: str) -> AsyncIterator[Claim]:
    """Run the block as the request with this key and fingerprint (``request``), once.

    Raises :class:`IdempotencyKeyInProgress` while another request with the key runs and
    :class:`IdempotencyKeyReused` when the key answered another request. Otherwise yields a
    :class:`Claim`: with ``replay`` set the block must answer that and run nothing; without, the
    block runs the request inside this transaction and sets ``claim.answer``, which is stored
    with the request's change when :func:`storable`, or else the change is rolled back.
    """
    credential = credential_of(principal)
    try:
        async with request_transaction():
            if not await idempotency.lock(credential, key):
                raise IdempotencyKeyInProgress(
                    "A request with this Idempotency-Key is still running; retry shortly",
                    retry_after=RETRY_AFTER_SECONDS,
                )
            stored = await idempotency.find(credential, key, utcnow())
            if stored is not None:
                if stored.fingerprint != request:
                    raise IdempotencyKeyReused(
                        "This Idempotency-Key was used for another request (method, path, "
                        "query or body differ); use a new key for a new request"
                    )
                yield Claim(replay=stored, fingerprint=request)
                return
            claim = Claim(replay=None, fingerprint=request)
            yield claim
            answer = claim.answer
            if answer is None or not storable(answer.status):
                raise _Discard
            now = utcnow()
            await idempotency.store(
                principal.organization_id, credential, key, answer, now, now + LIFETIME
            )
    except _Discard:
        pass


async def prune() -> int:
    """Delete the keys older than :data:`LIFETIME`; how many."""
    return await idempotency.prune(utcnow())
