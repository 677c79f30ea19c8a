"""``scan_write`` counts the ticket itself, and writes an event nobody subscribes to as relayed
(issue 26 item 3).

Two costs of an admission that PostgreSQL paid beside the scan's own rows (docs/performance.md):

- The statement trigger that keeps ``ticket_counts`` (migration 2026-11-23T01:17) fired on the
  ticket's update: transition tables captured, a PL/pgSQL call, an aggregate over them. The
  function now adds the ticket's move from one status to another to its connection's row of
  ``ticket_counts`` itself (the same row the trigger would write: shard ``pg_backend_pid()``),
  and ``count_tickets`` returns at once for that one update: ``scan_write`` sets the transaction's
  setting ``ticketing.counted`` around it (and only around it: every other change of tickets is
  counted by the trigger as before).
- The outbox row of a ``ticket.scanned`` that no active subscription takes was written, then
  read and marked relayed by the relay, which had nothing to deliver. The function now looks for
  such a subscription as the relay does (``db.deliveries.relay``: active, of the organization,
  listing the kind) and writes the row already relayed when there is none, so the relay never
  sees it; an event is delivered to the subscriptions that exist when it is written (the relay,
  which runs milliseconds later, gave the same answer but for a subscription made in between).
  Only then does it ``NOTIFY`` (with a channel) and answer ``relay``, so that the caller wakes
  its relay; otherwise ``written``, or ``nonce_used`` as before.

Same signature as 2026-11-26T12:30. PostgreSQL only, like the function.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.migrations import ticketing_2026_11_23t01_17_00_000000 as counted
from db.migrations import ticketing_2026_11_26t14_20_00_000000 as previous
from db.tables import Organization

ID = "2026-11-27T01:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "scan_write: counts the ticket itself; an unsubscribed event written relayed"

COUNTED_SETTING = "ticketing.counted"
"""The transaction's setting that tells ``count_tickets`` the statement is counted already."""

_TICKET_STATUSES = counted.COUNTED["tickets"][1]
_COUNT_TICKETS = counted._postgres_triggers("tickets", *counted.COUNTED["tickets"])[0].replace(
    "CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"
)
COUNT_TICKETS = _COUNT_TICKETS.replace(
    "BEGIN\n",
    "BEGIN\n"
    f"            IF current_setting('{COUNTED_SETTING}', true) = 'on' THEN\n"
    "                RETURN NULL;\n"
    "            END IF;\n",
    1,
)
assert COUNT_TICKETS != _COUNT_TICKETS, "count_tickets of 2026-11-23T01:17 changed its shape"

_MOVES = ", ".join(
    f"(p_new_status = '{status}')::int - (p_old_status = '{status}')::int"
    for status in _TICKET_STATUSES
)
_ADDS = ", ".join(f"{status} = c.{status} + EXCLUDED.{status}" for status in _TICKET_STATUSES)
UPDATE = """        UPDATE tickets SET status = p_new_status, scanned_at = p_new_scanned_at,
                           inside = p_new_inside, presence_at = p_new_presence_at,
                           updated_at = p_received_at
        WHERE id = p_ticket_id AND organization_id = p_organization_id
          AND status = p_old_status AND inside = p_old_inside
          AND presence_at IS NOT DISTINCT FROM p_old_presence_at;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'the ticket changed since it was read' USING ERRCODE = 'TK409';
        END IF;
"""
COUNTED_UPDATE = f"""        PERFORM set_config('{COUNTED_SETTING}', 'on', true);
{UPDATE}        PERFORM set_config('{COUNTED_SETTING}', 'off', true);
        IF p_new_status <> p_old_status THEN
            INSERT INTO ticket_counts AS c (organization_id, event_id, shard,
                                            {", ".join(_TICKET_STATUSES)})
            VALUES (p_organization_id, p_event_id, pg_backend_pid(), {_MOVES})
            ON CONFLICT (event_id, shard) DO UPDATE SET {_ADDS};
        END IF;
"""
OUTBOX = """    IF p_outbox_id IS NOT NULL THEN
        INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at)
        VALUES (p_outbox_id, p_organization_id, p_event_type, p_payload, p_received_at);
        IF p_notify IS NOT NULL THEN
            PERFORM pg_notify(p_notify, '');
        END IF;
    END IF;
    RETURN 'written';
"""
RELAYED_OUTBOX = """    IF p_outbox_id IS NOT NULL THEN
        v_subscribed := EXISTS (
            SELECT FROM webhooks AS w WHERE w.organization_id = p_organization_id AND w.active
              AND w.event_types::jsonb ? p_event_type);
        INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at,
                                   relayed_at)
        VALUES (p_outbox_id, p_organization_id, p_event_type, p_payload, p_received_at,
                CASE WHEN v_subscribed THEN NULL ELSE p_received_at END);
        IF v_subscribed THEN
            IF p_notify IS NOT NULL THEN
                PERFORM pg_notify(p_notify, '');
            END IF;
            RETURN 'relay';
        END IF;
    END IF;
    RETURN 'written';
"""
_BEGIN = ") RETURNS varchar LANGUAGE plpgsql AS $$\nBEGIN\n"
FUNCTION = (
    previous.FUNCTION.replace(UPDATE, COUNTED_UPDATE)
    .replace(OUTBOX, RELAYED_OUTBOX)
    .replace(_BEGIN, ") RETURNS varchar LANGUAGE plpgsql AS $$\nDECLARE\n    v_subscribed boolean;\nBEGIN\n")
)
assert all(part in FUNCTION for part in (COUNTED_UPDATE, RELAYED_OUTBOX, "v_subscribed boolean")), (
    "scan_write of 2026-11-26T14:20 changed its shape"
)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(COUNT_TICKETS)
            await db.run_ddl(FUNCTION)

    async def revert() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(previous.FUNCTION)
            await db.run_ddl(_COUNT_TICKETS)

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
