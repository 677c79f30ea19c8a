"""The foreign keys from orders and tickets to their timeslot are checked at commit (issue 25
item 5): ``DEFERRABLE INITIALLY DEFERRED``.

A foreign key's check share-locks the row it refers to (``FOR KEY SHARE``). An order takes its
places in its last statement (``order_write``, migration 2026-11-26T14:40), so its order and
tickets were checked, and the timeslot's row key-share locked, before that UPDATE, while other
transactions were updating the same row. A row updated while others hold such locks gets a
MultiXact as ``xmax`` (the lockers and the updater), and every later reader of each of its row
versions looks the MultiXact's members up again (no hint bit records its outcome): on a timeslot
of an on-sale, updated hundreds of times a second, that made each statement touching the row
cost milliseconds (measured: half the rate of holds and orders on one timeslot, against the
deferred check; 17,000 MultiXacts in 25 seconds, against 8,500).

Checked at commit, the check finds the row already updated by its own transaction: it locks a
row version its transaction wrote, and no MultiXact is made. The rule is the same (a violation
still fails the transaction, at its commit), and the only writer of these rows, an order, either
updates the timeslot's row itself (``order_write``) or key-share locks it before writing
(the transaction of ``app.services.orders``, through ``app.services.sellable``), as before.

PostgreSQL only (SQLite checks its foreign keys per statement and serializes writers anyway).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-27T02:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "foreign keys from orders and tickets to their timeslot checked at commit"

CONSTRAINTS = {
    "orders": "orders_event_timeslot_id_fkey",
    "tickets": "tickets_event_timeslot_id_fkey",
}
"""Table -> its foreign key to ``timeslots``."""


def _statements(deferred: bool) -> list[str]:
    mode = "DEFERRABLE INITIALLY DEFERRED" if deferred else "NOT DEFERRABLE"
    return [
        f"ALTER TABLE {table} ALTER CONSTRAINT {constraint} {mode}"
        for table, constraint in CONSTRAINTS.items()
    ]


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            for statement in _statements(deferred=True):
                await db.run_ddl(statement)

    async def revert() -> None:
        if db.engine_type != "sqlite":
            for statement in _statements(deferred=False):
                await db.run_ddl(statement)

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
