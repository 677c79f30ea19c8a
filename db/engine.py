"""The Piccolo engine for the configured database, and a counter of the SQL statements it runs.

The counter is how tests prove that an operation costs a fixed number of round trips whatever the
size of its data (no query per item). It hooks asyncpg's query logger on every pooled PostgreSQL
connection, so BEGIN and COMMIT count too; the SQLite demo engine is not instrumented.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from piccolo.engine.base import Engine
from piccolo.engine.postgres import PostgresEngine
from piccolo.engine.sqlite import SQLiteEngine, SQLiteTransaction, TransactionType

from app.settings import Settings


class StatementCounter:
    """Counts statements while active; ``statements`` keeps their text for failure messages."""

    def __init__(self) -> None:
        self.active = False
        self.statements: list[str] = []

    def record(self, sql: str) -> None:
        if self.active:
            self.statements.append(sql)

    @property
    def count(self) -> int:
        return len(self.statements)


statement_counter = StatementCounter()


@contextmanager
def count_statements() -> Iterator[StatementCounter]:
    statement_counter.statements = []
    statement_counter.active = True
    try:
        yield statement_counter
    finally:
        statement_counter.active = False


def _log_asyncpg_query(record: Any) -> None:
    statement_counter.record(record.query)


async def _init_connection(connection: Any) -> None:
    connection.add_query_logger(_log_asyncpg_query)


async def _keep_session(connection: Any) -> None:
    """Pool release hook that sends nothing.

    asyncpg rolls back a forgotten transaction before calling it either way; what this skips is
    its default reset query (RESET ALL, UNLISTEN, advisory unlocks), one round trip after every
    pooled statement. The service keeps no session state: it never SETs, LISTENs or takes session
    advisory locks.
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


async def start_engine(engine: Engine) -> None:
    """Open the connection pool (PostgreSQL). SQLite opens a connection per statement; its file
    is switched to write-ahead logging, so that readers never wait for the writer."""
    if isinstance(engine, SQLiteEngine):
        await engine.run_ddl("PRAGMA journal_mode=WAL")
    if isinstance(engine, PostgresEngine):
        await engine.start_connection_pool(
            init=_init_connection, reset=_keep_session, min_size=2, max_size=20
        )


async def stop_engine(engine: Engine) -> None:
    if isinstance(engine, PostgresEngine):
        await engine.close_connection_pool()
