"""Migrations a rolling deploy survives (docs/deployment.md): while nodes roll, the previous
release serves on the migrated database, so a migration only adds (tables, nullable or defaulted
columns, indexes). A statement that drops, renames, deletes or truncates fails this test unless
its migration says it is the contract step of an earlier expand (``CONTRACTS = "<id of the
expand>"``, released before it) or was written before this rule (``GRANDFATHERED = "why"``).

And ``db/tables.py`` says what the migrated PostgreSQL schema holds: every table, column, type and
nullability (issue 23 item 11)."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import re
import sys
from typing import Any

import pytest
from piccolo.columns import Column
from piccolo.table import Table

from db import tables
from db.migrate import known_migrations
from db.tables import TABLES
from tests.harness import empty_database

DESTRUCTIVE = re.compile(
    r"^\s*(DELETE\b|TRUNCATE\b|DROP\b)|\bDROP\s+(COLUMN|CONSTRAINT|TABLE|INDEX|VIEW)\b|\bRENAME\b",
    re.IGNORECASE,
)
RULE_SINCE = "2026-11-26T00:00:00:000000"
"""Migrations from this ID on cannot be grandfathered."""
CAPTURE = """
import asyncio, contextlib, io, json, sys
import asyncpg
from piccolo.apps.migrations.commands.forwards import run_forwards
from app.settings import load_settings
from db.engine import bind_engine, create_engine, start_engine, stop_engine
from db.migrate import known_migrations

statements = []
def log(record): statements.append(record.query)
async def hook(connection): connection.add_query_logger(log)
connect = asyncpg.connect
async def logged_connect(*args, **kwargs):
    connection = await connect(*args, **kwargs)
    connection.add_query_logger(log)
    return connection
asyncpg.connect = logged_connect

async def main():
    engine = create_engine(load_settings())
    bind_engine(engine)
    await start_engine(engine, on_connect=hook)
    seen = {}
    for migration in known_migrations():
        statements.clear()
        with contextlib.redirect_stdout(io.StringIO()):
            result = await run_forwards("ticketing", migration_id=migration.id)
        assert result.success, result.message
        seen[migration.id] = list(statements)
    await stop_engine(engine)
    sys.stdout.write(json.dumps(seen))
asyncio.run(main())
"""


@pytest.fixture(scope="module")
async def statements_by_migration() -> dict[str, list[str]]:
    """Every statement each migration ran, applying them one after the other to a fresh
    database."""
    async with empty_database() as url:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CAPTURE, env={**os.environ, "DATABASE_URL": url},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        output, errors = await asyncio.wait_for(process.communicate(), 180)
    assert process.returncode == 0, errors.decode()
    captured: dict[str, list[str]] = json.loads(output)
    return captured


def _module(migration_id: str) -> Any:
    name = "ticketing_" + migration_id.lower().replace("-", "_").replace(":", "_")
    return importlib.import_module(f"db.migrations.{name}")


REPLACED_RULE = re.compile(r"DROP CONSTRAINT (?:IF EXISTS )?(\w+)", re.IGNORECASE)


def destructive(statements: list[str]) -> list[str]:
    """The statements that take something away. A CHECK rule dropped and added again under its
    name in the same migration is replaced, not taken away (widening an allowed set needs it)."""
    added = " ".join(statements)

    def replaced(statement: str) -> bool:
        match = REPLACED_RULE.search(statement)
        return bool(match) and f"ADD CONSTRAINT {match[1]} " in added

    return [s for s in statements if DESTRUCTIVE.search(s) and not replaced(s)]


def test_the_rule_sees_what_drops_renames_or_deletes() -> None:
    assert destructive(
        [
            "ALTER TABLE orders DROP COLUMN note",
            "ALTER TABLE orders RENAME COLUMN a TO b",
            "DELETE FROM scans WHERE true",
            "DROP INDEX orders_created",
            "TRUNCATE outbox_events",
        ]
    ) == [
        "ALTER TABLE orders DROP COLUMN note",
        "ALTER TABLE orders RENAME COLUMN a TO b",
        "DELETE FROM scans WHERE true",
        "DROP INDEX orders_created",
        "TRUNCATE outbox_events",
    ]
    assert (
        destructive(["ALTER TABLE orders ADD COLUMN note TEXT NULL", "CREATE INDEX x ON t (a)"])
        == []
    )


async def test_migrations_only_add_unless_they_contract_an_earlier_expand(
    statements_by_migration: dict[str, list[str]],
) -> None:
    ids = [migration.id for migration in known_migrations()]
    assert list(statements_by_migration) == ids
    unmarked = []
    for migration_id, statements in statements_by_migration.items():
        found = destructive(statements)
        if not found:
            continue
        module = _module(migration_id)
        expand = getattr(module, "CONTRACTS", None)
        reason = getattr(module, "GRANDFATHERED", None)
        if expand is not None:
            assert expand in ids and expand < migration_id, (migration_id, expand)
        elif reason is not None:
            assert migration_id < RULE_SINCE, (
                f"{migration_id}: new migrations cannot be grandfathered"
            )
            assert len(reason) > 40, f"{migration_id}: say why it was allowed"
        else:
            unmarked.append(f"{migration_id}: {found[0]}")
    assert unmarked == []


DECLARED = [
    value
    for value in vars(tables).values()
    if isinstance(value, type) and issubclass(value, Table) and value.__module__ == tables.__name__
]
"""Every table class of ``db/tables.py``."""
PICCOLO_TYPES = {
    "UUID": "uuid",
    "VARCHAR": "character varying",
    "TEXT": "text",
    "INTEGER": "integer",
    "BIGINT": "bigint",
    "SMALLINT": "smallint",
    "BOOLEAN": "boolean",
    "TIMESTAMPTZ": "timestamp with time zone",
    "TIMESTAMP": "timestamp without time zone",
    "DATE": "date",
    "NUMERIC": "numeric",
    "JSON": "json",
    "JSONB": "jsonb",
    "BYTEA": "bytea",
    "DOUBLE PRECISION": "double precision",
    "REAL": "real",
    "SERIAL": "integer",
    "BIGSERIAL": "bigint",
}


def _declared(column: Column) -> tuple[str, bool]:
    column_type = column.column_type.split("(")[0].strip().upper()
    if column_type.endswith("[]"):
        return "ARRAY", column._meta.null
    return PICCOLO_TYPES.get(column_type, column_type.lower()), column._meta.null


async def test_the_tables_module_is_the_migrated_schema(database: Any) -> None:
    rows = await database.run_ddl(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name <> 'migration'"
    )
    migrated = {
        (row["table_name"], row["column_name"]): (row["data_type"], row["is_nullable"] == "YES")
        for row in rows
    }
    declared = {
        (table._meta.tablename, column._meta.db_column_name): _declared(column)
        for table in DECLARED
        for column in table._meta.columns
    }
    assert set(DECLARED) == set(TABLES), "every table class is in TABLES"
    assert {t for t, _ in declared} == {t for t, _ in migrated}, "tables"
    assert sorted(set(declared) - set(migrated)) == [], "columns declared but not migrated"
    assert sorted(set(migrated) - set(declared)) == [], "columns migrated but not declared"
    differing = {
        place: (declared[place], migrated[place])
        for place in declared
        if declared[place] != migrated[place]
    }
    assert differing == {}, "(declared type, null) != (migrated type, null)"
