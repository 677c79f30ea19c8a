"""A lean load generator: keep-alive HTTP/1.1 over asyncio streams, one connection per client.

The benchmarks run the client on the machine under test, so its CPU cost per request counts
against the server's. httpx spends about 2 ms of CPU per request here, more than the server it
drives; this client spends a small fraction of that, so the figures measure the server.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass


class HttpConnection:
    """One persistent connection; responses must carry Content-Length (the server's do)."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port = host, port
        self._headers = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> HttpConnection:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def _reopen(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def __aexit__(self, *_: object) -> None:
        if self._writer is not None:
            self._writer.close()

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """The status and body of one request; a connection the server closed while it was idle
        (its keep-alive timeout, when a bench lets it rest between slices) is opened again."""
        assert self._reader is not None
        if self._reader.at_eof():
            await self._reopen()
        try:
            return await self._request(method, path, body)
        except (asyncio.IncompleteReadError, ConnectionResetError) as error:
            if isinstance(error, asyncio.IncompleteReadError) and error.partial:
                raise
            await self._reopen()
            return await self._request(method, path, body)

    async def _request(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        assert self._reader is not None and self._writer is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{self._headers}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self._writer.write(head.encode() + b"\r\n" + body)
        response_head = await self._reader.readuntil(b"\r\n\r\n")
        status = int(response_head[9:12])
        lowered = response_head.lower()
        start = lowered.index(b"content-length:") + len(b"content-length:")
        length = int(lowered[start : lowered.index(b"\r\n", start)])
        return status, await self._reader.readexactly(length)


@dataclass
class Phase:
    name: str
    latencies: list[float]
    errors: int
    seconds: float

    def report(self) -> str:
        ordered = sorted(self.latencies)
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        rate = len(ordered) / self.seconds
        return (
            f"{self.name:<18} {rate:7.0f} req/s   p50 {p50:7.1f} ms   p99 {p99:7.1f} ms"
            f"   ({len(ordered)} ok, {self.errors} errors)"
        )


Request = Callable[[HttpConnection], Awaitable[bool]]
REQUEST_TIMEOUT_SECONDS = 30.0


async def run_phase(
    name: str, connections: list[HttpConnection], seconds: float, request: Request
) -> Phase:
    """Each connection sends ``request`` back to back for ``seconds``; ``request`` says whether
    the answer was the expected one."""
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def worker(connection: HttpConnection) -> None:
        nonlocal errors
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                good = await asyncio.wait_for(request(connection), REQUEST_TIMEOUT_SECONDS)
            except TimeoutError:
                raise SystemExit(
                    f"{name}: no answer within {REQUEST_TIMEOUT_SECONDS:.0f} s"
                ) from None
            if good:
                latencies.append(time.perf_counter() - started)
            else:
                errors += 1

    began = time.perf_counter()
    await asyncio.gather(*(worker(connection) for connection in connections))
    return Phase(name, latencies, errors, time.perf_counter() - began)
