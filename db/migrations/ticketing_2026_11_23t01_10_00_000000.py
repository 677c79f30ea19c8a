"""Sync and the filters of integrations (CONTRACT.md section 11): ``updated_at`` on orders and
tickets, and an index behind each new filter and sort.

``updated_at`` of an existing row is its latest known change (creation, payment, scan,
cancellation). On PostgreSQL the column is NOT NULL with ``now()`` as its default (so rows copied
in without it are stamped); SQLite cannot add a NOT NULL column without a constant default, so
there it stays nullable, and the service writes it on every insert and update either way.

The list indexes follow the first list-index migration: the column a list is scoped by, the filter
or sort column, then ``created_at``/``id`` for the default order and the tie-break.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T01:10:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "updated_at on orders and tickets; indexes of the integration filters"

LATEST_CHANGE = {
    "orders": ("created_at", "payed_at", "cancelled_at"),
    "tickets": ("created_at", "scanned_at", "cancelled_at"),
}
"""Table -> the timestamps whose latest is an existing row's ``updated_at``."""

INDEXES: dict[str, tuple[str, list[str]]] = {
    "orders_org_updated": ("orders", ["organization_id", "updated_at", "id"]),
    "orders_event_updated": ("orders", ["event_id", "updated_at", "id"]),
    "orders_org_status": ("orders", ["organization_id", "status", "created_at", "id"]),
    "orders_org_buyer_email": ("orders", ["organization_id", "buyer_email", "created_at", "id"]),
    "tickets_event_updated": ("tickets", ["event_id", "updated_at", "id"]),
}
"""Ticket ``status``, ``owner_email`` and ``scannable_code`` and order ``created_since`` /
``created_until`` already have theirs (``tickets_event_status``, ``tickets_event_owner_email``,
``tickets_org_code_unique``, ``orders_org_created``)."""


def _sqlite() -> bool:
    return Organization._meta.db.engine_type == "sqlite"


async def _run(*statements: str) -> None:
    for statement in statements:
        await Organization._meta.db.run_ddl(statement)


def _latest(columns: tuple[str, ...]) -> str:
    if _sqlite():  # SQLite's MAX of several values is NULL when one is
        first = columns[0]
        return f"MAX({', '.join(f'COALESCE({c}, {first})' for c in columns)})"
    return f"GREATEST({', '.join(columns)})"  # GREATEST ignores NULLs


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        for table, columns in LATEST_CHANGE.items():
            await _run(
                f"ALTER TABLE {table} ADD COLUMN updated_at TIMESTAMPTZ",
                f"UPDATE {table} SET updated_at = {_latest(columns)}",
            )
            if not _sqlite():
                await _run(
                    f"ALTER TABLE {table} ALTER COLUMN updated_at SET DEFAULT now(), "
                    "ALTER COLUMN updated_at SET NOT NULL"
                )
        await _run(
            *(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({', '.join(columns)})"
                for name, (table, columns) in INDEXES.items()
            )
        )

    async def revert() -> None:
        await _run(*(f"DROP INDEX IF EXISTS {name}" for name in INDEXES))
        await _run(*(f"ALTER TABLE {table} DROP COLUMN updated_at" for table in LATEST_CHANGE))

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
