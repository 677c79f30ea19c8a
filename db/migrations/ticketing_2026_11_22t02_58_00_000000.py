"""Composite indexes behind every list filter and sort (CONTRACT.md section 2), and uniqueness.

Each list index starts with the column a list is scoped by, then the sort column, then ``id``
(the tie-breaker), so a page is one index range scan. Plain SQL that PostgreSQL and SQLite share.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-22T02:58:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "list indexes and composite uniqueness"

INDEXES: dict[str, tuple[str, list[str]]] = {
    "events_org_created": ("events", ["organization_id", "created_at", "id"]),
    "events_org_title": ("events", ["organization_id", "title", "id"]),
    "events_org_starts": ("events", ["organization_id", "starts_at", "id"]),
    "ticket_types_event_created": ("ticket_types", ["event_id", "created_at", "id"]),
    "timeslots_event_created": ("timeslots", ["event_id", "created_at", "id"]),
    "timeslots_event_starts": ("timeslots", ["event_id", "starts_at", "id"]),
    "timeslots_event_ends": ("timeslots", ["event_id", "ends_at", "id"]),
    "timeslots_event_title": ("timeslots", ["event_id", "title", "id"]),
    "orders_org_created": ("orders", ["organization_id", "created_at", "id"]),
    "orders_org_payed": ("orders", ["organization_id", "payed_at", "id"]),
    "orders_org_total": ("orders", ["organization_id", "total_price", "id"]),
    "orders_org_buyer": ("orders", ["organization_id", "buyer_name", "id"]),
    "orders_event_created": ("orders", ["event_id", "created_at", "id"]),
    "orders_event_payed": ("orders", ["event_id", "payed_at", "id"]),
    "orders_event_total": ("orders", ["event_id", "total_price", "id"]),
    "orders_event_buyer": ("orders", ["event_id", "buyer_name", "id"]),
    "tickets_event_created": ("tickets", ["event_id", "created_at", "id"]),
    "tickets_event_sequence": ("tickets", ["event_id", "sequence", "id"]),
    "tickets_event_owner_name": ("tickets", ["event_id", "owner_name", "id"]),
    "tickets_event_owner_email": ("tickets", ["event_id", "owner_email", "id"]),
    "tickets_event_scanned": ("tickets", ["event_id", "scanned_at", "id"]),
    "tickets_event_status": ("tickets", ["event_id", "status", "id"]),
    "tickets_order_sequence": ("tickets", ["order_id", "sequence", "id"]),
    "scanners_org_created": ("scanners", ["organization_id", "created_at", "id"]),
    "scanner_profiles_org_created": ("scanner_profiles", ["organization_id", "created_at", "id"]),
    "webhooks_org_created": ("webhooks", ["organization_id", "created_at", "id"]),
    "deliveries_webhook_created": ("webhook_deliveries", ["webhook_id", "created_at", "id"]),
    "scans_ticket_created": ("scans", ["ticket_id", "created_at", "id"]),
    "outbox_unrelayed": ("outbox_events", ["relayed_at", "created_at"]),
}

UNIQUE: dict[str, tuple[str, list[str]]] = {
    "tickets_org_code_unique": ("tickets", ["organization_id", "scannable_code"]),
    "memberships_unique": ("memberships", ["organization_id", "user_id"]),
    "users_idp_unique": ("users", ["idp_issuer", "idp_subject"]),
    "timeslot_ticket_types_unique": ("timeslot_ticket_types", ["timeslot_id", "ticket_type_id"]),
    "profile_targets_unique": ("scanner_profile_targets", ["profile_id", "kind", "target_id"]),
    "deliveries_unique": ("webhook_deliveries", ["event_id", "webhook_id"]),
}


def _statements() -> list[str]:
    statements = [
        f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({', '.join(columns)})"
        for name, (table, columns) in INDEXES.items()
    ]
    statements += [
        f"CREATE UNIQUE INDEX IF NOT EXISTS {name} ON {table} ({', '.join(columns)})"
        for name, (table, columns) in UNIQUE.items()
    ]
    return statements


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def create_indexes() -> None:
        for statement in _statements():
            await Organization._meta.db.run_ddl(statement)

    async def drop_indexes() -> None:
        for name in [*INDEXES, *UNIQUE]:
            await Organization._meta.db.run_ddl(f"DROP INDEX IF EXISTS {name}")

    manager.add_raw(create_indexes)
    manager.add_raw_backwards(drop_indexes)
    return manager
