"""Webhooks that subscribers can operate (issue 13): secret rotation, attempts in flight, exhausted
deliveries, test events.

1. ``webhooks.previous_secret`` and ``previous_secret_expires_at``: after a rotation the old secret
   keeps signing (second signature) until it expires.
2. ``webhook_deliveries.attempt_started_at``: set while an attempt is in flight, so that an attempt
   cut short by a killed worker is recognised (and logged) when the delivery is taken up again.
3. Allowed values: a delivery may be ``exhausted`` (every retry failed), and the outbox holds
   ``webhook.test`` events (sent by ``POST /webhooks/{id}/test``). PostgreSQL: the CHECK
   constraints of migration 2026-11-23T00:40 are replaced; SQLite: its triggers are.
4. An attempt number is logged once per delivery (unique index).

Going back turns ``exhausted`` deliveries into ``failed`` ones and deletes the test events (and
their deliveries), which the earlier schema cannot hold.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-23T02:02:30:000000"
VERSION = "1.38.0"
DESCRIPTION = "webhook secret rotation, attempts in flight, exhausted deliveries, test events"

COLUMNS: list[tuple[str, str, str]] = [
    ("webhooks", "previous_secret", "VARCHAR(100)"),
    ("webhooks", "previous_secret_expires_at", "TIMESTAMPTZ"),
    ("webhook_deliveries", "attempt_started_at", "TIMESTAMPTZ"),
]
"""(table, column, type): nullable columns, NULL by default."""

BEFORE: dict[tuple[str, str], tuple[str, ...]] = {
    ("webhook_deliveries", "status"): ("pending", "delivered", "failed"),
    ("outbox_events", "event_type"): (
        "order.created", "order.confirmed", "ticket.scanned", "ticket.cancelled",
    ),
}  # fmt: skip
AFTER: dict[tuple[str, str], tuple[str, ...]] = {
    ("webhook_deliveries", "status"): ("pending", "delivered", "failed", "exhausted"),
    ("outbox_events", "event_type"): (
        "order.created", "order.confirmed", "ticket.scanned", "ticket.cancelled", "webhook.test",
    ),
}  # fmt: skip
"""(table, column) -> the values it may hold, before and after this migration."""

TEST_EVENTS = "SELECT id FROM outbox_events WHERE event_type = 'webhook.test'"
UNIQUE_ATTEMPTS = (
    "CREATE UNIQUE INDEX IF NOT EXISTS delivery_attempts_unique "
    "ON webhook_delivery_attempts (delivery_id, attempt)"
)


def _db() -> Engine:
    return Organization._meta.db


def _sqlite() -> bool:
    return _db().engine_type == "sqlite"


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def _replace_rule(table: str, column: str, values: tuple[str, ...]) -> None:
    """The rule ``{table}_{column}_allowed`` of migration 2026-11-23T00:40, with ``values``."""
    name = f"{table}_{column}_allowed"
    listed = ", ".join(f"'{value}'" for value in values)
    if not _sqlite():
        await _run(
            f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}",
            f"ALTER TABLE {table} ADD CONSTRAINT {name} "
            f"CHECK ({column} IS NULL OR {column} IN ({listed}))",
        )
        return
    condition = f"NEW.{column} IS NULL OR NEW.{column} IN ({listed})"
    abort = f"SELECT RAISE(ABORT, 'CHECK constraint failed: {name}');"
    await _run(
        f"DROP TRIGGER IF EXISTS {name}_insert",
        f"DROP TRIGGER IF EXISTS {name}_update",
        f"CREATE TRIGGER {name}_insert BEFORE INSERT ON {table} "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
        f"CREATE TRIGGER {name}_update BEFORE UPDATE OF {column} ON {table} "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
    )


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        for table, column, kind in COLUMNS:
            await _run(f"ALTER TABLE {table} ADD COLUMN {column} {kind} DEFAULT NULL")
        for (table, column), values in AFTER.items():
            await _replace_rule(table, column, values)
        await _run(UNIQUE_ATTEMPTS)

    async def revert() -> None:
        await _run(
            "DROP INDEX IF EXISTS delivery_attempts_unique",
            "UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'exhausted'",
            f"DELETE FROM webhook_delivery_attempts WHERE delivery_id IN "
            f"(SELECT id FROM webhook_deliveries WHERE event_id IN ({TEST_EVENTS}))",
            f"DELETE FROM webhook_deliveries WHERE event_id IN ({TEST_EVENTS})",
            f"DELETE FROM outbox_events WHERE id IN ({TEST_EVENTS})",
        )
        for (table, column), values in BEFORE.items():
            await _replace_rule(table, column, values)
        for table, column, _ in reversed(COLUMNS):
            await _run(f"ALTER TABLE {table} DROP COLUMN {column}")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
