"""An order runs again only when the tickets' foreign key refused a scan key retired meanwhile
(``app.services.scan_keys.retrying_retired_key``): a deadlock, or another constraint, surfaces
as it is, after one run. The integration side (a stale key refused, then the order placed with
the current key) is tests/scanning/test_signed_codes_api.py."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from app.services import scan_keys


def postgres_error(kind: type[asyncpg.PostgresError], code: str, **fields: str) -> BaseException:
    """An error as asyncpg builds it from the server's message."""
    return kind.new({"S": "ERROR", "C": code, "M": "from the server", **fields})


def sqlite_error(statement: str) -> sqlite3.IntegrityError:
    """The error SQLite itself raises for ``statement`` (a key table ``k`` and ``t`` naming it)."""
    database = sqlite3.connect(":memory:")
    database.execute("PRAGMA foreign_keys = 1")
    database.execute("CREATE TABLE k (id INTEGER PRIMARY KEY)")
    database.execute("CREATE TABLE t (id INTEGER UNIQUE, k INTEGER REFERENCES k (id))")
    database.execute("INSERT INTO k VALUES (1)")
    database.execute("INSERT INTO t VALUES (1, 1)")
    with pytest.raises(sqlite3.IntegrityError) as raised:
        database.execute(statement)
    return raised.value


RETRIED = [
    postgres_error(asyncpg.ForeignKeyViolationError, "23503", n=scan_keys.FOREIGN_KEY),
    sqlite_error("INSERT INTO t VALUES (2, 7)"),
]
SURFACED = [
    postgres_error(asyncpg.DeadlockDetectedError, "40P01"),
    postgres_error(asyncpg.ForeignKeyViolationError, "23503", n="tickets_order_id_fkey"),
    postgres_error(asyncpg.UniqueViolationError, "23505", n=scan_keys.FOREIGN_KEY),
    sqlite_error("INSERT INTO t VALUES (1, 1)"),
    RuntimeError(f"{scan_keys.FOREIGN_KEY}: a foreign key named in a message only"),
]


@pytest.mark.parametrize("error", RETRIED, ids=["postgresql", "sqlite"])
async def test_a_retired_key_refused_by_the_foreign_key_runs_the_order_again(
    error: BaseException,
) -> None:
    runs: list[int] = []

    @scan_keys.retrying_retired_key
    async def order() -> str:
        runs.append(1)
        if len(runs) == 1:
            raise error
        return "placed"

    assert await order() == "placed"
    assert len(runs) == 2


@pytest.mark.parametrize(
    "error", SURFACED, ids=["deadlock", "other-fk", "unique", "sqlite-unique", "message"]
)
async def test_anything_else_surfaces_after_one_run(error: BaseException) -> None:
    runs: list[int] = []

    @scan_keys.retrying_retired_key
    async def order() -> str:
        runs.append(1)
        raise error

    with pytest.raises(type(error)) as raised:
        await order()
    assert raised.value is error
    assert len(runs) == 1
