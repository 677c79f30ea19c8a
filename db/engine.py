"""The Piccolo engine for the configured database, bound once by the composition root.

``create_app``, the worker and the command line each build the engine from the settings they
were given (:func:`create_engine`) and bind it (:func:`bind_engine`): every table, and Piccolo's
migration runner (which finds its engine in ``db.piccolo_conf``), then use it. Piccolo keeps the
engine on the table classes, so one process has one database.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from piccolo.apps.migrations.tables import Migration
from piccolo.engine.base import Engine
from piccolo.engine.postgres import PostgresEngine
from piccolo.engine.sqlite import SQLiteEngine, SQLiteTransaction, TransactionType

from app.settings import Settings
from db.tables import TABLES

ConnectionHook = Callable[[Any], Awaitable[None]]

_bound: Engine | None = None


async def _keep_session(connection: Any) -> None:
    """Pool release hook that sends nothing.

    asyncpg rolls back a forgotten transaction before calling it either way; what this skips is
    its default reset query (RESET ALL, UNLISTEN, advisory unlocks), one round trip after every
    pooled statement. The service keeps no session state: it never SETs, LISTENs or takes session
    advisory locks on pooled connections.
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


def create_engine(settings: Settings) -> Engine:
    if settings.is_sqlite:
        return ImmediateSQLiteEngine(path=settings.sqlite_path, timeout=30)
    return PostgresEngine(config={"dsn": settings.database_url})


def bind_engine(engine: Engine) -> None:
    """Make ``engine`` the one that every table and Piccolo's migration runner use."""
    global _bound
    _bound = engine
    for table in (*TABLES, Migration):
        table._meta.db = engine


def bound_engine() -> Engine | None:
    """The engine bound by the composition root, if any."""
    return _bound


async def start_engine(engine: Engine, *, on_connect: ConnectionHook | None = None) -> None:
    """Open the connection pool (PostgreSQL), calling ``on_connect`` on each new connection.
    SQLite opens a connection per statement; its file is switched to write-ahead logging, so
    that readers never wait for the writer."""
    if isinstance(engine, SQLiteEngine):
        await engine.run_ddl("PRAGMA journal_mode=WAL")
    if isinstance(engine, PostgresEngine):
        await engine.start_connection_pool(
            init=on_connect, reset=_keep_session, min_size=2, max_size=20
        )


async def stop_engine(engine: Engine) -> None:
    if isinstance(engine, PostgresEngine):
        await engine.close_connection_pool()
