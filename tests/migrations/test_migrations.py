"""The migration that adds the status rules and turns scanner profile targets into foreign keys,
on PostgreSQL and on SQLite: existing rows move over, the rules hold on both engines, and it can
be reversed. Each case migrates a database of its own in a subprocess (the engine is global)."""

from __future__ import annotations

import asyncio
import importlib
import os
import re
import sqlite3
import sys
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests import harness
from tests.dates import YEAR

RULES = importlib.import_module("db.migrations.ticketing_2026_11_23t00_40_00_000000")
BEFORE = importlib.import_module("db.migrations.ticketing_2026_11_22t03_45_00_000000")
MIGRATE = """
import asyncio, sys
import db
from piccolo.apps.migrations.commands.backwards import run_backwards
from piccolo.apps.migrations.commands.forwards import run_forwards
direction, migration_id = sys.argv[1:3]
if direction == "forwards":
    result = asyncio.run(run_forwards("ticketing", migration_id=migration_id))
else:
    result = asyncio.run(run_backwards("ticketing", migration_id=migration_id, auto_agree=True))
sys.exit(0 if result.success else 1)
"""


class Database:
    """A fresh database of one engine: statements with ``?`` placeholders, and migrations."""

    def __init__(self, url: str, connection: Any) -> None:
        self.url = url
        self.connection = connection
        self.sqlite = isinstance(connection, sqlite3.Connection)

    async def migrate(self, direction: str, migration_id: str) -> None:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", MIGRATE, direction, migration_id,
            env={**os.environ, "DATABASE_URL": self.url},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        output, _ = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, output.decode()

    def _value(self, value: Any) -> Any:
        return str(value) if self.sqlite and isinstance(value, uuid.UUID) else value

    async def execute(self, statement: str, *args: Any) -> None:
        values = [self._value(v) for v in args]
        if self.sqlite:
            try:
                self.connection.execute(statement, values)
            except sqlite3.Error:
                self.connection.rollback()  # a refused write must not keep the file locked
                raise
            self.connection.commit()
        else:
            await self.connection.execute(_numbered(statement), *values)

    async def rows(self, statement: str, *args: Any) -> list[tuple[Any, ...]]:
        values = [self._value(v) for v in args]
        if self.sqlite:
            return [
                tuple(uuid.UUID(v) if _is_uuid(v) else v for v in row)
                for row in self.connection.execute(statement, values).fetchall()
            ]
        return [tuple(row) for row in await self.connection.fetch(_numbered(statement), *values)]

    @property
    def refused(self) -> type[Exception]:
        """What a broken rule raises: a CHECK violation, or the trigger's abort on SQLite."""
        return sqlite3.IntegrityError if self.sqlite else asyncpg.IntegrityConstraintViolationError


