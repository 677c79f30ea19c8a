"""Offline scanning (CONTRACT.md section 11): the scan log keeps the device's time and a nonce.

1. ``scans.scanned_at``: when the device scanned (its clock; the moment the windows were decided
   at); ``scans.received_at``: when the server received the attempt. Existing rows get their
   ``created_at`` for both (they were decided when received).
2. ``scans.result_scanned_at``: the ``scanned_at`` the answer carried (the ticket's admission time,
   null when it had none), so that a repeated nonce answers exactly the first result.
3. ``scans.nonce`` with a unique index on ``(organization_id, nonce)``: the claim that makes a
   repeated nonce record nothing new, also when two requests race (rows without a nonce never
   conflict: NULLs are distinct in a unique index on both engines).

PostgreSQL also makes ``scanned_at`` and ``received_at`` NOT NULL after the backfill (SQLite
cannot add the constraint to an existing column; the service always writes both).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-23T03:45:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "offline scanning: scan log scanned_at, received_at, result_scanned_at and nonce"

COLUMNS: list[tuple[str, str]] = [
    ("nonce", "VARCHAR(64)"),
    ("scanned_at", "TIMESTAMPTZ"),
    ("received_at", "TIMESTAMPTZ"),
    ("result_scanned_at", "TIMESTAMPTZ"),
]
"""(column, type) added to ``scans``, NULL by default."""

NONCE_INDEX = "scans_org_nonce_unique"


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        for column, kind in COLUMNS:
            await _run(f"ALTER TABLE scans ADD COLUMN {column} {kind} DEFAULT NULL")
        await _run(
            "UPDATE scans SET scanned_at = created_at, received_at = created_at",
            f"CREATE UNIQUE INDEX {NONCE_INDEX} ON scans (organization_id, nonce)",
        )
        if _db().engine_type != "sqlite":
            await _run(
                "ALTER TABLE scans ALTER COLUMN scanned_at SET NOT NULL, "
                "ALTER COLUMN received_at SET NOT NULL"
            )

    async def revert() -> None:
        await _run(f"DROP INDEX IF EXISTS {NONCE_INDEX}")
        for column, _ in reversed(COLUMNS):
            await _run(f"ALTER TABLE scans DROP COLUMN {column}")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
