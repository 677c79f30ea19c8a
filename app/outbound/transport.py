"""The httpx transport of webhook deliveries: every connection made by PublicNetworkBackend.

httpx's own ``AsyncHTTPTransport`` builds its httpcore pool itself and takes no network backend,
so this is a transport of our own on httpx's public custom-transport interface
(``httpx.AsyncBaseTransport``) over httpcore's public ``AsyncHTTPConnection``, each given our
backend, kept in a pool of its own (see :class:`PublicTransport`). It does what httpx's transport
does for a request: convert the request, send it over a connection, and raise httpx's exception
for each httpcore one, so callers see plain httpx errors.
An error that is not httpcore's (:class:`BlockedAddress` from the backend) passes through as is.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import cast

import httpcore
import httpx

from app.outbound.url_safety import PublicNetworkBackend

EXCEPTIONS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    # Most specific first: the first match is raised.
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)
"""httpcore's exceptions and the httpx exception each one becomes."""


@contextmanager
def httpx_errors() -> Iterator[None]:
    """Raise httpx's exception in place of httpcore's (with the same message)."""
    try:
        yield
    except tuple(source for source, _ in EXCEPTIONS) as error:
        mapped = next(to for source, to in EXCEPTIONS if isinstance(error, source))
        raise mapped(str(error)) from error


OriginKey = tuple[bytes, bytes, int]
"""An origin's scheme, host and port (``httpcore.Origin`` is not hashable)."""


class _ResponseStream(httpx.AsyncByteStream):
    """A response's body; closing it hands its connection back (``done``)."""

    def __init__(self, stream: AsyncIterable[bytes], done: Callable[[], Awaitable[None]]) -> None:
        self._stream = stream
        self._done: Callable[[], Awaitable[None]] | None = done

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with httpx_errors():
            async for chunk in self._stream:
                yield chunk

    async def aclose(self) -> None:
        try:
            close = getattr(self._stream, "aclose", None)
            if close is not None:
                with httpx_errors():
                    await close()
        finally:
            done, self._done = self._done, None
            if done is not None:
                await done()


class PublicTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over TLS verified against the system's CA store (no environment proxies or
    certificates), with up to ``max_connections`` requests at once, each connection kept alive
    between requests (httpx's keep-alive expiry); connections only to public addresses unless
    ``allow_private``.

    The pool is this class's, of httpcore's public :class:`httpcore.AsyncHTTPConnection`: a stack
    of idle connections per origin, the most recently used taken first. httpcore's own
    ``AsyncConnectionPool`` walks all its connections (and, for each idle one, all of them again)
    on every request and every response: with the worker's 200 connections that was a fifth of
    its time.
    """

    def __init__(self, *, allow_private: bool, max_connections: int = 100) -> None:
        self._ssl_context = httpx.create_ssl_context(trust_env=False)
        self._backend = PublicNetworkBackend(allow_private=allow_private)
        self._keepalive_expiry = httpx.Limits().keepalive_expiry
        self._max_connections = max_connections
        self._slots = asyncio.Semaphore(max_connections)
        self._idle: dict[OriginKey, deque[httpcore.AsyncHTTPConnection]] = {}
        self._idle_count = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        origin = core_request.url.origin
        wait = request.extensions.get("timeout", {}).get("pool")
        try:
            async with asyncio.timeout(wait):
                await self._slots.acquire()
        except TimeoutError as error:
            raise httpx.PoolTimeout("no connection became free in time") from error
        connection: httpcore.AsyncHTTPConnection | None = None
        try:
            connection = await self._checkout(origin)
            with httpx_errors():
                response = await connection.handle_async_request(core_request)
        except BaseException:
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.aclose()
            self._slots.release()
            raise

        async def done() -> None:
            self._slots.release()
            await self._checkin(origin, connection)

        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            # httpcore's async connection answers with an async stream.
            stream=_ResponseStream(cast(AsyncIterable[bytes], response.stream), done),
            extensions=response.extensions,
        )

    async def _checkout(self, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection:
        """A kept-alive connection to ``origin`` that is still usable, or a new one."""
        key = (origin.scheme, origin.host, origin.port)
        idle = self._idle.get(key)
        while idle:
            connection = idle.pop()
            self._idle_count -= 1
            if connection.is_available() and not connection.has_expired():
                return connection
            with contextlib.suppress(Exception):
                await connection.aclose()
        self._idle.pop(key, None)
        return httpcore.AsyncHTTPConnection(
            origin=origin,
            ssl_context=self._ssl_context,
            keepalive_expiry=self._keepalive_expiry,
            network_backend=self._backend,
        )

    async def _checkin(
        self, origin: httpcore.Origin, connection: httpcore.AsyncHTTPConnection
    ) -> None:
        """Keep ``connection`` for the next request to ``origin`` if it stays open; close the
        oldest idle one of the origin if it has expired, and any beyond ``max_connections``."""
        if not connection.is_idle():
            await connection.aclose()
            return
        idle = self._idle.setdefault((origin.scheme, origin.host, origin.port), deque())
        idle.append(connection)
        self._idle_count += 1
        if len(idle) > 1 and (idle[0].has_expired() or self._idle_count > self._max_connections):
            self._idle_count -= 1
            with contextlib.suppress(Exception):
                await idle.popleft().aclose()

    async def __aenter__(self) -> PublicTransport:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        idle, self._idle, self._idle_count = self._idle, {}, 0
        for connections in idle.values():
            for connection in connections:
                with contextlib.suppress(Exception):
                    await connection.aclose()
