"""Each organization's time zone (issue 24 item 14).

``organizations.timezone``: an IANA time zone name (``Europe/Amsterdam``), ``UTC`` unless an
operator sets another (``ticketing org set-timezone``); the dashboard shows times in it, with UTC
on hover. The API keeps answering in UTC.

Plain SQL that PostgreSQL and SQLite share.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T10:45:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "organizations' time zones"

STATEMENTS = ["ALTER TABLE organizations ADD COLUMN timezone VARCHAR(64) NOT NULL DEFAULT 'UTC'"]


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
        await _run("ALTER TABLE organizations DROP COLUMN timezone")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
