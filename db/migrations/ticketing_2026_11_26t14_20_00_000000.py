"""``scan_write`` sends its ``NOTIFY`` only when given a channel (issue 26 item 3).

A process that relays its own outbox (no Redis: no worker runs to listen) wakes its relay after
the commit and passes no channel: a ``NOTIFY`` takes PostgreSQL's database-wide notification lock
from before the commit to its end, so every committing scan waited for the one before it
(docs/decisions.md, "A single scan in two statements"). Otherwise the function is the one of
2026-11-26T12:30, with the same signature.

PostgreSQL only, like the function.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.migrations import ticketing_2026_11_26t12_30_00_000000 as first
from db.tables import Organization

ID = "2026-11-26T14:20:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "scan_write: NOTIFY only when given a channel"

NOTIFY = "        PERFORM pg_notify(p_notify, '');\n"
FUNCTION = first.FUNCTION.replace(
    NOTIFY, "        IF p_notify IS NOT NULL THEN\n    " + NOTIFY + "        END IF;\n"
)
assert FUNCTION != first.FUNCTION, "the NOTIFY of 2026-11-26T12:30 moved"


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(FUNCTION)

    async def revert() -> None:
        if db.engine_type != "sqlite":
            await db.run_ddl(first.FUNCTION)

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
