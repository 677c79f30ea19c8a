"""The httpx transport of webhook deliveries: every connection made by PublicNetworkBackend.

httpx's own ``AsyncHTTPTransport`` builds its httpcore pool itself and takes no network backend,
so this is a transport of our own on httpx's public custom-transport interface
(``httpx.AsyncBaseTransport``) over a public ``httpcore.AsyncConnectionPool`` that is given our
backend. It does what httpx's transport does for a request: convert the request, send it through
the pool, and raise httpx's exception for each httpcore one, so callers see plain httpx errors.
An error that is not httpcore's (:class:`BlockedAddress` from the backend) passes through as is.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterator
from contextlib import contextmanager
from types import TracebackType

import httpcore
import httpx

from app.services.url_safety import PublicNetworkBackend

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


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with httpx_errors():
            async for chunk in self._stream:
                yield chunk

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None)
        if close is not None:
            with httpx_errors():
                await close()


class PublicTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over TLS verified against the system's CA store (no environment proxies or
    certificates), with up to ``max_connections`` connections, each kept alive between requests
    (httpx's keep-alive expiry); connections only to public addresses unless ``allow_private``."""

    def __init__(self, *, allow_private: bool, max_connections: int = 100) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=httpx.Limits().keepalive_expiry,
            network_backend=PublicNetworkBackend(allow_private=allow_private),
        )

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
        with httpx_errors():
            response = await self._pool.handle_async_request(core_request)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    async def __aenter__(self) -> PublicTransport:
        await self._pool.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        with httpx_errors():
            await self._pool.__aexit__(exc_type, exc_value, traceback)

    async def aclose(self) -> None:
        await self._pool.aclose()
