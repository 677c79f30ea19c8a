"""Indexes an admission wrote for nothing (issue 26 item 3): three that a composite index of
2026-11-22T02:58 already serves, and the relay's index kept only for the rows it looks for.

- ``tickets_order_id``: ``tickets_order_sequence`` (order, sequence, id) serves every
  ``order_id`` condition, the cascade from orders included.
- ``scans_ticket_id``: ``scans_ticket_created`` (ticket, created_at, id) likewise.
- ``outbox_events_relayed_at`` and ``outbox_unrelayed`` (relayed_at, created_at): replaced by
  ``outbox_unrelayed`` on ``created_at`` for the unrelayed rows only, the relay's and the
  backlog metric's one condition (``relayed_at IS NULL``, oldest first). A row written relayed
  (an event nobody subscribes to, migration 2026-11-27T01:00) and the relay's mark then write no
  entry in it.

Every update of a ticket that is not HOT (an admission changes indexed columns) and every scan
log and outbox row wrote an entry in each of these. Each drop is the contract step of
2026-11-22T02:58, which added the composite indexes: the previous release reads through those
as well. PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-27T01:10:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "drop indexes served by composite ones; the relay's index only while unrelayed"
CONTRACTS = "2026-11-22T02:58:00:000000"

UNRELAYED = (
    "CREATE INDEX IF NOT EXISTS outbox_unrelayed_since ON outbox_events (created_at) "
    "WHERE relayed_at IS NULL"
)
DROPPED = {
    "tickets_order_id": "CREATE INDEX IF NOT EXISTS tickets_order_id ON tickets (order_id)",
    "scans_ticket_id": "CREATE INDEX IF NOT EXISTS scans_ticket_id ON scans (ticket_id)",
    "outbox_events_relayed_at": (
        "CREATE INDEX IF NOT EXISTS outbox_events_relayed_at ON outbox_events (relayed_at)"
    ),
    "outbox_unrelayed": (
        "CREATE INDEX IF NOT EXISTS outbox_unrelayed ON outbox_events (relayed_at, created_at)"
    ),
}
"""Each dropped index, and the statement that makes it again (the backwards step)."""


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        await db.run_ddl(UNRELAYED)
        for name in DROPPED:
            await db.run_ddl(f"DROP INDEX IF EXISTS {name}")

    async def revert() -> None:
        for create in DROPPED.values():
            await db.run_ddl(create)
        await db.run_ddl("DROP INDEX IF EXISTS outbox_unrelayed_since")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
