"""The SQL of a timeslot's capacity: holds taking places, orders selling them, expired holds.

A timeslot row carries ``total_available``, ``sold`` and ``held``; every change of ``sold`` or
``held`` is one statement on that row, and the statements that take places are conditional
(``sold + held + n <= total_available``), so the row's lock orders them and no interleaving can
oversell (PostgreSQL also refuses it by the rule ``timeslots_capacity_kept``). A statement holds
the row's lock from its UPDATE to its commit, so every taker either runs as a statement of its own
(a hold: the conditional UPDATE and the hold's INSERT in one statement, committed at once) or as
the last statement of its transaction (an order): the lock is never held while other work runs.

An expired hold stops counting at ``expires_at`` without a job: ``held`` still includes it until
its row is marked ``expired``, so readers subtract the places of lapsed holds
(:data:`LAPSED`, a range of ``holds_timeslot_status_expiry`` that holds only holds past their
expiry and not yet marked) and a taker that finds too few places marks them (:func:`reclaim`,
skipping rows another transaction is converting or releasing) and tries once more.

Lock order, so that nothing deadlocks: a hold's row before its timeslot's, and nobody waits for a
hold's row while holding a timeslot's.

PostgreSQL runs each step as one statement (data-modifying CTEs); SQLite, whose write
transactions hold the database's one write lock, runs the same steps as statements in a
transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from db.rows import postgres
from db.tables import Hold, Timeslot
from db.transactions import transaction

HOLD_COLUMNS = "id, event_id, event_timeslot_id, status, tickets, quantity, expires_at, created_at"

LAPSED = (
    "(SELECT COALESCE(SUM(h.quantity), 0) FROM holds h WHERE h.event_timeslot_id = t.id "
    "AND h.status = 'active' AND h.expires_at <= {})"
)
"""The places of the timeslot ``t``'s holds that expired and are not marked yet."""


async def take(
    organization_id: UUID,
    timeslot_id: UUID,
    hold_id: UUID,
    tickets: str,
    quantity: int,
    now: datetime,
    expires_at: datetime,
) -> dict[str, Any] | None:
    """A new active hold of ``quantity`` places (``tickets`` its JSON), or ``None`` when the
    timeslot (of the organization) has fewer places left."""
    if not postgres():
        async with transaction():
            taken = await Timeslot.raw(
                "UPDATE timeslots SET held = held + {} WHERE id = {} AND organization_id = {} "
                "AND sold + held + {} <= total_available RETURNING event_id",
                quantity,
                timeslot_id,
                organization_id,
                quantity,
            )
            if not taken:
                return None
            rows: list[dict[str, Any]] = await Hold.raw(
                "INSERT INTO holds (id, organization_id, event_id, event_timeslot_id, status, "
                "quantity, tickets, expires_at, created_at, updated_at) "
                f"VALUES ({{}}, {{}}, {{}}, {{}}, 'active', {{}}, {{}}, {{}}, {{}}, {{}}) "
                f"RETURNING {HOLD_COLUMNS}",
                hold_id,
                organization_id,
                taken[0]["event_id"],
                timeslot_id,
                quantity,
                tickets,
                expires_at,
                now,
                now,
            )
            return rows[0]
    rows = await Hold.raw(
        "WITH taken AS (UPDATE timeslots SET held = held + {}::int WHERE id = {}::uuid "
        "AND organization_id = {}::uuid AND sold + held + {}::int <= total_available "
        "RETURNING id, event_id) "
        "INSERT INTO holds (id, organization_id, event_id, event_timeslot_id, status, quantity, "
        "tickets, expires_at, created_at, updated_at) "
        "SELECT {}::uuid, {}::uuid, event_id, id, 'active', {}::int, {}::json, {}::timestamptz, "
        f"{{}}::timestamptz, {{}}::timestamptz FROM taken RETURNING {HOLD_COLUMNS}",
        quantity,
        timeslot_id,
        organization_id,
        quantity,
        hold_id,
        organization_id,
        quantity,
        tickets,
        expires_at,
        now,
        now,
    )
    return rows[0] if rows else None


