"""The database's rule on ``outbox_events.event_type``, derived from the registry of webhook event
kinds (``app.schemas.webhook_events.KINDS``).

A migration that allows new kinds calls :func:`allow_registered_kinds`: it replaces the rule
``outbox_events_event_type_allowed`` (first written by migration 2026-11-23T00:40) with one listing
every registered kind at the time it runs. So two branches that each add a kind and a migration
never take each other's kind away, whichever migration runs last. Going back keeps the wider rule:
the earlier release never writes the new kinds, and rows of them may exist.

PostgreSQL: the new CHECK is added ``NOT VALID`` and validated after, so the table is not locked
against writes while its rows are checked. SQLite: the rule is a pair of triggers.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from app.schemas.webhook_events import ALL_KINDS
from db.tables import OutboxEvent

TABLE = "outbox_events"
COLUMN = "event_type"
RULE = f"{TABLE}_{COLUMN}_allowed"


def _statements(kinds: tuple[str, ...], sqlite: bool) -> list[str]:
    listed = ", ".join(f"'{kind}'" for kind in kinds)
    if not sqlite:
        return [
            f"ALTER TABLE {TABLE} DROP CONSTRAINT IF EXISTS {RULE}",
            f"ALTER TABLE {TABLE} ADD CONSTRAINT {RULE} "
            f"CHECK ({COLUMN} IS NULL OR {COLUMN} IN ({listed})) NOT VALID",
            f"ALTER TABLE {TABLE} VALIDATE CONSTRAINT {RULE}",
        ]
    condition = f"NEW.{COLUMN} IS NULL OR NEW.{COLUMN} IN ({listed})"
    abort = f"SELECT RAISE(ABORT, 'CHECK constraint failed: {RULE}');"
    return [
        f"DROP TRIGGER IF EXISTS {RULE}_insert",
        f"DROP TRIGGER IF EXISTS {RULE}_update",
        f"CREATE TRIGGER {RULE}_insert BEFORE INSERT ON {TABLE} "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
        f"CREATE TRIGGER {RULE}_update BEFORE UPDATE OF {COLUMN} ON {TABLE} "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
    ]


def allow_registered_kinds(migration_id: str, description: str) -> MigrationManager:
    """The migration ``migration_id``: the outbox accepts exactly the registered kinds."""
    manager = MigrationManager(
        migration_id=migration_id, app_name="ticketing", description=description
    )

    async def apply() -> None:
        db = OutboxEvent._meta.db
        for statement in _statements(ALL_KINDS, db.engine_type == "sqlite"):
            await db.run_ddl(statement)

    manager.add_raw(apply)
    return manager
