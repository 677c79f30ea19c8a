"""Signed ticket codes (issue 26 item 4, CONTRACT.md section 17).

1. ``scan_keys``: each event's Ed25519 keys; ``current`` true on the one that signs new codes
   (``scan_keys_event_current``, unique: two processes making the first key cannot make two),
   ``kid`` unique per event.
2. ``tickets.signed_code`` and ``tickets.scan_key_id`` (the key that signed it; a foreign key
   without cascade, which retiring relies on: ``app/services/scan_keys.py``), and the index that
   finds a key's tickets when it is retired.
3. ``ticket_revocations``: tickets cancelled or whose code was replaced, read by time per event
   (``ticket_revocations_event_time``).
4. Every ticket already written gets its code here, signed with a key made for its event.

Plain SQL that PostgreSQL and SQLite share; the codes are signed in Python.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T14:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "signed codes: scan keys, the tickets' codes, revocations"

STATEMENTS = [
    "CREATE TABLE scan_keys ("
    "id UUID PRIMARY KEY, "
    "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "event_id UUID NOT NULL REFERENCES events (id) ON DELETE CASCADE, "
    "kid VARCHAR(16) NOT NULL, "
    "public_key VARCHAR(64) NOT NULL, "
    "private_pem TEXT NOT NULL, "
    "current BOOLEAN NULL, "
    "created_at TIMESTAMPTZ NOT NULL, "
    "retired_at TIMESTAMPTZ NULL)",
    "CREATE UNIQUE INDEX scan_keys_event_kid ON scan_keys (event_id, kid)",
    "CREATE UNIQUE INDEX scan_keys_event_current ON scan_keys (event_id) WHERE current",
    "ALTER TABLE tickets ADD COLUMN signed_code VARCHAR(186) NULL",
    "ALTER TABLE tickets ADD COLUMN scan_key_id UUID NULL REFERENCES scan_keys (id)",
    "CREATE INDEX tickets_scan_key ON tickets (scan_key_id)",
    "CREATE TABLE ticket_revocations ("
    "id UUID PRIMARY KEY, "
    "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "event_id UUID NOT NULL REFERENCES events (id) ON DELETE CASCADE, "
    "ticket_id UUID NOT NULL REFERENCES tickets (id) ON DELETE CASCADE, "
    "reason VARCHAR(20) NOT NULL, "
    "kid VARCHAR(16) NULL, "
    "revoked_at TIMESTAMPTZ NOT NULL)",
    "CREATE INDEX ticket_revocations_event_time ON ticket_revocations (event_id, revoked_at)",
    "CREATE INDEX ticket_revocations_ticket ON ticket_revocations (ticket_id)",
]


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        from app.services.scan_keys import sign_unsigned_tickets

        await _run(*STATEMENTS)
        await sign_unsigned_tickets()

    async def revert() -> None:
        await _run(
            "DROP TABLE IF EXISTS ticket_revocations",
            "DROP INDEX IF EXISTS tickets_scan_key",
            "ALTER TABLE tickets DROP COLUMN scan_key_id",
            "ALTER TABLE tickets DROP COLUMN signed_code",
            "DROP TABLE IF EXISTS scan_keys",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