async def reclaim(timeslot_id: UUID, now: datetime) -> int:
    """Mark the timeslot's lapsed holds ``expired`` and give their places back; the number of
    places given back. Holds that another transaction has locked (converting or releasing them)
    are left to it."""
    if not postgres():
        async with transaction():
            lapsed: list[dict[str, Any]] = await Hold.raw(
                "UPDATE holds SET status = 'expired', updated_at = {} WHERE event_timeslot_id = {} "
                "AND status = 'active' AND expires_at <= {} RETURNING quantity",
                now,
                timeslot_id,
                now,
            )
            places: int = sum(row["quantity"] for row in lapsed)
            if places:
                await Timeslot.raw(
                    "UPDATE timeslots SET held = held - {} WHERE id = {}", places, timeslot_id
                )
            return places
    rows = await Timeslot.raw(
        "WITH lapsed AS (UPDATE holds SET status = 'expired', updated_at = {} WHERE id IN "
        "(SELECT id FROM holds WHERE event_timeslot_id = {} AND status = 'active' "
        "AND expires_at <= {} FOR UPDATE SKIP LOCKED) RETURNING quantity), "
        "freed AS (SELECT COALESCE(SUM(quantity), 0)::int AS places FROM lapsed) "
        "UPDATE timeslots SET held = held - freed.places FROM freed "
        "WHERE timeslots.id = {} AND freed.places > 0 RETURNING freed.places",
        now,
        timeslot_id,
        now,
        timeslot_id,
    )
    return int(rows[0]["places"]) if rows else 0


async def claim(organization_id: UUID, timeslot_id: UUID, quantity: int) -> bool:
    """Sell ``quantity`` more places of the timeslot if it has them (one conditional UPDATE)."""
    return bool(
        await Timeslot.raw(
            "UPDATE timeslots SET sold = sold + {} WHERE id = {} AND organization_id = {} "
            "AND sold + held + {} <= total_available RETURNING id",
            quantity,
            timeslot_id,
            organization_id,
            quantity,
        )
    )


async def sell_held(timeslot_id: UUID, quantity: int) -> None:
    """Move ``quantity`` places of the timeslot from held to sold (a hold became an order)."""
    await Timeslot.raw(
        "UPDATE timeslots SET held = held - {}, sold = sold + {} WHERE id = {}",
        quantity,
        quantity,
        timeslot_id,
    )


async def convert(
    organization_id: UUID, hold_id: UUID, order_id: UUID, now: datetime
) -> dict[str, Any] | None:
    """Mark the active, unexpired hold converted into ``order_id``; ``None`` when it is not
    (any more) active or has expired. Its places move to sold with :func:`sell_held`."""
    rows = await Hold.raw(
        "UPDATE holds SET status = 'converted', order_id = {}, updated_at = {} "
        "WHERE id = {} AND organization_id = {} AND status = 'active' AND expires_at > {} "
        f"RETURNING {HOLD_COLUMNS}",
        order_id,
        now,
        hold_id,
        organization_id,
        now,
    )
    return rows[0] if rows else None


