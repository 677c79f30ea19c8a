"""Applying the Piccolo migrations from code (``ticketing migrate``, the demo, the tests), and the
one check of pending migrations that the command line, the request gate and ``/readyz`` share."""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

from piccolo.apps.migrations.commands.base import BaseMigrationManager
from piccolo.apps.migrations.commands.forwards import run_forwards
from piccolo.apps.migrations.tables import Migration
from piccolo.engine.postgres import PostgresEngine

from db.piccolo_app import APP_CONFIG

NOT_MIGRATED = "the database is not migrated: run `ticketing migrate`"
MIGRATION_LOCK_KEY = 0x7469636B6574  # "ticket": the PostgreSQL advisory lock of `migrate`


class MigrationError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class MigrationInfo:
    id: str
    description: str


@functools.cache
def known_migrations() -> tuple[MigrationInfo, ...]:
    """Every migration of the project, oldest first. Read once per process: the files do not
    change under it, and Piccolo's reader adds the folder to ``sys.path`` on every call."""
    manager = BaseMigrationManager()
    modules = manager.get_migration_modules(APP_CONFIG.resolved_migrations_folder_path)
    return tuple(
        MigrationInfo(migration_id, getattr(modules[migration_id], "DESCRIPTION", ""))
        for migration_id in manager.get_migration_ids(modules)
    )


async def pending_migrations() -> list[MigrationInfo]:
    """The migrations this database has not applied yet (all of them on an empty database)."""
    known = known_migrations()
    if not await Migration.table_exists():
        return list(known)
    applied = set(await Migration.get_migrations_which_ran(app_name=APP_CONFIG.app_name))
    return [migration for migration in known if migration.id not in applied]


@contextlib.asynccontextmanager
async def _migration_lock() -> AsyncIterator[None]:
    """Hold PostgreSQL's advisory lock of ``migrate`` in a transaction of its own, so that
    migrations started at once (``docker compose up --scale api=3``, a Job beside an old
    release's) run one after the other: the first applies them, the others wait and find nothing
    left. The lock is transaction-scoped (``pg_advisory_xact_lock``): through a pooler in
    transaction mode the transaction keeps its one server connection, where a session-level lock
    would stay behind on a server connection that the pooler hands to somebody else. It ends
    with the transaction, or with the connection if the command dies. SQLite serves one
    process."""
    engine = Migration._meta.db
    if not isinstance(engine, PostgresEngine):
        yield
        return
    connection = await engine.get_new_connection()
    try:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
            yield
    finally:
        await connection.close()


async def migrate() -> list[MigrationInfo]:
    """Apply every pending migration; return those applied (none: the database was current).

    Piccolo's own progress lines are kept out of the output (they miscount on a fresh database);
    they are part of the error when a migration fails.
    """
    async with _migration_lock():
        pending = await pending_migrations()
        if not pending:
            return []
        progress = io.StringIO()
        with contextlib.redirect_stdout(progress):
            result = await run_forwards(app_name=APP_CONFIG.app_name)
        if not result.success:
            raise MigrationError(f"{result.message}: {progress.getvalue().strip()}")
    return pending
