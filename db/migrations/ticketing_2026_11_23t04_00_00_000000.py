"""The organization dashboard (issue 16): roles on memberships and server-side sessions.

1. ``memberships.role``: ``admin`` or ``member`` (a CHECK rule); every existing member becomes an
   ``admin``, as the command line made them all able to do everything until now.
2. ``dashboard_sessions``: one row per browser session (or sign-in in progress), keyed by the
   SHA-256 of the cookie's token; ``last_seen_at`` is indexed for the idle expiry and pruning.

Plain SQL that PostgreSQL and SQLite share (SQLite drops a column whose only CHECK is its own).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T04:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "dashboard: membership roles and browser sessions"

FORWARDS = [
    "ALTER TABLE memberships ADD COLUMN role VARCHAR(10) NOT NULL DEFAULT 'admin' "
    "CONSTRAINT memberships_role_allowed CHECK (role IN ('admin', 'member'))",
    "CREATE TABLE dashboard_sessions ("
    "id UUID PRIMARY KEY, "
    "token_hash VARCHAR(64) NOT NULL UNIQUE, "
    "user_id UUID NULL REFERENCES users (id) ON DELETE CASCADE, "
    "organization_id UUID NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "oidc_state VARCHAR(64) NULL, "
    "oidc_nonce VARCHAR(64) NULL, "
    "oidc_verifier VARCHAR(128) NULL, "
    "return_to VARCHAR(500) NULL, "
    "created_at TIMESTAMPTZ NOT NULL, "
    "last_seen_at TIMESTAMPTZ NOT NULL)",
    "CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id)",
    "CREATE INDEX dashboard_sessions_organization ON dashboard_sessions (organization_id)",
    "CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen_at)",
]
BACKWARDS = [
    "DROP TABLE IF EXISTS dashboard_sessions",
    "ALTER TABLE memberships DROP COLUMN role",
]


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        for statement in FORWARDS:
            await db.run_ddl(statement)

    async def revert() -> None:
        for statement in BACKWARDS:
            await db.run_ddl(statement)

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
