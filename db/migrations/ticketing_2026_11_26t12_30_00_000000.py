"""A scan written in one round trip (issue 26 item 3): the function ``scan_write``.

The service decides a scan in Python (``app/services/scanning.py``) from one read, then writes
what it decided with one call of this function, which commits by itself (one statement outside
any transaction): the scan log row (unless its nonce was used before: then nothing is written and
the answer is ``nonce_used``), the ticket's new state on the condition that it is still the state
the decision was made on (otherwise the function raises ``TK409``, so that the log row is rolled
back with it, and the service runs the scan again in a transaction), the attendance counters, and
the outbox event with its ``NOTIFY``. It holds no rule of its own: every value is the caller's.

PostgreSQL only (SQLite, the demo, writes in a transaction of several statements).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-26T12:30:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "scan_write: a decided scan written in one statement"

FUNCTION = """
CREATE OR REPLACE FUNCTION scan_write(
    p_organization_id uuid, p_scanner_id uuid, p_received_at timestamptz,
    p_log_id uuid, p_ticket_id uuid, p_status varchar, p_reason varchar,
    p_scanned_at timestamptz, p_nonce varchar, p_result_scanned_at timestamptz,
    p_direction varchar, p_result_inside boolean,
    p_changes boolean, p_event_id uuid, p_timeslot_id uuid,
    p_old_status varchar, p_old_inside boolean, p_old_presence_at timestamptz,
    p_new_status varchar, p_new_scanned_at timestamptz, p_new_inside boolean,
    p_new_presence_at timestamptz, p_admitted int, p_inside int, p_entries int, p_exits int,
    p_shards int, p_outbox_id uuid, p_event_type varchar, p_payload json, p_notify varchar
) RETURNS varchar LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, reason, created_at,
                       scanned_at, received_at, nonce, result_scanned_at, direction,
                       result_inside)
    VALUES (p_log_id, p_organization_id, p_ticket_id, p_scanner_id, p_status, p_reason,
            p_received_at, p_scanned_at, p_received_at, p_nonce, p_result_scanned_at,
            p_direction, p_result_inside)
    ON CONFLICT (organization_id, nonce) DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'nonce_used';
    END IF;
    IF p_changes THEN
        UPDATE tickets SET status = p_new_status, scanned_at = p_new_scanned_at,
                           inside = p_new_inside, presence_at = p_new_presence_at,
                           updated_at = p_received_at
        WHERE id = p_ticket_id AND organization_id = p_organization_id
          AND status = p_old_status AND inside = p_old_inside
          AND presence_at IS NOT DISTINCT FROM p_old_presence_at;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'the ticket changed since it was read' USING ERRCODE = 'TK409';
        END IF;
        INSERT INTO attendance_counts AS c (organization_id, event_id, timeslot_id, shard,
                                            admitted, inside, entries, exits)
        VALUES (p_organization_id, p_event_id, p_timeslot_id, pg_backend_pid() % p_shards,
                p_admitted, p_inside, p_entries, p_exits)
        ON CONFLICT (timeslot_id, shard) DO UPDATE SET admitted = c.admitted + EXCLUDED.admitted,
            inside = c.inside + EXCLUDED.inside, entries = c.entries + EXCLUDED.entries,
            exits = c.exits + EXCLUDED.exits;
    END IF;
    IF p_outbox_id IS NOT NULL THEN
        INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at)
        VALUES (p_outbox_id, p_organization_id, p_event_type, p_payload, p_received_at);
        PERFORM pg_notify(p_notify, '');
    END IF;
    RETURN 'written';
END $$
"""
SIGNATURE = (
    "scan_write(uuid, uuid, timestamptz, uuid, uuid, varchar, varchar, timestamptz, varchar, "
    "timestamptz, varchar, boolean, boolean, uuid, uuid, varchar, boolean, timestamptz, "
    "varchar, timestamptz, boolean, timestamptz, int, int, int, int, int, uuid, varchar, json, "
    "varchar)"
)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(FUNCTION)

    async def revert() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(f"DROP FUNCTION IF EXISTS {SIGNATURE}")

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
