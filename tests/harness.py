"""Where a test run puts its things, from the environment (documented in the README):

- ``TEST_POSTGRES_URL`` (``postgresql://postgres@127.0.0.1:5432``): the PostgreSQL server, without
  a database name; the run creates its database there on first use and drops it at the end.
- ``TEST_DATABASE_PREFIX`` (``ticketing_test_``): the run's name is this prefix and a random id.
  The run's database and its arq queue carry that name, and so does every Redis key the service
  writes for the run (``TICKETING_QUEUE_NAME`` names them all), so the run finds and deletes them.
- ``TEST_REDIS_URL`` (``redis://127.0.0.1:6379/0``): the Redis of the worker and rate-limit tests.
- ``TEST_PORT_RANGE`` (unset: any free port the system gives): ``LOW-HIGH``, the 127.0.0.1 ports
  the run's own servers (``ticketing serve``, webhook receivers, a Redis of its own) listen on.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import socket
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import asyncpg
import redis.asyncio as redis_asyncio
import redis.exceptions

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL") or "postgresql://postgres@127.0.0.1:5432"
REDIS_URL = os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
DATABASE_PREFIX = os.environ.get("TEST_DATABASE_PREFIX") or "ticketing_test_"
PORT_RANGE = os.environ.get("TEST_PORT_RANGE") or ""
CONNECT_TIMEOUT_SECONDS = 5.0


def _port_range(raw: str) -> tuple[int, int] | None:
    if not raw:
        return None
    match = re.fullmatch(r"(\d+)-(\d+)", raw.strip())
    if not match or not 1024 <= int(match[1]) <= int(match[2]) <= 65535:
        raise ValueError(f"TEST_PORT_RANGE must be LOW-HIGH within 1024-65535, got {raw!r}")
    return int(match[1]), int(match[2])


def _run_name(prefix: str) -> str:
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", prefix):
        raise ValueError(
            "TEST_DATABASE_PREFIX must be lower-case letters, digits and _ (at most 41), "
            f"got {prefix!r}"
        )
    return prefix + uuid.uuid4().hex[:12]


PORTS = _port_range(PORT_RANGE)
RUN_NAME = _run_name(DATABASE_PREFIX)
"""The run's database, arq queue and Redis namespace."""
DATABASE_URL = f"{POSTGRES_URL.rstrip('/')}/{RUN_NAME}"


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now, within ``TEST_PORT_RANGE`` if set."""
    if PORTS is None:
        candidates = [0]
    else:
        low, high = PORTS
        candidates = random.sample(range(low, high + 1), min(high - low + 1, 200))
    for port in candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError(f"no free port on 127.0.0.1 in TEST_PORT_RANGE={PORT_RANGE}")


def _where(url: str) -> str:
    """``host:port`` of a service URL (no credentials in messages)."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)


async def _postgres(statement: str) -> None:
    connection = await asyncpg.connect(
        f"{POSTGRES_URL.rstrip('/')}/postgres", timeout=CONNECT_TIMEOUT_SECONDS
    )
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def _redis() -> redis_asyncio.Redis:
    return redis_asyncio.Redis.from_url(
        REDIS_URL,
        socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
        socket_timeout=CONNECT_TIMEOUT_SECONDS,
    )


async def _ping_redis() -> None:
    client = _redis()
    try:
        await client.ping()
    finally:
        await client.aclose()


async def unavailable_services() -> list[str]:
    """One line for each service the integration tests need that does not answer."""
    down: list[str] = []
    try:
        await _postgres("SELECT 1")
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        down.append(f"PostgreSQL at {_where(POSTGRES_URL)} ({error or type(error).__name__})")
    try:
        await _ping_redis()
    except (OSError, TimeoutError, redis.exceptions.RedisError) as error:
        down.append(f"Redis at {_where(REDIS_URL)} ({error or type(error).__name__})")
    return down


async def create_database(name: str = RUN_NAME) -> None:
    await _postgres(f'CREATE DATABASE "{name}"')


async def drop_database(name: str = RUN_NAME) -> None:
    await _postgres(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def run_keys() -> list[bytes]:
    """Every Redis key that carries the run's name."""
    client = _redis()
    try:
        return [key async for key in client.scan_iter(match=f"*{RUN_NAME}*", count=1000)]
    finally:
        await client.aclose()


async def delete_run_keys() -> int:
    """Delete every Redis key that carries the run's name; how many there were."""
    keys = await run_keys()
    client = _redis()
    try:
        for start in range(0, len(keys), 500):
            await client.delete(*keys[start : start + 500])
    finally:
        await client.aclose()
    return len(keys)


@contextlib.asynccontextmanager
async def empty_database() -> AsyncIterator[str]:
    """A database of its own for one test, empty (not migrated), dropped afterwards; its URL."""
    name = f"{RUN_NAME}_empty_{uuid.uuid4().hex[:8]}"
    await _postgres(f'CREATE DATABASE "{name}"')
    try:
        yield f"{POSTGRES_URL.rstrip('/')}/{name}"
    finally:
        await _postgres(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
