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
from collections import OrderedDict, deque
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
    of idle connections per origin, the most recently used taken first; idle and busy
    connections of all origins together stay within ``max_connections``, and an expired one is
    closed at the pool's next request or answer, whatever its origin. httpcore's own
    ``AsyncConnectionPool`` walks all its connections (and, for each idle one, all of them again)
    on every request and every response: see docs/decisions.md, "The webhook transport keeps a
    pool of its own", for the A/B that keeps this one.
    """

    def __init__(
        self,
        *,
        allow_private: bool,
        max_connections: int = 100,
        keepalive_expiry: float | None = httpx.Limits().keepalive_expiry,
    ) -> None:
        self._ssl_context = httpx.create_ssl_context(trust_env=False)
        self._backend = PublicNetworkBackend(allow_private=allow_private)
        self._keepalive_expiry = keepalive_expiry
        self._max_connections = max_connections
        self._slots = asyncio.Semaphore(max_connections)
        self._in_use = 0
        self._idle: dict[OriginKey, deque[httpcore.AsyncHTTPConnection]] = {}
        self._idle_order: OrderedDict[httpcore.AsyncHTTPConnection, OriginKey] = OrderedDict()
        """Every idle connection, the longest idle first; an origin's are in its deque in the
        same order, so the longest idle of all is the first of its origin's."""

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
        self._in_use += 1
        connection: httpcore.AsyncHTTPConnection | None = None
        try:
            connection = await self._checkout(origin)
            with httpx_errors():
                response = await connection.handle_async_request(core_request)
        except BaseException:
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.aclose()
            self._release()
            raise

        async def done() -> None:
            self._release()
            await self._checkin(origin, connection)

        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            # httpcore's async connection answers with an async stream.
            stream=_ResponseStream(cast(AsyncIterable[bytes], response.stream), done),
            extensions=response.extensions,
        )

    def _release(self) -> None:
        self._in_use -= 1
        self._slots.release()

    async def _checkout(self, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection:
        """A kept-alive connection to ``origin`` that is still usable, or a new one, for which
        the longest idle connection of any origin is closed when all ``max_connections`` are
        open."""
        await self._close_idle(expired_only=True)
        key = (origin.scheme, origin.host, origin.port)
        idle = self._idle.get(key)
        while idle:
            connection = idle.pop()
            del self._idle_order[connection]
            if connection.is_available() and not connection.has_expired():
                return connection
            await _close(connection)
        self._idle.pop(key, None)
        await self._close_idle()
        return httpcore.AsyncHTTPConnection(
            origin=origin,
            ssl_context=self._ssl_context,
            keepalive_expiry=self._keepalive_expiry,
            network_backend=self._backend,
        )

    async def _checkin(
        self, origin: httpcore.Origin, connection: httpcore.AsyncHTTPConnection
    ) -> None:
        """Keep ``connection`` for the next request to ``origin`` if it stays open."""
        if not connection.is_idle():
            await connection.aclose()
            return
        key = (origin.scheme, origin.host, origin.port)
        self._idle.setdefault(key, deque()).append(connection)
        self._idle_order[connection] = key
        await self._close_idle()

    async def _close_idle(self, *, expired_only: bool = False) -> None:
        """Close the idle connections, of whatever origin, that have expired or (unless
        ``expired_only``) that make more than ``max_connections`` open with those in use (a
        request about to open one counts as in use); the longest idle first."""
        while self._idle_order:
            oldest, key = next(iter(self._idle_order.items()))
            if not oldest.has_expired() and (
                expired_only or len(self._idle_order) + self._in_use <= self._max_connections
            ):
                return
            del self._idle_order[oldest]
            idle = self._idle[key]
            idle.popleft()
            if not idle:
                del self._idle[key]
            await _close(oldest)

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
        idle, self._idle, self._idle_order = self._idle_order, {}, OrderedDict()
        for connection in idle:
            await _close(connection)


async def _close(connection: httpcore.AsyncHTTPConnection) -> None:
    with contextlib.suppress(Exception):
        await connection.aclose()
