"""Idempotency keys (CONTRACT.md section 10): the stored answer of each key a credential used.

One row per (credential, key), written in the transaction of the request it answers, so that the
row exists exactly when the request's change does (see ``db/idempotency.py`` and the decision in
docs/decisions.md). ``expires_at`` (24 hours after the first use) bounds its life: reads ignore
expired rows and ``prune`` deletes them through the ``expires_at`` index.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T03:40:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "idempotency keys and their stored answers"


def _sqlite() -> bool:
    return Organization._meta.db.engine_type == "sqlite"


async def _run(*statements: str) -> None:
    for statement in statements:
        await Organization._meta.db.run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        binary = "BLOB" if _sqlite() else "BYTEA"
        await _run(
            "CREATE TABLE idempotency_keys ("
            "id UUID PRIMARY KEY, "
            "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
            "credential VARCHAR(200) NOT NULL, "
            "key VARCHAR(255) NOT NULL, "
            "fingerprint VARCHAR(64) NOT NULL, "
            "status INTEGER NOT NULL, "
            "content_type VARCHAR(255), "
            "location TEXT, "
            f"body {binary} NOT NULL, "
            "created_at TIMESTAMPTZ NOT NULL, "
            "expires_at TIMESTAMPTZ NOT NULL)",
            "CREATE UNIQUE INDEX idempotency_keys_credential_key "
            "ON idempotency_keys (credential, key)",
            "CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)",
            "CREATE INDEX idempotency_keys_organization ON idempotency_keys (organization_id)",
        )

    async def revert() -> None:
        await _run("DROP TABLE IF EXISTS idempotency_keys")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
