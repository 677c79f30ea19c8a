"""The reference floor: the same stack as the service, bare (Litestar + asyncpg on the server that
``ticketing serve`` uses), doing the least a request of the service can do.

``GET /key`` hashes the bearer key and reads its row by the unique index of ``api_keys.key_hash``
(one round trip on a pooled connection), answering the row as JSON: what authentication costs
without any of the service's own code. ``GET /hello`` answers a constant: the framework alone.

The bench starts it beside the service in the same run (``bench/run.py``), so that every figure
of the service is also a ratio to this floor measured minutes apart on the same machine.

    DATABASE_URL=postgresql://... .venv/bin/python bench/floor.py --port 8100 --workers 2
"""

from __future__ import annotations

import argparse
import hashlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from litestar import Litestar, Request, get
from litestar.exceptions import NotAuthorizedException

KEY_BY_HASH = "SELECT id, organization_id, user_id, scopes FROM api_keys WHERE key_hash = $1"


def create_app() -> Litestar:
    pool: dict[str, asyncpg.Pool] = {}

    @asynccontextmanager
    async def database(_: Litestar) -> AsyncIterator[None]:
        pool["main"] = await asyncpg.create_pool(
            os.environ["DATABASE_URL"],
            min_size=0,
            max_size=int(os.environ.get("TICKETING_DATABASE_POOL_SIZE", "20")),
        )
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

    @get("/hello")
    async def hello() -> dict[str, str]:
        return {"hello": "world"}

    return Litestar(route_handlers=[key, hello], lifespan=[database], logging_config=None)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    uvicorn.run(
        "floor:create_app",
        factory=True,
        host="127.0.0.1",
        port=args.port,
        workers=args.workers,
        log_level="warning",
        access_log=False,
        app_dir=os.path.dirname(os.path.abspath(__file__)),
    )


if __name__ == "__main__":
    main()
