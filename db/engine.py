"""The Piccolo engine for the configured database, bound once by the composition root.

``create_app``, the worker and the command line each build the engine from the settings they
were given (:func:`create_engine`) and bind it (:func:`bind_engine`): every table, and Piccolo's
migration runner (which finds its engine in ``db.piccolo_conf``), then use it. Piccolo keeps the
engine on the table classes, so one process has one database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from asyncpg import Pool
from piccolo.apps.migrations.tables import Migration
from piccolo.engine.base import Engine
from piccolo.engine.postgres import PostgresEngine
from piccolo.engine.sqlite import SQLiteEngine, SQLiteTransaction, TransactionType
from piccolo.table import Table

from app.settings import Settings
from db.tables import TABLES

ConnectionHook = Callable[[Any], Awaitable[None]]

_bound: Engine[Any] | None = None

CONNECT_TIMEOUT_SECONDS = 5.0
"""Bounds opening one PostgreSQL connection (asyncpg's default is a minute)."""
POOL_MAX_SIZE = 20
STATEMENT_CACHE_SIZE = 100
"""asyncpg's default. A transaction pooler that cannot carry named prepared statements (PgBouncer
before 1.21) needs 0: asyncpg then prepares each statement unnamed, in the same round trips."""
STOP_TIMEOUT_SECONDS = 5.0


async def _keep_session(connection: Any) -> None:
    """Pool release hook that sends nothing.

    asyncpg rolls back a forgotten transaction before calling it either way; what this skips is
    its default reset query (RESET ALL, UNLISTEN, advisory unlocks), one round trip after every
    pooled statement. The service keeps no session state, so that it works through a pooler in
    transaction mode (PgBouncer): it never SETs, LISTENs (``workers.outbox_listener`` has a
    connection of its own) or takes session-level advisory locks (``db.migrate``'s lock is
    transaction-scoped).
    """


class ImmediateSQLiteEngine(SQLiteEngine):
    """SQLite whose transactions take the write lock when they begin (``BEGIN IMMEDIATE``).

    With SQLite's default deferred transactions, two that read and then write deadlock on the
    upgrade, and SQLite fails one at once, whatever the busy timeout. Immediate transactions
    queue for the lock instead (up to the timeout), which is what concurrent requests need.
    """

    def transaction(
        self,
        transaction_type: TransactionType = TransactionType.immediate,
        allow_nested: bool = True,
    ) -> SQLiteTransaction:
        return super().transaction(transaction_type=transaction_type, allow_nested=allow_nested)


class LazyPostgresEngine(PostgresEngine):
    """PostgreSQL, connected only when first used.

    Piccolo's engine checks the server's version over a connection of its own when it is built;
    against a database that accepts connections and never answers, that blocks the start of
    every command until the connect timeout. The service needs no extension either (ids come
    from ``gen_random_uuid`` or Python).
    """

    def __init__(
        self,
        dsn: str,
        pool_size: int = POOL_MAX_SIZE,
        statement_cache_size: int = STATEMENT_CACHE_SIZE,
    ) -> None:
        super().__init__(
            config={
                "dsn": dsn,
                "timeout": CONNECT_TIMEOUT_SECONDS,
                "statement_cache_size": statement_cache_size,
            },
            extensions=(),
        )
        self.pool_size = pool_size

    async def check_version(self) -> None:
        """Skipped: see the class docstring."""


def create_engine(settings: Settings) -> Engine[Any]:
    if settings.is_sqlite:
        return ImmediateSQLiteEngine(path=settings.sqlite_path, timeout=30)
    return LazyPostgresEngine(
        settings.database_url,
        settings.database_pool_size,
        settings.database_statement_cache_size,
    )


def bind_engine(engine: Engine[Any]) -> None:
    """Make ``engine`` the one that every table and Piccolo's migration runner use."""
    global _bound
    _bound = engine
    tables: list[type[Table]] = [*TABLES, Migration]
    for table in tables:
        table._meta.db = engine


def bound_engine() -> Engine[Any] | None:
    """The engine bound by the composition root, if any."""
    return _bound


async def start_engine(engine: Engine[Any], *, on_connect: ConnectionHook | None = None) -> None:
    """Open the connection pool (PostgreSQL), calling ``on_connect`` on each new connection.
    SQLite opens a connection per statement; its file is switched to write-ahead logging, so
    that readers never wait for the writer.

    The pool opens its connections as requests need them (``min_size=0``): a process whose
    database is down or hung starts anyway, answers ``/healthz`` and says in ``/readyz`` what is
    missing, instead of failing or hanging at start-up.
    """
    if isinstance(engine, SQLiteEngine):
        await engine.run_ddl("PRAGMA journal_mode=WAL")
    if isinstance(engine, PostgresEngine):
        await engine.start_connection_pool(
            init=on_connect,
            reset=_keep_session,
            min_size=0,
            max_size=getattr(engine, "pool_size", POOL_MAX_SIZE),
        )


def postgres_pool(engine: Engine[Any]) -> Pool | None:
    """The started connection pool of ``engine`` when it is PostgreSQL's, else ``None`` (SQLite,
    or the pool not started: ``start_engine``)."""
    return engine.pool if isinstance(engine, PostgresEngine) else None


def pool_usage(engine: Engine[Any]) -> tuple[int, int] | None:
    """(open, in use) connections of the PostgreSQL pool; ``None`` without a pool."""
    pool = postgres_pool(engine)
    if pool is None:
        return None
    return pool.get_size(), pool.get_size() - pool.get_idle_size()


async def stop_engine(engine: Engine[Any]) -> None:
    """Close the pool, waiting a bounded time for connections still checked out (a request
    cancelled at shutdown can hold one); then close them at once, so that a process always
    ends."""
    if not isinstance(engine, PostgresEngine) or engine.pool is None:
        return
    pool = engine.pool
    try:
        await asyncio.wait_for(engine.close_connection_pool(), STOP_TIMEOUT_SECONDS)
    except TimeoutError:
        pool.terminate()
        engine.pool = None
