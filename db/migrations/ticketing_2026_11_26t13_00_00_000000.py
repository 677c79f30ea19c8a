"""Test mode (issue 27, CONTRACT.md section 18): every organization's test twin.

1. ``organizations.live_organization_id``: set on a test twin, the live organization it belongs
   to (null on a live organization); unique, so an organization has at most one twin, made on
   first use with ``INSERT ... ON CONFLICT DO NOTHING`` (``organizations_live_twin``).
2. ``dashboard_sessions.test_mode``: the dashboard's live / test switch; while true the session
   acts as the twin of its organization.

Plain SQL that PostgreSQL and SQLite share.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T13:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "test mode: organizations' test twins, the dashboard's test switch"

STATEMENTS = [
    "ALTER TABLE organizations ADD COLUMN live_organization_id UUID NULL "
    "REFERENCES organizations (id) ON DELETE CASCADE",
    "CREATE UNIQUE INDEX organizations_live_twin ON organizations (live_organization_id)",
    "ALTER TABLE dashboard_sessions ADD COLUMN test_mode BOOLEAN NOT NULL DEFAULT false",
]


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
        await _run(
            "ALTER TABLE dashboard_sessions DROP COLUMN test_mode",
            "DROP INDEX IF EXISTS organizations_live_twin",
            "ALTER TABLE organizations DROP COLUMN live_organization_id",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
