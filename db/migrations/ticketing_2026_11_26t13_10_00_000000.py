"""The request log of each credential (issue 27, CONTRACT.md section 18).

``request_log``: one row per request made with an API key or an OAuth token: when, the method,
the path (never the query string), the status, the duration, the request id and the
``Idempotency-Key``; never a body, a query value or a secret. Read per credential, newest first
(``request_log_credential_created``); pruned to the last 1,000 per credential
and to 7 days (``request_log_created``).

Plain SQL that PostgreSQL and SQLite share.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T13:10:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "request log per credential"

STATEMENTS = [
    "CREATE TABLE request_log ("
    "id UUID PRIMARY KEY, "
    "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "credential_id UUID NOT NULL, "
    "method VARCHAR(10) NOT NULL, "
    "path VARCHAR(500) NOT NULL, "
    "status INTEGER NOT NULL, "
    "duration_ms REAL NOT NULL, "
    "request_id VARCHAR(200) NOT NULL, "
    "idempotency_key VARCHAR(255) NULL, "
    "created_at TIMESTAMPTZ NOT NULL)",
    "CREATE INDEX request_log_credential_created ON request_log (credential_id, created_at, id)",
    "CREATE INDEX request_log_created ON request_log (created_at)",
    "CREATE INDEX request_log_organization ON request_log (organization_id)",
]


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _run(*STATEMENTS)

    async def revert() -> None:
        await _run("DROP TABLE IF EXISTS request_log")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
