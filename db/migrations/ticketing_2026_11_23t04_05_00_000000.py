"""The dashboard's pages (issue 16): the audit log, and the indexes behind the pages' reads.

1. ``audit_log``: who did what, when, to which target, of every admin action (dashboard, API and
   command line alike); listed per organization, newest first (``audit_log_org_created``). The
   actor's e-mail is kept as it was at the time, so an entry outlives its user.
2. ``oauth_grants.kind``: ``authorization_code`` (a user authorized an application) or
   ``client_credentials`` (the client got a token for itself, one family per token). Existing
   families without an authorization code are client credentials. The dashboard lists the
   users' authorizations (``oauth_grants_org_kind_created``).
3. ``oauth_clients_org_created``: an organization's OAuth applications, newest first.
4. ``events_org_effective_end``: the overview's upcoming events, those whose end (their start when
   they have none) is recent or to come; an expression index.
5. ``tickets_event_owner_name_search``: the ticket search by the start of the owner's name,
   case-insensitive: a range of ``lower(owner_name)``, compared byte-wise (``COLLATE "C"`` on
   PostgreSQL; SQLite compares byte-wise anyway), so the prefix range is exact in any locale.

Plain SQL that PostgreSQL and SQLite share, except for the collation of the last index.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-23T04:05:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "dashboard pages: audit log, OAuth grant kinds, indexes of the pages' reads"

ACTOR_KINDS = ("dashboard", "api_key", "oauth", "cli")
GRANT_KINDS = ("authorization_code", "client_credentials")

AUDIT_LOG = (
    "CREATE TABLE audit_log ("
    "id UUID PRIMARY KEY, "
    "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "actor_user_id UUID NULL REFERENCES users (id) ON DELETE SET NULL, "
    "actor_email VARCHAR(320) NULL, "
    "actor_via VARCHAR(20) NOT NULL CONSTRAINT audit_log_actor_via_allowed "
    f"CHECK (actor_via IN ({', '.join(repr(kind) for kind in ACTOR_KINDS)})), "
    "actor_detail VARCHAR(200) NULL, "
    "action VARCHAR(60) NOT NULL, "
    "target_type VARCHAR(40) NOT NULL, "
    "target_id VARCHAR(100) NULL, "
    "target_label VARCHAR(300) NOT NULL DEFAULT '', "
    "details JSON NOT NULL, "
    "created_at TIMESTAMPTZ NOT NULL)"
)
GRANT_KIND = (
    "ALTER TABLE oauth_grants ADD COLUMN kind VARCHAR(20) NOT NULL DEFAULT 'authorization_code' "
    "CONSTRAINT oauth_grants_kind_allowed "
    f"CHECK (kind IN ({', '.join(repr(kind) for kind in GRANT_KINDS)}))"
)
CLIENT_CREDENTIAL_FAMILIES = (
    "UPDATE oauth_grants SET kind = 'client_credentials' WHERE NOT EXISTS "
    "(SELECT 1 FROM oauth_authorization_codes c WHERE c.grant_id = oauth_grants.id)"
)
INDEXES = [
    "CREATE INDEX audit_log_org_created ON audit_log (organization_id, created_at, id)",
    "CREATE INDEX audit_log_actor ON audit_log (actor_user_id)",
    "CREATE INDEX oauth_grants_org_kind_created "
    "ON oauth_grants (organization_id, kind, created_at, id)",
    "CREATE INDEX oauth_clients_org_created ON oauth_clients (organization_id, created_at, id)",
    "CREATE INDEX events_org_effective_end "
    "ON events (organization_id, (COALESCE(ends_at, starts_at)))",
]
NAME_SEARCH = {
    "postgres": "CREATE INDEX tickets_event_owner_name_search "
    'ON tickets (event_id, (lower(owner_name) COLLATE "C"), id)',
    "sqlite": "CREATE INDEX tickets_event_owner_name_search "
    "ON tickets (event_id, lower(owner_name), id)",
}
DROPPED_INDEXES = [
    "tickets_event_owner_name_search",
    "events_org_effective_end",
    "oauth_clients_org_created",
    "oauth_grants_org_kind_created",
]


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        engine = "sqlite" if _db().engine_type == "sqlite" else "postgres"
        await _run(AUDIT_LOG, GRANT_KIND, CLIENT_CREDENTIAL_FAMILIES, *INDEXES, NAME_SEARCH[engine])

    async def revert() -> None:
        await _run(
            *(f"DROP INDEX IF EXISTS {name}" for name in DROPPED_INDEXES),
            "ALTER TABLE oauth_grants DROP COLUMN kind",
            "DROP TABLE IF EXISTS audit_log",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
