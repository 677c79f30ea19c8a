"""``ticketing worker --metrics-port``: the worker's own ``GET /metrics`` for Prometheus, and the
``/healthz`` and ``/readyz`` an orchestrator probes (CONTRACT.md section 13, as the API's).

A minimal HTTP/1.1 responder on the worker's event loop, so that a scrape reads the outbox
figures from the database at that moment, as the API's ``/metrics`` does (prometheus-client's
own threaded server cannot await the database). One request per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools

import msgspec

from app.runtime.observability import CONTENT_TYPE, exposition
from app.runtime.readiness import CHECK_TIMEOUT_SECONDS, ReadinessProbe
from app.services.outbox import outbox_backlog

READ_TIMEOUT_SECONDS = 5.0
MAX_HEAD_BYTES = 16 * 1024


JSON = "application/json"
PROBLEM = "application/problem+json"


async def _readiness(probe: ReadinessProbe) -> tuple[str, str, bytes]:
    readiness = await probe.check()
    if readiness.ready:
        return "200 OK", JSON, msgspec.json.encode({"status": "ready", "checks": readiness.checks})
    problem = {
        "type": "/problems/not-ready",
        "title": "Not ready",
        "status": 503,
        "detail": f"Not ready: {readiness.failures()}",
        "checks": readiness.checks,
    }
    return "503 Service Unavailable", PROBLEM, msgspec.json.encode(problem)


async def _answer(
    probe: ReadinessProbe, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
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
        elif method == "GET" and path == "/healthz":
            status, media_type, body = "200 OK", JSON, b'{"status":"ok"}'
        elif method == "GET" and path == "/readyz":
            status, media_type, body = await _readiness(probe)
        else:
            status, media_type, body = (
                "404 Not Found", "text/plain", b"GET /metrics, /healthz or /readyz\n"
            )  # fmt: skip
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


async def start_metrics_endpoint(host: str, port: int, probe: ReadinessProbe) -> asyncio.Server:
    """Listen on ``host:port``; close the returned server to stop (and ``probe`` after it)."""
    answer = functools.partial(_answer, probe)
    return await asyncio.start_server(answer, host, port, limit=MAX_HEAD_BYTES)
