"""The reference floor: the same stack as the service, bare (Litestar + asyncpg on the server that
``ticketing serve`` uses), doing the least a request of the service can do.

``GET /key`` hashes the bearer key and reads its row by the unique index of ``api_keys.key_hash``
(one round trip on a pooled connection), answering the row as JSON: what authentication costs
without any of the service's own code. ``GET /hello`` answers a constant: the framework alone.

``POST /write/{counter_id}`` is the least a write of the service needs (an order taking capacity,
a scan admitting a ticket): in one transaction, the key lookup, one conditional
``UPDATE ... RETURNING`` of a counter (``used < capacity``) and one ``INSERT`` into a log; 201 with
the counter's new figure, or 409 when it is full. The floor creates its two tables
(:data:`FLOOR_TABLES`) at start-up; a bench inserts the counters it writes to: one with a large
capacity is a hot timeslot, one per ticket with a capacity of 1 is an admission.

The bench starts it beside the service in the same run (``bench/run.py``), on the same server, so
that every figure of the service is also a ratio to this floor measured seconds apart on the same
machine and server.

    DATABASE_URL=postgresql://... .venv/bin/python bench/floor.py --port 8100 --workers 2
"""

from __future__ import annotations

import argparse
import hashlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
from litestar import Litestar, Request, get, post
from litestar.exceptions import ClientException, NotAuthorizedException

KEY_BY_HASH = "SELECT id, organization_id, user_id, scopes FROM api_keys WHERE key_hash = $1"
FLOOR_TABLES = (
    "CREATE TABLE IF NOT EXISTS floor_counters "
    "(id UUID PRIMARY KEY, used INTEGER NOT NULL DEFAULT 0, capacity INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS floor_log "
    "(id UUID PRIMARY KEY DEFAULT gen_random_uuid(), counter_id UUID NOT NULL, "
    "organization_id UUID NOT NULL, written_at TIMESTAMPTZ NOT NULL DEFAULT now())",
)
TAKE = "UPDATE floor_counters SET used = used + 1 WHERE id = $1 AND used < capacity RETURNING used"
LOG = "INSERT INTO floor_log (counter_id, organization_id) VALUES ($1, $2)"


def create_app() -> Litestar:
    pool: dict[str, asyncpg.Pool] = {}

    @asynccontextmanager
    async def database(_: Litestar) -> AsyncIterator[None]:
        pool["main"] = await asyncpg.create_pool(
            os.environ["DATABASE_URL"],
            min_size=0,
            max_size=int(os.environ.get("TICKETING_DATABASE_POOL_SIZE", "20")),
        )
        async with pool["main"].acquire() as connection, connection.transaction():
            # The processes of one floor start together: one creates the tables at a time.
            await connection.execute("SELECT pg_advisory_xact_lock(hashtext('floor_tables'))")
            for statement in FLOOR_TABLES:
                await connection.execute(statement)
        try:
            yield
        finally:
            await pool["main"].close()

    @get("/key")
    async def key(request: Request[Any, Any, Any]) -> dict[str, str]:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        digest = hashlib.sha256(token.encode()).hexdigest()
        row = await pool["main"].fetchrow(KEY_BY_HASH, digest)
        if row is None:
            raise NotAuthorizedException()
        return {
            "id": str(row["id"]),
            "organization_id": str(row["organization_id"]),
            "user_id": str(row["user_id"]),
            "scopes": row["scopes"],
        }

    @post("/write/{counter_id:uuid}", status_code=201)
    async def write(request: Request[Any, Any, Any], counter_id: UUID) -> dict[str, int]:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        digest = hashlib.sha256(token.encode()).hexdigest()
        async with pool["main"].acquire() as connection, connection.transaction():
            key = await connection.fetchrow(KEY_BY_HASH, digest)
            if key is None:
                raise NotAuthorizedException()
            used = await connection.fetchval(TAKE, counter_id)
            if used is None:
                raise ClientException(status_code=409, detail="full")
            await connection.execute(LOG, counter_id, key["organization_id"])
        return {"used": used}

    @get("/hello")
    async def hello() -> dict[str, str]:
        return {"hello": "world"}

    return Litestar(route_handlers=[key, write, hello], lifespan=[database], logging_config=None)


def main() -> None:
    """Serve the floor on the server ``ticketing serve`` uses (granian, ASGI, uvloop)."""
    from granian import Granian
    from granian.constants import Interfaces, Loops

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    Granian(
        "floor:create_app",
        address="127.0.0.1",
        port=args.port,
        interface=Interfaces.ASGI,
        workers=args.workers,
        loop=Loops.uvloop,
        factory=True,
        working_dir=Path(__file__).resolve().parent,
        log_access=False,
    ).serve()


if __name__ == "__main__":
    main()
