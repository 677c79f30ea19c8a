"""The dashboard's migration (2026-11-23T04:00) on PostgreSQL and SQLite: existing members become
admins, the role rule holds, sessions can be stored, and it goes back."""

from __future__ import annotations

import importlib
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.migrations.test_migrations import fresh

BEFORE = importlib.import_module("db.migrations.ticketing_2026_11_23t02_02_30_000000")
DASHBOARD = importlib.import_module("db.migrations.ticketing_2026_11_23t04_00_00_000000")


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_members_become_admins_and_sessions_are_stored(engine: str, tmp_path: Path) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        org, user, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        await db.execute("INSERT INTO organizations (id, name) VALUES (?, 'Org')", org)
        for user_id, email in ((user, "a@example.com"), (other, "b@example.com")):
            await db.execute("INSERT INTO users (id, email) VALUES (?, ?)", user_id, email)
        await db.execute(
            "INSERT INTO memberships (id, organization_id, user_id) VALUES (?, ?, ?)",
            uuid.uuid4(), org, user,
        )  # fmt: skip
        await db.migrate("forwards", DASHBOARD.ID)

        assert await db.rows("SELECT user_id, role FROM memberships") == [(user, "admin")]
        await db.execute(
            "INSERT INTO memberships (id, organization_id, user_id, role) VALUES (?, ?, ?, ?)",
            uuid.uuid4(), org, other, "member",
        )  # fmt: skip
        with pytest.raises(db.refused):
            await db.execute("UPDATE memberships SET role = 'owner' WHERE user_id = ?", user)
        now = datetime(2026, 11, 23, 4, tzinfo=UTC)
        await db.execute(
            "INSERT INTO dashboard_sessions (id, token_hash, user_id, organization_id, "
            "created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)",
            uuid.uuid4(), "f" * 64, user, org, now, now,
        )  # fmt: skip
        await db.execute("DELETE FROM users WHERE id = ?", user)
        assert await db.rows("SELECT token_hash FROM dashboard_sessions") == []

        await db.migrate("backwards", DASHBOARD.ID)
        assert await db.rows("SELECT user_id FROM memberships") == [(other,)]
        await db.migrate("forwards", DASHBOARD.ID)
        assert await db.rows("SELECT role FROM memberships") == [("admin",)]
