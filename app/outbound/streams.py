"""httpcore's network stream on asyncio's own streams, for :class:`PublicNetworkBackend`.

httpcore's ``AnyIOBackend`` opens each connection through ``anyio.connect_tcp`` (a task group,
happy-eyeballs events and cancel scopes even for the one address we give it) and sends each write
through anyio's socket stream (a checkpoint and a cancel scope per call): in the worker, opening a
connection cost about three times what ``asyncio.open_connection`` does, which one event to 200
subscriptions pays 200 times, and every request's writes went through anyio too. This is the same
interface (``httpcore.AsyncNetworkStream``, public) on ``asyncio.StreamReader``/``StreamWriter``,
with httpcore's exceptions for timeouts and socket errors, as ``AnyIOStream`` raises them.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One TCP (or TLS) connection: reads, writes and TLS upgrade under httpcore's timeouts."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109 (httpcore's interface)
        try:
            async with asyncio.timeout(timeout):
                return await self._reader.read(max_bytes)
        except TimeoutError as error:
            raise httpcore.ReadTimeout("timed out reading the response") from error
        except OSError as error:
            raise httpcore.ReadError(str(error) or type(error).__name__) from error

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109 (httpcore's interface)
        if not buffer:
            return
        try:
            async with asyncio.timeout(timeout):
                self._writer.write(buffer)
                await self._writer.drain()
        except TimeoutError as error:
            raise httpcore.WriteTimeout("timed out sending the request") from error
        except OSError as error:
            raise httpcore.WriteError(str(error) or type(error).__name__) from error

    async def aclose(self) -> None:
        # Not waiting for the close to complete: over TLS that waits for the peer's close_notify
        # (up to asyncio's 30 s), and the connection pool closes connections while holding a
        # slot. asyncio finishes the close on its own.
        self._writer.close()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                await self._writer.start_tls(ssl_context, server_hostname=server_hostname)
        except TimeoutError as error:
            await self.aclose()
            raise httpcore.ConnectTimeout("timed out in the TLS handshake") from error
        except (OSError, ssl.SSLError) as error:
            await self.aclose()
            raise httpcore.ConnectError(str(error) or type(error).__name__) from error
        return self

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # Idle, a kept-alive connection has nothing to read: the server closed it (or sent
            # something it should not have), so it is not to be used again.
            return self._reader.at_eof() or self._writer.is_closing()
        if info == "ssl_object":
            return self._writer.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._writer.get_extra_info("sockname")
        if info == "server_addr":
            return self._writer.get_extra_info("peername")
        if info == "socket":
            return self._writer.get_extra_info("socket")
        return None


async def connect_tcp(
    address: str,
    port: int,
    timeout: float | None,  # noqa: ASYNC109 (httpcore's interface)
    local_address: str | None,
    socket_options: Iterable[Any] | None,
) -> AsyncioStream:
    """A connection to ``address`` (an IP address: nothing is resolved here)."""
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                address, port, local_addr=None if local_address is None else (local_address, 0)
            )
    except TimeoutError as error:
        raise httpcore.ConnectTimeout(f"timed out connecting to port {port}") from error
    except OSError as error:
        raise httpcore.ConnectError(str(error) or type(error).__name__) from error
    sock = writer.get_extra_info("socket")
    for option in socket_options or ():
        sock.setsockopt(*option)
    return AsyncioStream(reader, writer)
