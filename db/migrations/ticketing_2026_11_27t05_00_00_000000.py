"""No index on the scan log's ``scanner_id`` (issue 26 item 3; docs/decisions.md, "The scan log's
ids are not foreign-key constraints").

The index served the foreign key's cascade from ``scanners``, which migration 2026-11-27T01:20
dropped on PostgreSQL; nothing deletes a scanner, and no statement filters or sorts the scan log
by ``scanner_id`` (the dashboard's door view joins the scanner by its primary key). Each scan
still paid for the index: one more B-tree insert per row of the log.

Both engines: ``db/tables.py`` says what the migrated schema holds. The previous release reads
nothing through it, so the drop is the contract step of the migration that made it.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-27T05:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "no index on the scan log's scanner_id"
CONTRACTS = "2026-11-22T02:56:46:335013"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        await db.run_ddl("DROP INDEX IF EXISTS scans_scanner_id")

    async def revert() -> None:
        await db.run_ddl("CREATE INDEX IF NOT EXISTS scans_scanner_id ON scans (scanner_id)")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
