"""Test harness: unit tests first, then the integration tests against the run's own PostgreSQL
database, with the app in-process and a tenant per test.

``tests/unit/`` holds the pure rules; they need neither PostgreSQL nor Redis and run first. The
run's database is created when an integration test first asks for it (the ``database`` fixture)
and dropped at the end, with every Redis key the run created (see ``tests/harness.py`` for the
settings). When PostgreSQL or Redis does not answer, the unit tests still run, the integration
tests are not run, the summary says so and the run fails.

Every integration test creates its own organization(s), and every row is scoped by organization,
so tests are isolated without truncation and share one migrated database. Several runs may go on
at once (each has its own database, arq queue and Redis names).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

try:
    from tests import harness
except ValueError as error:  # a malformed TEST_* setting
    raise pytest.UsageError(str(error)) from None

os.environ["DATABASE_URL"] = harness.DATABASE_URL
os.environ.pop("REDIS_URL", None)
os.environ["TICKETING_QUEUE_NAME"] = harness.RUN_NAME
os.environ["TICKETING_ALLOW_PRIVATE_WEBHOOKS"] = "1"
os.environ["TICKETING_WEBHOOK_RETRY_BASE_SECONDS"] = "1"
os.environ["TICKETING_PUBLIC_URL"] = "http://127.0.0.1:8000"

import httpx
from piccolo.engine.base import Engine

from tests.support import Tenant, new_tenant

UNIT_TESTS = Path(__file__).parent / "unit"
NOT_RUN = pytest.StashKey[tuple[list[str], int]]()
"""Why the integration tests were not run, and how many there were."""
CREATED = pytest.StashKey[bool]()
"""Whether this run created its database (and so has things to clean up)."""
CLEANED = pytest.StashKey[str]()


def _is_unit(item: pytest.Item) -> bool:
    return UNIT_TESTS in item.path.parents


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Unit tests first; the integration tests only when PostgreSQL and Redis answer."""
    items.sort(key=lambda item: not _is_unit(item))
    integration = [item for item in items if not _is_unit(item)]
    if not integration:
        return
    down = asyncio.run(harness.unavailable_services())
    if down:
        config.stash[NOT_RUN] = (down, len(integration))
        config.hook.pytest_deselected(items=integration)
        items[:] = [item for item in items if _is_unit(item)]


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    if NOT_RUN not in config.stash:
        return []
    down, count = config.stash[NOT_RUN]
    return [f"not answering: {line}" for line in down] + [
        f"only the unit tests run: the {count} integration tests will NOT run"
    ]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.stash.get(NOT_RUN, None) is not None:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if session.config.stash.get(CREATED, False):
        asyncio.run(harness.drop_database())
        keys = asyncio.run(harness.delete_run_keys())
        session.config.stash[CLEANED] = (
            f"test run {harness.RUN_NAME}: database dropped, {keys} Redis keys deleted"
        )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    config = terminalreporter.config
    if CLEANED in config.stash:
        terminalreporter.write_line(config.stash[CLEANED])
    if NOT_RUN in config.stash:
        down, count = config.stash[NOT_RUN]
        terminalreporter.write_sep("=", "INTEGRATION TESTS NOT RUN", red=True, bold=True)
        for line in down:
            terminalreporter.write_line(f"not answering: {line}", red=True)
        terminalreporter.write_line(
            f"The {count} integration tests were NOT run (only the unit tests were): start the "
            "services (see README) and run again. This run fails.",
            red=True,
            bold=True,
        )


@pytest.fixture(scope="session")
async def database(pytestconfig: pytest.Config) -> AsyncIterator[Engine]:
    """The run's database, created and migrated on first use, with the connection pool open
    (statements counted), shared by tests and the app."""
    await harness.create_database()
    pytestconfig.stash[CREATED] = True
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
    from ticketing.application import create_app

    transport = httpx.ASGITransport(app=create_app(get_settings(), engine=database))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver.local") as client:
        yield client


AppClient = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]


@pytest.fixture
def app_client(database: Engine) -> AppClient:
    """``async with app_client(graphiql=False) as client``: the app in-process with some
    settings changed (the composition root gets them, as ``ticketing serve`` would)."""
    from app.settings import get_settings
    from ticketing.application import create_app

    @asynccontextmanager
    async def changed(**settings: Any) -> AsyncIterator[httpx.AsyncClient]:
        app = create_app(dataclasses.replace(get_settings(), **settings), engine=database)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver.local") as c:
            yield c

    return changed


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
