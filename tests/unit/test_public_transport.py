"""The delivery transport on httpx's and httpcore's public interfaces: requests reach a listener
on 127.0.0.1 only when private targets are allowed, and httpcore's errors arrive as httpx's."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpcore
import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.outbound.transport import PublicTransport
from app.outbound.url_safety import BlockedAddress, PublicNetworkBackend
from tests.harness import free_port


class _Served:
    """A TCP listener on 127.0.0.1 (``serving`` yields a URL on it) whose connections go to
    ``_handle``; ``_release`` lets held connections end when it stops."""

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Nothing is held by default."""

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[str]:
        server = await asyncio.start_server(self._handle, "127.0.0.1", free_port())
        try:
            yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/hook"
        finally:
            self._release()
            server.close()
            await asyncio.wait_for(server.wait_closed(), 5)


class Listener(_Served):
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

    def _release(self) -> None:
        self.silent.set()


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


async def test_a_host_whose_resolver_hangs_holds_one_resolver_thread_not_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many attempts to a host whose DNS never answers share one resolution, so the event loop's
    executor (two threads here) still resolves other hosts; an address needs no resolver."""
    hung = threading.Event()
    real = socket.getaddrinfo

    def getaddrinfo(host: str, *args: Any, **kwargs: Any) -> Any:
        if host == "hangs.example":
            hung.wait(30)
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=2))
    listener = Listener(ANSWER)
    try:
        async with listener.serving() as url, client(allow_private=True, timeout=20) as http:
            stuck = [
                asyncio.create_task(http.post(f"http://hangs.example:{n + 1}/hook"))
                for n in range(6)
            ]
            await asyncio.sleep(0)
            by_name = await asyncio.wait_for(
                http.post(url.replace("127.0.0.1", "localhost"), content=b"{}"), 5
            )
            by_address = await asyncio.wait_for(http.post(url, content=b"{}"), 5)
            hung.set()
            errors = await asyncio.gather(*stuck, return_exceptions=True)
    finally:
        hung.set()
    assert (by_name.status_code, by_address.status_code) == (202, 202)
    assert all(isinstance(error, httpx.ConnectError) for error in errors)


class KeepAliveListener(_Served):
    """A TCP listener on 127.0.0.1 answering 200 to every request of a connection, kept open;
    with ``hold`` set, each answer waits until ``hold`` is released. Counts connections, and the
    most requests it had in hand at once."""

    def __init__(self, hold: asyncio.Event | None = None) -> None:
        self.hold = hold
        self.connections = 0
        self.open = 0
        self.in_hand = 0
        self.most_in_hand = 0
        self.busier = asyncio.Event()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.open += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.lower().split(b"\r\n")
                    if line.startswith(b"content-length:")
                )
                await reader.readexactly(length)
                self.in_hand += 1
                if self.in_hand > self.most_in_hand:
                    self.most_in_hand = self.in_hand
                    self.busier.set()
                if self.hold is not None:
                    await self.hold.wait()
                self.in_hand -= 1
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.open -= 1
            writer.close()

    def _release(self) -> None:
        if self.hold is not None:
            self.hold.set()


async def _open_at_most(listeners: list[KeepAliveListener], most: int) -> int:
    """The connections open at the listeners, once they are ``most`` or fewer (bounded poll: a
    close reaches the listener a moment after the client made it)."""
    for _ in range(500):
        if sum(listener.open for listener in listeners) <= most:
            break
        await asyncio.sleep(0.01)
    return sum(listener.open for listener in listeners)


async def test_one_kept_alive_connection_carries_requests_one_after_another() -> None:
    listener = KeepAliveListener()
    async with listener.serving() as url, client(allow_private=True) as http:
        answers = [await http.post(url, content=b"{}") for _ in range(20)]
    assert [(a.status_code, a.content) for a in answers] == [(200, b"ok")] * 20
    assert listener.connections == 1


async def test_requests_beyond_max_connections_wait_for_a_free_one() -> None:
    hold = asyncio.Event()
    listener = KeepAliveListener(hold)
    transport = PublicTransport(allow_private=True, max_connections=3)
    async with listener.serving() as url, httpx.AsyncClient(transport=transport) as http:
        sending = [asyncio.create_task(http.post(url, content=b"{}")) for _ in range(10)]
        while listener.most_in_hand < 3:
            listener.busier.clear()
            await asyncio.wait_for(listener.busier.wait(), 10)
        assert not any(task.done() for task in sending)
        hold.set()
        answers = await asyncio.wait_for(asyncio.gather(*sending), 10)
    assert [answer.status_code for answer in answers] == [200] * 10
    assert listener.most_in_hand == 3
    assert listener.connections == 3


async def test_idle_connections_of_all_origins_together_stay_within_max_connections() -> None:
    """A kept-alive connection counts against ``max_connections`` whatever its origin: a request
    to a new origin closes an idle connection to another one."""
    listeners = [KeepAliveListener() for _ in range(4)]
    transport = PublicTransport(allow_private=True, max_connections=2)
    async with contextlib.AsyncExitStack() as stack:
        urls = [await stack.enter_async_context(listener.serving()) for listener in listeners]
        http = await stack.enter_async_context(httpx.AsyncClient(transport=transport))
        for url in urls:
            assert (await http.post(url, content=b"{}")).status_code == 200
        assert await _open_at_most(listeners, 2) == 2
    assert [listener.connections for listener in listeners] == [1, 1, 1, 1]


async def test_an_idle_connection_is_closed_once_it_expires_whatever_its_origin() -> None:
    """A lone idle connection to one origin is closed once it has expired, by the pool's next
    request to any origin."""
    lone, busy = KeepAliveListener(), KeepAliveListener()
    transport = PublicTransport(allow_private=True, keepalive_expiry=0.05)
    async with (
        lone.serving() as lone_url,
        busy.serving() as busy_url,
        httpx.AsyncClient(transport=transport) as http,
    ):
        await http.post(lone_url, content=b"{}")
        for _ in range(500):  # bounded: the connection expires 50 ms after its request
            await http.post(busy_url, content=b"{}")
            if not lone.open:
                break
            await asyncio.sleep(0.01)
        assert (lone.open, lone.connections) == (0, 1)


async def test_a_kept_alive_connection_the_server_closed_is_not_used_again() -> None:
    """The server answers with keep-alive, then closes: the next request opens a new connection
    instead of failing on the dead one."""
    closed = asyncio.Event()

    async def answer_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(2)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()
        await writer.wait_closed()
        closed.set()

    server = await asyncio.start_server(answer_once, "127.0.0.1", free_port())
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/hook"
    try:
        async with client(allow_private=True) as http:
            first = await http.post(url, content=b"{}")
            await asyncio.wait_for(closed.wait(), 5)
            for _ in range(100):  # until the client's side has seen the end of the stream
                await asyncio.sleep(0)
            second = await http.post(url, content=b"{}")
    finally:
        server.close()
        await asyncio.wait_for(server.wait_closed(), 5)
    assert (first.status_code, second.status_code) == (200, 200)


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``localhost`` (and its key), as PEM files in ``directory``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


async def test_tls_verifies_the_url_host_on_the_checked_address(tmp_path: Path) -> None:
    """Over TLS, the connection made to the resolved address verifies the certificate against
    the URL's host name: the right name goes through, another one is refused."""
    cert_file, key_file = _certificate(tmp_path)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert_file, key_file)
    client_context = ssl.create_default_context(cafile=str(cert_file))
    listener = KeepAliveListener()
    server = await asyncio.start_server(
        listener._handle, "127.0.0.1", free_port(), ssl=server_context
    )
    port = server.sockets[0].getsockname()[1]
    backend = PublicNetworkBackend(allow_private=True)
    try:
        async with httpcore.AsyncConnectionPool(
            ssl_context=client_context, network_backend=backend
        ) as pool:
            answer = await pool.request("POST", f"https://localhost:{port}/hook", content=b"{}")
            assert (answer.status, answer.content) == (200, b"ok")
            with pytest.raises(httpcore.ConnectError):
                await pool.request("POST", f"https://127.0.0.1:{port}/hook", content=b"{}")
    finally:
        server.close()
        await asyncio.wait_for(server.wait_closed(), 5)
