"""The test harness itself, run as a user runs it: ``scripts/test`` with a service down runs the
unit tests, says the integration tests were not run and fails; a run leaves neither its database
nor any Redis key of its own behind."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import uuid
from pathlib import Path

import asyncpg
import pytest
import redis.asyncio as redis_asyncio

from tests.harness import POSTGRES_URL, REDIS_URL, free_port

ROOT = Path(__file__).resolve().parents[2]
RUN_TIMEOUT_SECONDS = 300


async def run(command: list[str], **environment: str) -> tuple[int, str]:
    """Run ``command`` in the project folder; its exit code and its output (stdout and stderr)."""
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=ROOT,
        env={**os.environ, **environment},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), RUN_TIMEOUT_SECONDS)
    assert process.returncode is not None
    return process.returncode, output.decode()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("setting", "url", "service"),
    [
        ("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:{port}", "PostgreSQL"),
        ("TEST_REDIS_URL", "redis://127.0.0.1:{port}/0", "Redis"),
    ],
)
async def test_with_a_service_down_only_the_unit_tests_run_and_the_run_fails(
    setting: str, url: str, service: str
) -> None:
    closed = free_port()
    code, output = await run(
        [
            str(ROOT / "scripts" / "test"),
            "tests/unit/test_money.py",
            "tests/sales/test_events.py",
            "-q",
        ],
        **{setting: url.format(port=closed)},
    )
    assert code != 0, output
    assert "INTEGRATION TESTS NOT RUN" in output
    assert f"not answering: {service} at 127.0.0.1:{closed}" in output
    assert re.search(r"The \d+ integration tests were NOT run", output)
    assert re.search(r"^16 passed, \d+ deselected in ", output, re.MULTILINE), output
    assert "database dropped" not in output


async def _databases(prefix: str) -> list[str]:
    connection = await asyncpg.connect(f"{POSTGRES_URL.rstrip('/')}/postgres")
    try:
        rows = await connection.fetch(
            "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", prefix
        )
    finally:
        await connection.close()
    return [row["datname"] for row in rows]


async def _redis_keys(prefix: str) -> list[bytes]:
    client = redis_asyncio.Redis.from_url(REDIS_URL)
    try:
        return [key async for key in client.scan_iter(match=f"*{prefix}*", count=1000)]
    finally:
        await client.aclose()


@pytest.mark.slow
async def test_a_run_drops_its_database_and_deletes_its_redis_keys() -> None:
    """The rate-limit tests count in Redis and the worker test runs an arq worker: both write
    keys under the run's name, and none is left once the run is over."""
    prefix = f"ticketing_harness_{uuid.uuid4().hex[:8]}_"
    code, output = await run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "tests/auth/test_rate_limits.py",
            "tests/webhooks/test_webhooks_worker.py::test_worker_delivers_an_order_confirmation_signed",
        ],
        TEST_DATABASE_PREFIX=prefix,
    )  # fmt: skip
    assert code == 0, output
    cleaned = re.search(
        rf"test run ({prefix}\w+): database dropped, (\d+) Redis keys deleted", output
    )
    assert cleaned, output
    assert int(cleaned[2]) > 0
    assert await _databases(prefix) == []
    assert await _redis_keys(prefix) == []
