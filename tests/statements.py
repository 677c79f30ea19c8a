"""A counter of the SQL statements the service runs, for tests that prove an operation costs a
fixed number of round trips whatever the size of its data (no query per item).

It hooks asyncpg's query logger on every pooled PostgreSQL connection of the test run (the
``database`` fixture installs it), so BEGIN and COMMIT count too. Production never has it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from app.services import api_keys

NOT_THE_OPERATION = (
    "typeinfo_tree",
    "set_config('jit'",
    api_keys.REVISION,
    'UPDATE "api_keys" SET "last_used_at"',
    "INSERT INTO request_log",
    "DELETE FROM request_log",
)
"""Statements a counted operation may meet that are not its own: asyncpg's introspection of a
type, once per connection (and JIT switched off around it), and the server process's credential
revision check and batched ``last_used_at`` write (``app/services/api_keys.py``), which run at
most once a second in a task of their own, whatever the operation, and the request log's batches and
prunes (``app/services/request_log.py``), written by a task of their own after earlier requests."""


class StatementCounter:
    """Counts statements while active; ``statements`` keeps their text for failure messages."""

    def __init__(self) -> None:
        self.active = False
        self.statements: list[str] = []

    def record(self, sql: str) -> None:
        if self.active and not any(text in sql for text in NOT_THE_OPERATION):
            self.statements.append(sql)

    @property
    def count(self) -> int:
        return len(self.statements)


statement_counter = StatementCounter()


def _log_query(record: Any) -> None:
    statement_counter.record(record.query)


async def install_counter(connection: Any) -> None:
    """Connection hook (``db.engine.start_engine(on_connect=...)``) feeding the counter."""
    connection.add_query_logger(_log_query)


@contextmanager
def count_statements() -> Iterator[StatementCounter]:
    statement_counter.statements = []
    statement_counter.active = True
    try:
        yield statement_counter
    finally:
        statement_counter.active = False
