"""OAuth applications an admin can disable (issue 24 item 8).

``oauth_clients.disabled_at``: set while the application is disabled: the token endpoint and the
authorize step refuse it, and its access tokens are refused on every request (the family check
joins its client). Null when it works.

Plain SQL that PostgreSQL and SQLite share.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T10:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "OAuth applications can be disabled"

STATEMENTS = ["ALTER TABLE oauth_clients ADD COLUMN disabled_at TIMESTAMPTZ NULL"]


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _run(*STATEMENTS)

    async def revert() -> None:
        await _run("ALTER TABLE oauth_clients DROP COLUMN disabled_at")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
