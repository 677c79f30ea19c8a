"""The door at scale (issue 26, CONTRACT.md section 17): entry policies, exit scans, presence and
attendance counters.

1. ``scanner_profiles.entry_policy``: ``single`` (every existing profile: one admission per ticket
   ever), ``reentry`` or ``multiple``.
2. ``scans.direction``: ``entry`` (every existing scan) or ``exit``; ``scans.result_inside``:
   the presence the answer carried, so that a repeated nonce answers the same; the reasons
   ``not_inside``
   and ``already_inside`` join the allowed ones (the rule of 2026-11-23T00:40 is replaced under
   its name: PostgreSQL's CHECK, SQLite's triggers).
3. ``tickets.inside`` and ``tickets.presence_at``: the ticket's presence, the direction of its
   latest valid scan by ``scanned_at``, and that scan's ``scanned_at`` (a late upload changes
   presence only when it is later). A ticket admitted before this migration is inside since
   its admission.
4. ``attendance_counts``: per timeslot, tickets ever admitted, inside now, valid entries and
   exits; written by the scans' own statements (``db/scans.py``), one row per timeslot and
   shard (``pg_backend_pid() % 16`` on PostgreSQL, so concurrent scans rarely wait on one
   counter row; 0 on SQLite), summed when read. Filled here from the tickets and the scan log.

During a rolling deploy the previous release's scans set no presence and count nothing: roll the
door nodes before the gates open.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager
from piccolo.engine.base import Engine

from db.tables import Organization

ID = "2026-11-26T12:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "entry policies, exit scans, ticket presence, attendance counters"

POLICIES = ("single", "reentry", "multiple")
DIRECTIONS = ("entry", "exit")
REASONS_BEFORE = (
    "scanner_inactive", "event_not_allowed", "ticket_type_not_allowed", "timeslot_not_allowed",
    "too_early", "too_late", "order_not_confirmed", "cancelled", "already_scanned",
)  # fmt: skip
REASONS_AFTER = (*REASONS_BEFORE, "not_inside", "already_inside")


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


COLUMNS = [
    "ALTER TABLE scanner_profiles ADD COLUMN entry_policy VARCHAR(10) NOT NULL DEFAULT 'single' "
    f"CONSTRAINT scanner_profiles_entry_policy_allowed CHECK (entry_policy IN ({_listed(POLICIES)}))",
    "ALTER TABLE scans ADD COLUMN direction VARCHAR(5) NOT NULL DEFAULT 'entry' "
    f"CONSTRAINT scans_direction_allowed CHECK (direction IN ({_listed(DIRECTIONS)}))",
    "ALTER TABLE scans ADD COLUMN result_inside BOOLEAN DEFAULT NULL",
    "ALTER TABLE tickets ADD COLUMN inside BOOLEAN NOT NULL DEFAULT FALSE",
    "ALTER TABLE tickets ADD COLUMN presence_at TIMESTAMPTZ DEFAULT NULL",
]
PRESENCE = (
    "UPDATE tickets SET inside = TRUE, presence_at = scanned_at WHERE scanned_at IS NOT NULL"
)
COUNTS = (
    "CREATE TABLE attendance_counts (organization_id UUID NOT NULL, event_id UUID NOT NULL, "
    "timeslot_id UUID NOT NULL, shard INTEGER NOT NULL, admitted BIGINT NOT NULL DEFAULT 0, "
    "inside BIGINT NOT NULL DEFAULT 0, entries BIGINT NOT NULL DEFAULT 0, "
    "exits BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (timeslot_id, shard))"
)
COUNTS_INDEX = "CREATE INDEX attendance_counts_event ON attendance_counts (event_id)"
FILL = (
    "INSERT INTO attendance_counts (organization_id, event_id, timeslot_id, shard, admitted, "
    "inside, entries, exits) "
    "SELECT t.organization_id, t.event_id, t.event_timeslot_id, 0, COUNT(*), COUNT(*), "
    "(SELECT COUNT(*) FROM scans s JOIN tickets u ON u.id = s.ticket_id "
    "WHERE u.event_timeslot_id = t.event_timeslot_id AND s.status = 'valid'), 0 "
    "FROM tickets t WHERE t.scanned_at IS NOT NULL "
    "GROUP BY t.organization_id, t.event_id, t.event_timeslot_id"
)


def _db() -> Engine:
    return Organization._meta.db


def _sqlite() -> bool:
    return _db().engine_type == "sqlite"


async def _run(*statements: str) -> None:
    for statement in statements:
        await _db().run_ddl(statement)


async def _replace_reasons(values: tuple[str, ...]) -> None:
    """The rule ``scans_reason_allowed`` of migration 2026-11-23T00:40, with ``values``."""
    name = "scans_reason_allowed"
    if not _sqlite():
        await _run(
            f"ALTER TABLE scans DROP CONSTRAINT IF EXISTS {name}",
            f"ALTER TABLE scans ADD CONSTRAINT {name} "
            f"CHECK (reason IS NULL OR reason IN ({_listed(values)}))",
        )
        return
    condition = f"NEW.reason IS NULL OR NEW.reason IN ({_listed(values)})"
    abort = f"SELECT RAISE(ABORT, 'CHECK constraint failed: {name}');"
    await _run(
        f"DROP TRIGGER IF EXISTS {name}_insert",
        f"DROP TRIGGER IF EXISTS {name}_update",
        f"CREATE TRIGGER {name}_insert BEFORE INSERT ON scans "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
        f"CREATE TRIGGER {name}_update BEFORE UPDATE OF reason ON scans "
        f"WHEN NOT ({condition}) BEGIN {abort} END",
    )


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)

    async def apply() -> None:
        await _run(*COLUMNS, PRESENCE, COUNTS, COUNTS_INDEX, FILL)
        await _replace_reasons(REASONS_AFTER)

    async def revert() -> None:
        await _run(
            "UPDATE scans SET reason = NULL WHERE reason IN ('not_inside', 'already_inside')",
            "DELETE FROM scans WHERE direction = 'exit'",
        )
        await _replace_reasons(REASONS_BEFORE)
        await _run(
            "DROP TABLE IF EXISTS attendance_counts",
            "ALTER TABLE tickets DROP COLUMN presence_at",
            "ALTER TABLE tickets DROP COLUMN inside",
            "ALTER TABLE scans DROP COLUMN result_inside",
            "ALTER TABLE scans DROP COLUMN direction",
            "ALTER TABLE scanner_profiles DROP COLUMN entry_policy",
        )

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
