"""An order written in one round trip (issue 25 item 5): the function ``order_write``.

The service (``app/services/orders.py``) computes everything an order needs that does not depend
on the database (ids, codes and signed codes, owners, the outbox payload) and calls this function once, outside any
transaction, so that it commits by itself (``db.orders.write_at_once``). In order:

1. an order of a hold (``p_hold_id``): the hold converted, if it is still active, unexpired and of
   the timeslot and size the caller read; an order outright: the timeslot, of the organization
   and the event, with places left as read (no lock);
2. the wanted ticket types, of the event and sold by the timeslot, share-locked as
   ``app.services.sellable`` locks them (a price or ``swappable`` cannot change under the order);
3. the order, its total the sum of the ticket types' prices; its tickets; the outbox event and
   its ``NOTIFY``;
4. last, the places: the hold's move from held to sold, or one conditional UPDATE of the timeslot
   (``sold + held + n <= total_available``), so that its row is locked from there to the
   statement's commit only.

An order outright that finds too few places in 1 writes nothing and returns the places left
(``places_left``) and those of lapsed holds (``lapsed``) instead of a total: the 409 without
another round trip. Anything else wrong writes nothing (all null, or ``TK409`` raised to undo the
rows written before it was found, as when the claim of 4 finds the places gone): the service then
runs the order again in the transaction of before, which says what is wrong (404, 400, 409) or
reclaims lapsed holds and takes the places. It holds no rule the service does not also hold.

Lock order as in that transaction: the hold's row, the ticket types, the timeslot's row.

PostgreSQL only (SQLite, the demo, writes in a transaction of several statements).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-26T14:40:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "order_write: an order written in one statement"

FUNCTION = """
CREATE OR REPLACE FUNCTION order_write(
    p_organization_id uuid, p_event_id uuid, p_timeslot_id uuid, p_order_id uuid, p_hold_id uuid,
    p_buyer_name varchar, p_buyer_email varchar, p_channel varchar, p_payment_method varchar,
    p_now timestamptz, p_tickets json, p_outbox_id uuid, p_event_type varchar, p_payload json,
    p_notify varchar, OUT total_price numeric, OUT places_left int, OUT lapsed int
) LANGUAGE plpgsql AS $$
DECLARE
    v_count int := json_array_length(p_tickets);
    v_slot record;
    v_wanted uuid[];
    v_found int;
BEGIN
    IF p_hold_id IS NOT NULL THEN
        UPDATE holds SET status = 'converted', order_id = p_order_id, updated_at = p_now
        WHERE id = p_hold_id AND organization_id = p_organization_id AND status = 'active'
          AND expires_at > p_now AND event_timeslot_id = p_timeslot_id AND quantity = v_count;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    ELSE
        SELECT t.event_id, t.total_available, t.sold, t.held INTO v_slot FROM timeslots t
        WHERE t.id = p_timeslot_id AND t.organization_id = p_organization_id;
        IF NOT FOUND OR v_slot.event_id <> p_event_id THEN
            RETURN;
        END IF;
    END IF;
    SELECT array_agg(DISTINCT (ticket->>'ticket_type_id')::uuid) INTO v_wanted
    FROM json_array_elements(p_tickets) AS ticket;
    SELECT count(*) INTO v_found FROM (
        SELECT tt.id FROM ticket_types tt
        WHERE tt.id = ANY(v_wanted) AND tt.organization_id = p_organization_id
          AND tt.event_id = p_event_id
          AND (NOT EXISTS (SELECT 1 FROM timeslot_ticket_types l
                           WHERE l.timeslot_id = p_timeslot_id)
               OR EXISTS (SELECT 1 FROM timeslot_ticket_types l
                          WHERE l.timeslot_id = p_timeslot_id AND l.ticket_type_id = tt.id))
        FOR SHARE OF tt
    ) sellable;
    IF v_found <> cardinality(v_wanted) THEN
        IF p_hold_id IS NOT NULL THEN
            RAISE EXCEPTION 'a ticket type is not sold any more' USING ERRCODE = 'TK409';
        END IF;
        RETURN;
    END IF;
    IF p_hold_id IS NULL THEN
        IF v_slot.sold + v_slot.held + v_count > v_slot.total_available THEN
            SELECT COALESCE(SUM(h.quantity), 0) INTO lapsed FROM holds h
            WHERE h.event_timeslot_id = p_timeslot_id AND h.status = 'active'
              AND h.expires_at <= p_now;
            places_left := GREATEST(
                v_slot.total_available - v_slot.sold - v_slot.held + lapsed, 0);
            RETURN;
        END IF;
    END IF;
    INSERT INTO orders (id, organization_id, event_id, event_timeslot_id, buyer_name,
                        buyer_email, channel, payment_method, total_price, refunded, status,
                        payed_at, cancelled_at, created_at, updated_at)
    SELECT p_order_id, p_organization_id, p_event_id, p_timeslot_id, p_buyer_name,
           p_buyer_email, p_channel, p_payment_method, COALESCE(SUM(tt.price), 0), 0,
           'pending', NULL, NULL, p_now, p_now
    FROM json_to_recordset(p_tickets) AS t(ticket_type_id uuid)
    JOIN ticket_types tt ON tt.id = t.ticket_type_id
    RETURNING orders.total_price INTO total_price;
    INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, ticket_type_id,
                         order_id, scannable_code, owner_name, owner_email, seat, sequence,
                         status, scanned_at, cancelled_at, swappable, metadata, metadata_fields,
                         created_at, updated_at, inside, presence_at, signed_code, scan_key_id)
    SELECT t.id, p_organization_id, p_event_id, p_timeslot_id, t.ticket_type_id, p_order_id,
           t.scannable_code, t.owner_name, t.owner_email, t.seat, t.sequence, 'valid', NULL,
           NULL, tt.swappable, t.metadata, t.metadata_fields, p_now, p_now, false, NULL,
           t.signed_code, t.scan_key_id
    FROM json_to_recordset(p_tickets) AS t(id uuid, ticket_type_id uuid, scannable_code varchar,
                                           owner_name varchar, owner_email varchar,
                                           seat varchar, sequence int, metadata json,
                                           metadata_fields json, signed_code varchar,
                                           scan_key_id uuid)
    JOIN ticket_types tt ON tt.id = t.ticket_type_id;
    INSERT INTO outbox_events (id, organization_id, event_type, payload, created_at)
    VALUES (p_outbox_id, p_organization_id, p_event_type, p_payload, p_now);
    PERFORM pg_notify(p_notify, '');
    IF p_hold_id IS NOT NULL THEN
        UPDATE timeslots SET held = held - v_count, sold = sold + v_count
        WHERE id = p_timeslot_id;
    ELSE
        UPDATE timeslots SET sold = sold + v_count
        WHERE id = p_timeslot_id AND organization_id = p_organization_id
          AND sold + held + v_count <= total_available;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'the timeslot has too few places left' USING ERRCODE = 'TK409';
        END IF;
    END IF;
END $$
"""
SIGNATURE = (
    "order_write(uuid, uuid, uuid, uuid, uuid, varchar, varchar, varchar, varchar, timestamptz, "
    "json, uuid, varchar, json, varchar)"
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
