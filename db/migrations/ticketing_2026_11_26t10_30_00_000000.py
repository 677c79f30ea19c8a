"""The door view's latest scans (issue 24 item 14): the scan log read newest first per
organization.

``scans_organization_created`` on ``scans (organization_id, created_at)``: the door view lists an
event's latest attempts (admissions, refusals, repeats) from the scan log, newest first, walking
this index back from now and joining each attempt's ticket (``db/door.py``).

Plain SQL that PostgreSQL and SQLite share.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T10:30:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "the scan log newest first per organization"

INDEX = "scans_organization_created"
STATEMENTS = [f"CREATE INDEX {INDEX} ON scans (organization_id, created_at)"]


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
        await _run(f"DROP INDEX IF EXISTS {INDEX}")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
