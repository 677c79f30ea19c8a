"""``ticketing worker --metrics-port``: the worker's own ``GET /metrics`` for Prometheus.

A minimal HTTP/1.1 responder on the worker's event loop, so that a scrape reads the outbox
figures from the database at that moment, as the API's ``/metrics`` does (prometheus-client's
own threaded server cannot await the database). One request per connection.
"""

from __future__ import annotations

import asyncio
import contextlib

from app.runtime.observability import CONTENT_TYPE, exposition
from app.runtime.readiness import CHECK_TIMEOUT_SECONDS
from app.services.outbox import outbox_backlog

READ_TIMEOUT_SECONDS = 5.0
MAX_HEAD_BYTES = 16 * 1024


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        async with asyncio.timeout(READ_TIMEOUT_SECONDS):
            head = await reader.readuntil(b"\r\n\r\n")
        method, _, rest = head.decode("latin-1").partition(" ")
        path = rest.partition(" ")[0].partition("?")[0]
        if method == "GET" and path == "/metrics":
            backlog = None
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                    backlog = await outbox_backlog()
            status, media_type, body = "200 OK", CONTENT_TYPE, exposition(backlog)
        else:
            status, media_type, body = "404 Not Found", "text/plain", b"GET /metrics\n"
        writer.write(
            f"HTTP/1.1 {status}\r\ncontent-type: {media_type}\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()
    except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
        pass
    finally:
        writer.close()


async def start_metrics_endpoint(host: str, port: int) -> asyncio.Server:
    """Listen on ``host:port``; close the returned server to stop."""
    return await asyncio.start_server(_answer, host, port, limit=MAX_HEAD_BYTES)