async def release(organization_id: UUID, hold_id: UUID, now: datetime) -> dict[str, Any] | None:
    """Mark the hold released if its row is active (also when it has lapsed) and give its
    places back, in one statement; ``None`` when its row was not active."""
    if not postgres():
        async with transaction():
            rows = await Hold.raw(
                "UPDATE holds SET status = 'released', updated_at = {} WHERE id = {} "
                f"AND organization_id = {{}} AND status = 'active' RETURNING {HOLD_COLUMNS}",
                now,
                hold_id,
                organization_id,
            )
            if rows:
                await Timeslot.raw(
                    "UPDATE timeslots SET held = held - {} WHERE id = {}",
                    rows[0]["quantity"],
                    rows[0]["event_timeslot_id"],
                )
            return rows[0] if rows else None
    rows = await Hold.raw(
        "WITH released AS (UPDATE holds SET status = 'released', updated_at = {} WHERE id = {} "
        f"AND organization_id = {{}} AND status = 'active' RETURNING {HOLD_COLUMNS}), "
        "freed AS (UPDATE timeslots SET held = held - released.quantity FROM released "
        "WHERE timeslots.id = released.event_timeslot_id RETURNING timeslots.id) "
        f"SELECT {HOLD_COLUMNS} FROM released",
        now,
        hold_id,
        organization_id,
    )
    return rows[0] if rows else None


async def find(organization_id: UUID, hold_id: UUID) -> dict[str, Any] | None:
    rows = await Hold.raw(
        f"SELECT {HOLD_COLUMNS} FROM holds WHERE id = {{}} AND organization_id = {{}}",
        hold_id,
        organization_id,
    )
    return rows[0] if rows else None


async def figures(
    organization_id: UUID,
    now: datetime,
    *,
    event_ids: list[UUID] | None = None,
    timeslot_ids: list[UUID] | None = None,
) -> list[dict[str, Any]]:
    """Each timeslot's ``total_available``, ``sold`` and ``held`` (lapsed holds left out) as of
    ``now``, and ``lapsed`` (the places of its holds that lapsed and are not marked yet), in one
    statement, by start: those of the events named, or the timeslots named."""
    column, ids = ("t.event_id", event_ids) if event_ids is not None else ("t.id", timeslot_ids)
    ids = ids or []
    placeholders = ", ".join("{}" for _ in ids) or "NULL"
    rows: list[dict[str, Any]] = await Timeslot.raw(
        "SELECT timeslot_id, event_id, total_available, sold, held - lapsed AS held, lapsed "
        "FROM (SELECT t.id AS timeslot_id, t.event_id, t.total_available, t.sold, t.held, "
        f"{LAPSED} AS lapsed, t.starts_at FROM timeslots t "
        f"WHERE t.organization_id = {{}} AND {column} IN ({placeholders})) f "
        "ORDER BY starts_at, timeslot_id",
        now,
        organization_id,
        *ids,
    )
    return rows


async def sale(
    organization_id: UUID, timeslot_id: UUID, ticket_type_ids: list[UUID], *, lock: bool
) -> list[dict[str, Any]]:
    """In one statement: the organization's timeslot with each wanted ticket type of its event
    (one row per ticket type found), and whether the timeslot sells it (``sellable``: it lists
    the ticket type, or lists none). No row when the timeslot or every ticket type is missing.
    With ``lock`` (PostgreSQL) the timeslot is key-share and the ticket types share locked, as
    ``app.services.sellable`` explains."""
    placeholders = ", ".join("{}" for _ in ticket_type_ids) or "NULL"
    locks = " FOR KEY SHARE OF t FOR SHARE OF tt" if lock and postgres() else ""
    rows: list[dict[str, Any]] = await Timeslot.raw(
        "SELECT t.event_id, t.total_available, t.sold, t.held, tt.id AS ticket_type_id, "
        "tt.price, tt.swappable, (NOT EXISTS (SELECT 1 FROM timeslot_ticket_types l "
        "WHERE l.timeslot_id = t.id) OR EXISTS (SELECT 1 FROM timeslot_ticket_types l "
        "WHERE l.timeslot_id = t.id AND l.ticket_type_id = tt.id)) AS sellable "
        "FROM timeslots t JOIN ticket_types tt ON tt.event_id = t.event_id "
        f"AND tt.organization_id = t.organization_id AND tt.id IN ({placeholders}) "
        f"WHERE t.id = {{}} AND t.organization_id = {{}}{locks}",
        *ticket_type_ids,
        timeslot_id,
        organization_id,
    )
    return rows
