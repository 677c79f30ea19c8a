"""The database refuses a status or kind that the service does not know, and a scanner profile's
targets are real foreign keys.

1. Allowed values of every status and kind column (:data:`ALLOWED`, the values of the schemas'
   ``Literal`` types at this migration; a later value needs a migration of its own).
2. ``scanner_profile_targets`` loses its free ``(kind, target_id)`` pair for three nullable
   foreign keys, ``event_id``, ``ticket_type_id`` and ``timeslot_id`` (``ON DELETE CASCADE``:
   deleting an event, ticket type or timeslot removes it from every profile), of which exactly
   one is set. Existing rows move to the column of their kind; a row whose target no longer
   exists is deleted (it could not be represented, and it admitted nothing).

How, on each engine:

- PostgreSQL: ``ALTER TABLE ... ADD CONSTRAINT ... CHECK``; existing rows are checked.
- SQLite cannot add a CHECK constraint to an existing table. The alternatives were rebuilding
  each table (create a copy with the constraint, copy the rows, drop, rename, and re-create every
  index of two earlier migrations, with foreign keys switched off around it: six tables
  re-declared by hand for a demo database) or triggers. We use triggers: a ``BEFORE INSERT`` and a
  ``BEFORE UPDATE OF`` the column per rule, each ``RAISE(ABORT, 'CHECK constraint failed: ...')``,
  so the same writes fail with the same error class (``sqlite3.IntegrityError``) as a CHECK
  constraint would; existing rows are checked once here. The foreign keys need no trick: SQLite's
  ``ALTER TABLE ADD COLUMN`` takes a ``REFERENCES`` clause when the default is NULL, and
  ``DROP COLUMN`` (SQLite 3.35+) removes the old pair.
"""

from __future__ import annotations

import re

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-23T00:40:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "allowed statuses and kinds; scanner profile targets as foreign keys"
GRANDFATHERED = (
    "written before migrations had to survive a rolling deploy (docs/deployment.md): it deletes "
    "the scanner profile targets that point nowhere and drops their (kind, target_id) columns in "
    "the release whose code stopped reading them, so a release rolling over it must stop the "
    "nodes of the release before first; every later migration expands, and contracts only a "
    "release after"
)

ALLOWED: dict[tuple[str, str], tuple[str, ...]] = {
    ("tickets", "status"): ("valid", "scanned", "cancelled"),
    ("orders", "status"): ("pending", "confirmed", "cancelled"),
    ("orders", "channel"): ("online", "box_office", "reseller", "api"),
    ("orders", "payment_method"): (
        "card", "ideal", "paypal", "bank_transfer", "cash", "invoice", "free",
    ),
    ("scans", "status"): ("valid", "scanned", "cancelled", "not_allowed"),
    ("scans", "reason"): (
        "scanner_inactive", "event_not_allowed", "ticket_type_not_allowed",
        "timeslot_not_allowed", "too_early", "too_late", "order_not_confirmed", "cancelled",
        "already_scanned",
    ),
    ("webhook_deliveries", "status"): ("pending", "delivered", "failed"),
    ("outbox_events", "event_type"): (
        "order.created", "order.confirmed", "ticket.scanned", "ticket.cancelled",
    ),
}  # fmt: skip
"""(table, column) -> the values it may hold (NULL stays allowed where the column allows it)."""

TARGETS = "scanner_profile_targets"
TARGET_COLUMNS: dict[str, tuple[str, str]] = {
    "event": ("event_id", "events"),
    "ticket_type": ("ticket_type_id", "ticket_types"),
    "timeslot": ("timeslot_id", "timeslots"),
}
"""The old ``kind`` -> the new column and the table it references."""
ONE_TARGET = " + ".join(
    f"CASE WHEN {column} IS NULL THEN 0 ELSE 1 END" for column, _ in TARGET_COLUMNS.values()
)
ONE_TARGET_RULE = (
    TARGETS,
    "one_target",
    f"{ONE_TARGET} = 1",
    [c for c, _ in TARGET_COLUMNS.values()],
)


