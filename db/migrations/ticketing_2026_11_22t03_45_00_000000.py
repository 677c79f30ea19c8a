"""The index behind the due-delivery scan (``status = 'pending' AND next_attempt_at <= now``).

The in-process runner polls it every second and the arq worker's recovery scan once a minute;
without it both read the whole delivery log.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-22T03:45:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "index of due webhook deliveries"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def create_index() -> None:
        await Organization._meta.db.run_ddl(
            "CREATE INDEX IF NOT EXISTS deliveries_due "
            "ON webhook_deliveries (status, next_attempt_at)"
        )

    async def drop_index() -> None:
        await Organization._meta.db.run_ddl("DROP INDEX IF EXISTS deliveries_due")

    manager.add_raw(create_index)
    manager.add_raw_backwards(drop_index)
    return manager
