"""``ticketing listen`` (issue 27, CONTRACT.md section 18): an organization's events in order.

``outbox_events_org_created``: the events of one organization (a live one or its test twin) from
a point in time on, oldest first, which ``/listen`` reads each time it looks for new ones.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T13:20:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "listen: an organization's events in order"

INDEX = (
    "CREATE INDEX outbox_events_org_created ON outbox_events (organization_id, created_at, id)"
)


def _db() -> Engine:
    return Organization._meta.db


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _db().run_ddl(INDEX)

    async def revert() -> None:
        await _db().run_ddl("DROP INDEX IF EXISTS outbox_events_org_created")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
