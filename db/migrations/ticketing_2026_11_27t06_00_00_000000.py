"""The allowed values of the rows an admission writes, each rule one array constant (issue 26
item 3): the same rules, cheaper to check.

PostgreSQL 15 does not keep a table's CHECK rules ready between statements: every statement that
writes the table reads each rule back from its stored node tree and runs the expression planner
over it (``ExecRelCheck``). ``status IS NULL OR status IN ('valid', ...)`` is stored as a NULL
test and an ``ARRAY`` of ``varchar`` constants cast to ``text[]``, which is read and folded into
one constant again every time. An admission writes a scan log row (three rules), a ticket (one)
and an outbox row (one): ``ExecConstraints`` took about 5 % of PostgreSQL's CPU per admission in
``perf``, and a single-row insert into a copy of the scan log took 26 to 35 us with its three
rules, 12 to 15 us with them written as here, 2.5 us with none (20,000 rows in a PL/pgSQL loop,
alternated three times).

Each rule keeps its name and its allowed set (migrations 2026-11-23T00:40, 2026-11-23T02:02:30
and 2026-11-26T12:00) and is written ``column::text = ANY ('{...}'::text[])``: one constant, no
cast to fold. A NULL still passes (the comparison is NULL, which a CHECK accepts), so the
``IS NULL OR`` is not written. Each table's rules are replaced in one ``ALTER TABLE`` as ``NOT
VALID`` (no scan while the table is locked), then validated (a scan that lets writes through);
the rows met the same rules before.

PostgreSQL only: SQLite keeps its triggers (the demo). The other tables' rules keep their form
(nothing on a hot path writes them one row per request but an order).
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.migrations import ticketing_2026_11_23t00_40_00_000000 as rules
from db.migrations import ticketing_2026_11_23t02_02_30_000000 as webhooks
from db.migrations import ticketing_2026_11_26t12_00_00_000000 as presence
from db.tables import Organization

ID = "2026-11-27T06:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "the rules of scans, tickets and outbox events as one array constant each"

ALLOWED: dict[tuple[str, str], tuple[str, ...]] = {
    ("tickets", "status"): rules.ALLOWED["tickets", "status"],
    ("scans", "status"): rules.ALLOWED["scans", "status"],
    ("scans", "reason"): presence.REASONS_AFTER,
    ("scans", "direction"): presence.DIRECTIONS,
    ("outbox_events", "event_type"): webhooks.AFTER["outbox_events", "event_type"],
}
"""(table, column) -> the values it may hold, as the earlier migrations left them."""
NOT_NULL = {("scans", "direction")}
"""Columns whose earlier rule had no ``IS NULL OR`` (the column is NOT NULL)."""


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _condition(table: str, column: str, *, before: bool = False) -> str:
    """The rule ``{table}_{column}_allowed``: as this migration writes it, or as it was."""
    values = ALLOWED[table, column]
    if not before:
        return f"{column}::text = ANY ('{{{','.join(values)}}}'::text[])"
    listed = f"{column} IN ({_listed(values)})"
    return listed if (table, column) in NOT_NULL else f"{column} IS NULL OR {listed}"


def _statements(*, before: bool = False) -> list[str]:
    """Per table, its rules replaced in one ALTER TABLE (NOT VALID), then validated."""
    statements: list[str] = []
    for table in dict.fromkeys(table for table, _ in ALLOWED):
        names = [(column, f"{table}_{column}_allowed") for t, column in ALLOWED if t == table]
        actions = [f"DROP CONSTRAINT {name}" for _, name in names] + [
            f"ADD CONSTRAINT {name} CHECK ({_condition(table, column, before=before)}) NOT VALID"
            for column, name in names
        ]
        statements.append(f"ALTER TABLE {table} {', '.join(actions)}")
        statements += [f"ALTER TABLE {table} VALIDATE CONSTRAINT {name}" for _, name in names]
    return statements


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def apply() -> None:
        if db.engine_type != "sqlite":
            for statement in _statements():
                await db.run_ddl(statement)

    async def revert() -> None:
        if db.engine_type != "sqlite":
            for statement in _statements(before=True):
                await db.run_ddl(statement)

    manager.add_raw(apply)
    manager.add_raw_backwards(revert)
    return manager
