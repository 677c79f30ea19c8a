"""No foreign-key constraints on the scan log, nor from the outbox to its organization
(issue 26 item 3; docs/decisions.md, "The scan log's ids are not foreign-key constraints").

A foreign key's check runs ``SELECT ... FOR KEY SHARE`` on the row it names, for every row
written. Every scan of an organization names the same organization row and, at one gate, the
same scanner row: concurrent scans each add themselves to a MultiXact on those rows (a new one per
locker, with every current locker as a member), and every reader of the row looks its members up.
Measured with 16 connections writing admissions at once (``scan_write`` in a loop): 0.96-1.13 ms
of PostgreSQL's CPU per admission without these four constraints, 1.24 with them; one connection
alone, their checks cost 0.06 ms (``EXPLAIN ANALYZE``).

The ids stay right without them: ``scan_write`` and the batch's statements write the
organization of the request, a scanner and a ticket they have just read (an admission updates
that ticket in the same statement, and fails when it is gone), and nothing deletes an
organization, a scanner or a ticket (scanners are deactivated, tickets cancelled, and a timeslot
or a ticket type with tickets cannot be deleted). The previous release relies on none of them
(it never writes an id it has not read), so the drop is the contract step of the migration that
made them. Their indexes stay.

PostgreSQL only: SQLite (the demo, one writer at a time) keeps them.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-27T01:20:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "no foreign-key constraints on the scan log and from the outbox"
CONTRACTS = "2026-11-22T02:56:46:335013"

DROPPED = {
    ("scans", "scans_organization_id_fkey"): "organization_id) REFERENCES organizations(id)",
    ("scans", "scans_scanner_id_fkey"): "scanner_id) REFERENCES scanners(id)",
    ("scans", "scans_ticket_id_fkey"): "ticket_id) REFERENCES tickets(id)",
    ("outbox_events", "outbox_events_organization_id_fkey"): (
        "organization_id) REFERENCES organizations(id)"
    ),
}
"""(table, constraint) -> the constraint's column and target, as the first migration made it."""


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            for table, constraint in DROPPED:
                await db.run_ddl(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {constraint}")

    async def revert() -> None:
        if db.engine_type != "sqlite":
            for (table, constraint), target in DROPPED.items():
                await db.run_ddl(
                    f"ALTER TABLE {table} ADD CONSTRAINT {constraint} FOREIGN KEY ({target} "
                    "ON UPDATE CASCADE ON DELETE CASCADE"
                )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
