"""The delivery transport on httpx's and httpcore's public interfaces: requests reach a listener
on 127.0.0.1 only when private targets are allowed, and httpcore's errors arrive as httpx's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from app.services.public_transport import PublicTransport
from app.services.url_safety import BlockedAddress
from tests.harness import free_port


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections and answers each one with ``answer``
    (nothing at all when ``answer`` is None)."""

    def __init__(self, answer: bytes | None) -> None:
        self.answer = answer
        self.connections = 0
        self.silent = asyncio.Event()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await reader.readuntil(b"\r\n\r\n")
            if self.answer is None:
                await self.silent.wait()
            else:
                writer.write(self.answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[str]:
        server = await asyncio.start_server(self._handle, "127.0.0.1", free_port())
        try:
            yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/hook"
        finally:
            self.silent.set()
            server.close()
            await asyncio.wait_for(server.wait_closed(), 5)


def client(*, allow_private: bool, timeout: float = 5.0) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=PublicTransport(allow_private=allow_private), timeout=timeout
    )


ANSWER = b"HTTP/1.1 202 Accepted\r\ncontent-length: 5\r\nconnection: close\r\n\r\nthere"


async def test_a_request_goes_through_and_its_answer_streams_back() -> None:
    listener = Listener(ANSWER)
    async with listener.serving() as url, client(allow_private=True) as http:
        response = await http.post(url, content=b"{}")
    assert (response.status_code, response.content) == (202, b"there")
    assert listener.connections == 1


async def test_a_private_address_is_refused_before_any_connection() -> None:
    listener = Listener(ANSWER)
    async with listener.serving() as url, client(allow_private=False) as http:
        with pytest.raises(BlockedAddress):
            await http.post(url, content=b"{}")
        with pytest.raises(BlockedAddress):
            await http.post(url.replace("127.0.0.1", "localhost"), content=b"{}")
    assert listener.connections == 0


async def test_httpcore_errors_arrive_as_httpx_errors() -> None:
    async with client(allow_private=True) as http:
        with pytest.raises(httpx.ConnectError):
            await http.post(f"http://127.0.0.1:{free_port()}/hook", content=b"{}")
    silent = Listener(None)
    async with silent.serving() as url, client(allow_private=True, timeout=0.2) as http:
        with pytest.raises(httpx.ReadTimeout):
            await http.post(url, content=b"{}")
    garbled = Listener(b"not http at all\r\n\r\n")
    async with garbled.serving() as url, client(allow_private=True) as http:
        with pytest.raises(httpx.RemoteProtocolError):
            await http.post(url, content=b"{}")
