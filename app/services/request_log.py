"""The request log of each credential (CONTRACT.md section 18): the last 1,000 requests of an
API key or an OAuth token over 7 days, for its owners to read in the dashboard.

A request is only noted in memory (:func:`note`); a task of this process writes what was noted
in one statement per batch, once a batch is full or :data:`WRITE_AFTER` after the last one, so
the request never waits for the log and a busy process writes a batch a second rather than one
every few requests. Each credential written is then pruned to its last
:data:`KEEP` entries, at most once per :data:`PRUNE_EVERY` per process, and entries older than
:data:`KEEP_FOR` go with the same period. What a row holds is fixed here: the method, the path
(never the query string), the status, the duration, the request id and the ``Idempotency-Key``:
never a body, a query value or a secret. Entries noted but not yet written when the process
stops are lost (a log, not a record).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta
from uuid import UUID, uuid4

from app.errors import InvalidInput, NotFound
from app.principal import Principal, requires
from app.schemas.request_log import RequestLogRecord
from app.timeutil import utcnow
from db import request_log as db_request_log
from db.availability import unavailable
from db.tables import ApiKey, RequestLogEntry

KEEP = 1000
KEEP_FOR = timedelta(days=7)
PRUNE_EVERY = 60.0
"""Seconds between two prunes of one credential (and of old entries) by one process."""
BATCH = 500
"""Entries per INSERT."""
WRITE_AFTER = 1.0
"""Seconds an entry waits in memory for others to share its statement (a flush does not wait):
at 16 concurrent requests a process wrote a batch of about 5 every few milliseconds, a round trip
and a statement of PostgreSQL for every few requests."""
STATUS_CLASSES = ("2xx", "3xx", "4xx", "5xx")
logger = logging.getLogger("ticketing.request_log")


class Noted(RequestLogRecord, kw_only=True):
    """A request noted for the log: the entry its credential's owners read, and whose it is."""

    organization_id: UUID
    credential_id: UUID


class RequestLog:
    """This process's entries not yet written, and the task writing them."""

    def __init__(self) -> None:
        self._noted: list[Noted] = []
        self._writer: asyncio.Task[None] | None = None
        self._flushing: asyncio.Event | None = None
        self._pruned: dict[UUID, float] = {}
        self._old_pruned = float("-inf")

    def note(self, entry: Noted) -> None:
        self._noted.append(entry)
        if self._writer is None:
            self._flushing = asyncio.Event()
            self._writer = asyncio.create_task(self._write(self._flushing))

    async def flush(self) -> None:
        """Write what was noted so far, now, and wait until it is written (tests, shutdown)."""
        while self._writer is not None:
            if self._flushing is not None:
                self._flushing.set()
            await asyncio.shield(self._writer)

    async def _write(self, flushing: asyncio.Event) -> None:
        try:
            while self._noted:
                if len(self._noted) < BATCH:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(WRITE_AFTER):
                            await flushing.wait()
                noted, self._noted = self._noted[:BATCH], self._noted[BATCH:]
                await _insert(noted)
                await self._prune({entry.credential_id for entry in noted})
        except Exception as error:
            # A database going away (or closing at shutdown) is one line, as everywhere else.
            logger.warning(
                "could not write the request log: %s", error, exc_info=not unavailable(error)
            )
            self._noted.clear()
        finally:
            self._writer = None

    async def _prune(self, credentials: set[UUID]) -> None:
        now = time.monotonic()
        for credential in credentials:
            if now - self._pruned.get(credential, float("-inf")) >= PRUNE_EVERY:
                self._pruned[credential] = now
                await db_request_log.prune_credential(credential, KEEP)
        if now - self._old_pruned >= PRUNE_EVERY:
            self._old_pruned = now
            self._pruned = {c: t for c, t in self._pruned.items() if now - t < PRUNE_EVERY}
            await db_request_log.prune_older_than(utcnow() - KEEP_FOR)


async def _insert(noted: list[Noted]) -> None:
    await db_request_log.insert_entries(
        [
            (
                uuid4(),
                entry.organization_id,
                entry.credential_id,
                entry.method,
                entry.path[:500],
                entry.status,
                entry.duration_ms,
                entry.request_id[:200],
                entry.idempotency_key[:255] if entry.idempotency_key else None,
                entry.created_at,
            )
            for entry in noted
        ]
    )


LOG = RequestLog()


def note(
    principal: Principal,
    method: str,
    path: str,
    status: int,
    duration_ms: float,
    request_id: str,
    idempotency_key: str | None,
) -> None:
    """Log one request of a bearer credential (a dashboard session's are not logged)."""
    if principal.credential == "session":
        return
    entry = (utcnow(), method, path, status, duration_ms, request_id, idempotency_key)
    LOG.note(
        Noted(
            *entry, organization_id=principal.organization_id, credential_id=principal.credential_id
        )
    )


@requires(None)
async def requests_of_key(
    principal: Principal, key_id: UUID, status: str = ""
) -> list[RequestLogRecord]:
    """The logged requests of one of the organization's API keys, newest first; ``status``:
    ``2xx`` to ``5xx``, or empty for all. A person in the dashboard reads them."""
    principal.require_person()
    if status and status not in STATUS_CLASSES:
        raise InvalidInput.field("status", f"must be one of {', '.join(STATUS_CLASSES)}")
    if not await ApiKey.exists().where(
        ApiKey.id == key_id, ApiKey.organization_id == principal.organization_id
    ):
        raise NotFound.resource("API key", key_id)
    query = (
        RequestLogEntry.select(
            RequestLogEntry.created_at,
            RequestLogEntry.method,
            RequestLogEntry.path,
            RequestLogEntry.status,
            RequestLogEntry.duration_ms,
            RequestLogEntry.request_id,
            RequestLogEntry.idempotency_key,
        )
        .where(
            RequestLogEntry.credential_id == key_id,
            RequestLogEntry.created_at >= utcnow() - KEEP_FOR,
        )
        .order_by(RequestLogEntry.created_at, ascending=False)
        .order_by(RequestLogEntry.id, ascending=False)
        .limit(KEEP)
    )
    if status:
        low = int(status[0]) * 100
        query = query.where(RequestLogEntry.status >= low, RequestLogEntry.status < low + 100)
    return [RequestLogRecord(**row) for row in await query]
