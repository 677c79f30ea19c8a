"""Readiness (CONTRACT.md section 13) and the gate that holds requests back while the database is
not migrated (``ticketing serve`` starts anyway, so that an orchestrator can run the migration
beside it; it answers 503 until then).

Each check is bounded by :data:`CHECK_TIMEOUT_SECONDS`: a dependency that hangs (accepts the
connection and never answers) makes the process not ready within about a second, not never.
Both the gate and ``/readyz`` use the one check of :func:`db.migrate.pending_migrations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from dataclasses import dataclass

import redis.asyncio as redis_asyncio

from app.errors import Unavailable
from app.runtime import stopping
from app.settings import Settings
from db.migrate import NOT_MIGRATED, MigrationInfo, pending_migrations

CHECK_TIMEOUT_SECONDS = 1.0
GATE_RECHECK_SECONDS = 1.0
OK = "ok"
STOPPING = "stopping"


def _failure(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer within {CHECK_TIMEOUT_SECONDS:g} s"
    return f"unavailable ({type(error).__name__})"


async def _bounded_pending() -> list[MigrationInfo]:
    async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
        return await pending_migrations()


@dataclass(frozen=True, slots=True)
class Readiness:
    checks: dict[str, str]
    """Each dependency's state: ``ok``, or what is wrong with it."""

    @property
    def ready(self) -> bool:
        return all(state == OK for state in self.checks.values())

    def failures(self) -> str:
        """``name: state`` of every failed check, for the problem's detail."""
        return "; ".join(f"{name}: {state}" for name, state in self.checks.items() if state != OK)


class MigrationGate:
    """Answers 503 while migrations are pending, re-checking at most once a second; once the
    database is current it stays open for the life of the process (migrations only move forward).
    When the database does not answer, requests go on and meet that themselves."""

    def __init__(self) -> None:
        self.current = False
        self._pending = False
        self._checked_at = -math.inf
        self._lock = asyncio.Lock()

    def record(self, pending: list[MigrationInfo]) -> None:
        self._pending = bool(pending)
        self.current = self.current or not pending

    async def is_open(self) -> bool:
        """Whether the database is current, looking again at most once a second until it is."""
        if self.current:
            return True
        async with self._lock:
            if not self.current and time.monotonic() - self._checked_at >= GATE_RECHECK_SECONDS:
                self._checked_at = time.monotonic()
                with contextlib.suppress(Exception):
                    self.record(await _bounded_pending())
        return self.current

    async def check(self) -> None:
        """Raise :class:`Unavailable` when the database has pending migrations."""
        if not await self.is_open() and self._pending:
            raise Unavailable(NOT_MIGRATED)


class ReadinessProbe:
    """The checks of ``/readyz`` for one process; :meth:`aclose` at shutdown."""

    def __init__(self, settings: Settings, gate: MigrationGate) -> None:
        self._gate = gate
        self._redis = (
            redis_asyncio.Redis.from_url(
                settings.redis_url,
                socket_timeout=CHECK_TIMEOUT_SECONDS,
                socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
            )
            if settings.redis_url
            else None
        )

    async def check(self) -> Readiness:
        """PostgreSQL, its migrations, and Redis when it is configured, checked at once; a
        process told to stop is not ready whatever they say (``process: stopping``), so that a
        load balancer asking on a connection still open sends nothing more to it."""
        (database, migrations), redis = await asyncio.gather(self._database(), self._check_redis())
        checks = {"database": database, "migrations": migrations}
        if redis is not None:
            checks["redis"] = redis
        if stopping.is_stopping():
            checks["process"] = STOPPING
        return Readiness(checks)

    async def _database(self) -> tuple[str, str]:
        """(database, migrations): one bounded read answers both."""
        try:
            pending = await _bounded_pending()
        except Exception as error:
            return _failure(error), "unknown: the database did not answer"
        self._gate.record(pending)
        if pending:
            return OK, f"{len(pending)} pending: {NOT_MIGRATED}"
        return OK, OK

    async def _check_redis(self) -> str | None:
        if self._redis is None:
            return None
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                await self._redis.ping()
        except Exception as error:
            return _failure(error)
        return OK

    async def aclose(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
