"""Webhook targets must be publicly reachable (CONTRACT.md section 6).

A URL is checked when a subscription is created and again at every delivery, at connection time:
:class:`PublicNetworkBackend` resolves the host, refuses to connect when any address is not public
and connects to exactly the address it checked, so a DNS answer that changes between the check
and the connection (DNS rebinding) cannot reach an internal service. Odd IPv4 spellings
(``2130706433``, ``0x7f.1``, ``0177.0.0.1``) need no special case: the resolver turns them into the
address they stand for, and that address is what is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import httpcore

from app.errors import InvalidInput
from app.outbound import streams

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")


class BlockedAddress(Exception):
    """The target host resolves to an address that webhooks may not reach."""


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address carried by an IPv4-mapped, 6to4, Teredo or NAT64 IPv6 address."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64_PREFIX:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_public(address: IPAddress) -> bool:
    """False for loopback, private, link-local, CGNAT, multicast, reserved and unspecified."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None and not is_public(embedded):
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or address.is_loopback
        or address.is_link_local
        or address.is_private
    )


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to, in the resolver's order, without duplicates.

    An address in its standard spelling is that address, without asking the resolver (which runs
    in a thread of the event loop's executor); any other spelling goes to the resolver. Raises
    :class:`OSError` (``socket.gaierror``) when it does not resolve.
    """
    literal = host.strip("[]")
    if "%" not in literal:
        with contextlib.suppress(ValueError):
            return [ipaddress.ip_address(literal)]
    infos = await asyncio.get_running_loop().getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM
    )
    addresses: dict[IPAddress, None] = {}
    for _family, _type, _proto, _name, sockaddr in infos:
        addresses[ipaddress.ip_address(str(sockaddr[0]).split("%")[0])] = None
    return list(addresses)


def _blocked(host: str, addresses: Iterable[IPAddress]) -> str | None:
    """Why ``host`` may not be reached, or None. The addresses it resolves to are not named:
    the message reaches the subscriber (an error or the delivery log), and the DNS answers of
    this network are none of its business."""
    if all(is_public(address) for address in addresses):
        return None
    return f"{host} is not publicly reachable"


async def public_addresses(host: str, port: int, *, allow_private: bool) -> list[IPAddress]:
    """The addresses of ``host``; :class:`BlockedAddress` if any is not public (unless allowed)."""
    addresses = await resolve(host, port)
    if not allow_private:
        reason = _blocked(host, addresses)
        if reason:
            raise BlockedAddress(reason)
    return addresses


async def check_webhook_url(url: str, *, allow_private: bool) -> str:
    """Validate a subscription URL at creation; return it unchanged or raise :class:`InvalidInput`.

    https only (http too when private targets are allowed, for local development), no credentials
    in the URL, and a host that resolves to public addresses only.
    """
    if any(ord(char) <= 0x20 or ord(char) == 0x7F for char in url):
        raise InvalidInput.field("url", "must not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise InvalidInput.field("url", f"not a valid URL: {error}") from None
    allowed_schemes = {"https", "http"} if allow_private else {"https"}
    if parts.scheme not in allowed_schemes:
        raise InvalidInput.field("url", "must be an absolute https:// URL")
    if not parts.hostname:
        raise InvalidInput.field("url", "must name a host")
    if parts.username is not None or parts.password is not None:
        raise InvalidInput.field("url", "must not carry credentials")
    if allow_private:
        return url
    try:
        addresses = await resolve(parts.hostname, port)
    except (OSError, UnicodeError):
        raise InvalidInput.field("url", f"host {parts.hostname} does not resolve") from None
    reason = _blocked(parts.hostname, addresses)
    if reason:
        raise InvalidInput.field("url", f"must be publicly reachable: host {reason}")
    return url


class PublicNetworkBackend(httpcore.AsyncNetworkBackend):
    """Connects only to checked addresses: resolve, check every address, connect to one of them.

    TLS still verifies the certificate against the URL's host name (httpcore passes the origin's
    host as ``server_hostname``), so pinning the address costs no security. The connections are
    asyncio's own streams (:mod:`app.outbound.streams`), not anyio's.

    Connections to one host that start while its name is being resolved share that resolution:
    the resolver runs in the event loop's few executor threads, and a subscriber whose DNS never
    answers would otherwise hold them all (each of its attempts waiting out its timeout) and stall
    every other subscriber's connections.
    """

    def __init__(self, *, allow_private: bool) -> None:
        self._allow_private = allow_private
        self._resolving: dict[str, asyncio.Future[list[IPAddress]]] = {}

    async def _addresses(self, host: str, port: int) -> list[IPAddress]:
        """The checked addresses of ``host`` (whatever the port: only the addresses are used)."""
        resolving = self._resolving.get(host)
        if resolving is None:
            resolving = asyncio.ensure_future(
                public_addresses(host, port, allow_private=self._allow_private)
            )
            self._resolving[host] = resolving
            resolving.add_done_callback(lambda done: self._resolved(host, done))
        # One waiter giving up (its attempt's timeout) leaves the resolution to the others.
        return await asyncio.shield(resolving)

    def _resolved(self, host: str, done: asyncio.Future[list[IPAddress]]) -> None:
        self._resolving.pop(host, None)
        if not done.cancelled():
            done.exception()  # retrieved even when every waiter gave up

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await self._addresses(host, port)
        except OSError as error:
            raise httpcore.ConnectError(f"{host} does not resolve: {error}") from error
        last_error: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                return await streams.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as error:
                last_error = error
        assert last_error is not None
        raise last_error

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise BlockedAddress("webhooks are not delivered to unix sockets")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
