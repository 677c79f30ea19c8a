"""Test harness: a fresh PostgreSQL database per run, the app in-process, a tenant per test.

Every test creates its own organization(s), and every row is scoped by organization, so tests are
isolated without truncation and can share one migrated database. The run's database is dropped at
the end. Several runs may go on at once (each has its own database and its own arq queue name).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

RUN_ID = uuid.uuid4().hex[:12]
POSTGRES = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432")
DATABASE_NAME = f"ticketing_test_{RUN_ID}"
os.environ["DATABASE_URL"] = f"{POSTGRES}/{DATABASE_NAME}"
os.environ.setdefault("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.pop("REDIS_URL", None)
os.environ["TICKETING_QUEUE_NAME"] = f"ticketing-test:{RUN_ID}"
os.environ["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "1"
os.environ["TICKETING_WEBHOOK_RETRY_BASE_SECONDS"] = "1"
os.environ["TICKETING_PUBLIC_URL"] = "http://127.0.0.1:8000"

import asyncpg  # noqa: E402
import httpx  # noqa: E402
import pytest  # noqa: E402
from piccolo.engine.base import Engine  # noqa: E402

from tests.support import Tenant, new_tenant  # noqa: E402


async def _admin(statement: str) -> None:
    connection = await asyncpg.connect(f"{POSTGRES}/postgres")
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def pytest_sessionstart(session: pytest.Session) -> None:
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{DATABASE_NAME}"'))
    except OSError as error:
        pytest.exit(f"PostgreSQL is not reachable at {POSTGRES} ({error}); see README", 2)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)'))


@pytest.fixture(scope="session")
async def database() -> AsyncIterator[Engine]:
    """The migrated run database with the connection pool open (statements counted), shared by
    tests and the app."""
    from app.settings import get_settings
    from db.engine import bind_engine, create_engine, start_engine, stop_engine
    from db.migrate import migrate
    from tests.statements import install_counter

    engine = create_engine(get_settings())
    bind_engine(engine)
    await migrate()
    await start_engine(engine, on_connect=install_counter)
    yield engine
    await stop_engine(engine)


@pytest.fixture(scope="session")
async def client(database: Engine) -> AsyncIterator[httpx.AsyncClient]:
    """The app in-process, in the test's event loop (its lifespan is the ``database`` fixture)."""
    from app.settings import get_settings
    from rest.app import create_app

    transport = httpx.ASGITransport(app=create_app(get_settings(), engine=database))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver.local") as client:
        yield client


@pytest.fixture
async def make_tenant(client: httpx.AsyncClient) -> Callable[..., Awaitable[Tenant]]:
    """Build a fresh organization with one member and an API key (all scopes unless told)."""
    return new_tenant


@pytest.fixture
async def tenant(make_tenant: Callable[..., Awaitable[Tenant]]) -> Tenant:
    return await make_tenant()


@pytest.fixture
async def other_tenant(make_tenant: Callable[..., Awaitable[Tenant]]) -> Tenant:
    return await make_tenant(name="Other Org")
