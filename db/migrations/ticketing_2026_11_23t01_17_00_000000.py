"""Exact list totals without counting rows: tickets per event and orders per event, by status.

``ticket_counts`` and ``order_counts`` hold, per event, how many rows of each status the table
has. Triggers keep them in the transaction that changes the rows (an order placed, a scan, a
cancellation, a delete), so a total read from them is as exact as ``COUNT(*)`` under any
concurrency, and a rolled-back change never counts. ``db/counts.py`` reads them.

- PostgreSQL: one statement-level trigger per operation, with transition tables, adds up the
  change of the whole statement (``COPY`` of a million tickets is one upsert per event). Each
  database connection writes its own row of an event (``shard`` is ``pg_backend_pid()``), and a
  connection runs one transaction at a time, so two transactions never wait for each other's
  counter row: no scan queues behind another on its event's count, and the counts add no lock
  that could close a deadlock with the rows the transactions change (a single row per event did:
  an order holding its timeslot waited for the count a cancellation held while that
  cancellation waited for the timeslot). ``db/counts.py`` folds the rows of an event into shard
  0 when they become many.
- SQLite (the demo, one writer at a time): row triggers on shard 0.

The rows that exist when this runs are counted once here.
"""

from __future__ import annotations

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

from db.tables import Organization

ID = "2026-11-23T01:17:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "ticket and order totals per event and status, kept by triggers"

COUNTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "tickets": ("ticket_counts", ("valid", "scanned", "cancelled")),
    "orders": ("order_counts", ("pending", "confirmed", "cancelled")),
}
"""Counted table -> (its counts table, the statuses counted: the CHECK of 2026-11-23T00:40)."""


def _create_table(counts: str, statuses: tuple[str, ...]) -> list[str]:
    columns = ", ".join(f"{status} BIGINT NOT NULL DEFAULT 0" for status in statuses)
    return [
        f"CREATE TABLE {counts} (organization_id UUID NOT NULL, event_id UUID NOT NULL, "
        f"shard INTEGER NOT NULL, {columns}, PRIMARY KEY (event_id, shard))",
        f"CREATE INDEX {counts}_organization ON {counts} (organization_id)",
    ]


def _fill(table: str, counts: str, statuses: tuple[str, ...]) -> str:
    sums = ", ".join(f"SUM(CASE WHEN status = '{s}' THEN 1 ELSE 0 END)" for s in statuses)
    return (
        f"INSERT INTO {counts} (organization_id, event_id, shard, {', '.join(statuses)}) "
        f"SELECT organization_id, event_id, 0, {sums} FROM {table} "
        f"GROUP BY organization_id, event_id"
    )


def _postgres_triggers(table: str, counts: str, statuses: tuple[str, ...]) -> list[str]:
    names = ", ".join(statuses)

    def rows(source: str, sign: str) -> str:
        flags = ", ".join(f"{sign}(status = '{s}')::int AS {s}" for s in statuses)
        return f"SELECT organization_id, event_id, {flags} FROM {source}"

    def upsert(changes: str) -> str:
        sums = ", ".join(f"SUM({s})" for s in statuses)
        nonzero = " OR ".join(f"SUM({s}) <> 0" for s in statuses)
        updates = ", ".join(f"{s} = c.{s} + EXCLUDED.{s}" for s in statuses)
        return (
            f"INSERT INTO {counts} AS c (organization_id, event_id, shard, {names}) "
            f"SELECT organization_id, event_id, pg_backend_pid(), {sums} "
            f"FROM ({changes}) AS changes GROUP BY organization_id, event_id "
            f"HAVING {nonzero} ORDER BY event_id "
            f"ON CONFLICT (event_id, shard) DO UPDATE SET {updates};"
        )

    function = f"""
        CREATE FUNCTION count_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                {upsert(rows("new_rows", ""))}
            ELSIF TG_OP = 'UPDATE' THEN
                {upsert(rows("new_rows", "") + " UNION ALL " + rows("old_rows", "-"))}
            ELSE
                {upsert(rows("old_rows", "-"))}
            END IF;
            RETURN NULL;
        END $$"""
    transitions = {
        "INSERT": "NEW TABLE AS new_rows",
        "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
        "DELETE": "OLD TABLE AS old_rows",
    }
    return [function] + [
        f"CREATE TRIGGER count_{table}_{operation.lower()} AFTER {operation} ON {table} "
        f"REFERENCING {transition} FOR EACH STATEMENT EXECUTE FUNCTION count_{table}()"
        for operation, transition in transitions.items()
    ]


def _sqlite_triggers(table: str, counts: str, statuses: tuple[str, ...]) -> list[str]:
    names = ", ".join(statuses)
    updates = ", ".join(f"{s} = {s} + excluded.{s}" for s in statuses)

    def upsert(row: str, values: str) -> str:
        return (
            f"INSERT INTO {counts} (organization_id, event_id, shard, {names}) "
            f"VALUES ({row}.organization_id, {row}.event_id, 0, {values}) "
            f"ON CONFLICT (event_id, shard) DO UPDATE SET {updates};"
        )

    added = ", ".join(f"(new.status = '{s}')" for s in statuses)
    removed = ", ".join(f"-(old.status = '{s}')" for s in statuses)
    moved = ", ".join(f"(new.status = '{s}') - (old.status = '{s}')" for s in statuses)
    return [
        f"CREATE TRIGGER count_{table}_insert AFTER INSERT ON {table} "
        f"BEGIN {upsert('new', added)} END",
        f"CREATE TRIGGER count_{table}_update AFTER UPDATE OF status ON {table} "
        f"WHEN old.status IS NOT new.status BEGIN {upsert('new', moved)} END",
        f"CREATE TRIGGER count_{table}_delete AFTER DELETE ON {table} "
        f"BEGIN {upsert('old', removed)} END",
    ]


def statements(postgres: bool) -> list[str]:
    found = []
    for table, (counts, statuses) in COUNTED.items():
        found += _create_table(counts, statuses)
        found.append(_fill(table, counts, statuses))
        make = _postgres_triggers if postgres else _sqlite_triggers
        found += make(table, counts, statuses)
    return found


def _drops(postgres: bool) -> list[str]:
    found = []
    for table, (counts, _) in COUNTED.items():
        for operation in ("insert", "update", "delete"):
            found.append(f"DROP TRIGGER IF EXISTS count_{table}_{operation}" + (
                f" ON {table}" if postgres else ""
            ))
        if postgres:
            found.append(f"DROP FUNCTION IF EXISTS count_{table}()")
        found.append(f"DROP TABLE IF EXISTS {counts}")
    return found


async def forwards() -> MigrationManager:
    manager = MigrationManager(migration_id=ID, app_name="ticketing", description=DESCRIPTION)
    db = Organization._meta.db

    async def create() -> None:
        for statement in statements(db.engine_type == "postgres"):
            await db.run_ddl(statement)

    async def drop() -> None:
        for statement in _drops(db.engine_type == "postgres"):
            await db.run_ddl(statement)

    manager.add_raw(create)
    manager.add_raw_backwards(drop)
    return manager
