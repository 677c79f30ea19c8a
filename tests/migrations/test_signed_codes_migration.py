"""The signed codes migration (2026-11-26T14:00) on PostgreSQL and SQLite: every ticket already
written gets a code signed with a key made for its event, which a stock Ed25519 key verifies;
and the migration goes back."""

from __future__ import annotations

import base64
import importlib
import sqlite3
import uuid
from pathlib import Path

import asyncpg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tests.migrations.test_migrations import Database, _order, fresh

PREVIOUS = importlib.import_module("db.migrations.ticketing_2026_11_26t13_20_00_000000")
SIGNED = importlib.import_module("db.migrations.ticketing_2026_11_26t14_00_00_000000")


async def _seed(db: Database) -> dict[str, uuid.UUID]:
    ids = {name: uuid.uuid4() for name in ("org", "event", "type", "slot")}
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
    return ids


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_existing_tickets_are_signed(engine: str, tmp_path: Path) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", PREVIOUS.ID)
        ids = await _seed(db)
        order_id = await _order(db, ids)
        tickets = [uuid.uuid4(), uuid.uuid4()]
        for sequence, ticket_id in enumerate(tickets, 1):
            await db.execute(
                "INSERT INTO tickets (id, organization_id, event_id, event_timeslot_id, "
                "ticket_type_id, order_id, scannable_code, sequence, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                ticket_id, ids["org"], ids["event"], ids["slot"], ids["type"], order_id,
                f"CODE{sequence}", sequence,
            )  # fmt: skip

        await db.migrate("forwards", SIGNED.ID)
        [(kid, public_key, current)] = await db.rows(
            "SELECT kid, public_key, current FROM scan_keys WHERE event_id = ?", ids["event"]
        )
        assert current
        key = Ed25519PublicKey.from_public_bytes(_unb64(public_key))
        for ticket_id in tickets:
            [(code,)] = await db.rows("SELECT signed_code FROM tickets WHERE id = ?", ticket_id)
            assert code.startswith("T1.") and len(code) == 186
            raw = _unb64(code[3:])
            key.verify(raw[73:], raw[:73])
            assert base64.urlsafe_b64encode(raw[1:9]).rstrip(b"=").decode() == kid
            assert uuid.UUID(bytes=raw[9:25]) == ticket_id
            assert uuid.UUID(bytes=raw[25:41]) == ids["event"]

        await db.migrate("backwards", SIGNED.ID)
        assert len(await db.rows("SELECT id FROM tickets")) == 2
        with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedColumnError)):
            await db.rows("SELECT signed_code FROM tickets")
