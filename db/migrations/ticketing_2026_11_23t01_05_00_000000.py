"""Credential revisions: one row whose number every API-key revocation raises.

Server processes cache key lookups and compare this number about once a second (see
``app/services/api_keys.py``). Plain SQL that PostgreSQL and SQLite share.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T01:05:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "credential revisions (API-key lookups cached per process)"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def create_table() -> None:
        db = Organization._meta.db
        await db.run_ddl(
            "CREATE TABLE credential_revisions "
            "(id INTEGER PRIMARY KEY, revision BIGINT NOT NULL DEFAULT 0)"
        )
        await db.run_ddl("INSERT INTO credential_revisions (id, revision) VALUES (1, 0)")

    async def drop_table() -> None:
        await Organization._meta.db.run_ddl("DROP TABLE IF EXISTS credential_revisions")

    manager.add_raw(create_table)
    manager.add_raw_backwards(drop_table)
    return manager
