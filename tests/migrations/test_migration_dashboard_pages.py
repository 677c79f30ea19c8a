"""The dashboard pages' migration (2026-11-23T04:05) on PostgreSQL and SQLite: the audit log and
its rules, the kinds of existing OAuth grant families, the indexes the pages' reads use (the
planner picks them for exactly the SQL the services send), and the way back."""

from __future__ import annotations

import importlib
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.migrations.test_migrations import Database, fresh

BEFORE = importlib.import_module("db.migrations.ticketing_2026_11_23t04_00_00_000000")
PAGES = importlib.import_module("db.migrations.ticketing_2026_11_23t04_05_00_000000")
NOW = datetime(2026, 11, 23, 4, 5, tzinfo=UTC)


async def plan(db: Database, statement: str, *args: object) -> str:
    """How the database would run ``statement`` (PostgreSQL: with sequential scans off, so that
    a usable index is used however small the table)."""
    if db.sqlite:
        return str(await db.rows(f"EXPLAIN QUERY PLAN {statement}", *args))
    await db.execute("SET enable_seqscan = off")
    return str(await db.rows(f"EXPLAIN {statement}", *args))


async def history(db: Database, org: uuid.UUID, count: int) -> None:
    """``count`` events of ``org`` that ended long ago (an organization with a past), and fresh
    statistics: the overview must not read them to find the few to come (PostgreSQL)."""
    await db.execute(
        "INSERT INTO events (id, organization_id, title, starts_at, created_at, updated_at) "
        "SELECT gen_random_uuid(), ?, 'Past', '2020-01-01T18:00:00Z'::timestamptz "
        "- make_interval(days => i), now(), now() FROM generate_series(1, ?::int) AS i",
        org, count,
    )  # fmt: skip
    await db.execute("ANALYZE events")


@pytest.mark.parametrize("engine", ["postgresql", "sqlite"])
async def test_audit_log_grant_kinds_and_indexes(engine: str, tmp_path: Path) -> None:
    async with fresh(engine, tmp_path) as db:
        await db.migrate("forwards", BEFORE.ID)
        org, user, client = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        authorized, client_token = uuid.uuid4(), uuid.uuid4()
        await db.execute("INSERT INTO organizations (id, name) VALUES (?, 'Org')", org)
        await db.execute("INSERT INTO users (id, email) VALUES (?, 'a@example.com')", user)
        await db.execute(
            "INSERT INTO oauth_clients (id, client_id, organization_id, user_id, name, "
            "redirect_uris, scopes) VALUES (?, 'c1', ?, ?, 'App', '[]', 'events.read')",
            client, org, user,
        )  # fmt: skip
        for grant in (authorized, client_token):
            await db.execute(
                "INSERT INTO oauth_grants (id, client_id, organization_id, user_id, scope) "
                "VALUES (?, ?, ?, ?, 'events.read')",
                grant, client, org, user,
            )  # fmt: skip
        await db.execute(
            "INSERT INTO oauth_authorization_codes (id, code_hash, grant_id, redirect_uri, "
            "scope, expires_at) VALUES (?, ?, ?, 'https://a/cb', 'events.read', ?)",
            uuid.uuid4(), "c" * 64, authorized, NOW,
        )  # fmt: skip
        await db.migrate("forwards", PAGES.ID)

        kinds = set(await db.rows("SELECT id, kind FROM oauth_grants"))
        assert kinds == {(authorized, "authorization_code"), (client_token, "client_credentials")}
        with pytest.raises(db.refused):
            await db.execute("UPDATE oauth_grants SET kind = 'implicit' WHERE id = ?", authorized)

        entry = (
            "INSERT INTO audit_log (id, organization_id, actor_user_id, actor_email, actor_via, "
            "action, target_type, details, created_at) VALUES (?, ?, ?, 'a@example.com', ?, "
            "'webhook.create', 'webhook', '{}', ?)"
        )
        await db.execute(entry, uuid.uuid4(), org, user, "dashboard", NOW)
        with pytest.raises(db.refused):
            await db.execute(entry, uuid.uuid4(), org, user, "telepathy", NOW)
        await db.execute("DELETE FROM oauth_grants")
        await db.execute("DELETE FROM oauth_clients")
        await db.execute("DELETE FROM users WHERE id = ?", user)
        assert await db.rows("SELECT actor_user_id, actor_email FROM audit_log") == [
            (None, "a@example.com")
        ]  # the entry outlives its user

        newest_first = await plan(
            db,
            "SELECT * FROM audit_log WHERE organization_id = ? "
            "ORDER BY created_at DESC, id DESC LIMIT 50",
            org,
        )
        assert "audit_log_org_created" in newest_first
        # Each index serves exactly the condition its service sends.
        upcoming = (
            "SELECT * FROM events WHERE organization_id = ? AND COALESCE(ends_at, starts_at) >= ?"
        )
        assert "events_org_effective_end" in await plan(db, upcoming, org, NOW)
        name = 'lower("owner_name")' + ("" if db.sqlite else ' COLLATE "C"')
        search = (
            f'SELECT * FROM tickets WHERE "organization_id" = ? AND {name} >= ? AND {name} < ? '
            'AND "event_id" = ?'
        )
        found = await plan(db, search, org, "ada", "adb", uuid.uuid4())
        assert "tickets_event_owner_name_search" in found
        if not db.sqlite:
            # With a past, PostgreSQL takes it for the overview's page too (SQLite, the demo's,
            # may walk the start-time index instead: fine at a demo's size).
            await history(db, org, 2000)
            ordered = await plan(db, f"{upcoming} ORDER BY starts_at, id LIMIT 20", org, NOW)
            assert "events_org_effective_end" in ordered

        await db.migrate("backwards", PAGES.ID)
        tables = (
            "SELECT name FROM sqlite_master WHERE name = 'audit_log'"
            if db.sqlite
            else "SELECT tablename FROM pg_tables WHERE tablename = 'audit_log'"
        )
        assert await db.rows(tables) == []
        await db.migrate("forwards", PAGES.ID)
        assert await db.rows("SELECT kind FROM oauth_grants") == []