def _numbered(statement: str) -> str:
    count = iter(range(1, statement.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", statement)


def _is_uuid(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(
        r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", value
    )


@asynccontextmanager
async def fresh(engine: str, tmp_path: Path) -> AsyncIterator[Database]:
    if engine == "sqlite":
        path = tmp_path / "migrations.sqlite3"
        connection = sqlite3.connect(path)
        connection.execute("PRAGMA foreign_keys = 1")
        try:
            yield Database(f"sqlite:///{path}", connection)
        finally:
            connection.close()
        return
    name = f"{harness.RUN_NAME}_migrations"
    await harness.create_database(name)
    url = f"{harness.POSTGRES_URL.rstrip('/')}/{name}"
    connection = await asyncpg.connect(url)
    try:
        yield Database(url, connection)
    finally:
        await connection.close()
        await harness.drop_database(name)


async def _seed(db: Database) -> dict[str, uuid.UUID]:
    """An organization with an event, a ticket type, a timeslot and a profile that names each,
    plus a target whose event is gone, as the schema before the migration stores them."""
    ids = {name: uuid.uuid4() for name in ("org", "event", "type", "slot", "profile", "gone")}
    await db.execute("INSERT INTO organizations (id, name) VALUES (?, 'Org')", ids["org"])
    await db.execute(
        "INSERT INTO events (id, organization_id, title) VALUES (?, ?, 'Show')",
        ids["event"], ids["org"],
    )  # fmt: skip
    await db.execute(
        "INSERT INTO ticket_types (id, organization_id, event_id, name, price) "
        "VALUES (?, ?, ?, 'Adult', 10)",
        ids["type"], ids["org"], ids["event"],
    )  # fmt: skip
    await db.execute(
        "INSERT INTO timeslots (id, organization_id, event_id, title, total_available) "
        "VALUES (?, ?, ?, 'Evening', 10)",
        ids["slot"], ids["org"], ids["event"],
    )  # fmt: skip
    await db.execute(
        "INSERT INTO scanner_profiles (id, organization_id, name) VALUES (?, ?, 'Door')",
        ids["profile"], ids["org"],
    )  # fmt: skip
    for kind, target in (
        ("event", ids["event"]),
        ("ticket_type", ids["type"]),
        ("timeslot", ids["slot"]),
        ("event", ids["gone"]),
    ):
        await db.execute(
            "INSERT INTO scanner_profile_targets (id, profile_id, kind, target_id) "
            "VALUES (?, ?, ?, ?)",
            uuid.uuid4(), ids["profile"], kind, target,
        )  # fmt: skip
    return ids


async def _targets(db: Database) -> set[tuple[Any, ...]]:
    return set(
        await db.rows(
            "SELECT profile_id, event_id, ticket_type_id, timeslot_id FROM scanner_profile_targets"
        )
    )


async def _order(db: Database, ids: dict[str, uuid.UUID], **values: str) -> uuid.UUID:
    order = {"channel": "online", "payment_method": "card", "status": "pending", **values}
    order_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO orders (id, organization_id, event_id, event_timeslot_id, buyer_name, "
        "buyer_email, channel, payment_method, status, total_price) "
        "VALUES (?, ?, ?, ?, 'Ada', 'ada@example.com', ?, ?, ?, 0)",
        order_id, ids["org"], ids["event"], ids["slot"],
        order["channel"], order["payment_method"], order["status"],
    )  # fmt: skip
    return order_id


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_existing_targets_move_to_foreign_keys_and_the_rules_hold(
    engine: str, tmp_path: Path
) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        ids = await _seed(db)
        await db.migrate("forwards", RULES.ID)

        assert await _targets(db) == {
            (ids["profile"], ids["event"], None, None),
            (ids["profile"], None, ids["type"], None),
            (ids["profile"], None, None, ids["slot"]),
        }
        order_id = await _order(db, ids)
        refusals: Sequence[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE orders SET status = 'paid' WHERE id = ?", (order_id,)),
            ("UPDATE orders SET channel = 'fax' WHERE id = ?", (order_id,)),
            ("UPDATE orders SET payment_method = 'gold' WHERE id = ?", (order_id,)),
            (
                "INSERT INTO scanner_profile_targets (id, profile_id) VALUES (?, ?)",
                (uuid.uuid4(), ids["profile"]),
            ),
            (
                "UPDATE scanner_profile_targets SET timeslot_id = ? WHERE event_id = ?",
                (ids["slot"], ids["event"]),
            ),
        ]
        for statement, args in refusals:
            with pytest.raises(db.refused):
                await db.execute(statement, *args)
        with pytest.raises(db.refused):
            await _order(db, ids, status="shipped")
        await db.execute("UPDATE orders SET status = 'confirmed' WHERE id = ?", order_id)

        await db.execute("DELETE FROM timeslots WHERE id = ?", ids["slot"])
        assert await _targets(db) == {
            (ids["profile"], ids["event"], None, None),
            (ids["profile"], None, ids["type"], None),
        }

        await db.migrate("backwards", RULES.ID)
        kinds = await db.rows("SELECT kind, target_id FROM scanner_profile_targets")
        assert set(kinds) == {("event", ids["event"]), ("ticket_type", ids["type"])}
        await db.execute("UPDATE orders SET status = 'paid' WHERE id = ?", order_id)


WEBHOOKS = importlib.import_module("db.migrations.ticketing_2026_11_23t02_02_30_000000")


async def _delivery(db: Database, ids: dict[str, uuid.UUID], event_type: str) -> uuid.UUID:
    """An outbox event of ``event_type`` and a delivery of it to the organization's webhook."""
    event_id, delivery_id = uuid.uuid4(), uuid.uuid4()
    await db.execute(
        "INSERT INTO outbox_events (id, organization_id, event_type) VALUES (?, ?, ?)",
        event_id, ids["org"], event_type,
    )  # fmt: skip
    await db.execute(
        "INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, status) "
        "VALUES (?, ?, ?, ?, 'pending')",
        delivery_id, ids["org"], ids["webhook"], event_id,
    )  # fmt: skip
    return delivery_id


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_webhook_operations_migration_allows_the_new_values_and_goes_back(
    engine: str, tmp_path: Path
) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        ids = await _seed(db)
        await db.migrate("forwards", RULES.ID)
        ids["webhook"] = uuid.uuid4()
        await db.execute(
            "INSERT INTO webhooks (id, organization_id, url, secret) VALUES (?, ?, 'https://', '')",
            ids["webhook"], ids["org"],
        )  # fmt: skip
        with pytest.raises(db.refused):
            await _delivery(db, ids, "webhook.test")
        kept = await _delivery(db, ids, "order.created")
        await db.migrate("forwards", WEBHOOKS.ID)

        await _delivery(db, ids, "webhook.test")
        await db.execute("UPDATE webhook_deliveries SET status = 'exhausted' WHERE id = ?", kept)
        with pytest.raises(db.refused):
            await db.execute("UPDATE webhook_deliveries SET status = 'lost' WHERE id = ?", kept)
        later = datetime(YEAR, 1, 1, tzinfo=UTC)
        await db.execute(
            "UPDATE webhooks SET previous_secret = 'old', previous_secret_expires_at = ? "
            "WHERE id = ?",
            later, ids["webhook"],
        )  # fmt: skip
        await db.execute(
            "UPDATE webhook_deliveries SET attempt_started_at = ? WHERE id = ?", later, kept
        )
        attempt = (
            "INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt) VALUES (?, ?, 1)"
        )
        await db.execute(attempt, uuid.uuid4(), kept)
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
            await db.execute(attempt, uuid.uuid4(), kept)

        await db.migrate("backwards", WEBHOOKS.ID)
        assert await db.rows("SELECT id, status FROM webhook_deliveries") == [(kept, "failed")]
        with pytest.raises(db.refused):
            await _delivery(db, ids, "webhook.test")


SHARE = importlib.import_module("db.migrations.ticketing_2026_11_23t03_55_00_000000")


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_the_handed_out_mark_is_added_with_its_indexes_and_goes_back(
    engine: str, tmp_path: Path
) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", WEBHOOKS.ID)
        ids = {"org": uuid.uuid4(), "webhook": uuid.uuid4()}
        await db.execute("INSERT INTO organizations (id, name) VALUES (?, 'Org')", ids["org"])
        await db.execute(
            "INSERT INTO webhooks (id, organization_id, url, secret) VALUES (?, ?, 'https://', '')",
            ids["webhook"], ids["org"],
        )  # fmt: skip
        kept = await _delivery(db, ids, "order.created")
        await db.migrate("forwards", SHARE.ID)

        handed_out = "UPDATE webhook_deliveries SET dispatched_at = ? WHERE id = ?"
        await db.execute(handed_out, datetime(YEAR, 1, 1, tzinfo=UTC), kept)
        names = (
            "SELECT name FROM sqlite_master WHERE type = 'index'"
            if db.sqlite
            else "SELECT indexname FROM pg_indexes WHERE tablename = 'webhook_deliveries'"
        )
        indexes = {name for (name,) in await db.rows(names)}
        assert {"deliveries_handed_out", "deliveries_due_per_webhook"} <= indexes

        await db.migrate("backwards", SHARE.ID)
        assert await db.rows("SELECT id, status FROM webhook_deliveries") == [(kept, "pending")]
        indexes = {name for (name,) in await db.rows(names)}
        assert not {"deliveries_handed_out", "deliveries_due_per_webhook"} & indexes
