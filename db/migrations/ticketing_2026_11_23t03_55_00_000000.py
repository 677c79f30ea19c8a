"""Each subscription's share of the delivery workers (issue 13): deliveries handed out are marked.

1. ``webhook_deliveries.dispatched_at``: set when the dispatcher hands a delivery to a worker (an
   arq job, or a task of the in-process runner), cleared when its attempt is recorded or the
   hand-over is undone. A subscription's deliveries handed out and not finished are counted from
   it, so that the dispatcher hands out at most a share of them at once: a slow or dead endpoint
   never has more than its share queued or in flight, and costs the others nothing beyond it.
2. Two partial indexes: the deliveries handed out per subscription (the count), and the pending
   deliveries per subscription by due time (the dispatcher takes each subscription's most overdue
   ones, so that one subscription's backlog never sits in front of the others').
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T03:55:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "webhook deliveries handed out, per subscription"

INDEXES = (
    "CREATE INDEX IF NOT EXISTS deliveries_handed_out ON webhook_deliveries (webhook_id) "
    "WHERE status = 'pending' AND dispatched_at IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS deliveries_due_per_webhook "
    "ON webhook_deliveries (webhook_id, next_attempt_at) WHERE status = 'pending'",
)


async def _run(*statements: str) -> None:
    for statement in statements:
        await Organization._meta.db.run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _run(
            "ALTER TABLE webhook_deliveries ADD COLUMN dispatched_at TIMESTAMPTZ DEFAULT NULL",
            *INDEXES,
        )

    async def revert() -> None:
        await _run(
            "DROP INDEX IF EXISTS deliveries_due_per_webhook",
            "DROP INDEX IF EXISTS deliveries_handed_out",
            "ALTER TABLE webhook_deliveries DROP COLUMN dispatched_at",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
