"""Holds (issue 25, CONTRACT.md section 16): places of a timeslot kept for a buyer until they
expire, and the timeslot's count of them.

1. ``timeslots.held``: the places of the timeslot's holds that are ``active`` in their row (some
   may have passed ``expires_at`` and not been marked ``expired`` yet: readers subtract those,
   writers mark them when they need the places; see ``db/holds.py``). Taking places is one
   conditional UPDATE of the row: ``sold + held + n <= total_available``.
2. ``holds``: one row per hold, its ticket types as JSON (``tickets``) and their number
   (``quantity``). ``holds_timeslot_status_expiry`` serves the holds of a timeslot that have
   lapsed (``status = 'active' AND expires_at <= now``) and the cascade from the timeslot.
   ``order_id`` names the order a hold became; it is set in the statement that converts the
   hold, before the order's row is written in the same transaction, hence no foreign key.
3. On PostgreSQL a rule of the table itself, ``timeslots_capacity_kept``: ``sold`` and ``held``
   never below 0 and ``sold + held <= total_available``, whatever a statement does (SQLite
   cannot add a constraint to an existing table; its writes are serialized anyway).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T11:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "holds: places kept until they expire, and timeslots.held"

HOLD_STATUSES = ("active", "converted", "released", "expired")

HELD = "ALTER TABLE timeslots ADD COLUMN held INTEGER NOT NULL DEFAULT 0"
HOLDS = (
    "CREATE TABLE holds ("
    "id UUID PRIMARY KEY, "
    "organization_id UUID NOT NULL REFERENCES organizations (id) ON DELETE CASCADE, "
    "event_id UUID NOT NULL REFERENCES events (id) ON DELETE CASCADE, "
    "event_timeslot_id UUID NOT NULL REFERENCES timeslots (id) ON DELETE CASCADE, "
    "status VARCHAR(10) NOT NULL DEFAULT 'active' CONSTRAINT holds_status_allowed "
    f"CHECK (status IN ({', '.join(repr(s) for s in HOLD_STATUSES)})), "
    "quantity INTEGER NOT NULL CONSTRAINT holds_quantity_positive CHECK (quantity > 0), "
    "tickets JSON NOT NULL, "
    "order_id UUID NULL, "
    "expires_at TIMESTAMPTZ NOT NULL, "
    "created_at TIMESTAMPTZ NOT NULL, "
    "updated_at TIMESTAMPTZ NOT NULL)"
)
INDEXES = [
    "CREATE INDEX holds_timeslot_status_expiry ON holds (event_timeslot_id, status, expires_at)",
    "CREATE INDEX holds_event ON holds (event_id)",
    "CREATE INDEX holds_organization ON holds (organization_id)",
    "CREATE INDEX holds_order ON holds (order_id)",
]
CAPACITY_RULE = (
    "ALTER TABLE timeslots ADD CONSTRAINT timeslots_capacity_kept "
    "CHECK (sold >= 0 AND held >= 0 AND sold + held <= total_available)"
)
DROPPED_INDEXES = ["holds_order", "holds_organization", "holds_event", "holds_timeslot_status_expiry"]


def _db() -> Engine:
    return Organization._meta.db


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        postgres = _db().engine_type != "sqlite"
        await _run(HELD, HOLDS, *INDEXES, *([CAPACITY_RULE] if postgres else []))

    async def revert() -> None:
        postgres = _db().engine_type != "sqlite"
        await _run(
            *(["ALTER TABLE timeslots DROP CONSTRAINT timeslots_capacity_kept"] if postgres else []),
            *(f"DROP INDEX IF EXISTS {name}" for name in DROPPED_INDEXES),
            "DROP TABLE IF EXISTS holds",
            "ALTER TABLE timeslots DROP COLUMN held",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
