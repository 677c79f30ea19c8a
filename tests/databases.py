"""Extra PostgreSQL databases for tests that need one of their own (empty, not migrated)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg


def _server() -> str:
    """The PostgreSQL server of this run (tests/conftest.py put its database in DATABASE_URL)."""
    return os.environ["DATABASE_URL"].rsplit("/", 1)[0]


async def admin(statement: str) -> None:
    connection = await asyncpg.connect(f"{_server()}/postgres")
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@asynccontextmanager
async def empty_database() -> AsyncIterator[str]:
    """A new, empty database (dropped afterwards); its URL."""
    name = f"ticketing_empty_{uuid.uuid4().hex[:12]}"
    await admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{_server()}/{name}"
    finally:
        await admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
