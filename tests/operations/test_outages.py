"""What an operator meets when a dependency is missing or goes away (issue 24, items 9 and 11): a
database that does not exist or a role it refuses is one line from every command and a 503
problem from ``serve``; Redis going away and coming back is one line each in ``serve``'s log."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.harness import POSTGRES_URL, RUN_NAME
from tests.processes import RedisServer, served, ticketing
from tests.support import Tenant, problem

MISSING = f"{RUN_NAME}_missing"
MISSING_URL = f"{POSTGRES_URL.rstrip('/')}/{MISSING}"
ORG = "6d1f9c4e-0000-4000-8000-000000000000"


def _with_role(role: str) -> str:
    scheme, _, rest = POSTGRES_URL.rstrip("/").partition("://")
    return f"{scheme}://{role}@{rest.rpartition('@')[2]}/{RUN_NAME}"


COMMANDS = [
    ("migrate",),
    ("org", "create", "--name", "First"),
    ("api-key", "revoke", ORG),
]


async def test_every_command_says_in_one_line_that_the_database_does_not_exist() -> None:
    outcomes = await asyncio.gather(*(ticketing(*c, DATABASE_URL=MISSING_URL) for c in COMMANDS))
    for outcome in outcomes:
        line = outcome.failure()
        assert f'database "{MISSING}"' in line and "does not exist: create it first" in line, line
        assert "ticketing migrate" in line, line


async def test_a_role_the_database_refuses_is_one_line_naming_it() -> None:
    url = _with_role("no_such_role_for_ticketing")
    for outcome in await asyncio.gather(*(ticketing(*c, DATABASE_URL=url) for c in COMMANDS)):
        line = outcome.failure()
        assert 'refused role "no_such_role_for_ticketing"' in line, line
        assert f'database "{RUN_NAME}"' in line and "DATABASE_URL" in line, line


@pytest.mark.slow
async def test_serve_answers_503_problems_while_its_database_does_not_exist() -> None:
    async with (
        served(DATABASE_URL=MISSING_URL) as server,
        httpx.AsyncClient(base_url=server.url, timeout=10) as client,
    ):
        refused = problem(
            await client.get("/whoami", headers={"Authorization": "Bearer tk_live_x"}), 503
        )
        assert refused["type"] == "/problems/unavailable"
        assert problem(await client.get("/readyz"), 503)["checks"]["database"] != "ok"
    log = server.log()
    assert "Traceback" not in log, log
    assert f'database "{MISSING}"' in log and "does not exist: create it first" in log, log


@pytest.mark.slow
async def test_serve_logs_one_line_when_redis_goes_away_and_one_when_it_is_back(
    tenant: Tenant,
) -> None:
    redis = RedisServer()
    await redis.start()
    try:
        async with (
            served(REDIS_URL=redis.url, TICKETING_RATE_LIMIT_PER_MINUTE="100000") as server,
            httpx.AsyncClient(base_url=server.url, timeout=10, headers=tenant.headers) as client,
        ):
            assert (await client.get("/whoami")).status_code == 200
            await redis.stop()
            # Three seconds of requests without Redis: the live listener tries again every
            # second and every request meets the rate limiter.
            for _ in range(15):
                assert (await client.get("/whoami")).status_code == 200
                await asyncio.sleep(0.2)
            await server.wait_for_log("Redis is unavailable")
            await redis.start()
            deadline = asyncio.get_running_loop().time() + 20
            while "Redis is back" not in server.log():
                assert asyncio.get_running_loop().time() < deadline, server.log()
                assert (await client.get("/whoami")).status_code == 200
                await asyncio.sleep(0.2)
            assert (await client.get("/readyz")).status_code == 200
    finally:
        await redis.stop()
    log = server.log()
    assert "Traceback" not in log, log
    assert log.count("Redis is unavailable") == 1, log
    assert log.count("Redis is back") == 1, log
