"""A counter of the SQL statements the service runs, for tests that prove an operation costs a
fixed number of round trips whatever the size of its data (no query per item).

It hooks asyncpg's query logger on every pooled PostgreSQL connection of the test run (the
``database`` fixture installs it), so BEGIN and COMMIT count too. Production never has it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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
