"""The offline scanning migration (2026-11-23T03:45) on PostgreSQL and SQLite: existing scan log
rows get their ``created_at`` as ``scanned_at`` and ``received_at``, a nonce is unique per
organization (rows without one never conflict), and the migration goes back."""

from __future__ import annotations

import importlib
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from tests.dates import YEAR
from tests.migrations.test_migrations import BEFORE, RULES, Database, _order, _seed, fresh

WEBHOOKS = importlib.import_module("db.migrations.ticketing_2026_11_23t02_02_30_000000")
OFFLINE = importlib.import_module("db.migrations.ticketing_2026_11_23t03_45_00_000000")
DUPLICATE = (sqlite3.IntegrityError, asyncpg.UniqueViolationError)


async def _scan(db: Database, ids: dict[str, uuid.UUID], nonce: str | None = None) -> uuid.UUID:
    scan_id = uuid.uuid4()
    moment = datetime(YEAR, 6, 1, 20, 0, tzinfo=UTC)
    await db.execute(
        "INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, created_at, "
        "scanned_at, received_at, nonce) VALUES (?, ?, ?, ?, 'valid', ?, ?, ?, ?)",
        scan_id, ids["org"], ids["ticket"], ids["scanner"], moment, moment, moment, nonce,
    )  # fmt: skip
    return scan_id


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_offline_scanning_migration(engine: str, tmp_path: Path) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        ids = await _seed(db)
        await db.migrate("forwards", RULES.ID)
        await db.migrate("forwards", WEBHOOKS.ID)
        order_id = await _order(db, ids)
        ids["ticket"], ids["scanner"], old = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        await db.execute(
            "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, "
            "ticket_type_id, order_id, scannable_code, sequence) VALUES (?, ?, ?, ?, ?, ?, 'C', 1)",
            ids["ticket"], ids["org"], ids["event"], ids["slot"], ids["type"], order_id,
        )  # fmt: skip
        await db.execute(
            "INSERT INTO scanners (id, organization_id, name) VALUES (?, ?, 'Door')",
            ids["scanner"], ids["org"],
        )  # fmt: skip
        created = datetime(YEAR, 6, 1, 19, 0, tzinfo=UTC)
        await db.execute(
            "INSERT INTO scans (id, organization_id, ticket_id, scanner_id, status, created_at) "
            "VALUES (?, ?, ?, ?, 'valid', ?)",
            old, ids["org"], ids["ticket"], ids["scanner"], created,
        )  # fmt: skip

        await db.migrate("forwards", OFFLINE.ID)
        [(scanned_at, received_at, nonce)] = await db.rows(
            "SELECT scanned_at, received_at, nonce FROM scans WHERE id = ?", old
        )
        assert scanned_at == received_at and nonce is None
        if not db.sqlite:
            assert scanned_at == created
        await _scan(db, ids)
        await _scan(db, ids)
        await _scan(db, ids, nonce="device-1:42")
        with pytest.raises(DUPLICATE):
            await _scan(db, ids, nonce="device-1:42")

        await db.migrate("backwards", OFFLINE.ID)
        assert len(await db.rows("SELECT id FROM scans")) == 4
        with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedColumnError)):
            await db.rows("SELECT nonce FROM scans")