def _rules() -> list[tuple[str, str, str, list[str]]]:
    """(table, rule name, condition every row must meet, the columns it reads)."""
    rules = []
    for (table, column), values in ALLOWED.items():
        listed = ", ".join(f"'{value}'" for value in values)
        rules.append(
            (table, f"{column}_allowed", f"{column} IS NULL OR {column} IN ({listed})", [column])
        )
    return [*rules, ONE_TARGET_RULE]


def _db() -> Engine:
    return Organization._meta.db


def _sqlite() -> bool:
    return _db().engine_type == "sqlite"


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def _add_rules() -> None:
    for table, rule, condition, columns in _rules():
        name = f"{table}_{rule}"
        if not _sqlite():
            await _run(f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({condition})")
            continue
        bad = await Organization.raw(f"SELECT 1 FROM {table} WHERE NOT ({condition}) LIMIT 1")
        if bad:
            raise ValueError(f"{table} has rows that break {name}; fix them, then migrate again")
        abort = f"SELECT RAISE(ABORT, 'CHECK constraint failed: {name}');"
        await _run(
            f"CREATE TRIGGER {name}_insert BEFORE INSERT ON {table} "
            f"WHEN NOT ({_new(condition, columns)}) BEGIN {abort} END",
            f"CREATE TRIGGER {name}_update BEFORE UPDATE OF {', '.join(columns)} ON {table} "
            f"WHEN NOT ({_new(condition, columns)}) BEGIN {abort} END",
        )


def _new(condition: str, columns: list[str]) -> str:
    """``condition`` on the row being written (``NEW.column``), for a trigger."""
    for column in columns:
        condition = re.sub(rf"\b{column}\b", f"NEW.{column}", condition)
    return condition


async def _drop_rules() -> None:
    for table, rule, _condition, _columns in _rules():
        name = f"{table}_{rule}"
        if _sqlite():
            await _run(
                f"DROP TRIGGER IF EXISTS {name}_insert", f"DROP TRIGGER IF EXISTS {name}_update"
            )
        else:
            await _run(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}")


async def _targets_to_foreign_keys() -> None:
    for kind, (column, referenced) in TARGET_COLUMNS.items():
        await _run(
            f"ALTER TABLE {TARGETS} ADD COLUMN {column} UUID REFERENCES {referenced} (id) "
            "ON DELETE CASCADE ON UPDATE CASCADE DEFAULT NULL",
            f"UPDATE {TARGETS} SET {column} = target_id "
            f"WHERE kind = '{kind}' AND target_id IN (SELECT id FROM {referenced})",
            f"CREATE UNIQUE INDEX profile_targets_{column} ON {TARGETS} ({column}, profile_id) "
            f"WHERE {column} IS NOT NULL",
        )
    await _run(
        f"DELETE FROM {TARGETS} WHERE {ONE_TARGET} = 0",
        "DROP INDEX IF EXISTS profile_targets_unique",
        f"ALTER TABLE {TARGETS} DROP COLUMN kind",
        f"ALTER TABLE {TARGETS} DROP COLUMN target_id",
    )


async def _targets_to_kind_and_id() -> None:
    await _run(
        f"ALTER TABLE {TARGETS} ADD COLUMN kind VARCHAR(12) NOT NULL DEFAULT ''",
        f"ALTER TABLE {TARGETS} ADD COLUMN target_id UUID DEFAULT NULL",
    )
    for kind, (column, _referenced) in TARGET_COLUMNS.items():
        await _run(
            f"UPDATE {TARGETS} SET kind = '{kind}', target_id = {column} "
            f"WHERE {column} IS NOT NULL",
            f"DROP INDEX IF EXISTS profile_targets_{column}",
            f"ALTER TABLE {TARGETS} DROP COLUMN {column}",
        )
    await _run(
        "CREATE UNIQUE INDEX IF NOT EXISTS profile_targets_unique "
        f"ON {TARGETS} (profile_id, kind, target_id)"
    )


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _targets_to_foreign_keys()
        await _add_rules()

    async def revert() -> None:
        await _drop_rules()
        await _targets_to_kind_and_id()

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
